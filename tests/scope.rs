//! Named files (as pre-commit passes them): toolc reports on those files only, but reads the
//! repository around them so cross-file rules still see every file.

mod common;

use std::path::Path;
use std::process::Output;

use common::{Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

const AGENT: &str = r#"---
agent_id: "helper"
tools:
  tool_choice: "auto"
  refs:
    - ref: "no-such-tool"
---
# Purpose
Helps.
"#;

fn toolc(dir: &Path, args: &[&str]) -> Output {
    assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run toolc")
}

/// Exit code and `path:line CODE` of each diagnostic, from `toolc check --format json ARGS`.
fn check(dir: &Path, args: &[&str]) -> (i32, Vec<String>, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = toolc(dir, &all);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let found = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "{}:{} {}",
                d["path"].as_str().unwrap_or("?"),
                d["span"]["start"]["line"],
                d["code"].as_str().unwrap_or("?")
            )
        })
        .collect();
    (
        out.status.code().unwrap_or(-1),
        found,
        json["summary"].clone(),
    )
}

/// Two DojOps tools with the same name in one project, and an agent with a dangling reference.
fn repo() -> Repo {
    let repo = Repo::with(&[
        (".dojops/tools/a/tool.yaml", VALID_TOOL),
        (".dojops/tools/a/input.schema.json", VALID_SCHEMA),
        (".dojops/tools/b/tool.yaml", VALID_TOOL),
        (".dojops/tools/b/input.schema.json", VALID_SCHEMA),
        ("agents/helper.agent.md", AGENT),
        ("README.md", "# not a tool\n"),
    ]);
    std::fs::create_dir_all(repo.root.join(".git")).expect("mkdir .git");
    repo
}

#[test]
fn a_duplicate_name_is_reported_when_only_one_file_is_named() {
    let repo = repo();
    let (_, everything, _) = check(&repo.root, &[]);
    assert!(
        everything
            .iter()
            .any(|d| d.starts_with(".dojops/tools/b/tool.yaml:2 DOJ011")),
        "{everything:#?}"
    );
    // The second definition carries the error (the first is its related place).
    let (code, found, summary) = check(&repo.root, &[".dojops/tools/b/tool.yaml"]);
    assert_eq!(code, 1);
    assert_eq!(found, [".dojops/tools/b/tool.yaml:2 DOJ011"]);
    assert_eq!(summary["files"], 1, "{summary}");
    assert_eq!(summary["tools"], 1, "{summary}");
    // Naming the first definition reports the error too: it points into that file (as
    // "first defined here"), and which of the two carries it depends only on path order.
    let (code, found, _) = check(&repo.root, &[".dojops/tools/a/tool.yaml"]);
    assert_eq!(code, 1);
    assert_eq!(found, [".dojops/tools/b/tool.yaml:2 DOJ011"]);
}

#[test]
fn an_agent_referencing_a_missing_tool_is_reported_when_named_alone() {
    let repo = repo();
    let (code, found, _) = check(&repo.root, &["agents/helper.agent.md"]);
    assert_eq!(code, 1);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("agents/helper.agent.md:"),
        "{found:#?}"
    );
    assert!(found[0].ends_with("REF020"), "{found:#?}");
}

#[test]
fn a_named_file_from_a_subfolder_finds_the_repository_by_its_git_folder() {
    let repo = repo();
    let sub = repo.root.join("agents");
    let (code, found, _) = check(&sub, &["../.dojops/tools/b/tool.yaml"]);
    assert_eq!(code, 1);
    assert_eq!(found, ["../.dojops/tools/b/tool.yaml:2 DOJ011"]);
}

#[test]
fn named_files_that_are_not_tool_definitions_are_ignored_silently() {
    let repo = repo();
    let (code, found, summary) = check(&repo.root, &["README.md"]);
    assert_eq!((code, found.len()), (0, 0), "{found:#?}");
    assert_eq!(summary["files"], 0, "{summary}");
    let out = toolc(&repo.root, &["check", "README.md"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_named_schema_reports_what_is_wrong_with_it() {
    let repo = repo();
    repo.write(".dojops/tools/a/input.schema.json", b"{\"type\": ");
    let (_, found, _) = check(&repo.root, &[".dojops/tools/a/input.schema.json"]);
    assert!(!found.is_empty());
    assert!(
        found
            .iter()
            .all(|d| d.starts_with(".dojops/tools/a/input.schema.json:")),
        "{found:#?}"
    );
}

#[test]
fn folders_and_files_together() {
    let repo = repo();
    let (_, found, _) = check(&repo.root, &["agents", ".dojops/tools/b/tool.yaml"]);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with(".dojops/tools/b/tool.yaml:2 DOJ011"));
    assert!(found[1].starts_with("agents/helper.agent.md:"));
}

#[test]
fn without_a_git_folder_the_working_directory_is_the_repository() {
    let repo = repo();
    std::fs::remove_dir_all(repo.root.join(".git")).expect("rm .git");
    let (_, found, _) = check(&repo.root, &[".dojops/tools/b/tool.yaml"]);
    assert_eq!(found, [".dojops/tools/b/tool.yaml:2 DOJ011"]);
}
