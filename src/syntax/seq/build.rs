//! How a parser builds a [`Seq`]: which items a packed list may hold, and the builder that
//! packs a long list as its items come.

use std::sync::OnceLock;

use super::{Holds, PACK_FROM, Plain, Repr, Seq};
use crate::memory::Chunked;
use crate::syntax::packed::{Reader, Writer};
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
                && entries.iter().all(|e| match &e.value.kind {
                    NodeKind::Seq(items) if items.packed() => items.flat(),
                    NodeKind::Seq(items) => items.iter().all(plain),
                    _ => plain(&e.value),
                })
        }
        _ => false,
    }
}

/// What an item holds to a packed list: a string, a mapping of [`small_map`], nothing when
/// it holds no text, else a small tree; `None` when it cannot be packed.
fn packs(node: &Node) -> Option<Holds> {
    let strings = matches!(node.kind, NodeKind::String(_));
    let maps = !strings && small_map(node);
    if strings || maps || text_free(node) {
        return Some(Holds {
            strings,
            maps,
            deep: false,
        });
    }
    small_tree(node).then_some(Holds {
        deep: true,
        ..Holds::default()
    })
}

/// Nodes a [`small_tree`] has at most. Sixteen takes in a tool with a small schema or a
/// nested setting (`{"name": "t", "command": ["x"], "x": {"a": {}}}`): as nodes, a long list
/// of them took up to twelve times its text.
pub(super) const SMALL_TREE: usize = 16;

/// True when `node` has at most [`SMALL_TREE`] nodes (an entry counts as one): a long list
/// of such items (`- [a]`, `- {a: {b: c}}`) took a node and an allocation for each level
/// of each item, twelve times its text; packed, it takes about its text, and a reader of
/// its texts builds its nodes only then ([`Seq::flat`] is false).
fn small_tree(node: &Node) -> bool {
    fn take(left: &mut usize) -> bool {
        left.checked_sub(1).map(|rest| *left = rest).is_some()
    }
    fn fits(node: &Node, left: &mut usize) -> bool {
        take(left)
            && match &node.kind {
                // A packed list is longer than the budget: its items are not read.
                NodeKind::Seq(items) => items.len() <= *left && items.iter().all(|n| fits(n, left)),
                NodeKind::Map(entries) => {
                    entries.len() <= *left
                        && entries.iter().all(|e| take(left) && fits(&e.value, left))
                }
                _ => true,
            }
    }
    let mut left = SMALL_TREE;
    fits(node, &mut left)
}

/// A list's items as a parser finds them: packed while the list is long (by the parser's
/// count) and no item so far holds text, as nodes from the first item that does.
pub(crate) struct SeqBuilder {
    /// The items expected (room to give the nodes if the list turns out not plain).
    expected: usize,
    /// Where the list starts.
    from: usize,
    /// True while a list of unknown length (YAML) may still be packed: at its
    /// [`PACK_FROM`]th item, when all so far are plain.
    grow: bool,
    build: Build,
}

enum Build {
    /// As nodes, from the first item that holds text (or for a short list); grown by chunks,
    /// as a long list of lists (`- [a]`) doubled its room by copying.
    Nodes(Chunked<Node>),
    /// `len` small items packed so far, holding what `holds` says.
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
            expected,
            from,
            grow: false,
            build,
        }
    }

    /// A builder for a list whose length is not known until it ends (a YAML parser's),
    /// starting at byte `from`: nodes, packed once [`PACK_FROM`] items have come that are
    /// all plain.
    pub(crate) fn growing(from: usize) -> SeqBuilder {
        SeqBuilder {
            expected: 0,
            from,
            grow: true,
            build: Build::Nodes(Chunked::default()),
        }
    }

    /// The next item.
    pub(crate) fn push(&mut self, item: Node) {
        match &mut self.build {
            Build::Packed { writer, len, holds } => match packs(&item) {
                Some(item_holds) => {
                    writer.node(&item);
                    *len += 1;
                    *holds = holds.and(item_holds);
                }
                None => {
                    let nodes = self.unpack();
                    self.build = Build::Nodes(nodes);
                    self.push(item);
                }
            },
            Build::Nodes(nodes) => {
                nodes.push(item);
                if self.grow && nodes.len() == PACK_FROM {
                    self.grow = false;
                    self.pack_so_far();
                }
            }
        }
    }

    /// The items so far packed, when they are all plain.
    fn pack_so_far(&mut self) {
        let Build::Nodes(nodes) = &self.build else {
            return;
        };
        let Some(holds) = nodes
            .iter()
            .try_fold(Holds::default(), |all, n| Some(all.and(packs(n)?)))
        else {
            return;
        };
        let mut writer = Writer::new(nodes.len() * 4, self.from);
        nodes.iter().for_each(|n| writer.node(n));
        self.build = Build::Packed {
            writer,
            len: nodes.len(),
            holds,
        };
    }

    /// The items so far as nodes, with room for the rest.
    fn unpack(&mut self) -> Chunked<Node> {
        let Build::Packed { writer, len, .. } =
            std::mem::replace(&mut self.build, Build::Nodes(Chunked::default()))
        else {
            return Chunked::default();
        };
        let (bytes, _) = writer.finish();
        let mut reader = Reader::new(&bytes, self.from);
        let mut nodes = Chunked::with_capacity(self.expected.max(len + 1));
        (0..len)
            .map_while(|_| reader.node(0))
            .for_each(|n| nodes.push(n));
        nodes
    }

    /// The list.
    pub(crate) fn finish(self) -> Seq {
        match self.build {
            Build::Nodes(nodes) => nodes.into_vec().into(),
            Build::Packed { len: 0, .. } => Vec::new().into(),
            Build::Packed { writer, len, holds } => {
                let (bytes, last) = writer.finish();
                Seq(Repr::Packed(Box::new(Plain {
                    len,
                    holds,
                    bytes,
                    from: self.from,
                    last,
                    nodes: OnceLock::new(),
                })))
            }
        }
    }
}
