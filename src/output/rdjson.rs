//! `--format rdjson`: the Reviewdog Diagnostic Format's `DiagnosticResult` as JSON, for
//! `reviewdog -f=rdjson`, which posts the findings as pull-request review comments (GitHub,
//! GitLab, Gitea, Bitbucket) and a mechanical fix as a suggested change.
//!
//! Positions follow the format, not the rest of toolc: lines are 1-based and columns count
//! UTF-8 **bytes** from 1; an end is exclusive.

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Fix, md_inline};
use crate::rules::{self, Severity};
use crate::source::{SourceFile, Span};

#[derive(Serialize)]
#[serde(bound(serialize = "super::Lazy<I>: Serialize"))]
struct DiagnosticResult<I> {
    source: Source,
    diagnostics: super::Lazy<I>,
}

#[derive(Serialize)]
struct Source {
    name: &'static str,
    url: &'static str,
}

#[derive(Serialize)]
struct RdDiagnostic<'a> {
    message: String,
    location: Location<'a>,
    severity: &'static str,
    code: Code,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suggestions: Vec<Suggestion<'a>>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    range: Range,
}

#[derive(Serialize)]
struct Range {
    start: Position,
    end: Position,
}

#[derive(Serialize)]
struct Position {
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct Code {
    value: &'static str,
    url: String,
}

#[derive(Serialize)]
struct Suggestion<'a> {
    range: Range,
    text: &'a str,
}

fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "ERROR",
        Severity::Warning => "WARNING",
        Severity::Info => "INFO",
    }
}

/// Line and UTF-8 byte column of a text offset, counted in the file as stored.
fn position(file: &SourceFile, offset: usize) -> Position {
    let p = file.position(offset);
    let line_start = file.lines().line_start(&file.text, p.line).unwrap_or(0);
    Position {
        line: p.line,
        column: p.offset.saturating_sub(file.stored_offset(line_start)) + 1,
    }
}

fn range(file: &SourceFile, span: Span) -> Range {
    Range {
        start: position(file, span.start),
        end: position(file, span.end),
    }
}

/// A fix's edits as suggestions. reviewdog applies a diagnostic's suggestions together, so
/// only a fix safe to apply unreviewed is offered: an unsafe one stays in the help text.
fn suggestions<'a>(file: &SourceFile, fix: Option<&'a Fix>) -> Vec<Suggestion<'a>> {
    fix.filter(|f| f.applicability == crate::diagnostics::Applicability::Safe)
        .map(|f| {
            f.edits
                .iter()
                .map(|e| Suggestion {
                    range: range(file, e.span),
                    text: &e.replacement,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Write the `DiagnosticResult` (pretty JSON, trailing newline) to `out`, a diagnostic at a
/// time.
pub(crate) fn write(
    diagnostics: &[Diagnostic],
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let diagnostics = diagnostics.iter().map(|d| {
        // Masked a diagnostic at a time: one finding that quotes a credential copied them all.
        let shown = super::masked::masked_one(d);
        // reviewdog posts the message as a review comment, which the forge renders as
        // Markdown: a name a file wrote must not become a link, an image or a mention there.
        let mut message = format!("{} ({})", md_inline::line(&shown.message), d.rule.name);
        if let Some(help) = &shown.help {
            message.push_str("\nhelp: ");
            message.push_str(&md_inline::line(help));
        }
        // Masking drops a fix that would write a credential out, and keeps the others whole.
        let fix = shown.fix.as_ref().and(d.fix.as_deref());
        RdDiagnostic {
            message,
            location: Location {
                path: d.file.display(),
                range: range(&d.file, d.span),
            },
            severity: severity(d.severity),
            code: Code {
                value: d.rule.code,
                url: rules::page_url(d.rule),
            },
            suggestions: suggestions(&d.file, fix),
        }
    });
    let result = DiagnosticResult {
        source: Source {
            name: "toolc",
            url: rules::repository_url(),
        },
        diagnostics: super::Lazy::new(diagnostics),
    };
    super::write_json(&mut *out, &result)?;
    out.write_all(b"\n")
}
