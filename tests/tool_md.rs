//! `*.tool.md` tools and `*.agent.md` agents: every rule triggered at the right line and
//! column with its severity, and silent on valid files (the spec's own examples among them).

mod common;

use std::path::PathBuf;

use common::{BASE_TOOL, Repo, lines};

#[path = "tool_md/agents.rs"]
mod agents;
#[path = "tool_md/front_matter.rs"]
mod front_matter;
#[path = "tool_md/lints.rs"]
mod lints;
#[path = "tool_md/robustness.rs"]
mod robustness;
#[path = "tool_md/schemas.rs"]
mod schemas;
#[path = "tool_md/transport.rs"]
mod transport;
#[path = "tool_md/valid.rs"]
mod valid;

const TOOL: &str = "tools/search-docs.tool.md";
const ACTION: &str = "tools/send-email.tool.md";
const AGENT: &str = "agents/helper.agent.md";

/// A valid action tool.
const ACTION_TOOL: &str = r#"---
spec_version: "1.2"
tool_id: "send-email"
version: "2.1.0"
status: "active"
meta:
  name: "Send Email"
  description: "Send an email to a customer. Use it only after the user confirmed."
  owner: "comms-team"
type: "action"
interface:
  input:
    type: object
    properties:
      to: {type: string, format: email}
      body: {type: string, maxLength: 10000}
    required: ["to", "body"]
  output:
    type: object
    properties:
      status: {type: string, enum: ["sent", "queued"]}
transport:
  type: "rest-api"
  base_url: "https://mail.example.com/v2"
  endpoint: "POST /send"
  retry_policy:
    max_attempts: 1
    on_status: []
  credentials:
    scheme: "bearer-token"
    source: "aws_secrets_manager"
    secret_id: "prod/mail-token"
use_guidance:
  use_when: ["the user confirmed the email"]
  avoid_when: ["the address is not verified"]
  side_effects: ["Sends an email; this cannot be undone."]
error_codes:
  429:
    meaning: "Rate limited"
    agent_action: "Wait, then retry once"
---
"#;

/// A valid agent using both tools.
const BASE_AGENT: &str = r#"---
agent_id: "helper"
tools:
  tool_choice: "auto"
  refs:
    - ref: "search-docs"
    - ref: "send-email"
      approval_required: true
      max_calls_per_run: 1
guardrails:
  tool_calls:
    require_user_confirmation_for: ["send-email"]
---
# Purpose
Answers questions and sends follow-up email.
"#;

/// Diagnostics as `path:line:col CODE severity message` for a repository of `files`.
fn check(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&repo.check().expect("config"))
}

/// The repository: both tools and the agent, with `path` replaced by `text`.
fn with(path: &str, text: &str) -> Vec<String> {
    let mut files = vec![
        (TOOL, BASE_TOOL),
        (ACTION, ACTION_TOOL),
        (AGENT, BASE_AGENT),
    ];
    match files.iter_mut().find(|(p, _)| *p == path) {
        Some(f) => f.1 = text,
        None => files.push((path, text)),
    }
    check(&files)
}

/// Assert exactly one diagnostic, and that it starts with `path:prefix` and holds `fragment`.
fn expect_one(found: Vec<String>, path: &str, prefix: &str, fragment: &str) {
    let want = format!("{path}:{prefix}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want) && found[0].contains(fragment),
        "expected one `{want}…{fragment}…`, got {found:#?}"
    );
}

/// `BASE_TOOL` with `from` replaced by `to` (which must occur).
fn tool_with(from: &str, to: &str) -> String {
    assert!(BASE_TOOL.contains(from), "`{from}` is not in the base tool");
    BASE_TOOL.replacen(from, to, 1)
}

fn agent_with(from: &str, to: &str) -> String {
    assert!(BASE_AGENT.contains(from), "`{from}` is not in the agent");
    BASE_AGENT.replacen(from, to, 1)
}
