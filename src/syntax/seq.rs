//! The items of a list ([`Seq`]). A long list is held in the packed form of
//! [`super::Packed`] (a few bytes an item, where a [`Node`] takes 32 and a string its own
//! allocation besides): a schema's `enum` of millions of `1`s cost sixteen times its text as
//! nodes, of `"a"`s more, and a list of tools with their schemas up to fifteen times.
//! Strings are packed decoded, so readers of text (the security pass) borrow them from the
//! packed bytes ([`Seq::strings`]); a mapping of scalars and lists of them (a cycod tool's
//! step `bash: a`, an agentcli tool `{"name": "t", "command": ["x"]}`) is read a mapping at a
//! time ([`Seq::maps`]), its strings borrowed too; an item of any other shape is built for
//! its reader alone ([`Seq::scan`], [`Seq::maps_unbuilt`]). Readers that want a slice of
//! nodes see one as before (built the first time one is asked for, and kept beside the
//! bytes).

use super::body::Body;
use super::packed::Reader;
use super::{Node, NodeKind};
use crate::source::Span;
use std::borrow::Cow;
use std::ops::Deref;

mod build;

pub(crate) use build::SeqBuilder;

/// Lists shorter than this are always held as nodes: packing pays only for dense lists.
pub(super) const PACK_FROM: usize = 256;

/// The items of a list, in order.
pub(crate) struct Seq(Repr);

enum Repr {
    /// Any items, as nodes.
    Nodes(Box<[Node]>),
    // Boxed: a `Seq` stays the size of a boxed slice, so a `Node` does not grow.
    Packed(Box<Plain>),
}

/// What the items of a packed list hold besides scalars without text.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Holds {
    /// Some item is a string.
    strings: bool,
    /// Some item is a mapping of [`small_map`] (its keys and string values are text too).
    maps: bool,
    /// Some item is a tree of another shape (`[a]`, `{a: {b: c}}`), whose texts are read
    /// from its nodes.
    deep: bool,
}

impl Holds {
    fn and(self, other: Holds) -> Holds {
        Holds {
            strings: self.strings || other.strings,
            maps: self.maps || other.maps,
            deep: self.deep || other.deep,
        }
    }
}

/// Items, packed, and what they hold.
#[derive(Clone)]
struct Plain {
    holds: Holds,
    items: Body<Node>,
}

impl Seq {
    /// How many items.
    pub(crate) fn len(&self) -> usize {
        match &self.0 {
            Repr::Nodes(nodes) => nodes.len(),
            Repr::Packed(plain) => plain.items.len,
        }
    }

    /// True when there is no item.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items one by one, without building the list's nodes when it is packed.
    pub(crate) fn scan(&self) -> Scan<'_> {
        match &self.0 {
            Repr::Nodes(nodes) => Scan(Items::Nodes(nodes.iter())),
            Repr::Packed(plain) => Scan(match plain.items.built() {
                Some(nodes) => Items::Nodes(nodes.iter()),
                None => Items::Packed {
                    reader: plain.items.reader(),
                    left: plain.items.len,
                },
            }),
        }
    }

    /// The items as nodes when they are held (or were built), else a reader at the first
    /// packed one and how many there are: what [`super::NodeAt`] reads without building.
    pub(super) fn held_or_packed(&self) -> Result<&[Node], (Reader<'_>, usize)> {
        match &self.0 {
            Repr::Nodes(nodes) => Ok(nodes),
            Repr::Packed(plain) => match plain.items.built() {
                Some(nodes) => Ok(nodes),
                None => Err((plain.items.reader(), plain.items.len)),
            },
        }
    }

    /// The packed items' bytes, when they are packed relative to offset `from` (the list's
    /// start), and the start of the last item.
    pub(super) fn packed_from(&self, from: usize) -> Option<(&[u8], usize)> {
        match &self.0 {
            Repr::Packed(plain) => plain.items.packed_from(from),
            Repr::Nodes(_) => None,
        }
    }

    /// The `len` items packed in `bytes` (their first span relative to `from`, the last
    /// item's start `last`), as a tree built from packed bytes finds them. What they hold is
    /// told from each item's kind alone: a mapping or a list may hold text.
    pub(super) fn read_back(len: usize, bytes: &[u8], from: usize, last: usize) -> Seq {
        let mut holds = Holds::default();
        let mut reader = Reader::new(bytes, from);
        for _ in 0..len {
            if reader.at_string() {
                holds.strings = true;
            } else if !reader.at_scalar() {
                holds.deep = true;
            }
            if reader.skip(0).is_none() {
                break;
            }
        }
        Seq(Repr::Packed(Box::new(Plain {
            holds,
            items: Body::new(len, bytes.into(), from, last),
        })))
    }

    /// True when the items are known to hold no text (no string and no mapping key at any
    /// depth): a reader looking for text has nothing to find in it.
    pub(crate) fn all_plain(&self) -> bool {
        matches!(&self.0, Repr::Packed(plain) if plain.holds == Holds::default())
    }

    /// True when the only text the items hold is [`Seq::strings`]: none below an item.
    pub(crate) fn flat(&self) -> bool {
        matches!(&self.0, Repr::Packed(plain) if !plain.holds.maps && !plain.holds.deep)
    }

    /// True when some packed item is a tree of another shape than a string or a mapping of
    /// scalars ([`Holds::deep`]).
    fn deep(&self) -> bool {
        matches!(&self.0, Repr::Packed(plain) if plain.holds.deep)
    }

    /// True when the items are packed: whether they hold text is then known
    /// ([`Seq::all_plain`]) without reading them.
    fn packed(&self) -> bool {
        matches!(self.0, Repr::Packed(_))
    }

    /// The items that are strings, with their spans, borrowed without building nodes.
    pub(crate) fn strings(&self) -> Strings<'_> {
        match &self.0 {
            Repr::Packed(plain) if plain.items.built().is_none() => Strings(Items::Packed {
                reader: plain.items.reader(),
                left: if plain.holds.strings {
                    plain.items.len
                } else {
                    0
                },
            }),
            _ => Strings(Items::Nodes(self.iter())),
        }
    }
}

/// An item of a [`Seq`] read by [`Seq::items`].
pub(crate) enum Item<'a> {
    /// A string, borrowed (from a packed list's bytes too), and its span.
    Str(&'a str, Span),
    /// Any other value.
    Other(Cow<'a, Node>),
}

impl Seq {
    /// Every item, strings borrowed where they are, without building a packed list's nodes.
    pub(crate) fn items(&self) -> impl Iterator<Item = Item<'_>> {
        let mut scan = self.scan();
        std::iter::from_fn(move || match &mut scan.0 {
            Items::Packed { reader, left } if reader.at_string() => {
                *left = left.checked_sub(1)?;
                let (s, span) = reader.string()??;
                Some(Item::Str(s, span))
            }
            _ => Some(match scan.next()? {
                Cow::Borrowed(node) => match &node.kind {
                    NodeKind::String(s) => Item::Str(s, node.span()),
                    _ => Item::Other(Cow::Borrowed(node)),
                },
                other => Item::Other(other),
            }),
        })
    }
}

/// The items of a list below a [`MapItem`] ([`MapItem::list`]): each string with its span,
/// any other item `None`.
pub(crate) type ListItems<'a> = Box<dyn Iterator<Item = Option<(&'a str, Span)>> + 'a>;

/// An item of a [`Seq`] read as a mapping ([`Seq::maps`]), its values read where they are:
/// a packed item's from the list's bytes, its strings borrowed, without building it.
#[derive(Clone)]
pub(crate) struct MapItem<'a>(Held<'a>);

#[derive(Clone)]
enum Held<'a> {
    Node(&'a Node),
    /// A reader at the item's start.
    Packed(Reader<'a>),
}

impl<'a> MapItem<'a> {
    /// `node` read as an item is.
    pub(crate) fn of(node: &'a Node) -> MapItem<'a> {
        MapItem(Held::Node(node))
    }

    /// The string `key` maps to, and its span: none when the item is not a mapping, has
    /// no `key`, or maps it to something else.
    pub(crate) fn str(&self, key: &str) -> Option<(&'a str, Span)> {
        match &self.0 {
            Held::Node(node) => {
                let value = node.value(key)?;
                Some((value.as_str()?, value.span()))
            }
            Held::Packed(reader) => (*reader).map_str(key),
        }
    }

    /// Where the item is written (none when a packed list's bytes are not an item).
    pub(crate) fn span(&self) -> Option<Span> {
        match &self.0 {
            Held::Node(node) => Some(node.span()),
            Held::Packed(reader) => (*reader).node_span(),
        }
    }

    /// True when the item is a mapping.
    pub(crate) fn is_map(&self) -> bool {
        match &self.0 {
            Held::Node(node) => node.entries().is_some(),
            Held::Packed(reader) => reader.at_map(),
        }
    }

    /// The item as a node: borrowed where it is one, built from a packed list's bytes
    /// (none when they are not a node).
    pub(crate) fn node(&self) -> Option<Cow<'a, Node>> {
        match &self.0 {
            Held::Node(node) => Some(Cow::Borrowed(node)),
            Held::Packed(reader) => reader.clone().node(0).map(Cow::Owned),
        }
    }

    /// The item when it is held as a node. A packed item of [`Seq::maps`] holds no text
    /// below its values but the strings of a list (no mapping there has a key): a reader of
    /// text that finds none here has only [`MapItem::str`]'s and [`MapItem::list`]'s strings
    /// to read. One of [`Seq::maps_unbuilt`] may be a tree of any shape: its other texts are
    /// in its values ([`MapItem::value`]).
    pub(crate) fn held(&self) -> Option<&'a Node> {
        match &self.0 {
            Held::Node(node) => Some(node),
            Held::Packed(_) => None,
        }
    }

    /// The value `key` maps to, when the item is a mapping that has it.
    pub(crate) fn value(&self, key: &str) -> Option<Cow<'a, Node>> {
        match &self.0 {
            Held::Node(node) => node.value(key).map(Cow::Borrowed),
            Held::Packed(reader) => (*reader).map_value(key).map(Cow::Owned),
        }
    }

    /// The items of the list `key` maps to, each string borrowed with its span, any other
    /// item `None`: none when the item has no such list.
    pub(crate) fn list(&self, key: &str) -> Option<ListItems<'a>> {
        match &self.0 {
            Held::Node(node) => {
                let items = node.value(key)?.as_list()?.items();
                Some(Box::new(items.map(|item| match item {
                    Item::Str(s, span) => Some((s, span)),
                    Item::Other(_) => None,
                })))
            }
            Held::Packed(reader) => {
                let (mut reader, mut left) = (*reader).map_list(key)?;
                Some(Box::new(std::iter::from_fn(move || {
                    left = left.checked_sub(1)?;
                    reader.string()
                })))
            }
        }
    }
}

impl Seq {
    /// Every item as a [`MapItem`]: a packed list's nodes are built (and kept) only when
    /// some item is a deeper tree than a mapping of scalars, whose texts its readers read
    /// from its node ([`MapItem::held`]).
    pub(crate) fn maps(&self) -> impl Iterator<Item = MapItem<'_>> {
        map_items(if self.deep() {
            Scan(Items::Nodes(self.iter()))
        } else {
            self.scan()
        })
    }

    /// Every item as a [`MapItem`] read where it is, a deeper tree's too: [`MapItem::held`]
    /// is then none for every packed item, and a reader of such a tree's texts builds that
    /// item's values alone ([`MapItem::value`]). [`Seq::maps`] built the whole list's nodes
    /// for them and kept them while the file loaded: a million tools
    /// `{"name": "tN", "inputSchema": {"type": "object"}}` took eight times their text.
    pub(crate) fn maps_unbuilt(&self) -> impl Iterator<Item = MapItem<'_>> {
        map_items(self.scan())
    }
}

/// The items `scan` reads, each as a [`MapItem`].
fn map_items(mut scan: Scan<'_>) -> impl Iterator<Item = MapItem<'_>> {
    std::iter::from_fn(move || match &mut scan.0 {
        Items::Nodes(nodes) => nodes.next().map(MapItem::of),
        Items::Packed { reader, left } => {
            *left = left.checked_sub(1)?;
            let at = *reader;
            reader.skip(0)?;
            Some(MapItem(Held::Packed(at)))
        }
    })
}

impl Deref for Seq {
    type Target = [Node];

    fn deref(&self) -> &[Node] {
        match &self.0 {
            Repr::Nodes(nodes) => nodes,
            Repr::Packed(plain) => plain.items.slice(|reader| reader.node(0)),
        }
    }
}

impl<'a> IntoIterator for &'a Seq {
    type Item = &'a Node;
    type IntoIter = std::slice::Iter<'a, Node>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl From<Vec<Node>> for Seq {
    fn from(nodes: Vec<Node>) -> Seq {
        Seq(Repr::Nodes(nodes.into_boxed_slice()))
    }
}

impl Clone for Seq {
    fn clone(&self) -> Seq {
        match &self.0 {
            Repr::Nodes(nodes) => Seq(Repr::Nodes(nodes.clone())),
            Repr::Packed(plain) => Seq(Repr::Packed(plain.clone())),
        }
    }
}

impl PartialEq for Seq {
    fn eq(&self, other: &Seq) -> bool {
        self.len() == other.len() && self.scan().zip(other.scan()).all(|(a, b)| a == b)
    }
}

impl std::fmt::Debug for Seq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.scan()).finish()
    }
}

/// The items of a [`Seq`], borrowed where they are nodes, read one at a time where packed.
pub(crate) struct Scan<'a>(Items<'a>);

enum Items<'a> {
    /// Nodes held as such.
    Nodes(std::slice::Iter<'a, Node>),
    /// Packed items, `left` of them still to read.
    Packed { reader: Reader<'a>, left: usize },
}

impl<'a> Iterator for Scan<'a> {
    type Item = Cow<'a, Node>;

    fn next(&mut self) -> Option<Cow<'a, Node>> {
        match &mut self.0 {
            Items::Nodes(nodes) => nodes.next().map(Cow::Borrowed),
            Items::Packed { reader, left } => {
                *left = left.checked_sub(1)?;
                reader.node(0).map(Cow::Owned)
            }
        }
    }
}

/// The string items of a [`Seq`] and their spans.
pub(crate) struct Strings<'a>(Items<'a>);

impl<'a> Iterator for Strings<'a> {
    type Item = (&'a str, Span);

    fn next(&mut self) -> Option<(&'a str, Span)> {
        loop {
            match &mut self.0 {
                Items::Nodes(nodes) => {
                    let node = nodes.next()?;
                    if let NodeKind::String(s) = &node.kind {
                        return Some((s, node.span()));
                    }
                }
                Items::Packed { reader, left } => {
                    *left = left.checked_sub(1)?;
                    if let Some(found) = reader.string()? {
                        return Some(found);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "seq_tests.rs"]
mod tests;
