//! Repeated keys of a mapping: each reported once, the first [`REPEATS_KEPT`] of a document
//! built as errors and the rest only counted. A file of a million `a:` lines held an error
//! (with its message and related place) for each until the file's cap cut them to 200:
//! 840 bytes a line, 290 times the file.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{Entry, SyntaxError, SyntaxErrorKind};
use crate::source::Span;

/// Repeated keys of a document built as errors: as many as a file shows of one rule.
pub(crate) const REPEATS_KEPT: usize = 200;

/// The repeated keys of one document: the first [`REPEATS_KEPT`] by position, and the rest
/// counted, with where the first of them is.
#[derive(Debug, Default)]
pub(crate) struct Repeats {
    kept: BinaryHeap<ByStart>,
    rest: Option<(Span, usize)>,
}

/// An error ordered by where it starts (the heap's top is the last kept).
#[derive(Debug)]
struct ByStart(SyntaxError);

impl PartialEq for ByStart {
    fn eq(&self, other: &Self) -> bool {
        self.0.span.start == other.0.span.start
    }
}

impl Eq for ByStart {}

impl PartialOrd for ByStart {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByStart {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.span.start.cmp(&other.0.span.start)
    }
}

impl Repeats {
    /// Note the repeat of a key at `span`, whose first is at `first`; `key` is asked for only
    /// when the repeat is kept.
    fn note(&mut self, span: Span, first: Span, key: impl FnOnce() -> String) {
        let full = self.kept.len() >= REPEATS_KEPT;
        if full
            && self
                .kept
                .peek()
                .is_some_and(|last| last.0.span.start < span.start)
        {
            self.count(span);
            return;
        }
        self.kept.push(ByStart(SyntaxError {
            kind: SyntaxErrorKind::DuplicateKey,
            message: format!("duplicate key `{}`", key()),
            span,
            related: Some((first, "first defined here".into())),
            explain: None,
        }));
        if self.kept.len() > REPEATS_KEPT
            && let Some(ByStart(last)) = self.kept.pop()
        {
            self.count(last.span);
        }
    }

    fn count(&mut self, span: Span) {
        let rest = self.rest.get_or_insert((span, 0));
        rest.1 += 1;
        if span.start < rest.0.start {
            rest.0 = span;
        }
    }

    /// The repeats kept, as errors, and the first left out with how many were.
    pub(crate) fn finish(self) -> (Vec<SyntaxError>, Option<(Span, usize)>) {
        let kept = self.kept.into_iter().map(|e| e.0).collect();
        (kept, self.rest)
    }
}

/// Entries a mapping still open may hold before its repeats are dropped, and after that
/// twice what was left: a mapping of a million `a:` lines held an entry for each (72 bytes
/// for a line of 3) until it closed. Sorting what is there each time costs, in all, about
/// as much as sorting once.
const FIRST_DROP: usize = 1 << 16;

/// When the repeats of a mapping still open are dropped next.
#[derive(Debug)]
pub(crate) struct DropAt(usize);

impl Default for DropAt {
    fn default() -> Self {
        DropAt(FIRST_DROP)
    }
}

impl DropAt {
    /// Whether a mapping of `len` entries is due.
    pub(crate) fn due(&self, len: usize) -> bool {
        len >= self.0
    }

    /// Its repeats were dropped, `len` entries left.
    pub(crate) fn dropped(&mut self, len: usize) {
        self.0 = len.saturating_mul(2).max(FIRST_DROP);
    }
}

/// Report each key that appears again in `entries` to `repeats` and keep only its first
/// entry. The entries are ordered by key through a list of their indices (four bytes an
/// entry, where a map of the keys took forty, and in YAML a copy of each key besides), so an
/// object of millions of keys costs little more than its entries.
pub(crate) fn drop_duplicate_keys(entries: &mut Vec<Entry>, repeats: &mut Repeats) {
    if entries.len() < 2 {
        return;
    }
    let mut order: Vec<u32> = (0..entries.len() as u32).collect();
    order.sort_by(|&a, &b| {
        entries[a as usize]
            .key
            .cmp(&entries[b as usize].key)
            .then(a.cmp(&b))
    });
    // Each repeat with the first of its key: the first of its run in key order.
    let mut again: Vec<(u32, u32)> = order
        .chunk_by(|&a, &b| entries[a as usize].key == entries[b as usize].key)
        .flat_map(|run| run[1..].iter().map(|&repeat| (repeat, run[0])))
        .collect();
    if again.is_empty() {
        return;
    }
    again.sort_unstable();
    for &(repeat, first) in &again {
        let first = entries[first as usize].key_span();
        let e = &entries[repeat as usize];
        repeats.note(e.key_span(), first, || e.key.to_string());
    }
    let mut index = 0u32;
    entries.retain(|_| {
        let keep = again.binary_search_by_key(&index, |&(r, _)| r).is_err();
        index += 1;
        keep
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_repeats_by_position_are_kept_and_the_rest_counted() {
        let mut repeats = Repeats::default();
        // Noted out of order, as mappings end: nested ones before their parent.
        for start in (1000..1300).chain(0..10) {
            repeats.note(Span::new(start, start + 1), Span::point(0), || "a".into());
        }
        let (kept, rest) = repeats.finish();
        assert_eq!(kept.len(), REPEATS_KEPT);
        assert!(kept.iter().all(|e| e.span.start < 1190), "{kept:?}");
        assert_eq!(rest, Some((Span::new(1190, 1191), 110)));
    }
}
