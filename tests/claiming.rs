//! Claiming: a file at a format's path is toolc's only when its content has the format's
//! shape (another tool's `tools.json`, a Copilot agent, a documentation page are left alone,
//! without a word), unless the user names it (command line, `--stdin-filename`, an
//! `include`); `[discovery] exclude` and `--exclude` keep a path out whatever names it. The
//! real-world folders of other tools' files, and of our formats' files, give exactly what
//! their README says.

mod common;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use common::{BASE_TOOL, Repo, VALID_AGENTCLI, check_dir, check_named, lines};

/// An MCP server's tool list (its root is a list).
const MCP_TOOL_LIST: &str = r#"[
  {"name": "getTopStories", "description": "Fetch the top stories", "arguments": [{"name": "limit", "type": "number"}]}
]
"#;

/// A documentation server's configuration: tools with `title` and `docType`, no `command`.
const DOC_SERVER: &str = r#"{
  "tools": [
    {"name": "birdeye_query", "docType": "birdeye", "title": "BirdEye docs", "description": "Search the docs", "enabled": true}
  ]
}
"#;

/// A GitHub Copilot custom agent.
const COPILOT_AGENT: &str = "---\nname: \"Debug Mode\"\ndescription: \"Find and fix a bug\"\ntools: ['search', 'edit/editFiles']\n---\n\n# Debug Mode\n\nYou are in debug mode.\n";

/// An AML documentation page: the agent shown inside a fenced block.
const DOCS_PAGE: &str = "# Example — Helper Agent\n\n---\n\n```markdown\n---\nspec_version: \"1.2\"\nagent_id: \"helper\"\n---\n# Purpose\nHelps.\n```\n";

/// A broken AML agent: its front matter has AML's keys, so it is claimed and reported.
const BROKEN_AML_AGENT: &str =
    "---\nspec_version: \"1.2\"\nagent_id: \"Helper Agent\"\ntools:\n  refs: []\n---\n";

fn toolc(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::cargo_bin("toolc").expect("the toolc binary is built");
    cmd.current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .timeout(Duration::from_secs(20));
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    cmd.output().expect("toolc runs")
}

fn codes(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|l| l.split(' ').nth(1)).collect()
}

// ── foreign files found by walking are left alone ─────────────────────────────────────

#[test]
fn other_tools_files_at_our_paths_are_not_claimed() {
    let repo = Repo::with(&[
        ("mcp/tools.json", MCP_TOOL_LIST),
        ("docs-server/tools.json", DOC_SERVER),
        (".github/agents/debug.agent.md", COPILOT_AGENT),
        ("docs/examples/agents/helper.agent.md", DOCS_PAGE),
        (
            "docs/examples/tools/search.tool.md",
            "# Example\n\n```markdown\n---\ntool_id: x\n---\n```\n",
        ),
        ("notes/TR-42.md", "# TR-42: translation notes\n"),
        ("empty/tools.json", ""),
        (
            "app/server.json",
            "{\"port\": 3000, \"host\": \"0.0.0.0\"}\n",
        ),
        ("editor/mcp.json", "{\"name\": \"x\"}\n"),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(lines(&report), Vec::<String>::new());
    assert_eq!(report.summary.files, 0);
    assert_eq!(report.summary.not_claimed, 9);
    // Named, another tool's `server.json` is checked in full.
    let report = check_named(&repo.root, &["app/server.json"]);
    assert!(!report.diagnostics.is_empty());
}

#[test]
fn the_same_paths_holding_our_files_are_checked_in_full() {
    // A real manifest with one broken entry still has the shape: every finding is reported.
    let broken_manifest = VALID_AGENTCLI.replace("\"timeoutSec\": 5", "\"timeoutSec\": \"5\"");
    let repo = Repo::with(&[
        ("mcp/tools.json", &broken_manifest),
        ("mcp/tools/bin/get_time", "#!/bin/sh\n"),
        (".github/agents/helper.agent.md", BROKEN_AML_AGENT),
        ("tools/search-docs.tool.md", BASE_TOOL),
    ]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    assert_eq!(codes(&found), ["TMD035", "ACL002"], "{found:#?}");
    assert_eq!(report.summary.files, 3);
    assert_eq!(report.summary.not_claimed, 0);
}

#[test]
fn a_manifest_broken_by_a_syntax_error_is_still_claimed() {
    let repo = Repo::with(&[(
        "tools.json",
        "{\"tools\": [{\"name\": \"a\", \"command\": [\"./tools/bin/a\"],}]}\n",
    )]);
    let found = lines(&repo.check().expect("config"));
    assert!(
        found.first().is_some_and(|l| l.contains(" SYN0")),
        "{found:#?}"
    );
}

#[test]
fn a_manifest_missing_its_tools_wrapper_is_claimed_and_reported() {
    // agentcli refuses a bare list of tools whole; found by walking, it must not pass silently.
    let repo = Repo::with(&[
        (
            "tools.json",
            "[{\"name\": \"a\", \"command\": [\"./tools/bin/a\"]}]\n",
        ),
        ("tools/bin/a", "#!/bin/sh\n"),
    ]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    assert_eq!(codes(&found), ["ACL002"], "{found:#?}");
    assert_eq!(report.summary.not_claimed, 0);
}

// ── what the user names is always checked ─────────────────────────────────────────────

#[test]
fn a_named_file_is_checked_whatever_its_content() {
    let repo = Repo::with(&[
        ("tools.json", DOC_SERVER),
        (".github/agents/debug.agent.md", COPILOT_AGENT),
    ]);
    let report = check_named(&repo.root, &["tools.json"]);
    let found = lines(&report);
    assert!(codes(&found).contains(&"ACL001"), "{found:#?}");
    let report = check_named(&repo.root, &[".github/agents/debug.agent.md"]);
    assert!(codes(&lines(&report)).contains(&"TMD001"));
}

#[test]
fn only_claimed_leaves_a_named_foreign_file_alone() {
    let repo = Repo::with(&[
        (".github/agents/debug.agent.md", COPILOT_AGENT),
        ("agents/helper.agent.md", BROKEN_AML_AGENT),
    ]);
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--only-claimed",
            ".github/agents/debug.agent.md",
            "agents/helper.agent.md",
        ],
        None,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("debug.agent.md"), "{text}");
    assert!(text.contains("agents/helper.agent.md"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn an_include_claims_what_it_matches() {
    let repo = Repo::with(&[
        (
            "toolc.toml",
            "[formats.agentcli-manifest]\ninclude = [\"mcp/tools.json\"]\n",
        ),
        ("mcp/tools.json", MCP_TOOL_LIST),
        ("other/tools.json", MCP_TOOL_LIST),
    ]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("mcp/tools.json:1:1 ACL002 error"),
        "{found:#?}"
    );
    assert_eq!(report.summary.not_claimed, 1);
}

#[test]
fn stdin_filename_is_checked_whatever_its_content() {
    let repo = Repo::with(&[(".github/agents/debug.agent.md", COPILOT_AGENT)]);
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            ".github/agents/debug.agent.md",
        ],
        Some(COPILOT_AGENT),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"TMD001\""), "{text}");
}

// ── exclude: nothing overrides it ─────────────────────────────────────────────────────

#[test]
fn an_exclude_glob_silences_a_path_completely() {
    let broken = "{\"tools\": [{\"command\": []}]}\n";
    let repo = Repo::with(&[
        (
            "toolc.toml",
            "[discovery]\nexclude = [\"vendor\"]\n\n[formats.agentcli-manifest]\ninclude = [\"vendor/**/*.json\"]\n",
        ),
        ("vendor/x/tools.json", broken),
        ("vendor/x/more.json", broken),
        ("tools.json", broken),
    ]);
    let report = repo.check().expect("config");
    let paths: Vec<&str> = report.files.iter().map(|f| f.display()).collect();
    assert_eq!(paths, ["tools.json"]);
    assert_eq!(report.summary.not_claimed, 0);
    // Named on the command line, an excluded file is still not read.
    let report = check_named(&repo.root, &["vendor/x/tools.json"]);
    assert_eq!(lines(&report), Vec::<String>::new());
    assert!(report.files.is_empty());
    // `--exclude` adds globs relative to the working directory, for named files too.
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--allow-empty",
            "--exclude",
            "tools.json",
            "tools.json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "vendor/x/tools.json",
        ],
        Some(broken),
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["diagnostics"], serde_json::json!([]), "{json}");
    assert_eq!(json["summary"]["files"], 0, "{json}");
    let out = toolc(&repo.root, &["check", "--exclude", "a/["], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid glob"));
}

#[test]
fn a_nested_configuration_excludes_in_its_folder() {
    let broken = "{\"tools\": [{\"command\": []}]}\n";
    let repo = Repo::with(&[
        ("sub/toolc.toml", "[discovery]\nexclude = [\"gen\"]\n"),
        ("sub/gen/tools.json", broken),
        ("gen/tools.json", broken),
    ]);
    let report = check_dir(&repo.root).expect("config");
    let paths: Vec<&str> = report.files.iter().map(|f| f.display()).collect();
    assert_eq!(paths, ["gen/tools.json"]);
}

#[test]
fn a_bad_exclude_glob_is_a_configuration_error() {
    let repo = Repo::with(&[("toolc.toml", "[discovery]\nexclude = [\"a/[\"]\n")]);
    let errors = repo.check().expect_err("invalid config");
    assert!(errors[0].message.contains("invalid glob"), "{errors:?}");
}

// ── the one line under --verbose / --statistics ───────────────────────────────────────

#[test]
fn verbose_and_statistics_count_what_was_not_claimed() {
    let repo = Repo::with(&[
        ("tools.json", MCP_TOOL_LIST),
        (".github/agents/debug.agent.md", COPILOT_AGENT),
    ]);
    let line = "2 files at format paths were not claimed";
    let stderr = |out: &Output| String::from_utf8_lossy(&out.stderr).into_owned();
    let out = toolc(&repo.root, &["check", "--allow-empty"], None);
    assert!(!stderr(&out).contains(line));
    assert_eq!(out.status.code(), Some(0));
    let out = toolc(&repo.root, &["check", "--allow-empty", "--verbose"], None);
    assert!(stderr(&out).contains(line), "{out:?}");
    assert_eq!(out.status.code(), Some(0));
    let out = toolc(
        &repo.root,
        &["check", "--allow-empty", "--statistics"],
        None,
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(line),
        "{out:?}"
    );
    let json = ["check", "--allow-empty", "--statistics", "--format", "json"];
    let out = toolc(&repo.root, &json, None);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[]");
    assert!(stderr(&out).contains(line));
    // A run that found nothing to check says why it found nothing.
    let out = toolc(&repo.root, &["check"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("(2 files at format paths were not claimed"),
        "{out:?}"
    );
}

// ── an editor's buffer: claimed as its content changes ────────────────────────────────

#[test]
fn a_buffer_that_takes_the_shape_is_claimed_and_one_that_loses_it_is_dropped() {
    let repo = Repo::with(&[("tools.json", MCP_TOOL_LIST)]);
    let config = toolc::Config::discover(&repo.root, None).expect("config");
    let mut ws = toolc::Workspace::new(config, &repo.root);
    assert!(ws.check().diagnostics.is_empty());
    let broken = "{\"tools\": [{\"command\": []}]}\n";
    ws.set_buffer("tools.json", broken);
    let report = ws.check_file("tools.json");
    assert!(
        report.diagnostics.iter().any(|d| d.rule.code == "ACL001"),
        "{:#?}",
        lines(&report)
    );
    ws.set_buffer("tools.json", MCP_TOOL_LIST);
    let report = ws.check_file("tools.json");
    assert!(report.diagnostics.is_empty(), "{:#?}", lines(&report));
    assert!(ws.check().diagnostics.is_empty());
}

// ── the real-world folders ────────────────────────────────────────────────────────────

#[test]
fn real_world_foreign_files_get_no_finding_at_all() {
    let Some(dir) = common::corpus("foreign") else {
        return;
    };
    let report = check_dir(&dir).expect("config");
    assert_eq!(lines(&report), Vec::<String>::new());
    assert_eq!(report.summary.files, 0);
    assert_eq!(report.summary.not_claimed, 3);
}

#[test]
fn real_world_top_level_one_of_is_an_error_at_its_line() {
    let Some(dir) = common::corpus("agentcli-oneof") else {
        return;
    };
    let report = check_dir(&dir).expect("config");
    let found = lines(&report);
    let errors_and_warnings: Vec<&String> =
        found.iter().filter(|l| !l.contains(" info ")).collect();
    assert_eq!(
        errors_and_warnings,
        [
            "tools.json:2:3 ACL011 warning none of the 28 programs under `./tools/bin/` exists next to this manifest",
            "tools.json:417:9 ACL015 error tool[23] \"wiki_query\": the parameter schema has `oneOf` at its top level, which OpenAI and Anthropic refuse",
        ],
        "{found:#?}"
    );
    // Besides: the two credentials the manifest hands its tools, as in the goagent manifest
    // of the next commit.
    assert!(
        found
            .iter()
            .filter(|l| l.contains(" info "))
            .all(|l| l.contains(" SEC010 ")),
        "{found:#?}"
    );
}

#[test]
fn real_world_catalog_reports_its_verification_defects_and_nothing_else() {
    let Some(dir) = common::corpus("dojops-catalog") else {
        return;
    };
    let report = check_dir(&dir).expect("config");
    let found = lines(&report);
    assert_eq!(
        found,
        [
            "built-in/github-actions.dops:153:26 DOJ023 warning DojOps runs this command without a shell: `.github/workflows/*.yml`, `2>&1` and `||` reach `actionlint` as literal arguments",
            "built-in/jenkinsfile.dops:90:59 DOJ023 warning DojOps runs this command without a shell: `||` reaches `npx` as a literal argument",
            "containers/traefik.dops:152:15 DOJ013 error `traefik` is not on DojOps's verification allowlist",
            "security/falco.dops:129:15 DOJ013 error `falco` is not on DojOps's verification allowlist",
            "security/trivy-config.dops:186:56 DOJ023 warning DojOps runs this command without a shell: `||` reaches `trivy` as a literal argument",
        ],
        "{found:#?}"
    );
    assert_eq!(report.summary.files, 37);
}
