//! Cross-file findings remembered. Resolve reads every file's item; when every file of a run
//! is what it was (the same stored records, in the same order, from the same working
//! directory) and nothing resolve read through the file system changed, its findings are
//! those of the last run, and the items stay encoded.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::codec::Findings;
use super::track::{Dep, Tracker};
use crate::diagnostics::Diagnostic;
use crate::formats::{self, FileResult};
use crate::fs::FileSystem;
use crate::source::{Digest, SourceFile};

/// Runs over this many sets of roots keep their findings.
const KEPT: usize = 8;

/// One run's cross-file findings.
#[derive(Serialize, Deserialize)]
pub struct Resolved {
    roots: Vec<PathBuf>,
    key: Digest,
    deps: Vec<Dep>,
    findings: Findings,
    /// Scripts ShellCheck did not check (it could not be run).
    skipped: usize,
    /// Taken from the last run as it was.
    #[serde(skip)]
    reused: bool,
}

/// The findings of earlier runs, and what this run's files were.
pub struct Resolves {
    old: Mutex<Vec<Resolved>>,
    new: Mutex<Option<Resolved>>,
}

impl Resolves {
    /// The findings kept by earlier runs.
    pub fn new(old: Vec<Resolved>) -> Resolves {
        Resolves {
            old: Mutex::new(old),
            new: Mutex::new(None),
        }
    }

    /// What identifies the input of resolve: each file's stored result (as `stored` says
    /// it), in the run's order of `paths`, and where paths are shown from. None when a file
    /// has none.
    pub fn key<'p>(
        paths: impl Iterator<Item = &'p Path>,
        cwd: &Path,
        stored: &dyn Fn(&Path) -> Option<Digest>,
    ) -> Option<Digest> {
        let mut hash = sha2::Sha256::default();
        sha2::Digest::update(&mut hash, cwd.to_str()?.as_bytes());
        // The programs resolve runs are part of its input: another ShellCheck, other
        // findings.
        sha2::Digest::update(&mut hash, crate::security::shellcheck::identity());
        for path in paths {
            let sum = stored(path)?;
            sha2::Digest::update(&mut hash, [0]);
            sha2::Digest::update(&mut hash, path.to_str()?.as_bytes());
            sha2::Digest::update(&mut hash, sum);
        }
        Some(sha2::Digest::finalize(hash).into())
    }

    /// The cross-file findings of `results` (walked from `roots`) resolved now through `fs`,
    /// and remembered under `key` (none: not to be remembered).
    pub fn resolve_now(
        &self,
        key: Option<Digest>,
        fs: &dyn FileSystem,
        results: &[FileResult],
        roots: &[PathBuf],
    ) -> Vec<Diagnostic> {
        // Every item is looked into: decoded on both cores first.
        results.par_iter().for_each(|r| r.item.prepare());
        let tracker = Tracker::new(fs);
        let found = formats::resolve_with(&tracker, results);
        let (deps, comparable) = tracker.finish(Path::new(""));
        let skipped = crate::security::shellcheck::skipped();
        if let Some(key) = key
            && comparable
            && let Some(findings) = Findings::of(&found)
        {
            *self.new.lock().unwrap_or_else(|e| e.into_inner()) = Some(Resolved {
                roots: roots.to_vec(),
                key,
                deps,
                findings,
                skipped,
                reused: false,
            });
        }
        found
    }

    /// The findings kept under `key`, when nothing they were resolved from changed (`known`
    /// checks what resolve read then); `find` gives the run's file at a path.
    pub fn reuse(
        &self,
        key: Digest,
        find: &dyn Fn(&Path) -> Option<Arc<SourceFile>>,
        known: &dyn FileSystem,
    ) -> Option<Vec<Diagnostic>> {
        let mut old = self.old.lock().unwrap_or_else(|e| e.into_inner());
        // The findings depend on the files, not on the roots that found them (`check .`
        // and `check FILE` load the same repository).
        let at = old.iter().position(|r| r.key == key)?;
        if !old[at]
            .deps
            .iter()
            .all(|d| d.seen().unchanged(d.path(), known))
        {
            return None;
        }
        let found = old[at].findings.load(find)?;
        let mut kept = old.remove(at);
        crate::security::shellcheck::restore_skipped(kept.skipped);
        kept.reused = true;
        *self.new.lock().unwrap_or_else(|e| e.into_inner()) = Some(kept);
        Some(found)
    }

    /// True when this run's findings are not the kept ones.
    pub fn changed(&self) -> bool {
        self.new
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|n| !n.reused)
    }

    /// What to keep for the next run, and whether it differs from what was kept.
    pub fn finish(self) -> (Vec<Resolved>, bool) {
        let mut old = self.old.into_inner().unwrap_or_else(|e| e.into_inner());
        let new = self.new.into_inner().unwrap_or_else(|e| e.into_inner());
        let changed = new.as_ref().is_some_and(|n| !n.reused);
        if let Some(new) = new {
            old.retain(|r| r.roots != new.roots && r.key != new.key);
            old.insert(0, new);
            old.truncate(KEPT);
        }
        (old, changed)
    }
}

/// The file at `path` among `results` (a definition, or a file one of them read).
pub fn find(results: &[FileResult], path: &Path) -> Option<Arc<SourceFile>> {
    if let Ok(i) = results.binary_search_by(|r| r.file.path.as_path().cmp(path)) {
        return Some(Arc::clone(&results[i].file));
    }
    results
        .iter()
        .flat_map(|r| &r.companions)
        .find(|f| f.path == path)
        .map(Arc::clone)
}
