//! `--format json` keeps its contract: the binary's output validates against
//! `docs/json-output.schema.json`, positions are what an editor needs, paths are relative to
//! the working directory, the order is stable, and exit codes say what happened.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::{DOJOPS_1_0, Repo};
use serde_json::Value;

/// A valid DojOps manifest for tool `name`, with `extra` appended.
fn manifest(name: &str, extra: &str) -> String {
    format!(
        "spec: 1\nname: {name}\nversion: \"1.0.0\"\ntype: tool\ndescription: \"Generates a config file\"\n\
         inputSchema: \"input.schema.json\"\ngenerator:\n  strategy: llm\n  systemPrompt: \"You write config files.\"\n\
         files:\n  - path: \"out/config.yaml\"\n    serializer: yaml\n{extra}"
    )
}

const GOOD_SCHEMA: &str = r#"{"type": "object", "properties": {"name": {"type": "string"}}}"#;

/// A repository with several kinds of problems, in several files.
fn troubled_repo() -> Repo {
    let repo = Repo::new();
    let files: Vec<(String, String)> = vec![
        // Broken YAML.
        (
            ".dojops/tools/broken/tool.yaml".into(),
            "spec: 1\nname: broken\n  version: [\n".into(),
        ),
        // A duplicate key (the diagnostic has a related place).
        (
            ".dojops/tools/dup/tool.yaml".into(),
            manifest("dup", "description: \"Again\"\n"),
        ),
        (".dojops/tools/dup/input.schema.json".into(), GOOD_SCHEMA.into()),
        // A schema file that is not JSON.
        (".dojops/tools/bad-json/tool.yaml".into(), manifest("bad-json", "")),
        (
            ".dojops/tools/bad-json/input.schema.json".into(),
            "{\"type\": \"object\",\n \"properties\": {,}\n}\n".into(),
        ),
        // A JSON schema that breaks the meta-schema, after non-ASCII text and with CRLF line
        // ends, so columns (Unicode scalar values) and byte offsets differ.
        (".dojops/tools/bad-schema/tool.yaml".into(), manifest("bad-schema", "")),
        (
            ".dojops/tools/bad-schema/input.schema.json".into(),
            "{\r\n  \"type\": \"object\",\r\n  \"properties\": {\r\n    \"größe\": {\"description\": \"Größe in €\", \"type\": \"strng\"}\r\n  },\r\n  \"required\": [\"grösse\"]\r\n}\r\n".into(),
        ),
        // A policy naming a tool that does not exist (a warning).
        (
            ".dojops/policy.yaml".into(),
            "allowedTools:\n  - dup\n  - bad-json\n  - bad-schema\n  - broken\n  - ghost-tool\n".into(),
        ),
    ];
    for (path, content) in &files {
        repo.write(path, content.as_bytes());
    }
    repo
}

fn clean_repo() -> Repo {
    Repo::with(&[
        DOJOPS_1_0,
        (".dojops/tools/fine/tool.yaml", &manifest("fine", "")),
        (".dojops/tools/fine/input.schema.json", GOOD_SCHEMA),
    ])
}

/// Run the binary in `dir`; (stdout, stderr, exit code).
fn toolc(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("toolc runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn published_schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json-output.schema.json");
    let text = std::fs::read_to_string(&path).expect("docs/json-output.schema.json exists");
    serde_json::from_str(&text).expect("the published schema is JSON")
}

/// The published schema with every object closed: consumers must tolerate new fields, but
/// toolc itself must never emit a field the schema does not document.
fn strict(schema: &Value) -> Value {
    let mut schema = schema.clone();
    let mut stack = vec![&mut schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                    map.insert("additionalProperties".into(), Value::Bool(false));
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    schema
}

/// Parse stdout and validate it against the published and the strict schema.
fn validated(stdout: &str) -> Value {
    let output: Value = serde_json::from_str(stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}"));
    let schema = published_schema();
    assert!(
        jsonschema::meta::is_valid(&schema),
        "docs/json-output.schema.json is not a valid JSON Schema"
    );
    for (which, schema) in [("published", schema.clone()), ("strict", strict(&schema))] {
        let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
        let errors: Vec<String> = validator
            .iter_errors(&output)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "output breaks the {which} schema:\n{}\n{stdout}",
            errors.join("\n")
        );
    }
    output
}

fn diagnostics(output: &Value) -> &[Value] {
    output["diagnostics"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn codes(output: &Value) -> Vec<&str> {
    diagnostics(output)
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect()
}

/// Line, column (Unicode scalar values, BOM not counted) of a byte offset, computed afresh.
fn line_column(text: &str, offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let mut column = before[line_start..].chars().count() + 1;
    if line == 1 && text.starts_with('\u{feff}') {
        column -= 1;
    }
    (line as u64, column as u64)
}

/// Every position of `span` in `path` (relative to `cwd`) agrees with the file's bytes.
fn check_span(cwd: &Path, path: &str, span: &Value) {
    let text = std::fs::read_to_string(cwd.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut offsets = Vec::new();
    for end in ["start", "end"] {
        let p = &span[end];
        let offset = p["offset"].as_u64().expect("offset") as usize;
        assert!(
            offset <= text.len() && text.is_char_boundary(offset),
            "{path}: {end} offset {offset} is not a character boundary"
        );
        let expected = line_column(&text, offset);
        let got = (
            p["line"].as_u64().expect("line"),
            p["column"].as_u64().expect("column"),
        );
        assert_eq!(
            got, expected,
            "{path}: {end} of {span} does not match offset {offset}"
        );
        offsets.push(offset);
    }
    assert!(
        offsets[0] <= offsets[1],
        "{path}: span ends before it starts: {span}"
    );
}

/// Paths relative to `cwd`, `/`-separated, naming files that exist.
fn check_path(cwd: &Path, path: &str) {
    assert!(
        !path.is_empty() && !path.contains('\\'),
        "path `{path}` must use `/`"
    );
    assert!(
        !Path::new(path).is_absolute() && !path.starts_with('/'),
        "path `{path}` must be relative"
    );
    assert!(
        cwd.join(path).is_file(),
        "path `{path}` must name a file relative to the working directory"
    );
}

#[test]
fn output_of_a_troubled_repository_follows_the_contract() {
    let repo = troubled_repo();
    let (stdout, stderr, code) = toolc(&repo.root, &["check", "--format", "json"]);
    assert_eq!(code, 1, "errors exit with 1\nstderr: {stderr}");
    let output = validated(&stdout);

    let found = codes(&output);
    for expected in ["SYN001", "SYN002", "SYN003", "SCH001", "SCH002", "DOJ016"] {
        assert!(
            found.contains(&expected),
            "expected a {expected} diagnostic, found {found:?}\n{stdout}"
        );
    }

    let diags = diagnostics(&output);
    for d in diags {
        let path = d["path"].as_str().expect("path");
        check_path(&repo.root, path);
        check_span(&repo.root, path, &d["span"]);
        for r in d["related"].as_array().expect("related") {
            let rpath = r["path"].as_str().expect("related path");
            check_path(&repo.root, rpath);
            check_span(&repo.root, rpath, &r["span"]);
        }
    }
    assert!(
        diags
            .iter()
            .any(|d| !d["related"].as_array().expect("related").is_empty()),
        "the duplicate key points at its first definition"
    );

    let key = |d: &Value| {
        (
            d["path"].as_str().unwrap_or_default().to_string(),
            d["span"]["start"]["offset"].as_u64().unwrap_or_default(),
            d["span"]["end"]["offset"].as_u64().unwrap_or_default(),
            d["code"].as_str().unwrap_or_default().to_string(),
        )
    };
    let keys: Vec<_> = diags.iter().map(key).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(
        keys, sorted,
        "diagnostics are sorted by path, then position"
    );

    let count = |severity: &str| diags.iter().filter(|d| d["severity"] == severity).count() as u64;
    assert_eq!(output["summary"]["errors"].as_u64(), Some(count("error")));
    assert_eq!(
        output["summary"]["warnings"].as_u64(),
        Some(count("warning"))
    );
    assert_eq!(output["summary"]["infos"].as_u64(), Some(count("info")));
}

#[test]
fn columns_count_unicode_scalar_values() {
    let repo = troubled_repo();
    let (stdout, _, _) = toolc(&repo.root, &["check", "--format", "json"]);
    let output = validated(&stdout);
    let strng = diagnostics(&output)
        .iter()
        .find(|d| d["code"] == "SCH001")
        .expect("the misspelt type is reported");
    assert_eq!(strng["path"], ".dojops/tools/bad-schema/input.schema.json");
    // `    "größe": {"description": "Größe in €", "type": ` is 51 characters but 57 bytes.
    assert_eq!(strng["span"]["start"]["line"], 4);
    assert_eq!(strng["span"]["start"]["column"], 52);
    assert_eq!(strng["span"]["end"]["column"], 59);
    let text =
        std::fs::read_to_string(repo.root.join(".dojops/tools/bad-schema/input.schema.json"))
            .expect("read");
    let start = strng["span"]["start"]["offset"].as_u64().expect("offset") as usize;
    let end = strng["span"]["end"]["offset"].as_u64().expect("offset") as usize;
    assert_eq!(&text[start..end], "\"strng\"");
}

#[test]
fn output_is_identical_from_run_to_run() {
    let repo = troubled_repo();
    let (first, _, _) = toolc(&repo.root, &["check", "--format", "json"]);
    for _ in 0..3 {
        let (again, _, _) = toolc(&repo.root, &["check", "--format", "json"]);
        assert_eq!(
            first, again,
            "output order must not depend on thread scheduling"
        );
    }
}

#[test]
fn paths_are_relative_to_the_working_directory() {
    let repo = troubled_repo();
    let sub = repo.root.join("elsewhere");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let (stdout, _, code) = toolc(&sub, &["check", "--format", "json", ".."]);
    assert_eq!(code, 1);
    let output = validated(&stdout);
    let diags = diagnostics(&output);
    assert!(!diags.is_empty());
    for d in diags {
        let path = d["path"].as_str().expect("path");
        assert!(
            path.starts_with("../.dojops/"),
            "`{path}` must be relative to `elsewhere/`"
        );
        check_path(&sub, path);
        check_span(&sub, path, &d["span"]);
    }
    let (stdout, _, _) = toolc(
        &repo.root,
        &["check", "--format", "json", ".dojops/tools/dup"],
    );
    let output = validated(&stdout);
    assert!(diagnostics(&output).iter().all(|d| {
        d["path"]
            .as_str()
            .is_some_and(|p| p.starts_with(".dojops/tools/dup/"))
    }));
}

#[test]
fn clean_repository_exits_zero_with_no_diagnostics() {
    let repo = clean_repo();
    let (stdout, stderr, code) = toolc(&repo.root, &["check", "--format", "json"]);
    assert_eq!(code, 0, "stderr: {stderr}\n{stdout}");
    let output = validated(&stdout);
    assert_eq!(output["diagnostics"], Value::Array(Vec::new()));
    assert_eq!(output["summary"]["errors"], 0);
    assert_eq!(output["summary"]["warnings"], 0);
    assert_eq!(output["summary"]["tools"], 1);
}

#[test]
fn warnings_fail_only_with_deny_warnings() {
    let repo = clean_repo();
    repo.write(
        ".dojops/policy.yaml",
        b"allowedTools:\n  - fine\n  - ghost-tool\n",
    );
    let (stdout, _, code) = toolc(&repo.root, &["check", "--format", "json"]);
    assert_eq!(code, 0, "warnings alone do not fail a run");
    assert_eq!(codes(&validated(&stdout)), ["DOJ016"]);
    let (stdout, _, code) = toolc(
        &repo.root,
        &["check", "--format", "json", "--deny-warnings"],
    );
    assert_eq!(code, 1);
    validated(&stdout);
}

#[test]
fn select_and_ignore_filter_the_output() {
    let repo = troubled_repo();
    let (stdout, _, code) = toolc(
        &repo.root,
        &["check", "--format", "json", "--select", "SCH"],
    );
    let output = validated(&stdout);
    assert!(
        codes(&output).iter().all(|c| c.starts_with("SCH")),
        "{stdout}"
    );
    assert_eq!(code, 1, "SCH001 is an error");
    let (stdout, _, code) = toolc(
        &repo.root,
        &["check", "--format", "json", "--select", "DOJ016"],
    );
    assert_eq!(code, 0, "only a warning is left");
    let output = validated(&stdout);
    assert!(
        !codes(&output).is_empty() && codes(&output).iter().all(|c| *c == "DOJ016"),
        "{stdout}"
    );
    assert_eq!(output["summary"]["errors"], 0);
}

#[test]
fn unknown_select_code_is_a_usage_error() {
    let repo = clean_repo();
    for flag in ["--select", "--ignore"] {
        let (stdout, stderr, code) =
            toolc(&repo.root, &["check", "--format", "json", flag, "XYZ999"]);
        assert_eq!(code, 2, "{flag} with an unknown code exits with 2");
        assert!(
            stdout.is_empty(),
            "nothing is checked, so nothing is printed: {stdout}"
        );
        assert!(
            stderr.contains("XYZ999"),
            "stderr names the unknown code: {stderr}"
        );
    }
}

#[test]
fn bad_configuration_exits_two_with_valid_json() {
    let repo = clean_repo();
    repo.write("toolc.toml", b"[rules]\nNOPE001 = \"error\"\n");
    let (stdout, _, code) = toolc(&repo.root, &["check", "--format", "json"]);
    assert_eq!(code, 2, "an invalid configuration is toolc's own error");
    let output = validated(&stdout);
    let diags = diagnostics(&output);
    assert!(!diags.is_empty(), "the configuration problem is reported");
    for d in diags {
        assert_eq!(d["path"], "toolc.toml");
        assert_eq!(d["format"], "toolc-config");
        check_span(&repo.root, "toolc.toml", &d["span"]);
    }
}

#[test]
fn missing_config_file_exits_two() {
    let repo = clean_repo();
    let (stdout, stderr, code) = toolc(
        &repo.root,
        &["check", "--format", "json", "--config", "nope.toml"],
    );
    assert_eq!(code, 2, "stdout: {stdout}\nstderr: {stderr}");
}
