//! Reading beneath a root with `openat2(RESOLVE_NO_SYMLINKS)`: a file whose path under a
//! root (itself a real path) passes through no link is inside it, which saves resolving the
//! path's every part (a `readlink` each) on every read.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fd::OwnedFd;
use rustix::fs::{Mode, OFlags, ResolveFlags};

use super::{Noted, ReadError};

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

/// The folder `root`, opened to be looked in (none where it cannot be).
pub(super) fn open_root(root: &Path) -> Option<Arc<OwnedFd>> {
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    rustix::fs::open(root, flags, Mode::empty())
        .ok()
        .map(Arc::new)
}

/// `path` relative to the root it lies beneath (`.` for the root), with that root opened.
fn beneath<'a>(
    roots: &[PathBuf],
    opened: &'a [Option<Arc<OwnedFd>>],
    path: &'a Path,
) -> Option<(&'a Path, &'a Arc<OwnedFd>)> {
    let (rel, fd) = roots.iter().zip(opened).find_map(|(root, fd)| {
        let rel = path.strip_prefix(root).ok()?;
        Some((rel, fd.as_ref()?))
    })?;
    if rel.as_os_str().is_empty() {
        Some((Path::new("."), fd))
    } else {
        Some((rel, fd))
    }
}

/// True when `path` exists beneath one of `roots` and no link is on its way (itself
/// included); false when that is not known. Nothing is opened for reading.
pub(super) fn no_link(roots: &[PathBuf], opened: &[Option<Arc<OwnedFd>>], path: &Path) -> bool {
    let Some((rel, fd)) = beneath(roots, opened, path) else {
        return false;
    };
    open_beneath(fd, rel, OFlags::PATH | OFlags::CLOEXEC).is_ok()
}

/// The read of `path` when it lies beneath one of `roots` through no link; `None` when
/// that is not known (a link on the way, a kernel without `openat2`): the caller decides.
pub(super) fn read(
    roots: &[PathBuf],
    opened: &[Option<Arc<OwnedFd>>],
    path: &Path,
) -> Option<Noted> {
    let (rel, fd) = beneath(roots, opened, path)?;
    // Non-blocking: a FIFO must not hold the open (its kind is refused right after).
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
    match open_beneath(fd, rel, flags) {
        // No link on the way: the open file's metadata is the path's.
        Ok(opened) => {
            let file = std::fs::File::from(opened);
            let meta = match file.metadata() {
                Ok(meta) => meta,
                Err(e) => {
                    return Some(Noted {
                        bytes: Err(ReadError::Io(e.to_string())),
                        before: None,
                    });
                }
            };
            let read = super::check_kind(&meta).and_then(|()| super::read_open(file, meta.len()));
            Some(Noted {
                bytes: read,
                before: Some(meta),
            })
        }
        Err(e) if e == rustix::io::Errno::NOENT || e == rustix::io::Errno::NOTDIR => Some(Noted {
            bytes: Err(ReadError::Io(std::io::Error::from(e).to_string())),
            before: None,
        }),
        // A link on the way (ELOOP), `..` (EXDEV), no `openat2` (ENOSYS), a sandbox
        // that refuses it (EPERM), anything else: resolved the slow way.
        Err(_) => None,
    }
}
