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
    opens_as_its_kind(server, text) || by_reading(server, text)
}

/// [`claims`], the whole text read.
fn by_reading(server: bool, text: &str) -> bool {
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
    if root
        .value("packages")
        .is_some_and(|p| p.as_list().is_some())
        || root.value("remotes").is_some_and(|r| r.as_list().is_some())
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
            .any(|k| node.value(k).is_some_and(|v| v.entries().is_some()))
    };
    has_servers(root) || root.value("mcp").is_some_and(has_servers)
}

/// Whether the first member of `text`'s object says what it is: a `server.json` whose
/// `$schema` names the registry, a client configuration opening with its `mcpServers` or
/// `servers` object. Such a file is claimed whether or not the rest parses (parsed, by its
/// shape; not, by [`looks_like`], which finds the same words), so the rest is not read: the
/// claim parsed the whole file, and the load then parsed it again (a fifth of the time of a
/// 60 MB `server.json`). Anything unexpected on the way leaves it to the full reading.
fn opens_as_its_kind(server: bool, text: &str) -> bool {
    let mut rest = text.as_bytes();
    let token = |rest: &mut &[u8]| -> Option<u8> {
        skip_space(rest);
        let (&first, _) = rest.split_first()?;
        Some(first)
    };
    if token(&mut rest) != Some(b'{') {
        return false;
    }
    rest = &rest[1..];
    let Some(key) = token(&mut rest)
        .filter(|&b| b == b'"')
        .and_then(|_| string(&mut rest))
    else {
        return false;
    };
    if token(&mut rest) != Some(b':') {
        return false;
    }
    rest = &rest[1..];
    let value = token(&mut rest);
    if server {
        key == b"\"$schema\""
            && value == Some(b'"')
            && string(&mut rest).is_some_and(|v| {
                v.windows(b"modelcontextprotocol".len())
                    .any(|w| w == b"modelcontextprotocol")
            })
    } else {
        (key == b"\"mcpServers\"" || key == b"\"servers\"") && value == Some(b'{')
    }
}

/// Skip white space and comments at the start of `rest`.
fn skip_space(rest: &mut &[u8]) {
    loop {
        let start = rest.len();
        *rest = rest.trim_ascii_start();
        if let Some(after) = rest.strip_prefix(b"//") {
            let end = after
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(after.len());
            *rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix(b"/*") {
            let end = after.windows(2).position(|w| w == b"*/");
            *rest = end.map_or(&[][..], |end| &after[end + 2..]);
        }
        if rest.len() == start {
            return;
        }
    }
}

/// The string at the start of `rest` (its quotes included, escapes as written), and `rest`
/// past it; none when it does not end.
fn string<'t>(rest: &mut &'t [u8]) -> Option<&'t [u8]> {
    let text: &'t [u8] = rest;
    let mut i = 1;
    while let Some(&b) = text.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => {
                *rest = &text[i + 1..];
                return text.get(..=i);
            }
            _ => i += 1,
        }
    }
    None
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

    /// What the first member decides, reading the whole text decides the same way, parsed
    /// or not; and the usual openings are decided by it.
    #[test]
    fn the_first_member_decides_as_the_whole_text_would() {
        let schema = r#""$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json""#;
        let cases = [
            (true, format!("{{{schema}, \"name\": \"a/b\"}}"), true),
            (
                true,
                format!(" // c\n/* d */ {{ /**/ {schema} , \"name\": \"a/b\"}}"),
                true,
            ),
            (true, format!("{{{schema}, \"name\": broken"), true),
            (true, format!("{{{schema}, \"$schema\": \"x\"}}"), true),
            (
                true,
                r#"{"$schema": "https://x/model\u0063ontextprotocol"}"#.into(),
                false,
            ),
            (
                true,
                r#"{"$schema": "https://json.schemastore.org/x", "name": "a"}"#.into(),
                false,
            ),
            (
                true,
                r#"{"name": "a/b", "$schema": "modelcontextprotocol"}"#.into(),
                false,
            ),
            (
                true,
                r#"{"$schema": "unterminated modelcontextprotocol"#.into(),
                false,
            ),
            (
                false,
                r#"{"mcpServers": {"a": {"command": "x"}}}"#.into(),
                true,
            ),
            (
                false,
                "{\n  // servers\n  \"servers\": {}, \"inputs\": [}".into(),
                true,
            ),
            (
                false,
                r#"{"mcpServers": {"a": {}}, "mcpServers": 1}"#.into(),
                true,
            ),
            (false, r#"{"mcpServers": [1]}"#.into(), false),
            (false, r#"{"mcp\u0053ervers": {}}"#.into(), false),
            (false, r#"{"mcp": {"servers": {}}}"#.into(), false),
            (false, r#"{"port": 1, "mcpServers": {}}"#.into(), false),
            (false, "\u{feff}{\"mcpServers\": {}}".into(), false),
            (false, "{\"servers\" /* unterminated".into(), false),
        ];
        for (server, text, first) in cases {
            assert_eq!(opens_as_its_kind(server, &text), first, "{text}");
            if first {
                assert!(by_reading(server, &text), "read whole, not claimed: {text}");
            }
        }
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
