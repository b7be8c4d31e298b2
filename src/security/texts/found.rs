//! What the security pass found in a file's texts, held by the format's item until the load
//! hands it to the file's result.

use crate::diagnostics::cap::Findings;

/// What the security pass found in a file's texts, before the scan of its lines.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// Findings on the texts, capped per rule as they are found: past the cap a finding
    /// is only counted (a million tags that each tell of a download hold 201 findings).
    pub findings: Findings,
    /// Hidden characters already reported, which the scan of the file's lines skips.
    pub covered: Vec<(usize, usize)>,
}

/// [`Found`], held by a format's item from its load until the load hands it to the file's
/// result, once ([`Handoff::take`]). Kept in the item for the rest of the run, every
/// security finding of a repository was held twice. Boxed: most files have none.
#[derive(Debug, Default)]
pub(crate) struct Handoff(std::sync::Mutex<Option<Box<Found>>>);

impl Handoff {
    /// Hold `found` until it is taken (nothing is held when nothing was found).
    pub(crate) fn new(found: Found) -> Handoff {
        let any = !found.findings.is_empty() || !found.covered.is_empty();
        Handoff(std::sync::Mutex::new(any.then(|| Box::new(found))))
    }

    /// What was found, the first time it is asked for; nothing after.
    pub(crate) fn take(&self) -> Found {
        let mut held = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        held.take().map(|f| *f).unwrap_or_default()
    }
}
