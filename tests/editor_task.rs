//! The VS Code task of `docs/editors.md`, run as written: one line per diagnostic, help
//! included, even when a message holds a line break (skipped where `jq` is not installed).

mod common;

use std::path::Path;

use common::{DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

/// The `tasks.json` block of the editors page.
fn task() -> Value {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors.md"))
            .expect("docs/editors.md");
    let start = page
        .find("```json\n{\n  \"version\": \"2.0.0\"")
        .expect("the tasks.json block")
        + 8;
    let end = start + page[start..].find("\n```").expect("its end");
    let doc: Value = serde_json::from_str(&page[start..end]).expect("tasks.json is JSON");
    doc["tasks"][0].clone()
}

#[test]
fn the_documented_task_gives_one_matching_line_per_diagnostic() {
    if std::process::Command::new("jq")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: jq is not installed");
        return;
    }
    let task = task();
    let command = task["command"].as_str().expect("command");
    let repo = Repo::with(&[
        DOJOPS_1_0,
        (
            ".dojops/tools/a/tool.yaml",
            &VALID_TOOL.replace("name: my-tool", "name: \"Bad\\nName\""),
        ),
        (".dojops/tools/a/input.schema.json", VALID_SCHEMA),
    ]);
    let bin = Path::new(env!("CARGO_BIN_EXE_toolc"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new("sh")
        .args(["-c", command])
        .current_dir(&repo.root)
        .env("PATH", path)
        .output()
        .expect("sh runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    // The fields the matcher's pattern captures, in its order.
    let fields: Vec<&str> = lines[0].splitn(8, ':').collect();
    assert_eq!(fields[0], ".dojops/tools/a/tool.yaml");
    assert!(
        fields[1..5].iter().all(|f| f.parse::<u32>().is_ok()),
        "{fields:?}"
    );
    assert_eq!(fields[5], "error");
    assert_eq!(fields[6], "DOJ003");
    assert!(
        fields[7].contains("Bad Name") && fields[7].contains("(help: rename it"),
        "{fields:?}"
    );
    let pattern = task["problemMatcher"]["pattern"]["regexp"]
        .as_str()
        .expect("regexp");
    assert!(
        pattern.starts_with('^') && pattern.ends_with("(.*)$"),
        "{pattern}"
    );
}
