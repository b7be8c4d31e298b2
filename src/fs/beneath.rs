//! Reading beneath a root with `openat2(RESOLVE_NO_SYMLINKS)`: a file or folder whose path
//! under a root (itself a real path) passes through no link is inside it, which saves
//! resolving the path's every part (a `readlink` each) on every read and listing.

use std::ffi::CStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags, ResolveFlags};

use super::{DirEntry, EntryKind, Listed, Noted, ReadError};

/// Set once the kernel said it has no `openat2` (before Linux 5.6): every path then takes
/// the slow way at once, rather than after a failed call each.
static UNAVAILABLE: AtomicBool = AtomicBool::new(false);

/// `openat2` beneath `fd` without following any link, remembering a kernel without it.
fn open_beneath(fd: &OwnedFd, rel: &Path, flags: OFlags) -> rustix::io::Result<OwnedFd> {
    if UNAVAILABLE.load(Ordering::Relaxed) {
        return Err(rustix::io::Errno::NOSYS);
    }
    let resolve = ResolveFlags::NO_SYMLINKS | ResolveFlags::BENEATH;
    let opened = rustix::fs::openat2(fd, rel, flags, Mode::empty(), resolve);
    if matches!(opened, Err(e) if e == rustix::io::Errno::NOSYS) {
        UNAVAILABLE.store(true, Ordering::Relaxed);
    }
    opened
}

/// A folder toolc may read within, opened, under one of its spellings: its real path, or the
/// path a run named it by through a link above it (`/tmp/linked/repo`).
#[derive(Debug, Clone)]
pub(super) struct Root {
    spelling: PathBuf,
    fd: Arc<OwnedFd>,
}

impl Root {
    /// The folder at `real` (its real path), opened to be looked in; none where it cannot be.
    pub(super) fn open(real: &Path) -> Option<Root> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = rustix::fs::open(real, flags, Mode::empty()).ok()?;
        Some(Root {
            spelling: real.to_path_buf(),
            fd: Arc::new(fd),
        })
    }

    /// The same folder, spelt `spelling`: what lies beneath the spelling is opened beneath
    /// the folder itself, so a link above it changed since cannot lead elsewhere.
    pub(super) fn spelt(&self, spelling: PathBuf) -> Root {
        Root {
            spelling,
            fd: Arc::clone(&self.fd),
        }
    }

    /// The root as the run spells it.
    pub(super) fn spelling(&self) -> &Path {
        &self.spelling
    }

    /// True when this is the folder opened from `real`.
    pub(super) fn is(&self, real: &Path) -> bool {
        self.spelling == real
    }
}

/// `path` relative to the root it lies beneath (`.` for the root), with that root opened.
fn beneath<'a>(roots: &'a [Root], path: &'a Path) -> Option<(&'a Path, &'a OwnedFd)> {
    let (rel, fd) = roots.iter().find_map(|root| {
        let rel = path.strip_prefix(&root.spelling).ok()?;
        Some((rel, root.fd.as_ref()))
    })?;
    if rel.as_os_str().is_empty() {
        Some((Path::new("."), fd))
    } else {
        Some((rel, fd))
    }
}

/// True when `path` exists beneath one of `roots` and no link is on its way (itself
/// included); false when that is not known. Nothing is opened for reading.
pub(super) fn no_link(roots: &[Root], path: &Path) -> bool {
    let Some((rel, fd)) = beneath(roots, path) else {
        return false;
    };
    open_beneath(fd, rel, OFlags::PATH | OFlags::CLOEXEC).is_ok()
}

/// The read of `path` when it lies beneath one of `roots` through no link; `None` when
/// that is not known (a link on the way, a kernel without `openat2`): the caller decides.
pub(super) fn read(roots: &[Root], path: &Path) -> Option<Noted> {
    let (rel, fd) = beneath(roots, path)?;
    // Non-blocking: a FIFO must not hold the open (its kind is refused right after).
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
    match open_beneath(fd, rel, flags) {
        // No link on the way: the open file's metadata is the path's.
        Ok(opened) => Some(super::read_opened(std::fs::File::from(opened))),
        Err(e) if e == rustix::io::Errno::NOENT || e == rustix::io::Errno::NOTDIR => Some(Noted {
            bytes: Err(ReadError::Missing(std::io::Error::from(e).to_string())),
            before: None,
        }),
        // A link on the way (ELOOP), `..` (EXDEV), no `openat2` (ENOSYS), a sandbox
        // that refuses it (EPERM), anything else: resolved the slow way.
        Err(_) => None,
    }
}

/// The listing of the folder `path` when it lies beneath one of `roots` through no link,
/// read from the folder the call that proved it opened; `None` when that is not known (a
/// link on the way, a kernel without `openat2`): the caller decides.
pub(super) fn list_dir(roots: &[Root], path: &Path) -> Option<Vec<DirEntry>> {
    let (rel, fd) = beneath(roots, path)?;
    // `DIRECTORY`: anything else in its place (a FIFO) fails the open rather than holding it.
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    match open_beneath(fd, rel, flags) {
        Ok(folder) => Some(list_opened(&folder)),
        // Nothing there, or not a folder: empty, as the disk lists it; no link on the way
        // (that is `ELOOP`), so the slow way would find no more.
        Err(e) if e == rustix::io::Errno::NOENT || e == rustix::io::Errno::NOTDIR => {
            Some(Vec::new())
        }
        Err(_) => None,
    }
}

/// The entries of the open `folder`, each asked about relative to it, never by path: a link
/// swapped in for the folder once it was opened is not followed.
fn list_opened(folder: &OwnedFd) -> Vec<DirEntry> {
    // A second descriptor reads the entries while the first answers the `stat`s of those
    // kept; it shares the open folder, not its path.
    let Ok(dir) = rustix::io::fcntl_dupfd_cloexec(folder, 0).and_then(Dir::new) else {
        return Vec::new();
    };
    let folder = folder.as_fd();
    super::first_by_name(
        dir.filter_map(Result::ok)
            .filter(|e| !matches!(e.file_name().to_bytes(), b"." | b".."))
            .map(|entry| {
                let name = String::from_utf8_lossy(entry.file_name().to_bytes()).into_owned();
                (name, Opened { folder, entry })
            }),
    )
}

/// An entry of a folder opened beneath a root.
struct Opened<'a> {
    folder: BorrowedFd<'a>,
    entry: rustix::fs::DirEntry,
}

impl Listed for Opened<'_> {
    fn kind(&self) -> Option<EntryKind> {
        kind_at(self.folder, self.entry.file_name(), self.entry.file_type())
    }

    fn executable(&self) -> Option<bool> {
        let stat = lstat_at(self.folder, self.entry.file_name())?;
        Some(Mode::from_raw_mode(stat.st_mode).intersects(Mode::XUSR | Mode::XGRP | Mode::XOTH))
    }
}

/// What the entry `name` of `folder` is, by the kind its listing gave (`d_type`), else by
/// its own `stat`: some file systems leave the kind unknown.
pub(super) fn kind_at(folder: BorrowedFd<'_>, name: &CStr, listed: FileType) -> Option<EntryKind> {
    let kind = match listed {
        FileType::Unknown => FileType::from_raw_mode(lstat_at(folder, name)?.st_mode),
        known => known,
    };
    Some(match kind {
        FileType::Symlink => EntryKind::Link,
        FileType::Directory => EntryKind::Dir,
        FileType::RegularFile => EntryKind::File,
        _ => EntryKind::Other,
    })
}

/// The `stat` of the entry `name` of `folder` itself, a link not followed.
fn lstat_at(folder: BorrowedFd<'_>, name: &CStr) -> Option<rustix::fs::Stat> {
    rustix::fs::statat(folder, name, AtFlags::SYMLINK_NOFOLLOW).ok()
}
