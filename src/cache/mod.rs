//! The content cache: what each definition file gave when it was last loaded, kept in
//! `.toolc_cache/` at the repository root so that a re-check loads only the files that
//! changed. Nothing read from it can make a check say anything else than it would without it.
//!
//! - **One archive per repository** (`archive.rs`) under a key (build, repository, working
//!   folder, configuration, passes); a damaged, truncated or foreign archive is ignored.
//! - **Per file** (`archive::Entry`): its format and claim, metadata and SHA-256, every other
//!   path its load read, looked for or listed with what was there (`track.rs`), and its
//!   result without its text (`stored.rs`). A file whose metadata is unchanged is not read;
//!   one whose metadata changed is hashed. A file (or one it read) modified within two
//!   seconds of the run that stored it is always hashed. Links are never taken from it.
//! - **Cross-file findings** (`resolve.rs`): the last run's, when every file has the stored
//!   result it had and nothing resolve read changed; and what ShellCheck said of each script.
//! - **Writing**: a run that changed anything writes the whole archive to a new file renamed
//!   into place, never through a link (`crate::fs::boundary`).

mod archive;
mod bytes;
mod resolve;
mod stored;
mod track;
mod walk;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::SystemTime;

pub(crate) use archive::{DIR, clean, root_for};
pub(crate) use track::{Dep, Stat, Tracker};

use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::discover::Claim;
use crate::formats::{FileResult, Item};
use crate::fs::FileSystem;
use crate::security::{Passes, shellcheck};
use crate::source::{FormatId, SourceFile, sha256};
use archive::{Archive, ArchiveOut, Entry, Key};
use resolve::Resolved;
use stored::Stored;
use walk::Walk;

/// What a run asks the cache about one file.
pub(crate) struct Lookup<'a> {
    /// The file.
    pub path: &'a Path,
    /// The format it is read as.
    pub format: FormatId,
    /// Whether its content is asked to have the format's shape.
    pub claim: Claim,
    /// The disk the run reads: cached files are checked against it, their texts read back
    /// from it.
    pub fs: &'a Arc<dyn FileSystem>,
    /// Files an editor holds: a file whose load read one of them is not taken from the cache.
    pub buffered: &'a std::collections::HashSet<&'a Path>,
    /// The fingerprint of the custom rules whose findings its stored result must include.
    pub custom: u64,
}

/// A file the cache answers for: its result (none when its content is not its format's), and
/// the other paths its load read or looked for.
pub(crate) struct Hit<'c> {
    /// What loading the file gives.
    pub result: Option<FileResult>,
    /// What else the load asked about (copied only by a run that tracks it).
    pub deps: &'c [Dep],
}

/// What one run did with the cache, for `TOOLC_DEBUG_CACHE` and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CacheStats {
    /// Files taken from the cache.
    pub hits: usize,
    /// Files loaded (and stored, when their format is cached).
    pub loaded: usize,
}

/// A used entry's new metadata, and whether it is racy, when its metadata changed.
type Restat = Option<(Stat, bool)>;

/// The archive as this run found it, and which of its entries the run used.
struct Old {
    archive: Archive,
    /// Entries used as they are, one cell each (the load's threads take no lock), with new
    /// metadata when theirs changed over the same bytes: the next run need not hash them.
    used: Box<[OnceLock<Restat>]>,
}

/// The walks of this run: old ones replayed (by number), new ones, the roots walked.
#[derive(Default)]
struct WalksNow {
    replayed: Vec<usize>,
    new: Vec<Walk>,
    roots: Vec<String>,
}

/// The cache of one repository for one run.
pub(crate) struct Cache {
    root: PathBuf,
    key: Key,
    /// The costly passes the run's loads and resolve run (in the key: a result is served
    /// only to runs of the same passes).
    passes: Passes,
    cwd: PathBuf,
    started: SystemTime,
    /// The archive, read and decoded on a thread of its own while the walk goes on.
    reading: Mutex<Option<JoinHandle<Option<Archive>>>>,
    old: OnceLock<Option<Old>>,
    /// The archive's walks, sent ahead of the rest by the thread that reads it.
    walks_sent: Mutex<Option<Receiver<Vec<Walk>>>>,
    old_walks: OnceLock<Vec<Walk>>,
    new: Mutex<Vec<Entry>>,
    resolved: Mutex<Option<Resolved>>,
    walks: Mutex<WalksNow>,
    hits: AtomicUsize,
    loaded: AtomicUsize,
    /// Set by the thread that reads the archive when git tracks the cache: it is not read,
    /// and not written either.
    committed: Arc<AtomicBool>,
}

impl Cache {
    /// The cache a run in `cwd` with `config` that runs `passes` uses (see [`root_for`]);
    /// empty when there is none yet or it cannot be used (another build's, configuration's
    /// or passes', damaged).
    pub(crate) fn open(config: &Config, cwd: &Path, passes: Passes) -> Cache {
        Cache::open_as(
            &root_for(config, cwd),
            cwd,
            config,
            passes,
            archive::build_id(),
        )
    }

    /// [`Cache::open`] of the repository at `root` for the build called `build`.
    fn open_as(root: &Path, cwd: &Path, config: &Config, passes: Passes, build: String) -> Cache {
        let key = Key {
            build,
            root: root.to_string_lossy().into_owned(),
            cwd: cwd.to_string_lossy().into_owned(),
            config: archive::config_digest(config, passes),
        };
        // What this process's ShellCheck said is kept for this repository's run alone.
        shellcheck::start_run();
        let (send, walks_sent) = std::sync::mpsc::channel();
        let committed = Arc::new(AtomicBool::new(false));
        let reading = {
            let (root, key) = (root.to_path_buf(), key.clone());
            let committed = Arc::clone(&committed);
            // No thread to be had: no cache this run.
            std::thread::Builder::new()
                .spawn(move || archive::read(&root, &key, send, &committed))
                .ok()
        };
        Cache {
            root: root.to_path_buf(),
            key,
            passes,
            cwd: cwd.to_path_buf(),
            started: SystemTime::now(),
            reading: Mutex::new(reading),
            old: OnceLock::new(),
            walks_sent: Mutex::new(Some(walks_sent)),
            old_walks: OnceLock::new(),
            new: Mutex::new(Vec::new()),
            resolved: Mutex::new(None),
            walks: Mutex::new(WalksNow::default()),
            hits: AtomicUsize::new(0),
            loaded: AtomicUsize::new(0),
            committed,
        }
    }

    /// The archive as it was at the start, once read.
    fn old(&self) -> Option<&Old> {
        self.old
            .get_or_init(|| {
                let thread = lock(&self.reading).take()?;
                let mut archive = thread.join().ok().flatten()?;
                // Only once the archive's check has passed.
                shellcheck::remember(std::mem::take(&mut archive.shellcheck));
                let used = archive.entries.iter().map(|_| OnceLock::new()).collect();
                Some(Old { archive, used })
            })
            .as_ref()
    }

    /// What this run did so far.
    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            loaded: self.loaded.load(Ordering::Relaxed),
        }
    }

    /// The file `q` asks about, from the cache, when neither it nor anything its load read
    /// has changed (and none of that has a buffer in `q.buffered`).
    pub(crate) fn get(&self, q: &Lookup<'_>) -> Option<Hit<'_>> {
        let old = self.old()?;
        let i = old.archive.find(q.path.to_str()?)?;
        let e = &old.archive.entries[i];
        let answers = match q.claim {
            Claim::ByContent => e.claimed.is_some(),
            Claim::Always => e.claimed != Some(false),
        };
        if e.format != q.format
            || e.custom != q.custom
            || !answers
            || (!q.buffered.is_empty() && e.deps.iter().any(|d| q.buffered.contains(d.path())))
        {
            return None;
        }
        let now = Stat::of(q.path)?;
        let same = !e.racy && now == e.stat;
        if !same && sha256(&q.fs.read(q.path).ok()?) != e.digest {
            return None;
        }
        if !e
            .deps
            .iter()
            .all(|d| d.seen.unchanged(d.path(), q.fs.as_ref()))
        {
            return None;
        }
        let result = match &e.result {
            Some(bytes) => Some(
                postcard::from_bytes::<Stored>(&bytes.0)
                    .ok()?
                    .rebuild(q.path, &self.cwd, q.fs)?,
            ),
            None if e.claimed == Some(false) => None,
            None => return None,
        };
        let racy = now.is_recent(self.started);
        let restat = (!same || racy).then_some((now, racy));
        let _ = old.used.get(i).map(|cell| cell.set(restat));
        self.hits.fetch_add(1, Ordering::Relaxed);
        let deps = &e.deps;
        Some(Hit { result, deps })
    }

    /// Remember what loading the file at `path` as `format` and `claim` says gave (`Err`: the
    /// file, not claimed by its content; `Ok` may be of another format its content chose), when
    /// its metadata was `stat` before it was read (none: not to be stored), and its load read
    /// or looked for `deps`. Returns the stored item, smaller until something looks into it.
    pub(crate) fn put(
        &self,
        (path, format): (&Path, FormatId),
        stat: Option<Stat>,
        claim: Claim,
        outcome: Result<&FileResult, &Arc<SourceFile>>,
        deps: &[Dep],
        custom: u64,
    ) -> Option<Item> {
        self.loaded.fetch_add(1, Ordering::Relaxed);
        let stat = stat?;
        let (file, stored) = match outcome {
            Ok(r) => (&r.file, Some(Stored::of(r)?)),
            Err(file) => (file, None),
        };
        let result = stored
            .as_ref()
            .map(|s| crate::memory::exact::encode(s).ok_or(()))
            .transpose()
            .ok()?;
        let entry = Entry {
            path: path.to_str()?.to_string(),
            format,
            claimed: (claim == Claim::ByContent).then_some(outcome.is_ok()),
            racy: stat.is_recent(self.started),
            stat,
            digest: file.digest(),
            deps: deps.to_vec(),
            custom,
            sum: xxhash_rust::xxh3::xxh3_128(result.as_deref().unwrap_or_default()),
            result: result.map(bytes::Blob),
        };
        lock(&self.new).push(entry);
        stored.zip(outcome.ok()).and_then(|(s, r)| s.item(r))
    }

    /// The cross-file findings of `results` that `targeted` keeps (`targeted.1` says what it
    /// keeps), resolved through `fs`, or the last run's when nothing they depend on changed.
    pub(crate) fn resolve(
        &self,
        fs: &dyn FileSystem,
        results: &[FileResult],
        targeted: (&dyn Fn(&Diagnostic) -> bool, &str),
        reported: crate::formats::Reported<'_>,
    ) -> Vec<Diagnostic> {
        let old = self.old();
        let key = {
            let new = lock(&self.new);
            let new_sums: HashMap<&str, u128> =
                new.iter().map(|e| (e.path.as_str(), e.sum)).collect();
            let used = old.map(|o| &o.used);
            // Results and entries are both sorted by path: the next entry is tried first.
            let mut next = 0;
            let mut sum = |path: &Path| {
                let path = path.to_str()?;
                if let Some(sum) = new_sums.get(path) {
                    return Some(*sum);
                }
                let (old, used) = (old?, used.as_ref()?);
                let i = match old.archive.entries.get(next) {
                    Some(e) if e.path == path => next,
                    _ => old.archive.find(path)?,
                };
                next = i + 1;
                used.get(i)?.get().map(|_| old.archive.entries[i].sum)
            };
            let files = results.iter().map(|r| {
                let path = r.file.path.as_path();
                (path, sum(path), reported(path))
            });
            resolve::key(files, &self.cwd, targeted.1)
        };
        if let (Some((key, _)), Some(old)) = (&key, old)
            && let Some(found) = resolve::reuse(&old.archive.resolved, key, results, fs)
        {
            crate::timing::mark("cross-file findings kept");
            return found;
        }
        crate::timing::mark(if key.is_some() {
            "cross-file findings changed"
        } else {
            "cross-file findings not kept"
        });
        let (found, kept) = resolve::now(key, fs, results, (self.passes, targeted.0), reported);
        *lock(&self.resolved) = kept;
        found
    }

    /// Write the archive again when this run changed anything: the entries it used, those
    /// of files outside the walked `roots`, and the new ones. An old entry of a file under
    /// them that was not used is of a file that is gone or changed.
    pub(crate) fn save(self, roots: &[PathBuf]) {
        // Read in full, whether or not this run needed them.
        let _ = (self.old(), walk::Walks::old_walks(&self));
        if self.committed.load(Ordering::Relaxed) {
            return;
        }
        let (new, resolved) = (take(self.new), take(self.resolved));
        let (old, used, had_old) = match self.old.into_inner().flatten() {
            Some(Old { archive, used }) => (archive, used, true),
            None => (Archive::default(), Box::default(), false),
        };
        let Archive {
            mut entries,
            resolved: kept,
            ..
        } = old;
        let old_walks = self.old_walks.into_inner().unwrap_or_default();
        let walks = take(self.walks);
        let mut changed =
            !had_old || !new.is_empty() || resolved.is_some() || !walks.new.is_empty();
        // An old walk stays when it was replayed, or is of a root this run did not walk.
        let mut kept_walks: Vec<&Walk> = Vec::new();
        for (i, w) in old_walks.iter().enumerate() {
            if walks.replayed.contains(&i) || !walks.roots.contains(&w.root) {
                kept_walks.push(w);
            } else {
                changed = true;
            }
        }
        kept_walks.extend(&walks.new);
        for (i, restat) in used.iter().enumerate() {
            if let (Some(Some((stat, racy))), Some(e)) = (restat.get(), entries.get_mut(i)) {
                (e.stat, e.racy) = (*stat, *racy);
                changed = true;
            }
        }
        let mut i = 0;
        entries.retain(|e| {
            let hit = used.get(i).is_some_and(|u| u.get().is_some());
            let keep = hit || !under(Path::new(&e.path), roots);
            changed |= !keep;
            i += 1;
            keep
        });
        if !changed {
            return;
        }
        let mut all: Vec<&Entry> = new.iter().chain(&entries).collect();
        // The new entry of a path first: it wins over an old one.
        all.sort_by(|a, b| a.path.cmp(&b.path));
        all.dedup_by(|later, first| later.path == first.path);
        let resolved = match resolved {
            Some(r) => resolve::keep(kept, r),
            None => kept,
        };
        let out = ArchiveOut {
            entries: all,
            walks: kept_walks,
            resolved: &resolved,
            shellcheck: shellcheck::SaidNow,
        };
        archive::write(&self.root, &self.key, &out);
    }
}

impl crate::discover::Walks for Cache {
    fn walk(
        &self,
        root: &Path,
        prune: &crate::discover::Prune,
        visit: crate::discover::Visit<'_>,
    ) -> Vec<crate::discover::WalkError> {
        lock(&self.walks)
            .roots
            .push(root.to_string_lossy().into_owned());
        walk::walk(self, root, prune, visit)
    }

    fn holds_config(&self, dir: &Path) -> Option<bool> {
        let (old, dir) = (walk::Walks::old_walks(self), dir.to_str()?);
        let replayed = lock(&self.walks).replayed.clone();
        replayed.iter().find_map(|&i| old.get(i)?.config_in(dir))
    }
}

impl walk::Walks for Cache {
    fn old_walks(&self) -> &[Walk] {
        self.old_walks.get_or_init(|| {
            let sent = lock(&self.walks_sent).take();
            sent.and_then(|r| r.recv().ok()).unwrap_or_default()
        })
    }

    fn walked(&self, old: Option<usize>, new: Option<Walk>) {
        let mut walks = lock(&self.walks);
        walks.replayed.extend(old);
        walks.new.extend(new);
    }

    fn started(&self) -> SystemTime {
        self.started
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn take<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// True when `path` is one of `roots` or under one.
fn under(path: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|r| path.starts_with(r))
}

#[cfg(test)]
mod tests;
