//! `toolc diff --stat`: one line per tool, Agent Skill or MCP server added, removed or changed,
//! and whether it breaks callers, as text, as Markdown for a pull-request comment or job
//! summary, or as JSON.

use serde::Serialize;

use super::{ChangeKind, DiffReport, ToolChange};
use crate::diagnostics::visible;
use crate::lock::record::Kind;

/// The version of the `--stat --format json` document.
pub(crate) const STAT_VERSION: u32 = 1;

fn change_text(c: &ToolChange) -> String {
    match &c.change {
        ChangeKind::Added => "added".to_string(),
        ChangeKind::Removed => "removed".to_string(),
        ChangeKind::Disabled => "disabled".to_string(),
        ChangeKind::Renamed { from } => format!("renamed from {}", visible(from)),
        ChangeKind::Changed => "changed".to_string(),
    }
}

fn kind_text(kind: Kind) -> &'static str {
    match kind {
        Kind::Tool => "tool",
        Kind::Skill => "skill",
        Kind::Server => "MCP server",
    }
}

fn findings_text(counts: [usize; 3]) -> String {
    let words = [
        ("error", counts[0]),
        ("warning", counts[1]),
        ("info", counts[2]),
    ];
    let parts: Vec<String> = words
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(w, n)| format!("{n} {w}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(", ")
    }
}

fn count(report: &DiffReport, f: &dyn Fn(&ChangeKind) -> bool) -> usize {
    report.tools.iter().filter(|t| f(&t.change)).count()
}

/// What the summary's rows are, in words: "tool"/"tools" when they are all tools, else
/// "definition"/"definitions".
fn noun(report: &DiffReport, n: usize) -> &'static str {
    let tools = report.tools.iter().all(|t| t.definition == Kind::Tool);
    match (tools, n == 1) {
        (true, true) => "tool",
        (true, false) => "tools",
        (false, true) => "definition",
        (false, false) => "definitions",
    }
}

/// "3 tools changed, 1 added, 1 removed; 1 is breaking", or that nothing changed.
fn headline(report: &DiffReport) -> String {
    let added = count(report, &|c| *c == ChangeKind::Added);
    let removed = count(report, &|c| {
        matches!(c, ChangeKind::Removed | ChangeKind::Disabled)
    });
    let changed = count(report, &|c| {
        matches!(c, ChangeKind::Changed | ChangeKind::Renamed { .. })
    });
    let breaking = report.tools.iter().filter(|t| t.breaking).count();
    if report.tools.is_empty() {
        return format!(
            "No tool, skill or MCP server changed since {}.",
            report.base
        );
    }
    let mut parts = vec![format!("{changed} {} changed", noun(report, changed))];
    if added > 0 {
        parts.push(format!("{added} added"));
    }
    if removed > 0 {
        parts.push(format!("{removed} removed or disabled"));
    }
    format!(
        "Since {}: {}; {breaking} {} breaking.",
        report.base,
        parts.join(", "),
        if breaking == 1 { "is" } else { "are" }
    )
}

/// The summary as aligned text.
pub(crate) fn human(report: &DiffReport) -> String {
    let mut out = format!("{}\n", headline(report));
    if report.tools.is_empty() {
        return out;
    }
    let rows: Vec<[String; 6]> = report
        .tools
        .iter()
        .map(|t| {
            [
                visible(&t.name).into_owned(),
                kind_text(t.definition).to_string(),
                t.format.to_string(),
                change_text(t),
                if t.breaking { "breaking" } else { "compatible" }.to_string(),
                findings_text(t.findings),
            ]
        })
        .collect();
    let header = ["name", "kind", "format", "change", "breaking", "findings"];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    out.push('\n');
    for row in std::iter::once(header.map(str::to_string)).chain(rows) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A Markdown table cell: one line, pipes escaped, in a code span when it can be one, else
/// with nothing a repository wrote rendered as a link, an image or HTML.
fn cell(text: &str, code: bool) -> String {
    let one_line = crate::diagnostics::visible(text);
    if code && !one_line.contains('`') && !one_line.trim().is_empty() {
        format!("`{}`", one_line.replace('|', "\\|"))
    } else {
        crate::diagnostics::md_inline::cell(text)
    }
}

/// The summary as Markdown, for a pull-request comment or a job summary.
pub(crate) fn markdown(report: &DiffReport) -> String {
    let mut out = format!("### toolc diff\n\n{}\n", cell(&headline(report), false));
    if report.tools.is_empty() {
        return out;
    }
    out.push_str(
        "\n| name | kind | format | change | breaking | findings |\n|---|---|---|---|---|---|\n",
    );
    for t in &report.tools {
        let change = match &t.change {
            ChangeKind::Renamed { from } => format!("renamed from {}", cell(from, true)),
            _ => change_text(t),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            cell(&t.name, true),
            kind_text(t.definition),
            t.format,
            change,
            if t.breaking { "❌ yes" } else { "no" },
            findings_text(t.findings)
        ));
    }
    out.push_str(
        "\nRun `toolc diff` locally for the findings, each with its place on both sides.\n",
    );
    out
}

#[derive(Serialize)]
struct Stat<'a> {
    version: u32,
    base: &'a str,
    summary: Counts,
    tools: &'a [ToolChange],
}

#[derive(Serialize)]
struct Counts {
    added: usize,
    removed: usize,
    changed: usize,
    breaking: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
}

/// The summary as JSON.
pub(crate) fn json(report: &DiffReport) -> String {
    let stat = Stat {
        version: STAT_VERSION,
        base: &report.base,
        summary: Counts {
            added: count(report, &|c| *c == ChangeKind::Added),
            removed: count(report, &|c| {
                matches!(c, ChangeKind::Removed | ChangeKind::Disabled)
            }),
            changed: count(report, &|c| {
                matches!(c, ChangeKind::Changed | ChangeKind::Renamed { .. })
            }),
            breaking: report.tools.iter().filter(|t| t.breaking).count(),
            errors: report.report.summary.errors,
            warnings: report.report.summary.warnings,
            infos: report.report.summary.infos,
        },
        tools: &report.tools,
    };
    let mut text = serde_json::to_string_pretty(&stat).unwrap_or_default();
    text.push('\n');
    text
}
