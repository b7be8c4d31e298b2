//! `--format json`, version 2 (the contract is `docs/json-output.md`, its schema
//! `docs/json-output.schema.json`).

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Summary};
use crate::source::{SourceFile, Span};

#[derive(Serialize)]
#[serde(bound(serialize = "super::Lazy<I>: Serialize"))]
struct Output<I> {
    version: u32,
    summary: JsonSummary,
    diagnostics: super::Lazy<I>,
}

#[derive(Serialize)]
struct JsonSummary {
    files: usize,
    tools: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    suppressed: usize,
    baselined: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    shown_per_rule: Option<usize>,
}

#[derive(Serialize)]
struct JsonPosition {
    line: usize,
    column: usize,
    offset: usize,
}

#[derive(Serialize)]
struct JsonSpan {
    start: JsonPosition,
    end: JsonPosition,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    path: &'a str,
    span: JsonSpan,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    span: JsonSpan,
    replacement: &'a str,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    message: &'a str,
    applicability: &'static str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    name: &'a str,
    severity: &'a str,
    message: &'a str,
    path: &'a str,
    format: &'a str,
    span: JsonSpan,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    notes: &'a [std::borrow::Cow<'static, str>],
    related: Vec<JsonRelated<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

fn json_span(file: &SourceFile, span: Span) -> JsonSpan {
    let pos = |offset| {
        let p = file.position(offset);
        JsonPosition {
            line: p.line,
            column: p.column,
            offset: p.offset,
        }
    };
    JsonSpan {
        start: pos(span.start),
        end: pos(span.end),
    }
}

/// Render the JSON document (pretty-printed, trailing newline).
pub(crate) fn render(diagnostics: &[Diagnostic], summary: &Summary) -> String {
    super::to_string(|out| write(diagnostics, summary, out))
}

/// Write the JSON document to `out` as it is made: a finding's output is built only while it
/// is written (the whole document, 264 MB for 300,000 findings, was held before printing).
pub(crate) fn write(
    diagnostics: &[Diagnostic],
    summary: &Summary,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let output = Output {
        version: 2,
        summary: JsonSummary {
            files: summary.files,
            tools: summary.tools,
            errors: summary.errors,
            warnings: summary.warnings,
            infos: summary.infos,
            suppressed: summary.suppressed,
            baselined: summary.baselined,
            shown_per_rule: summary.shown_per_rule,
        },
        diagnostics: super::Lazy::new(
            diagnostics
                .iter()
                .map(|d| Shown(super::masked::masked_one(d))),
        ),
    };
    super::write_json(&mut *out, &output)?;
    out.write_all(b"\n")
}

/// A diagnostic as output shows it (credentials masked), serialized as it is written.
struct Shown<'a>(std::borrow::Cow<'a, Diagnostic>);

impl serde::Serialize for Shown<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        json_diagnostic(&self.0).serialize(s)
    }
}

/// The JSON form of `d`.
fn json_diagnostic(d: &Diagnostic) -> JsonDiagnostic<'_> {
    JsonDiagnostic {
        code: d.rule.code,
        name: d.rule.name,
        severity: d.severity.as_str(),
        message: &d.message,
        path: d.file.display(),
        format: d.file.format.as_str(),
        span: json_span(&d.file, d.span),
        label: d.label.as_deref(),
        help: d.help.as_deref(),
        notes: &d.notes,
        related: d
            .related
            .iter()
            .map(|r| JsonRelated {
                path: r.file.display(),
                span: json_span(&r.file, r.span),
                message: &r.message,
            })
            .collect(),
        fix: d.fix.as_ref().map(|f| JsonFix {
            message: &f.message,
            applicability: f.applicability.as_str(),
            edits: f
                .edits
                .iter()
                .map(|e| JsonEdit {
                    span: json_span(&d.file, e.span),
                    replacement: &e.replacement,
                })
                .collect(),
        }),
    }
}
