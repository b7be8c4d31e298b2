//! The same scope whatever is named: a folder, like a file, is read with its project around
//! it (the nearest folder with `toolc.toml`, else the repository) and only it is reported on.

mod common;

use std::path::Path;

use common::{BASE_TOOL, Repo};
use serde_json::Value;

/// An agent that calls `search-docs`, defined in another folder.
const AGENT: &str = r#"---
agent_id: "helper"
tools:
  tool_choice: "auto"
  refs:
    - ref: "search-docs"
---
# Purpose
Helps.
"#;

/// `path CODE` of each diagnostic and the exit code of `toolc check --format json ARGS`.
fn check(dir: &Path, args: &[&str]) -> (i32, Vec<String>) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(&all)
        .output()
        .expect("run toolc");
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let found = json["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            format!(
                "{} {}",
                d["path"].as_str().unwrap_or("?"),
                d["code"].as_str().unwrap_or("?")
            )
        })
        .collect();
    (out.status.code().unwrap_or(-1), found)
}

#[test]
fn a_named_folder_sees_the_tools_of_the_rest_of_the_repository() {
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", BASE_TOOL),
        ("agents/helper.agent.md", AGENT),
    ]);
    std::fs::create_dir_all(repo.root.join(".git")).expect("mkdir .git");
    // Before, `agents/` alone reported REF020: the tool "is missing".
    assert_eq!(check(&repo.root, &["agents"]), (0, vec![]));
    assert_eq!(check(&repo.root, &["agents/helper.agent.md"]), (0, vec![]));
    assert_eq!(check(&repo.root, &[]), (0, vec![]));
    // A problem in the folder not named is not reported.
    repo.write(
        "tools/search-docs.tool.md",
        BASE_TOOL
            .replace("version: \"1.0.0\"", "version: \"1.0\"")
            .as_bytes(),
    );
    assert_eq!(check(&repo.root, &["agents"]), (0, vec![]));
    let (code, found) = check(&repo.root, &["tools"]);
    assert_eq!(
        (code, found),
        (1, vec!["tools/search-docs.tool.md TMD005".to_string()])
    );
}

#[test]
fn a_project_with_its_own_configuration_is_not_mixed_with_its_neighbours() {
    // Two example projects in one repository define the same tool: each is a project.
    let repo = Repo::with(&[
        ("examples/a/toolc.toml", ""),
        ("examples/a/tools/search-docs.tool.md", BASE_TOOL),
        ("examples/b/toolc.toml", ""),
        ("examples/b/tools/search-docs.tool.md", BASE_TOOL),
    ]);
    std::fs::create_dir_all(repo.root.join(".git")).expect("mkdir .git");
    assert_eq!(check(&repo.root, &["examples/a"]), (0, vec![]));
    assert_eq!(
        check(&repo.root, &["examples/a/tools/search-docs.tool.md"]),
        (0, vec![])
    );
    assert_eq!(check(&repo.root.join("examples/a"), &[]), (0, vec![]));
}
