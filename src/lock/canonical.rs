//! A tool's canonical definition: its IR without where it came from, as JSON with sorted keys
//! and no whitespace, so that reformatting a file or reordering its keys changes nothing.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::ir::Tool;
use crate::syntax::canonical::{write, write_node, write_sorted};
use crate::syntax::{Entry, Node};
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

/// `value` as canonical JSON: object keys sorted, no insignificant whitespace.
pub(crate) fn bytes(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write(value, &mut out);
    out
}

/// [`node_digest`] of a mapping of `entries`, given in the order of their keys, each key
/// once.
pub(crate) fn sorted_entries_digest<E: std::ops::Deref<Target = Entry>>(
    entries: impl Iterator<Item = E>,
) -> Value {
    let mut hash = Sha256::new();
    write_sorted(entries, &mut hash);
    sealed(hash)
}

/// `sha256:` and the hex SHA-256 of the canonical JSON of `node`, hashed as it is read: what
/// a record holds of a value too large to hold as JSON.
pub(crate) fn node_digest(node: &Node) -> Value {
    let mut hash = Sha256::new();
    write_node(node, &mut hash);
    sealed(hash)
}

/// [`node_digest`] of a list of the strings `items`, hashed as they come.
pub(crate) fn strings_digest<S: AsRef<str>>(items: impl Iterator<Item = S>) -> Value {
    let mut hash = Sha256::new();
    hash.update(b"[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            hash.update(b",");
        }
        hash.update(
            Value::String(item.as_ref().to_string())
                .to_string()
                .as_bytes(),
        );
    }
    hash.update(b"]");
    sealed(hash)
}

/// `sha256:` and the hex of what `hash` was fed: how a hashed value is recorded.
fn sealed(hash: Sha256) -> Value {
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
