//! `TR-*.md` tool execution requests: every rule triggered at the right line and column,
//! silent on valid ERA and Monty requests, and the secret detector quiet on input hashes.

mod common;

use common::{Repo, lines};

#[path = "tool_request/command.rs"]
mod command;
#[path = "tool_request/front_matter.rs"]
mod front_matter;
#[path = "tool_request/risk.rs"]
mod risk;
#[path = "tool_request/sections.rs"]
mod sections;
#[path = "tool_request/whole_requests.rs"]
mod whole_requests;

const ERA_PATH: &str = "requests/TR-20250131-140500Z-sales-summary.md";
const MONTY_PATH: &str = "requests/TR-20250131-160000Z-mean-of-values.md";
const ERA: &str =
    include_str!("fixtures/tool-request/valid/requests/TR-20250131-140500Z-sales-summary.md");
const MONTY: &str =
    include_str!("fixtures/tool-request/valid/requests/TR-20250131-160000Z-mean-of-values.md");

/// Diagnostics (as `path:line:col CODE severity message`) for one request at `path`.
fn check_at(path: &str, text: &str) -> Vec<String> {
    let repo = Repo::with(&[(path, text)]);
    lines(&repo.check().expect("config"))
}

/// `text` with `from` replaced (which must be there).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the request lacks {from:?}");
    text.replacen(from, to, 1)
}

/// Assert exactly these diagnostics (`line:col CODE severity message` each) for the edited
/// ERA request.
fn era(from: &str, to: &str, want: &[&str]) {
    expect(ERA_PATH, &edit(ERA, from, to), want);
}

fn monty(from: &str, to: &str, want: &[&str]) {
    expect(MONTY_PATH, &edit(MONTY, from, to), want);
}

fn expect(path: &str, text: &str, want: &[&str]) {
    let found = check_at(path, text);
    let want: Vec<String> = want.iter().map(|w| format!("{path}:{w}")).collect();
    assert_eq!(found, want);
}
