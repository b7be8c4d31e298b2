//! The library an editor drives: buffers over the disk, and re-checks of one changed file.

mod common;

use common::Repo;
use toolc::Workspace;
use toolc::config::Config;

const TOOL: &str = include_str!("../examples/demo-fixed/tools/create-ticket.tool.md");

const AGENT: &str = r#"---
spec_version: "1.2"
agent_id: "triage"
version: "0.3.0"
status: "draft"
meta:
  name: "Triage Agent"
  owner: "cx-team"
tools:
  tool_choice: "auto"
  refs:
    - ref: "create-ticket"
      max_calls_per_run: 1
guardrails:
  tool_calls:
    require_user_confirmation_for: ["create-ticket"]
---
# Purpose
Opens a ticket for what the docs do not cover.
"#;

fn workspace(repo: &Repo) -> Workspace {
    let config = Config::discover(&repo.root, None).expect("config");
    Workspace::new(config, repo.root.clone())
}

/// `path CODE` per diagnostic of the report.
fn codes(report: &toolc::Report) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.file.display, d.rule.code))
        .collect()
}

fn files(report: &toolc::Report) -> Vec<&str> {
    report.files.iter().map(|f| f.display.as_str()).collect()
}

#[test]
fn an_unsaved_buffer_is_checked_in_place_of_the_file_on_disk() {
    let repo = Repo::with(&[("tools/create-ticket.tool.md", TOOL)]);
    let mut ws = workspace(&repo);
    assert_eq!(codes(&ws.check()), Vec::<String>::new());

    let broken = TOOL.replace("type: \"action\"", "type: \"actoin\"");
    ws.set_buffer("tools/create-ticket.tool.md", broken);
    let report = ws.check_file("tools/create-ticket.tool.md");
    assert_eq!(codes(&report), ["tools/create-ticket.tool.md TMD006"]);
    // The disk still holds the valid file: only the buffer is broken.
    assert!(
        common::check_dir(&repo.root)
            .expect("config")
            .diagnostics
            .is_empty()
    );

    ws.set_buffer("tools/create-ticket.tool.md", TOOL);
    let report = ws.check_file("tools/create-ticket.tool.md");
    assert_eq!(codes(&report), Vec::<String>::new());
    assert_eq!(files(&report), ["tools/create-ticket.tool.md"]);
}

#[test]
fn disabling_a_tool_reports_the_agent_that_references_it_and_enabling_clears_it() {
    let repo = Repo::with(&[
        ("tools/create-ticket.tool.md", TOOL),
        ("agents/triage.agent.md", AGENT),
    ]);
    let mut ws = workspace(&repo);
    assert_eq!(codes(&ws.check()), Vec::<String>::new());

    let disabled = TOOL.replace("status: \"active\"", "status: \"disabled\"");
    ws.set_buffer("tools/create-ticket.tool.md", disabled);
    let report = ws.check_file("tools/create-ticket.tool.md");
    assert_eq!(codes(&report), ["agents/triage.agent.md REF021"]);

    assert!(ws.remove_buffer("tools/create-ticket.tool.md"));
    let report = ws.check_file("tools/create-ticket.tool.md");
    assert_eq!(codes(&report), Vec::<String>::new());
    // The agent is named, so an editor clears the finding it showed.
    assert_eq!(
        files(&report),
        ["agents/triage.agent.md", "tools/create-ticket.tool.md"]
    );
}

#[test]
fn a_buffer_for_a_file_not_on_disk_adds_it_and_removing_the_buffer_removes_it() {
    let repo = Repo::with(&[("tools/create-ticket.tool.md", TOOL)]);
    let mut ws = workspace(&repo);
    ws.check();
    ws.set_buffer("tools/copy.tool.md", TOOL);
    let report = ws.check_file("tools/copy.tool.md");
    // The new file's own finding, and the duplicate id now reported on the other file.
    assert_eq!(
        codes(&report),
        [
            "tools/copy.tool.md TMD028",
            "tools/create-ticket.tool.md TMD024"
        ]
    );

    // Closing the buffer of a file that is not on disk removes it from the repository.
    ws.remove_buffer("tools/copy.tool.md");
    let report = ws.check_file("tools/copy.tool.md");
    assert_eq!(codes(&report), Vec::<String>::new());
    assert_eq!(files(&report), ["tools/create-ticket.tool.md"]);
}
