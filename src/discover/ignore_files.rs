//! The ignore files the walker reads (`.gitignore`, `.ignore` in each folder it enters, and
//! git's `info/exclude` of the repository), checked before it may: it reads them whole, line
//! by line, from wherever a link leads. A committed `.gitignore` linked to `/dev/zero` would
//! be read without end, one linked to a FIFO would block, one linked to a file outside the
//! repository would be read there. A folder with such a file is not walked, and the walk
//! says why.
//!
//! The walker's own reading of ignore files is off: it reads those of every folder above
//! where it starts, up to `/`, outside the repository (a superproject's `.gitignore` linked to
//! `/dev/zero` hung a run in its submodule). toolc hands it `.gitignore` and `.ignore` as
//! ignore files of its own, which it reads only in the folders it enters, starts every walk at
//! the repository's top, and adds git's `info/exclude` only where every step to it stays
//! inside the repository; see [`Guard::exclude_of`].

use std::path::{Component, Path, PathBuf};
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

/// The ignore files of a folder the walker reads.
pub(super) const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];

/// What an ignore file must stay within: the real path of the repository a walk is in.
#[derive(Debug, Clone)]
pub(super) struct Guard {
    /// The repository's top folder, as the walk's root spells it: where every walk starts.
    top: PathBuf,
    repository: PathBuf,
    /// The patterns and wildcards of the ignore files admitted so far, shared by the walk's
    /// threads (a file refused takes none).
    taken: Arc<Mutex<(usize, usize)>>,
}

impl Guard {
    /// The guard of a walk of `root`: its repository (the nearest folder with `.git`, else
    /// `root` itself).
    pub(super) fn for_root(root: &Path) -> Guard {
        let repository = crate::fs::project::repository_of(root);
        // A root spelled with `..` (or relative) does not lie below its repository's top as
        // written: the walk starts at the root itself, with the ignore files there and below.
        let plain = root.is_absolute()
            && root.components().all(|c| {
                matches!(
                    c,
                    Component::RootDir | Component::Prefix(_) | Component::Normal(_)
                )
            });
        let top = if plain {
            repository.clone()
        } else {
            root.to_path_buf()
        };
        Guard {
            repository: std::fs::canonicalize(&repository).unwrap_or(repository),
            top,
            taken: Arc::default(),
        }
    }

    /// The repository's top folder: a walk of a folder below it starts there, entering only
    /// the folders on the way down, so that their ignore files apply and none above it does.
    pub(super) fn top(&self) -> &Path {
        &self.top
    }

    /// The ignore files that apply to the whole walk, relative to the repository's top and
    /// below every `.gitignore` and `.ignore`: the repository's `info/exclude` when every
    /// step to it stays inside (see [`Guard::exclude_of`]), and the user's own excludes file
    /// (`core.excludesFile`, or git's default), as git reads them.
    pub(super) fn excludes(&self) -> Vec<PathBuf> {
        let own = self.exclude_of(&self.top).ok().flatten();
        let user = ignore::gitignore::gitconfig_excludes_path().filter(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= MAX_IGNORE_BYTES)
        });
        own.into_iter().chain(user).collect()
    }

    /// The error for the first ignore file of `dir` the walker must not read, if any.
    pub(super) fn check(&self, dir: &Path) -> Option<WalkError> {
        let refusal = |name: &str, why: String| WalkError {
            message: format!(
                "`{name}` {why}; toolc does not read it, and does not walk its folder"
            ),
            path: dir.join(name),
        };
        IGNORE_FILES
            .iter()
            .find_map(|name| Some(refusal(name, self.refusal(&dir.join(name))?)))
    }

    /// The error for the first ignore file the walker must not read in `root` or in a folder
    /// above it up to its repository (the walk enters those too). The error is on `root`
    /// itself, which the run reports on.
    pub(super) fn check_root(&self, root: &Path) -> Option<WalkError> {
        let mut refused = root
            .ancestors()
            .take_while(|dir| dir.starts_with(&self.top))
            .find_map(|dir| self.check(dir))?;
        if refused.path.parent() != Some(root) {
            refused.message = format!("`{}`: {}", refused.path.display(), refused.message);
            refused.path = root.to_path_buf();
        }
        Some(refused)
    }

    /// The `info/exclude` of the git folder of `dir`, when there is one to read (`Ok(None)`:
    /// none), or why it must not be read. Followed as git follows it: a `.git` folder's own;
    /// a `.git` file's `gitdir:` (taken as written), when that folder has a `commondir`, then
    /// the folder it names. Every step must lie inside the repository, and the exclude file
    /// must be a regular file of at most [`MAX_IGNORE_BYTES`]. Only `dir/.git` and files
    /// inside the repository are read to find out; nothing a step names outside it is opened.
    ///
    /// A worktree made by `git worktree add` elsewhere has its git folder outside: its
    /// `info/exclude` is then not honoured (its `.gitignore` files are).
    pub(super) fn exclude_of(&self, dir: &Path) -> Result<Option<PathBuf>, String> {
        let dot_git = dir.join(".git");
        let Ok(own) = std::fs::symlink_metadata(&dot_git) else {
            return Ok(None);
        };
        let common = if own.is_dir() {
            dot_git
        } else {
            if !self.inside(&dot_git) {
                return Err("is a symbolic link that leads out of the repository".to_string());
            }
            let Some(line) = first_line(&dot_git) else {
                return Err("does not start with a line short enough to be a path".to_string());
            };
            let Some(named) = line.strip_prefix("gitdir: ") else {
                return Ok(None);
            };
            // A relative `gitdir:` is the `.git` file's folder's.
            let gitdir = dir.join(named);
            let commondir = gitdir.join("commondir");
            // No exclude file is read through a git folder without `commondir` (a
            // submodule's): only whether one is there is asked, inside or not.
            if std::fs::symlink_metadata(&commondir).is_err() {
                return Ok(None);
            }
            if !self.inside(&gitdir) {
                return Err(format!(
                    "names a git folder outside the repository (`gitdir: {}`)",
                    crate::diagnostics::visible(named)
                ));
            }
            let Some(line) = first_line(&commondir).filter(|_| self.inside(&commondir)) else {
                return Err("names a git folder whose `commondir` cannot be read".to_string());
            };
            let common = gitdir.join(&line);
            if !self.inside(&common) {
                return Err(format!(
                    "names a git folder whose `commondir` leads outside the repository (`{}`)",
                    crate::diagnostics::visible(&line)
                ));
            }
            common
        };
        let exclude = common.join("info").join("exclude");
        let Ok(meta) = std::fs::metadata(&exclude) else {
            return Ok(None);
        };
        if !self.inside(&exclude) {
            return Err("has an `info/exclude` that leads outside the repository".to_string());
        }
        if !meta.is_file() || meta.len() > MAX_IGNORE_BYTES {
            return Err(format!(
                "has an `info/exclude` that is not a regular file of at most {} KiB",
                MAX_IGNORE_BYTES / 1024
            ));
        }
        Ok(Some(exclude))
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
        // A folder of the name holds no patterns: the walker fails to read it and goes on.
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
        self.over_budget(path)
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
