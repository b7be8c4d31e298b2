//! The old side of a diff: the files of a git commit (read from git, see `git.rs`) or of a
//! folder, discovered and loaded by the same formats as the working tree.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::DiffError;
use super::git;
use crate::config::Config;
use crate::discover;
use crate::formats::{self, FileResult};
use crate::fs::display_path;
use crate::fs::{Confined, FileSystem};
use crate::scope::Scope;

/// What the working tree is compared with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Against {
    /// A git revision; `None`: the default base (see [`git::default_base`]).
    Git(Option<String>),
    /// A folder, compared as if it were the working directory.
    Dir(PathBuf),
}

impl Against {
    /// `--against VALUE`: a folder when `VALUE` is written as a path (absolute, or starting
    /// with `./` or `../`, or ending with `/`), else a git revision (`REF...`: the merge base
    /// with `REF`). A bare name is never a folder: a folder the repository commits under the
    /// name of the revision a workflow compares with (`v1.4.0`, `origin/main...`) must not
    /// stand in for it where git does not know that revision (a shallow clone). A folder is
    /// named on the command line, so a link out of the repository is not followed to it.
    pub(crate) fn parse(value: Option<&str>, cwd: &Path) -> Result<Against, DiffError> {
        let Some(v) = value else {
            return Ok(Against::Git(None));
        };
        if !written_as_path(v) {
            let merge_base = v.strip_suffix("...").is_some_and(|b| !b.is_empty());
            if !merge_base && cwd.join(v).is_dir() && !git::is_commit(cwd, v) {
                return Err(DiffError(format!(
                    "`{v}` is not a commit of this repository; to compare with the folder of that name, write it as a path: `--against ./{v}`"
                )));
            }
            return Ok(Against::Git(Some(v.to_string())));
        }
        match crate::fs::boundary::named(Path::new(v), cwd) {
            Ok(dir) => Ok(Against::Dir(dir.path().to_path_buf())),
            Err(refused) => Err(DiffError(format!("--against {v} is {refused}"))),
        }
    }
}

/// True when `value` is written as a path, not a name: absolute, `.` or `..`, starting with
/// `./` or `../`, or ending with a separator (no git revision is written so).
fn written_as_path(value: &str) -> bool {
    let separators: &[char] = if cfg!(windows) { &['/', '\\'] } else { &['/'] };
    let relative = [".", ".."].iter().any(|dots| {
        value
            .strip_prefix(dots)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(separators))
    });
    Path::new(value).is_absolute() || relative || value.ends_with(separators)
}

/// The old version, loaded.
pub(super) struct OldSide {
    /// One result per definition file, sorted by path.
    pub results: Vec<FileResult>,
    /// How messages name the old version (`` `HEAD~1` ``, a folder).
    pub label: String,
    /// For a folder: the folder and the working directory it stands for.
    moved: Option<(PathBuf, PathBuf)>,
    /// What the old side's files were read from (a skill's folder is listed through it).
    pub fs: Box<dyn FileSystem>,
}

impl OldSide {
    /// Leave out the files of a commit that the working tree has but did not load: a file
    /// whose content is another tool's now (a `tools.json` that is not a manifest) is not
    /// compared with what it was. The old side was loaded beside the working tree, before
    /// knowing which files it would claim.
    pub(super) fn keep_found(&mut self, new: &[FileResult]) {
        if self.moved.is_some() {
            return;
        }
        let found: HashSet<&Path> = new.iter().map(|r| r.file.path.as_path()).collect();
        self.results
            .retain(|r| found.contains(r.file.path.as_path()) || !r.file.path.is_file());
    }

    /// Where an old file is in the working tree.
    pub(super) fn home(&self, path: &Path) -> PathBuf {
        match &self.moved {
            Some((old_root, new_root)) => match path.strip_prefix(old_root) {
                Ok(rel) => new_root.join(rel),
                Err(_) => path.to_path_buf(),
            },
            None => path.to_path_buf(),
        }
    }
}

/// Load the old side. `scope` is the new side's (what is walked); `found` the definition
/// files the new side found, to skip old files the walk ignores (`.gitignore`). Those of
/// them whose content the new side does not claim are left out after
/// ([`OldSide::keep_found`]).
pub(super) fn load(
    against: &Against,
    cwd: &Path,
    scope: &Scope,
    config: &Config,
    found: &HashSet<PathBuf>,
) -> Result<OldSide, DiffError> {
    match against {
        Against::Dir(dir) => Ok(load_dir(dir, cwd, config)),
        Against::Git(rev) => load_git(rev.as_deref(), cwd, scope, config, found),
    }
}

/// Load what was found; a file whose content is another tool's is left out, as on the new
/// side, or it would look like a removed definition.
fn load_all(fs: &dyn FileSystem, found: Vec<discover::Discovered>, cwd: &Path) -> Vec<FileResult> {
    found
        .par_iter()
        .filter_map(|d| {
            let mut r =
                formats::load_claimed(fs, &d.path, display_path(&d.path, cwd), d.format, d.claim)?;
            // Nothing is checked across the old side's files.
            formats::forget_texts(&mut r);
            Some(r)
        })
        .collect()
}

fn load_dir(dir: &Path, cwd: &Path, config: &Config) -> OldSide {
    // The folder stands for the working directory: include patterns are relative to it.
    let mut config = config.clone();
    config.root = dir.to_path_buf();
    let classifier = crate::formats::classifier(&config);
    let (found, _, _) = discover::discover(&[dir.to_path_buf()], &classifier);
    // The folder's links are followed only within its own repository, as the working tree's.
    let fs = Confined::for_paths(&[dir.to_path_buf()], cwd);
    OldSide {
        results: load_all(&fs, found, cwd),
        label: format!("`{}`", display_path(dir, cwd)),
        moved: Some((dir.to_path_buf(), cwd.to_path_buf())),
        fs: Box::new(fs),
    }
}

fn load_git(
    rev: Option<&str>,
    cwd: &Path,
    scope: &Scope,
    config: &Config,
    found: &HashSet<PathBuf>,
) -> Result<OldSide, DiffError> {
    let error = |e: git::GitError| DiffError(e.0);
    let top = git::top_level(cwd).map_err(error)?;
    let (commit, label) = match rev {
        // `REF...`: the merge base, as `git diff REF...` reads it.
        Some(rev) if rev.ends_with("...") && rev.len() > 3 => {
            let branch = rev.trim_end_matches("...");
            let commit = git::merge_base(cwd, branch).map_err(error)?;
            let label = format!("the merge base with `{branch}` (`{}`)", git::short(&commit));
            (commit, label)
        }
        Some(rev) => {
            let commit = git::resolve(cwd, rev).map_err(error)?;
            (commit, format!("`{rev}`"))
        }
        None => {
            let (commit, label) = git::default_base(cwd).map_err(error)?;
            let label = if label == "HEAD" {
                "`HEAD`".to_string()
            } else {
                label
            };
            (commit, label)
        }
    };
    let tree = git::Tree::read(cwd, &top, &commit).map_err(error)?;
    let classifier = crate::formats::classifier(config);
    let mut discovered = Vec::new();
    for path in tree.paths() {
        if !scope.roots.iter().any(|r| path.starts_with(r)) {
            continue;
        }
        let named = scope.roots.iter().any(|r| r == path);
        let format = if named {
            classifier.classify_explicit(path)
        } else {
            classifier.classify(path)
        };
        let Some(format) = format else { continue };
        if classifier.excluded(path) {
            continue;
        }
        // A file the working tree's walk skips (`.gitignore`) is skipped on this side too, or
        // its tools would look removed.
        if !found.contains(path) && path.is_file() {
            continue;
        }
        let claim = if named {
            classifier.named_claim(path, format)
        } else {
            classifier.claim_of(path, format)
        };
        discovered.push(discover::Discovered {
            path: path.to_path_buf(),
            format,
            claim,
        });
    }
    discovered.sort();
    Ok(OldSide {
        results: load_all(&tree, discovered, cwd),
        label,
        moved: None,
        fs: Box::new(tree),
    })
}

#[cfg(test)]
mod tests {
    use super::written_as_path;

    #[test]
    fn only_a_value_written_as_a_path_is_a_folder() {
        for path in [".", "..", "./old", "../v1", "old/", "/tmp/v1", "./"] {
            assert!(written_as_path(path), "{path}");
        }
        for name in [
            "old",
            "main",
            "v1.4.0",
            "origin/main",
            "origin/main...",
            "HEAD~1",
            "...",
        ] {
            assert!(!written_as_path(name), "{name}");
        }
    }
}
