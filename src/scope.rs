//! What `check` walks and what it reports on.
//!
//! Given folders, toolc walks them and reports on everything found. Given files (as pre-commit
//! passes the staged ones), it still loads the whole repository around them, because duplicate
//! names, references and policy are only right when every file is seen, and then reports only
//! on the named files (and on findings elsewhere that point into them).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::discover::normalize;

/// The paths to walk and the filter on what is reported.
#[derive(Debug, Clone)]
pub struct Scope {
    /// Folders and files to walk (absolute, normalized).
    pub roots: Vec<PathBuf>,
    /// When files were named: the files and folders to report on; `None` reports on all.
    only: Option<Only>,
}

#[derive(Debug, Clone)]
struct Only {
    files: HashSet<PathBuf>,
    dirs: Vec<PathBuf>,
}

impl Scope {
    /// The scope of `paths` (relative to `cwd` or absolute); no paths means `cwd`.
    pub fn new(paths: &[PathBuf], cwd: &Path, config: &Config) -> Scope {
        if paths.is_empty() {
            return Scope {
                roots: vec![cwd.to_path_buf()],
                only: None,
            };
        }
        let absolute: Vec<PathBuf> = paths.iter().map(|p| normalize(&cwd.join(p))).collect();
        let (files, dirs): (Vec<PathBuf>, Vec<PathBuf>) =
            absolute.into_iter().partition(|p| p.is_file());
        if files.is_empty() {
            return Scope {
                roots: dirs,
                only: None,
            };
        }
        // The named files stay roots themselves: one whose name says its format but that
        // matches no pattern is only found that way.
        let mut roots = dirs.clone();
        roots.extend(files.iter().cloned());
        for file in &files {
            let root = repository_root(file, cwd, config);
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        Scope {
            roots,
            only: Some(Only {
                files: files.into_iter().collect(),
                dirs,
            }),
        }
    }

    /// True when `d` is to be reported: its file is in scope, or one of its related places is
    /// in a named file. The second matters for pre-commit: staging a tool that duplicates a
    /// committed one's name, or disabling a tool an agent uses, puts the error on the other
    /// file, and the commit that caused it should still fail.
    pub fn reports(&self, d: &Diagnostic) -> bool {
        self.reports_on(&d.file.path)
            || self.only.as_ref().is_some_and(|only| {
                d.related
                    .iter()
                    .any(|r| only.files.contains(&normalize(&r.file.path)))
            })
    }

    /// True when a run of this scope checks `path` (absolute): it is walked and reported on.
    /// A file that no longer exists is covered when the folder it was in is.
    pub fn covers(&self, path: &Path) -> bool {
        let path = normalize(path);
        self.roots.iter().any(|r| path.starts_with(r)) && self.reports_on(&path)
    }

    /// True when findings in `path` (absolute) are to be reported.
    pub fn reports_on(&self, path: &Path) -> bool {
        let Some(only) = &self.only else {
            return true;
        };
        // Companion files (schemas) can be reached through `..`; compare like with like.
        let path = normalize(path);
        only.files.contains(&path) || only.dirs.iter().any(|d| path.starts_with(d))
    }
}

/// The repository a named file belongs to: the nearest folder holding `.git` (a folder, or a
/// file in worktrees and submodules), else the configuration's folder, else the working
/// directory, else the file's own folder.
fn repository_root(file: &Path, cwd: &Path, config: &Config) -> PathBuf {
    let parent = file.parent().unwrap_or(file);
    if let Some(git) = parent.ancestors().find(|d| d.join(".git").exists()) {
        return git.to_path_buf();
    }
    let config_root = normalize(&config.root);
    if config.file.is_some() && file.starts_with(&config_root) {
        return config_root;
    }
    if file.starts_with(cwd) {
        return cwd.to_path_buf();
    }
    parent.to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_only_report_on_everything_walked() {
        let cwd = std::env::temp_dir();
        let scope = Scope::new(&[PathBuf::from("no-such-folder")], &cwd, &Config::default());
        assert_eq!(scope.roots, [cwd.join("no-such-folder")]);
        assert!(scope.reports_on(Path::new("/elsewhere/x.tool.md")));
    }
}
