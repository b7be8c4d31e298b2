//! What the model reads of an agentcli manifest, and what it runs, for the security pass:
//! each entry's name, description and schema strings, and its `command` vector.

use std::sync::Arc;

use crate::analysis::argv;
use crate::analysis::shell::{program_name, shell_name};
use crate::security::texts::{Collector, FileTexts, Shell, TextKind, listed};
use crate::security::{Checking, Passes};
use crate::source::SourceFile;
use crate::syntax::{MapItem, Node, Seq};

/// The security pass over each object entry of `tools`, one tool at a time: a manifest of
/// many tools never holds every tool's texts at once. Entries are read where they are: a
/// long list of small tools is packed, its strings borrowed from its bytes, and a packed
/// entry's schema is built for it alone and checked while it lives.
pub(super) fn manifest(file: &Arc<SourceFile>, root: &Node, passes: Passes) -> FileTexts {
    // A list without its `{"tools": …}` wrapper (ACL002) is still what some client shows the
    // model: an MCP server's tool list is read the same way.
    let entries = root
        .value("tools")
        .and_then(Node::as_list)
        .or_else(|| root.as_list());
    let len = entries.map_or(0, Seq::len);
    // The length known at once: the security pass makes room for every tool's kept texts
    // instead of doubling it.
    let mut check = Checking::new(passes, len);
    if !check.wanted() {
        return check.finish();
    }
    let items = entries.into_iter().flat_map(Seq::maps_unbuilt).take(len);
    for entry in items.filter(MapItem::is_map) {
        let (name, description) = (entry.str("name"), entry.str("description"));
        let schema = SCHEMA_KEYS.iter().find_map(|k| entry.value(k));
        check.tool(&listed(file, name, description, schema.as_deref(), |c| {
            command(c, &entry);
        }));
    }
    check.finish()
}

/// agentcli's `schema`; an MCP tool's `inputSchema`, a function's `parameters`, under which
/// the same poisoning hides.
const SCHEMA_KEYS: [&str; 4] = ["schema", "inputSchema", "input_schema", "parameters"];

/// Each argument of `command` runs as is; the script of `["sh", "-c", SCRIPT]` is also read
/// as a shell script. The arguments are read as far as Windows starts the line (ACL016 says
/// where a longer one is cut), the script wherever it stands, up to what any system starts:
/// padding before it does not hide it.
fn command<'a>(c: &mut Collector<'a>, entry: &MapItem<'a>) {
    // Read three times rather than collected: a command of millions of arguments is read
    // where it is written.
    let Some(mut items) = entry.list("command") else {
        return;
    };
    let program = items.next().flatten().map_or("", |(s, _)| s);
    let posix = matches!(
        shell_name(program_name(program)),
        Some("sh" | "bash" | "zsh" | "ksh" | "dash" | "ash")
    );
    let script = posix
        .then(|| entry.list("command"))
        .flatten()
        .and_then(|mut items| items.position(|i| i.is_some_and(|(s, _)| s == "-c")))
        .map(|at| at + 1);
    let mut line = argv::Line::new(argv::LONGEST);
    for (i, item) in entry.list("command").into_iter().flatten().enumerate() {
        let (s, span) = item.unwrap_or_default();
        let fits = line.admits(s);
        if Some(i) == script {
            if s.len() <= argv::REACH {
                c.text(TextKind::Command(Shell::Posix), s, span);
            }
        } else if fits {
            c.text(TextKind::Command(Shell::Process), s, span);
        } else if script.is_none_or(|at| at < i) {
            break;
        }
    }
}
