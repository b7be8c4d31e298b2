//! Cross-file findings remembered. Resolve looks into every file's item; when every file of
//! a run has the stored result it had (the same results, in the same order, seen from the
//! same place, checked by the same ShellCheck) and nothing resolve read through the file
//! system changed, its findings are the last run's, and the items stay encoded.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::bytes::Blob;
use super::stored::Findings;
use super::track::{Dep, Tracker};
use crate::diagnostics::Diagnostic;
use crate::formats::{self, FileResult};
use crate::fs::FileSystem;
use crate::source::{Digest, SourceFile};

/// Runs over this many different sets of files keep their findings (`check .` and the
/// `check FILE` of each project checked from one place).
const KEPT: usize = 4;

/// One run's cross-file findings.
#[derive(Serialize, Deserialize)]
pub(super) struct Resolved {
    key: Digest,
    /// The same files whatever their results: newer findings of them replace these.
    files: Digest,
    deps: Vec<Dep>,
    /// The [`Findings`], encoded: decoded only for a run whose key this is.
    findings: Blob,
    /// Scripts ShellCheck did not check (it could not be run).
    skipped: usize,
}

/// What identifies resolve's input: each file's stored result (`sum`) in the run's order
/// and whether the run reports on it (ShellCheck reads only those), where paths are shown
/// from, the ShellCheck it runs, the releases targeted; and the same without the results.
pub(super) fn key<'p>(
    files: impl Iterator<Item = (&'p Path, Option<u128>, bool)>,
    cwd: &Path,
    targets: &str,
) -> Option<(Digest, Digest)> {
    let mut paths = xxhash_rust::xxh3::Xxh3::new();
    let mut hash = sha2::Sha256::default();
    sha2::Digest::update(&mut hash, cwd.to_str()?.as_bytes());
    sha2::Digest::update(&mut hash, targets);
    sha2::Digest::update(&mut hash, crate::security::shellcheck::identity());
    for (path, sum, reported) in files {
        let path = path.to_str()?.as_bytes();
        paths.update(path);
        // The files and which are reported on: a run over the whole repository and one
        // naming a file keep an entry each (the one would drop the other's).
        paths.update(&[0, u8::from(reported)]);
        sha2::Digest::update(&mut hash, [u8::from(reported)]);
        sha2::Digest::update(&mut hash, path);
        sha2::Digest::update(&mut hash, sum?.to_le_bytes());
    }
    let mut files = [0; 32];
    files[..16].copy_from_slice(&paths.digest128().to_le_bytes());
    Some((sha2::Digest::finalize(hash).into(), files))
}

/// The findings kept under `key` among `kept`, when nothing they were resolved from changed
/// (checked through `fs`), on the run's files (`results`).
pub(super) fn reuse(
    kept: &[Resolved],
    key: &Digest,
    results: &[FileResult],
    fs: &dyn FileSystem,
) -> Option<Vec<Diagnostic>> {
    let at = kept.iter().find(|r| r.key == *key)?;
    // On every core: resolve may have asked about a path per tool.
    if !at.deps.par_iter().all(|d| d.seen.unchanged(d.path(), fs)) {
        return None;
    }
    // The companions by path, made on the first finding in one (not a search per finding).
    let companions = OnceLock::new();
    let find = |path: &Path| {
        if let Ok(i) = results.binary_search_by(|r| r.file.path.as_path().cmp(path)) {
            return Some(Arc::clone(&results[i].file));
        }
        let by_path: &HashMap<&Path, &Arc<SourceFile>> = companions.get_or_init(|| {
            let mut map = HashMap::new();
            for f in results.iter().flat_map(|r| &r.companions) {
                map.entry(f.path.as_path()).or_insert(f);
            }
            map
        });
        by_path.get(path).map(|f| Arc::clone(f))
    };
    let findings: Findings = postcard::from_bytes(&at.findings.0).ok()?;
    let found = findings.load(&find)?;
    crate::security::shellcheck::restore_skipped(at.skipped);
    Some(found)
}

/// The cross-file findings of `results` the run's passes find and `targeted` keeps, resolved
/// now through `fs`, and what to keep of them under `key` (none: not to be kept).
pub(super) fn now(
    key: Option<(Digest, Digest)>,
    fs: &dyn FileSystem,
    results: &[FileResult],
    (passes, targeted): (crate::security::Passes, &dyn Fn(&Diagnostic) -> bool),
    reported: formats::Reported<'_>,
) -> (Vec<Diagnostic>, Option<Resolved>) {
    // Every item is looked into: decoded on every core first.
    results.par_iter().for_each(|r| r.item.prepare());
    let tracker = Tracker::new(fs);
    let mut found = formats::resolve_passes(&tracker, results, passes, reported);
    found.retain(|d| targeted(d));
    let (deps, comparable) = tracker.finish(Path::new(""));
    let findings = Findings::of(&found).and_then(|f| postcard::to_allocvec(&f).ok());
    // Scripts left by ShellCheck's time depend on the machine's load, not on the files.
    let comparable = comparable && !crate::security::shellcheck::ran_late();
    let kept = match (key, comparable, findings) {
        (Some((key, files)), true, Some(findings)) => Some(Resolved {
            key,
            files,
            deps,
            findings: Blob(findings),
            skipped: crate::security::shellcheck::skipped(),
        }),
        _ => None,
    };
    (found, kept)
}

/// `kept` with `new` first, the oldest dropped, and those of the same files (they are of
/// results the files no longer have).
pub(super) fn keep(mut kept: Vec<Resolved>, new: Resolved) -> Vec<Resolved> {
    kept.retain(|r| r.key != new.key && r.files != new.files);
    kept.insert(0, new);
    kept.truncate(KEPT);
    kept
}
