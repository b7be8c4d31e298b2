//! What the model reads of an agentcli manifest, and what it runs, for the security pass:
//! each entry's name, description and schema strings, and its `command` vector.

use std::sync::Arc;

use crate::analysis::shell::{program_name, shell_name};
use crate::security::texts::{Collector, Shell, TextKind, ToolTexts, listed};
use crate::source::SourceFile;
use crate::syntax::{MapItem, Node};

/// One [`ToolTexts`] per object entry of `tools`, made as the security pass reads them: a
/// manifest of many tools never holds every tool's texts at once.
pub(super) fn manifest<'a>(
    file: &'a Arc<SourceFile>,
    root: &'a Node,
) -> impl Iterator<Item = ToolTexts<'a>> {
    // A list without its `{"tools": …}` wrapper (ACL002) is still what some client shows the
    // model: an MCP server's tool list is read the same way.
    let entries = root
        .value("tools")
        .and_then(Node::as_seq)
        .or_else(|| root.as_seq())
        .unwrap_or_default();
    entries
        .iter()
        .filter(|e| e.as_map().is_some())
        .map(|entry| {
            // agentcli's `schema`; an MCP tool's `inputSchema`, a function's `parameters`,
            // under which the same poisoning hides.
            let schema = ["schema", "inputSchema", "input_schema", "parameters"]
                .iter()
                .find_map(|k| entry.value(k));
            let item = MapItem::of(entry);
            let (name, description) = (item.str("name"), item.str("description"));
            listed(file, name, description, schema, |c| {
                command(c, entry.value("command"))
            })
        })
}

/// Each argument of `command` runs as is; the script of `["sh", "-c", SCRIPT]` is also read
/// as a shell script.
fn command<'a>(c: &mut Collector<'a>, node: Option<&'a Node>) {
    let items = node.and_then(Node::as_seq).unwrap_or_default();
    let program = items.first().and_then(Node::as_str).unwrap_or_default();
    let posix = matches!(
        shell_name(program_name(program)),
        Some("sh" | "bash" | "zsh" | "ksh" | "dash" | "ash")
    );
    let script = items
        .iter()
        .position(|i| i.as_str() == Some("-c"))
        .filter(|_| posix)
        .map(|at| at + 1);
    for (i, item) in items.iter().enumerate() {
        let shell = if Some(i) == script {
            Shell::Posix
        } else {
            Shell::Process
        };
        c.scalar(TextKind::Command(shell), Some(item));
    }
}
