//! The walk of a root, remembered: every path it reached, with every folder's metadata from
//! before it was listed, the folders the excludes kept it out of, and the ignore files that
//! decided it. A run where no folder and no ignore file changed (adding, removing or renaming
//! an entry changes its folder's times) and the excludes say the same replays it: one `statx`
//! per folder instead of listing it and reading its ignore files (measured in
//! docs/performance.md). A folder modified within two seconds of the walk (a change in the
//! same clock tick keeps its times) keeps the walk from being remembered.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::lock;
use super::track::Stat;
use crate::discover::{self, Kind, Prune, Visit, WalkError};
use crate::source::FormatId;

/// One root's walk.
#[derive(Serialize, Deserialize)]
pub(super) struct Walk {
    /// The root walked.
    pub root: String,
    /// Every folder entered (the root too), sorted, with its metadata before it was listed
    /// and whether it held a `toolc.toml` file (none: something else is there).
    dirs: Vec<(String, Stat, Option<bool>)>,
    /// The folders the excludes kept the walk out of.
    pruned: Vec<String>,
    /// Every path reached: what it is, and what the built-in patterns said of it.
    paths: Vec<(String, Kind, Option<FormatId>)>,
    /// The ignore files read, with their metadata (none: not there).
    inputs: Vec<(String, Option<Stat>)>,
}

impl Walk {
    /// The walk of `root`, when it is this one and still true under `prune`.
    fn replays(&self, root: &str, prune: &Prune) -> bool {
        self.root == root
            && self
                .inputs
                .par_iter()
                .all(|(p, s)| stat_of(Path::new(p)) == *s)
            && self.pruned.par_iter().all(|p| prune(Path::new(p)))
            && self.dirs.par_iter().all(|(p, s, _)| {
                // The root itself is walked whatever the excludes say of it.
                (*p == self.root || !prune(Path::new(p))) && dir_stat(Path::new(p)) == Some(*s)
            })
    }

    /// Whether the folder `dir`, entered by the walk, holds a `toolc.toml` file: its entries
    /// are as they were when the walk replays (none: not known).
    pub(super) fn config_in(&self, dir: &str) -> Option<bool> {
        let i = self.dirs.binary_search_by(|d| d.0.as_str().cmp(dir)).ok()?;
        self.dirs.get(i)?.2
    }

    /// Replay the walk through `visit`.
    fn replay(&self, visit: Visit<'_>) {
        self.paths.par_iter().for_each(|(p, kind, format)| {
            visit(Path::new(p), *kind, Some(*format));
        });
    }
}

/// The walks of a run: the last run's (replayed when still true) and this run's.
pub(super) trait Walks: Sync {
    /// The last run's walks.
    fn old_walks(&self) -> &[Walk];
    /// Note that the old walk `i` was replayed, or that `new` was walked.
    fn walked(&self, old: Option<usize>, new: Option<Walk>);
    /// When the run started.
    fn started(&self) -> SystemTime;
}

/// Walk `root` through `walks`: the remembered walk when it is still true, else the disk
/// (remembered when nothing in it is too recent and nothing failed).
pub(super) fn walk(
    walks: &dyn Walks,
    root: &Path,
    prune: &Prune,
    visit: Visit<'_>,
) -> Vec<WalkError> {
    let Some(text) = root.to_str() else {
        return discover::walk_fresh(root, prune, None, visit);
    };
    let old = walks.old_walks();
    if let Some(i) = old.iter().position(|w| w.replays(text, prune)) {
        crate::timing::mark("walk still true");
        old[i].replay(visit);
        walks.walked(Some(i), None);
        return Vec::new();
    }
    let root_stat = dir_stat(root);
    let dirs = Arc::new(Mutex::new(Vec::new()));
    let pruned = Arc::new(Mutex::new(Vec::new()));
    let on_dir: discover::OnDir = {
        let dirs = Arc::clone(&dirs);
        Arc::new(move |p: &Path| {
            let entry = (p.to_string_lossy().into_owned(), dir_stat(p), config_in(p));
            lock(&dirs).push(entry);
        })
    };
    let noting: Prune = {
        let (prune, pruned) = (Arc::clone(prune), Arc::clone(&pruned));
        Arc::new(move |p: &Path| {
            let out = prune(p);
            if out {
                lock(&pruned).push(p.to_string_lossy().into_owned());
            }
            out
        })
    };
    let paths = Mutex::new(Vec::new());
    let errors = discover::walk_fresh(root, &noting, Some(on_dir), &|p, kind, hint| {
        let format = visit(p, kind, hint);
        if let Some(p) = p.to_str() {
            lock(&paths).push((p.to_string(), kind, format));
        }
        format
    });
    let mut dirs: Vec<_> = std::mem::take(&mut *lock(&dirs));
    dirs.push((text.to_string(), root_stat, config_in(root)));
    dirs.sort_by(|a, b| a.0.cmp(&b.0));
    let started = walks.started();
    let dirs: Option<Vec<_>> = dirs
        .into_iter()
        .map(|(p, s, c)| s.filter(|s| !s.is_recent(started)).map(|s| (p, s, c)))
        .collect();
    let (Some(dirs), true) = (dirs, errors.is_empty()) else {
        return errors;
    };
    let mut inputs = root_inputs(root);
    for (dir, ..) in &dirs {
        inputs.extend(folder_inputs(Path::new(dir), false));
    }
    let pruned = std::mem::take(&mut *lock(&pruned));
    let paths = paths.into_inner().unwrap_or_else(|e| e.into_inner());
    walks.walked(
        None,
        Some(Walk {
            root: text.to_string(),
            dirs,
            pruned,
            paths,
            inputs,
        }),
    );
    errors
}

/// The metadata of the folder at `path` itself (a link is not one).
fn dir_stat(path: &Path) -> Option<Stat> {
    let m = std::fs::symlink_metadata(path).ok()?;
    m.is_dir().then(|| Stat::of_metadata(&m))
}

/// Whether the folder `dir` holds a `toolc.toml` file (none: a link or another kind of entry).
fn config_in(dir: &Path) -> Option<bool> {
    match std::fs::symlink_metadata(dir.join(crate::config::FILE_NAME)) {
        Ok(m) => m.is_file().then_some(true),
        Err(e) => (e.kind() == std::io::ErrorKind::NotFound).then_some(false),
    }
}

/// The metadata of what is at `path`, links followed (as the walker reads ignore files).
fn stat_of(path: &Path) -> Option<Stat> {
    std::fs::metadata(path).ok().map(|m| Stat::of_metadata(&m))
}

/// An ignore file and its metadata now.
fn input(path: PathBuf) -> (String, Option<Stat>) {
    let stat = stat_of(&path);
    (path.to_string_lossy().into_owned(), stat)
}

/// The ignore files the walker reads for the folder `dir` (those not there only with
/// `absent`: one created in a walked folder changes the folder's times).
fn folder_inputs(dir: &Path, absent: bool) -> Vec<(String, Option<Stat>)> {
    let mut out: Vec<_> = [".gitignore", ".ignore"]
        .into_iter()
        .map(|name| input(dir.join(name)))
        .filter(|(_, s)| absent || s.is_some())
        .collect();
    let git = dir.join(".git");
    match std::fs::symlink_metadata(&git) {
        Ok(m) if m.is_dir() => out.push(input(git.join("info/exclude"))),
        Ok(_) => {
            // A worktree's `.git` file names its git folder, whose common folder holds the
            // exclude file: the file itself, and its git folder, stand for them.
            out.push(input(git.clone()));
            if let Some(gitdir) = first_line(&git)
                .and_then(|l| l.strip_prefix("gitdir: ").map(|d| dir.join(d.trim_end())))
            {
                out.push(input(gitdir.join("commondir")));
                out.push(input(gitdir.join("info/exclude")));
                if let Some(common) = first_line(&gitdir.join("commondir")) {
                    out.push(input(gitdir.join(common.trim_end()).join("info/exclude")));
                }
            }
        }
        Err(_) => {}
    }
    out
}

/// The first line of a small regular file (a worktree's `.git`, git's `commondir`).
fn first_line(path: &Path) -> Option<String> {
    use std::io::Read;
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).lines().next()?.to_string())
}

/// The ignore files above `root` and git's global ones, as the walker reads them.
fn root_inputs(root: &Path) -> Vec<(String, Option<Stat>)> {
    let mut out: Vec<_> = root
        .ancestors()
        .skip(1)
        .flat_map(|dir| folder_inputs(dir, true))
        .collect();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|x| !x.as_os_str().is_empty())
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let global = [
        std::env::var_os("GIT_CONFIG_GLOBAL").map(PathBuf::from),
        home.map(|h| h.join(".gitconfig")),
        xdg.as_ref().map(|x| x.join("git/config")),
        xdg.map(|x| x.join("git/ignore")),
        ignore::gitignore::gitconfig_excludes_path(),
    ];
    out.extend(global.into_iter().flatten().map(input));
    out
}
