//! The command line as a user runs it: configuration discovery and errors, rule selection,
//! exit codes, output options, `rules` / `explain`, paths, suppressions, determinism.

mod common;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use common::{Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

#[path = "cli/configuration.rs"]
mod configuration;
#[path = "cli/determinism.rs"]
mod determinism;
#[path = "cli/output.rs"]
mod output;
#[path = "cli/selection.rs"]
mod selection;
#[path = "cli/suppressions.rs"]
mod suppressions;

/// These tests run on DojOps 1.0 manifests, so their repositories target DojOps 1.0.9, the
/// last release that loads them (what current DojOps says of them, DOJ024, is tested in
/// `dojops_tool.rs`).
const TARGET: &str = "[runtimes]\ndojops = \"1.0.9\"\n";

/// Write the configuration file `path`: `settings` for a repository that targets DojOps 1.0.9.
fn config(repo: &Repo, path: &str, settings: &str) {
    repo.write(path, format!("{TARGET}{settings}").as_bytes());
}

/// Write a tool folder under `dir` (a `tools` folder): `tool.yaml` and its input schema (and
/// `toolc.toml`, targeting DojOps 1.0.9, when there is none yet).
fn tool_at(repo: &Repo, dir: &str, name: &str, manifest: &str) {
    if !repo.root.join("toolc.toml").exists() {
        config(repo, "toolc.toml", "");
    }
    repo.write(&format!("{dir}/{name}/tool.yaml"), manifest.as_bytes());
    repo.write(
        &format!("{dir}/{name}/input.schema.json"),
        VALID_SCHEMA.as_bytes(),
    );
}

/// A valid tool in `.dojops/tools/<name>/` with `name:` set to `tool_name`.
fn tool(repo: &Repo, name: &str, tool_name: &str) {
    tool_at(
        repo,
        ".dojops/tools",
        name,
        &VALID_TOOL.replace("name: my-tool", &format!("name: {tool_name}")),
    );
}

/// A tool whose only finding is a warning (DOJ007, an unknown key).
fn warning_tool(repo: &Repo, name: &str) {
    tool_at(
        repo,
        ".dojops/tools",
        name,
        &VALID_TOOL.replace("name: my-tool", &format!("name: {name}\nauthor: me")),
    );
}

fn toolc(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .timeout(Duration::from_secs(20))
        .output()
        .expect("toolc runs")
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("toolc exits with a code")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `toolc check --format json ARGS` in `dir`: exit code and diagnostics.
fn check_json(dir: &Path, args: &[&str]) -> (i32, Vec<Value>) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let output = toolc(dir, &all);
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON output expected ({e})\nstdout: {}\nstderr: {}",
            stdout(&output),
            stderr(&output)
        )
    });
    let diags = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    (code(&output), diags)
}

/// `code path:line:column` of each diagnostic, in output order.
fn summary(diags: &[Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}:{}",
                d["code"].as_str().unwrap_or_default(),
                d["path"].as_str().unwrap_or_default(),
                d["span"]["start"]["line"],
                d["span"]["start"]["column"]
            )
        })
        .collect()
}

fn codes(diags: &[Value]) -> Vec<String> {
    let mut codes: Vec<String> = diags
        .iter()
        .filter_map(|d| d["code"].as_str().map(str::to_string))
        .collect();
    codes.sort();
    codes.dedup();
    codes
}
