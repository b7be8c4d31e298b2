//! Which `tools.json` files are agentcli manifests: thousands of repositories have a root
//! `tools.json` of another kind (an MCP tool list, a documentation server's configuration).

use serde_json::Value;

use crate::syntax::sniff::json_value;

/// True when `text` has a manifest's shape: an object whose `tools` is a list with at least
/// one object whose `command` is a list (keys matched case-insensitively, as agentcli's
/// decoder does), or such a list on its own — a manifest missing its `{"tools": ...}`
/// wrapper, which agentcli refuses whole and toolc must say so. Text that is not valid JSON is
/// a manifest when it names both keys, so a manifest broken by a stray comma is still reported.
pub fn is_manifest(text: &str) -> bool {
    let Some(root) = json_value(text) else {
        return text.contains("\"tools\"") && text.contains("\"command\"");
    };
    let tools = match &root {
        Value::Array(bare) => bare,
        _ => match field(&root, "tools") {
            Some(Value::Array(tools)) => tools,
            _ => return false,
        },
    };
    tools
        .iter()
        .any(|tool| matches!(field(tool, "command"), Some(Value::Array(_))))
}

/// The value of `key` in `value` when it is an object; Go's decoder matches keys ignoring case
/// and the last match wins.
fn field<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    let Value::Object(map) = value else {
        return None;
    };
    map.iter()
        .rev()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::is_manifest;

    #[test]
    fn manifests_and_other_tools_json() {
        assert!(is_manifest(
            r#"{"tools": [{"name": "a", "command": ["./tools/bin/a"]}]}"#
        ));
        assert!(is_manifest(r#"{"Tools": [{"Command": []}, 3]}"#));
        // Broken JSON that names both keys is still read, and reported.
        assert!(is_manifest(r#"{"tools": [{"command": ["x"],}]}"#));
        // An MCP tool list, a doc server's configuration, an empty object.
        assert!(!is_manifest(
            r#"[{"name": "getTopStories", "arguments": []}]"#
        ));
        assert!(!is_manifest(
            r#"{"tools": [{"name": "q", "title": "Q", "docType": "x"}]}"#
        ));
        assert!(!is_manifest("{}"));
        // The tool list without its wrapper: agentcli fails on it, so toolc reads it.
        assert!(is_manifest(
            r#"[{"name": "a", "command": ["./tools/bin/a"]}]"#
        ));
        assert!(!is_manifest(""));
        assert!(!is_manifest(r#"{"tools": [{"command": "./run"}]}"#));
    }
}
