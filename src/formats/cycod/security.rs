//! Security tags: a tool without one, and a `read` tool whose command writes (SEC021,
//! SEC022).

use super::lower::{Command, Cx, Level};
use super::writes;
use crate::analysis::shell::Dialect;
use crate::formats::in_value::span_in_value;
use crate::rules::security;
use crate::source::Span;
use crate::syntax::Node;

/// The tags cycod's approval reads.
pub(super) const SECURITY_TAGS: &[&str] = &["read", "write", "run"];

impl Cx<'_> {
    /// SEC021 for the file's own tool; returns where it is tagged `read` when that is its
    /// only security tag (its commands are then read for writes, SEC022).
    pub(super) fn security_tags(
        &mut self,
        node: &Node,
        anchor: Span,
        tags: &[(&str, Span)],
    ) -> Option<Span> {
        let security: Vec<&(&str, Span)> = tags
            .iter()
            .filter(|(t, _)| SECURITY_TAGS.contains(t))
            .collect();
        if security.is_empty() {
            let tags_entry = node.get("tags");
            let span = tags_entry.map_or(anchor, |e| e.value.span());
            let d = self
                .diag(
                    &security::MISSING_SECURITY_TAG,
                    span,
                    "this tool has no `read`, `write` or `run` tag".to_string(),
                )
                .label(if tags_entry.is_some() { "no security tag" } else { "no `tags`" })
                .note("cycod treats an untagged tool as `run`, the highest risk: every call needs explicit approval and `--auto-approve tool:read` never covers it")
                .help(if tags_entry.is_some() {
                    "add the tag that matches what the tool does: `read`, `write` or `run`"
                } else {
                    "add `tags: [read]` (or `write`, `run`) to match what the tool does"
                });
            self.push(d);
            return None;
        }
        let read = security.iter().find(|(t, _)| *t == "read")?;
        if security.iter().any(|(t, _)| *t != "read") {
            return None;
        }
        Some(read.1)
    }

    /// SEC022 for a command that runs in a tool tagged only `read` (at `read`); true when
    /// it writes (the tool's first such command is reported, no other).
    pub(super) fn read_tool_writes(
        &mut self,
        read: Span,
        level: &Level<'_>,
        c: &Command<'_>,
    ) -> bool {
        let dialect = match (c.key, self.shell_of(level)) {
            ("run", _) => Dialect::Process,
            ("cmd", _) => Dialect::Cmd,
            ("pwsh", _) => Dialect::Pwsh,
            ("python", _) => Dialect::Python,
            ("script", Some((s, _))) if s == "cmd" => Dialect::Cmd,
            ("script", Some((s, _))) if s == "pwsh" || s == "powershell" => Dialect::Pwsh,
            ("script", Some((s, _))) if s == "python" => Dialect::Python,
            ("bash" | "script", _) => Dialect::Posix,
            _ => return false,
        };
        let Some(w) = writes::first_write(c.text, dialect) else {
            return false;
        };
        let needle = c.text.get(w.start..w.end).unwrap_or_default();
        let span = span_in_value(self.file(), c.node, w.start, needle);
        let d = self
                .diag(
                    &security::READ_TOOL_WRITES,
                    span,
                    format!("this tool is tagged `read` but its command writes: {}", w.what),
                )
                .label("writes")
                .related(self.file(), read, "tagged `read` here")
                .note("`--auto-approve tool:read` lets a read tool run without asking: this one changes files or remote state unasked")
                .help("tag it `write` (or `run`) instead of `read`, or remove the write");
        self.push(d);
        true
    }
}
