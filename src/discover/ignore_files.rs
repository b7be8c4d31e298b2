//! The ignore files the walker reads on its own (`.gitignore`, `.ignore`, a worktree's `.git`
//! file), checked before it may: it reads them whole, line by line, from wherever a link
//! leads. A committed `.gitignore` linked to `/dev/zero` would be read without end, one linked
//! to a FIFO would block, one linked to a file outside the repository would be read there.
//! A folder with such a file is not walked, and the walk says why.

use std::path::{Path, PathBuf};

use super::WalkError;

/// Ignore files larger than this are refused: a real one is a few kilobytes, and each of its
/// lines becomes a pattern held in memory.
pub const MAX_IGNORE_BYTES: u64 = 1024 * 1024;

/// The files of a folder the walker reads.
const READ_BY_THE_WALKER: [&str; 3] = [".gitignore", ".ignore", ".git"];

/// What an ignore file must stay within: the real path of the repository a walk is in.
#[derive(Debug, Clone)]
pub struct Guard {
    repository: PathBuf,
}

impl Guard {
    /// The guard of a walk of `root`: its repository (the nearest folder with `.git`, else
    /// `root` itself).
    pub fn for_root(root: &Path) -> Guard {
        let repository = crate::fs::project::repository_of(root);
        Guard {
            repository: std::fs::canonicalize(&repository).unwrap_or(repository),
        }
    }

    /// The error for the first file of `dir` the walker must not read, if any.
    pub fn check(&self, dir: &Path) -> Option<WalkError> {
        READ_BY_THE_WALKER.iter().find_map(|name| {
            let path = dir.join(name);
            let why = self.refusal(&path)?;
            Some(WalkError {
                message: format!(
                    "`{name}` {why}; toolc does not read it, and does not walk its folder"
                ),
                path,
            })
        })
    }

    /// The error for the first file the walker must not read in `root` or in a folder above
    /// it up to its repository (the walker reads those too).
    /// The error is on `root` itself, which the run reports on.
    pub fn check_root(&self, root: &Path) -> Option<WalkError> {
        let top = crate::fs::project::repository_of(root);
        let mut refused = root
            .ancestors()
            .take_while(|dir| dir.starts_with(&top))
            .find_map(|dir| self.check(dir))?;
        if refused.path.parent() != Some(root) {
            refused.message = format!("`{}`: {}", refused.path.display(), refused.message);
            refused.path = root.to_path_buf();
        }
        Some(refused)
    }

    /// Why the walker must not read `path`, or `None` when it may (or nothing is there).
    fn refusal(&self, path: &Path) -> Option<String> {
        let own = std::fs::symlink_metadata(path).ok()?;
        let is_link = own.file_type().is_symlink();
        // A `.git` folder is git's own; only a `.git` file (a worktree's) is read.
        if own.is_dir() {
            return None;
        }
        let meta = if is_link {
            match std::fs::metadata(path) {
                Ok(meta) => meta,
                // Dangling: the walker finds nothing to read.
                Err(_) => return None,
            }
        } else {
            own
        };
        if is_link {
            let real = std::fs::canonicalize(path).ok()?;
            if !real.starts_with(&self.repository) {
                return Some("is a symbolic link that leads out of the repository".to_string());
            }
        }
        if meta.is_dir() && path.file_name().is_some_and(|n| n == ".git") {
            return None;
        }
        if !meta.is_file() {
            return Some("is not a regular file (a device, FIFO, socket or folder)".to_string());
        }
        if meta.len() > MAX_IGNORE_BYTES {
            return Some(format!(
                "is {} bytes; toolc reads ignore files of at most {} KiB",
                meta.len(),
                MAX_IGNORE_BYTES / 1024
            ));
        }
        None
    }
}
