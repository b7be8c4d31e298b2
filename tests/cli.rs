//! The command line as a user runs it: configuration discovery and errors, rule selection,
//! exit codes, output options, `rules` / `explain`, paths, suppressions, determinism.

mod common;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use common::{Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

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

// --- configuration --------------------------------------------------------------------------

#[test]
fn config_is_found_upward_from_a_subfolder() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    config(&repo, "toolc.toml", "[rules]\nDOJ003 = \"warning\"\n");
    let sub = repo.root.join(".dojops/tools");
    let (status, diags) = check_json(&sub, &[]);
    assert_eq!(
        summary(&diags),
        ["DOJ003 a/tool.yaml:2:7", "DOJ007 b/tool.yaml:3:1"]
    );
    assert!(
        diags.iter().all(|d| d["severity"] == "warning"),
        "{diags:#?}"
    );
    assert_eq!(status, 0, "warnings only");
}

#[test]
fn rules_by_code_by_name_and_off() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    config(
        &repo,
        "toolc.toml",
        "[rules]\ninvalid-tool-name = \"info\"\nDOJ007 = \"off\"\n",
    );
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(summary(&diags), ["DOJ003 .dojops/tools/a/tool.yaml:2:7"]);
    assert_eq!(diags[0]["severity"], "info");
    assert_eq!(status, 0, "info never fails a run");

    config(
        &repo,
        "toolc.toml",
        "[rules]\nDOJ = \"off\"\nDOJ003 = \"error\"\n",
    );
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(
        summary(&diags),
        ["DOJ003 .dojops/tools/a/tool.yaml:2:7"],
        "a code is more specific than its prefix"
    );
    assert_eq!(status, 1);
}

#[test]
fn overrides_apply_by_glob() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    tool_at(
        &repo,
        "legacy/.dojops/tools",
        "b",
        &VALID_TOOL.replace("my-tool", "Bad_B"),
    );
    config(
        &repo,
        "toolc.toml",
        "[[overrides]]\npaths = [\"legacy/**\"]\nrules = { DOJ003 = \"off\" }\n",
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert_eq!(summary(&diags), ["DOJ003 .dojops/tools/a/tool.yaml:2:7"]);
    // Globs are relative to the config file's folder wherever toolc runs from.
    let (_, diags) = check_json(&repo.root.join("legacy"), &[".."]);
    assert_eq!(summary(&diags), ["DOJ003 ../.dojops/tools/a/tool.yaml:2:7"]);
}

#[test]
fn format_include_picks_up_a_manifest_outside_dojops() {
    let repo = Repo::new();
    tool_at(
        &repo,
        "my-tools",
        "x",
        &VALID_TOOL.replace("my-tool", "Bad_X"),
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert!(diags.is_empty(), "not a built-in pattern: {diags:#?}");
    config(
        &repo,
        "toolc.toml",
        "[formats.dojops-tool]\ninclude = [\"my-tools/*/tool.yaml\"]\n",
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert_eq!(summary(&diags), ["DOJ003 my-tools/x/tool.yaml:2:7"]);
    assert_eq!(diags[0]["format"], "dojops-tool");
}

/// Each bad config exits 2 with TLC003 at `line:column` of `toolc.toml`.
#[test]
fn bad_config_exits_2_with_a_diagnostic_in_the_file() {
    let cases: &[(&str, &str)] = &[
        ("[rules]\nDOJ003 = \"off\"\nDOJ999 = \"off\"\n", "3:1"),
        ("# severities\n[rules]\nSEC001 = \"loud\"\n", "3:10"),
        ("[rules]\nDOJ003 = off\n", "2:10"),
        ("[formats.not-a-format]\ninclude = [\"x/*.yaml\"]\n", "1:10"),
        ("[rule]\nDOJ003 = \"off\"\n", "1:2"),
    ];
    for (text, at) in cases {
        let repo = Repo::new();
        tool(&repo, "a", "Bad_A");
        repo.write("toolc.toml", text.as_bytes());
        let (status, diags) = check_json(&repo.root, &[]);
        assert_eq!(status, 2, "{text}");
        assert_eq!(
            summary(&diags),
            [format!("TLC003 toolc.toml:{at}")],
            "{text}"
        );
        // Nothing was checked: no diagnostic of the tool.
        let output = toolc(&repo.root, &["check", "--no-color"]);
        assert_eq!(code(&output), 2);
        let err = stderr(&output);
        assert!(
            err.contains(&format!("toolc.toml:{at}")) && err.contains("TLC003"),
            "{err}"
        );
        assert!(!stdout(&output).contains("DOJ003"), "{}", stdout(&output));
    }
}

#[test]
fn unknown_rule_in_config_gets_a_suggestion() {
    let repo = Repo::new();
    repo.write("toolc.toml", b"[rules]\ninvalid-tool-nmae = \"off\"\n");
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(status, 2);
    // The suggestion is a did-you-mean with the edit that writes it.
    assert_eq!(
        diags[0]["help"].as_str(),
        Some("did you mean `invalid-tool-name`?"),
        "{:?}",
        diags[0]
    );
    assert_eq!(
        diags[0]["fix"]["edits"][0]["replacement"].as_str(),
        Some("invalid-tool-name"),
        "{:?}",
        diags[0]
    );
}

#[test]
fn explicit_config_file() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    config(&repo, "ci/strict.toml", "[rules]\nDOJ003 = \"off\"\n");
    config(&repo, "toolc.toml", "[rules]\nDOJ003 = \"warning\"\n");
    let (status, diags) = check_json(&repo.root, &["--config", "ci/strict.toml"]);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(status, 0);
    // Relative to the working directory, `..` included.
    let (_, diags) = check_json(
        &repo.root.join("ci"),
        &["--config", "../ci/strict.toml", ".."],
    );
    assert!(diags.is_empty(), "{diags:#?}");
    let output = toolc(&repo.root, &["check", "--config", "nope.toml"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("nope.toml"), "{}", stderr(&output));
}

#[test]
fn explicit_config_overrides_are_relative_to_its_folder() {
    let repo = Repo::new();
    tool_at(
        &repo,
        "legacy/.dojops/tools",
        "b",
        &VALID_TOOL.replace("my-tool", "Bad_B"),
    );
    config(
        &repo,
        "toolc.toml",
        "[[overrides]]\npaths = [\"legacy/**\"]\nrules = { DOJ003 = \"off\" }\n",
    );
    let sub = repo.root.join("legacy");
    let (_, diags) = check_json(&sub, &["--config", "../toolc.toml", "."]);
    assert!(diags.is_empty(), "{diags:#?}");
}

// --- selection and exit codes ---------------------------------------------------------------

#[test]
fn select_and_ignore_by_code_name_and_prefix() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    let dir = &repo.root;
    let (_, all) = check_json(dir, &[]);
    assert_eq!(codes(&all), ["DOJ003", "DOJ007"]);
    for (args, expected) in [
        (vec!["--select", "DOJ003"], vec!["DOJ003"]),
        (vec!["--select", "unknown-key"], vec!["DOJ007"]),
        (vec!["--select", "doj00"], vec!["DOJ003", "DOJ007"]),
        (vec!["--select", "SEC"], vec![]),
        (
            vec!["--select", "DOJ003,unknown-key"],
            vec!["DOJ003", "DOJ007"],
        ),
        (vec!["--ignore", "DOJ003"], vec!["DOJ007"]),
        (vec!["--ignore", "invalid-tool-name"], vec!["DOJ007"]),
        (vec!["--ignore", "DOJ"], vec![]),
        (
            vec!["--select", "DOJ", "--ignore", "DOJ007"],
            vec!["DOJ003"],
        ),
    ] {
        let (_, diags) = check_json(dir, &args);
        assert_eq!(codes(&diags), expected, "{args:?}");
    }
    let output = toolc(dir, &["check", "--select", "DOJ999"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("DOJ999"), "{}", stderr(&output));
}

#[test]
fn exit_codes_and_deny_warnings() {
    let repo = Repo::new();
    warning_tool(&repo, "b");
    assert_eq!(code(&toolc(&repo.root, &["check"])), 0);
    assert_eq!(code(&toolc(&repo.root, &["check", "--deny-warnings"])), 1);
    tool(&repo, "a", "Bad_A");
    assert_eq!(code(&toolc(&repo.root, &["check"])), 1);
    let clean = Repo::new();
    tool(&clean, "ok", "ok");
    assert_eq!(code(&toolc(&clean.root, &["check", "--deny-warnings"])), 0);
}

// --- output options -------------------------------------------------------------------------

#[test]
fn quiet_prints_no_summary() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    let loud = stdout(&toolc(&repo.root, &["check"]));
    assert!(loud.contains("Found 1 error"), "{loud}");
    for flag in ["-q", "--quiet"] {
        let quiet = stdout(&toolc(&repo.root, &["check", flag]));
        assert!(quiet.contains("DOJ003"), "{quiet}");
        assert!(!quiet.contains("Found"), "{quiet}");
    }
    let clean = Repo::new();
    tool(&clean, "ok", "ok");
    assert_eq!(stdout(&toolc(&clean.root, &["check", "-q"])), "");
}

#[test]
fn no_escape_codes_without_a_terminal() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    for args in [&["check"][..], &["check", "--no-color"][..]] {
        let output = toolc(&repo.root, args);
        assert!(stdout(&output).contains("DOJ003"));
        assert!(
            !output.stdout.contains(&0x1b) && !output.stderr.contains(&0x1b),
            "{args:?}: {}",
            stdout(&output)
        );
    }
}

#[test]
fn rules_lists_every_rule() {
    let output = toolc(Path::new(env!("CARGO_MANIFEST_DIR")), &["rules"]);
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    let all = toolc::rules();
    assert_eq!(text.lines().count(), all.len(), "{text}");
    for (line, rule) in text.lines().zip(&all) {
        assert!(
            line.starts_with(rule.code)
                && line.contains(rule.name)
                && line.contains(rule.severity.as_str()),
            "{line}"
        );
    }
    let json = toolc(Path::new("."), &["rules", "--format", "json"]);
    let list: Vec<Value> = serde_json::from_slice(&json.stdout).expect("JSON list");
    assert_eq!(list.len(), all.len());
}

#[test]
fn explain_by_code_and_by_name() {
    let rule = toolc::rule("DOJ003").expect("DOJ003 exists");
    let page = rule.page().expect("DOJ003 has a page");
    let body = page.split_once("\n---\n").expect("front matter").1;
    for query in ["DOJ003", "doj003", "invalid-tool-name"] {
        let output = toolc(Path::new("."), &["explain", query]);
        assert_eq!(code(&output), 0, "{query}: {}", stderr(&output));
        let out = stdout(&output);
        // One header line for people, then the page without its front matter.
        let (header, rest) = out.split_once("\n\n").expect("a header line");
        assert!(
            header.starts_with("DOJ003 · invalid-tool-name · error · "),
            "{header}"
        );
        assert!(header.contains("since 0.1.0"), "{header}");
        assert_eq!(rest, body.trim_start_matches('\n'));
        for internal in ["source:", "example:", "precision:", "---"] {
            assert!(
                !out.starts_with(internal) && !out.contains(&format!("\n{internal}")),
                "{out}"
            );
        }
    }
}

#[test]
fn explain_unknown_rule_suggests_the_closest() {
    for (query, suggestion) in [
        ("invalid-tool-nam", "invalid-tool-name"),
        ("duplicate-keys", "duplicate-key"),
    ] {
        let output = toolc(Path::new("."), &["explain", query]);
        assert_eq!(code(&output), 2);
        assert_eq!(stdout(&output), "");
        let err = stderr(&output);
        assert!(
            err.contains(&format!("did you mean `{suggestion}`?")),
            "{err}"
        );
    }
    let output = toolc(Path::new("."), &["explain", "XYZ"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("`XYZ`"), "{}", stderr(&output));
}

#[test]
fn paths_are_relative_to_the_working_directory() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    std::fs::create_dir_all(repo.root.join("docs")).expect("mkdir");
    let docs = repo.root.join("docs");
    let absolute = repo.root.join(".dojops/tools/a");
    let absolute = absolute.to_str().expect("UTF-8 temp path");
    for (cwd, arg, expected) in [
        (&repo.root, absolute, ".dojops/tools/a/tool.yaml"),
        (&docs, absolute, "../.dojops/tools/a/tool.yaml"),
        (&docs, "../.dojops", "../.dojops/tools/a/tool.yaml"),
        (&docs, "..", "../.dojops/tools/a/tool.yaml"),
        (
            &docs,
            "../.dojops/tools/a/tool.yaml",
            "../.dojops/tools/a/tool.yaml",
        ),
        (
            &repo.root,
            "./.dojops/../.dojops",
            ".dojops/tools/a/tool.yaml",
        ),
    ] {
        let (_, diags) = check_json(cwd, &[arg]);
        assert_eq!(
            summary(&diags),
            [format!("DOJ003 {expected}:2:7")],
            "{arg} from {}",
            cwd.display()
        );
        let human = stdout(&toolc(cwd, &["check", "--no-color", arg]));
        assert!(human.contains(&format!("--> {expected}:2:7")), "{human}");
    }
}

// --- suppression comments -------------------------------------------------------------------

#[test]
fn suppression_on_the_line_and_the_line_above() {
    let repo = Repo::new();
    tool_at(
        &repo,
        ".dojops/tools",
        "same-line",
        &VALID_TOOL.replace(
            "name: my-tool",
            "name: Bad_A # toolc: ignore DOJ003 -- legacy name, kept for old agents",
        ),
    );
    tool_at(
        &repo,
        ".dojops/tools",
        "line-above",
        &VALID_TOOL.replace(
            "name: my-tool",
            "# toolc: ignore invalid-tool-name -- legacy\nname: Bad_B",
        ),
    );
    tool_at(
        &repo,
        ".dojops/tools",
        "two-lines-above",
        &VALID_TOOL
            .replace(
                "name: my-tool",
                "# toolc: ignore DOJ003 -- too far away\nspec: 1\nname: Bad_C",
            )
            .replacen("spec: 1\n", "", 1),
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert_eq!(
        summary(&diags),
        [
            "TLC001 .dojops/tools/two-lines-above/tool.yaml:1:17",
            "DOJ003 .dojops/tools/two-lines-above/tool.yaml:3:7",
        ]
    );
}

#[test]
fn unused_and_unknown_suppressions() {
    let repo = Repo::new();
    tool_at(
        &repo,
        ".dojops/tools",
        "a",
        &VALID_TOOL.replace(
            "name: my-tool",
            "name: my-tool # toolc: ignore DOJ003, SEC001, DOJ9999 -- stale",
        ),
    );
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(
        summary(&diags),
        [
            "TLC001 .dojops/tools/a/tool.yaml:2:31",
            "TLC001 .dojops/tools/a/tool.yaml:2:39",
            "TLC002 .dojops/tools/a/tool.yaml:2:47",
        ]
    );
    assert_eq!(status, 0, "both are warnings");
    // A suppression of a rule that is off is not "unused".
    let (_, diags) = check_json(&repo.root, &["--ignore", "DOJ003,SEC001"]);
    assert_eq!(codes(&diags), ["TLC002"]);
}

// --- determinism ----------------------------------------------------------------------------

#[test]
fn output_order_does_not_depend_on_thread_count() {
    let repo = Repo::new();
    for i in 0..50 {
        let manifest = VALID_TOOL
            .replace("name: my-tool", &format!("name: Tool_{i}\nextra{i}: x"))
            .replace("spec: 1", if i % 3 == 0 { "spec: 2" } else { "spec: 1" })
            .replace("yaml\n", if i % 5 == 0 { "xml\n" } else { "yaml\n" });
        tool_at(&repo, ".dojops/tools", &format!("t{i}"), &manifest);
    }
    // Same name in two tools: a cross-file diagnostic with a related place.
    tool(&repo, "dup-a", "same");
    tool(&repo, "dup-b", "same");
    let run = |threads: &str| {
        let output = Command::cargo_bin("toolc")
            .expect("the toolc binary is built")
            .current_dir(&repo.root)
            .args(["check", "--format", "json"])
            .env("RAYON_NUM_THREADS", threads)
            .timeout(Duration::from_secs(20))
            .output()
            .expect("toolc runs");
        assert_eq!(code(&output), 1);
        output.stdout
    };
    let one = run("1");
    let two = run("2");
    let doc: Value = serde_json::from_slice(&one).expect("JSON");
    assert!(
        doc["diagnostics"].as_array().map_or(0, Vec::len) > 100,
        "{doc:#}"
    );
    assert!(one == two, "output differs between 1 and 2 threads");
    assert!(run("8") == one, "output differs between 1 and 8 threads");
    let human = |threads: &str| {
        Command::cargo_bin("toolc")
            .expect("the toolc binary is built")
            .current_dir(&repo.root)
            .args(["check", "--no-color"])
            .env("RAYON_NUM_THREADS", threads)
            .timeout(Duration::from_secs(20))
            .output()
            .expect("toolc runs")
            .stdout
    };
    assert!(human("1") == human("2"), "human output differs");
}

#[test]
fn a_missing_path_argument_is_a_usage_error() {
    let repo = common::Repo::new();
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .args(["check", "no/such/dir"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no/such/dir: no such file or directory")
    );
}

#[test]
fn cropped_long_lines_keep_their_true_column_in_the_header() {
    // Two tools on one long line: the second's error is far right, so its snippet is cropped.
    let filler = "x".repeat(2000);
    let manifest = format!(
        r#"{{"tools": [{{"name": "a", "description": "{filler}", "command": ["./tools/bin/a"]}}, {{"name": "b", "description": "d", "command": ["echo"]}}]}}"#
    );
    let repo = common::Repo::with(&[("tools.json", manifest.as_str())]);
    let run = |format: &str| {
        let out = assert_cmd::Command::cargo_bin("toolc")
            .expect("binary")
            .current_dir(&repo.root)
            .args([
                "check",
                "--no-color",
                "--select",
                "ACL005",
                "--format",
                format,
            ])
            .output()
            .expect("run");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("json");
    let column = json["diagnostics"][0]["span"]["start"]["column"]
        .as_u64()
        .expect("column");
    assert!(column > 2000, "{column}");
    let human = run("human");
    assert!(
        human.contains(&format!("tools.json:1:{column}\n")),
        "{human}"
    );
    assert!(
        human.len() < 4000,
        "the long line is cropped: {} bytes",
        human.len()
    );
}
