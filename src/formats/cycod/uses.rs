//! What a tool draws on besides its command: `uses` (the tools, MCP servers, configs and
//! profiles it refers to by name) and `with` (the ones it defines inline, each inline tool
//! checked as a whole definition).

use std::collections::HashMap;

use super::lower::{Cx, REJECTED};
use crate::formats::fields::{ItemPaths, join_path};
use crate::rules::cycod as rules;
use crate::source::Span;
use crate::syntax::Node;

const USES_KEYS: &[&str] = &[
    "config", "configs", "profile", "profiles", "mcp", "mcps", "tool", "tools",
];
const WITH_KEYS: &[&str] = &["config", "mcps", "tools"];

impl Cx<'_> {
    /// `uses`: shapes, and the tool and MCP names it refers to.
    pub(super) fn uses(&mut self, node: &Node, path: &str) {
        let Some(e) = node.get("uses") else { return };
        let upath = join_path(path, "uses");
        let Some(map) = self.lw.as_map(&e.value, e.key_span(), &upath) else {
            return;
        };
        self.lw.unknown_keys(map, USES_KEYS, REJECTED);
        for u in e.value.as_map().unwrap_or_default() {
            let key = join_path(&upath, &u.key);
            let single = match u.key.as_str() {
                "config" | "profile" | "mcp" | "tool" => self
                    .string(&u.value, &key)
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| (s.trim(), u.value.span())),
                _ => None,
            };
            let target = match u.key.as_str() {
                "tool" | "tools" => &mut self.tool.tool_references,
                "mcp" | "mcps" => &mut self.tool.mcp_references,
                "configs" | "profiles" => {
                    self.lw.str_items(&u.value, &key, true, |_, _| {});
                    continue;
                }
                _ => continue,
            };
            // Of the right size at once: grown by doubling, they were held twice.
            if matches!(u.key.as_str(), "tools" | "mcps") {
                target.reserve(u.value.as_list().map_or(0, |l| l.len()));
            }
            let mut add = |name: &str, span| target.push(name, span, &key);
            match single {
                Some((name, span)) => add(name, span),
                // Read as they come: a tool may name hundreds of thousands.
                None if matches!(u.key.as_str(), "tools" | "mcps") => {
                    self.lw.str_items(&u.value, &key, true, add);
                }
                None => {}
            }
        }
    }

    /// `with`: inline config, MCP servers and tools (each inline tool checked in full).
    pub(super) fn with(&mut self, node: &Node, path: &str) {
        let Some(e) = node.get("with") else { return };
        let wpath = join_path(path, "with");
        let Some(map) = self.lw.as_map(&e.value, e.key_span(), &wpath) else {
            return;
        };
        self.lw.unknown_keys(map, WITH_KEYS, REJECTED);
        if let Some(c) = e.value.get("config") {
            self.lw
                .as_map(&c.value, c.key_span(), &join_path(&wpath, "config"));
        }
        if let Some(m) = e.value.get("mcps") {
            let mpath = join_path(&wpath, "mcps");
            match m.value.as_list() {
                None => self
                    .lw
                    .wrong_type(&m.value, &mpath, "a list of MCP servers"),
                Some(items) => {
                    // An item at a time: a long list is held packed.
                    let mut paths = ItemPaths::new(&mpath);
                    for (i, item) in items.scan().enumerate() {
                        let item = &*item;
                        let ipath = paths.at(i);
                        if self.lw.as_map(item, item.span(), ipath).is_some()
                            && let Some(name) = item.value("name").and_then(Node::as_str)
                        {
                            self.tool.inline_mcps.push(name.to_string());
                        }
                    }
                }
            }
        }
        if let Some(t) = e.value.get("tools") {
            let tpath = join_path(&wpath, "tools");
            match t.value.as_list() {
                None => self
                    .lw
                    .wrong_type(&t.value, &tpath, "a list of tool definitions"),
                Some(items) => {
                    // By name: a file of many inline tools compared each with those before.
                    let mut seen: HashMap<String, Span> = HashMap::new();
                    let mut paths = ItemPaths::new(&tpath);
                    for (i, item) in items.scan().enumerate() {
                        let item = &*item;
                        let ipath = paths.at(i);
                        let Some(name) = self.definition(item, item.span(), ipath, None) else {
                            continue;
                        };
                        if let Some(first) = seen.get(&name.value) {
                            let d = self
                                .diag(
                                    &rules::DUPLICATE_TOOL_NAME,
                                    name.span,
                                    format!(
                                        "an inline tool named `{}` is already defined above",
                                        name.value
                                    ),
                                )
                                .label("duplicate name")
                                .related(self.file(), *first, "first defined here")
                                .note("a reference to this name can only reach one of the two")
                                .help("rename one of them");
                            self.push(d);
                            continue;
                        }
                        self.tool.inline_tools.push(name.value.clone());
                        seen.insert(name.value, name.span);
                    }
                }
            }
        }
    }
}
