//! The walk of a repository, remembered: each folder's entries (what no ignore file hides)
//! under the folder's modification time, so that a run where no folder changed stats each
//! folder once instead of listing it and reading its ignore files again.
//!
//! - **Why a folder's time is enough.** Adding, removing or renaming an entry changes the
//!   modification time of its folder (and a save by rename gives the file a new inode, which
//!   the content cache sees). What else decides a walk is recorded with it: the ignore files
//!   of each folder and of the folders above the root (`.gitignore`, `.ignore`,
//!   `.git/info/exclude`, also behind a worktree's `.git` file) and git's global excludes
//!   file, each by its metadata; any of them changed, and the root is walked again.
//! - **What a walk is.** The entries a walk yields depend on the exclude globs only through
//!   the folders not entered; a folder excluded then but not now has no recorded entries, and
//!   the root is walked again. Excluded files are left out by the classifier either way.
//! - **Races.** A folder's time is taken before the walker lists it; a folder modified within
//!   two seconds of the walk is not trusted next time (a change in the same clock tick keeps
//!   the time).
//! - **What else it answers.** Whether a name in an unchanged folder is a regular file (the
//!   `toolc.toml` looked for above each definition, a schema file a tool does not have) is
//!   what it was when it was last asked: [`Walks::is_file`] answers from there, and notes
//!   the new answers for the next run.

mod flat;
mod inputs;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use compact_str::CompactString;
use rayon::prelude::*;

use super::Stat;
use super::hash::{self, ByHash, QuickMap};
use crate::discover::{self, Kind, Prune, Visit, WalkError};
use crate::source::FormatId;
use inputs::{Input, folder_inputs_and_git, root_inputs};

/// A folder's metadata: what changes when an entry is added, removed or renamed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DirStat {
    mtime_secs: i64,
    mtime_nanos: u32,
    inode: u64,
}

impl DirStat {
    /// The folder at `path` itself (`follow`: or what a link there leads to, for a root).
    fn of(path: &Path, follow: bool) -> Option<DirStat> {
        let m = if follow {
            std::fs::metadata(path)
        } else {
            std::fs::symlink_metadata(path)
        }
        .ok()?;
        m.is_dir().then(|| {
            let s = Stat::of_metadata(&m);
            DirStat {
                mtime_secs: s.mtime_secs,
                mtime_nanos: s.mtime_nanos,
                inode: s.inode,
            }
        })
    }
}

/// One folder of a walk.
#[derive(Debug, Clone)]
struct Folder {
    /// Relative to the root, `/`-separated; empty for the root.
    rel: CompactString,
    stat: DirStat,
    /// Modified too close to the walk for its time to be trusted.
    racy: bool,
    /// Its entries that no ignore file hides: name, kind, what the built-in patterns say of
    /// it; a sub-folder that was not entered (excluded) has no [`Folder`] of its own.
    entries: Vec<(CompactString, Kind, Option<FormatId>)>,
    /// The ignore files this folder's walk read (present or not).
    inputs: Vec<Input>,
    /// It holds a `.git` (the walk does not enter it).
    git: bool,
    /// Names asked about: whether each was a regular file (links are never noted).
    probes: Vec<(CompactString, bool)>,
}

/// One root's walk.
#[derive(Debug, Clone)]
struct RootWalk {
    root: PathBuf,
    /// Ignore files above the root, and git's global ones.
    inputs: Vec<Input>,
    folders: Vec<Folder>,
    /// Folder numbers by the hash of their `rel` (made when the walk is confirmed: a
    /// folder is looked up for every file and every name asked about).
    by_rel: ByHash<u32>,
}

impl RootWalk {
    /// Number the folders by the hash of their `rel` (once per run: a folder is looked up for
    /// every file and every name asked about).
    fn number_folders(&mut self) {
        let mut by_rel = ByHash::default();
        by_rel.reserve(self.folders.len());
        // The root (empty `rel`) is found without the map.
        for (f, folder) in self.folders.iter().enumerate().skip(1) {
            by_rel.entry(hash::of(&folder.rel)).or_insert(f as u32);
        }
        self.by_rel = by_rel;
    }

    /// The number of the folder at `rel` (not the root's), once numbered.
    fn folder(&self, rel: &str) -> Option<usize> {
        let f = *self.by_rel.get(&hash::of(rel))? as usize;
        if self.folders.get(f)?.rel == rel {
            return Some(f);
        }
        // Another folder of the same hash (or none): searched for.
        let found = self
            .folders
            .get(1..)?
            .binary_search_by(|f| f.rel.as_str().cmp(rel));
        found.ok().map(|f| f + 1)
    }
}

/// The walks as the cache keeps them, encoded straight into the cache file ([`flat`]).
#[derive(Default)]
pub struct Kept(Vec<RootWalk>);

/// The walks of a run: those of the last run still true, and the new ones.
pub struct Walks {
    /// The last run's walks not taken up by this run yet, by root.
    old: Mutex<HashMap<PathBuf, RootWalk>>,
    started: SystemTime,
    /// The walks of this run (confirmed or new); only ever added to.
    now: RwLock<Vec<RootWalk>>,
    /// Something to write: a new walk or a new answer.
    changed: Mutex<bool>,
}

impl Walks {
    /// The walks the last run kept (none: no walk is known).
    pub fn new(kept: Option<Kept>) -> Walks {
        let old = kept.map(|k| k.0).unwrap_or_default();
        Walks {
            old: Mutex::new(old.into_iter().map(|w| (w.root.clone(), w)).collect()),
            started: SystemTime::now(),
            now: RwLock::new(Vec::new()),
            changed: Mutex::new(false),
        }
    }

    /// True when this run walked afresh or learned something.
    pub fn changed(&self) -> bool {
        *self.changed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What to keep for the next run: this run's walks with what they learned, and the last
    /// run's walks of other roots.
    pub fn keep(self) -> Kept {
        let now = self.now.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut all: Vec<RootWalk> = self
            .old
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_values()
            .filter(|w| !now.iter().any(|n| n.root == w.root))
            .collect();
        all.extend(now);
        all.sort_by(|a, b| a.root.cmp(&b.root));
        Kept(all)
    }

    fn set_changed(&self) {
        *self.changed.lock().unwrap_or_else(|e| e.into_inner()) = true;
    }

    /// The folder `dir` of this run's walks, when its probes can be trusted: the walk's and
    /// the folder's numbers.
    fn trusted(walks: &[RootWalk], dir: &Path) -> Option<(usize, usize)> {
        let dir = dir.to_str()?;
        walks.iter().enumerate().find_map(|(w, walk)| {
            let root = walk.root.to_str()?;
            let rest = dir.strip_prefix(root)?;
            let f = if rest.is_empty() {
                0
            } else {
                walk.folder(rest.strip_prefix(std::path::MAIN_SEPARATOR)?)?
            };
            (!walk.folders.get(f)?.racy).then_some((w, f))
        })
    }

    /// Whether `path` is a regular file, when an unchanged folder of this run's walks knows
    /// it from an earlier run.
    pub fn known_file(&self, path: &Path) -> Option<bool> {
        let (dir, name) = split_name(path)?;
        let now = self.now.read().unwrap_or_else(|e| e.into_inner());
        let (w, f) = Walks::trusted(&now, dir)?;
        now[w].folders[f]
            .probes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, is_file)| *is_file)
    }

    /// Whether the folder `dir` holds a `.git`, when an unchanged folder of this run's walks
    /// knows.
    pub fn known_git(&self, dir: &Path) -> Option<bool> {
        let now = self.now.read().unwrap_or_else(|e| e.into_inner());
        let (w, f) = Walks::trusted(&now, dir)?;
        Some(now[w].folders[f].git)
    }

    /// Whether `path` is a regular file, asked of the disk and noted for the next run when
    /// its folder is an unchanged one of this run's walks; none when the disk's answer is not
    /// one to note (a link: what it leads to may change without its folder), to be asked
    /// again through the run's file system.
    pub fn learn(&self, path: &Path) -> Option<bool> {
        let is_file = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => return None,
            Ok(m) => m.is_file(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(_) => return None,
        };
        let Some((dir, name)) = split_name(path) else {
            return Some(is_file);
        };
        // Noted in its folder now, while memory is low (a first run learns an answer for
        // every folder of the repository), not when the cache is written.
        let mut now = self.now.write().unwrap_or_else(|e| e.into_inner());
        if let Some((w, f)) = Walks::trusted(&now, dir) {
            let probes = &mut now[w].folders[f].probes;
            if !probes.iter().any(|(n, _)| n == name) {
                // Most folders are asked one name (`toolc.toml`): room for one, not four.
                probes.reserve_exact(1);
                probes.push((name.into(), is_file));
            }
            drop(now);
            self.set_changed();
        }
        Some(is_file)
    }

    /// True when `old` is still the walk of its root with `prune`: no folder it entered
    /// changed, and each folder to enter now was entered then.
    fn still_true(old: &RootWalk, prune: &Prune, verified: &Mutex<Vec<usize>>) -> bool {
        let root_same = DirStat::of(&old.root, true)
            .is_some_and(|s| old.folders.first().is_some_and(|f| f.stat == s));
        if !root_same || !old.inputs.iter().all(Input::unchanged) {
            return false;
        }
        old.folders.par_iter().enumerate().all(|(i, folder)| {
            let path = join(&old.root, &folder.rel);
            if i > 0 && prune(&path) {
                return true;
            }
            let same = (i == 0 || DirStat::of(&path, false) == Some(folder.stat))
                && folder.inputs.iter().all(|x| x.unchanged_in(&path));
            // Modified too close to the walk for its time to say: listed again.
            let listed = same
                && (!folder.racy || {
                    let again = discover::list_one(&path, prune);
                    let kept = folder
                        .entries
                        .iter()
                        .filter(|(n, k, _)| *k != Kind::Dir || !prune(&path.join(n)))
                        .map(|(n, k, _)| (n.as_str(), *k));
                    let same = again
                        .as_ref()
                        .is_some_and(|again| again.iter().map(|(n, k)| (n.as_str(), *k)).eq(kept));
                    if same {
                        verified.lock().unwrap_or_else(|e| e.into_inner()).push(i);
                    }
                    same
                });
            // Excluded when it was walked, entered now: not known.
            listed
                && folder.entries.iter().all(|(name, kind, _)| {
                    *kind != Kind::Dir
                        || old.folder(&child_rel(&folder.rel, name)).is_some()
                        || prune(&path.join(name))
                })
        })
    }

    /// Visit the entries of `old` (still true) as a walk with `prune` would.
    fn replay(old: &RootWalk, prune: &Prune, visit: Visit<'_>) {
        visit(&old.root, Kind::Dir, None);
        old.folders.par_iter().enumerate().for_each(|(i, folder)| {
            let mut path = join(&old.root, &folder.rel);
            if i > 0 && prune(&path) {
                return;
            }
            // Each entry's path is the folder's text and its name (`PathBuf::pop` would parse
            // the path again for each).
            if let Some(text) = path.to_str() {
                let mut entry = String::with_capacity(text.len() + 64);
                for (name, kind, builtin) in &folder.entries {
                    entry.clear();
                    entry.push_str(text);
                    // As `PathBuf::push` does: no separator after one (a root of `/`, `C:\`)
                    // or after nothing.
                    if !text.is_empty() && !text.ends_with(std::path::is_separator) {
                        entry.push(std::path::MAIN_SEPARATOR);
                    }
                    entry.push_str(name);
                    let entry = Path::new(&entry);
                    if *kind != Kind::Dir || !prune(entry) {
                        visit(entry, *kind, Some(*builtin));
                    }
                }
                return;
            }
            for (name, kind, builtin) in &folder.entries {
                path.push(name);
                if *kind != Kind::Dir || !prune(&path) {
                    visit(&path, *kind, Some(*builtin));
                }
                path.pop();
            }
        });
    }

    /// Walk `root` afresh, visiting each entry, and note the walk.
    fn record(&self, root: &Path, prune: &Prune, visit: Visit<'_>) -> Vec<WalkError> {
        let root_stat = DirStat::of(root, true);
        let root_inputs = root_inputs(root);
        type Seen = (PathBuf, Option<DirStat>, Vec<Input>, bool);
        let stats: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let on_dir: discover::OnDir = {
            let stats = Arc::clone(&stats);
            Arc::new(move |dir: &Path| {
                let stat = DirStat::of(dir, false);
                let (inputs, git) = folder_inputs_and_git(dir, false);
                let entry = (dir.to_path_buf(), stat, inputs, git);
                stats.lock().unwrap_or_else(|e| e.into_inner()).push(entry);
            })
        };
        let (root_folder_inputs, root_git) = folder_inputs_and_git(root, false);
        // Each folder's entries by name (a repository's paths are not all held at once).
        type Entries = Vec<(CompactString, Kind, Option<FormatId>)>;
        let seen: Mutex<QuickMap<String, Entries>> = Mutex::new(QuickMap::default());
        let unusable = AtomicBool::new(false);
        let noting = |path: &Path, kind: Kind, hint: Option<Option<FormatId>>| {
            let builtin = visit(path, kind, hint);
            if path != root {
                match (
                    path.parent().and_then(Path::to_str),
                    path.file_name().and_then(|n| n.to_str()),
                ) {
                    (Some(parent), Some(name)) => {
                        let entry = (CompactString::from(name), kind, builtin);
                        let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
                        // A folder's key is made once, by its first entry.
                        match seen.get_mut(parent) {
                            Some(entries) => entries.push(entry),
                            None => {
                                seen.insert(parent.to_string(), vec![entry]);
                            }
                        }
                    }
                    // A name that is not UTF-8 cannot be kept: this walk is not remembered.
                    _ => unusable.store(true, Ordering::Relaxed),
                }
            }
            builtin
        };
        let errors = discover::walk_fresh(root, prune, Some(on_dir), &noting);
        let mut seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
        let Some(root_stat) = root_stat.filter(|_| errors.is_empty() && !unusable.into_inner())
        else {
            return errors;
        };
        let stats = std::mem::take(&mut *stats.lock().unwrap_or_else(|e| e.into_inner()));
        let mut folders: Vec<Folder> = Vec::with_capacity(stats.len() + 1);
        let mut take = |dir: &Path| -> Option<Entries> {
            Some(seen.remove(dir.to_str()?).unwrap_or_default())
        };
        let mut root_folder = self.folder(
            CompactString::default(),
            root_stat,
            root_folder_inputs,
            root_git,
        );
        root_folder.entries = take(root).unwrap_or_default();
        folders.push(root_folder);
        for (dir, stat, inputs, git) in stats {
            let (Some(stat), Ok(rel), Some(entries)) = (stat, dir.strip_prefix(root), take(&dir))
            else {
                // A folder that went away while it was walked: not a walk to keep.
                return errors;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            let mut folder = self.folder(rel.into(), stat, inputs, git);
            folder.entries = entries;
            folders.push(folder);
        }
        if !seen.is_empty() {
            // Entries of a folder whose time was not taken: not a walk to keep.
            return errors;
        }
        // The root first: its time is the root's. (A hundred thousand folders: on every core.)
        folders[1..].par_sort_unstable_by(|a, b| a.rel.cmp(&b.rel));
        folders.par_iter_mut().for_each(|f| {
            f.entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            f.entries.shrink_to_fit();
        });
        let mut walk = RootWalk {
            root: root.to_path_buf(),
            inputs: root_inputs,
            folders,
            by_rel: ByHash::default(),
        };
        walk.number_folders();
        self.confirm(walk);
        self.set_changed();
        errors
    }

    /// Modified too close to this run for its time to tell a later change apart.
    fn is_racy(&self, stat: DirStat) -> bool {
        let mtime =
            SystemTime::UNIX_EPOCH + Duration::new(stat.mtime_secs.max(0) as u64, stat.mtime_nanos);
        mtime + Duration::from_secs(2) >= self.started
    }

    fn folder(&self, rel: CompactString, stat: DirStat, inputs: Vec<Input>, git: bool) -> Folder {
        Folder {
            rel,
            stat,
            racy: self.is_racy(stat),
            entries: Vec::new(),
            inputs,
            git,
            probes: Vec::new(),
        }
    }

    /// Take `walk` as this run's walk of its root; its folders answer [`Walks::known_file`].
    fn confirm(&self, walk: RootWalk) {
        let mut now = self.now.write().unwrap_or_else(|e| e.into_inner());
        match now.iter_mut().find(|w| w.root == walk.root) {
            Some(w) => *w = walk,
            None => now.push(walk),
        }
    }
}

impl discover::Walks for Walks {
    fn walk(&self, root: &Path, prune: &Prune, visit: Visit<'_>) -> Vec<WalkError> {
        let old = self
            .old
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(root);
        let verified = Mutex::new(Vec::new());
        let old = old.map(|mut old| {
            old.number_folders();
            old
        });
        match old {
            Some(mut old) if Walks::still_true(&old, prune, &verified) => {
                crate::timing::mark("still true");
                Walks::replay(&old, prune, visit);
                crate::timing::mark("replay");
                // Listed again now, long enough after their last change: their time says
                // enough from now on.
                for i in verified.into_inner().unwrap_or_else(|e| e.into_inner()) {
                    let folder = &mut old.folders[i];
                    if !self.is_racy(folder.stat) {
                        folder.racy = false;
                        self.set_changed();
                    }
                }
                self.confirm(old);
                crate::timing::mark("confirm");
                Vec::new()
            }
            // The old walk goes before the new one is made.
            old => {
                drop(old);
                self.record(root, prune, visit)
            }
        }
    }
}

/// The folder and the name of `path` (found on its text where it can be: asked for every
/// file and every name looked for; a path spelt another way is not in any walk either).
fn split_name(path: &Path) -> Option<(&Path, &str)> {
    #[cfg(unix)]
    if let Some((dir, name)) = path.to_str().and_then(|t| t.rsplit_once('/'))
        && !dir.is_empty()
        && !["", ".", ".."].contains(&name)
    {
        return Some((Path::new(dir), name));
    }
    Some((path.parent()?, path.file_name()?.to_str()?))
}

fn join(root: &Path, rel: &str) -> PathBuf {
    if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    }
}

fn child_rel(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}
