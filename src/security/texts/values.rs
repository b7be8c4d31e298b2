//! Long lists a tool's texts are read from a batch at a time ([`Values`]), rather than held
//! as a text each: a schema's `enum`, tags, the names of a long mapping of parameters.

use std::borrow::Cow;
use std::sync::Arc;

use super::{Text, TextKind};
use crate::source::{SourceFile, Span};
use crate::syntax::seq::Item;
use crate::syntax::{Entry, Node, NodeKind, Seq};

/// A long list of schema values or tags (a packed [`Seq`]), or the names of a long map of
/// parameters: each string a text of `kind`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Values<'a> {
    /// What each string is.
    pub kind: TextKind,
    /// Where the strings are.
    pub source: Source<'a>,
    /// The file it is written in.
    pub file: &'a Arc<SourceFile>,
}

/// Where the strings of [`Values`] are.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source<'a> {
    /// The string items of a list.
    Strings(&'a Seq),
    /// The keys of a mapping.
    Keys(&'a [Entry]),
    /// Every string anywhere inside a list's items, keys too (a schema's `examples` of
    /// mappings): read an item at a time, without building a packed list's nodes.
    Nested(&'a Seq),
}

/// Mappings of more parameters than this have their names read in batches.
pub(super) const LONG_MAP: usize = 256;

impl<'a> Values<'a> {
    /// A text for each string that is not empty, made as it is read.
    pub(crate) fn texts(self) -> impl Iterator<Item = Text<'a>> {
        // One box for the whole list, not one for each string.
        let strings: Box<dyn Iterator<Item = (Cow<'a, str>, Span)>> = match self.source {
            Source::Strings(list) => Box::new(list.strings().map(|(s, span)| (s.into(), span))),
            Source::Keys(entries) => Box::new(
                entries
                    .iter()
                    .map(|e| (e.key.as_str().into(), e.key_span())),
            ),
            Source::Nested(list) => Box::new(list.items().flat_map(item_strings)),
        };
        strings
            .filter(|(s, _)| !s.is_empty())
            .map(move |(s, span)| Text {
                kind: self.kind,
                value: s,
                file: Arc::clone(self.file),
                span,
            })
    }
}

/// The strings of one item of a list, keys too: borrowed where the item is a node of the
/// tree, copied from an item a packed list built for the asking.
fn item_strings(item: Item<'_>) -> Vec<(Cow<'_, str>, Span)> {
    let mut out = Vec::new();
    push_item(item, &mut out);
    out
}

fn push_item<'n>(item: Item<'n>, out: &mut Vec<(Cow<'n, str>, Span)>) {
    match item {
        Item::Str(s, span) => out.push((Cow::Borrowed(s), span)),
        Item::Other(Cow::Borrowed(node)) => each_string(node, out),
        Item::Other(Cow::Owned(node)) => {
            let mut copied = Vec::new();
            each_string(&node, &mut copied);
            out.extend(
                copied
                    .into_iter()
                    .map(|(s, span)| (Cow::Owned(s.into_owned()), span)),
            );
        }
    }
}

/// Every string inside `node`, mapping keys too, in order.
fn each_string<'n>(node: &'n Node, out: &mut Vec<(Cow<'n, str>, Span)>) {
    match &node.kind {
        NodeKind::String(s) => out.push((Cow::Borrowed(s), node.span())),
        NodeKind::Seq(items) => items.items().for_each(|item| push_item(item, out)),
        NodeKind::Map(entries) => {
            for e in entries {
                out.push((Cow::Borrowed(e.key.as_str()), e.key_span()));
                each_string(&e.value, out);
            }
        }
        _ => {}
    }
}
