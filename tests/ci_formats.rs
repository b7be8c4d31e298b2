//! The formats other CI systems read, validated against their published shapes: GitLab Code
//! Quality and reviewdog's rdjson against JSON Schemas written here from their documentation
//! (`tests/data/ci/`), the Markdown summary parsed as GitHub-flavoured Markdown.

mod common;

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use common::{DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

fn toolc(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("toolc runs")
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let output = toolc(dir, args);
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

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

/// An error (DOJ003), a warning (DOJ007) and an error with a safe fix after a two-byte
/// character on its line (DOJ005), and the same serializer problem twice in one file.
fn repo() -> Repo {
    let repo = Repo::new();
    tool(
        &repo,
        "bad",
        &VALID_TOOL.replace("name: my-tool", "name: \"Bad|Name\"\nauthor: me"),
    );
    tool(
        &repo,
        "cafe",
        &VALID_TOOL.replace(
            "  - path: \"out/config.yaml\"\n    serializer: yaml\n",
            "  - {path: \"café/config.yaml\", serializer: yml}\n  - {path: \"café/config.yaml\", serializer: yml}\n",
        ),
    );
    repo
}

fn validate(schema_file: &str, instance: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ci")
        .join(schema_file);
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("JSON");
    assert!(
        jsonschema::meta::is_valid(&schema),
        "{schema_file}: meta-valid"
    );
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{schema_file}: {errors:#?}\n{instance:#}"
    );
}

#[test]
fn gitlab_code_quality_has_the_documented_shape_and_unique_fingerprints() {
    let repo = repo();
    let report = json(&repo.root, &["check", "--format", "gitlab"]);
    validate("gitlab-code-quality.schema.json", &report);
    let issues = report.as_array().expect("an array");
    assert_eq!(issues.len(), 4, "{report:#}");
    let mut fingerprints: Vec<&str> = issues
        .iter()
        .filter_map(|i| i["fingerprint"].as_str())
        .collect();
    fingerprints.sort_unstable();
    fingerprints.dedup();
    assert_eq!(
        fingerprints.len(),
        4,
        "GitLab shows one issue per fingerprint"
    );
    let bad = issues
        .iter()
        .find(|i| i["check_name"] == "DOJ003")
        .expect("DOJ003");
    assert_eq!(bad["severity"], "major");
    assert_eq!(bad["location"]["path"], ".dojops/tools/bad/tool.yaml");
    assert_eq!(bad["location"]["lines"]["begin"], 2);
    let warning = issues
        .iter()
        .find(|i| i["check_name"] == "DOJ007")
        .expect("DOJ007");
    assert_eq!(warning["severity"], "minor");

    // The fingerprints do not move with the lines, like the baseline's.
    tool(
        &repo,
        "bad",
        &format!(
            "# comment\n{}",
            VALID_TOOL.replace("name: my-tool", "name: \"Bad|Name\"\nauthor: me")
        ),
    );
    let moved = json(&repo.root, &["check", "--format", "gitlab"]);
    let moved_bad = moved
        .as_array()
        .into_iter()
        .flatten()
        .find(|i| i["check_name"] == "DOJ003")
        .expect("DOJ003");
    assert_eq!(moved_bad["fingerprint"], bad["fingerprint"]);
    assert_eq!(moved_bad["location"]["lines"]["begin"], 3);

    // A clean run is an empty array, which GitLab reads as "no issues".
    let clean = Repo::new();
    tool(&clean, "ok", VALID_TOOL);
    assert_eq!(
        json(&clean.root, &["check", "--format", "gitlab"]),
        Value::Array(vec![])
    );
}

#[test]
fn rdjson_has_the_published_shape_byte_columns_and_safe_suggestions() {
    let repo = repo();
    let result = json(&repo.root, &["check", "--format", "rdjson"]);
    validate("rdjson.schema.json", &result);
    assert_eq!(result["source"]["name"], "toolc");
    let diagnostics = result["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), 4);

    let plain = json(&repo.root, &["check", "--format", "json"]);
    let serializer = plain["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| d["code"] == "DOJ005")
        .expect("DOJ005 in the JSON output");
    let rd = diagnostics
        .iter()
        .find(|d| d["code"]["value"] == "DOJ005")
        .expect("DOJ005 in rdjson");
    assert_eq!(rd["severity"], "ERROR");
    assert!(
        rd["code"]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("/rules/DOJ005.md"))
    );
    // `é` is one character but two bytes: rdjson counts bytes.
    let chars = serializer["span"]["start"]["column"]
        .as_u64()
        .expect("column");
    let range = &rd["location"]["range"];
    assert_eq!(range["start"]["column"].as_u64(), Some(chars + 1));
    assert_eq!(range["start"]["line"], serializer["span"]["start"]["line"]);
    let text =
        std::fs::read_to_string(repo.root.join(".dojops/tools/cafe/tool.yaml")).expect("read");
    let line = text.lines().nth(10).expect("line 11");
    let from = range["start"]["column"].as_u64().unwrap_or(1) as usize - 1;
    let to = range["end"]["column"].as_u64().unwrap_or(1) as usize - 1;
    assert_eq!(
        line.get(from..to),
        Some("yml"),
        "byte columns pick out the token"
    );
    // The safe fix is a suggestion over the same range; the unsafe rename of DOJ003 is not.
    assert_eq!(rd["suggestions"][0]["text"], "yaml");
    assert_eq!(rd["suggestions"][0]["range"], *range);
    let name = diagnostics
        .iter()
        .find(|d| d["code"]["value"] == "DOJ003")
        .expect("DOJ003");
    assert!(name.get("suggestions").is_none(), "{name:#}");
    assert!(
        name["message"]
            .as_str()
            .is_some_and(|m| m.contains("\nhelp: "))
    );
}

/// The cells of every table row in `markdown`, parsed as GitHub-flavoured Markdown.
fn table_rows(markdown: &str) -> Vec<Vec<String>> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut rows = Vec::new();
    let mut row: Option<Vec<String>> = None;
    let mut cell: Option<String> = None;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::TableHead | Tag::TableRow) => row = Some(Vec::new()),
            Event::End(TagEnd::TableHead | TagEnd::TableRow) => rows.extend(row.take()),
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => {
                if let (Some(r), Some(c)) = (row.as_mut(), cell.take()) {
                    r.push(c);
                }
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t);
                }
            }
            _ => {}
        }
    }
    rows
}

#[test]
fn the_markdown_summary_is_well_formed_and_complete() {
    let repo = repo();
    let output = toolc(&repo.root, &["check", "--format", "markdown"]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(text.starts_with("## toolc\n"), "{text}");
    assert!(
        text.contains("❌ 3 errors, 1 warning in 4 files, 2 tools."),
        "{text}"
    );
    let rows = table_rows(&text);
    // The rule table (header + 3 rules) and the findings (header + 4), each row complete.
    assert_eq!(rows.len(), 2 + 3 + 4, "{rows:#?}");
    assert!(
        rows.iter().all(|r| r.len() == 4 || r.len() == 3),
        "{rows:#?}"
    );
    assert_eq!(rows[0], ["rule", "name", "severity", "count"]);
    assert_eq!(rows[1], ["DOJ005", "invalid-enum-value", "error", "2"]);
    // A `|` from the file stays inside its cell.
    assert!(
        rows.iter()
            .any(|r| r.len() == 3 && r[2].contains("tool name Bad|Name is not")),
        "{rows:#?}"
    );
    assert!(text.contains("<details>") && text.trim_end().ends_with("</details>"));

    let clean = Repo::new();
    tool(&clean, "ok", VALID_TOOL);
    let output = toolc(&clean.root, &["check", "--format", "markdown"]);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "## toolc\n\n✅ No problems in 2 files, 1 tool.\n"
    );
}

#[test]
fn a_long_markdown_summary_lists_the_first_findings_and_counts_the_rest() {
    let repo = Repo::new();
    for i in 0..105 {
        tool(
            &repo,
            &format!("t{i:03}"),
            &VALID_TOOL.replace("name: my-tool", &format!("name: Bad_{i:03}")),
        );
    }
    let output = toolc(&repo.root, &["check", "--format", "markdown"]);
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(text.contains("…and 5 more findings"), "{text}");
    assert_eq!(table_rows(&text).len(), 2 + 1 + 100);
    assert!(text.contains("| 105 |"), "the counts stay complete");
}

#[test]
fn the_new_formats_are_written_with_output_format_too() {
    let repo = repo();
    let output = toolc(
        &repo.root,
        &[
            "check",
            "-q",
            "--output-format",
            "gitlab:reports/gl-code-quality-report.json",
            "--output-format",
            "rdjson:reports/toolc.rdjson",
            "--output-format",
            "markdown:reports/toolc.md",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    for file in ["gl-code-quality-report.json", "toolc.rdjson", "toolc.md"] {
        let written = std::fs::read_to_string(repo.root.join("reports").join(file));
        assert!(written.is_ok_and(|t| !t.is_empty()), "{file}");
    }
}
