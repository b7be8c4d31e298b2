//! The content cache: what each definition file contributed when it was last loaded, kept in
//! `.toolc_cache/` at the repository root so that a re-check loads only the files that
//! changed.
//!
//! - **What is stored.** Per definition file: its diagnostics, suppression comments and the
//!   format's typed item (the facts resolve, the bundles and an editor read), without its
//!   text, plus the companion files its load read (DojOps schema files). Everything the
//!   configuration decides (severities, `select`/`ignore`, suppression, cross-file rules,
//!   CMP targets) runs after the cache on every run, so a configuration change never needs
//!   an invalidation; what the configuration decides *before* a load, the file's format, is
//!   part of the entry and a mismatch is a miss.
//! - **Keys.** An entry is for one path and holds the file's size, modification time and
//!   inode (a first filter, as ruff does) and the SHA-256 of its bytes. A file whose metadata
//!   is unchanged is not read; one whose metadata changed is hashed, and is a hit when its
//!   bytes did not. A file modified within a second of the run that stored it is always
//!   hashed (a change in the same clock tick keeps its mtime). Every other path the load read
//!   or looked for is checked the same way (a schema file created, changed or deleted is a
//!   miss).
//! - **Versions.** The cache file lives under the toolc version and records the build (the
//!   version, the commit and the executable's size and time): any other build ignores it.
//! - **Trust.** Each entry carries the SHA-256 of its bytes, checked when it is used: a
//!   damaged entry is a miss, a file of another build or layout (or not a cache file at all)
//!   is ignored as a whole, an entry that does not decode completely is a miss. Nothing read
//!   from the cache can make a check say anything else than it would without it.
//! - **Memory.** Opening the cache reads each entry's metadata; an entry's stored result is
//!   read from the file only when it is used, and new entries are written out as files are
//!   loaded, so no run holds the whole cache in memory.
//! - **Concurrency.** A run writes a new cache file beside the old one (copying the old
//!   entries still good from the old file it keeps open) and renames it into place: a reader
//!   sees the old file or the new one, never half of one; of two runs ending together the
//!   last rename wins, and both files are whole. A run that changed nothing writes nothing.

mod codec;
mod serde_helpers;
mod track;

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

pub use serde_helpers::{StaticStr, json_option, static_str};
pub use track::{Dep, Stat, Tracker};

use crate::discover::Claim;
use crate::formats::FileResult;
use crate::fs::FileSystem;
use crate::source::{Digest, FormatId, SourceFile, sha256};
use codec::Stored;

/// The cache folder's name, at the repository root.
pub const DIR: &str = ".toolc_cache";

/// Bumped when the layout of the cache file changes.
const LAYOUT: u32 = 3;

/// How the cache file starts.
const MAGIC: &[u8; 8] = b"toolc\0c\0";

/// What the cache file says first: which build wrote it.
#[derive(Serialize, Deserialize)]
struct Header {
    layout: u32,
    build: String,
}

/// What an entry says of its file, read when the cache is opened. The file's stored result
/// follows it in the cache file and is read only when the entry is used.
#[derive(Serialize, Deserialize)]
struct Meta {
    path: PathBuf,
    format: FormatId,
    /// Whether the content has the format's shape, when that was asked (a file found by
    /// walking, [`Claim::ByContent`]); a file not claimed has no stored result.
    claimed: Option<bool>,
    stat: Stat,
    digest: Digest,
    /// Stored within two seconds of its modification: the metadata filter is not trusted.
    racy: bool,
    deps: Vec<Dep>,
}

/// Where an old entry's record lies in the old cache file. A record is the lengths of its
/// two parts, the SHA-256 of both, the encoded [`Meta`] and the encoded [`Stored`].
struct Old {
    meta: Meta,
    /// Used as it is by this run.
    kept: AtomicBool,
    at: u64,
    meta_len: u32,
    blob_len: u32,
    sum: Digest,
}

/// Bytes before a record's parts: two lengths and a digest.
const RECORD_HEAD: usize = 4 + 4 + 32;

/// A file the cache answers for: its result (none when its content is not its format's), and
/// the other paths its load read or looked for.
pub struct Hit {
    /// What loading the file gives.
    pub result: Option<FileResult>,
    /// What else the load asked about.
    pub deps: Vec<PathBuf>,
}

/// What one run did with the cache, for `--statistics` and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Files taken from the cache.
    pub hits: usize,
    /// Files loaded (and stored, when their format is cached).
    pub loaded: usize,
}

/// The cache of one repository for one run: the entries of the cache file at the start
/// (their results stay on disk until used), and the new cache file the run writes as it goes;
/// [`Cache::save`] completes it and renames it into place.
pub struct Cache {
    file: PathBuf,
    build: String,
    started: SystemTime,
    /// The cache file read at the start, kept open: a rename by another run does not change
    /// what it reads.
    source: Option<Mutex<File>>,
    old: HashMap<PathBuf, Old>,
    /// The new cache file, opened at the first change.
    out: Mutex<Option<Output>>,
    /// True when the file on disk no longer says what this run found.
    changed: AtomicBool,
    hits: AtomicUsize,
    loaded: AtomicUsize,
}

/// A cache file being written.
struct Output {
    tmp: PathBuf,
    writer: BufWriter<File>,
    /// Paths with a record in it.
    written: HashSet<PathBuf>,
    /// False after a failed write: the file is then not used.
    ok: bool,
}

/// The build that writes and reads a cache: another build never trusts its entries.
fn build_id() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| Stat::of_metadata(&m))
        .map(|s| format!("{}.{}.{}", s.len, s.mtime_secs, s.mtime_nanos))
        .unwrap_or_default();
    format!("{} {exe}", env!("TOOLC_VERSION"))
}

impl Cache {
    /// The cache of the repository at `root`; empty when there is none yet or it cannot be
    /// used (another build's, damaged, unreadable).
    pub fn open(root: &Path) -> Cache {
        Cache::open_as(root, build_id())
    }

    /// [`Cache::open`] for the build called `build`.
    fn open_as(root: &Path, build: String) -> Cache {
        let version: String = env!("CARGO_PKG_VERSION")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let file = root.join(DIR).join(version).join("files.bin");
        // Only a regular file in real folders: a committed link must not lead the cache's
        // reads (or writes, see `create_output`) out of the repository.
        let opened = if usable(&file) && is_regular(&file) {
            File::open(&file)
        } else {
            Err(std::io::ErrorKind::NotFound.into())
        };
        let (source, old) = match opened {
            Ok(f) => {
                let old = read_index(&f, &build).unwrap_or_default();
                (Some(Mutex::new(f)), old)
            }
            Err(_) => (None, HashMap::new()),
        };
        Cache {
            file,
            build,
            started: SystemTime::now(),
            source,
            old,
            out: Mutex::new(None),
            changed: AtomicBool::new(false),
            hits: AtomicUsize::new(0),
            loaded: AtomicUsize::new(0),
        }
    }

    /// What this run did so far.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            loaded: self.loaded.load(Ordering::Relaxed),
        }
    }

    /// The file at `path`, read as `format` and claimed as `claim` says, from the cache,
    /// when neither it nor anything its load read has changed (and none of that has a buffer
    /// in `buffered`). `fs` is the disk the run reads (texts are read back through it); `cwd`
    /// what paths are shown relative to.
    pub fn get(
        &self,
        path: &Path,
        format: FormatId,
        claim: Claim,
        cwd: &Path,
        fs: &Arc<dyn FileSystem>,
        buffered: &HashSet<&Path>,
    ) -> Option<Hit> {
        let old = self.old.get(path)?;
        let meta = &old.meta;
        let has_result = meta.claimed != Some(false);
        let answers = match claim {
            Claim::ByContent => meta.claimed.is_some(),
            Claim::Always => has_result,
        };
        if meta.format != format
            || !answers
            || (!buffered.is_empty() && meta.deps.iter().any(|d| buffered.contains(d.path())))
        {
            return None;
        }
        let now = Stat::of(path)?;
        let same = !meta.racy && now == meta.stat;
        if !same && sha256(&fs.read(path).ok()?) != meta.digest {
            return None;
        }
        if !meta.deps.iter().all(|d| d.unchanged(fs.as_ref())) {
            return None;
        }
        let record = self.read_record(old)?;
        let blob = record.get(old.meta_len as usize..)?;
        let result = if has_result {
            let stored: Stored = postcard::from_bytes(blob).ok()?;
            let result = stored.load(path, format, cwd, fs)?;
            if result.file.digest() != meta.digest {
                return None;
            }
            Some(result)
        } else {
            None
        };
        self.hits.fetch_add(1, Ordering::Relaxed);
        let racy = self.is_racy(&now);
        if same && !racy {
            old.kept.store(true, Ordering::Relaxed);
        } else {
            // Same bytes under new metadata: remember the new metadata, so the next run
            // does not hash the file again.
            let meta = Meta {
                path: path.to_path_buf(),
                format,
                claimed: meta.claimed,
                stat: now,
                digest: meta.digest,
                racy,
                deps: meta.deps.clone(),
            };
            self.write_record(&meta, blob);
        }
        Some(Hit {
            result,
            deps: meta.deps.iter().map(|d| d.path().to_path_buf()).collect(),
        })
    }

    /// Remember what loading the file at `path` as `claim` says gave (`Err`: the file, not
    /// claimed by its content), when its metadata was `stat` before it was read (none: not
    /// to be stored), and its load read or looked for `deps`.
    pub fn put(
        &self,
        path: &Path,
        stat: Option<Stat>,
        claim: Claim,
        outcome: Result<&FileResult, &Arc<SourceFile>>,
        deps: &[Dep],
    ) {
        self.loaded.fetch_add(1, Ordering::Relaxed);
        self.changed.store(true, Ordering::Relaxed);
        let Some(stat) = stat else { return };
        let (file, blob) = match outcome {
            Ok(result) => {
                let Some(stored) = Stored::of(result) else {
                    return;
                };
                let Ok(blob) = postcard::to_allocvec(&stored) else {
                    return;
                };
                (&result.file, blob)
            }
            Err(file) => (file, Vec::new()),
        };
        let meta = Meta {
            path: path.to_path_buf(),
            format: file.format,
            claimed: (claim == Claim::ByContent).then_some(outcome.is_ok()),
            racy: self.is_racy(&stat),
            stat,
            digest: file.digest(),
            deps: deps.to_vec(),
        };
        self.write_record(&meta, &blob);
    }

    /// Modified too close to now for its metadata to tell a later change apart.
    fn is_racy(&self, stat: &Stat) -> bool {
        let mtime =
            SystemTime::UNIX_EPOCH + Duration::new(stat.mtime_secs.max(0) as u64, stat.mtime_nanos);
        mtime + Duration::from_secs(2) >= self.started
    }

    /// The record of `old` (its meta and its blob), when it is whole.
    fn read_record(&self, old: &Old) -> Option<Vec<u8>> {
        let mut source = lock(self.source.as_ref()?);
        let len = old.meta_len as usize + old.blob_len as usize;
        let mut record = vec![0; len];
        source.seek(SeekFrom::Start(old.at)).ok()?;
        source.read_exact(&mut record).ok()?;
        (sha256(&record) == old.sum).then_some(record)
    }

    /// Add a record to the new cache file.
    fn write_record(&self, meta: &Meta, blob: &[u8]) {
        self.changed.store(true, Ordering::Relaxed);
        let Ok(meta_bytes) = postcard::to_allocvec(meta) else {
            return;
        };
        let mut out = lock(&self.out);
        if out.is_none() {
            *out = self.create_output();
        }
        let Some(output) = out.as_mut().filter(|o| o.ok) else {
            return;
        };
        let mut sum = sha2::Sha256::default();
        sha2::Digest::update(&mut sum, &meta_bytes);
        sha2::Digest::update(&mut sum, blob);
        let sum: Digest = sha2::Digest::finalize(sum).into();
        let (Ok(meta_len), Ok(blob_len)) =
            (u32::try_from(meta_bytes.len()), u32::try_from(blob.len()))
        else {
            return;
        };
        let w = &mut output.writer;
        let written = w
            .write_all(&meta_len.to_le_bytes())
            .and_then(|()| w.write_all(&blob_len.to_le_bytes()))
            .and_then(|()| w.write_all(&sum))
            .and_then(|()| w.write_all(&meta_bytes))
            .and_then(|()| w.write_all(blob));
        output.ok &= written.is_ok();
        output.written.insert(meta.path.clone());
    }

    /// A new cache file beside the old one, its header written.
    fn create_output(&self) -> Option<Output> {
        if !usable(&self.file) {
            return None;
        }
        let dir = self.file.parent()?;
        std::fs::create_dir_all(dir).ok()?;
        // Created between the check and here is no different from created before it.
        if !usable(&self.file) {
            return None;
        }
        mark(dir.parent()?).ok()?;
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = dir.join(format!(".files.{}.{nanos}.tmp", std::process::id()));
        // A new file, never one that is there (nor a link that is there).
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .ok()?;
        let mut writer = BufWriter::with_capacity(256 * 1024, created);
        let header = postcard::to_allocvec(&Header {
            layout: LAYOUT,
            build: self.build.clone(),
        })
        .ok()?;
        let ok = writer
            .write_all(MAGIC)
            .and_then(|()| writer.write_all(&(header.len() as u32).to_le_bytes()))
            .and_then(|()| writer.write_all(&header))
            .is_ok();
        Some(Output {
            tmp,
            writer,
            written: HashSet::new(),
            ok,
        })
    }

    /// Finish the new cache file when this run changed anything: the records it wrote, and
    /// the old records still good (used as they are, or of files outside the walked
    /// `roots`); an old record of a file under them that was not used is of a file that is
    /// gone or changed.
    pub fn save(mut self, roots: &[PathBuf]) {
        let mut out = self.out.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        let mut changed = *self.changed.get_mut();
        // (offset, length) of the old records to copy.
        let mut copy: Vec<(u64, u64)> = Vec::new();
        for (path, old) in &self.old {
            if out.as_ref().is_some_and(|o| o.written.contains(path)) {
                continue;
            }
            if old.kept.load(Ordering::Relaxed) || !roots.iter().any(|r| path.starts_with(r)) {
                let len = RECORD_HEAD as u64 + u64::from(old.meta_len) + u64::from(old.blob_len);
                copy.push((old.at - RECORD_HEAD as u64, len));
            } else {
                changed = true;
            }
        }
        if !changed {
            return;
        }
        if out.is_none() {
            out = self.create_output();
        }
        let Some(mut output) = out else { return };
        copy.sort_unstable();
        if let Some(source) = self.source.as_mut() {
            let source = source.get_mut().unwrap_or_else(|e| e.into_inner());
            for (at, len) in copy {
                let copied = source
                    .seek(SeekFrom::Start(at))
                    .and_then(|_| std::io::copy(&mut (&mut *source).take(len), &mut output.writer));
                output.ok &= copied.is_ok_and(|n| n == len);
            }
        }
        let Output {
            tmp, writer, ok, ..
        } = output;
        // A cache that cannot be written costs the next run time, never a result.
        let done = ok && writer.into_inner().is_ok() && std::fs::rename(&tmp, &self.file).is_ok();
        if !done {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The entries of the cache file `file` (its header, then each record's meta), when it was
/// written by this `build`. A record whose meta does not read ends the list; a record's
/// content is checked against its digest when it is used.
fn read_index(file: &File, build: &str) -> Option<HashMap<PathBuf, Old>> {
    let mut r = BufReader::with_capacity(256 * 1024, file);
    let mut magic = [0; 8];
    r.read_exact(&mut magic).ok()?;
    if &magic != MAGIC {
        return None;
    }
    let mut len = [0; 4];
    r.read_exact(&mut len).ok()?;
    let header_len = u32::from_le_bytes(len) as usize;
    if header_len > 4096 {
        return None;
    }
    let mut header = vec![0; header_len];
    r.read_exact(&mut header).ok()?;
    let header: Header = postcard::from_bytes(&header).ok()?;
    if header.layout != LAYOUT || header.build != build {
        return None;
    }
    let mut at = (MAGIC.len() + 4 + header_len) as u64;
    let mut old = HashMap::new();
    let mut head = [0; RECORD_HEAD];
    let mut meta_bytes = Vec::new();
    while r.read_exact(&mut head).is_ok() {
        let meta_len = u32::from_le_bytes(head[0..4].try_into().ok()?);
        let blob_len = u32::from_le_bytes(head[4..8].try_into().ok()?);
        let sum: Digest = head[8..].try_into().ok()?;
        meta_bytes.resize(meta_len as usize, 0);
        if r.read_exact(&mut meta_bytes).is_err() {
            break;
        }
        let Ok(meta) = postcard::from_bytes::<Meta>(&meta_bytes) else {
            break;
        };
        if r.seek_relative(i64::from(blob_len)).is_err() {
            break;
        }
        at += RECORD_HEAD as u64;
        let path = meta.path.clone();
        old.insert(
            path,
            Old {
                meta,
                kept: AtomicBool::new(false),
                at,
                meta_len,
                blob_len,
                sum,
            },
        );
        at += u64::from(meta_len) + u64::from(blob_len);
    }
    Some(old)
}

/// True when the folders of the cache file `file` (the version folder and `.toolc_cache`)
/// are real folders or not there yet: never links.
fn usable(file: &Path) -> bool {
    file.ancestors().skip(1).take(2).all(|dir| {
        std::fs::symlink_metadata(dir).map_or_else(
            |e| e.kind() == std::io::ErrorKind::NotFound,
            |m| m.file_type().is_dir(),
        )
    })
}

/// True when `path` is a regular file itself (not a link to one).
fn is_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// Make `dir` (the `.toolc_cache` folder) ignored by git and by backup tools. Each file is
/// created only when nothing is at its path, so nothing there is written through.
fn mark(dir: &Path) -> std::io::Result<()> {
    let create = |name: &str, text: &str| match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.join(name))
    {
        Ok(mut f) => f.write_all(text.as_bytes()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    };
    create(
        ".gitignore",
        "# Written by toolc: the whole folder is a cache.\n*\n",
    )?;
    create(
        "CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by toolc.\n",
    )
}

/// The folder whose `.toolc_cache/` a run in `cwd` with `config` uses: the git repository
/// around the configuration (or `cwd`), else the configuration's folder, else `cwd`; the same
/// for `check .` and `check FILE` run from one place.
pub fn root_for(config: &crate::config::Config, cwd: &Path) -> PathBuf {
    let from = if config.file.is_some() {
        crate::discover::normalize(&config.root)
    } else {
        cwd.to_path_buf()
    };
    from.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&from)
        .to_path_buf()
}

/// Remove the cache of the repository at `root`. Returns the folder when there was one.
pub fn clean(root: &Path) -> std::io::Result<Option<PathBuf>> {
    let dir = root.join(DIR);
    match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.is_dir() => {
            std::fs::remove_dir_all(&dir)?;
            Ok(Some(dir))
        }
        Ok(_) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
