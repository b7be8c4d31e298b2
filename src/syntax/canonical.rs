//! Canonical JSON of values and trees: object keys sorted, no insignificant whitespace, so
//! reformatting a file or reordering its keys changes nothing. Written to a [`Sink`], a
//! buffer or a hash fed as it is written, so a large tree is hashed without its JSON held.

use serde_json::Value;
use sha2::{Digest as _, Sha256};

use super::{Entry, Kind, Node, NodeAt};

/// Where canonical JSON goes: a buffer, or a hash fed as it is written (a large value is
/// hashed without its text or its JSON being held whole).
pub(crate) trait Sink {
    /// Append `bytes`.
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl Sink for Sha256 {
    fn put(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

/// Writes `value` as canonical JSON.
pub(crate) fn write(value: &Value, out: &mut impl Sink) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            // Sorted here, whatever order the map keeps (serde_json's `preserve_order`).
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.put(b"{");
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.put(b",");
                }
                key(k, out);
                write(v, out);
            }
            out.put(b"}");
        }
        Value::Array(items) => {
            out.put(b"[");
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.put(b",");
                }
                write(v, out);
            }
            out.put(b"]");
        }
        scalar => out.put(scalar.to_string().as_bytes()),
    }
}

/// Writes `name` as an object's key and its colon.
pub(crate) fn key(name: &str, out: &mut impl Sink) {
    out.put(Value::String(name.to_string()).to_string().as_bytes());
    out.put(b":");
}

/// Writes `node` as canonical JSON, the same bytes as [`write`] of its JSON, reading a
/// packed list or mapping an item at a time (a parsed mapping holds each key once).
pub(crate) fn write_node(node: &Node, out: &mut impl Sink) {
    write_at(NodeAt::from(node), out);
}

/// [`write_node`] of a tree read where it is: a packed tree is not unpacked (a schema of
/// 60,000 parameters unpacked to be written took five times its text).
pub(crate) fn write_at(node: NodeAt<'_>, out: &mut impl Sink) {
    match node.kind() {
        Kind::Map(_) => {
            out.put(b"{");
            for (i, (k, v)) in node.sorted().enumerate() {
                if i > 0 {
                    out.put(b",");
                }
                key(k, out);
                write_at(v, out);
            }
            out.put(b"}");
        }
        Kind::Seq(_) => {
            out.put(b"[");
            for (i, item) in node.items().enumerate() {
                if i > 0 {
                    out.put(b",");
                }
                write_at(item, out);
            }
            out.put(b"]");
        }
        _ => write(&node.to_json(), out),
    }
}

/// Writes `entries`, already in the order of their keys and each key once, as a canonical
/// JSON object: a long mapping read one entry at a time ([`super::Map::sorted`]).
pub(crate) fn write_sorted<E: std::ops::Deref<Target = Entry>>(
    entries: impl Iterator<Item = E>,
    out: &mut impl Sink,
) {
    out.put(b"{");
    for (i, e) in entries.enumerate() {
        if i > 0 {
            out.put(b",");
        }
        key(&e.key, out);
        write_node(&e.value, out);
    }
    out.put(b"}");
}
