//! What `check` walks and what it reports on.
//!
//! Whatever is named (files, as pre-commit passes the staged ones; a folder, as a CI job scoped
//! to one), toolc loads the whole project around it,
//! because duplicate names, references and policy are only right when every file is seen, and
//! then reports only on what was named (and on findings elsewhere that point into named
//! files). The project is the nearest folder with `toolc.toml`, else the repository.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::fs::{canonical, normalize};
use crate::source::quick::QuickSet;

/// The paths to walk and the filter on what is reported.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    /// Folders and files to walk (absolute, normalized).
    pub roots: Vec<PathBuf>,
    /// When files were named: the files and folders to report on; `None` reports on all.
    only: Option<Only>,
}

#[derive(Debug, Clone)]
struct Only {
    files: HashSet<PathBuf>,
    /// The texts of `files`, when each is spelt its one way (see [`canonical`]): every file
    /// of a run is asked about, and a `Path` hashes part by part.
    texts: Option<QuickSet<OsString>>,
    dirs: Vec<PathBuf>,
}

impl Scope {
    /// The scope of `paths` (relative to `cwd` or absolute); no paths means `cwd`, all of it
    /// and nothing around it. Each named file or folder is read with its project around it
    /// (see [`project_root`]), and only what was named is reported on, so naming a file, a
    /// folder or the project's root gives the same findings for what was named.
    pub(crate) fn new(paths: &[PathBuf], cwd: &Path, config: &Config) -> Scope {
        // Run without paths, the working directory is the project: a folder one runs toolc in
        // (an example, a test fixture inside a larger repository) is checked as it stands.
        if paths.is_empty() {
            return Scope {
                roots: vec![cwd.to_path_buf()],
                only: None,
            };
        }
        let named: Vec<PathBuf> = paths.iter().map(|p| normalize(&cwd.join(p))).collect();
        let (files, dirs): (Vec<PathBuf>, Vec<PathBuf>) =
            named.iter().cloned().partition(|p| p.is_file());
        // The named files stay roots themselves: one whose name says its format but that
        // matches no pattern is only found that way.
        let mut roots = dirs.clone();
        roots.extend(files.iter().cloned());
        let mut whole = true;
        for path in named.iter().filter(|p| p.exists()) {
            let root = project_root(path, cwd, config);
            whole &= root == *path;
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        Scope {
            roots,
            only: (!whole).then(|| Only {
                texts: files
                    .iter()
                    .all(|f| canonical(f))
                    .then(|| files.iter().map(|f| f.as_os_str().to_owned()).collect()),
                files: files.into_iter().collect(),
                dirs,
            }),
        }
    }

    /// True when `d` is to be reported: its file is in scope, or one of its related places is
    /// in a named file. The second matters for pre-commit: staging a tool that duplicates a
    /// committed one's name, or disabling a tool an agent uses, puts the error on the other
    /// file, and the commit that caused it should still fail.
    pub(crate) fn reports(&self, d: &Diagnostic) -> bool {
        self.reports_on(&d.file.path)
            || self.only.as_ref().is_some_and(|only| {
                d.related
                    .iter()
                    .any(|r| only.files.contains(&normalize(&r.file.path)))
            })
    }

    /// True when a run of this scope checks `path` (absolute): it is walked and reported on.
    /// A file that no longer exists is covered when the folder it was in is.
    pub(crate) fn covers(&self, path: &Path) -> bool {
        let path = normalize(path);
        self.roots.iter().any(|r| path.starts_with(r)) && self.reports_on(&path)
    }

    /// True when findings in every file are to be reported.
    pub(crate) fn reports_all(&self) -> bool {
        self.only.is_none()
    }

    /// True when findings in `path` (absolute) are to be reported.
    pub(crate) fn reports_on(&self, path: &Path) -> bool {
        let Some(only) = &self.only else {
            return true;
        };
        if let Some(texts) = &only.texts
            && only.dirs.is_empty()
            && canonical(path)
        {
            return texts.contains(path.as_os_str());
        }
        // Companion files (schemas) can be reached through `..`; compare like with like (a
        // path without `.` or `..` parts is its own normal form: asked of every file).
        let normal;
        let path = match path.to_str() {
            Some(text) if crate::fs::plain(text) => path,
            _ => {
                normal = normalize(path);
                normal.as_path()
            }
        };
        only.files.contains(path) || only.dirs.iter().any(|d| path.starts_with(d))
    }
}

/// The project a named file or folder belongs to, whose files cross-file rules see with it:
/// the nearest folder at or above it that holds `toolc.toml` (a project of its own, such as
/// an example in a larger repository), else the nearest holding `.git` (a folder, or a file
/// in worktrees and submodules), else the configuration's folder. Outside any project, a
/// named folder is a project of its own, and a named file is read with the folder that holds
/// its format's folder (`.dojops/`, `.claude/`, …) when it is in one, else with the working
/// directory around it when it is inside it (else with its own folder).
///
/// A folder is never widened to the working directory: run from a large parent (a home
/// folder, `/tmp`) on a folder that is in no repository, that would walk the whole parent.
fn project_root(path: &Path, cwd: &Path, config: &Config) -> PathBuf {
    let is_file = path.is_file();
    let start = if is_file {
        path.parent().unwrap_or(path)
    } else {
        path
    };
    if let Some(project) = crate::fs::project::project_of(start) {
        return project.to_path_buf();
    }
    let config_root = normalize(&config.root);
    if config.file.is_some() && path.starts_with(&config_root) {
        return config_root;
    }
    if is_file {
        // A file in a tool's own folder (`.dojops/`, `.claude/`, …) is read with the folder
        // that holds it: the working directory may be far larger (a home folder, `/tmp`).
        if let Some(format_root) = start
            .ancestors()
            .find(|d| {
                d.file_name()
                    .is_some_and(|n| FORMAT_FOLDERS.iter().any(|f| n == *f))
            })
            .and_then(Path::parent)
        {
            return format_root.to_path_buf();
        }
        if path.starts_with(cwd) {
            return cwd.to_path_buf();
        }
    }
    start.to_path_buf()
}

/// The folders the formats keep their files in, at the top of a project.
const FORMAT_FOLDERS: &[&str] = &[".dojops", ".cycod", ".claude", ".vscode", ".cursor"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_that_does_not_exist_is_walked_alone() {
        let cwd = std::env::temp_dir();
        let scope = Scope::new(&[PathBuf::from("no-such-folder")], &cwd, &Config::default());
        assert_eq!(scope.roots, [cwd.join("no-such-folder")]);
        assert!(scope.reports_on(Path::new("/elsewhere/x.tool.md")));
    }

    #[test]
    fn a_folder_in_no_project_is_not_widened_to_the_working_directory() {
        let cwd = std::env::temp_dir().join(format!("toolc-scope-{}", std::process::id()));
        let folder = cwd.join("tools");
        std::fs::create_dir_all(&folder).expect("folder");
        let file = folder.join("a.tool.md");
        std::fs::write(&file, "---\nname: a\n---\n").expect("file");
        let in_git = cwd.ancestors().any(|d| d.join(".git").exists());
        let by_folder = Scope::new(std::slice::from_ref(&folder), &cwd, &Config::default());
        let by_file = Scope::new(std::slice::from_ref(&file), &cwd, &Config::default());
        std::fs::remove_dir_all(&cwd).ok();
        if in_git {
            eprintln!("skipped: the temporary folder is inside a git repository");
            return;
        }
        assert_eq!(by_folder.roots, [folder]);
        assert!(by_file.roots.contains(&cwd), "{:?}", by_file.roots);
    }

    #[test]
    fn a_file_in_a_format_folder_in_no_project_is_read_with_that_folders_project() {
        let cwd = std::env::temp_dir().join(format!("toolc-scope-fmt-{}", std::process::id()));
        let project = cwd.join("big").join("proj");
        let tool = project.join(".dojops/tools/a/tool.yaml");
        std::fs::create_dir_all(tool.parent().expect("folder")).expect("folders");
        std::fs::write(&tool, "name: a\n").expect("file");
        let in_git = cwd.ancestors().any(|d| d.join(".git").exists());
        let scope = Scope::new(std::slice::from_ref(&tool), &cwd, &Config::default());
        std::fs::remove_dir_all(&cwd).ok();
        if in_git {
            eprintln!("skipped: the temporary folder is inside a git repository");
            return;
        }
        // Not the working directory around it, which could hold anything.
        assert!(scope.roots.contains(&project), "{:?}", scope.roots);
        assert!(!scope.roots.contains(&cwd), "{:?}", scope.roots);
    }
}
