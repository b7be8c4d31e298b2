//! `[[custom-rules]]` in `toolc.toml`: rules a team writes without code, over toolc's view of
//! every tool and over each file's own tree. Each finding is checked for its file, line,
//! code and severity, and each rule for its silence on files that follow it.

mod common;

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use common::{Repo, lines};

#[path = "custom_rules/broken_rules.rs"]
mod broken_rules;
#[path = "custom_rules/findings.rs"]
mod findings;
#[path = "custom_rules/functions.rs"]
mod functions;
#[path = "custom_rules/integration.rs"]
mod integration;

/// Four rules over cycod tools and Agent Skills, reading both tools and files, written in the
/// syntax of the documentation.
const POLICY: &str = r#"
[[custom-rules]]
code = "ORG001"                 # a family of our own
name = "description-too-short"
severity = "warning"
message = "tool `{name}`: describe it in at least 40 characters"
subject = "tool"
formats = ["cycod-tool"]
given = "$"
then = { field = "description", function = "length", options = { min = 40 } }

[[custom-rules]]
code = "ORG002"
name = "cycod-timeout"
severity = "error"
message = "cycod tool `{name}` sets no timeout"
subject = "file"
formats = ["cycod-tool"]
then = { field = "timeout", function = "defined" }

[[custom-rules]]
code = "ORG003"
name = "skill-license"
severity = "info"
message = "skill `{name}` names no license"
subject = "file"
formats = ["agent-skill"]
given = "$"
then = { field = "license", function = "truthy" }

[[custom-rules]]
code = "ORGX004"
name = "no-todo"
severity = "warning"
message = "`{name}` leaves a TODO in what the model reads"
subject = "tool"
formats = ["cycod-tool", "agent-skill"]
then = [
  { field = "description", function = "defined" },
  { field = "description", function = "notPattern", options = { pattern = "\\bTODO\\b" } },
]
"#;

const SHORT_TOOL: &str = "name: short\ndescription: Too short\nbash: echo hi\ntags: [read]\n";
const GOOD_TOOL: &str = "name: good\ndescription: Lists every file of the folder it is given, one per line\nbash: ls -1\ntimeout: 30000\ntags: [read]\n";
const TODO_TOOL: &str = "name: todo\ndescription: Lists every file of the folder. TODO say which folder\nbash: ls -1\ntimeout: 5000\ntags: [read]\n";
const BARE_SKILL: &str = "---\nname: bare\ndescription: Writes release notes from merged pull requests; use when preparing a release.\n---\n\n# Bare\n\nWrite the notes.\n";
const TODO_SKILL: &str = "---\nname: todo-skill\ndescription: TODO describe when to use this skill and what it writes for the user.\nlicense: MIT\n---\n\n# Todo\n\nWrite the notes.\n";
const GOOD_SKILL: &str = "---\nname: good-skill\ndescription: Writes release notes from merged pull requests; use when preparing a release.\nlicense: Apache-2.0\n---\n\n# Good\n\nWrite the notes.\n";

fn policy_repo() -> Repo {
    Repo::with(&[
        ("toolc.toml", POLICY),
        (".cycod/tools/short.yaml", SHORT_TOOL),
        (".cycod/tools/good.yaml", GOOD_TOOL),
        (".cycod/tools/todo.yaml", TODO_TOOL),
        (".claude/skills/bare/SKILL.md", BARE_SKILL),
        (".claude/skills/todo-skill/SKILL.md", TODO_SKILL),
        (".claude/skills/good-skill/SKILL.md", GOOD_SKILL),
    ])
}

/// The findings of custom rules only (their codes are not toolc's).
fn custom_lines(repo: &Repo) -> Vec<String> {
    let report = repo.check().expect("valid configuration");
    lines(&report)
        .into_iter()
        .filter(|l| l.contains(" ORG"))
        .collect()
}
