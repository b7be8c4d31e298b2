//! Files a run does not report on, left in the cache. `check FILE` in a large repository
//! needs every other file to be what it was (the cross-file findings are kept only then),
//! not every other file's result: an unchanged file with no finding of its own stays in the
//! cache, and is rebuilt only when a kept cross-file finding names it or resolve has to run
//! again.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::{Cache, Hit};
use crate::discover::{Claim, display_path};
use crate::formats::{self, FileResult};
use crate::fs::FileSystem;
use crate::source::{FormatId, SourceFile};

/// What a run asks the cache about one file.
pub struct Lookup<'a> {
    /// The file.
    pub path: &'a Path,
    /// The format it is read as.
    pub format: FormatId,
    /// Whether its content is asked to have the format's shape.
    pub claim: Claim,
    /// What paths are shown relative to.
    pub cwd: &'a Path,
    /// The disk the run reads: cached files are checked against it, their texts read back
    /// from it.
    pub fs: &'a Arc<dyn FileSystem>,
    /// Files an editor holds: a file whose load read one of them is not taken from the cache.
    pub buffered: &'a HashSet<&'a Path>,
    /// Say what the load read besides the file ([`Hit::deps`]).
    pub track: bool,
    /// The files the run reports on: with it, a file for which it says no (nor for any other
    /// file of its result, such as its schema files) may be left in the cache
    /// ([`Found::Deferred`]).
    pub reported: Option<&'a (dyn Fn(&Path) -> bool + Sync)>,
}

/// What the cache gives for a file that has not changed.
pub enum Found {
    /// Its result (none when its content is not its format's).
    Hit(Hit),
    /// Nothing yet: it stays in the cache until something needs its result.
    Deferred(Deferred),
}

/// A file the cache holds unchanged, its result not rebuilt.
pub struct Deferred {
    path: PathBuf,
    format: FormatId,
    claim: Claim,
    entry: usize,
    /// Its place among the run's files (results and deferred files, in the walk's order).
    pub at: usize,
}

impl Deferred {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Made by [`Cache::get`] for entry `entry`.
    pub(super) fn new(q: &Lookup<'_>, entry: usize) -> Deferred {
        Deferred {
            path: q.path.to_path_buf(),
            format: q.format,
            claim: q.claim,
            entry,
            at: 0,
        }
    }
}

impl Cache {
    /// True when entry `i` (unchanged) may stay in the cache for `q`: no file of its result
    /// is reported on, it has no finding of its own, and it rebuilds into the result `q`
    /// asks for without reading anything (its first file is the one asked about, its format
    /// has a cache encoding).
    pub(super) fn defers(&self, i: usize, q: &Lookup<'_>) -> bool {
        let (Some(old), Some(reported), false) = (self.old(), q.reported, q.track) else {
            return false;
        };
        let entry = old.entry(i);
        entry.has_result()
            && !entry.has_notes()
            && old
                .files(i)
                .next()
                .is_some_and(|f| Path::new(f.path) == q.path && f.format == q.format)
            && old.files(i).all(|f| !reported(Path::new(f.path)))
            && formats::format_of(q.format).is_some_and(|f| f.cache().is_some())
    }

    /// The file at `path` among the files of `deferred` (sorted by path): a deferred file, or
    /// a file its load read (found through `companions`, made on the first such question:
    /// every kept finding may ask one).
    pub(super) fn deferred_file<'d>(
        &'d self,
        deferred: &[Deferred],
        companions: &OnceLock<HashMap<&'d str, usize>>,
        path: &Path,
        disk: &Arc<dyn FileSystem>,
    ) -> Option<Arc<SourceFile>> {
        let old = self.old()?;
        let d = match deferred.binary_search_by(|d| d.path.as_path().cmp(path)) {
            Ok(k) => &deferred[k],
            Err(_) => {
                let by_path = companions.get_or_init(|| {
                    let mut by_path = HashMap::new();
                    for (k, d) in deferred.iter().enumerate() {
                        for f in old.files(d.entry).skip(1) {
                            // The first deferred file that read it, as a search in order finds.
                            by_path.entry(f.path).or_insert(k);
                        }
                    }
                    by_path
                });
                &deferred[*by_path.get(path.to_str()?)?]
            }
        };
        let result = self.rebuild(d.entry, &d.path, d.format, &self.cwd, disk)?;
        std::iter::once(result.file)
            .chain(result.companions)
            .find(|f| f.path == path)
    }

    /// `results` with the results of `deferred` in their places: rebuilt from the cache, or
    /// (should an entry not rebuild) loaded through `fs`.
    pub(super) fn materialize(
        &self,
        results: &mut Vec<FileResult>,
        deferred: Vec<Deferred>,
        fs: &dyn FileSystem,
        disk: &Arc<dyn FileSystem>,
    ) {
        if deferred.is_empty() {
            return;
        }
        self.left.fetch_sub(deferred.len(), Ordering::Relaxed);
        let rebuilt: Vec<(usize, Option<FileResult>)> = deferred
            .into_par_iter()
            .map(|d| {
                let result = self
                    .rebuild(d.entry, &d.path, d.format, &self.cwd, disk)
                    .or_else(|| {
                        let display = display_path(&d.path, &self.cwd);
                        formats::load_claimed(fs, &d.path, display, d.format, d.claim)
                    });
                (d.at, result)
            })
            .collect();
        // Made at its size: at 100,000 files a list grown by doubling is tens of megabytes
        // more at the moment resolve starts.
        let mut merged = Vec::with_capacity(results.len() + rebuilt.len());
        let rest = std::mem::take(results).into_iter().map(Some);
        merged.extend(interleave(rest, rebuilt.into_iter()).flatten());
        *results = merged;
    }
}

/// The paths of `results` and `deferred`, in the run's order.
pub(super) fn in_order<'a>(
    results: &'a [FileResult],
    deferred: &'a [Deferred],
) -> impl Iterator<Item = &'a Path> {
    interleave(
        results.iter().map(|r| r.file.path.as_path()),
        deferred.iter().map(|d| (d.at, d.path())),
    )
}

/// `firsts`, with each of `placed` (by its place in the whole, in order) put in its place.
fn interleave<T>(
    mut firsts: impl Iterator<Item = T>,
    placed: impl Iterator<Item = (usize, T)>,
) -> impl Iterator<Item = T> {
    let mut placed = placed.peekable();
    let mut place = 0;
    std::iter::from_fn(move || {
        let next = match placed.peek() {
            Some((at, _)) if *at == place => placed.next().map(|(_, t)| t),
            _ => firsts.next().or_else(|| placed.next().map(|(_, t)| t)),
        };
        place += 1;
        next
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn placed_items_go_back_in_their_places() {
        let placed = [(0, 'a'), (2, 'c'), (4, 'e'), (6, 'g')];
        let merged: String = super::interleave("bdf".chars(), placed.into_iter()).collect();
        assert_eq!(merged, "abcdefg");
        // Placed last, after the others ran out.
        let merged: String = super::interleave("ab".chars(), [(2, 'c')].into_iter()).collect();
        assert_eq!(merged, "abc");
    }
}
