//! `--format gitlab`: a GitLab Code Quality report (`artifacts:reports:codequality`), the
//! subset of the Code Climate issue format GitLab reads: a JSON array of issues, each with
//! `description`, `check_name`, `fingerprint`, `severity` and `location` (`path` and
//! `lines.begin`/`lines.end`).
//!
//! The merge request widget compares the fingerprints of the base and head pipelines to say
//! what is new and what was fixed, and shows only the first issue of a fingerprint: they are
//! the baseline's content fingerprints (never the line), made unique per issue.

use std::path::Path;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::diagnostics::Diagnostic;
use crate::rules::Severity;

#[derive(Serialize)]
struct Issue<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    categories: [&'static str; 1],
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// GitLab's five severities; toolc uses three of them.
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// The first issue of a fingerprint keeps the baseline fingerprint; later equal ones (the same
/// problem again under the same key) get one derived from it and their number.
fn unique(hash: String, n: usize) -> String {
    if n == 1 {
        return hash;
    }
    Sha256::digest(format!("{hash}:{n}"))
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Write the report (pretty JSON array, trailing newline) to `out`, an issue at a time;
/// `root` is the working directory paths are relative to.
pub(crate) fn write(
    diagnostics: &[Diagnostic],
    root: &Path,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    // A fingerprint reads the file, never a message: the unmasked finding gives the same.
    let fingerprints = crate::baseline::numbered(diagnostics.iter(), &crate::fs::normalize(root));
    let issues = diagnostics.iter().zip(fingerprints).map(|(d, (hash, n))| {
        // Masked an issue at a time: one finding that quotes a credential copied them all.
        let shown = super::masked::masked_one(d);
        let mut description = format!("{} {}", d.rule.code, shown.message);
        if let Some(help) = &shown.help {
            description.push_str("; help: ");
            description.push_str(help);
        }
        Issue {
            kind: "issue",
            description,
            check_name: d.rule.code,
            fingerprint: unique(hash, n),
            severity: severity(d.severity),
            categories: [if d.rule.code.starts_with("SEC") {
                "Security"
            } else {
                "Bug Risk"
            }],
            location: Location {
                path: d.file.display(),
                lines: Lines {
                    begin: d.file.position(d.span.start).line,
                    end: d.file.position(d.span.end).line,
                },
            },
        }
    });
    super::write_json(&mut *out, &super::Lazy::new(issues))?;
    out.write_all(b"\n")
}
