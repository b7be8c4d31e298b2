//! Named files (as pre-commit passes them): toolc reports on those files only, but reads the
//! repository around them so cross-file rules still see every file.

mod common;

use std::path::Path;
use std::process::Output;

use common::{DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL};
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
        DOJOPS_1_0,
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
fn a_named_file_no_format_reads_is_a_warning_and_checking_nothing_fails() {
    let repo = repo();
    // The warning says the file was not checked; a run that read no definition is exit 2.
    let (code, found, summary) = check(&repo.root, &["README.md"]);
    assert_eq!(code, 2);
    assert_eq!(found, ["README.md:1 TLC006"]);
    assert_eq!(summary["files"], 0, "{summary}");
    let out = toolc(&repo.root, &["check", "README.md"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no tool definition found in `README.md`"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("All checks passed"));
    // `--allow-empty` (the pre-commit hook's) accepts it; the warning stays.
    let (code, found, _) = check(&repo.root, &["--allow-empty", "README.md"]);
    assert_eq!((code, found.len()), (0, 1), "{found:#?}");
    // Beside a definition, the same file is a warning among the findings.
    let (code, found, _) = check(&repo.root, &["README.md", ".dojops/tools/a/tool.yaml"]);
    assert_eq!(code, 1, "DOJ011, as above: {found:#?}");
    assert!(
        found.contains(&"README.md:1 TLC006".to_string()),
        "{found:#?}"
    );
}

#[test]
fn an_empty_folder_fails_and_a_misnamed_manifest_says_the_expected_name() {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.root.join("empty")).expect("mkdir");
    let out = toolc(&repo.root, &["check", "empty"]);
    assert_eq!(out.status.code(), Some(2));
    repo.write(".dojops/tools/x/tool.yml", VALID_TOOL.as_bytes());
    let out = toolc(&repo.root, &["check", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2), "the only manifest is not read");
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let d = &json["diagnostics"][0];
    assert_eq!(d["code"], "TLC006");
    assert_eq!(d["path"], ".dojops/tools/x/tool.yml");
    assert_eq!(d["help"], "rename it to `tool.yaml`");
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
