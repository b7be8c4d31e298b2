//! DojOps `.dops` v2 skills: every rule triggered at its exact line and column and silent on
//! valid skills, the real-world corpus (v2 valid, v1 one error per file), and dependencies
//! between the skills of a project.

mod common;

use common::{Repo, VALID_DOPS as BASE, lines};
use toolc::Report;
use toolc::{Diagnostic, Span};

#[path = "dojops_dops/dependencies.rs"]
mod dependencies;
#[path = "dojops_dops/fields.rs"]
mod fields;
#[path = "dojops_dops/releases.rs"]
mod releases;
#[path = "dojops_dops/syntax.rs"]
mod syntax;
#[path = "dojops_dops/valid.rs"]
mod valid;

const P: &str = ".dojops/skills/nginx.dops";

fn report_for(files: &[(&str, &str)]) -> Report {
    Repo::with(files).check().expect("config")
}

/// Diagnostics (as `path:line:col CODE severity message`) for one skill.
fn check(skill: &str) -> Vec<String> {
    lines(&report_for(&[(P, skill)]))
}

/// The single diagnostic of a skill, asserting there is exactly one and where it is.
fn expect_one(skill: &str, at: &str) -> Diagnostic {
    let report = report_for(&[(P, skill)]);
    let found = lines(&report);
    let want = format!("{P}:{at}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want),
        "expected one `{want}…`, got {found:#?}"
    );
    report
        .diagnostics
        .into_iter()
        .next()
        .expect("one diagnostic")
}

fn help(d: &Diagnostic) -> &str {
    d.help.as_deref().unwrap_or("")
}
