//! A tool's canonical definition: its IR without where it came from, as JSON with sorted keys
//! and no whitespace, so that reformatting a file or reordering its keys changes nothing.

use serde_json::Value;

use crate::ir::Tool;
use crate::text::sha256_hex;

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

fn write(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            // Sorted here, whatever order the map keeps (serde_json's `preserve_order`).
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend(Value::String(k.clone()).to_string().into_bytes());
                out.push(b':');
                write(v, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(v, out);
            }
            out.push(b']');
        }
        scalar => out.extend(scalar.to_string().into_bytes()),
    }
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
}
