//! The ignore files the walker reads on its own (`.gitignore`, `.ignore`, a worktree's `.git`
//! file), checked before it may: it reads them whole, line by line, from wherever a link
//! leads. A committed `.gitignore` linked to `/dev/zero` would be read without end, one linked
//! to a FIFO would block, one linked to a file outside the repository would be read there.
//! A folder with such a file is not walked, and the walk says why.
//!
//! The walker also reads git's own `info/exclude`, through a `.git` folder or a worktree's
//! `.git` file, whose `gitdir:` line (and the `commondir` file there) may name any folder:
//! git writes them, but a folder not cloned by git can hold anything. So the exclude file is
//! read only where every step stays inside the repository; see [`Guard::exclude_leaves`].

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::WalkError;

/// Ignore files larger than this are refused: a real one is a few kilobytes, and each of its
/// lines becomes a pattern held in memory.
pub(super) const MAX_IGNORE_BYTES: u64 = 1024 * 1024;

/// Patterns of all the ignore files of a walk at most, and the wildcards (`*`, `?`, `[`) in
/// them: the walker compiles each pattern, about 900 bytes for a plain one and 20 KB for
/// one of a dozen `*`. One file of 1 MiB took 70 to 400 times its size, and sixteen such
/// files 818 MiB and 11 s; the budget holds a walk's patterns to about 90 MB at worst. A real
/// repository has a few thousand patterns in all.
const MAX_PATTERNS: usize = 50_000;
const MAX_WILDCARDS: usize = 25_000;

/// The `gitdir:` and `commondir` lines read at most: a path, not a file to read whole.
const MAX_POINTER_BYTES: usize = 4096;

/// The files of a folder the walker reads.
const READ_BY_THE_WALKER: [&str; 3] = [".gitignore", ".ignore", ".git"];

/// What an ignore file must stay within: the real path of the repository a walk is in.
#[derive(Debug, Clone)]
pub(super) struct Guard {
    repository: PathBuf,
    /// Whether the walk reads git's `info/exclude` files: not when the one of the walk's
    /// root (or a folder above it) would be read outside the repository.
    git_exclude: bool,
    /// The patterns and wildcards of the ignore files admitted so far, shared by the walk's
    /// threads (a file refused takes none).
    taken: Arc<Mutex<(usize, usize)>>,
    /// Whether the walk's root is its repository's top folder: the ignore files above it
    /// are then outside the repository, and git reads none of them.
    at_top: bool,
}

impl Guard {
    /// The guard of a walk of `root`: its repository (the nearest folder with `.git`, else
    /// `root` itself).
    pub(super) fn for_root(root: &Path) -> Guard {
        let top = crate::fs::project::repository_of(root);
        let mut guard = Guard {
            repository: std::fs::canonicalize(&top).unwrap_or_else(|_| top.clone()),
            git_exclude: true,
            taken: Arc::default(),
            at_top: root == top,
        };
        guard.git_exclude = !root
            .ancestors()
            .take_while(|dir| dir.starts_with(&top))
            .any(|dir| guard.exclude_leaves(dir).is_some())
            // The walker also looks for `.git` in every folder above the root, to `/`: a
            // repository inside a folder with a `.git` file (or link) would have it follow
            // that file's `gitdir:` wherever it leads. Such a walk reads no `info/exclude`.
            && !top.ancestors().skip(1).any(|dir| {
                std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| !m.is_dir())
            });
        guard
    }

    /// Whether the walker reads the ignore files of the folders above the walk's root: only
    /// within the repository (the walker would read them up to `/`, and a `.git` file there
    /// names a git folder anywhere).
    pub(super) fn parents(&self) -> bool {
        !self.at_top
    }

    /// Whether the walk may read git's `info/exclude` files (see [`Guard::exclude_leaves`]).
    pub(super) fn git_exclude(&self) -> bool {
        self.git_exclude
    }

    /// The error for the first file of `dir` the walker must not read, if any.
    pub(super) fn check(&self, dir: &Path) -> Option<WalkError> {
        let refusal = |name: &str, why: String| WalkError {
            message: format!(
                "`{name}` {why}; toolc does not read it, and does not walk its folder"
            ),
            path: dir.join(name),
        };
        READ_BY_THE_WALKER
            .iter()
            .find_map(|name| Some(refusal(name, self.refusal(&dir.join(name))?)))
            .or_else(|| {
                let why = self.exclude_leaves(dir).filter(|_| self.git_exclude)?;
                Some(refusal(".git", why))
            })
    }

    /// The error for the first file the walker must not read in `root` or in a folder above
    /// it up to its repository (the walker reads those too).
    /// The error is on `root` itself, which the run reports on.
    pub(super) fn check_root(&self, root: &Path) -> Option<WalkError> {
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

    /// Why the walker must not read the `info/exclude` of the git folder of `dir`, or `None`
    /// when it may (or would read none). Followed as the walker follows it: a `.git` folder's
    /// own; a `.git` file's `gitdir:` (taken as written: the walker resolves a relative one
    /// against the working directory), when that folder has a `commondir`, then the folder it
    /// names. Every step must lie inside the repository, and the exclude file must be a
    /// regular file of at most [`MAX_IGNORE_BYTES`]. Only `dir/.git` and files inside the
    /// repository are read to find out; nothing a step names outside it is opened.
    ///
    /// A worktree made by `git worktree add` elsewhere has its git folder outside: its
    /// `info/exclude` is then not honoured (its `.gitignore` files are).
    pub(super) fn exclude_leaves(&self, dir: &Path) -> Option<String> {
        let dot_git = dir.join(".git");
        let own = std::fs::symlink_metadata(&dot_git).ok()?;
        let common = if own.is_dir() {
            dot_git
        } else {
            if !self.inside(&dot_git) {
                return Some("is a symbolic link that leads out of the repository".to_string());
            }
            let Some(line) = first_line(&dot_git) else {
                return Some("does not start with a line short enough to be a path".to_string());
            };
            let named = line.strip_prefix("gitdir: ")?;
            let gitdir = PathBuf::from(named);
            let commondir = gitdir.join("commondir");
            // The walker reads no exclude file through a git folder without `commondir`
            // (a submodule's): only whether one is there is asked, inside or not.
            std::fs::symlink_metadata(&commondir).ok()?;
            if !self.inside(&gitdir) {
                return Some(format!(
                    "names a git folder outside the repository (`gitdir: {}`)",
                    crate::diagnostics::visible(named)
                ));
            }
            let Some(line) = first_line(&commondir).filter(|_| self.inside(&commondir)) else {
                return Some("names a git folder whose `commondir` cannot be read".to_string());
            };
            let common = if line.starts_with('.') {
                gitdir.join(&line)
            } else {
                PathBuf::from(&line)
            };
            if !self.inside(&common) {
                return Some(format!(
                    "names a git folder whose `commondir` leads outside the repository (`{}`)",
                    crate::diagnostics::visible(&line)
                ));
            }
            common
        };
        let exclude = common.join("info").join("exclude");
        let Ok(meta) = std::fs::metadata(&exclude) else {
            return None;
        };
        if !self.inside(&exclude) {
            return Some("has an `info/exclude` that leads outside the repository".to_string());
        }
        if !meta.is_file() || meta.len() > MAX_IGNORE_BYTES {
            return Some(format!(
                "has an `info/exclude` that is not a regular file of at most {} KiB",
                MAX_IGNORE_BYTES / 1024
            ));
        }
        None
    }

    /// True when `path` (resolved through every link) lies inside the repository; false
    /// when it cannot be resolved.
    fn inside(&self, path: &Path) -> bool {
        std::fs::canonicalize(path).is_ok_and(|real| real.starts_with(&self.repository))
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
        if path.file_name().is_some_and(|n| n != ".git") {
            return self.over_budget(path);
        }
        None
    }

    /// Why the ignore file at `path` (a regular file within the size cap) would take the
    /// walk past its budget of patterns or wildcards, or `None`, its own then counted.
    fn over_budget(&self, path: &Path) -> Option<String> {
        let text = std::fs::read(path).ok()?;
        let lines = text.split(|b| *b == b'\n').map(<[u8]>::trim_ascii);
        let patterns: Vec<&[u8]> = lines.filter(|l| !l.is_empty() && l[0] != b'#').collect();
        let wildcards = patterns
            .iter()
            .flat_map(|l| l.iter())
            .filter(|b| matches!(b, b'*' | b'?' | b'['))
            .count();
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        let now = (taken.0 + patterns.len(), taken.1 + wildcards);
        if now.0 <= MAX_PATTERNS && now.1 <= MAX_WILDCARDS {
            *taken = now;
            None
        } else {
            Some(format!(
                "holds {} patterns and {wildcards} wildcards, past what toolc compiles for one walk ({MAX_PATTERNS} patterns, {MAX_WILDCARDS} wildcards, in every ignore file of it)",
                patterns.len()
            ))
        }
    }
}

/// The first line of the small file at `path` (`.git`, `commondir`), without its line end;
/// none when it is not a regular file or its first line is longer than a path.
fn first_line(path: &Path) -> Option<String> {
    use std::io::Read;
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_POINTER_BYTES as u64)
        .read_to_end(&mut bytes)
        .ok()?;
    // A first line as long as the whole read may go on past it: not a path.
    let end = match bytes.iter().position(|b| *b == b'\n') {
        Some(end) => end,
        None if bytes.len() < MAX_POINTER_BYTES => bytes.len(),
        None => return None,
    };
    let line = std::str::from_utf8(&bytes[..end]).ok()?;
    Some(line.strip_suffix('\r').unwrap_or(line).to_string())
}
