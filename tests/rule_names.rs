//! A rule name means one kind of problem in every format: `unknown-key` selects, ignores,
//! configures and suppresses DojOps's DOJ007 and also agentcli's, cycod's, tool.md's and the
//! tool requests' unknown-key rules; a name with its format prefix still selects that one rule.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::{DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

/// A cycod tool with an unknown key (CYC001) and a DojOps tool with one (DOJ007); the DojOps
/// name is also invalid (DOJ003), which no unknown-key selector touches.
fn repo() -> Repo {
    Repo::with(&[
        DOJOPS_1_0,
        (
            ".cycod/tools/search.yaml",
            "name: search\ndescription: Search files\nbash: grep -r x .\ntags: [read]\nplatforms: [linux]\ncontinue-on-error: true\n",
        ),
        (
            ".dojops/tools/t/tool.yaml",
            &VALID_TOOL.replace("name: my-tool", "name: Bad_Name\nauthor: me"),
        ),
        (".dojops/tools/t/input.schema.json", VALID_SCHEMA),
    ])
}

fn codes(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let output = Command::cargo_bin("toolc")
        .expect("toolc")
        .current_dir(dir)
        .args(&all)
        .output()
        .expect("toolc runs");
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let mut codes: Vec<String> = doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str().map(str::to_string))
        .collect();
    codes.sort();
    codes
}

#[test]
fn a_kind_name_selects_and_ignores_the_rule_in_every_format() {
    let repo = repo();
    assert_eq!(codes(&repo.root, &[]), ["CYC001", "DOJ003", "DOJ007"]);
    assert_eq!(
        codes(&repo.root, &["--select", "unknown-key"]),
        ["CYC001", "DOJ007"]
    );
    assert_eq!(codes(&repo.root, &["--ignore", "unknown-key"]), ["DOJ003"]);
    // The prefixed name is that format's rule alone.
    assert_eq!(
        codes(&repo.root, &["--select", "cycod-unknown-key"]),
        ["CYC001"]
    );
}

#[test]
fn a_kind_name_in_configuration_and_in_a_suppression_covers_every_format() {
    let repo = repo();
    repo.write(
        "toolc.toml",
        format!("{}[rules]\nunknown-key = \"off\"\n", DOJOPS_1_0.1).as_bytes(),
    );
    assert_eq!(codes(&repo.root, &[]), ["DOJ003"]);
    repo.write("toolc.toml", DOJOPS_1_0.1.as_bytes());
    repo.write(
        ".cycod/tools/search.yaml",
        b"name: search\ndescription: Search files\nbash: grep -r x .\ntags: [read]\nplatforms: [linux]\n# toolc: ignore unknown-key -- read by our fork\ncontinue-on-error: true\n",
    );
    assert_eq!(codes(&repo.root, &[]), ["DOJ003", "DOJ007"]);
}
