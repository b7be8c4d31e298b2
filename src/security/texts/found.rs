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
        let mut spans: Vec<Span> = self
            .rest
            .iter()
            .filter(|(f, _)| *f == id)
            .map(|(_, span)| *span)
            .collect();
        spans.sort_unstable_by_key(|s| s.start);
        // Merged, so that one search finds the one that may hold an offset.
        let mut rest: Vec<Span> = Vec::with_capacity(spans.len());
        for span in spans {
            match rest.last_mut() {
                Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
                _ => rest.push(span),
            }
        }
        CoveredIn { at, rest }
    }
}

/// What [`Covered`] holds of one file: the offsets sorted, the spans sorted and merged.
pub(crate) struct CoveredIn {
    at: Vec<usize>,
    rest: Vec<Span>,
}

impl CoveredIn {
    /// True when a hidden character at `offset` was reported or counted by a text.
    pub(crate) fn holds(&self, offset: usize) -> bool {
        if self.at.binary_search(&offset).is_ok() {
            return true;
        }
        // The last span starting at or before `offset`: sorted and apart, only it may.
        let after = self.rest.partition_point(|s| s.start <= offset);
        after > 0 && offset < self.rest[after - 1].end
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;

    /// Offsets reported and spans counted, in any order and overlapping, are found by
    /// search; another file's are not.
    #[test]
    fn what_texts_covered_is_found_in_their_file_only() {
        let file = |name: &str| {
            SourceFile::new(name.into(), name.into(), FormatId::CycodTool, String::new())
        };
        let (a, b) = (file("a"), file("b"));
        let mut covered = Covered::default();
        covered.add(&a, 7);
        covered.add_rest(&a, Span::new(30, 40));
        covered.add_rest(&a, Span::new(10, 20));
        covered.add_rest(&a, Span::new(15, 25));
        covered.add_rest(&b, Span::new(0, 100));
        let in_a = covered.in_file(&a);
        let held: Vec<usize> = (0..50).filter(|&o| in_a.holds(o)).collect();
        let expected: Vec<usize> = [7].into_iter().chain(10..25).chain(30..40).collect();
        assert_eq!(held, expected);
        assert!(!covered.in_file(&file("c")).holds(50));
    }
}
