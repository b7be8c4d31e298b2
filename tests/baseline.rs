//! Gradual adoption, end to end: `--write-baseline`, then `--baseline` / `[baseline] path`
//! hide exactly what was recorded, whatever moves around it; new findings, fixed ones (stale
//! entries) and SARIF fingerprints.

mod common;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use common::{DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

fn toolc(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(args)
        .timeout(Duration::from_secs(20))
        .output()
        .expect("toolc runs")
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("toolc exits with a code")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `path`, `code` of every diagnostic of a JSON run.
fn findings(dir: &Path, args: &[&str]) -> Vec<(String, String)> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let output = toolc(dir, &all);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["path"].as_str().unwrap_or("").to_string(),
                d["code"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// A tool folder with `manifest` and a valid input schema.
fn tool(repo: &Repo, name: &str, manifest: &str) {
    if !repo.root.join("toolc.toml").exists() {
        repo.write(DOJOPS_1_0.0, DOJOPS_1_0.1.as_bytes());
    }
    repo.write(
        &format!(".dojops/tools/{name}/tool.yaml"),
        manifest.as_bytes(),
    );
    repo.write(
        &format!(".dojops/tools/{name}/input.schema.json"),
        VALID_SCHEMA.as_bytes(),
    );
}

/// Two tools with one finding each: a bad name (DOJ003) and a bad serializer (DOJ005).
fn legacy_repo() -> Repo {
    let repo = Repo::new();
    tool(
        &repo,
        "a",
        &VALID_TOOL.replace("name: my-tool", "name: Tool_A"),
    );
    tool(
        &repo,
        "b",
        &VALID_TOOL
            .replace("name: my-tool", "name: tool-b")
            .replace("serializer: yaml", "serializer: yml"),
    );
    repo
}

#[test]
fn recorded_findings_are_hidden_new_ones_reported_and_fixed_ones_stale() {
    let repo = legacy_repo();
    assert_eq!(code(&toolc(&repo.root, &["check"])), 1);

    let written = toolc(&repo.root, &["check", "--write-baseline"]);
    assert_eq!(code(&written), 0, "{}", text(&written.stderr));
    assert!(
        text(&written.stderr).contains("recorded 2 findings in toolc-baseline.json"),
        "{}",
        text(&written.stderr)
    );
    let baseline: Value = serde_json::from_slice(
        &std::fs::read(repo.root.join("toolc-baseline.json")).expect("baseline written"),
    )
    .expect("baseline is JSON");
    assert_eq!(baseline["version"], 1);
    assert_eq!(baseline["entries"].as_array().map(Vec::len), Some(2));

    let clean = toolc(&repo.root, &["check", "--baseline", "toolc-baseline.json"]);
    assert_eq!(code(&clean), 0, "{}", text(&clean.stdout));
    assert!(
        text(&clean.stdout).contains("2 findings hidden by the baseline toolc-baseline.json"),
        "{}",
        text(&clean.stdout)
    );

    // Unrelated edits above a recorded finding keep it recorded.
    tool(
        &repo,
        "a",
        &format!(
            "# owned by the platform team\n\n{}",
            VALID_TOOL.replace("name: my-tool", "name: Tool_A")
        ),
    );
    // Fixing one finding leaves a stale entry; a new finding is reported.
    tool(
        &repo,
        "b",
        &VALID_TOOL.replace("name: my-tool", "name: tool-b"),
    );
    tool(
        &repo,
        "c",
        &VALID_TOOL.replace("name: my-tool", "name: Tool_C"),
    );
    let after = findings(&repo.root, &["--baseline", "toolc-baseline.json"]);
    assert_eq!(
        after,
        [
            (
                ".dojops/tools/c/tool.yaml".to_string(),
                "DOJ003".to_string()
            ),
            ("toolc-baseline.json".to_string(), "TLC004".to_string()),
        ]
    );

    // Writing again prunes the stale entry and records the new finding.
    assert_eq!(code(&toolc(&repo.root, &["check", "--write-baseline"])), 0);
    assert!(findings(&repo.root, &["--baseline", "toolc-baseline.json"]).is_empty());
}

#[test]
fn a_second_occurrence_of_a_recorded_problem_is_new() {
    let repo = Repo::new();
    let two_files = |n: usize| {
        let mut manifest = VALID_TOOL.replace("serializer: yaml", "serializer: yml");
        for i in 1..n {
            manifest.push_str(&format!(
                "  - path: \"out/config{i}.yaml\"\n    serializer: yml\n"
            ));
        }
        manifest
    };
    tool(&repo, "a", &two_files(1));
    assert_eq!(code(&toolc(&repo.root, &["check", "--write-baseline"])), 0);
    tool(&repo, "a", &two_files(2));
    let after = findings(&repo.root, &["--baseline", "toolc-baseline.json"]);
    assert_eq!(
        after,
        [(
            ".dojops/tools/a/tool.yaml".to_string(),
            "DOJ005".to_string()
        )]
    );
}

#[test]
fn the_configured_baseline_applies_from_any_folder_and_to_the_library() {
    let repo = legacy_repo();
    repo.write(
        "toolc.toml",
        format!(
            "{}{}",
            DOJOPS_1_0.1, "[baseline]\npath = \"ci/toolc-baseline.json\"\n"
        )
        .as_bytes(),
    );
    let written = toolc(&repo.root, &["check", "--write-baseline"]);
    assert_eq!(code(&written), 0, "{}", text(&written.stderr));
    assert!(repo.root.join("ci/toolc-baseline.json").is_file());
    assert!(
        text(&written.stderr).contains("`toolc check` now reports only new findings"),
        "{}",
        text(&written.stderr)
    );
    assert_eq!(code(&toolc(&repo.root, &["check"])), 0);
    // From a subfolder: paths in the baseline are relative to the baseline's folder.
    assert_eq!(code(&toolc(&repo.root.join(".dojops"), &["check"])), 0);
    let report = repo.check().expect("valid config");
    assert!(
        report.diagnostics.is_empty(),
        "{:?}",
        common::lines(&report)
    );
    assert_eq!(report.baselined.len(), 2);
}

#[test]
fn a_partial_run_reports_stale_entries_only_for_what_it_checks_and_keeps_the_rest() {
    let repo = legacy_repo();
    assert_eq!(code(&toolc(&repo.root, &["check", "--write-baseline"])), 0);
    // `a` fixed, but only `b` is checked: nothing is stale for this run.
    tool(
        &repo,
        "a",
        &VALID_TOOL.replace("name: my-tool", "name: tool-a"),
    );
    let only_b = [".dojops/tools/b", "--baseline", "toolc-baseline.json"];
    assert!(findings(&repo.root, &only_b).is_empty());
    // Re-recording `b` alone keeps `a`'s entry; the full run then sees it stale.
    let partial = toolc(
        &repo.root,
        &["check", ".dojops/tools/b", "--write-baseline"],
    );
    assert!(
        text(&partial.stderr).contains("kept 1"),
        "{}",
        text(&partial.stderr)
    );
    assert_eq!(
        findings(&repo.root, &["--baseline", "toolc-baseline.json"]),
        [("toolc-baseline.json".to_string(), "TLC004".to_string())]
    );
    // `--select` narrows what is covered the same way.
    assert!(
        findings(
            &repo.root,
            &["--baseline", "toolc-baseline.json", "--select", "DOJ005"]
        )
        .is_empty()
    );
}

#[test]
fn sarif_fingerprints_are_the_baseline_fingerprints() {
    let repo = legacy_repo();
    assert_eq!(code(&toolc(&repo.root, &["check", "--write-baseline"])), 0);
    let baseline: Value = serde_json::from_slice(
        &std::fs::read(repo.root.join("toolc-baseline.json")).expect("baseline"),
    )
    .expect("JSON");
    let mut recorded: Vec<String> = baseline["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| format!("{}:1", e["fingerprint"].as_str().unwrap_or("")))
        .collect();
    recorded.sort();

    let output = toolc(
        &repo.root,
        &[
            "check",
            "--format",
            "sarif",
            "--baseline",
            "toolc-baseline.json",
        ],
    );
    let log: Value = serde_json::from_slice(&output.stdout).expect("SARIF");
    let results = log["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut fingerprints: Vec<String> = results
        .iter()
        .map(|r| {
            r["partialFingerprints"][baseline["fingerprint"].as_str().unwrap_or("")]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    fingerprints.sort();
    assert_eq!(fingerprints, recorded);
    // Baselined results stay in the log, dismissed, so code scanning does not close them.
    for r in &results {
        assert_eq!(r["suppressions"][0]["kind"], "external", "{r:#}");
    }
}

#[test]
fn baseline_usage_errors_and_invalid_files() {
    let repo = legacy_repo();
    let missing = toolc(&repo.root, &["check", "--baseline", "nope.json"]);
    assert_eq!(code(&missing), 2);
    assert!(
        text(&missing.stderr).contains("--write-baseline"),
        "{}",
        text(&missing.stderr)
    );
    let folder = toolc(&repo.root, &["check", "--write-baseline", ".dojops"]);
    assert_eq!(code(&folder), 2);
    assert!(
        text(&folder.stderr).contains("a folder"),
        "{}",
        text(&folder.stderr)
    );

    // A configured baseline that is not one: an error in it, and nothing is hidden.
    repo.write(
        "toolc.toml",
        format!("{}{}", DOJOPS_1_0.1, "[baseline]\npath = \"b.json\"\n").as_bytes(),
    );
    repo.write("b.json", b"[1, 2]\n");
    let found = findings(&repo.root, &[]);
    assert!(
        found.contains(&("b.json".to_string(), "TLC005".to_string())),
        "{found:?}"
    );
    assert!(found.iter().any(|(_, c)| c == "DOJ003"), "{found:?}");
    repo.write(
        "toolc.toml",
        format!(
            "{}{}",
            DOJOPS_1_0.1, "[baseline]\npath = \"missing.json\"\n"
        )
        .as_bytes(),
    );
    let found = findings(&repo.root, &[]);
    assert!(
        found.contains(&("missing.json".to_string(), "TLC005".to_string())),
        "{found:?}"
    );
}

/// Copy the files under `from` into `to`, keeping relative paths.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from)
        .expect("read corpus folder")
        .flatten()
    {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// On published repositories (a catalog with no finding, spec examples with many): the
/// baseline written, the re-run clean, a new finding reported, a removed one stale.
#[test]
fn on_public_repositories_new_findings_show_and_removed_ones_go_stale() {
    for name in ["dojops-catalog", "cycod"] {
        let Some(corpus) = common::corpus(name) else {
            continue;
        };
        let repo = Repo::new();
        copy_tree(&corpus, &repo.root);
        let written = toolc(&repo.root, &["check", "--write-baseline"]);
        assert_eq!(code(&written), 0, "{name}: {}", text(&written.stderr));
        let args = ["--baseline", "toolc-baseline.json"];
        assert!(findings(&repo.root, &args).is_empty(), "{name}: not clean");

        let baseline: Value = serde_json::from_slice(
            &std::fs::read(repo.root.join("toolc-baseline.json")).expect("baseline"),
        )
        .expect("JSON");
        let removed = baseline["entries"][0]["path"].as_str().map(str::to_string);
        if let Some(path) = &removed {
            std::fs::remove_file(repo.root.join(path)).expect("remove a file with a finding");
        }
        tool(
            &repo,
            "new",
            &VALID_TOOL.replace("name: my-tool", "name: New_Tool"),
        );
        let after = findings(&repo.root, &args);
        let new = (
            ".dojops/tools/new/tool.yaml".to_string(),
            "DOJ003".to_string(),
        );
        assert!(after.contains(&new), "{name}: {after:?}");
        let stale = ("toolc-baseline.json".to_string(), "TLC004".to_string());
        assert_eq!(
            after.contains(&stale),
            removed.is_some(),
            "{name}: {after:?}"
        );
        assert!(
            after
                .iter()
                .all(|(path, _)| path == "toolc-baseline.json"
                    || path.starts_with(".dojops/tools/new/")),
            "{name}: only the new tool and the stale entries: {after:?}"
        );
    }
}
