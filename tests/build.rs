//! `toolc build`: golden bundles of a repository with every format, each output valid
//! against its provider's tool shape, byte-identical whatever the thread count, nothing
//! written on an error, and `--check`.

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::Repo;

/// Every file a full build writes for the fixture.
const OUTPUTS: &[&str] = &[
    "openai.tools.json",
    "anthropic.tools.json",
    "mcp.tools.json",
    "gemini.tools.json",
    "toolc.bundle.json",
    "agents/support.json",
];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/build/mixed")
}

fn toolc(dir: &Path, args: &[&str], threads: &str) -> std::process::Output {
    Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("run toolc")
}

/// Build the fixture into a fresh folder and return it (kept alive by the `Repo`).
fn build_fixture(threads: &str) -> Repo {
    let out = Repo::new();
    let dir = out.root.to_string_lossy().into_owned();
    let run = toolc(&fixture(), &["build", "--out", &dir], threads);
    assert_eq!(
        run.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn golden_bundles_of_every_format() {
    let out = build_fixture("2");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    for rel in OUTPUTS {
        let text = read(&out.root, rel);
        assert!(
            text.ends_with("}\n") || text.ends_with("]\n"),
            "{rel}: trailing newline"
        );
        let name = format!("build_{}", rel.replace(['/', '.'], "_"));
        settings.bind(|| insta::assert_snapshot!(name, text));
    }
    let bundle: serde_json::Value =
        serde_json::from_str(&read(&out.root, "toolc.bundle.json")).expect("json");
    let formats: Vec<&str> = bundle["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["provenance"]["format"].as_str())
        .collect();
    for f in [
        "dojops-tool",
        "dojops-dops",
        "agentcli-manifest",
        "tool-md",
        "cycod-tool",
    ] {
        assert!(formats.contains(&f), "no tool from {f}: {formats:?}");
    }
}

/// Every provider file under `dir` is valid against the provider's tool shape.
fn assert_provider_shapes(dir: &Path) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/providers");
    for target in ["openai", "anthropic", "mcp", "gemini"] {
        let schema: serde_json::Value =
            serde_json::from_str(&read(&data, &format!("{target}.tools.schema.json")))
                .expect("schema json");
        assert!(jsonschema::meta::is_valid(&schema), "{target}: meta-valid");
        let validator = jsonschema::validator_for(&schema).expect("schema compiles");
        let file: serde_json::Value =
            serde_json::from_str(&read(dir, &format!("{target}.tools.json"))).expect("output json");
        let errors: Vec<String> = validator
            .iter_errors(&file)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{target}: {errors:#?}");
    }
}

#[test]
fn every_target_matches_its_provider_shape() {
    let out = build_fixture("2");
    assert_provider_shapes(&out.root);
}

/// The README's build walk-through: the demo with every finding fixed checks clean for every
/// target and builds all five files plus one file per agent, each as its provider takes it.
#[test]
fn the_fixed_demo_checks_clean_and_builds_every_bundle() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-fixed");
    let run = toolc(&demo, &["check", "--no-color"], "2");
    assert_eq!(
        String::from_utf8_lossy(&run.stdout).lines().last(),
        Some("All checks passed: 29 files, 16 tools."),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    assert_eq!(run.status.code(), Some(0));
    let out = Repo::new();
    let dir = out.root.to_string_lossy().into_owned();
    let run = toolc(&demo, &["build", "--out", &dir], "2");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(run.stdout.is_empty(), "no diagnostic at all: {run:?}");
    let mut written: Vec<String> = OUTPUTS
        .iter()
        .filter(|o| !o.starts_with("agents/"))
        .map(|o| (*o).to_string())
        .collect();
    written.extend(["agents/support.json".into(), "agents/triage.json".into()]);
    for rel in &written {
        assert!(out.root.join(rel).is_file(), "{rel} written");
    }
    assert_provider_shapes(&out.root);
    let bundle: serde_json::Value =
        serde_json::from_str(&read(&out.root, "toolc.bundle.json")).expect("json");
    assert_eq!(bundle["tools"].as_array().map(Vec::len), Some(15));
    assert_eq!(bundle["left_out"][0]["name"], "legacy-search");
    assert_eq!(bundle["skills"][0]["name"], "changelog-writer");
    // The demo's broken twin does not build.
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo");
    let run = toolc(&broken, &["build", "--out", &dir, "--check"], "2");
    assert_eq!(run.status.code(), Some(1));
}

#[test]
fn output_is_identical_with_one_or_many_threads() {
    let one = build_fixture("1");
    let many = build_fixture("8");
    for rel in OUTPUTS {
        assert_eq!(
            std::fs::read(one.root.join(rel)).expect("one"),
            std::fs::read(many.root.join(rel)).expect("many"),
            "{rel}"
        );
    }
}

/// A repository with a broken tool writes nothing, exits 1, and leaves old bundles alone.
#[test]
fn an_error_writes_nothing() {
    let repo = Repo::with(&[(
        "tools.json",
        r#"{"tools": [{"name": "a", "description": "x", "command": []}]}"#,
    )]);
    repo.write("dist/openai.tools.json", b"old\n");
    let run = toolc(&repo.root, &["build", "--out", "dist"], "2");
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("nothing was written"));
    assert_eq!(read(&repo.root, "dist/openai.tools.json"), "old\n");
    let entries: Vec<_> = std::fs::read_dir(repo.root.join("dist"))
        .expect("dist")
        .collect();
    assert_eq!(entries.len(), 1, "no other file appeared");
}

/// A schema a target cannot take stops the build for that target only.
#[test]
fn a_schema_gemini_cannot_take_stops_a_gemini_build() {
    let repo = Repo::with(&[(
        "tools.json",
        r#"{"tools": [{"name": "a", "description": "Does a", "command": ["./tools/bin/a"],
            "schema": {"type": "object", "properties": {"x": {"type": "string", "format": "uri"}}}}]}"#,
    )]);
    repo.write("tools/bin/a", b"#!/bin/sh\n");
    let run = toolc(&repo.root, &["build", "--out", "dist"], "2");
    assert_eq!(run.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("error[CMP004]") && stdout.contains("not a Gemini format for this type"),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("nothing was written"));
    assert!(!repo.root.join("dist").exists());
    let run = toolc(
        &repo.root,
        &["build", "--out", "dist", "--target", "openai,anthropic"],
        "2",
    );
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(repo.root.join("dist/openai.tools.json").is_file());
    assert!(!repo.root.join("dist/gemini.tools.json").exists());
}

#[test]
fn check_mode_says_whether_bundles_are_current() {
    let out = build_fixture("2");
    let dir = out.root.to_string_lossy().into_owned();
    let run = toolc(&fixture(), &["build", "--check", "--out", &dir], "2");
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::write(out.root.join("mcp.tools.json"), b"{}\n").expect("write");
    let run = toolc(&fixture(), &["build", "--check", "--out", &dir], "2");
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("mcp.tools.json"));
    // --check never writes.
    assert_eq!(read(&out.root, "mcp.tools.json"), "{}\n");
}

#[test]
fn unknown_target_is_a_usage_error() {
    let run = toolc(
        &fixture(),
        &["build", "--out", "x", "--target", "claude"],
        "2",
    );
    assert_eq!(run.status.code(), Some(2));
}

/// A repository of more agents than a process may hold files open builds, and checks as
/// current: the agent files are written and compared one at a time, not all at once.
#[test]
fn more_agents_than_open_files_allowed_build_and_check() {
    let repo = Repo::with(&[(
        "tools/search-docs.tool.md",
        &read(&fixture(), "tools/search-docs.tool.md"),
    )]);
    const AGENTS: usize = 1_200;
    for i in 0..AGENTS {
        let agent = read(&fixture(), "agents/support.agent.md").replace(
            "agent_id: \"support\"",
            &format!("agent_id: \"support-{i}\""),
        );
        repo.write(&format!("agents/support-{i}.agent.md"), agent.as_bytes());
    }
    // A limit of 256 open files, as many a system's default is, far below the agent count.
    let limited = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -n 256 && exec \"$0\" {args}"))
            .arg(env!("CARGO_BIN_EXE_toolc"))
            .current_dir(&repo.root)
            .env("RAYON_NUM_THREADS", "2")
            .output()
            .expect("run toolc")
    };
    let run = limited("build --out dist");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let written = std::fs::read_dir(repo.root.join("dist/agents"))
        .expect("dist/agents")
        .count();
    assert_eq!(written, AGENTS);
    let run = limited("build --check --out dist");
    assert_eq!(run.status.code(), Some(0), "{run:?}");
}
