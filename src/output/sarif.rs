//! `--format sarif`: SARIF 2.1.0, as GitHub code scanning and other SARIF viewers read it.
//!
//! A small typed model of the part of SARIF toolc fills, rather than `serde-sarif`: that crate
//! generates its types from the schema at build time (schemafy, syn 1, regex as build
//! dependencies) and did not build here; the subset below is about a hundred lines.
//!
//! Choices a consumer depends on:
//! - artifact URIs are relative to the working directory, with `uriBaseId` `%SRCROOT%`, and
//!   `originalUriBaseIds` says what `%SRCROOT%` was on this machine;
//! - columns count Unicode code points (`columnKind`), like every other toolc output;
//! - `partialFingerprints` are the baseline's fingerprints (rule, path, the offending text and
//!   its surroundings, never the line number; see `crate::baseline`), so a result keeps its
//!   identity when lines are inserted above it;
//! - diagnostics silenced by `toolc: ignore` are results with an `inSource` suppression, those
//!   hidden by the baseline results with an `external` one;
//! - a mechanical fix is a `fixes` entry (one artifact change of the result's file); the
//!   label is the primary location's message and the notes are `properties.notes`.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Fix};
use crate::rules::{self, Rule, Severity};
use crate::source::{SourceFile, Span};

/// The key of toolc's fingerprint in `partialFingerprints`.
pub(crate) use crate::baseline::FINGERPRINT_KEY;

/// The base every artifact URI is relative to.
pub(crate) const SRCROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
#[serde(bound(serialize = "Run<'a, I>: Serialize"))]
struct Log<'a, I> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a, I>; 1],
}

#[derive(Serialize)]
#[serde(
    rename_all = "camelCase",
    bound(serialize = "super::Lazy<I>: Serialize")
)]
struct Run<'a, I> {
    tool: Tool<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    original_uri_base_ids: Option<BTreeMap<&'static str, ArtifactLocation>>,
    column_kind: &'static str,
    results: super::Lazy<I>,
    properties: RunProperties,
}

/// What a run hid: the suppressed results are in `results` too, but a viewer that drops them
/// still shows these counts.
#[derive(Serialize)]
struct RunProperties {
    #[serde(rename = "toolc/suppressed")]
    suppressed: usize,
    #[serde(rename = "toolc/baselined")]
    baselined: usize,
    /// Past the findings a run holds: how many of a rule each file shows.
    #[serde(rename = "toolc/shownPerRule", skip_serializing_if = "Option::is_none")]
    shown_per_rule: Option<usize>,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: String,
    rules: Vec<ReportingDescriptor<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor<'a> {
    id: &'a str,
    name: &'a str,
    short_description: Text,
    full_description: Text,
    help_uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<Help>,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<Properties>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: Region,
    inserted_content: Text,
}

#[derive(Serialize)]
struct Properties {
    notes: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
struct Suppression {
    kind: &'static str,
}

/// How a result was silenced, if it was.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Silenced {
    No,
    /// By a `toolc: ignore` comment.
    InSource,
    /// By the baseline.
    External,
}

/// Write the SARIF log to `out` as it is made: a result is built only while it is written
/// (300,000 findings' results and their 424 MB of text were held at once before).
pub(crate) fn write(
    diagnostics: &[Diagnostic],
    suppressed: &[Diagnostic],
    baselined: &[Diagnostic],
    shown_per_rule: Option<usize>,
    root: &Path,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut all: Vec<(&Diagnostic, Silenced)> = diagnostics
        .iter()
        .map(|d| (d, Silenced::No))
        .chain(suppressed.iter().map(|d| (d, Silenced::InSource)))
        .chain(baselined.iter().map(|d| (d, Silenced::External)))
        .collect();
    all.sort_by(|a, b| a.0.sort_key().cmp(&b.0.sort_key()));

    let mut fired: Vec<&'static Rule> = all.iter().map(|(d, _)| d.rule).collect();
    fired.sort_by_key(|r| r.code);
    fired.dedup_by_key(|r| r.code);
    let index: HashMap<&str, usize> = fired.iter().enumerate().map(|(i, r)| (r.code, i)).collect();

    // Identical fingerprints are told apart by their order in the file.
    let fingerprints =
        crate::baseline::numbered(all.iter().map(|(d, _)| *d), &crate::fs::normalize(root));
    let results = all
        .iter()
        .zip(fingerprints)
        .map(|(&(d, silenced), (hash, n))| {
            // Masked a result at a time: one finding that quotes a credential copied them all.
            let d = &*super::masked::masked_one(d);
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            SarifResult {
                rule_id: d.rule.code,
                rule_index: index.get(d.rule.code).copied().unwrap_or(0),
                level: level(d.severity),
                message: Text { text: message },
                locations: vec![location(None, &d.file, d.span, d.label.as_deref())],
                related_locations: d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, r)| location(Some(i + 1), &r.file, r.span, Some(&r.message)))
                    .collect(),
                partial_fingerprints: BTreeMap::from([(FINGERPRINT_KEY, format!("{hash}:{n}"))]),
                suppressions: match silenced {
                    Silenced::No => Vec::new(),
                    Silenced::InSource => vec![Suppression { kind: "inSource" }],
                    Silenced::External => vec![Suppression { kind: "external" }],
                },
                fixes: d.fix.iter().map(|f| fix(&d.file, f)).collect(),
                properties: (!d.notes.is_empty()).then(|| Properties {
                    notes: d.notes.iter().map(|n| n.to_string()).collect(),
                }),
            }
        });

    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "toolc",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: rules::repository_url().to_string(),
                    rules: fired.iter().map(|r| descriptor(r)).collect(),
                },
            },
            original_uri_base_ids: file_uri(root).map(|uri| {
                BTreeMap::from([(
                    SRCROOT,
                    ArtifactLocation {
                        uri,
                        uri_base_id: None,
                    },
                )])
            }),
            column_kind: "unicodeCodePoints",
            results: super::Lazy::new(results),
            properties: RunProperties {
                suppressed: crate::diagnostics::standing_for(suppressed),
                baselined: crate::diagnostics::standing_for(baselined),
                shown_per_rule,
            },
        }],
    };
    super::write_json(&mut *out, &log)?;
    out.write_all(b"\n")
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn descriptor(rule: &'static Rule) -> ReportingDescriptor<'static> {
    let page = rules::page(rule).map(page_body);
    let full = page
        .and_then(|p| section(p, "What it does"))
        .unwrap_or(rule.summary);
    ReportingDescriptor {
        id: rule.code,
        name: rule.name,
        short_description: Text {
            text: rule.summary.to_string(),
        },
        full_description: Text {
            text: full.to_string(),
        },
        help_uri: rules::page_url(rule),
        // Code scanning shows `help` beside an alert; the plain text is the short form.
        help: page.map(|p| Help {
            text: format!("{full}\n\nSee {}", rules::page_url(rule)),
            markdown: p.to_string(),
        }),
        default_configuration: Configuration {
            level: level(rule.severity),
        },
    }
}

/// A rule page without its front matter.
fn page_body(page: &'static str) -> &'static str {
    page.strip_prefix("---\n")
        .and_then(|p| p.split_once("\n---\n"))
        .map_or(page, |(_, body)| body)
        .trim()
}

/// The text of a page's `## title` section, up to the next heading.
fn section<'a>(page: &'a str, title: &str) -> Option<&'a str> {
    let heading = format!("## {title}\n");
    let start = page.find(&heading)? + heading.len();
    let rest = &page[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    let text = rest[..end].trim();
    (!text.is_empty()).then_some(text)
}

fn fix(file: &SourceFile, f: &Fix) -> SarifFix {
    SarifFix {
        description: Text {
            text: f.message.clone(),
        },
        artifact_changes: vec![ArtifactChange {
            artifact_location: artifact(file),
            replacements: f
                .edits
                .iter()
                .map(|e| Replacement {
                    deleted_region: region(file, e.span),
                    inserted_content: Text {
                        text: e.replacement.clone(),
                    },
                })
                .collect(),
        }],
    }
}

fn artifact(file: &SourceFile) -> ArtifactLocation {
    ArtifactLocation {
        uri: encode_uri_path(file.display()),
        uri_base_id: Some(SRCROOT),
    }
}

fn region(file: &SourceFile, span: Span) -> Region {
    let start = file.position(span.start);
    let end = file.position(span.end);
    Region {
        start_line: start.line,
        start_column: start.column,
        end_line: end.line,
        end_column: end.column,
    }
}

fn location(id: Option<usize>, file: &SourceFile, span: Span, message: Option<&str>) -> Location {
    Location {
        id,
        physical_location: PhysicalLocation {
            artifact_location: artifact(file),
            region: region(file, span),
        },
        message: message.map(|m| Text {
            text: m.to_string(),
        }),
    }
}

/// Percent-encode a `/`-separated path for a URI: everything but unreserved characters and `/`.
fn encode_uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `file:///…/` for an absolute directory, when it can be written as one.
fn file_uri(dir: &Path) -> Option<String> {
    if !dir.is_absolute() {
        return None;
    }
    let slashed = dir.to_str()?.replace('\\', "/");
    let mut encoded = encode_uri_path(&slashed);
    // A Windows drive (`C:/…`) keeps its colon and gains the leading slash of `file:///C:/`.
    if let Some(rest) = encoded.strip_prefix(|c: char| c.is_ascii_alphabetic())
        && rest.starts_with("%3A")
    {
        encoded = format!("/{}:{}", &encoded[..1], &rest[3..]);
    }
    if !encoded.ends_with('/') {
        encoded.push('/');
    }
    Some(format!("file://{encoded}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(encode_uri_path("a b/c#d%.yaml"), "a%20b/c%23d%25.yaml");
        assert_eq!(
            file_uri(Path::new("/home/me/my repo")).as_deref(),
            Some("file:///home/me/my%20repo/")
        );
        assert_eq!(file_uri(Path::new("relative")), None);
    }

    #[test]
    fn sections() {
        let page = "# x\n\n## What it does\n\nChecks things.\n\n## Why\n\nBecause.\n";
        assert_eq!(section(page, "What it does"), Some("Checks things."));
        assert_eq!(section(page, "Fix"), None);
    }
}
