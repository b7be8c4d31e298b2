//! What the security pass found in a file's texts, held by the format's item until the load
//! hands it to the file's result.

use std::sync::Arc;

use crate::diagnostics::cap::Findings;
use crate::source::{SourceFile, Span};

/// What the security pass found in a file's texts, before the scan of its lines.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// Findings on the texts, capped per rule as they are found: past the cap a finding
    /// is only counted (a million tags that each tell of a download hold 201 findings).
    pub findings: Findings,
    /// Hidden characters the texts already reported or counted, which the scan of the
    /// file's lines skips.
    pub covered: Covered,
}

/// Where the texts' hidden characters are written, by file (the identity of its
/// `Arc<SourceFile>`): each one reported, and from the first a text only counted to the
/// text's end.
#[derive(Debug, Default)]
pub(crate) struct Covered {
    at: Vec<(usize, usize)>,
    rest: Vec<(usize, Span)>,
}

impl Covered {
    /// A hidden character reported at offset `at` of `file`.
    pub(crate) fn add(&mut self, file: &Arc<SourceFile>, at: usize) {
        self.at.push((identity(file), at));
    }

    /// Hidden characters of a text counted, not reported, from `span.start` to its end.
    pub(crate) fn add_rest(&mut self, file: &Arc<SourceFile>, span: Span) {
        self.rest.push((identity(file), span));
    }

    /// True when nothing is covered.
    pub(crate) fn is_empty(&self) -> bool {
        self.at.is_empty() && self.rest.is_empty()
    }

    /// What is covered in `file`, ready to be asked about offset after offset.
    pub(crate) fn in_file(&self, file: &Arc<SourceFile>) -> CoveredIn {
        let id = identity(file);
        let mut at: Vec<usize> = self
            .at
            .iter()
            .filter(|(f, _)| *f == id)
            .map(|(_, at)| *at)
            .collect();
        at.sort_unstable();
        let rest = self
            .rest
            .iter()
            .filter(|(f, _)| *f == id)
            .map(|(_, span)| *span)
            .collect();
        CoveredIn { at, rest }
    }
}

/// What [`Covered`] holds of one file.
pub(crate) struct CoveredIn {
    at: Vec<usize>,
    rest: Vec<Span>,
}

impl CoveredIn {
    /// True when a hidden character at `offset` was reported or counted by a text.
    pub(crate) fn holds(&self, offset: usize) -> bool {
        self.at.binary_search(&offset).is_ok()
            || self
                .rest
                .iter()
                .any(|s| s.start <= offset && offset < s.end)
    }
}

fn identity(file: &Arc<SourceFile>) -> usize {
    Arc::as_ptr(file) as usize
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
