//! `toolc diff --stat`: one line per tool, Agent Skill or MCP server added, removed or changed,
//! and whether it breaks callers, as text, as Markdown for a pull-request comment or job
//! summary, or as JSON.

use serde::Serialize;

use std::io::Write;

use super::{ChangeKind, DiffReport, ToolChange, ToolChanges};
use crate::diagnostics::visible;
use crate::lock::record::Kind;

/// The version of the `--stat --format json` document.
pub(crate) const STAT_VERSION: u32 = 1;

fn change_text(c: &ToolChange<'_>) -> String {
    match c.change {
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

fn count(report: &DiffReport, f: &dyn Fn(&ChangeKind<'_>) -> bool) -> usize {
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

/// The summary as aligned text, written to `out` as it is made (a line of each of a million
/// changes).
pub(crate) fn human(report: &DiffReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{}", headline(report))?;
    if report.tools.is_empty() {
        return Ok(());
    }
    let header = ["name", "kind", "format", "change", "breaking", "findings"];
    // Two passes: the widths, then the lines (the rows of a large diff as strings took more
    // than the rest of its run).
    let mut widths = header.map(str::len);
    for t in report.tools.iter() {
        for (w, cell) in widths.iter_mut().zip(row(&t)) {
            *w = (*w).max(cell.chars().count());
        }
    }
    writeln!(out)?;
    let mut line = String::new();
    let header = header.map(std::borrow::Cow::Borrowed);
    for cells in std::iter::once(header).chain(report.tools.iter().map(|t| row(&t))) {
        line.clear();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            let pad = w.saturating_sub(cell.chars().count());
            line.extend(std::iter::repeat_n(' ', pad));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// A change's cells in the text summary.
fn row<'t>(t: &ToolChange<'t>) -> [std::borrow::Cow<'t, str>; 6] {
    use std::borrow::Cow;
    [
        visible(t.name),
        Cow::Borrowed(kind_text(t.definition)),
        Cow::Borrowed(t.format),
        Cow::Owned(change_text(t)),
        Cow::Borrowed(if t.breaking { "breaking" } else { "compatible" }),
        Cow::Owned(findings_text(t.findings)),
    ]
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
pub(crate) fn markdown(report: &DiffReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "### toolc diff\n\n{}", cell(&headline(report), false))?;
    if report.tools.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\n| name | kind | format | change | breaking | findings |\n|---|---|---|---|---|---|"
    )?;
    for t in report.tools.iter() {
        let change = match t.change {
            ChangeKind::Renamed { from } => format!("renamed from {}", cell(from, true)),
            _ => change_text(&t),
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            cell(t.name, true),
            kind_text(t.definition),
            t.format,
            change,
            if t.breaking { "❌ yes" } else { "no" },
            findings_text(t.findings)
        )?;
    }
    writeln!(
        out,
        "\nRun `toolc diff` locally for the findings, each with its place on both sides."
    )
}

#[derive(Serialize)]
struct Stat<'a> {
    version: u32,
    base: &'a str,
    summary: Counts,
    tools: &'a ToolChanges,
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

/// The summary as JSON, written as it is made.
pub(crate) fn json(report: &DiffReport, out: &mut dyn Write) -> std::io::Result<()> {
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
    crate::output::write_json(&mut *out, &stat)?;
    writeln!(out)
}
