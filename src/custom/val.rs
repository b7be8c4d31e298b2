//! A value a custom rule reads, wherever it is held: JSON, a file's syntax tree, or the
//! fields of a tool's view (some JSON made from the IR, some the trees its load parsed).
//! The rules walk trees as they are: turning each tool's schema and each file's tree into
//! JSON, and dropping it, was most of what the rules cost (docs/performance.md).

use serde_json::{Map, Value};

use super::given::Step;
use crate::syntax::{Kind, Node, NodeAt};

/// Bytes of a `serde_json::Value`'s slot.
const JSON_SLOT: u64 = 32;
/// Bytes of a JSON map's first node, however few entries it holds (a tree map's node has
/// room for eleven).
pub(crate) const JSON_MAP: u64 = 640;
/// Bytes of each entry of a JSON map, beyond its key's text.
pub(crate) const JSON_ENTRY: u64 = 64;

/// A field of a tool's view.
pub(crate) enum Field<'a> {
    /// Made from the IR.
    Json(Value),
    /// A tree its load holds (a DojOps schema), or packed (read where it is).
    Tree(NodeAt<'a>),
    /// A tree read again for the rule (a schema unpacked, or read from its text).
    Owned(Node),
}

/// A value as a rule reads it: its members and items are values too, and its JSON is the
/// JSON the rule would have read.
#[derive(Clone, Copy)]
pub(crate) enum Val<'v> {
    /// JSON.
    Json(&'v Value),
    /// A syntax tree (a packed list's items read where they are): its JSON is
    /// [`Node::to_json`].
    Tree(NodeAt<'v>),
    /// A tool's view: a map of these fields, sorted by key (as a JSON map is).
    Fields(&'v [(&'static str, Field<'v>)]),
}

/// How a value looks to a function, without building it.
pub(crate) enum Peek<'v> {
    /// A string.
    Str(&'v str),
    /// A list of this many items.
    List(usize),
    /// A map of this many entries.
    Map(usize),
    /// `null`, a boolean or a number.
    Scalar(Value),
}

/// One step from a value to a member or item, with the key borrowed.
#[derive(Clone, Copy)]
pub(crate) enum Edge<'t> {
    /// A key of a map.
    Key(&'t str),
    /// An index of a list.
    Index(usize),
}

/// The way from a subject's root to a value, held on the walk's stack: a node that passes
/// (most) costs no allocation for its place.
pub(crate) struct Trail<'t> {
    up: Option<&'t Trail<'t>>,
    edge: Option<Edge<'t>>,
}

impl<'t> Trail<'t> {
    /// The root itself.
    pub(crate) const ROOT: Trail<'static> = Trail {
        up: None,
        edge: None,
    };

    /// One step further.
    pub(crate) fn then(&'t self, edge: Edge<'t>) -> Trail<'t> {
        Trail {
            up: Some(self),
            edge: Some(edge),
        }
    }

    /// The steps from the root.
    pub(crate) fn steps(&self) -> Vec<Step> {
        let mut out = Vec::new();
        let mut at = Some(self);
        while let Some(t) = at {
            match t.edge {
                Some(Edge::Key(k)) => out.push(Step::Key(k.to_string())),
                Some(Edge::Index(i)) => out.push(Step::Index(i)),
                None => {}
            }
            at = t.up;
        }
        out.reverse();
        out
    }
}

/// The JSON of a field.
fn field_val<'v>(field: &'v Field<'_>) -> Val<'v> {
    match field {
        Field::Json(v) => Val::Json(v),
        Field::Tree(n) => Val::Tree(*n),
        Field::Owned(n) => Val::Tree(NodeAt::from(n)),
    }
}

impl<'v> Val<'v> {
    /// The member `key`, if this is a map that has it.
    pub(crate) fn get(self, key: &str) -> Option<Val<'v>> {
        match self {
            Val::Json(v) => v.as_object()?.get(key).map(Val::Json),
            Val::Tree(n) => n.member(key).map(|(_, v)| Val::Tree(v)),
            Val::Fields(fields) => fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, f)| field_val(f)),
        }
    }

    /// The items, if this is a list, as many as there are.
    pub(crate) fn len_of_list(self) -> Option<usize> {
        match self {
            Val::Json(Value::Array(items)) => Some(items.len()),
            Val::Tree(n) => match n.kind() {
                Kind::Seq(len) => Some(len),
                _ => None,
            },
            _ => None,
        }
    }

    /// Item `i`, if this is a list that has it.
    pub(crate) fn item(self, i: usize) -> Option<Val<'v>> {
        match self {
            Val::Json(v) => v.as_array()?.get(i).map(Val::Json),
            Val::Tree(n) => n.item(i).map(Val::Tree),
            Val::Fields(_) => None,
        }
    }

    /// Call `each` on the members and items, in the order of the value's JSON (a tree's map
    /// in its own order: the findings are sorted after), until it says stop (true).
    pub(crate) fn children(self, each: &mut dyn FnMut(Edge<'v>, Val<'v>) -> bool) -> bool {
        match self {
            Val::Json(Value::Object(map)) => map
                .iter()
                .any(|(k, v)| each(Edge::Key(k.as_str()), Val::Json(v))),
            Val::Json(Value::Array(items)) => items
                .iter()
                .enumerate()
                .any(|(i, v)| each(Edge::Index(i), Val::Json(v))),
            Val::Json(_) => false,
            Val::Tree(n) => match n.kind() {
                Kind::Map(_) => n
                    .entries()
                    .any(|(k, _, v)| each(Edge::Key(k), Val::Tree(v))),
                Kind::Seq(_) => n
                    .items()
                    .enumerate()
                    .any(|(i, v)| each(Edge::Index(i), Val::Tree(v))),
                _ => false,
            },
            Val::Fields(fields) => fields.iter().any(|(k, f)| each(Edge::Key(k), field_val(f))),
        }
    }

    /// Its nodes (itself, and its members and items at any depth), counted no further than
    /// `limit + 1`: what a function that reads it whole reads, known for at most the cost
    /// of what may still be read. A packed list is counted as it is read, never unpacked.
    pub(crate) fn size_within(self, limit: u64) -> u64 {
        fn any(v: Val<'_>, count: &mut u64, limit: u64) -> bool {
            *count += 1;
            *count > limit || v.children(&mut |_, child| any(child, count, limit))
        }
        let mut count = 0;
        any(self, &mut count, limit);
        count
    }

    /// About the bytes a `serde_json::Value` of it takes, counted no further than past
    /// `limit`: a value's slot, a string's bytes, and a map's tree (whose first node has room
    /// for eleven entries however few it holds) with its keys.
    pub(crate) fn json_bytes_within(self, limit: u64) -> u64 {
        fn any(v: Val<'_>, total: &mut u64, limit: u64) -> bool {
            let own = match v.peek() {
                Peek::Str(s) => s.len() as u64,
                Peek::Map(n) => JSON_MAP + JSON_ENTRY * n as u64,
                Peek::List(_) | Peek::Scalar(_) => 0,
            };
            *total = total.saturating_add(JSON_SLOT + own);
            *total > limit
                || v.children(&mut |edge, child| {
                    if let Edge::Key(k) = edge {
                        *total = total.saturating_add(k.len() as u64);
                    }
                    any(child, total, limit)
                })
        }
        let mut total = 0;
        any(self, &mut total, limit);
        total
    }

    /// What it is, as far as a function asks.
    pub(crate) fn peek(self) -> Peek<'v> {
        match self {
            Val::Json(Value::String(s)) => Peek::Str(s),
            Val::Json(Value::Array(items)) => Peek::List(items.len()),
            Val::Json(Value::Object(map)) => Peek::Map(map.len()),
            Val::Json(other) => Peek::Scalar(other.clone()),
            Val::Tree(n) => match n.kind() {
                Kind::Str(s) => Peek::Str(s),
                Kind::Seq(len) => Peek::List(len),
                Kind::Map(len) => Peek::Map(len),
                Kind::Null | Kind::Bool(_) | Kind::Number(_) => Peek::Scalar(n.to_json()),
            },
            Val::Fields(fields) => Peek::Map(fields.len()),
        }
    }

    /// The string, if this is one.
    pub(crate) fn as_str(self) -> Option<&'v str> {
        match self.peek() {
            Peek::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Its JSON (built, unless it is JSON).
    pub(crate) fn to_json(self) -> std::borrow::Cow<'v, Value> {
        use std::borrow::Cow;
        match self {
            Val::Json(v) => Cow::Borrowed(v),
            Val::Tree(n) => Cow::Owned(n.to_json()),
            Val::Fields(fields) => Cow::Owned(Value::Object(
                fields
                    .iter()
                    .map(|(k, f)| (String::from(*k), field_val(f).to_json().into_owned()))
                    .collect(),
            )),
        }
    }

    /// Its JSON with every member and item `null`: all a JSON Schema that reads only the
    /// value's own type, keys and size needs (`Function::Schema`).
    pub(crate) fn shallow_json(self) -> std::borrow::Cow<'v, Value> {
        use std::borrow::Cow;
        let keys = |keys: &mut dyn Iterator<Item = &str>| {
            Value::Object(
                keys.map(|k| (String::from(k), Value::Null))
                    .collect::<Map<_, _>>(),
            )
        };
        match self {
            Val::Json(_) => self.to_json(),
            Val::Tree(n) => match n.kind() {
                Kind::Map(_) => Cow::Owned(keys(&mut n.entries().map(|(k, _, _)| k))),
                Kind::Seq(len) => Cow::Owned(Value::Array(vec![Value::Null; len])),
                _ => self.to_json(),
            },
            Val::Fields(fields) => Cow::Owned(keys(&mut fields.iter().map(|(k, _)| *k))),
        }
    }
}
