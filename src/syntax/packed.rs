//! A syntax tree kept after its file is checked, packed into bytes. A format keeps the trees
//! its later passes read (a schema the bundles lower, the spans the CMP rules point at) as
//! [`Packed`]: about the size of their source text instead of several times it, and written
//! to the cache as they are. Readers [`Packed::unpack`] the tree when they need it.

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::seq::PACK_FROM;

mod look;

use super::{Entry, MAX_DEPTH, Node, NodeKind, Number, Seq};
use crate::source::Span;
pub(super) use look::Look;

/// A [`Node`] tree in a compact byte form.
#[derive(Clone, PartialEq)]
pub(crate) struct Packed(Box<[u8]>);

/// A tree a lowered tool points into: packed to be kept past its file's load, or the one
/// the load still holds (the custom rules lower a file right after loading it: packing its
/// schema then would be work no reader of the run uses).
#[derive(Clone, Copy, Debug)]
pub(crate) enum TreeRef<'a> {
    /// Packed.
    Packed(&'a Packed),
    /// Still in hand.
    Held(&'a Node),
}

impl<'a> TreeRef<'a> {
    /// The tree, read where it is ([`super::NodeAt`]): packed bytes are not unpacked.
    pub(crate) fn at(self) -> super::NodeAt<'a> {
        match self {
            TreeRef::Packed(p) => super::NodeAt::from(p),
            TreeRef::Held(n) => super::NodeAt::from(n),
        }
    }

    /// The tree, unpacked when it was packed.
    pub(crate) fn unpack(self) -> std::borrow::Cow<'a, Node> {
        match self {
            TreeRef::Packed(p) => std::borrow::Cow::Owned(p.unpack()),
            TreeRef::Held(n) => std::borrow::Cow::Borrowed(n),
        }
    }
}

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INT: u8 = 3;
const FLOAT: u8 = 4;
const STRING: u8 = 5;
const SEQ: u8 = 6;
const MAP: u8 = 7;

impl Packed {
    /// Pack `node`.
    pub(crate) fn pack(node: &Node) -> Packed {
        // Measured first, then written into room of exactly that size: grown by doubling,
        // the bytes of a schema with millions of values were held one and a half times.
        let mut measure = Writer {
            bytes: Vec::new(),
            len: 0,
            last: 0,
            write: false,
        };
        measure.node(node);
        let mut out = Writer {
            bytes: Vec::with_capacity(measure.len),
            len: 0,
            last: 0,
            write: true,
        };
        out.node(node);
        Packed(out.bytes.into_boxed_slice())
    }

    /// A reader at the root, which is written first.
    pub(super) fn root(&self) -> Reader<'_> {
        Reader::new(&self.0, 0)
    }

    /// The tree again.
    pub(crate) fn unpack(&self) -> Node {
        let mut reader = Reader {
            bytes: &self.0,
            at: 0,
            last: 0,
        };
        // Bytes come from `pack` or passed `valid` when read from the cache.
        reader
            .node(0)
            .unwrap_or_else(|| Node::new(Span::point(0), NodeKind::Null))
    }

    /// The JSON value of the tree.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        self.unpack().to_json()
    }

    /// True when `bytes` are one whole packed tree (what bytes from the cache must be).
    fn valid(bytes: &[u8]) -> bool {
        let mut reader = Reader {
            bytes,
            at: 0,
            last: 0,
        };
        reader.skip(0).is_some() && reader.at == bytes.len()
    }
}

impl std::fmt::Debug for Packed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.unpack(), f)
    }
}

impl Serialize for Packed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Packed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Packed, D::Error> {
        struct Bytes;
        impl<'de> Visitor<'de> for Bytes {
            type Value = Packed;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a packed syntax tree")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Packed, E> {
                if Packed::valid(v) {
                    Ok(Packed(v.into()))
                } else {
                    Err(E::custom("not a packed syntax tree"))
                }
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Packed, E> {
                self.visit_bytes(&v)
            }
        }
        deserializer.deserialize_bytes(Bytes)
    }
}

/// Writes nodes in the packed form (also the form of a [`super::Seq`] of plain scalars).
pub(super) struct Writer {
    bytes: Vec<u8>,
    /// Bytes written so far (or that would be, when only measuring).
    len: usize,
    /// Start of the last span written: spans are written as the difference, mostly small.
    last: usize,
    /// False to only count the bytes.
    write: bool,
}

impl Writer {
    /// A writer with room for `capacity` bytes, its first span written relative to offset
    /// `from` (a list's items relative to the list's start, as [`Packed::pack`] writes them).
    pub(super) fn new(capacity: usize, from: usize) -> Writer {
        Writer {
            bytes: Vec::with_capacity(capacity),
            len: 0,
            last: from,
            write: true,
        }
    }

    /// A writer going on after `bytes`, whose last span started at `last`.
    pub(super) fn resume(bytes: Vec<u8>, last: usize) -> Writer {
        Writer {
            len: bytes.len(),
            bytes,
            last,
            write: true,
        }
    }

    /// The bytes written, and the start of the last span (where the next is relative to).
    pub(super) fn finish(self) -> (Box<[u8]>, usize) {
        (self.bytes.into_boxed_slice(), self.last)
    }

    fn push(&mut self, b: u8) {
        self.extend(&[b]);
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.len += bytes.len();
        if self.write {
            self.bytes.extend_from_slice(bytes);
        }
    }

    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.push(v as u8);
    }

    fn span(&mut self, span: Span) {
        let delta = span.start as i64 - self.last as i64;
        self.varint(((delta << 1) ^ (delta >> 63)) as u64);
        self.varint(span.len() as u64);
        self.last = span.start;
    }

    fn str(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.extend(s.as_bytes());
    }

    /// Write `node` and everything in it.
    pub(super) fn node(&mut self, node: &Node) {
        let tag = match &node.kind {
            NodeKind::Null => NULL,
            NodeKind::Bool(false) => FALSE,
            NodeKind::Bool(true) => TRUE,
            NodeKind::Number(Number::Int(_)) => INT,
            NodeKind::Number(Number::Float(_)) => FLOAT,
            NodeKind::String(_) => STRING,
            NodeKind::Seq(_) => SEQ,
            NodeKind::Map(_) => MAP,
        };
        self.push(tag);
        self.span(node.span());
        match &node.kind {
            NodeKind::Null | NodeKind::Bool(_) => {}
            NodeKind::Number(Number::Int(i)) => self.varint(((i << 1) ^ (i >> 63)) as u64),
            NodeKind::Number(Number::Float(f)) => self.extend(&f.to_le_bytes()),
            NodeKind::String(s) => self.str(s),
            NodeKind::Seq(items) => {
                let packed = items.packed_from(self.last);
                self.body(items.len(), packed, |w| {
                    items.scan().for_each(|item| w.node(&item));
                });
            }
            NodeKind::Map(entries) => {
                let packed = entries.packed_from(self.last);
                self.body(entries.len(), packed, |w| {
                    entries.scan().for_each(|e| w.entry(&e));
                });
            }
        }
    }

    /// A list's items or a mapping's entries, `len` of them: copied when they are already
    /// `packed` relative to here (their bytes and the start of their last span), else
    /// written one by one by `each`.
    fn body(&mut self, len: usize, packed: Option<(&[u8], usize)>, each: impl FnOnce(&mut Writer)) {
        self.varint(len as u64);
        match packed {
            Some((bytes, last)) => {
                self.extend(bytes);
                self.last = last;
            }
            None => each(self),
        }
    }

    /// Write the entry `e` of a mapping and everything in its value.
    pub(super) fn entry(&mut self, e: &Entry) {
        self.str(&e.key);
        self.span(e.key_span());
        self.node(&e.value);
    }
}

/// Reads what a [`Writer`] wrote.
#[derive(Clone, Copy)]
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    last: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` from their start, the first span relative to offset `from`.
    pub(super) fn new(bytes: &'a [u8], from: usize) -> Reader<'a> {
        Reader {
            bytes,
            at: 0,
            last: from,
        }
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }

    fn zigzag(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn len(&mut self) -> Option<usize> {
        // No count or length can exceed the bytes left: a corrupt count fails here, before
        // anything is allocated for it.
        let n = usize::try_from(self.varint()?).ok()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }

    fn span(&mut self) -> Option<Span> {
        let start = usize::try_from(self.last as i64 + self.zigzag()?).ok()?;
        let len = usize::try_from(self.varint()?).ok()?;
        self.last = start;
        Some(Span::new(start, start.checked_add(len)?))
    }

    fn str(&mut self) -> Option<&'a str> {
        let n = self.len()?;
        let s = std::str::from_utf8(self.bytes.get(self.at..self.at + n)?).ok()?;
        self.at += n;
        Some(s)
    }

    fn float(&mut self) -> Option<f64> {
        let b: [u8; 8] = self.bytes.get(self.at..self.at + 8)?.try_into().ok()?;
        self.at += 8;
        Some(f64::from_le_bytes(b))
    }

    /// The next node, `depth` levels down (none when the bytes are not one).
    pub(super) fn node(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let tag = self.byte()?;
        let span = self.span()?;
        let kind = match tag {
            NULL => NodeKind::Null,
            FALSE => NodeKind::Bool(false),
            TRUE => NodeKind::Bool(true),
            INT => NodeKind::Number(Number::Int(self.zigzag()?)),
            FLOAT => NodeKind::Number(Number::Float(self.float()?)),
            STRING => NodeKind::String(self.str()?.into()),
            SEQ => {
                let n = self.len()?;
                if n >= PACK_FROM {
                    return Some(Node::new(span, NodeKind::Seq(self.packed_items(n, depth)?)));
                }
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.node(depth + 1)?);
                }
                NodeKind::Seq(items.into())
            }
            MAP => {
                let n = self.len()?;
                let mut entries = Vec::with_capacity(n);
                for _ in 0..n {
                    entries.push(self.entry(depth + 1)?);
                }
                NodeKind::Map(entries.into())
            }
            _ => return None,
        };
        Some(Node::new(span, kind))
    }

    /// The next entry of a mapping, its value `depth` levels down.
    pub(super) fn entry(&mut self, depth: usize) -> Option<Entry> {
        let key = self.str()?;
        let key_span = self.span()?;
        let value = self.node(depth)?;
        Some(Entry::new(key, key_span, value))
    }

    /// Where it is in its bytes.
    pub(super) fn offset(&self) -> usize {
        self.at
    }

    /// Where it is in its bytes, and the start of the span the next is relative to: what
    /// [`Reader::resume`] takes to read on from here.
    pub(super) fn place(&self) -> (usize, usize) {
        (self.at, self.last)
    }

    /// A reader of `bytes` at a [`Reader::place`] of theirs.
    pub(super) fn resume(bytes: &'a [u8], (at, last): (usize, usize)) -> Reader<'a> {
        Reader { bytes, at, last }
    }

    /// The bytes of the key of the entry of a mapping at `offset` of `bytes` (compared as
    /// they are: text checked once when written).
    pub(super) fn key_at(bytes: &'a [u8], offset: usize) -> Option<&'a [u8]> {
        let mut reader = Reader {
            bytes,
            at: offset,
            last: 0,
        };
        let n = reader.len()?;
        bytes.get(reader.at..reader.at + n)
    }

    /// Past the next entry of a mapping, its value `depth` levels down.
    pub(super) fn skip_entry(&mut self, depth: usize) -> Option<()> {
        self.str()?;
        self.span()?;
        self.skip(depth)
    }

    /// The `n` items of a list whose count was just read, kept packed as they are: a long
    /// list inside a tree built for one reader (a tool's `enum`) is not built into nodes,
    /// nor are its strings made a text each. Its items were a long list's when written.
    fn packed_items(&mut self, n: usize, depth: usize) -> Option<Seq> {
        let (start, from) = (self.at, self.last);
        for _ in 0..n {
            self.skip(depth + 1)?;
        }
        let bytes = self.bytes.get(start..self.at)?;
        Some(Seq::read_back(n, bytes, from, self.last))
    }

    /// True when the next node is a null, a boolean or a number.
    pub(super) fn at_scalar(&self) -> bool {
        self.bytes.get(self.at).is_some_and(|tag| *tag <= FLOAT)
    }

    /// True when the next node is a mapping.
    pub(super) fn at_map(&self) -> bool {
        self.bytes.get(self.at) == Some(&MAP)
    }

    /// True when the next node is a string.
    pub(super) fn at_string(&self) -> bool {
        self.bytes.get(self.at) == Some(&STRING)
    }

    /// The next node when it is a string, borrowed from the bytes with its span; any other
    /// node is passed over (`Some(None)`).
    pub(super) fn string(&mut self) -> Option<Option<(&'a str, Span)>> {
        if self.bytes.get(self.at) != Some(&STRING) {
            self.skip(0)?;
            return Some(None);
        }
        self.at += 1;
        let span = self.span()?;
        Some(Some((self.str()?, span)))
    }

    /// Past the next node's key `key` when the node is a mapping that has it (its first
    /// such key: duplicates are dropped by the parsers), at its value.
    fn seek_value_of(&mut self, key: &str) -> Option<()> {
        if self.byte()? != MAP {
            return None;
        }
        self.span()?;
        for _ in 0..self.len()? {
            let k = self.str()?;
            self.span()?;
            if k == key {
                return Some(());
            }
            self.skip(1)?;
        }
        None
    }

    /// The string the next node, a mapping, maps `key` to, borrowed, and its span.
    pub(super) fn map_str(mut self, key: &str) -> Option<(&'a str, Span)> {
        self.seek_value_of(key)?;
        self.string()?
    }

    /// The value the next node, a mapping, maps `key` to.
    pub(super) fn map_value(mut self, key: &str) -> Option<Node> {
        self.seek_value_of(key)?;
        self.node(1)
    }

    /// At the first item of the list the next node, a mapping, maps `key` to, and how many
    /// items the list has.
    pub(super) fn map_list(mut self, key: &str) -> Option<(Reader<'a>, usize)> {
        self.seek_value_of(key)?;
        if self.byte()? != SEQ {
            return None;
        }
        self.span()?;
        let len = self.len()?;
        Some((self, len))
    }

    /// Where the next node is written, read without moving on.
    pub(super) fn node_span(mut self) -> Option<Span> {
        self.byte()?;
        self.span()
    }

    /// [`Reader::node`] without building anything: checks the bytes.
    pub(super) fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let tag = self.byte()?;
        self.span()?;
        match tag {
            NULL | FALSE | TRUE => {}
            INT => {
                self.zigzag()?;
            }
            FLOAT => {
                self.float()?;
            }
            STRING => {
                self.str()?;
            }
            SEQ => {
                for _ in 0..self.len()? {
                    self.skip(depth + 1)?;
                }
            }
            MAP => {
                for _ in 0..self.len()? {
                    self.skip_entry(depth + 1)?;
                }
            }
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{json, yaml};

    #[test]
    fn a_tree_unpacks_to_itself() {
        let yaml_text = "a: [1, -2, 3.5, true, null, \"é\"]\nb:\n  c: {d: x}\n";
        let json_text = r#"{"type": "object", "properties": {"n": {"minimum": -9e300}}}"#;
        for root in [
            yaml::parse(yaml_text, 0).root,
            json::parse(json_text, 7).root,
        ] {
            let root = root.expect("parses");
            let packed = Packed::pack(&root);
            assert_eq!(packed.unpack(), root);
            assert!(Packed::valid(&packed.0));
        }
    }

    #[test]
    fn damaged_bytes_are_refused_not_trusted() {
        let root = json::parse(r#"{"a": [1, 2, {"b": "c"}]}"#, 0)
            .root
            .expect("parses");
        let packed = Packed::pack(&root);
        for cut in 0..packed.0.len() {
            assert!(!Packed::valid(&packed.0[..cut]), "cut at {cut}");
        }
        let mut huge = vec![SEQ, 0, 0];
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert!(!Packed::valid(&huge));
        let deep: Vec<u8> = std::iter::repeat_n([SEQ, 0, 0, 1], MAX_DEPTH + 2)
            .flatten()
            .collect();
        assert!(!Packed::valid(&deep));
    }
}
