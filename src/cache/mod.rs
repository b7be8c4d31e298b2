//! The content cache: what each definition file contributed when it was last loaded, kept in
//! `.toolc_cache/` at the repository root so that a re-check loads only the files that
//! changed.
//!
//! - **What is stored.** Per definition file: its diagnostics, suppression comments and the
//!   format's typed item (the facts resolve, the bundles and an editor read), without its
//!   text, plus the companion files its load read (DojOps schema files). Everything the
//!   configuration decides (severities, `select`/`ignore`, suppression, cross-file rules,
//!   CMP targets) runs after the cache on every run, so a configuration change never needs
//!   an invalidation; what it decides *before* a load (the file's format, whether its content
//!   is asked to have the format's shape) is part of the entry, and so is the working
//!   directory (messages name files relative to it).
//! - **Keys.** An entry is for one path and holds the file's size, modification time and
//!   inode (a first filter, as ruff does) and the SHA-256 of its bytes. A file whose metadata
//!   is unchanged is not read; one whose metadata changed is hashed, and is a hit when its
//!   bytes did not. A file modified within two seconds of the run that stored it is always
//!   hashed (a change in the same clock tick keeps its mtime). Every other path the load read,
//!   looked for or listed is checked the same way (a schema file created, changed or deleted
//!   is a miss; one read within two seconds of its modification is hashed next time), and so is where a link out of the repository leads, when a load asked (a
//!   program retargeted is a miss). Links are never taken from the cache: their files are
//!   read (through the run's file system, which reads nothing out of the repository) on
//!   every run.
//! - **Walks.** The walk of each root is kept too (`walk.rs`): a run where no folder changed
//!   lists none, and the names looked for in unchanged folders (a `toolc.toml`, a schema a
//!   tool does not have) are answered from there.
//! - **Cross-file findings.** When every file is what it was, resolve's findings are the
//!   last run's (`resolve.rs`), and the items are never decoded; `check FILE` then leaves
//!   the results of the files it does not report on in the cache (`defer.rs`). What
//!   ShellCheck said of each script is kept for the same ShellCheck, so resolve running
//!   again checks only new scripts.
//! - **Versions.** The cache file lives under the toolc version and records the build (the
//!   version, the commit and the executable's size, times and inode, including the
//!   status-change time no one can set): any other build ignores it, and a cache file
//!   committed to a repository is another build's.
//! - **Trust.** The index and every blob carry a check (XXH3-128: it finds damage; forgery
//!   is what the build id stops), checked when they are read: a damaged blob is a miss, a
//!   file of another build or layout (or not a cache file at all) is ignored as a whole, an
//!   entry that does not decode completely is a miss. Nothing read from the cache can make
//!   a check say anything else than it would without it.
//! - **Memory.** Opening the cache reads its index (`store/`, decoded on a thread of its own
//!   while the walk goes on); a file's findings are read
//!   when it is looked up and its item when something looks into it; new entries are written
//!   out as files are loaded, and the cache is completed after the report, when the files'
//!   results are gone.
//! - **Concurrency.** A run writes a new cache file beside the old one (copying the old
//!   entries still good from the old file it keeps open) and renames it into place: a reader
//!   sees the old file or the new one, never half of one; of two runs ending together the
//!   last rename wins, and both files are whole. A run that changed nothing writes nothing.

mod codec;
mod defer;
mod disk;
mod fixed;
pub(crate) mod hash;
mod known;
mod resolve;
mod serde_helpers;
mod store;
mod track;
mod walk;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

pub use defer::{Deferred, Found, Lookup};
pub use disk::{DIR, clean, root_for};
pub use known::Known;
pub use serde_helpers::{StaticStr, json_option, static_str};
pub use track::{Dep, Stat, Tracker};
pub use walk::Walks;

use serde::{Deserialize, Serialize};

use crate::diagnostics::Diagnostic;
use crate::discover::Claim;
use crate::formats::Fetch;
use crate::formats::{self, FileResult, Item};
use crate::fs::FileSystem;
use crate::security::shellcheck;
use crate::source::{FormatId, SourceFile, sha256};
use resolve::{Resolved, Resolves};
use store::{Meta, Old, Opened, Parts, Writer};

/// What the cache keeps besides each file's record (read back with ShellCheck's findings as
/// [`shellcheck::Said`], written from memory as [`shellcheck::SaidNow`]).
#[derive(Serialize, Deserialize, Default)]
struct Extra<Said = shellcheck::Said> {
    /// The walks ([`Walks`]).
    walks: walk::Kept,
    /// The cross-file findings of the last runs.
    resolved: Vec<Resolved>,
    /// What ShellCheck said of the scripts resolve checked.
    shellcheck: Said,
}

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
    /// Files taken from the cache whose results stayed there (`check FILE`).
    pub left: usize,
}

/// The cache of one repository for one run: the cache file as it was at the start (its
/// records stay on disk until used), the walks, and the new cache file the run writes as it
/// goes; [`Cache::save`] completes it and renames it into place.
pub struct Cache {
    /// The repository whose cache it is (a cache file written for another place is not
    /// read: a repository moved or copied with its cache starts afresh).
    root: PathBuf,
    file: PathBuf,
    build: String,
    /// The run's working directory: messages name files relative to it.
    cwd: PathBuf,
    started: SystemTime,
    old: Option<Opened>,
    /// The new cache file, opened at the first new record.
    out: Mutex<Option<Writer>>,
    walks: Walks,
    resolves: Resolves,
    /// Entries used as they are, under new metadata (number, metadata, racy).
    restat: Mutex<HashMap<usize, (Stat, bool)>>,
    hits: AtomicUsize,
    loaded: AtomicUsize,
    left: AtomicUsize,
}

/// The build that writes and reads a cache: another build never trusts its entries. Besides
/// the version, the executable's size, modification time and inode, and its status-change
/// time on Unix (its creation time on Windows): no one can know that ahead, so a cache file
/// committed to a repository (to make a check in CI say nothing) cannot name the build that
/// will read it, even for a release whose size and time are public.
fn build_id() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| {
            let s = Stat::of_metadata(&m);
            #[cfg(unix)]
            let changed = {
                use std::os::unix::fs::MetadataExt;
                format!("{}.{}", m.ctime(), m.ctime_nsec())
            };
            // Set when the file is made (an install, an extraction): no one can know it
            // ahead.
            #[cfg(windows)]
            let changed = std::os::windows::fs::MetadataExt::creation_time(&m).to_string();
            #[cfg(not(any(unix, windows)))]
            let changed = String::new();
            format!(
                "{}.{}.{}.{}.{changed}",
                s.len, s.mtime_secs, s.mtime_nanos, s.inode
            )
        })
        // An executable that cannot be named is a build no cache file names.
        .unwrap_or_else(|| {
            let now = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap_or_default();
            format!("unknown.{}.{}", std::process::id(), now.as_nanos())
        });
    format!("{} {exe}", env!("TOOLC_VERSION"))
}

impl Cache {
    /// The cache of the repository at `root`, for a run in `cwd`; empty when there is none
    /// yet or it cannot be used (another build's, damaged, unreadable).
    pub fn open(root: &Path, cwd: &Path) -> Cache {
        Cache::open_as(root, cwd, build_id())
    }

    /// [`Cache::open`] for the build called `build`.
    fn open_as(root: &Path, cwd: &Path, build: String) -> Cache {
        let file = disk::version_dir(root).join("files.bin");
        let decode = |bytes: &[u8]| {
            let extra: Extra = postcard::from_bytes(bytes).unwrap_or_default();
            (
                Walks::new(Some(extra.walks)),
                extra.resolved,
                extra.shellcheck,
            )
        };
        // What this process's ShellCheck said is kept for this repository's run alone.
        shellcheck::start_run();
        let (old, (walks, resolved)) = match Old::open(&file, &build, root, decode) {
            Some((old, (walks, resolved, said))) => {
                // Only once the cache file's checksum has passed.
                shellcheck::remember(said);
                (Some(old), (walks, resolved))
            }
            None => {
                // Made before the walk, which sees the folder as it stays.
                disk::prepare(&file);
                (None, (Walks::new(None), Vec::new()))
            }
        };
        Cache {
            root: root.to_path_buf(),
            file,
            build,
            cwd: cwd.to_path_buf(),
            started: SystemTime::now(),
            old,
            out: Mutex::new(None),
            walks,
            resolves: Resolves::new(resolved),
            restat: Mutex::new(HashMap::new()),
            hits: AtomicUsize::new(0),
            loaded: AtomicUsize::new(0),
            left: AtomicUsize::new(0),
        }
    }

    /// The cache file as it was at the start (its index decoded).
    fn old(&self) -> Option<&Old> {
        self.old.as_ref()?.get()
    }

    /// True when there was no cache file to start from (or it was not this build's): then
    /// no result of the run reads from it, and it can be written while they are still held.
    pub fn started_empty(&self) -> bool {
        self.old.is_none()
    }

    /// What this run did so far.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            loaded: self.loaded.load(Ordering::Relaxed),
            left: self.left.load(Ordering::Relaxed),
        }
    }

    /// Stat ahead the files this cache knows under `roots` (the run's), so that their
    /// lookups find the answer waiting.
    pub fn prefetch(&self, roots: &[PathBuf]) {
        if let Some(old) = &self.old {
            old.prefetch(roots);
        }
    }

    /// The walks of this run.
    pub fn walks(&self) -> &Walks {
        &self.walks
    }

    /// The file `q` asks about, from the cache, when neither it nor anything its load read
    /// has changed (and none of that has a buffer in `q.buffered`): its result, or, when `q`
    /// allows it ([`Lookup::reported`]), a note that it stays in the cache.
    pub fn get(&self, q: &Lookup<'_>) -> Option<Found> {
        let old = self.old()?;
        let (i, entry) = old.find(q.path)?;
        if Some(old.cwd(i)) != q.cwd.to_str() {
            return None;
        }
        let has_result = entry.claimed != Some(false);
        let answers = match q.claim {
            Claim::ByContent => entry.claimed.is_some(),
            Claim::Always => has_result,
        };
        if entry.format != q.format
            || !answers
            || (!q.buffered.is_empty() && old.deps(i).any(|(p, _)| q.buffered.contains(p)))
        {
            return None;
        }
        let now = old.stat(i)?;
        let same = !entry.racy && now == entry.stat;
        if !same && sha256(&q.fs.read(q.path).ok()?) != entry.digest {
            return None;
        }
        let known = Known::new(q.fs.as_ref(), &self.walks);
        if !old.deps_unchanged(i, &known) {
            return None;
        }
        if self.defers(i, q) {
            self.settle(i, now, same);
            self.left.fetch_add(1, Ordering::Relaxed);
            return Some(Found::Deferred(Deferred::new(q, i)));
        }
        let result = if has_result {
            Some(self.rebuild(i, q.path, q.format, q.cwd, q.fs)?)
        } else {
            None
        };
        self.settle(i, now, same);
        let deps = if q.track {
            old.deps(i).map(|(p, _)| p.to_path_buf()).collect()
        } else {
            Vec::new()
        };
        Some(Found::Hit(Hit { result, deps }))
    }

    /// The result entry `i` holds for the file at `path`, read as `format`.
    fn rebuild(
        &self,
        i: usize,
        path: &Path,
        format: FormatId,
        cwd: &Path,
        fs: &Arc<dyn FileSystem>,
    ) -> Option<FileResult> {
        let old = self.old()?;
        let entry = old.entry(i);
        let notes = old.notes(i)?;
        let fetch = old
            .item(i)
            .map(|source| -> Fetch { Box::new(move || source.read()) });
        codec::rebuild(
            path,
            format,
            old.files(i),
            notes.as_deref(),
            fetch,
            entry.tools,
            cwd,
            fs,
        )
    }

    /// Entry `i` is used as it is (`now`: the file's metadata, `same` as stored).
    fn settle(&self, i: usize, now: Stat, same: bool) {
        let Some(old) = self.old() else {
            return;
        };
        self.hits.fetch_add(1, Ordering::Relaxed);
        old.keep(i);
        let racy = self.is_racy(&now);
        if !same || racy {
            // Same bytes under new metadata: remember the new metadata, so the next run
            // does not hash the file again.
            self.restat
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(i, (now, racy));
        }
    }

    /// This run is about to load `files` files: a first run stores a record of each, and
    /// its new index makes room for them now.
    pub fn expect(&self, files: usize) {
        if !self.started_empty() || files == 0 {
            return;
        }
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(out) = self.writer(&mut out) {
            out.reserve(files);
        }
    }

    /// The new cache file, opened when nothing opened it yet (none when it cannot be).
    fn writer<'o>(&self, out: &'o mut Option<Writer>) -> Option<&'o mut Writer> {
        if out.is_none() {
            *out = Writer::create(&self.file, &self.build, &self.root, &self.cwd);
        }
        out.as_mut()
    }

    /// Remember what loading the file at `path` as `claim` says gave (`Err`: the file, not
    /// claimed by its content), when its metadata was `stat` before it was read (none: not
    /// to be stored), and its load read or looked for `deps`. Returns the stored item, to
    /// hold in place of the decoded one (it is smaller until something looks into it).
    pub fn put(
        &self,
        path: &Path,
        stat: Option<Stat>,
        claim: Claim,
        outcome: Result<&FileResult, &Arc<SourceFile>>,
        deps: &[Dep],
    ) -> Option<Item> {
        self.loaded.fetch_add(1, Ordering::Relaxed);
        let stat = stat?;
        let (file, parts) = match outcome {
            Ok(result) => (&result.file, codec::parts(result)?),
            Err(file) => (file, Parts::default()),
        };
        let meta = Meta {
            format: file.format,
            claimed: (claim == Claim::ByContent).then_some(outcome.is_ok()),
            racy: self.is_racy(&stat),
            stat,
            digest: file.digest(),
        };
        if let Some(old) = self.old()
            && let Some((i, _)) = old.find(path)
        {
            old.replace(i);
        }
        let codec = formats::format_of(file.format)?.cache();
        // Hashed on this core: the writer is one for all of them.
        let checked = parts.checked(deps);
        {
            let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
            self.writer(&mut out)?.record(path, meta, deps, &checked)?;
        }
        // Written: the item's bytes are the stored item's now.
        let tools = checked.parts.tools as usize;
        match (checked.parts.item, codec) {
            (Some(bytes), Some(codec)) => {
                let fetch: Fetch = Box::new(move || Some(bytes));
                let files = match outcome {
                    Ok(r) => std::iter::once(&r.file)
                        .chain(&r.companions)
                        .cloned()
                        .collect(),
                    Err(_) => Vec::new(),
                };
                Some(Item::encoded(codec, fetch, tools, files))
            }
            _ => None,
        }
    }

    /// Modified too close to now for its metadata to tell a later change apart.
    fn is_racy(&self, stat: &Stat) -> bool {
        let mtime =
            SystemTime::UNIX_EPOCH + Duration::new(stat.mtime_secs.max(0) as u64, stat.mtime_nanos);
        mtime + Duration::from_secs(2) >= self.started
    }

    /// The cross-file findings of `results` and `deferred` (walked from `roots`), resolved
    /// through `fs`, or the last run's when nothing they depend on changed. When resolve
    /// runs, `results` gets the deferred files' results (`disk`: where their texts are read
    /// back from).
    pub fn resolve(
        &self,
        fs: &dyn FileSystem,
        disk: &Arc<dyn FileSystem>,
        results: &mut Vec<FileResult>,
        deferred: Vec<Deferred>,
        roots: &[PathBuf],
    ) -> Vec<Diagnostic> {
        let known = Known::new(fs, &self.walks);
        let key = {
            let out = self.out.lock().unwrap_or_else(|e| e.into_inner());
            let stored = |path: &Path| {
                if let Some(sum) = path.to_str().and_then(|p| out.as_ref()?.sum(p)) {
                    return Some(sum);
                }
                let old = self.old()?;
                let (i, entry) = old.find(path)?;
                old.is_kept(i).then(|| *entry.sum())
            };
            Resolves::key(defer::in_order(results, &deferred), &self.cwd, &stored)
        };
        if let Some(key) = key {
            let companions = std::sync::OnceLock::new();
            let find = |path: &Path| {
                resolve::find(results, path)
                    .or_else(|| self.deferred_file(&deferred, &companions, path, disk))
            };
            if let Some(found) = self.resolves.reuse(key, &find, &known) {
                return found;
            }
        }
        self.materialize(results, deferred, fs, disk);
        self.resolves.resolve_now(key, fs, results, roots)
    }

    /// True when [`Cache::save`] has anything to write for a run over `roots`.
    pub fn changed(&self, roots: &[PathBuf]) -> bool {
        let elsewhere = |p: &Path| !under(p, roots);
        let out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        self.walks.changed()
            || self.resolves.changed()
            || !self
                .restat
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_empty()
            || store::differs(self.old(), out.as_ref(), &elsewhere)
    }

    /// Finish the new cache file when this run changed anything: the records it wrote, and
    /// the old records still good (used as they are, or of files outside the walked
    /// `roots`); an old record of a file under them that was not used is of a file that is
    /// gone or changed.
    pub fn save(self, roots: &[PathBuf]) {
        let Cache {
            root,
            file,
            build,
            cwd,
            old,
            out,
            walks,
            resolves,
            restat,
            ..
        } = self;
        let elsewhere = |p: &Path| !under(p, roots);
        let mut old = old.and_then(Opened::into_inner);
        let out = out.into_inner().unwrap_or_else(|e| e.into_inner());
        let restat = restat.into_inner().unwrap_or_else(|e| e.into_inner());
        let (resolved, resolved_changed) = resolves.finish();
        if walks.changed()
            || resolved_changed
            || !restat.is_empty()
            || store::differs(old.as_ref(), out.as_ref(), &elsewhere)
        {
            let extra = Extra {
                walks: walks.keep(),
                resolved,
                shellcheck: shellcheck::SaidNow,
            };
            if let Some(out) = out.or_else(|| Writer::create(&file, &build, &root, &cwd)) {
                // The old index becomes the new one.
                out.finish(&file, old.take(), &restat, &elsewhere, &extra);
            }
            // A hundred thousand folders' entries: freed where no one waits.
            crate::drop_later(extra);
        } else {
            crate::drop_later((resolved, walks));
        }
        crate::drop_later(old);
    }
}

/// True when `path` is one of `roots` or under one (compared as text where it can be: both
/// come from the same normalized walk).
fn under(path: &Path, roots: &[PathBuf]) -> bool {
    use std::path::MAIN_SEPARATOR;
    roots.iter().any(|r| match (path.to_str(), r.to_str()) {
        (Some(p), Some(root)) => p.strip_prefix(root).is_some_and(|rest| {
            rest.is_empty() || rest.starts_with(MAIN_SEPARATOR) || root.ends_with(MAIN_SEPARATOR)
        }),
        _ => path.starts_with(r),
    })
}

#[cfg(test)]
mod tests;
