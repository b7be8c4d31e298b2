//! How much of a repository's scripts ShellCheck is handed: a file's distinct scripts up to
//! a budget per file, and all of a run's up to a budget per run. Each script left out is
//! counted in one `SHC004` at the first of its file's: ShellCheck takes about 2 ms a small
//! script and a second for 64 KiB of real ones, and a repository of many files each with
//! hundreds of different scripts (50 files of 500, 730 KB) took 24 s.

use std::collections::HashSet;

use super::run;
use crate::security::texts::Text;
use crate::source::{Digest, sha256};

/// Distinct scripts of one file handed to ShellCheck at most: a real file has a few, and a
/// hostile one of 50,000 steps of different scripts would start 250 processes, minutes of
/// CPU, each within its limits (docs/performance.md, "Dense files, eighth pass (time)").
pub(super) const MAX_FILE_SCRIPTS: usize = 500;

/// Bytes of distinct script of one file handed to ShellCheck at most (two batches).
pub(super) const MAX_FILE_BYTES: usize = 128 * 1024;

/// A file's scripts admitted so far, as they are added (in the order they are first
/// written): a script past the budget is only counted, never kept.
#[derive(Debug, Default)]
pub(super) struct FileBudget {
    scripts: usize,
    bytes: usize,
    /// Distinct scripts past the budget.
    over: usize,
}

/// What becomes of a new distinct script of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Admit {
    /// Handed to ShellCheck.
    Handed,
    /// Kept, but too long to be handed (its every place gets an `SHC004`).
    TooLong,
    /// Past the file's budget ([`MAX_FILE_SCRIPTS`], [`MAX_FILE_BYTES`]): counted only.
    Over,
}

impl FileBudget {
    /// Admit a new distinct script of `len` bytes; once one is past the budget, so is
    /// every later one.
    pub(super) fn admit(&mut self, len: usize) -> Admit {
        if len > run::MAX_SCRIPT_BYTES {
            return Admit::TooLong;
        }
        if self.over > 0 || self.scripts == MAX_FILE_SCRIPTS || self.bytes + len > MAX_FILE_BYTES {
            self.over += 1;
            return Admit::Over;
        }
        (self.scripts, self.bytes) = (self.scripts + 1, self.bytes + len);
        Admit::Handed
    }
}

/// The digest of each of a file's kept scripts that is handed to ShellCheck (none for one
/// too long).
pub(super) fn handed(texts: &[Text<'static>]) -> Vec<Option<Digest>> {
    texts
        .iter()
        .map(|t| (t.value.len() <= run::MAX_SCRIPT_BYTES).then(|| sha256(t.value.as_bytes())))
        .collect()
}

/// Distinct scripts handed to ShellCheck in one run at most (ten processes: about 2 s of a
/// two-core machine for small scripts).
pub(super) const MAX_RUN_SCRIPTS: usize = 2000;

/// Bytes of distinct script handed to ShellCheck in one run at most (four batches of real
/// scripts: about 2 s of a two-core machine).
pub(super) const MAX_RUN_BYTES: usize = 256 * 1024;

/// Keep the first of `missing` (in the files' order: those the run reports on, the others
/// are never handed) within the run's budget; the digests
/// of those left out.
pub(super) fn past_the_run(missing: &mut Vec<(&Digest, &str)>) -> HashSet<Digest> {
    let mut bytes = 0;
    let within = missing
        .iter()
        .position(|(_, text)| {
            bytes += text.len();
            bytes > MAX_RUN_BYTES
        })
        .unwrap_or(missing.len())
        .min(MAX_RUN_SCRIPTS);
    missing.drain(within..).map(|(d, _)| *d).collect()
}
