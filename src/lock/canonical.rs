//! A tool's canonical definition: its IR without where it came from, as JSON with sorted keys
//! and no whitespace, so that reformatting a file or reordering its keys changes nothing.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::ir::Tool;
use crate::syntax::{Entry, Node, NodeKind};
use crate::text::{hex, sha256_hex};

/// The definition of `tool`: name, title, version, description, schemas, how it runs, risk,
/// guidance and tags, plus the hash of a DojOps system prompt (a model-visible text the IR
/// keeps only as a hash) and its run settings (timeout, permissions, …).
pub(crate) fn definition(tool: &Tool) -> Value {
    let mut value = serde_json::to_value(tool).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.remove("provenance");
        if let Some(hash) = &tool.provenance.system_prompt_hash {
            map.insert("system_prompt_sha256".into(), Value::String(hash.clone()));
        }
        // Not in the bundles, but what runs: a timeout, a permission.
        if !tool.settings.is_empty() {
            let settings = tool
                .settings
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            map.insert("settings".into(), Value::Object(settings));
        }
    }
    value
}

/// The definition without its name: what two tools share when one is the other renamed.
pub(crate) fn without_name(tool: &Tool) -> Value {
    let mut value = definition(tool);
    if let Value::Object(map) = &mut value {
        map.remove("name");
    }
    value
}

/// `value` as canonical JSON: object keys sorted, no insignificant whitespace.
pub(crate) fn bytes(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write(value, &mut out);
    out
}

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
/// packed list an item at a time: a key written twice keeps its last value, as in JSON.
fn write_node(node: &Node, out: &mut impl Sink) {
    match &node.kind {
        NodeKind::Map(entries) => write_entries(entries.iter().collect(), out),
        NodeKind::Seq(items) => {
            out.put(b"[");
            for (i, item) in items.scan().enumerate() {
                if i > 0 {
                    out.put(b",");
                }
                write_node(&item, out);
            }
            out.put(b"]");
        }
        _ => write(&node.to_json(), out),
    }
}

/// Writes `entries` as a canonical JSON object.
fn write_entries(mut entries: Vec<&Entry>, out: &mut impl Sink) {
    // Stable: of equal keys, the last written stays last, and is the one kept.
    entries.sort_by(|a, b| a.key.cmp(&b.key));
    out.put(b"{");
    let mut first = true;
    for (i, e) in entries.iter().enumerate() {
        if entries.get(i + 1).is_some_and(|next| next.key == e.key) {
            continue;
        }
        if !first {
            out.put(b",");
        }
        first = false;
        key(&e.key, out);
        write_node(&e.value, out);
    }
    out.put(b"}");
}

/// [`node_digest`] of a mapping of `entries`.
pub(crate) fn entries_digest(entries: Vec<&Entry>) -> Value {
    let mut hash = Sha256::new();
    write_entries(entries, &mut hash);
    Value::String(format!("sha256:{}", hex(&hash.finalize())))
}

/// `sha256:` and the hex SHA-256 of the canonical JSON of `node`, hashed as it is read: what
/// a record holds of a value too large to hold as JSON.
pub(crate) fn node_digest(node: &Node) -> Value {
    let mut hash = Sha256::new();
    write_node(node, &mut hash);
    Value::String(format!("sha256:{}", hex(&hash.finalize())))
}

/// SHA-256 (hex) of the canonical bytes of `value`.
pub(crate) fn sha256(value: &Value) -> String {
    sha256_hex(&bytes(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter() {
        let a = json!({"b": 1, "a": {"y": [1, 2], "x": "s"}});
        let b = json!({"a": {"x": "s", "y": [1, 2]}, "b": 1});
        assert_eq!(bytes(&a), bytes(&b));
        assert_eq!(bytes(&a), br#"{"a":{"x":"s","y":[1,2]},"b":1}"#.to_vec());
        assert_ne!(sha256(&a), sha256(&json!({"b": 2})));
    }

    /// A node hashed as it is read hashes the bytes of its JSON, packed lists, a repeated key
    /// (the last one counts) and every kind of scalar included.
    #[test]
    fn a_node_is_hashed_as_its_json() {
        let many = vec![r#"{"b":[1,"x"],"a":null}"#; 300].join(",");
        for text in [
            r#"{"b":1,"a":{"y":[1,2.5,true],"x":"s\u00e9\n"},"b":2}"#.to_string(),
            format!(r#"{{"list":[{many}],"n":-3,"f":1e300}}"#),
            "[]".to_string(),
            "{}".to_string(),
        ] {
            let root = crate::syntax::json::parse(&text, 0).root.expect("parsed");
            let direct = Value::String(format!("sha256:{}", sha256(&root.to_json())));
            assert_eq!(node_digest(&root), direct, "{text}");
        }
    }
}
