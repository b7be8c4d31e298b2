//! Hostile input, end to end: no file may make toolc panic or hang.
//!
//! Every repository here also holds a `sentinel` tool with a known error, so each test proves
//! toolc went on with the other files after meeting the hostile one.

mod common;

use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::{DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL, check_dir};
use serde_json::Value;
use toolc::OutputFormat;

#[path = "hostile/big_files.rs"]
mod big_files;
#[path = "hostile/mutate.rs"]
mod mutate;
use mutate::{mutate, rng, scale};
#[path = "hostile/cache.rs"]
mod cache;
#[path = "hostile/commands_budget.rs"]
mod commands_budget;
#[path = "hostile/config.rs"]
mod config;
#[path = "hostile/dense.rs"]
mod dense;
#[path = "hostile/dense_findings.rs"]
mod dense_findings;
#[path = "hostile/dense_lists.rs"]
mod dense_lists;
#[path = "hostile/dense_maps.rs"]
mod dense_maps;
#[path = "hostile/dense_markdown.rs"]
mod dense_markdown;
#[path = "hostile/dense_shell.rs"]
mod dense_shell;
#[path = "hostile/dense_tools.rs"]
mod dense_tools;
#[path = "hostile/dense_trees.rs"]
mod dense_trees;
#[path = "hostile/diffs.rs"]
mod diffs;
#[path = "hostile/fixes.rs"]
mod fixes;
#[path = "hostile/folders.rs"]
mod folders;
#[path = "hostile/fuzz.rs"]
mod fuzz;
#[path = "hostile/hidden.rs"]
mod hidden;
#[path = "hostile/links.rs"]
mod links;
#[path = "hostile/locks.rs"]
mod locks;
#[path = "hostile/long_words.rs"]
mod long_words;
#[path = "hostile/malformed.rs"]
mod malformed;
#[path = "hostile/many_files.rs"]
mod many_files;
#[path = "hostile/many_findings.rs"]
mod many_findings;
#[path = "hostile/nesting.rs"]
mod nesting;
#[path = "hostile/output.rs"]
mod output;
#[path = "hostile/paths.rs"]
mod paths;
#[path = "hostile/printed.rs"]
mod printed;
#[path = "hostile/property.rs"]
mod property;
#[path = "hostile/reads.rs"]
mod reads;
#[path = "hostile/references.rs"]
mod references;
#[path = "hostile/server.rs"]
mod server;
#[path = "hostile/shellcheck.rs"]
mod shellcheck;
#[path = "hostile/targets.rs"]
mod targets;

/// How long a run may take before it counts as hung. Generous on purpose: this is the debug
/// binary on a shared CI machine, and speed is measured in `benches/`, not here; a hang or a
/// quadratic blow-up still runs into it.
const HANG_LIMIT: Duration = Duration::from_secs(90);

/// A repository with the sentinel tool (DOJ003 on its name) and nothing else.
fn repo() -> Repo {
    let repo = Repo::new();
    // `tool.yaml` tools as the DojOps releases that load them see them.
    repo.write(common::DOJOPS_1_0.0, common::DOJOPS_1_0.1.as_bytes());
    repo.write(
        ".dojops/tools/sentinel/tool.yaml",
        VALID_TOOL.replace("my-tool", "Sentinel_Tool").as_bytes(),
    );
    repo.write(
        ".dojops/tools/sentinel/input.schema.json",
        VALID_SCHEMA.as_bytes(),
    );
    repo
}

/// A repository of one DojOps tool (whose schema file is missing), a git repository when
/// `git`.
fn one_tool(git: bool) -> Repo {
    let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
    if git {
        repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    }
    repo
}

/// Write a tool folder: `tool.yaml` with `manifest`, and the valid input schema.
fn tool(repo: &Repo, name: &str, manifest: &[u8]) {
    repo.write(&format!(".dojops/tools/{name}/tool.yaml"), manifest);
    repo.write(
        &format!(".dojops/tools/{name}/input.schema.json"),
        VALID_SCHEMA.as_bytes(),
    );
}

fn run(repo: &Repo, args: &[&str]) -> Output {
    run_exiting(repo, args, &[0, 1])
}

/// Run toolc in `repo`; it must finish in time with one of the exit `codes` (never a panic,
/// 101, or a signal).
fn run_exiting(repo: &Repo, args: &[&str], codes: &[i32]) -> Output {
    let started = Instant::now();
    let output = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(&repo.root)
        .args(args)
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    assert!(
        started.elapsed() < HANG_LIMIT,
        "toolc did not finish within {HANG_LIMIT:?}"
    );
    assert!(
        output.status.code().is_some_and(|c| codes.contains(&c)),
        "toolc must exit with one of {codes:?}, got {:?}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `toolc check --format json` in the repository: every diagnostic, parsed.
fn diagnostics(repo: &Repo) -> Vec<Value> {
    let output = run(repo, &["check", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let diags = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "DOJ003" && d["path"] == ".dojops/tools/sentinel/tool.yaml"),
        "toolc must go on with the other files: the sentinel's DOJ003 is missing from {diags:#?}"
    );
    diags
}

/// The findings of `check --no-cache --format json` in `repo`.
fn findings(repo: &Repo) -> Vec<Value> {
    let output = run(repo, &["check", "--no-cache", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    doc["diagnostics"].as_array().cloned().unwrap_or_default()
}

/// The diagnostics of `code` in `path`.
fn find<'a>(diags: &'a [Value], code: &str, path: &str) -> Vec<&'a Value> {
    let found: Vec<_> = diags
        .iter()
        .filter(|d| d["code"] == code && d["path"] == path)
        .collect();
    assert!(
        !found.is_empty(),
        "expected {code} in {path}, got {diags:#?}"
    );
    found
}

fn start(d: &Value) -> (u64, u64) {
    let s = &d["span"]["start"];
    (
        s["line"].as_u64().unwrap_or(0),
        s["column"].as_u64().unwrap_or(0),
    )
}

fn end(d: &Value) -> (u64, u64) {
    let s = &d["span"]["end"];
    (
        s["line"].as_u64().unwrap_or(0),
        s["column"].as_u64().unwrap_or(0),
    )
}
