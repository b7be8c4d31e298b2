//! cycod custom tools: every rule triggered at the right line and column with its severity,
//! and silent on near misses; the spec's examples and the real-world corpus.

mod common;

use common::{CYCOD_STEPS as STEPS, Repo, VALID_CYCOD as BASE, lines};

#[path = "cycod/commands.rs"]
mod commands;
#[path = "cycod/examples.rs"]
mod examples;
#[path = "cycod/keys.rs"]
mod keys;
#[path = "cycod/parameters.rs"]
mod parameters;
#[path = "cycod/references.rs"]
mod references;
#[path = "cycod/security.rs"]
mod security;

const T: &str = ".cycod/tools/search.yaml";

/// Diagnostics (as `path:line:col CODE severity message`) for a repository of these files.
fn check_files(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&repo.check().expect("config"))
}

/// Diagnostics for one tool file at `T`.
fn check(tool: &str) -> Vec<String> {
    check_files(&[(T, tool)])
}

/// Assert the diagnostics of one tool at `T` are exactly `want` (`line:col CODE severity message`).
fn expect(tool: &str, want: &[&str]) {
    let want: Vec<String> = want.iter().map(|w| format!("{T}:{w}")).collect();
    assert_eq!(check(tool), want);
}

fn silent(tool: &str) {
    expect(tool, &[]);
}
