//! A value of a tree read where it is: a [`Node`], or a value inside the packed bytes of a
//! long list or mapping ([`super::Seq`], [`super::Map`]). Readers that walk a whole tree
//! (the custom rules, a packed schema's canonical text) go through it: asking a packed list
//! for its slice builds every item and keeps them beside the bytes, five times the text for
//! a list of small tools.

use super::packed::{Look, Packed, Reader};
use super::{Entry, Node, NodeKind, Number};
use crate::source::Span;

/// A value of a tree, held as a node or read from packed bytes.
#[derive(Clone, Copy)]
pub(crate) struct NodeAt<'a>(At<'a>);

#[derive(Clone, Copy)]
enum At<'a> {
    /// A node.
    Held(&'a Node),
    /// Packed, at the reader.
    Packed(Reader<'a>),
}

impl<'a> From<&'a Node> for NodeAt<'a> {
    fn from(node: &'a Node) -> NodeAt<'a> {
        NodeAt(At::Held(node))
    }
}

/// What a value is, its text borrowed.
pub(crate) enum Kind<'a> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    Str(&'a str),
    /// A list of this many items.
    Seq(usize),
    /// A mapping of this many entries.
    Map(usize),
}

impl<'a> From<&'a Packed> for NodeAt<'a> {
    fn from(packed: &'a Packed) -> NodeAt<'a> {
        NodeAt(At::Packed(packed.root()))
    }
}

impl<'a> NodeAt<'a> {
    /// Where the value is written.
    pub(crate) fn span(self) -> Span {
        match self.0 {
            At::Held(n) => n.span(),
            At::Packed(r) => r.look().map_or(Span::point(0), |(span, _)| span),
        }
    }

    /// What it is.
    pub(crate) fn kind(self) -> Kind<'a> {
        match self.0 {
            At::Held(n) => match &n.kind {
                NodeKind::Null => Kind::Null,
                NodeKind::Bool(b) => Kind::Bool(*b),
                NodeKind::Number(x) => Kind::Number(x.clone()),
                NodeKind::String(s) => Kind::Str(s),
                NodeKind::Seq(items) => Kind::Seq(items.len()),
                NodeKind::Map(entries) => Kind::Map(entries.len()),
            },
            At::Packed(r) => match r.look() {
                Some((_, Look::Scalar(NodeKind::Bool(b)))) => Kind::Bool(b),
                Some((_, Look::Scalar(NodeKind::Number(x)))) => Kind::Number(x),
                Some((_, Look::Str(s))) => Kind::Str(s),
                Some((_, Look::Seq(_, n))) => Kind::Seq(n),
                Some((_, Look::Map(_, n))) => Kind::Map(n),
                _ => Kind::Null,
            },
        }
    }

    /// The entries, if it is a mapping (none otherwise), in their order.
    pub(crate) fn entries(self) -> Entries<'a> {
        match self.0 {
            At::Held(n) => match &n.kind {
                NodeKind::Map(map) => match map.held_or_packed() {
                    Ok(entries) => Entries(EntriesOf::Held(entries.iter())),
                    Err((reader, left)) => Entries(EntriesOf::Packed {
                        reader,
                        left,
                        past: false,
                    }),
                },
                _ => Entries(EntriesOf::Held([].iter())),
            },
            At::Packed(r) => match r.look() {
                Some((_, Look::Map(reader, left))) => Entries(EntriesOf::Packed {
                    reader,
                    left,
                    past: false,
                }),
                _ => Entries(EntriesOf::Held([].iter())),
            },
        }
    }

    /// The items, if it is a list (none otherwise), in their order.
    pub(crate) fn items(self) -> Items<'a> {
        match self.0 {
            At::Held(n) => match &n.kind {
                NodeKind::Seq(seq) => match seq.held_or_packed() {
                    Ok(nodes) => Items(ItemsOf::Held(nodes.iter())),
                    Err((reader, left)) => Items(ItemsOf::Packed {
                        reader,
                        left,
                        past: false,
                    }),
                },
                _ => Items(ItemsOf::Held([].iter())),
            },
            At::Packed(r) => match r.look() {
                Some((_, Look::Seq(reader, left))) => Items(ItemsOf::Packed {
                    reader,
                    left,
                    past: false,
                }),
                _ => Items(ItemsOf::Held([].iter())),
            },
        }
    }

    /// The entries in the order of their keys, if it is a mapping (a parsed mapping holds
    /// each key once): packed ones put in order by where they are written, eight bytes an
    /// entry, not built.
    pub(crate) fn sorted(self) -> Sorted<'a> {
        let packed = |reader: Reader<'a>, len| {
            Sorted(SortedOf::Packed {
                reader,
                places: reader.places_by_key(len).into_iter(),
            })
        };
        match self.0 {
            At::Held(n) => match &n.kind {
                NodeKind::Map(map) => match map.held_or_packed() {
                    Ok(entries) => {
                        let mut held: Vec<&Entry> = entries.iter().collect();
                        held.sort_unstable_by(|a, b| a.key.as_str().cmp(b.key.as_str()));
                        Sorted(SortedOf::Held(held.into_iter()))
                    }
                    Err((reader, len)) => packed(reader, len),
                },
                _ => Sorted(SortedOf::Held(Vec::new().into_iter())),
            },
            At::Packed(r) => match r.look() {
                Some((_, Look::Map(reader, len))) => packed(reader, len),
                _ => Sorted(SortedOf::Held(Vec::new().into_iter())),
            },
        }
    }

    /// The entry of `key`, if it is a mapping that has it: its key's span and value.
    pub(crate) fn member(self, key: &str) -> Option<(Span, NodeAt<'a>)> {
        self.entries()
            .find(|(k, _, _)| *k == key)
            .map(|(_, span, v)| (span, v))
    }

    /// Item `i`, if it is a list that has it (packed items before it are passed over, not
    /// built).
    pub(crate) fn item(self, i: usize) -> Option<NodeAt<'a>> {
        self.items().nth(i)
    }

    /// Its JSON ([`Node::to_json`]), made without building a packed value's nodes.
    pub(crate) fn to_json(self) -> serde_json::Value {
        use serde_json::Value;
        match self.kind() {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(b),
            Kind::Number(Number::Int(i)) => Value::from(i),
            Kind::Number(Number::Float(f)) => {
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
            Kind::Str(s) => Value::String(String::from(s)),
            Kind::Seq(_) => Value::Array(self.items().map(NodeAt::to_json).collect()),
            Kind::Map(_) => Value::Object(
                self.entries()
                    .map(|(k, _, v)| (String::from(k), v.to_json()))
                    .collect(),
            ),
        }
    }
}

/// The entries of a mapping ([`NodeAt::entries`]): key, key span and value.
pub(crate) struct Entries<'a>(EntriesOf<'a>);

enum EntriesOf<'a> {
    /// Held as entries.
    Held(std::slice::Iter<'a, Entry>),
    /// Packed, `left` of them still to read; with `past`, the reader is still at the value
    /// last handed on, passed over only when the next is asked for (a lookup that finds its
    /// key does not read the whole value after it).
    Packed {
        reader: Reader<'a>,
        left: usize,
        past: bool,
    },
}

impl<'a> Iterator for Entries<'a> {
    type Item = (&'a str, Span, NodeAt<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            EntriesOf::Held(entries) => entries
                .next()
                .map(|e| (e.key.as_str(), e.key_span(), NodeAt::from(&e.value))),
            EntriesOf::Packed { reader, left, past } => {
                *left = left.checked_sub(1)?;
                if std::mem::take(past) {
                    reader.skip(0)?;
                }
                let (key, span) = reader.key()?;
                *past = true;
                Some((key, span, NodeAt(At::Packed(*reader))))
            }
        }
    }
}

/// The entries of a mapping in the order of their keys ([`NodeAt::sorted`]).
pub(crate) struct Sorted<'a>(SortedOf<'a>);

enum SortedOf<'a> {
    Held(std::vec::IntoIter<&'a Entry>),
    /// Where each packed entry is written, in order, and a reader of their bytes.
    Packed {
        reader: Reader<'a>,
        places: std::vec::IntoIter<(u32, u32)>,
    },
}

impl<'a> Iterator for Sorted<'a> {
    type Item = (&'a str, NodeAt<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            SortedOf::Held(entries) => entries
                .next()
                .map(|e| (e.key.as_str(), NodeAt::from(&e.value))),
            SortedOf::Packed { reader, places } => {
                let mut at = reader.at_place(places.next()?);
                let (key, _) = at.key()?;
                Some((key, NodeAt(At::Packed(at))))
            }
        }
    }
}

/// The items of a list ([`NodeAt::items`]).
pub(crate) struct Items<'a>(ItemsOf<'a>);

enum ItemsOf<'a> {
    /// Held as nodes.
    Held(std::slice::Iter<'a, Node>),
    /// Packed, `left` of them still to read; with `past`, as for [`Entries`].
    Packed {
        reader: Reader<'a>,
        left: usize,
        past: bool,
    },
}

impl<'a> Iterator for Items<'a> {
    type Item = NodeAt<'a>;

    fn next(&mut self) -> Option<NodeAt<'a>> {
        match &mut self.0 {
            ItemsOf::Held(nodes) => nodes.next().map(NodeAt::from),
            ItemsOf::Packed { reader, left, past } => {
                *left = left.checked_sub(1)?;
                if std::mem::take(past) {
                    reader.skip(0)?;
                }
                *past = true;
                Some(NodeAt(At::Packed(*reader)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json;

    /// A long list (packed when parsed) and a short one read alike, and reading them builds
    /// no slice: the list is still unbuilt after.
    #[test]
    fn packed_values_read_as_held_ones_without_building_the_list() {
        let items: Vec<String> = (0..300)
            .map(|i| format!(r#"{{"name": "t{i}", "n": [{i}, "x"]}}"#))
            .collect();
        let text = format!(
            r#"{{"tools": [{}], "short": [{{"name": "s"}}]}}"#,
            items.join(",")
        );
        let root = json::parse(&text, 0).root.expect("parses");
        let at = NodeAt::from(&root);
        let (_, tools) = at.member("tools").expect("tools");
        assert!(matches!(tools.kind(), Kind::Seq(300)));
        let last = tools.item(299).expect("item 299");
        assert!(
            matches!(last.0, At::Packed(_)),
            "a long list's item is read packed"
        );
        let (key, name) = last.member("name").expect("name");
        assert!(matches!(name.kind(), Kind::Str("t299")));
        assert_eq!(&text[key.start..key.end], r#""name""#);
        assert_eq!(&text[name.span().start..name.span().end], r#""t299""#);
        let (_, n) = last.member("n").expect("n");
        let kinds: Vec<String> = n
            .items()
            .map(|v| match v.kind() {
                Kind::Number(Number::Int(i)) => i.to_string(),
                Kind::Str(s) => s.to_string(),
                _ => "?".to_string(),
            })
            .collect();
        assert_eq!(kinds, ["299", "x"]);
        assert_eq!(last.to_json()["name"], "t299");
        assert!(tools.item(300).is_none());
        let (_, short) = at.member("short").expect("short");
        assert!(matches!(short.item(0).map(|i| i.0), Some(At::Held(_))));
        let NodeKind::Map(map) = &root.kind else {
            panic!("a map")
        };
        let NodeKind::Seq(seq) = &map.iter().next().expect("an entry").value.kind else {
            panic!("a list")
        };
        assert!(seq.held_or_packed().is_err(), "the list was not built");
    }

    /// Canonical JSON written from a tree read where it is, held or packed (a long mapping's
    /// keys out of order), is the bytes of its JSON written.
    #[test]
    fn canonical_json_of_packed_trees_is_that_of_their_json() {
        let keys: Vec<String> = (0..300)
            .rev()
            .map(|i| format!(r#""k{i}": [{i}, "v"]"#))
            .collect();
        let text = format!(
            r#"{{"z": 1, "many": {{{}}}, "a": [{{"b": null}}]}}"#,
            keys.join(",")
        );
        let root = json::parse(&text, 0).root.expect("parses");
        let mut expected = Vec::new();
        crate::syntax::canonical::write(&root.to_json(), &mut expected);
        let packed = crate::syntax::Packed::pack(&root);
        for at in [NodeAt::from(&root), NodeAt::from(&packed)] {
            let mut written = Vec::new();
            crate::syntax::canonical::write_at(at, &mut written);
            assert_eq!(
                String::from_utf8_lossy(&written),
                String::from_utf8_lossy(&expected)
            );
        }
    }
}
