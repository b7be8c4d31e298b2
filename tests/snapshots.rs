//! Snapshots of what a user sees on the example repository and the real-world corpus, human
//! and JSON, kept in the top-level `snapshots/` folder.

mod common;

use std::path::Path;

use assert_cmd::Command;

fn run(dir: &Path, args: &[&str]) -> (String, i32) {
    let out = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("run toolc");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    s.set_prepend_module_to_snapshot(false);
    s
}

fn demo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo")
}

#[test]
fn demo_human() {
    let (out, code) = run(&demo(), &["check", "--no-color"]);
    assert_eq!(code, 1, "the demo has errors");
    settings().bind(|| insta::assert_snapshot!("demo_human", out));
}

#[test]
fn demo_json() {
    let (out, code) = run(&demo(), &["check", "--format", "json"]);
    assert_eq!(code, 1);
    let value: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    settings().bind(|| insta::assert_json_snapshot!("demo_json", value));
}

#[test]
fn real_world_dojops_human() {
    // Files published by other projects: they sit beside the checkout, not in it.
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/real-world");
    if !corpus.is_dir() {
        eprintln!("skipped: ../shared/corpus/real-world not found");
        return;
    }
    let mut all = String::new();
    for folder in [
        "dojops-skills",
        "dojops-kind-tool",
        "dojops-v1-dops",
        "dojops-legacy",
    ] {
        let (out, _) = run(&corpus.join(folder), &["check", "--no-color"]);
        all.push_str(&format!("===== {folder}\n{out}\n"));
    }
    settings().bind(|| insta::assert_snapshot!("real_world_dojops_human", all));
}
