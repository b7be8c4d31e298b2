//! Every read of a file goes through a [`FileSystem`]: the disk, or the disk under an
//! overlay of in-memory buffers (an editor's unsaved files, a test's fixtures, stdin).
//! Discovery (walking folders) is separate: it only names the files to read.

use std::collections::HashMap;
use std::fs::Metadata;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files larger than this are not read at all (a guard on memory, far above any real definition).
pub(crate) const MAX_READ_BYTES: u64 = 64 * 1024 * 1024;

/// Entries of one folder listed at most: a folder of generated files cannot make a listing
/// take unbounded time or memory.
pub(crate) const MAX_DIR_ENTRIES: usize = 10_000;

/// Entries of one folder read at most to choose the first [`MAX_DIR_ENTRIES`] by name: a
/// bound on the time a listing takes (a second or so).
const MAX_DIR_SCANNED: usize = 1_000_000;

/// What a folder entry is. Links are reported as links and never followed, so a listing
/// cannot lead out of the repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// A symbolic link (to anything).
    Link,
    /// A FIFO, device or socket.
    Other,
}

/// One entry of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name (lossily decoded).
    pub name: String,
    /// What it is.
    pub kind: EntryKind,
    /// Whether any execute bit is set, where the platform says (Unix); `None` elsewhere and
    /// for in-memory buffers.
    pub executable: Option<bool>,
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The file is larger than [`MAX_READ_BYTES`] (its size, when known before reading).
    TooLarge(Option<u64>),
    /// The path is a directory.
    Directory,
    /// The path is a FIFO, a device or a socket.
    Special,
    /// Nothing is there (or a folder on the way is not a folder): the operating system's
    /// error, as text.
    Missing(String),
    /// The operating system's error, as text.
    Io(String),
    /// The path is, or passes through, a symbolic link that leads out of the repository.
    LeavesRepository,
    /// The path is inside a repository's `.git`, as written or through a link.
    IntoGit,
}

impl ReadError {
    /// The error of an operating-system call.
    pub fn from_io(e: &std::io::Error) -> ReadError {
        match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory => {
                ReadError::Missing(e.to_string())
            }
            _ => ReadError::Io(e.to_string()),
        }
    }

    /// True when [`FileSystem::is_file`] says no for the path: nothing there, a folder or a
    /// special file. A reader that reads straight away learns it without asking first.
    pub fn is_not_a_file(&self) -> bool {
        matches!(
            self,
            ReadError::Missing(_) | ReadError::Directory | ReadError::Special
        )
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = MAX_READ_BYTES / (1024 * 1024);
        match self {
            ReadError::TooLarge(Some(len)) => write!(
                f,
                "the file is {len} bytes; toolc does not read files over {mib} MiB"
            ),
            ReadError::TooLarge(None) => write!(
                f,
                "the file is over {mib} MiB; toolc does not read files that large"
            ),
            ReadError::Directory => f.write_str("expected a file, found a directory"),
            ReadError::Special => f.write_str("expected a regular file, found a special file"),
            ReadError::Missing(e) | ReadError::Io(e) => write!(f, "cannot read the file: {e}"),
            ReadError::LeavesRepository => f.write_str(
                "this path is a symbolic link (or passes through one) that leads out of the repository; toolc does not follow it",
            ),
            ReadError::IntoGit => f.write_str(
                "this path leads into `.git` (as written or through a symbolic link); toolc reads nothing there",
            ),
        }
    }
}

/// A read, with the file's metadata from before it when the file system has it.
pub struct Noted {
    /// What the read gave.
    pub bytes: Result<Vec<u8>, ReadError>,
    /// The metadata of the path (not followed through a link), taken before the read.
    pub before: Option<Metadata>,
}

/// Where file contents come from.
pub trait FileSystem: Send + Sync {
    /// The bytes of the file at `path` (absolute and normalized).
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError>;
    /// [`FileSystem::read`], with the file's metadata as it was before the bytes were read
    /// (without following a link at `path`), where the file system has it: the cache keys
    /// what it stores by that metadata, and asking for it apart is one more call per file.
    fn read_noted(&self, path: &Path) -> Noted {
        Noted {
            bytes: self.read(path),
            before: None,
        }
    }
    /// True when `path` names a regular file that [`FileSystem::read`] would return.
    fn is_file(&self, path: &Path) -> bool;
    /// The first [`MAX_DIR_ENTRIES`] entries of the folder at `path` by name, sorted;
    /// empty when it is not a readable folder.
    fn list_dir(&self, _path: &Path) -> Vec<DirEntry> {
        Vec::new()
    }
    /// True when something is at `path` (a repository's `.git`, say): answered as the disk
    /// answers it, since nothing is read.
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    /// Where `path` really is when it is, or passes through, a symbolic link whose target
    /// lies outside the repository; `None` when it stays inside, when it does not resolve (a
    /// dangling link), and for file systems without links. The target is only resolved,
    /// never opened or read.
    fn link_out(&self, _path: &Path) -> Option<PathBuf> {
        None
    }
}

/// The disk, with the guards every read needs: regular files only, at most [`MAX_READ_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Disk;

impl FileSystem for Disk {
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        let io = |e: std::io::Error| ReadError::from_io(&e);
        // Opened without waiting, then its kind checked on the open file: a FIFO swapped in
        // after a check of the path would hold a plain open for ever.
        #[cfg(target_os = "linux")]
        {
            return read_opened(open_without_waiting(path).map_err(io)?).bytes;
        };
        // Elsewhere checked before opening (a FIFO would block the open).
        #[cfg(not(target_os = "linux"))]
        {
            let meta = std::fs::metadata(path).map_err(io)?;
            check_kind(&meta)?;
            read_open(std::fs::File::open(path).map_err(io)?, meta.len())
        }
    }

    fn read_noted(&self, path: &Path) -> Noted {
        let before = std::fs::symlink_metadata(path).ok();
        Noted {
            bytes: self.read(path),
            before,
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        std::fs::metadata(path).is_ok_and(|m| m.is_file())
    }

    fn list_dir(&self, path: &Path) -> Vec<DirEntry> {
        let Ok(entries) = std::fs::read_dir(path) else {
            return Vec::new();
        };
        first_by_name(
            entries
                .filter_map(Result::ok)
                .map(|e| (e.file_name().to_string_lossy().into_owned(), e)),
        )
    }
}

/// An entry of a folder being listed, asked what it is only once it is among the first by
/// name: a million entries scanned cost no `stat` each.
trait Listed {
    /// What the entry itself is, a link not followed; none when that cannot be told.
    fn kind(&self) -> Option<EntryKind>;
    /// Whether any execute bit of the entry is set, where the platform says.
    fn executable(&self) -> Option<bool>;
}

impl Listed for std::fs::DirEntry {
    fn kind(&self) -> Option<EntryKind> {
        let kind = self.file_type().ok()?;
        Some(if kind.is_symlink() {
            EntryKind::Link
        } else if kind.is_dir() {
            EntryKind::Dir
        } else if kind.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        })
    }

    fn executable(&self) -> Option<bool> {
        // The entry's own (`lstat`): a file swapped for a link since its kind was read
        // says nothing of where the link leads.
        self.metadata().ok().and_then(|m| is_executable(&m))
    }
}

/// The first [`MAX_DIR_ENTRIES`] by name of a folder's `entries` (each with its lossily
/// decoded name; `.` and `..` are not among them), of the first [`MAX_DIR_SCANNED`]; sorted.
fn first_by_name<E: Listed>(entries: impl Iterator<Item = (String, E)>) -> Vec<DirEntry> {
    // The first entries by name, not in the order the file system returns them: which
    // entries a folder too large to list leaves out is the same on every machine, and a
    // file cannot hide past the limit by where it was written. At most twice the limit
    // is held while the folder is read.
    let mut kept: Vec<(String, E)> = Vec::new();
    let by_name = |kept: &mut Vec<(String, E)>| {
        kept.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        kept.truncate(MAX_DIR_ENTRIES);
    };
    for entry in entries.take(MAX_DIR_SCANNED) {
        kept.push(entry);
        if kept.len() == 2 * MAX_DIR_ENTRIES {
            by_name(&mut kept);
        }
    }
    by_name(&mut kept);
    kept.into_iter()
        .filter_map(|(name, e)| {
            let kind = e.kind()?;
            let executable = (kind == EntryKind::File).then(|| e.executable()).flatten();
            Some(DirEntry {
                name,
                kind,
                executable,
            })
        })
        .collect()
}

/// `path` opened for reading without waiting: a FIFO opens at once, and reads of a regular
/// file are not changed by it.
#[cfg(target_os = "linux")]
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
}

/// `path` opened to be read a piece at a time, when it is a regular file (of any size: the
/// reader never holds it whole). Its kind is checked as [`Disk`] checks it before a read.
pub(crate) fn open_regular(path: &Path) -> Result<std::fs::File, ReadError> {
    let io = |e: std::io::Error| ReadError::from_io(&e);
    #[cfg(target_os = "linux")]
    let file = open_without_waiting(path).map_err(io)?;
    #[cfg(not(target_os = "linux"))]
    let file = {
        // Checked before opening too: a FIFO would block the open.
        check_regular(&std::fs::metadata(path).map_err(io)?)?;
        std::fs::File::open(path).map_err(io)?
    };
    check_regular(&file.metadata().map_err(io)?)?;
    Ok(file)
}

/// Refuse what [`Disk::read`] never reads: folders, special files, files over the limit.
fn check_kind(meta: &std::fs::Metadata) -> Result<(), ReadError> {
    if meta.len() > MAX_READ_BYTES {
        return Err(ReadError::TooLarge(Some(meta.len())));
    }
    check_regular(meta)
}

/// Refuse folders and special files.
fn check_regular(meta: &std::fs::Metadata) -> Result<(), ReadError> {
    if meta.is_dir() {
        return Err(ReadError::Directory);
    }
    // A FIFO or device (say, a symlink to /dev/zero) would block or never end.
    if !meta.is_file() {
        return Err(ReadError::Special);
    }
    Ok(())
}

/// The read of `file`, opened without waiting (a FIFO opens at once), once its own metadata
/// says it is a regular file within the limit; with that metadata.
#[cfg(target_os = "linux")]
fn read_opened(file: std::fs::File) -> Noted {
    match file.metadata() {
        Ok(meta) => Noted {
            bytes: check_kind(&meta).and_then(|()| read_open(file, meta.len())),
            before: Some(meta),
        },
        Err(e) => Noted {
            bytes: Err(ReadError::from_io(&e)),
            before: None,
        },
    }
}

/// How many files the facade has read in this process: printed under `TOOLC_DEBUG_TIMES`, so
/// a test can hold a command to reading each file once.
static FILES_READ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many files the facade has read so far.
pub(crate) fn files_read() -> usize {
    FILES_READ.load(std::sync::atomic::Ordering::Relaxed)
}

/// The bytes of the regular file `file`, `len` bytes long when it was checked.
fn read_open(file: std::fs::File, len: u64) -> Result<Vec<u8>, ReadError> {
    FILES_READ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // The size was checked, but the file may grow between stat and read. Sizing the buffer
    // from the stat saves the repeated grow-and-read calls of an empty Vec.
    if len >= crate::memory::LARGE_FILE {
        crate::memory::large_file();
    }
    let mut bytes = Vec::with_capacity(len as usize + 1);
    file.take(MAX_READ_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::from_io(&e))?;
    if bytes.len() as u64 > MAX_READ_BYTES {
        return Err(ReadError::TooLarge(None));
    }
    Ok(bytes)
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> Option<bool> {
    use std::os::unix::fs::PermissionsExt;
    Some(meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> Option<bool> {
    None
}

pub(crate) mod boundary;
pub(crate) use boundary::write_output_with;
pub(crate) mod child;
pub(crate) use boundary::{RepoPath, Repository};
pub(crate) mod project;
mod spelling;
pub(crate) use spelling::{canonical, cmp_canonical, parent_canonical, plain};
pub(crate) use spelling::{display_path, normalize};

/// Reading beneath a root through no link, in one call (Linux).
#[cfg(target_os = "linux")]
mod beneath;
mod confined;
pub(crate) use confined::Confined;
#[cfg(all(test, target_os = "linux"))]
use confined::spelling_of;

/// A base file system under any number of in-memory buffers: a buffer takes precedence over
/// the file at its path, which need not exist.
pub(crate) struct Overlay {
    base: Arc<dyn FileSystem>,
    buffers: HashMap<PathBuf, Arc<[u8]>>,
}

impl Default for Overlay {
    fn default() -> Self {
        Overlay::new(Box::new(Disk))
    }
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay")
            .field("buffers", &self.buffers.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl Overlay {
    /// `base` with no buffers.
    pub(crate) fn new(base: Box<dyn FileSystem>) -> Overlay {
        Overlay {
            base: Arc::from(base),
            buffers: HashMap::new(),
        }
    }

    /// Read `bytes` in place of the file at `path` (absolute and normalized) from now on.
    pub(crate) fn set(&mut self, path: PathBuf, bytes: Vec<u8>) {
        self.buffers.insert(path, bytes.into());
    }

    /// Read the file at `path` from the base again. True when there was a buffer.
    pub(crate) fn remove(&mut self, path: &Path) -> bool {
        self.buffers.remove(path).is_some()
    }

    /// The file system under the buffers.
    pub(crate) fn base(&self) -> &Arc<dyn FileSystem> {
        &self.base
    }

    /// The paths that have a buffer, sorted.
    pub(crate) fn buffered(&self) -> Vec<&Path> {
        let mut paths: Vec<&Path> = self.buffers.keys().map(PathBuf::as_path).collect();
        paths.sort();
        paths
    }
}

impl FileSystem for Overlay {
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        match self.buffers.get(path) {
            // Buffers pass the same size guard as the disk: an editor may hold anything.
            Some(b) if b.len() as u64 > MAX_READ_BYTES => {
                Err(ReadError::TooLarge(Some(b.len() as u64)))
            }
            Some(b) => Ok(b.to_vec()),
            None => self.base.read(path),
        }
    }

    fn read_noted(&self, path: &Path) -> Noted {
        // A buffer has no metadata: what is read from one is never stored.
        if self.buffers.contains_key(path) {
            return Noted {
                bytes: self.read(path),
                before: None,
            };
        }
        self.base.read_noted(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        self.buffers.contains_key(path) || self.base.is_file(path)
    }

    fn exists(&self, path: &Path) -> bool {
        self.buffers.contains_key(path) || self.base.exists(path)
    }

    // A buffer is the file itself, not a link.
    fn link_out(&self, path: &Path) -> Option<PathBuf> {
        if self.buffers.contains_key(path) {
            return None;
        }
        self.base.link_out(path)
    }

    fn list_dir(&self, path: &Path) -> Vec<DirEntry> {
        let mut out = self.base.list_dir(path);
        // A buffer is a file in its folder, whether or not the disk has it yet.
        for buffered in self.buffers.keys().filter(|b| b.parent() == Some(path)) {
            let Some(name) = buffered.file_name() else {
                continue;
            };
            let name = name.to_string_lossy().into_owned();
            match out.iter_mut().find(|e| e.name == name) {
                Some(e) => e.kind = EntryKind::File,
                None => out.push(DirEntry {
                    name,
                    kind: EntryKind::File,
                    executable: None,
                }),
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out.truncate(MAX_DIR_ENTRIES);
        out
    }
}

#[cfg(test)]
mod tests;

/// A file system with no files (tests: only what an overlay holds, or nothing, exists).
#[cfg(test)]
pub(crate) struct NoFiles;

#[cfg(test)]
impl FileSystem for NoFiles {
    fn read(&self, _path: &Path) -> Result<Vec<u8>, ReadError> {
        Err(ReadError::Missing("no such file".into()))
    }

    fn is_file(&self, _path: &Path) -> bool {
        false
    }
}
