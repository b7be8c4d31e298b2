//! Whether a file at an MCP path is an MCP file. `server.json` and `mcp.json` are names other
//! tools use too (JSON Server, editor plugins, application configs), so a file is claimed
//! only when its content has the shape: a file without it is not ours and gets no finding.

use crate::analysis::names::did_you_mean;
use crate::syntax::{Node, json};

/// Keys only a `server.json` has, together.
const SERVER_JSON_KEYS: &[&str] = &[
    "$schema",
    "_meta",
    "name",
    "description",
    "title",
    "version",
    "websiteUrl",
    "repository",
    "icons",
    "packages",
    "remotes",
    // Older schema versions.
    "website_url",
    "status",
];

/// Whether `text` is an MCP file of its kind (`server`: a `server.json`, else a client
/// configuration): read leniently, with comments and trailing commas as the clients allow,
/// then judged by its shape; text that does not parse, by what it names.
pub(super) fn claims(server: bool, text: &str) -> bool {
    let parsed = json::parse_jsonc(text, 0);
    match &parsed.root {
        Some(root) if parsed.errors.is_empty() => {
            if server {
                is_server_json(root)
            } else {
                is_client_config(root)
            }
        }
        _ => looks_like(text, server),
    }
}

/// A `server.json`: its `$schema` is the registry's, or it lists `packages` or `remotes`,
/// or every key is a server.json key (or a misspelling of one) and the file names,
/// describes or versions a server.
pub(super) fn is_server_json(root: &Node) -> bool {
    let Some(entries) = root.as_map() else {
        return false;
    };
    if let Some(schema) = root.value("$schema").and_then(Node::as_str) {
        return is_registry_schema(schema);
    }
    if root.value("packages").is_some_and(|p| p.as_seq().is_some())
        || root.value("remotes").is_some_and(|r| r.as_seq().is_some())
    {
        return true;
    }
    let server_like = entries.iter().all(|e| {
        SERVER_JSON_KEYS.contains(&e.key.as_str())
            || did_you_mean(&e.key, SERVER_JSON_KEYS.iter().copied()).is_some()
    });
    let describes = ["name", "description", "version"]
        .iter()
        .any(|k| root.get(k).is_some());
    server_like && describes
}

/// A client configuration: a `mcpServers` or `servers` object at the root (or under `mcp`,
/// as VS Code's settings.json nests it).
pub(super) fn is_client_config(root: &Node) -> bool {
    let has_servers = |node: &Node| {
        ["mcpServers", "servers"]
            .iter()
            .any(|k| node.value(k).is_some_and(|v| v.as_map().is_some()))
    };
    has_servers(root) || root.value("mcp").is_some_and(has_servers)
}

/// A file that does not parse is claimed when its text names what only MCP files name.
pub(super) fn looks_like(text: &str, server: bool) -> bool {
    if server {
        text.contains("modelcontextprotocol")
    } else {
        text.contains("\"mcpServers\"") || text.contains("\"servers\"")
    }
}

/// The registry's server.json schema, any version or copy of it.
fn is_registry_schema(url: &str) -> bool {
    url.contains("modelcontextprotocol") || url.ends_with("server.schema.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(text: &str) -> Node {
        json::parse(text, 0).root.expect("JSON")
    }

    #[test]
    fn server_json_by_shape() {
        assert!(is_server_json(&root(
            r#"{"description": "x", "version": "1.0.0"}"#
        )));
        assert!(is_server_json(&root(r#"{"name": "a/b", "verison": "1"}"#)));
        assert!(is_server_json(&root(r#"{"packages": []}"#)));
        assert!(!is_server_json(&root(
            r#"{"port": 3000, "host": "0.0.0.0"}"#
        )));
        assert!(!is_server_json(&root(r#"{"name": "app", "port": 3000}"#)));
        assert!(!is_server_json(&root(
            r#"{"$schema": "https://json.schemastore.org/x"}"#
        )));
        assert!(!is_server_json(&root("[1, 2]")));
    }

    #[test]
    fn client_config_by_shape() {
        assert!(is_client_config(&root(r#"{"mcpServers": {}}"#)));
        assert!(is_client_config(&root(r#"{"servers": {}, "inputs": []}"#)));
        assert!(is_client_config(&root(r#"{"mcp": {"servers": {}}}"#)));
        assert!(!is_client_config(&root(r#"{"servers": ["a"]}"#)));
        assert!(!is_client_config(&root(r#"{"name": "x"}"#)));
    }
}
