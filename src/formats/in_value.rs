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
    /// Where the last part found starts, in the value and in the source: the next part,
    /// when it comes later, is counted and searched for from there (parts looked up in order
    /// cost the value's length in all, not its length each).
    mark: (usize, usize),
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
            mark: (0, 0),
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
        let from_mark = if value_offset >= self.mark.0 {
            self.mark
        } else {
            (0, 0)
        };
        // From the last part found; failing that (an escape spelt a part before it), from
        // the value's start, as a lookup always was before parts were looked up in order.
        let found = self.search(from_mark, value_offset, needle).or_else(|| {
            (from_mark != (0, 0)).then(|| self.search((0, 0), value_offset, needle))?
        });
        let Some(at) = found else {
            return whole;
        };
        self.mark = (value_offset, at);
        Span::new(whole.start + at, whole.start + at + needle.len())
    }

    /// Where in the source `needle`, the part at `value_offset`, is written, counted and
    /// searched for from `from` (a place in the value and the same in the source), within
    /// the budget.
    fn search(&mut self, from: (usize, usize), value_offset: usize, needle: &str) -> Option<usize> {
        if self.budget == 0 {
            return None;
        }
        let between = self.value.get(from.0..value_offset)?;
        let rest = self.source.get(from.1..)?;
        let nth = between.matches(needle).count();
        let found = rest.match_indices(needle).nth(nth).map(|(i, _)| i);
        let read = found.map_or(rest.len(), |i| i + needle.len());
        self.budget = self.budget.saturating_sub(between.len() + read);
        found.map(|i| from.1 + i)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;

    /// The text each part of the value of `k` in `yaml` is placed on, parts looked up in
    /// order.
    fn placed(yaml: &str, parts: &[&str]) -> Vec<String> {
        let file = SourceFile::new(
            "a.yaml".into(),
            "a.yaml".into(),
            FormatId::CycodTool,
            yaml.into(),
        );
        let parsed = crate::syntax::yaml::parse(&file.text, 0);
        let root = parsed.root.expect("parsed");
        let node = root.value("k").expect("k");
        let value = node.as_str().unwrap_or_default().to_string();
        let mut place = InValue::new(&file, node);
        let mut from = 0;
        parts
            .iter()
            .map(|part| {
                let at = from + value[from..].find(part).unwrap_or_default();
                from = at + part.len();
                let span = place.span(at, part);
                file.text[span.start..span.end].to_string()
            })
            .collect()
    }

    #[test]
    fn parts_in_order_are_placed_where_written() {
        // Written with escapes (folded, quoted): each part on its own text.
        assert_eq!(
            placed("k: >\n  a/ b/\n  c/\n", &["a/", "b/", "c/"]),
            ["a/", "b/", "c/"]
        );
        // A part an escape spells before another: the search from the last part found
        // fails, and the one from the start places it.
        assert_eq!(
            placed("k: \"\\u002F a/ b/\"\n", &["/", "a/", "b/"]),
            ["/", "a/", "b/"]
        );
    }
}
