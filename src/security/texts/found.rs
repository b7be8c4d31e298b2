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

    /// Sorted by file, once: a folder of many files asks about each of them.
    pub(crate) fn by_file(mut self) -> CoveredFiles {
        self.at.sort_unstable();
        self.rest.sort_unstable_by_key(|(f, s)| (*f, s.start));
        CoveredFiles(self)
    }
}

/// [`Covered`] sorted by file (and offset), so that a file's part is found by search: each
/// file of a skill folder filtered all of them (files × offsets).
#[derive(Debug, Default)]
pub(crate) struct CoveredFiles(Covered);

impl CoveredFiles {
    /// What is covered in `file`, ready to be asked about offset after offset.
    pub(crate) fn in_file(&self, file: &Arc<SourceFile>) -> CoveredIn {
        let id = identity(file);
        let Covered { at, rest } = &self.0;
        let at_from = at.partition_point(|(f, _)| *f < id);
        let at_to = at.partition_point(|(f, _)| *f <= id);
        let rest_from = rest.partition_point(|(f, _)| *f < id);
        let rest_to = rest.partition_point(|(f, _)| *f <= id);
        // Merged, so that one search finds the one that may hold an offset.
        let mut merged: Vec<Span> = Vec::new();
        for (_, span) in &rest[rest_from..rest_to] {
            match merged.last_mut() {
                Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
                _ => merged.push(*span),
            }
        }
        CoveredIn {
            at: at[at_from..at_to].iter().map(|(_, at)| *at).collect(),
            rest: merged,
        }
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
        covered.add(&b, 3);
        let covered = covered.by_file();
        let in_a = covered.in_file(&a);
        let held: Vec<usize> = (0..50).filter(|&o| in_a.holds(o)).collect();
        let expected: Vec<usize> = [7].into_iter().chain(10..25).chain(30..40).collect();
        assert_eq!(held, expected);
        assert!(!covered.in_file(&file("c")).holds(50));
        let in_b = covered.in_file(&b);
        assert!(in_b.holds(3) && in_b.holds(99) && !in_b.holds(100));
    }
}
