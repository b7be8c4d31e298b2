//! MCP client configurations: the root (which key lists the servers), VS Code's `inputs`,
//! and the checks across servers (names that collide, inputs nobody uses). Each server is
//! checked in `servers`.

use std::sync::Arc;

use super::refs::{Input, Inputs, Repeat};
use super::{SHAPE, servers};
use crate::diagnostics::Diagnostic;
use crate::formats::fields::{ItemPaths, Lowerer, MapRef, Site, rename_key};
use crate::rules::mcp as rules;
use crate::runtimes::mcp_clients::{Client, Expansion};
use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Node};

const INPUT_KEYS: &[&str] = &[
    "type",
    "id",
    "description",
    "password",
    "default",
    "options",
    "command",
    "args",
];

const INPUT_TYPES: &[&str] = &["promptString", "pickString", "command"];

/// What a lowered client configuration holds.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(super) struct ClientConfig {
    /// What the security pass reads (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
}

/// Check a client configuration whose root is `root`.
pub(super) fn check(
    file: &Arc<SourceFile>,
    root: &Node,
    client: Client,
) -> (ClientConfig, Vec<Diagnostic>) {
    let mut lw = Lowerer::new(file, &SHAPE);
    let out = ClientConfig::default();
    let brace = Span::new(root.span().start, root.span().start + 1);
    let Some(map) = lw.as_map(root, brace, "") else {
        return (out, lw.diags.into_vec());
    };
    let Some(servers_entry) = servers_key(&mut lw, map, client) else {
        return (out, lw.diags.into_vec());
    };
    if let Some(others) = client.other_top_keys() {
        let mut known = vec![servers_entry.key.as_str()];
        if map.node.get(&servers_entry.key).is_none() {
            // Nested under `mcp`: MCP017 already says so.
            known.push("mcp");
        }
        known.extend_from_slice(others);
        lw.unknown_keys_at(
            map,
            &known,
            Site::rule(&rules::UNKNOWN_KEY).note(&format!(
                "{} ignores top-level keys it does not know",
                client.name()
            )),
        );
    }
    let mut inputs = match (client.expansion(), map.node.get("inputs")) {
        (Expansion::Editor { inputs: true, .. } | Expansion::Unchecked, Some(entry)) => {
            inputs_of(&mut lw, entry)
        }
        _ => Inputs::new(),
    };
    let path = servers_entry.key.clone();
    let Some(servers_map) = lw.as_map(&servers_entry.value, servers_entry.key_span(), &path) else {
        return (out, lw.diags.into_vec());
    };
    let entries = servers_map.node.as_map().unwrap_or_default();
    for entry in entries {
        servers::check(&mut lw, client, &path, entry, &mut inputs);
    }
    same_names(&mut lw, entries);
    if matches!(client.expansion(), Expansion::Editor { inputs: true, .. }) {
        unused(&mut lw, &inputs.list);
    }
    (out, lw.diags.into_vec())
}

/// The entry that lists the servers; MCP017 when it is the key another client reads.
fn servers_key<'n>(lw: &mut Lowerer<'_>, map: MapRef<'n>, client: Client) -> Option<&'n Entry> {
    let find = |key: &str| map.node.get(key).filter(|e| e.value.entries().is_some());
    let Some(expected) = client.servers_key() else {
        return find("mcpServers").or_else(|| find("servers"));
    };
    if let Some(entry) = map.node.get(expected) {
        return Some(entry);
    }
    let other = if expected == "servers" {
        "mcpServers"
    } else {
        "servers"
    };
    if let Some(entry) = find(other) {
        let d = lw
            .diag(
                &rules::WRONG_SERVERS_KEY,
                entry.key_span(),
                format!(
                    "{} reads servers from `{expected}`, not `{other}`",
                    client.name()
                ),
            )
            .label(format!("should be `{expected}`"))
            .note(format!(
                "{} loads none of the servers listed here",
                client.name()
            ))
            .help(format!("rename `{other}` to `{expected}`"))
            .fix(rename_key(lw.file, entry.key_span(), expected));
        lw.push(d);
        return Some(entry);
    }
    // VS Code's settings.json nests servers under `mcp`; a file pasted from there.
    if let Some(mcp) = map.node.get("mcp")
        && let Some(inner) = mcp
            .value
            .get("servers")
            .or_else(|| mcp.value.get("mcpServers"))
    {
        let d = lw
            .diag(
                &rules::WRONG_SERVERS_KEY,
                mcp.key_span(),
                format!(
                    "{} reads servers from a top-level `{expected}`, not from `mcp.{}`",
                    client.name(),
                    inner.key
                ),
            )
            .label("settings.json layout")
            .note(format!("`mcp.servers` is how VS Code's settings.json nests them; {} loads none of the servers listed here", client.name()))
            .help(format!("move the servers to a top-level `\"{expected}\"` object"));
        lw.push(d);
        return Some(inner);
    }
    None
}

/// VS Code's `inputs`: each needs a `type`, an `id` and a `description`; ids are unique.
fn inputs_of(lw: &mut Lowerer<'_>, entry: &Entry) -> Inputs {
    let Some(items) = entry.value.as_list() else {
        lw.wrong_type(&entry.value, "inputs", "a list of inputs");
        return Inputs::new();
    };
    let mut written = Vec::new();
    // An item at a time: a long list of small inputs is held packed.
    let mut paths = ItemPaths::new("inputs");
    for (i, item) in items.scan().enumerate() {
        let item = &*item;
        let path = paths.at(i);
        let brace = Span::new(item.span().start, item.span().start + 1);
        let Some(map) = lw.as_map(item, brace, path) else {
            continue;
        };
        lw.unknown_keys_at(
            map,
            INPUT_KEYS,
            Site::rule(&rules::UNKNOWN_KEY)
                .note("VS Code ignores keys of an input it does not know"),
        );
        if let Some(t) = lw.required(map, "type") {
            lw.enum_value(&t.value, &format!("{path}.type"), INPUT_TYPES);
        }
        lw.required_str(map, "description", 0, usize::MAX);
        let password = lw.optional_bool(map, "password").unwrap_or(false);
        let id = lw.required_str(map, "id", 1, usize::MAX);
        if let Some((default, _)) = lw.optional_str(map, "default", 0, usize::MAX)
            && let Some(node) = map.node.value("default")
        {
            let place = super::secrets::Place {
                what: "input",
                name: id.map_or("", |(i, _)| i),
                owner: "this configuration",
            };
            let remedy = super::secrets::Remedy {
                note: "this file is shared with everyone who can read the repository: the default is a leaked credential",
                help: "remove the default: VS Code asks for the value and stores it securely",
            };
            super::secrets::literal_secret(lw, node, (default, 0), &place, password, &remedy);
        }
        let Some((id, span)) = id else { continue };
        written.push(Input {
            id: id.to_string(),
            span,
            used: false,
        });
    }
    // Repeated ids found by sorting, not by comparing each input with every other.
    let (inputs, repeats) = Inputs::written(written);
    for Repeat { again, first } in repeats {
        let d = lw
            .diag(
                &rules::DUPLICATE_NAME,
                again.span,
                format!("input id `{}` is declared twice", again.id),
            )
            .label("declared again")
            .related(lw.file, first, "first declared here")
            .note("`${input:…}` can reach only one of them")
            .help("give each input its own id");
        lw.push(d);
    }
    inputs
}

/// MCP022: server names that differ only in case.
fn same_names(lw: &mut Lowerer<'_>, entries: &[Entry]) {
    for (first, again) in same_but_case(entries) {
        let (again, first) = (&entries[again], &entries[first]);
        let d = lw
            .diag(
                &rules::DUPLICATE_NAME,
                again.key_span(),
                format!(
                    "server `{}` differs from server `{}` only in case",
                    again.key, first.key
                ),
            )
            .label("same name, other case")
            .related(lw.file, first.key_span(), "the other server")
            .note("tools are named after their server (`mcp__github__…`), and clients compare names differently: one server may hide the other, and approvals meant for one apply to both")
            .help("give the servers names that differ by more than case");
        lw.push(d);
    }
}

/// Pairs of the positions of names equal but for ASCII case: the first of its names, and
/// each later one, in the order of the later. Found by sorting positions, not by a table of
/// lowercased copies: that table was the largest thing a file of a million servers held.
fn same_but_case(entries: &[Entry]) -> Vec<(usize, usize)> {
    let lower = |i: usize| entries[i].key.bytes().map(|b| b.to_ascii_lowercase());
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_unstable_by(|&a, &b| lower(a).cmp(lower(b)).then(a.cmp(&b)));
    let mut pairs: Vec<(usize, usize)> = order
        .chunk_by(|&a, &b| entries[a].key.eq_ignore_ascii_case(&entries[b].key))
        .flat_map(|same| same.iter().skip(1).map(|&again| (same[0], again)))
        .collect();
    pairs.sort_unstable_by_key(|&(_, again)| again);
    pairs
}

/// MCP023: inputs no server references.
fn unused(lw: &mut Lowerer<'_>, inputs: &[Input]) {
    for input in inputs.iter().filter(|i| !i.used) {
        let d = lw
            .diag(
                &rules::UNUSED_INPUT,
                input.span,
                format!(
                    "input `{}` is declared but no server references it",
                    input.id
                ),
            )
            .label("never referenced")
            .note("VS Code never asks for it: a server that needs this value does not get it")
            .help(format!(
                "reference it as `${{input:{}}}` where the value is needed, or remove it",
                input.id
            ));
        lw.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json;

    #[test]
    fn names_equal_but_for_case_pair_with_the_first_in_order_of_the_later() {
        let root = json::parse(r#"{"B": 1, "a": 2, "b": 3, "A": 4, "c": 5, "aA": 6, "a_": 7, "B_": 8, "bB": 9, "BB": 10}"#, 0)
            .root
            .expect("json");
        let entries = root.as_map().expect("map");
        assert_eq!(
            same_but_case(entries),
            [(0, 2), (1, 3), (8, 9)],
            "each later name with the first of its names, none for names that differ"
        );
    }
}
