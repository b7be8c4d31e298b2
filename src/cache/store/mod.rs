//! The cache file: a header naming the build that wrote it, two blobs per file (its findings
//! and suppression comments, none for a clean file; its item), what else the cache keeps
//! (the walks, the cross-file findings), and an index at the end, found through a footer.
//!
//! ```text
//! MAGIC | header length (u32) | header | blobs… | extra | index | footer
//! footer: extra offset, extra length, index offset, index length (u64 each),
//!         XXH3-128 of extra, XXH3-128 of index, END
//! ```
//!
//! Opening the cache reads the footer and the index (one allocation for all the paths, a few
//! for the entries): the index alone rebuilds a clean file's result. A blob is read when it
//! is used (its findings when the file is looked up, its item when something looks into it)
//! and checked then. Anything that does not read back whole (another
//! build, a short file, a bad check) is no cache at all; an index that fails its own check or
//! does not decode (the index is read and decoded last, while the walk goes on) leaves the
//! walks and kept findings, which name files by content, and no file entry.

mod flat;
mod identity;
mod sink;
mod write;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

use serde::{Deserialize, Serialize};

pub use write::{Meta, NewFile, Parts, Writer};

use super::hash::{self, ByHash, Check};
use super::track::Seen;
use super::{Stat, disk};
use crate::source::{Digest, FormatId};

/// How the cache file starts.
const MAGIC: &[u8; 8] = b"toolc\0c\0";
/// How it ends.
const END: &[u8; 8] = b"toolc\0i\0";
/// Bumped when the layout of the cache file changes.
const LAYOUT: u32 = 14;
const FOOTER: usize = 8 * 4 + 16 + 16 + 8;

/// What the cache file says first: which build wrote it, for which repository (a repository
/// moved or copied with its cache starts afresh: every record names the old place).
#[derive(Serialize, Deserialize)]
struct Header {
    layout: u32,
    build: String,
    repository: String,
}

/// A byte range in [`Index::names`].
type Name = (u32, u32);

/// A range of a list of the index.
type Range = (u32, u32);

/// Every file's entry, sorted by path (written as [`flat`] encodes it).
#[derive(Default)]
struct Index {
    /// Every path, each once.
    names: String,
    entries: Vec<Entry>,
    files: Vec<FileEntry>,
    deps: Vec<DepEntry>,
}

/// Where a blob is, and its check.
#[derive(Clone, Copy)]
pub struct Blob {
    at: u64,
    len: u32,
    sum: Check,
}

/// What the cache knows of one file before any blob is read.
#[derive(Clone)]
pub struct Entry {
    path: Name,
    /// The working directory of the run that stored it: messages name files relative to it.
    cwd: Name,
    /// The format it was read as.
    pub format: FormatId,
    /// Whether its content has the format's shape, when that was asked ([`Claim::ByContent`]);
    /// a file not claimed has no result.
    ///
    /// [`Claim::ByContent`]: crate::discover::Claim::ByContent
    pub claimed: Option<bool>,
    /// Its metadata when it was read.
    pub stat: Stat,
    /// The SHA-256 of its bytes.
    pub digest: Digest,
    /// Stored within two seconds of its modification: the metadata filter is not trusted.
    pub racy: bool,
    deps: Range,
    /// The file, then its companions.
    files: Range,
    /// Its findings and suppression comments; none when there are none.
    notes: Option<Blob>,
    /// Its item; none when it could not be lowered.
    item: Option<Blob>,
    /// The number of tool definitions it holds.
    pub tools: u32,
    /// What identifies the stored result (its files, notes and item).
    sum: Digest,
}

impl Entry {
    /// What identifies the stored result.
    pub fn sum(&self) -> &Digest {
        &self.sum
    }

    /// True when the file has a stored result (it was claimed).
    pub fn has_result(&self) -> bool {
        self.claimed != Some(false)
    }

    /// True when the file has findings or suppression comments of its own.
    pub fn has_notes(&self) -> bool {
        self.notes.is_some()
    }
}

/// A file of a stored result, as the index lists it.
#[derive(Clone, Copy)]
struct FileEntry {
    path: Name,
    format: FormatId,
    bom_len: u32,
    digest: Digest,
}

/// A file of a stored result.
#[derive(Clone, Copy)]
pub struct FileMeta<'a> {
    /// Its path.
    pub path: &'a str,
    /// The format it was read as.
    pub format: FormatId,
    /// The length of its byte-order mark.
    pub bom_len: usize,
    /// The SHA-256 of its bytes.
    pub digest: Digest,
}

struct DepEntry {
    path: Name,
    seen: Seen,
}

/// The cache file as it was when the run started.
pub struct Old {
    file: Arc<File>,
    index: Index,
    /// Entry numbers by a hash of their path (a path is looked up once per file and run).
    by_hash: ByHash<u32>,
    /// Used as it is by this run: copied into the next file.
    kept: Vec<AtomicBool>,
    /// A new record replaces it.
    replaced: Vec<AtomicBool>,
    /// Each entry's file's metadata now, taken once by whoever asks first (the lookup, or
    /// the thread that stats ahead of it).
    stats: Vec<OnceLock<Option<Stat>>>,
    /// The same for each dependency.
    dep_stats: Vec<OnceLock<Option<Stat>>>,
}

/// An old cache file whose index is decoded on another thread, which then stats the files
/// it names ahead of their lookups (once told where the run looks: [`Opened::prefetch`]).
pub struct Opened {
    /// Where the decoded index comes from (the thread ending without sending: none).
    index: Mutex<Option<Receiver<Option<Arc<Old>>>>>,
    old: OnceLock<Option<Arc<Old>>>,
    /// The run's roots, for the thread to stat their files (dropped unsent: none).
    roots: Mutex<Option<Sender<Vec<PathBuf>>>>,
    /// Tells the thread to stop stating.
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Opened {
    /// The old cache file, once its index is decoded; none when it does not decode.
    pub fn get(&self) -> Option<&Old> {
        self.old
            .get_or_init(|| {
                let index = self.index.lock().unwrap_or_else(|e| e.into_inner()).take();
                index.and_then(|rx| rx.recv().ok().flatten())
            })
            .as_deref()
    }

    /// Stat the files of the entries under `roots` ahead of their lookups (at most once).
    pub fn prefetch(&self, roots: &[PathBuf]) {
        if let Some(tx) = self.roots.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = tx.send(roots.to_vec());
        }
    }

    /// [`Opened::get`], owned (the thread stopped first).
    pub fn into_inner(mut self) -> Option<Old> {
        self.get();
        self.stop.store(true, Ordering::Relaxed);
        self.roots
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        Arc::try_unwrap(self.old.take().flatten()?).ok()
    }
}

impl Drop for Opened {
    fn drop(&mut self) {
        // Stats no one will ask for.
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Old {
    /// The cache file `path`, when it is whole and was written by `build` for the repository
    /// at `repository` (its index still being decoded), and what `extra` makes of what it
    /// keeps besides the files (its bytes are checked before anything is returned).
    pub fn open<T: Send>(
        path: &Path,
        build: &str,
        repository: &Path,
        extra: impl FnOnce(&[u8]) -> T + Send,
    ) -> Option<(Opened, T)> {
        let file = disk::open(path)?;
        let len = file.metadata().ok()?.len();
        let mut head = [0; 12];
        read_at(&file, &mut head, 0)?;
        if &head[..8] != MAGIC {
            return None;
        }
        let header_len = u32::from_le_bytes(head[8..12].try_into().ok()?) as usize;
        if header_len > 4096 {
            return None;
        }
        let mut header = vec![0; header_len];
        read_at(&file, &mut header, 12)?;
        let header: Header = postcard::from_bytes(&header).ok()?;
        if header.layout != LAYOUT
            || header.build != build
            || header.repository != repository.to_string_lossy()
        {
            return None;
        }
        let mut footer = [0; FOOTER];
        read_at(&file, &mut footer, len.checked_sub(FOOTER as u64)?)?;
        if &footer[FOOTER - 8..] != END {
            return None;
        }
        let number = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                footer.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        let (extra_at, extra_len, index_at, index_len) =
            (number(0)?, number(1)?, number(2)?, number(3)?);
        if extra_at.checked_add(extra_len)? != index_at
            || index_at.checked_add(index_len)? != len - FOOTER as u64
        {
            return None;
        }
        let check_at = |at: usize| -> Option<Check> { footer.get(at..at + 16)?.try_into().ok() };
        let (extra_sum, index_sum) = (check_at(32)?, check_at(48)?);
        // The index is read, checked and decoded on a thread of its own while what the walk
        // needs is decoded here, and the walk goes on (the first lookup waits for it).
        let mut kept = vec![0; usize::try_from(extra_len).ok()?];
        read_at(&file, &mut kept, extra_at)?;
        let index_len = usize::try_from(index_len).ok()?;
        let (index_tx, index_rx) = std::sync::mpsc::channel();
        let (roots_tx, roots_rx) = std::sync::mpsc::channel::<Vec<PathBuf>>();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .spawn(move || {
                let old = Old::read(file, (index_at, index_len), index_sum, extra_at);
                crate::timing::event("index ready");
                let old = old.map(Arc::new);
                let _ = index_tx.send(old.clone());
                // Waits for the roots until the cache is saved or dropped (the sender with it).
                if let Some(old) = old
                    && let Ok(roots) = roots_rx.recv()
                {
                    old.prefetch(&roots, &stopped);
                    crate::timing::event("stated ahead");
                }
            })
            .ok()?;
        // Decoding reads any bytes safely; what it gives is used only once the check has
        // passed. One after the other: the check of a megabyte is a tenth of a millisecond,
        // and handing it to another core started the thread pool's workers here, where they
        // took the cores from the decoding and the index's thread.
        let (sum, extra) = (hash::check(&kept), extra(&kept));
        if sum != extra_sum {
            // The thread's index goes nowhere: no one asks for it.
            stop.store(true, Ordering::Relaxed);
            return None;
        }
        drop(kept);
        Some((
            Opened {
                index: Mutex::new(Some(index_rx)),
                old: OnceLock::new(),
                roots: Mutex::new(Some(roots_tx)),
                stop,
                thread: Some(thread),
            },
            extra,
        ))
    }

    /// The old cache file `file` whose index is the `(offset, length)` bytes `at`, when
    /// they pass their check `sum` and decode (blobs ending before `end`).
    fn read(file: File, at: (u64, usize), sum: Check, end: u64) -> Option<Old> {
        let mut bytes = vec![0; at.1];
        read_at(&file, &mut bytes, at.0)?;
        if hash::check(&bytes) != sum {
            return None;
        }
        crate::timing::event("index read");
        Old::decode(file, &bytes, end)
    }

    /// The old cache file `file` of the index `bytes` (blobs ending before `end`), once
    /// decoded.
    fn decode(file: File, bytes: &[u8], end: u64) -> Option<Old> {
        let index = flat::decode(bytes)?;
        if !index.whole(end) {
            return None;
        }
        let mut by_hash = ByHash::default();
        by_hash.reserve(index.entries.len());
        for (i, e) in index.entries.iter().enumerate() {
            // On a clash the first wins; `find` falls back to searching.
            by_hash
                .entry(hash::of(name_in(&index.names, e.path)))
                .or_insert(i as u32);
        }
        let n = index.entries.len();
        let deps = index.deps.len();
        Some(Old {
            file: Arc::new(file),
            index,
            by_hash,
            kept: (0..n).map(|_| AtomicBool::new(false)).collect(),
            replaced: (0..n).map(|_| AtomicBool::new(false)).collect(),
            stats: (0..n).map(|_| OnceLock::new()).collect(),
            dep_stats: (0..deps).map(|_| OnceLock::new()).collect(),
        })
    }

    /// Stat the files of the entries under `roots`, and the files their loads read, last
    /// first (lookups go in path order: the two meet instead of racing for the same files),
    /// until done or told to `stop`.
    pub(super) fn prefetch(&self, roots: &[PathBuf], stop: &AtomicBool) {
        for (i, e) in self.index.entries.iter().enumerate().rev() {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            if !super::under(Path::new(self.name(e.path)), roots) {
                continue;
            }
            self.stat(i);
            let (from, to) = e.deps;
            for j in from as usize..to as usize {
                if matches!(self.index.deps[j].seen, Seen::Read(..)) {
                    self.dep_stat(j);
                }
            }
        }
    }

    /// The metadata of entry `i`'s file now (none: not a regular file).
    pub fn stat(&self, i: usize) -> Option<Stat> {
        let path = self.index.entries[i].path;
        *self.stats[i].get_or_init(|| Stat::of(Path::new(self.name(path))))
    }

    /// True when entry `i`'s file was stated this run.
    #[cfg(test)]
    pub fn stated(&self, i: usize) -> bool {
        self.stats[i].get().is_some()
    }

    /// The metadata of dependency `j`'s file now.
    fn dep_stat(&self, j: usize) -> Option<Stat> {
        let path = self.index.deps[j].path;
        *self.dep_stats[j].get_or_init(|| Stat::of(Path::new(self.name(path))))
    }

    /// True when every path entry `i`'s load asked about shows what it did (through `fs`).
    pub fn deps_unchanged(&self, i: usize, fs: &dyn crate::fs::FileSystem) -> bool {
        let (from, to) = self.index.entries[i].deps;
        (from as usize..to as usize).all(|j| {
            let dep = &self.index.deps[j];
            dep.seen
                .unchanged_with(Path::new(self.name(dep.path)), fs, || self.dep_stat(j))
        })
    }

    /// The entry of the file at `path`, and its number.
    pub fn find(&self, path: &Path) -> Option<(usize, &Entry)> {
        let path = path.to_str()?;
        let i = match self.by_hash.get(&hash::of(path)) {
            Some(&i) if self.name(self.index.entries[i as usize].path) == path => i as usize,
            _ => self
                .index
                .entries
                .binary_search_by(|e| self.name(e.path).cmp(path))
                .ok()?,
        };
        Some((i, &self.index.entries[i]))
    }

    fn name(&self, name: Name) -> &str {
        name_in(&self.index.names, name)
    }

    /// Entry `i`.
    pub fn entry(&self, i: usize) -> &Entry {
        &self.index.entries[i]
    }

    /// The working directory of the run that stored entry `i`.
    pub fn cwd(&self, i: usize) -> &str {
        self.name(self.index.entries[i].cwd)
    }

    /// The paths entry `i`'s load asked about, with what it found.
    pub fn deps(&self, i: usize) -> impl Iterator<Item = (&Path, &Seen)> {
        let (from, to) = self.index.entries[i].deps;
        self.index.deps[from as usize..to as usize]
            .iter()
            .map(|d| (Path::new(self.name(d.path)), &d.seen))
    }

    /// The files of entry `i`'s result: the file, then its companions.
    pub fn files(&self, i: usize) -> impl Iterator<Item = FileMeta<'_>> {
        let (from, to) = self.index.entries[i].files;
        self.index.files[from as usize..to as usize]
            .iter()
            .map(|f| FileMeta {
                path: self.name(f.path),
                format: f.format,
                bom_len: f.bom_len as usize,
                digest: f.digest,
            })
    }

    /// The findings and suppression comments of entry `i`: none stored, or the bytes (none
    /// when they do not read back whole).
    pub fn notes(&self, i: usize) -> Option<Option<Vec<u8>>> {
        match self.index.entries[i].notes {
            None => Some(None),
            Some(blob) => read_blob(&self.file, blob).map(Some),
        }
    }

    /// How to read the item of entry `i` later (none: it has none).
    pub fn item(&self, i: usize) -> Option<ItemSource> {
        Some(ItemSource {
            file: Arc::clone(&self.file),
            blob: self.index.entries[i].item?,
        })
    }

    /// Entry `i` is used as it is.
    pub fn keep(&self, i: usize) {
        self.kept[i].store(true, Ordering::Relaxed);
    }

    /// True when entry `i` is used as it is.
    pub fn is_kept(&self, i: usize) -> bool {
        self.kept[i].load(Ordering::Relaxed)
    }

    /// Entry `i` has a new record.
    pub fn replace(&self, i: usize) {
        self.replaced[i].store(true, Ordering::Relaxed);
    }

    /// The entries to carry over into the next file: kept, or (not replaced) of a file
    /// `elsewhere` says this run did not look at; and whether any entry is dropped.
    fn carried(&self, elsewhere: &dyn Fn(&Path) -> bool) -> (Vec<usize>, bool) {
        let mut carried = Vec::new();
        let mut dropped = false;
        for (i, e) in self.index.entries.iter().enumerate() {
            if self.replaced[i].load(Ordering::Relaxed) {
                continue;
            }
            if self.kept[i].load(Ordering::Relaxed) || elsewhere(Path::new(self.name(e.path))) {
                carried.push(i);
            } else {
                dropped = true;
            }
        }
        (carried, dropped)
    }
}

impl Index {
    /// True when every range points inside the index and every blob before `end`, and the
    /// entries are sorted by path.
    fn whole(&self, end: u64) -> bool {
        let names = self.names.len();
        let blob = |b: &Option<Blob>| {
            b.is_none_or(|b| b.at.checked_add(u64::from(b.len)).is_some_and(|e| e <= end))
        };
        let range = |(from, to): Range, len: usize| from <= to && to as usize <= len;
        self.entries.iter().all(|e| {
            range(e.path, names)
                && range(e.cwd, names)
                && range(e.deps, self.deps.len())
                && range(e.files, self.files.len())
                && e.files.0 < e.files.1
                && blob(&e.notes)
                && blob(&e.item)
        }) && self.deps.iter().all(|d| range(d.path, names))
            && self.files.iter().all(|f| range(f.path, names))
            && self
                .entries
                .windows(2)
                .all(|w| name_in(&self.names, w[0].path) < name_in(&self.names, w[1].path))
    }
}

/// Where an item's bytes are in a cache file: read (and checked) when it is decoded.
pub struct ItemSource {
    file: Arc<File>,
    blob: Blob,
}

impl ItemSource {
    /// The bytes, when they read back whole.
    pub fn read(&self) -> Option<Vec<u8>> {
        read_blob(&self.file, self.blob)
    }
}

fn read_blob(file: &File, blob: Blob) -> Option<Vec<u8>> {
    let mut bytes = vec![0; blob.len as usize];
    read_at(file, &mut bytes, blob.at)?;
    (hash::check(&bytes) == blob.sum).then_some(bytes)
}

/// Fill `buf` from `file` at `offset`, without moving a shared position (threads read at
/// once).
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> Option<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset).ok()
}

#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> Option<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_read(file, buf, offset).ok()?;
        if n == 0 {
            return None;
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Some(())
}

fn name_in(names: &str, (from, to): Name) -> &str {
    names.get(from as usize..to as usize).unwrap_or("")
}

/// Whether a cache built from `old` and `writer` would differ from `old`: new records, or old
/// ones dropped.
pub fn differs(
    old: Option<&Old>,
    writer: Option<&Writer>,
    elsewhere: &dyn Fn(&Path) -> bool,
) -> bool {
    writer.is_some_and(|w| !w.is_empty()) || old.is_some_and(|o| o.carried(elsewhere).1)
}
