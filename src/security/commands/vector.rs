//! A command run without a shell (an MCP server's `command` and `args`, an agentcli
//! `command` list): each element is read alone, and the whole vector once more, as the one
//! command it is, for what only its elements together say (`python3 -c "import os; …"`).

use super::{Found, Place, emit};
use crate::analysis::shell::{Dialect, dangers};
use crate::diagnostics::cap::Findings;
use crate::security::texts::{Shell, TextKind, ToolTexts};

/// Elements of one vector read together at most.
const MAX_ELEMENTS: usize = 64;

/// The dangers of `tool`'s command vector that span more than one of its elements; each is
/// reported on the element where it ends (the package, the URL).
pub(super) fn check<'t>(tool: &'t ToolTexts<'t>, out: &mut Findings, found: &mut Found<'t>) {
    let elements: Vec<_> = tool
        .texts
        .iter()
        .filter(|t| matches!(t.kind, TextKind::Command(Shell::Process)))
        .take(MAX_ELEMENTS)
        .collect();
    if elements.len() < 2 {
        return;
    }
    // Each element's place in the joined line, quoted when it holds spaces (`python3 -c
    // "import os; …"`); one that cannot be quoted as it is stands as one word.
    let mut joined = String::new();
    let mut starts = Vec::with_capacity(elements.len());
    for e in &elements {
        if !joined.is_empty() {
            joined.push(' ');
        }
        let v: &str = &e.value;
        let quote = if v.is_empty() || !v.contains(char::is_whitespace) {
            None
        } else if !v.contains('\'') {
            Some('\'')
        } else if !v.contains(['"', '$', '`', '\\']) {
            Some('"')
        } else {
            joined.push('X');
            starts.push(usize::MAX);
            continue;
        };
        joined.extend(quote);
        starts.push(joined.len());
        joined.push_str(if v.is_empty() { "X" } else { v });
        joined.extend(quote);
    }
    let element_of = |at: usize| {
        starts
            .iter()
            .rposition(|s| *s != usize::MAX && *s <= at)
            .unwrap_or(0)
    };
    // A source a server runs through `uvx --from git+…`, `npx github:…` or `npm exec URL`
    // is code from outside the index, as the same command is in a skill's code block (an
    // unpinned git source is also MCP020's, with the commit to pin).
    for mut d in dangers(&joined, Dialect::Process) {
        let first = element_of(d.start);
        let last = element_of(d.end.saturating_sub(1).max(d.start));
        let text = elements[last];
        // What an element says alone was found on it alone.
        if first == last && !dangers(&text.value, Dialect::Process).is_empty() {
            continue;
        }
        let base = starts[last];
        let len = text.value.len();
        d.start = if first == last {
            d.start.saturating_sub(base).min(len)
        } else {
            0
        };
        d.end = d.end.saturating_sub(base).clamp(d.start, len);
        // What it points back to stays only where it is in the same element.
        d.related = d.related.take().and_then(|mut r| {
            (element_of(r.start) == last && r.start >= base).then(|| {
                r.start = (r.start - base).min(len);
                r.end = r.end.saturating_sub(base).clamp(r.start, len);
                r
            })
        });
        emit(text, 0, Place::Runs, vec![d], out, found);
    }
}
