//! A command run without a shell (an MCP server's `command` and `args`, an agentcli
//! `command` list): each element is read alone, and the whole vector once more, as the one
//! command it is, for what only its elements together say (`uvx --from git+https://…`).

use super::{Found, Place, emit};
use crate::analysis::shell::{Dialect, dangers};
use crate::diagnostics::Diagnostic;
use crate::formats::texts::{Shell, TextKind, ToolTexts};

/// Elements of one vector read together at most.
const MAX_ELEMENTS: usize = 64;

/// The dangers of `tool`'s command vector that span more than one of its elements; each is
/// reported on the element where it ends (the package, the URL).
pub(super) fn check<'t>(tool: &'t ToolTexts<'t>, out: &mut Vec<Diagnostic>, found: &mut Found<'t>) {
    let elements: Vec<_> = tool
        .texts
        .iter()
        .filter(|t| matches!(t.kind, TextKind::Command(Shell::Process)))
        .take(MAX_ELEMENTS)
        .collect();
    if elements.len() < 2 {
        return;
    }
    // Each element's place in the joined line; one of several words stays one word.
    let mut joined = String::new();
    let mut starts = Vec::with_capacity(elements.len());
    for e in &elements {
        if !joined.is_empty() {
            joined.push(' ');
        }
        starts.push(joined.len());
        if e.value.is_empty() || e.value.contains(char::is_whitespace) {
            joined.push('X');
        } else {
            joined.push_str(&e.value);
        }
    }
    let element_of = |at: usize| starts.iter().rposition(|s| *s <= at).unwrap_or(0);
    for mut d in dangers(&joined, Dialect::Process) {
        let first = element_of(d.start);
        let last = element_of(d.end.saturating_sub(1).max(d.start));
        if first == last {
            // Already found on the element alone.
            continue;
        }
        let text = elements[last];
        if text.value.contains(char::is_whitespace) {
            continue;
        }
        let base = starts[last];
        d.start = 0;
        d.end = d.end.saturating_sub(base).min(text.value.len());
        d.related = None;
        emit(text, 0, Place::Runs, vec![d], out, found);
    }
}
