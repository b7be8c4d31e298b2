//! How a parser builds a [`Seq`]: which items a packed list may hold, and the builder that
//! packs a long list as its items come.

use super::{Holds, PACK_FROM, Plain, Repr, Seq};
use crate::memory::Chunked;
use crate::syntax::body::Body;
use crate::syntax::packed::Writer;
use crate::syntax::{Node, NodeKind};

/// True when `node` holds no text at any depth: no string and no mapping key (nulls,
/// booleans, numbers, and lists and empty mappings of them).
fn text_free(node: &Node) -> bool {
    match &node.kind {
        NodeKind::String(_) => false,
        NodeKind::Map(entries) => entries.is_empty(),
        // A packed list says whether it holds text: read as nodes, it would be built.
        NodeKind::Seq(items) if items.packed() => items.all_plain(),
        NodeKind::Seq(items) => items.iter().all(text_free),
        NodeKind::Null | NodeKind::Bool(_) | NodeKind::Number(_) => true,
    }
}

/// True when `node` is a mapping whose values are strings, lists of strings, or hold no
/// text (a step `bash: a`, a tool `{"name": "t", "command": ["x"]}`): packed, its keys and
/// strings are read from the bytes ([`Seq::maps`], [`MapItem::str`], [`MapItem::list`]).
fn small_map(node: &Node) -> bool {
    let plain = |n: &Node| matches!(n.kind, NodeKind::String(_)) || text_free(n);
    match &node.kind {
        NodeKind::Map(entries) => {
            !entries.is_empty()
                && entries.scan().all(|e| match &e.value.kind {
                    NodeKind::Seq(items) if items.packed() => items.flat(),
                    NodeKind::Seq(items) => items.iter().all(plain),
                    _ => plain(&e.value),
                })
        }
        _ => false,
    }
}

/// What an item holds to a packed list: a string, a mapping of [`small_map`], nothing when
/// it holds no text, else a tree of any other shape (`[a]`, `{a: {b: c}}`, a tool and its
/// schema), whose texts are read from its nodes. Any item packs: a long list of trees held
/// as nodes took a node and an allocation for each level of each item, up to fifteen times
/// its text (tools with a small schema, settings nested nine deep); packed, it takes about
/// its text, and a reader of an item's texts builds that item alone ([`Seq::maps_unbuilt`],
/// [`Seq::scan`]).
fn packs(node: &Node) -> Holds {
    let strings = matches!(node.kind, NodeKind::String(_));
    let maps = !strings && small_map(node);
    let deep = !strings && !maps && !text_free(node);
    Holds {
        strings,
        maps,
        deep,
    }
}

/// A list's items as a parser finds them: packed when the list is long (by the parser's
/// count, or once a list of unknown length reaches [`PACK_FROM`] items), else nodes.
pub(crate) struct SeqBuilder {
    /// Where the list starts.
    from: usize,
    /// True while a list of unknown length (YAML) may still be packed: at its
    /// [`PACK_FROM`]th item, when all so far are plain.
    grow: bool,
    build: Build,
}

enum Build {
    /// As nodes, while the list is short; grown by chunks, as a long list of lists
    /// (`- [a]`) doubled its room by copying.
    Nodes(Chunked<Node>),
    /// `len` items packed so far, holding what `holds` says.
    Packed {
        writer: Writer,
        len: usize,
        holds: Holds,
    },
}

impl SeqBuilder {
    /// A builder for a list of about `expected` items, starting at byte `from`.
    pub(crate) fn with_capacity(expected: usize, from: usize) -> SeqBuilder {
        let build = if expected >= PACK_FROM {
            // Four bytes is what a one-digit number and its span take.
            Build::Packed {
                writer: Writer::new(expected.saturating_mul(4), from),
                len: 0,
                holds: Holds::default(),
            }
        } else {
            Build::Nodes(Chunked::with_capacity(expected))
        };
        SeqBuilder {
            from,
            grow: false,
            build,
        }
    }

    /// A builder for a list whose length is not known until it ends (a YAML parser's),
    /// starting at byte `from`: nodes, packed once [`PACK_FROM`] items have come.
    pub(crate) fn growing(from: usize) -> SeqBuilder {
        SeqBuilder {
            from,
            grow: true,
            build: Build::Nodes(Chunked::default()),
        }
    }

    /// The next item.
    pub(crate) fn push(&mut self, item: Node) {
        match &mut self.build {
            Build::Packed { writer, len, holds } => {
                writer.node(&item);
                *len += 1;
                *holds = holds.and(packs(&item));
            }
            Build::Nodes(nodes) => {
                nodes.push(item);
                if self.grow && nodes.len() == PACK_FROM {
                    self.grow = false;
                    self.pack_so_far();
                }
            }
        }
    }

    /// The items so far, packed.
    fn pack_so_far(&mut self) {
        let Build::Nodes(nodes) = &self.build else {
            return;
        };
        let holds = nodes
            .iter()
            .fold(Holds::default(), |all, n| all.and(packs(n)));
        let mut writer = Writer::new(nodes.len() * 4, self.from);
        nodes.iter().for_each(|n| writer.node(n));
        self.build = Build::Packed {
            writer,
            len: nodes.len(),
            holds,
        };
    }

    /// The list.
    pub(crate) fn finish(self) -> Seq {
        match self.build {
            Build::Nodes(nodes) => nodes.into_vec().into(),
            Build::Packed { len: 0, .. } => Vec::new().into(),
            Build::Packed { writer, len, holds } => {
                let (bytes, last) = writer.finish();
                Seq(Repr::Packed(Box::new(Plain {
                    holds,
                    items: Body::new(len, bytes, self.from, last),
                })))
            }
        }
    }
}
