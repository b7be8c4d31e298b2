//! The one way a path that configuration or the command line chooses becomes a path toolc
//! reads or writes. A repository under review controls its `toolc.toml` and its committed
//! links; through them it must not make toolc read a file outside it (`/proc/self/environ`),
//! write into `.git` (a hook runs at the next commit), write or delete outside it, or write
//! through a link at all.
//!
//! - [`Repository::configured`]: a path from configuration (`[baseline] path`, `[build] out`,
//!   the lock file): inside the repository, never in `.git`, never reached through a link
//!   that leaves it.
//! - [`named`]: a path given on the command line: it may lie outside any repository, but only
//!   when no link leads there; a link on its way must stay inside the repository it is in.
//!
//! Either gives a [`RepoPath`], read with [`RepoPath::read`] (regular files only, capped,
//! links resolved inside the repository only) and written with [`RepoPath::write`] (never
//! through a link, atomically: a new file beside it, renamed over it).

use std::path::{Component, Path, PathBuf};

use super::normalize;
use super::project::{boundary, repository_of};
use super::{Disk, FileSystem, ReadError};

/// The folder a path must stay in: the nearest folder with `.git` at or above a folder,
/// else that folder itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repository {
    /// As it is spelt (normalized): below it, writes check every part for links.
    spelt: PathBuf,
    /// Its real path (links above it resolved), where it exists: reads resolve into it.
    real: PathBuf,
}

impl Repository {
    /// The repository `folder` is in (absolute).
    pub(crate) fn of(folder: &Path) -> Repository {
        Repository::at(repository_of(&normalize(folder)))
    }

    /// True when `path` (absolute, normalized) lies in this repository, as spelt or really
    /// (through a link above it: a shell's `$PWD` keeps the link, the process's working
    /// directory does not).
    pub(crate) fn holds(&self, path: &Path) -> bool {
        path.starts_with(&self.spelt)
            || path.starts_with(&self.real)
            || resolved(path).is_some_and(|real| real.starts_with(&self.real))
    }

    /// Its top folder, as spelt.
    pub(crate) fn top(&self) -> &Path {
        &self.spelt
    }

    /// The repository whose top folder is `spelt`.
    fn at(spelt: PathBuf) -> Repository {
        let real = std::fs::canonicalize(&spelt).unwrap_or_else(|_| spelt.clone());
        Repository { spelt, real }
    }

    /// The path configuration names as `raw`, relative to `base` (the configuration's
    /// folder): refused when it lies outside the repository (`..`, an absolute path
    /// elsewhere), inside `.git`, or when a link on its way leads out of the repository or
    /// into `.git`.
    pub(crate) fn configured(&self, raw: &Path, base: &Path) -> Result<RepoPath, Refused> {
        let path = normalize(&base.join(raw));
        let Ok(rel) = path.strip_prefix(&self.spelt) else {
            return Err(Refused::Outside {
                root: self.spelt.clone(),
            });
        };
        if names_git(rel) {
            return Err(Refused::IntoGit);
        }
        let path = RepoPath {
            path,
            repository: self.clone(),
        };
        path.resolves_inside()?;
        Ok(path)
    }
}

/// A path given on the command line as `raw`, relative to `cwd`. Without a link on its way
/// it may be anywhere (the user named it), except inside a repository's `.git`. With one,
/// the deepest link on its way is inside some repository (or the working directory), and
/// where the path leads must stay inside that: a committed `evil.yaml` linked to
/// `/etc/passwd`, named on the command line, is still never read or written.
pub(crate) fn named(raw: &Path, cwd: &Path) -> Result<RepoPath, Refused> {
    if goes_up_through_a_link(&cwd.join(raw)) {
        return Err(Refused::UpThroughLink);
    }
    let path = normalize(&cwd.join(raw));
    let repository = match deepest_link(&path) {
        Some(link) => {
            let parent = link.parent().unwrap_or(&link);
            Repository::at(boundary(parent, cwd))
        }
        None => {
            let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
            let folder = if is_dir {
                path.as_path()
            } else {
                path.parent().unwrap_or(&path)
            };
            Repository::of(folder)
        }
    };
    if path.strip_prefix(&repository.spelt).is_ok_and(names_git) {
        return Err(Refused::IntoGit);
    }
    let path = RepoPath { path, repository };
    path.resolves_inside()?;
    Ok(path)
}

/// Every path of `paths` given on the command line (relative to `cwd`) exists and passes
/// [`named`]; the error is the message for the user.
pub(crate) fn check_named(paths: &[PathBuf], cwd: &Path) -> Result<(), String> {
    for p in paths {
        // Refused first: whether `l/../x` exists is the system's answer, not toolc's.
        named(p, cwd).map_err(|e| format!("{} is {e}", p.display()))?;
        if !cwd.join(p).exists() {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(())
}

/// Write a report file (`--output-format FORMAT:PATH`, relative to `cwd`) as `fill` writes
/// it (through a buffer), creating its folders, but never through a symbolic link: a
/// committed `reports` link must not make a CI run write outside the checkout. Written
/// atomically (see [`RepoPath::write`]).
pub(crate) fn write_output_with(
    path: &Path,
    cwd: &Path,
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let target = named(path, cwd)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::PermissionDenied, e.to_string()))?;
    target.write_with(|file| {
        let mut out = std::io::BufWriter::new(file);
        fill(&mut out)?;
        std::io::Write::flush(&mut out)
    })
}

/// True when a `..` of `path` steps back out of a symbolic link: the system goes up from
/// where the link leads, toolc reads paths as they are written (`l/..` with `l` linked to
/// the repository is the repository to toolc, its parent to the system).
fn goes_up_through_a_link(path: &Path) -> bool {
    let mut walked = PathBuf::new();
    for part in path.components() {
        if part == Component::ParentDir {
            if std::fs::symlink_metadata(&walked).is_ok_and(|m| m.file_type().is_symlink()) {
                return true;
            }
            walked.pop();
        } else {
            walked.push(part);
        }
    }
    false
}

/// The deepest part of `path` (itself included) that is a symbolic link.
fn deepest_link(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|a| std::fs::symlink_metadata(a).is_ok_and(|m| m.file_type().is_symlink()))
        .map(Path::to_path_buf)
}

/// True when a part of `rel` is `.git`: git runs what is in there (hooks, `core.fsmonitor`).
pub(crate) fn names_git(rel: &Path) -> bool {
    rel.components()
        .any(|c| matches!(c, Component::Normal(n) if n.eq_ignore_ascii_case(".git")))
}

/// `path` with every link resolved, as far as it exists: the real path of its deepest
/// existing ancestor, joined with the parts that do not exist yet. `None` when nothing of it
/// resolves.
fn resolved(path: &Path) -> Option<PathBuf> {
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let mut at = path;
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return Some(out);
        }
        rest.push(at.file_name()?);
        at = at.parent()?;
    }
}

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refused {
    /// It lies outside the repository (`..`, an absolute path elsewhere).
    Outside {
        /// The repository.
        root: PathBuf,
    },
    /// It lies inside `.git`, where git finds what it runs.
    IntoGit,
    /// A symbolic link on its way leads into `.git`.
    LinkIntoGit,
    /// A `..` on its way steps back out of a symbolic link.
    UpThroughLink,
    /// A symbolic link on its way leads out of the repository, to `target`.
    LinkOut {
        /// Where the path really is (only resolved, never read).
        target: PathBuf,
    },
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Outside { root } => write!(
                f,
                "outside the repository (`{}`); configuration names nothing outside it",
                root.display()
            ),
            Refused::IntoGit => f.write_str(
                "inside `.git`; toolc never reads or writes there (git runs what it finds there)",
            ),
            Refused::LinkIntoGit => f.write_str(
                "reached through a symbolic link that leads into `.git`; toolc never reads or writes there",
            ),
            Refused::UpThroughLink => f.write_str(
                "a path whose `..` steps back out of a symbolic link: the system goes up from where the link leads, not from where it is written; name the folder without the link",
            ),
            Refused::LinkOut { target } => write!(
                f,
                "reached through a symbolic link that leads out of the repository (to `{}`); toolc does not follow it",
                target.display()
            ),
        }
    }
}

/// A path that passed the boundary: [`Repository::configured`] or [`named`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoPath {
    path: PathBuf,
    repository: Repository,
}

impl RepoPath {
    /// The path (absolute, normalized).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `rel` (plain names, no `..`) below this path: what a folder holds.
    pub fn join(&self, rel: &Path) -> Option<RepoPath> {
        let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
        (plain && !names_git(rel)).then(|| RepoPath {
            path: self.path.join(rel),
            repository: self.repository.clone(),
        })
    }

    /// An error when, links resolved, the path leaves its repository or enters `.git`.
    fn resolves_inside(&self) -> Result<(), Refused> {
        let Some(real) = resolved(&self.path) else {
            return Ok(());
        };
        // Nothing on the way is a link: where it is named is where it is.
        if real == self.path {
            return Ok(());
        }
        match real.strip_prefix(&self.repository.real) {
            Ok(rel) if names_git(rel) => Err(Refused::LinkIntoGit),
            Ok(_) => Ok(()),
            Err(_) => Err(Refused::LinkOut { target: real }),
        }
    }

    /// The bytes of the file: a regular file of at most [`super::MAX_READ_BYTES`], never
    /// through a link that leaves the repository (checked again now, not only when the
    /// path was made).
    pub fn read(&self) -> Result<Vec<u8>, ReadError> {
        self.resolves_inside()
            .map_err(|_| ReadError::LeavesRepository)?;
        Disk.read(&self.path)
    }

    /// The file opened to be read a piece at a time (of any size), when it is a regular file
    /// inside the repository.
    pub fn open(&self) -> Result<std::fs::File, ReadError> {
        self.resolves_inside()
            .map_err(|_| ReadError::LeavesRepository)?;
        super::open_regular(&self.path)
    }

    /// An error when the path or a folder on its way below its repository's top (all of
    /// them, outside a repository) is a symbolic link: nothing is written or deleted
    /// through one.
    pub fn refuse_links(&self) -> std::io::Result<()> {
        let below = self.path.strip_prefix(&self.repository.spelt).ok();
        let (mut at, rest) = match below {
            Some(rel) => (self.repository.spelt.clone(), rel),
            None => (PathBuf::new(), self.path.as_path()),
        };
        for part in rest.components() {
            at.push(part);
            if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    format!(
                        "{} is a symbolic link; toolc never writes or deletes through one",
                        at.display()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Create the folder (and those above it), never through a link.
    pub fn create_dir_all(&self) -> std::io::Result<()> {
        self.refuse_links()?;
        std::fs::create_dir_all(&self.path)?;
        // What was created is checked again: a folder is never a link when made by us.
        self.refuse_links()
    }

    /// Replace the file with `bytes`: written to a new file beside it (created exclusively,
    /// under a name nobody can predict), then renamed over it, so a reader never sees half
    /// of it and a link planted at the path is replaced, never followed. Its folders are
    /// created; the file keeps its permissions.
    pub fn write(&self, bytes: &[u8]) -> std::io::Result<()> {
        self.write_with(|f| std::io::Write::write_all(f, bytes))
    }

    /// [`RepoPath::write`] of what `fill` writes into the new file (which it may seek in),
    /// never held whole.
    pub(crate) fn write_with(
        &self,
        fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let parent = match self.path.parent() {
            Some(p) => RepoPath {
                path: p.to_path_buf(),
                repository: self.repository.clone(),
            },
            None => return Err(std::io::Error::other("no folder to write in")),
        };
        self.refuse_links()?;
        parent.create_dir_all()?;
        match std::fs::symlink_metadata(&self.path) {
            Ok(m) if m.is_dir() => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::IsADirectory,
                    format!("{} is a folder", self.path.display()),
                ));
            }
            // A device or FIFO (`--output-format json:/dev/null`) is written to, never
            // replaced: renaming over it would put a file where the system keeps a device.
            Ok(m) if !m.is_file() && !m.file_type().is_symlink() => {
                return write_special(&self.path, fill);
            }
            _ => {}
        }
        let name = self
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("file");
        let tmp = create_exclusive(&parent.path, name, fill)?;
        if let Ok(meta) = std::fs::metadata(&self.path) {
            let _ = std::fs::set_permissions(&tmp, meta.permissions());
        }
        std::fs::rename(&tmp, &self.path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

/// Write what `fill` writes to the device or FIFO at `path`: opened without following a
/// link, without waiting for a reader (a FIFO nobody reads is an error, not a hang), and
/// never created.
fn write_special(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NOFOLLOW
            | rustix::fs::OFlags::NONBLOCK
            | rustix::fs::OFlags::NOCTTY;
        options.custom_flags(flags.bits() as i32);
    }
    fill(&mut options.open(path)?)
}

/// Write what `fill` writes to a new file beside `name` in `folder`, created exclusively
/// (`O_EXCL`) under a name nobody can predict, so a planted link or file cannot redirect it.
/// Returns its path.
pub(crate) fn create_exclusive(
    folder: &Path,
    name: &str,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<PathBuf> {
    let mut staged = Staged::new(folder, name)?;
    fill(staged.file())?;
    staged.finish()
}

/// A new file being written beside `name` in `folder`, made as [`create_exclusive`] makes
/// one, for a caller that writes several at once. Removed when dropped unfinished: a write
/// may fail, or panic while it encodes.
pub(crate) struct Staged {
    file: std::fs::File,
    /// Its path until it is finished.
    path: Option<PathBuf>,
}

impl Staged {
    /// A new file beside `name` in `folder`.
    pub(crate) fn new(folder: &Path, name: &str) -> std::io::Result<Staged> {
        let (path, file) = open_new(folder, name, false)?;
        Ok(Staged {
            file,
            path: Some(path),
        })
    }

    /// The open file.
    pub(crate) fn file(&mut self) -> &mut std::fs::File {
        &mut self.file
    }

    /// Its path, once what was written is on disk.
    pub(crate) fn finish(self) -> std::io::Result<PathBuf> {
        self.file.sync_all()?;
        self.finish_unsynced()
    }

    /// Its path, what was written handed to the system but not waited for on the disk: for
    /// what a build makes again from the repository (syncing a gigabyte of bundles took a
    /// quarter of a build of 900,000 tools). Renamed into place, it is still seen whole or
    /// not at all.
    pub(crate) fn finish_unsynced(mut self) -> std::io::Result<PathBuf> {
        self.path
            .take()
            .ok_or_else(|| std::io::Error::other("finished twice"))
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A new file beside `name` in `folder`, created exclusively (`O_EXCL`, which never follows
/// a link) under a name nobody can predict, open to write (and to read, when `read`).
fn open_new(folder: &Path, name: &str, read: bool) -> std::io::Result<(PathBuf, std::fs::File)> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    for attempt in 0..16u32 {
        let tag = crate::text::sha256_hex(
            format!("{seed}-{}-{attempt}-{name}", std::process::id()).as_bytes(),
        );
        let short = tag.get(..16).unwrap_or(&tag);
        let tmp = folder.join(format!(".{name}.toolc-tmp-{short}"));
        match std::fs::OpenOptions::new()
            .read(read)
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!("cannot create a temporary file in {}", folder.display()),
    ))
}

/// A file a command writes and reads back while it runs (what would not fit in memory),
/// made beside `name` in `folder` as [`create_exclusive`] makes one. Where the system allows
/// it is removed at once and lives on while open; elsewhere it is removed when dropped.
pub(crate) struct Scratch {
    file: std::fs::File,
    /// Its path while it still has one.
    path: Option<PathBuf>,
}

impl Scratch {
    /// A new scratch file beside `name` in `folder`.
    pub(crate) fn new(folder: &Path, name: &str) -> std::io::Result<Scratch> {
        let (path, file) = open_new(folder, name, true)?;
        let mut scratch = Scratch {
            file,
            path: Some(path),
        };
        if cfg!(unix)
            && let Some(path) = &scratch.path
            && std::fs::remove_file(path).is_ok()
        {
            scratch.path = None;
        }
        Ok(scratch)
    }
}

impl std::io::Read for Scratch {
    fn read(&mut self, bytes: &mut [u8]) -> std::io::Result<usize> {
        self.file.read(bytes)
    }
}

impl std::io::Seek for Scratch {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        self.file.seek(to)
    }
}

impl std::io::Write for Scratch {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.file.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
#[path = "boundary_tests.rs"]
mod tests;
