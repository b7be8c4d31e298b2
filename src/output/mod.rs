//! One emitter per output format of `toolc check`, over a finished report: above the
//! driver, so an emitter may read what the run found (the baseline's fingerprints, what
//! ShellCheck skipped) and mask secrets with the scanner of `analysis`.

pub(crate) mod github;
pub(crate) mod gitlab;
pub(crate) mod human;
pub(crate) mod json;
mod json_text;
pub(crate) use json_text::write_json;
pub(crate) mod junit;
pub(crate) mod markdown;
pub(crate) mod masked;
pub(crate) mod rdjson;
pub(crate) mod sarif;
pub(crate) mod statistics;

use std::sync::Arc;

use crate::diagnostics::{Diagnostic, Summary};
use crate::source::SourceFile;

/// An output format of `toolc check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// rustc-style text for people.
    Human,
    /// The JSON contract (`docs/json-output.md`).
    Json,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// SARIF 2.1.0.
    Sarif,
    /// JUnit XML.
    Junit,
    /// GitLab Code Quality report.
    Gitlab,
    /// Reviewdog Diagnostic Format (`DiagnosticResult` JSON).
    Rdjson,
    /// A Markdown summary for a pull-request comment.
    Markdown,
}

impl OutputFormat {
    /// Every format, by the name the command line uses.
    pub const ALL: [(&'static str, OutputFormat); 8] = [
        ("human", OutputFormat::Human),
        ("json", OutputFormat::Json),
        ("github", OutputFormat::Github),
        ("sarif", OutputFormat::Sarif),
        ("junit", OutputFormat::Junit),
        ("gitlab", OutputFormat::Gitlab),
        ("rdjson", OutputFormat::Rdjson),
        ("markdown", OutputFormat::Markdown),
    ];

    /// The format called `name`.
    pub fn parse(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }
}

/// What an output shows of a run: the parts of its report, borrowed (the driver's `Report`
/// is above this layer's reach only by name; every field is a diagnostics-layer value).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Findings<'a> {
    /// Diagnostics to show, sorted by path then position.
    pub diagnostics: &'a [Diagnostic],
    /// Diagnostics silenced by `toolc: ignore` comments (SARIF suppressions).
    pub suppressed: &'a [Diagnostic],
    /// Diagnostics hidden by the baseline (SARIF, as externally suppressed).
    pub baselined: &'a [Diagnostic],
    /// Counts.
    pub summary: &'a Summary,
    /// Every file reported on.
    pub files: &'a [Arc<SourceFile>],
}

/// A list serialized as it is made, an item at a time (once: a second serialization
/// writes an empty list).
pub(crate) struct Lazy<I>(std::cell::RefCell<Option<I>>);

impl<I> Lazy<I> {
    /// The items of `items`, made as they are written.
    pub(crate) fn new(items: I) -> Lazy<I> {
        Lazy(std::cell::RefCell::new(Some(items)))
    }
}

impl<I: Iterator<Item = T>, T: serde::Serialize> serde::Serialize for Lazy<I> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let items = self.0.borrow_mut().take();
        s.collect_seq(items.into_iter().flatten())
    }
}

/// What `write` writes, as a string.
fn to_string(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> String {
    let mut bytes = Vec::new();
    // Writing into memory fails only when serializing does, and no output type can fail to
    // serialize (every map key is a string).
    let _ = write(&mut bytes);
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`render`], written to `out` as it is made: the human, JSON, SARIF, GitHub, GitLab and
/// rdjson output of a run of many findings is never held whole.
pub(crate) fn write(
    format: OutputFormat,
    report: &Findings<'_>,
    root: &std::path::Path,
    color: bool,
    quiet: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        OutputFormat::Human => human::write(report.diagnostics, report.summary, color, quiet, out),
        OutputFormat::Json => json::write(report.diagnostics, report.summary, out),
        OutputFormat::Github => github::write(report.diagnostics, report.summary, out),
        OutputFormat::Sarif => sarif::write(
            report.diagnostics,
            report.suppressed,
            report.baselined,
            report.summary.shown_per_rule,
            root,
            out,
        ),
        OutputFormat::Gitlab => gitlab::write(report.diagnostics, root, out),
        OutputFormat::Rdjson => rdjson::write(report.diagnostics, out),
        // Those [`render`] makes whole: JUnit groups findings by file, Markdown lists at most
        // a hundred.
        OutputFormat::Junit | OutputFormat::Markdown => {
            out.write_all(render(format, report, root, color, quiet).as_bytes())
        }
    }
}

/// Render a run's findings in `format`. `root` is the working directory (SARIF's
/// `%SRCROOT%`, what fingerprints' paths are relative to);
/// `color` and `quiet` only matter to the human format.
pub(crate) fn render(
    format: OutputFormat,
    report: &Findings<'_>,
    root: &std::path::Path,
    color: bool,
    quiet: bool,
) -> String {
    match format {
        // Those [`write`] makes as it writes them.
        OutputFormat::Human
        | OutputFormat::Json
        | OutputFormat::Github
        | OutputFormat::Sarif
        | OutputFormat::Gitlab
        | OutputFormat::Rdjson => to_string(|out| write(format, report, root, color, quiet, out)),
        OutputFormat::Junit => junit::render(
            report.files,
            report.diagnostics,
            report.suppressed,
            report.baselined,
        ),
        OutputFormat::Markdown => markdown::render(report.diagnostics, report.summary),
    }
}
