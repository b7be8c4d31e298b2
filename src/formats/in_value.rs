//! Where a part of a string value is written in its file. A value's parts may be looked up
//! many times (every reference in a long command): what the source of the value is like is
//! worked out once per value, not once per part.

use crate::source::{SourceFile, Span};
use crate::syntax::Node;

/// Bytes of source the search in a value written with escapes may read in all: past them a
/// part gets the whole value's span (a value with escapes and a million references would be
/// searched from its start for each).
const SEARCH_BUDGET: usize = 16 << 20;

/// The parts of one string value, placed in the source.
pub(crate) struct InValue<'a> {
    node: &'a Node,
    source: &'a str,
    value: &'a str,
    /// Where the value starts in the file, when the source between its quotes is the value
    /// itself.
    verbatim: Option<usize>,
    /// Bytes the search may still read.
    budget: usize,
}

impl<'a> InValue<'a> {
    /// The value of `node` (a string scalar) in `file`.
    pub(crate) fn new(file: &'a SourceFile, node: &'a Node) -> InValue<'a> {
        let source = file.slice(node.span());
        let value = node.as_str().unwrap_or_default();
        let quote = usize::from(source.starts_with(['"', '\'']));
        let verbatim = (source.get(quote..quote + value.len()) == Some(value))
            .then_some(node.span().start + quote);
        InValue {
            node,
            source,
            value,
            verbatim,
            budget: SEARCH_BUDGET,
        }
    }

    /// The span of `needle`, the part of the value at `value_offset`: exact when the value is
    /// written without escapes, else the needle's same occurrence in the source, else the
    /// whole value.
    pub(crate) fn span(&mut self, value_offset: usize, needle: &str) -> Span {
        if let Some(start) = self.verbatim {
            let start = start + value_offset;
            return Span::new(start, start + needle.len());
        }
        let whole = self.node.span();
        let prefix = self.value.get(..value_offset).unwrap_or(self.value);
        let cost = prefix.len() + self.source.len();
        if cost > self.budget {
            return whole;
        }
        self.budget -= cost;
        let nth = prefix.matches(needle).count();
        self.source
            .match_indices(needle)
            .nth(nth)
            .map_or(whole, |(i, _)| {
                Span::new(whole.start + i, whole.start + i + needle.len())
            })
    }
}

/// The span of `needle` (a part of the string value of `node`) in the source: exact when the
/// scalar is written without escapes, else the whole value. For one lookup in a value; a
/// value looked up many times is an [`InValue`].
pub(crate) fn span_in_value(
    file: &SourceFile,
    node: &Node,
    value_offset: usize,
    needle: &str,
) -> Span {
    InValue::new(file, node).span(value_offset, needle)
}
