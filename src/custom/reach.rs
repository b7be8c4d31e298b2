//! What of a subject a custom rule can read, worked out from its `given`, its `then` fields
//! and its message: a tool's view is made only that far, and so is a subject's JSON, built
//! only for a `given` the JSONPath engine runs (the walk reads trees). A rule whose `given`
//! starts with a key (`$.parameters…`) reads that key; `$` with fields reads their first
//! keys; a descendant name (`$..description`) reads only the parts that hold such a key;
//! anything else (`$.*`, `$[0]`, a filter, a `then` on the whole document) reads everything.

use serde_json::{Map, Value};

use super::given::{names_bracketed, shorthand};
use super::parts::{Part, Then};
use super::val::{JSON_ENTRY, JSON_MAP, Val};
use crate::syntax::{Kind, Node, NodeAt};

/// The part of a subject some rules read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// Everything.
    pub all: bool,
    /// Keys of the subject's top level read with all they hold.
    pub keys: Vec<String>,
    /// Keys a descendant selector looks for at any depth.
    pub anywhere: Vec<String>,
    /// A `given` the JSONPath engine runs (not the walk): the subject's JSON is built.
    pub engine: bool,
}

/// The first segment of a JSONPath, as far as reach is concerned.
enum First {
    /// `$` alone.
    Root,
    /// `$.name`, `$['name']` or `$['name', 'other']`.
    Keys(Vec<String>),
    /// `$..name`, `$..['name']` or `$..['name', 'other']`.
    Descendants(Vec<String>),
    /// Anything else.
    Other,
}

fn first_segment(given: &str) -> First {
    let Some(rest) = given.trim().strip_prefix('$') else {
        return First::Other;
    };
    let rest = rest.trim_start();
    if rest.is_empty() {
        return First::Root;
    }
    if let Some(after) = rest.strip_prefix("..") {
        return match shorthand(after).map(|(n, _)| vec![n]) {
            Some(names) => First::Descendants(names),
            None => names_bracketed(after).map_or(First::Other, First::Descendants),
        };
    }
    if let Some(after) = rest.strip_prefix('.') {
        return shorthand(after).map_or(First::Other, |(n, _)| First::Keys(vec![n]));
    }
    names_bracketed(rest).map_or(First::Other, First::Keys)
}

impl Reach {
    /// What a rule with `given` (as written, `engine` when the JSONPath engine runs it),
    /// `thens` and `message` can read.
    pub(crate) fn of_rule(given: &str, engine: bool, thens: &[Then], message: &[Part]) -> Reach {
        let mut reach = Reach {
            engine,
            ..Reach::default()
        };
        match first_segment(given) {
            First::Keys(keys) => reach.keys.extend(keys),
            First::Descendants(names) => reach.anywhere.extend(names),
            First::Other => reach.all = true,
            First::Root => {
                let fields = thens.iter().map(|t| t.field.as_deref());
                let placeholders = message.iter().filter_map(|p| match p {
                    Part::Field(path) => Some(Some(path.as_slice())),
                    Part::Text(_) => None,
                });
                for field in fields.chain(placeholders) {
                    match field.and_then(|f| f.first()) {
                        Some(key) => reach.keys.push(key.clone()),
                        // A `then` on the whole document reads all of it.
                        None => reach.all = true,
                    }
                }
            }
        }
        reach
    }

    /// `self` grown by what `other` reads.
    pub(crate) fn add(&mut self, other: &Reach) {
        self.all |= other.all;
        self.engine |= other.engine;
        for key in &other.keys {
            if !self.keys.contains(key) {
                self.keys.push(key.clone());
            }
        }
        for name in &other.anywhere {
            if !self.anywhere.contains(name) {
                self.anywhere.push(name.clone());
            }
        }
    }

    /// True when the top-level `key` must be there with all it holds.
    pub(crate) fn whole(&self, key: &str) -> bool {
        self.all || self.keys.iter().any(|k| k == key) || self.anywhere.iter().any(|k| k == key)
    }

    /// True when the top-level `key`, whose value may hold maps with keys of any name, must
    /// be built (its value then has all it holds: such a value is small next to a file).
    pub(crate) fn open(&self, key: &str) -> bool {
        self.whole(key) || !self.anywhere.is_empty()
    }

    /// True when the top-level `key`, whose value holds maps with only the keys `fixed`
    /// (and, with `more`, keys of any name), must be built.
    pub(crate) fn fixed(&self, key: &str, fixed: &[&str], more: bool) -> bool {
        self.whole(key)
            || (!self.anywhere.is_empty() && more)
            || self.anywhere.iter().any(|k| fixed.contains(&k.as_str()))
    }

    /// The JSON of `node` (a subject's root) as far as these rules read it.
    pub(crate) fn json(&self, node: &Node) -> Value {
        if self.all {
            return node.to_json();
        }
        let node = NodeAt::from(node);
        match node.kind() {
            Kind::Map(_) => {
                let mut out = Map::new();
                for (key, _, value) in node.entries() {
                    if self.whole(key) {
                        out.insert(String::from(key), value.to_json());
                    } else if let Some(v) = self.deep(value) {
                        out.insert(String::from(key), v);
                    }
                }
                Value::Object(out)
            }
            _ => self.deep(node).unwrap_or(Value::Null),
        }
    }

    /// About the bytes [`Reach::json`] of `node` takes, counted no further than past
    /// `limit`: a value these rules read only in part counted whole.
    pub(crate) fn json_bytes_within(&self, node: &Node, limit: u64) -> u64 {
        let node = NodeAt::from(node);
        match node.kind() {
            Kind::Map(_) if !self.all && self.anywhere.is_empty() => {
                let mut total = JSON_MAP;
                for (key, _, value) in node.entries().filter(|(k, _, _)| self.whole(k)) {
                    let value = Val::Tree(value).json_bytes_within(limit);
                    let entry = JSON_ENTRY + key.len() as u64;
                    total = total.saturating_add(entry.saturating_add(value));
                    if total > limit {
                        break;
                    }
                }
                total
            }
            _ => Val::Tree(node).json_bytes_within(limit),
        }
    }

    /// The parts of `node` that hold a key of `anywhere`: `None` when none does. The items
    /// of a list stay at their indexes (an item without such a key is `null`), so the place
    /// of a node selected in it is its place in the file.
    fn deep(&self, node: NodeAt<'_>) -> Option<Value> {
        if self.anywhere.is_empty() {
            return None;
        }
        match node.kind() {
            Kind::Map(_) => {
                let mut out = Map::new();
                for (key, _, value) in node.entries() {
                    if self.anywhere.iter().any(|a| a == key) {
                        out.insert(String::from(key), value.to_json());
                    } else if let Some(v) = self.deep(value) {
                        out.insert(String::from(key), v);
                    }
                }
                (!out.is_empty()).then_some(Value::Object(out))
            }
            Kind::Seq(_) => {
                let built: Vec<Option<Value>> = node.items().map(|i| self.deep(i)).collect();
                built.iter().any(Option::is_some).then(|| {
                    Value::Array(built.into_iter().map(Option::unwrap_or_default).collect())
                })
            }
            _ => None,
        }
    }
}
