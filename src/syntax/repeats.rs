//! Repeated keys of a mapping: each reported once, the first [`REPEATS_KEPT`] of a document
//! built as errors and the rest only counted. A file of a million `a:` lines held an error
//! (with its message and related place) for each until the file's cap cut them to 200:
//! 840 bytes a line, 290 times the file.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{Entry, SyntaxError, SyntaxErrorKind};
use crate::memory::Chunked;
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
    pub(super) fn note(&mut self, span: Span, first: Span, key: impl FnOnce() -> String) {
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

/// The repeats among `len` keys (`key(i)` the `i`th), each with the first of its key, in
/// the keys' order. The keys are ordered through a list of their indices (four bytes an
/// entry, where a map of the keys took forty, and in YAML a copy of each key besides), so a
/// mapping of millions of keys costs little more than its entries.
pub(super) fn repeats_among<'k>(len: usize, key: impl Fn(u32) -> &'k [u8]) -> Vec<(u32, u32)> {
    if len < 2 {
        return Vec::new();
    }
    let mut order: Vec<u32> = (0..len as u32).collect();
    order.sort_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
    // Each repeat with the first of its key: the first of its run in key order.
    let mut again: Vec<(u32, u32)> = order
        .chunk_by(|&a, &b| key(a) == key(b))
        .flat_map(|run| run[1..].iter().map(|&repeat| (repeat, run[0])))
        .collect();
    again.sort_unstable();
    again
}

/// Note each repeat of `again` (with the first of its key) to `repeats`, the entries being
/// `entry(i)`.
fn note_all<'e>(
    again: &[(u32, u32)],
    entry: impl Fn(u32) -> Option<&'e Entry>,
    repeats: &mut Repeats,
) {
    for &(repeat, first) in again {
        if let (Some(e), Some(first)) = (entry(repeat), entry(first)) {
            repeats.note(e.key_span(), first.key_span(), || e.key.to_string());
        }
    }
}

/// Whether the entry at `index` is one of the repeats `again` (sorted).
fn is_repeat(again: &[(u32, u32)], index: usize) -> bool {
    again
        .binary_search_by_key(&index, |&(r, _)| r as usize)
        .is_ok()
}

/// Report each key that appears again in `entries` to `repeats` and keep only its first
/// entry.
pub(crate) fn drop_duplicate_keys(entries: &mut Vec<Entry>, repeats: &mut Repeats) {
    let again = repeats_among(entries.len(), |i| entries[i as usize].key.as_bytes());
    if again.is_empty() {
        return;
    }
    note_all(&again, |i| entries.get(i as usize), repeats);
    let mut index = 0;
    entries.retain(|_| {
        let keep = !is_repeat(&again, index);
        index += 1;
        keep
    });
}

/// [`drop_duplicate_keys`] for the entries of a mapping still open, held by chunks: only
/// when there are repeats is the list rebuilt, a chunk at a time, so it is never held
/// twice.
pub(super) fn drop_duplicate_keys_chunked(entries: &mut Chunked<Entry>, repeats: &mut Repeats) {
    let key = |i: u32| {
        entries
            .get(i as usize)
            .map_or(&[][..], |e| e.key.as_bytes())
    };
    let again = repeats_among(entries.len(), key);
    if again.is_empty() {
        return;
    }
    note_all(&again, |i| entries.get(i as usize), repeats);
    let mut kept = Chunked::default();
    for (index, e) in std::mem::take(entries).into_items().enumerate() {
        if !is_repeat(&again, index) {
            kept.push(e);
        }
    }
    *entries = kept;
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
