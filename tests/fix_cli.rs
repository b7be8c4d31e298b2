//! `toolc check --fix` and `--diff` as a user runs them: what is written, what is printed,
//! what is left alone, and the exit code after the fixes.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use assert_cmd::Command;
use common::{Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

const TOOL_YAML: &str = ".dojops/tools/my-tool/tool.yaml";
const SCHEMA: &str = ".dojops/tools/my-tool/input.schema.json";

fn toolc(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("toolc runs")
}

fn read(repo: &Repo, path: &str) -> String {
    std::fs::read_to_string(repo.root.join(path)).expect("read")
}

/// A manifest with a misspelt key (DOJ007, a safe fix) and a comment on its line.
fn misspelt() -> String {
    VALID_TOOL.replace(
        "version: \"1.0.0\"",
        "verison:   \"1.0.0\"   # bumped by release",
    )
}

#[test]
fn fix_keeps_the_formatting_and_comments_around_the_edit() {
    let repo = Repo::with(&[(TOOL_YAML, &misspelt()), (SCHEMA, VALID_SCHEMA)]);
    let out = toolc(&repo.root, &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        read(&repo, TOOL_YAML),
        VALID_TOOL.replace(
            "version: \"1.0.0\"",
            "version:   \"1.0.0\"   # bumped by release"
        )
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fixed 2 findings in 1 file"), "{stderr}");
}

#[test]
fn diff_prints_the_edits_and_writes_nothing() {
    let repo = Repo::with(&[(TOOL_YAML, &misspelt()), (SCHEMA, VALID_SCHEMA)]);
    let out = toolc(&repo.root, &["check", "--diff"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        format!(
            "--- a/{TOOL_YAML}\n+++ b/{TOOL_YAML}\n@@ -1,6 +1,6 @@\n spec: 1\n name: my-tool\n-verison:   \"1.0.0\"   # bumped by release\n+version:   \"1.0.0\"   # bumped by release\n type: tool\n description: \"Generates a config file\"\n inputSchema: \"input.schema.json\"\n"
        )
    );
    // Something to fix fails the run, as a check in CI.
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(read(&repo, TOOL_YAML), misspelt());

    // Nothing to fix: no output, exit 0.
    let clean = Repo::with(&[(TOOL_YAML, VALID_TOOL), (SCHEMA, VALID_SCHEMA)]);
    let out = toolc(&clean.root, &["check", "--diff"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_file_with_a_syntax_error_is_never_touched() {
    // A duplicate key is a syntax finding, yet the rest of the manifest is still read and
    // its misspelt key offers a safe fix.
    let broken = format!("{}description: \"again\"\n", misspelt());
    let repo = Repo::with(&[(TOOL_YAML, &broken), (SCHEMA, VALID_SCHEMA)]);
    let before = toolc(&repo.root, &["check", "--format", "json"]);
    let before: Value = serde_json::from_slice(&before.stdout).expect("json");
    let codes: Vec<&str> = before["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(
        codes.contains(&"SYN003") && codes.contains(&"DOJ007"),
        "{codes:?}"
    );

    let out = toolc(&repo.root, &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(1), "the errors remain");
    assert_eq!(read(&repo, TOOL_YAML), broken);
}

#[test]
fn exit_code_follows_what_remains_after_the_fixes() {
    // Only a safe-fixable error: fixed, nothing remains, exit 0.
    let repo = Repo::with(&[(TOOL_YAML, &misspelt()), (SCHEMA, VALID_SCHEMA)]);
    assert_eq!(toolc(&repo.root, &["check"]).status.code(), Some(1));
    assert_eq!(
        toolc(&repo.root, &["check", "--fix"]).status.code(),
        Some(0)
    );
    assert_eq!(toolc(&repo.root, &["check"]).status.code(), Some(0));
}

#[test]
fn fix_and_diff_refuse_a_buffer_on_stdin() {
    let repo = Repo::with(&[(TOOL_YAML, VALID_TOOL)]);
    for flag in ["--fix", "--diff"] {
        let out = toolc(&repo.root, &["check", flag, "--stdin-filename", TOOL_YAML]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
    }
}

/// Copy the folder `from` (hidden folders too) into `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// `(path, code)` → how many times, for the diagnostics of a JSON report.
fn tally(output: &Value) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for d in output["diagnostics"].as_array().into_iter().flatten() {
        let key = (d["path"].to_string(), d["code"].to_string());
        *out.entry(key).or_insert(0) += 1;
    }
    out
}

#[test]
fn fix_on_the_demo_fixes_every_safe_finding_and_the_recheck_shows_only_the_rest() {
    let repo = Repo::new();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo"),
        &repo.root,
    );
    let json = |args: &[&str]| -> Value {
        serde_json::from_slice(&toolc(&repo.root, args).stdout).expect("json")
    };
    let before = json(&["check", "--format", "json"]);
    let safe: Vec<&Value> = before["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["fix"]["applicability"] == "safe")
        .collect();
    assert!(!safe.is_empty(), "the demo has safe fixes");

    let out = toolc(&repo.root, &["check", "--fix"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "errors without a safe fix remain"
    );
    let after = json(&["check", "--format", "json"]);
    let after_list = after["diagnostics"].as_array().expect("diagnostics");
    assert!(
        after_list
            .iter()
            .all(|d| d["fix"]["applicability"] != "safe"),
        "{after}"
    );
    // The safe-fixable findings are gone and no finding is new. A fix may take a finding
    // it caused with it: the misspelt `permisions` hid `child_process: required`, so the
    // verification DOJ015 said never runs now does.
    let mut expected = tally(&before);
    for d in &safe {
        let key = (d["path"].to_string(), d["code"].to_string());
        if let Some(n) = expected.get_mut(&key) {
            *n -= 1;
        }
    }
    let dependent = (
        "\".dojops/tools/k8s-manifest/tool.yaml\"".to_string(),
        "\"DOJ015\"".to_string(),
    );
    expected.remove(&dependent);
    expected.retain(|_, n| *n > 0);
    assert_eq!(tally(&after), expected);
}

/// A round of fixes fixes the 200 findings a rule shows in a file; past ten rounds the rest
/// is left for the next run, and the run says so.
#[test]
fn fixes_left_when_the_rounds_run_out_are_counted_and_a_second_run_fixes_them() {
    let tools: Vec<String> = (0..2_050)
        .map(|i| format!(r#"{{"name":"t{i}","inputSchema":{{"type":"strin"}}}}"#))
        .collect();
    let repo = Repo::with(&[(
        "tools.json",
        &format!(r#"{{"tools":[{}]}}"#, tools.join(",")),
    )]);
    let out = toolc(&repo.root, &["check", "--fix"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fixed 2000 findings in 1 file"), "{stderr}");
    assert!(
        stderr.contains("50 findings have a safe fix still to apply")
            && stderr.contains("run it again"),
        "{stderr}"
    );
    assert_eq!(read(&repo, "tools.json").matches(r#""strin""#).count(), 50);
    let again = toolc(&repo.root, &["check", "--fix"]);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(!stderr.contains("still to apply"), "{stderr}");
    assert_eq!(read(&repo, "tools.json").matches(r#""strin""#).count(), 0);
}
