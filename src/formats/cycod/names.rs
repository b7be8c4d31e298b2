//! The names a tool writes that must resolve to other definitions (`uses.tools`,
//! `uses.mcps`, a step's `tool:`), held in one buffer: a tool may name millions, and a
//! name and a copy of its key as two `String`s each took about 100 bytes for the whole run.

use serde::{Deserialize, Serialize};

use crate::formats::tree::Strings;
use crate::source::Span;

/// A tool's references of one kind (tools or MCP servers), in the order written: boxed,
/// since most tools have none and every tool of a run is held until its report.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct NameRefs(Option<Box<Refs>>);

#[derive(Debug, Default, Serialize, Deserialize)]
struct Refs {
    names: Strings,
    /// Where each is written (files are read up to 64 MiB).
    spans: Vec<(u32, u32)>,
    /// The key that holds each run of references: its first reference and the key.
    keys: Vec<(u32, String)>,
}

/// A name written in a tool that must resolve to another definition.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameRef<'a> {
    /// The name as written.
    pub name: &'a str,
    /// Where it is written.
    pub span: Span,
    /// The key that holds it (`uses.tools`, `steps[1].tool`), for messages.
    pub key: &'a str,
}

impl NameRefs {
    fn refs(&mut self) -> &mut Refs {
        self.0.get_or_insert_with(Box::default)
    }

    /// Room for `more` references.
    pub(crate) fn reserve(&mut self, more: usize) {
        if more == 0 {
            return;
        }
        let refs = self.refs();
        refs.spans.reserve_exact(more);
        refs.names.reserve(more);
    }

    /// Add the reference `name`, written at `span` under `key`.
    pub(crate) fn push(&mut self, name: &str, span: Span, key: &str) {
        let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let refs = self.refs();
        if refs.keys.last().is_none_or(|(_, k)| k != key) {
            refs.keys.push((at(refs.spans.len()), key.to_string()));
        }
        refs.names.push(name);
        refs.spans.push((at(span.start), at(span.end)));
    }

    /// Without the spare room of the pushes: held for the whole run.
    pub(crate) fn shrink(&mut self) {
        if self.is_empty() {
            self.0 = None;
        }
        if let Some(refs) = &mut self.0 {
            refs.names.shrink();
            refs.spans.shrink_to_fit();
            refs.keys.shrink_to_fit();
        }
    }

    /// True when there is none.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|r| r.spans.is_empty())
    }

    /// The references, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = NameRef<'_>> {
        let mut key = 0;
        self.0.iter().flat_map(move |refs| {
            refs.names
                .iter()
                .zip(&refs.spans)
                .enumerate()
                .map(move |(i, (name, &(start, end)))| {
                    while refs
                        .keys
                        .get(key + 1)
                        .is_some_and(|(from, _)| *from as usize <= i)
                    {
                        key += 1;
                    }
                    NameRef {
                        name,
                        span: Span::new(start as usize, end as usize),
                        key: refs.keys.get(key).map_or("", |(_, k)| k.as_str()),
                    }
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_keep_their_names_spans_and_keys() {
        let mut refs = NameRefs::default();
        refs.push("a", Span::new(1, 2), "uses.tools");
        refs.push("bb", Span::new(5, 7), "uses.tools");
        refs.push("c", Span::new(9, 10), "steps[0].tool");
        refs.push("a", Span::new(12, 13), "uses.tools");
        refs.shrink();
        let got: Vec<(&str, Span, &str)> = refs.iter().map(|r| (r.name, r.span, r.key)).collect();
        assert_eq!(
            got,
            vec![
                ("a", Span::new(1, 2), "uses.tools"),
                ("bb", Span::new(5, 7), "uses.tools"),
                ("c", Span::new(9, 10), "steps[0].tool"),
                ("a", Span::new(12, 13), "uses.tools"),
            ]
        );
        assert!(!refs.is_empty());
    }

    #[test]
    fn no_reference_holds_no_room() {
        let mut refs = NameRefs::default();
        refs.reserve(0);
        refs.shrink();
        assert!(refs.is_empty() && refs.0.is_none());
        assert_eq!(refs.iter().count(), 0);
    }
}
