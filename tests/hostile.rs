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
#[path = "hostile/dense.rs"]
mod dense;
#[path = "hostile/dense_lists.rs"]
mod dense_lists;
#[path = "hostile/fixes.rs"]
mod fixes;
#[path = "hostile/fuzz.rs"]
mod fuzz;
#[path = "hostile/hidden.rs"]
mod hidden;
#[path = "hostile/output.rs"]
mod output;
#[path = "hostile/paths.rs"]
mod paths;
#[path = "hostile/reads.rs"]
mod reads;
#[path = "hostile/references.rs"]
mod references;
#[path = "hostile/server.rs"]
mod server;
#[path = "hostile/shellcheck.rs"]
mod shellcheck;

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

/// Write a tool folder: `tool.yaml` with `manifest`, and the valid input schema.
fn tool(repo: &Repo, name: &str, manifest: &[u8]) {
    repo.write(&format!(".dojops/tools/{name}/tool.yaml"), manifest);
    repo.write(
        &format!(".dojops/tools/{name}/input.schema.json"),
        VALID_SCHEMA.as_bytes(),
    );
}

fn run(repo: &Repo, args: &[&str]) -> Output {
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
    // 101 is a Rust panic; `None` is a signal (including the timeout's kill).
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "toolc must exit 0 or 1, got {:?}\nstderr: {}",
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

#[test]
fn yaml_alias_bomb_is_cut_off() {
    let repo = repo();
    let mut bomb = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let p = format!("*a{}", i - 1);
        let items = [p.as_str(); 10].join(", ");
        bomb.push_str(&format!("a{i}: &a{i} [{items}]\n"));
    }
    tool(&repo, "bomb", bomb.as_bytes());
    // Wide, not deep: many aliases of one anchor that is just under the budget on its own.
    let mut wide = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..5 {
        let p = format!("*a{}", i - 1);
        let items = [p.as_str(); 10].join(", ");
        wide.push_str(&format!("a{i}: &a{i} [{items}]\n"));
    }
    for i in 0..1000 {
        wide.push_str(&format!("b{i}: *a4\n"));
    }
    tool(&repo, "wide", wide.as_bytes());
    let diags = diagnostics(&repo);
    find(&diags, "SYN004", ".dojops/tools/bomb/tool.yaml");
    find(&diags, "SYN004", ".dojops/tools/wide/tool.yaml");
}

#[test]
fn deeply_nested_yaml_is_an_error() {
    let repo = repo();
    let flow = "[".repeat(100_000) + &"]".repeat(100_000);
    tool(&repo, "flow", flow.as_bytes());
    let block = "- ".repeat(100_000) + "x\n";
    tool(&repo, "block", block.as_bytes());
    let mapping: String = "{a: ".repeat(100_000) + &"}".repeat(100_000);
    tool(&repo, "mapping", mapping.as_bytes());
    let diags = diagnostics(&repo);
    for name in ["flow", "block", "mapping"] {
        find(&diags, "SYN005", &format!(".dojops/tools/{name}/tool.yaml"));
    }
}

#[test]
fn deeply_nested_json_schema_is_an_error() {
    let repo = repo();
    tool(
        &repo,
        "deep",
        VALID_TOOL.replace("my-tool", "deep").as_bytes(),
    );
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    repo.write(".dojops/tools/deep/input.schema.json", deep.as_bytes());
    tool(
        &repo,
        "deep-object",
        VALID_TOOL.replace("my-tool", "deep-object").as_bytes(),
    );
    let deep = r#"{"a": "#.repeat(100_000) + "1" + &"}".repeat(100_000);
    repo.write(
        ".dojops/tools/deep-object/input.schema.json",
        deep.as_bytes(),
    );
    let diags = diagnostics(&repo);
    find(&diags, "SYN005", ".dojops/tools/deep/input.schema.json");
    find(
        &diags,
        "SYN005",
        ".dojops/tools/deep-object/input.schema.json",
    );
}

#[test]
fn invalid_utf8_points_at_the_first_bad_byte() {
    let repo = repo();
    tool(&repo, "latin1", b"spec: 1\nname: caf\xe9\n");
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN007", ".dojops/tools/latin1/tool.yaml")[0];
    assert_eq!(start(d), (2, 10));
    assert_eq!(d["span"]["start"]["offset"], 17);
}

/// Found by fuzzing: offsets after a byte that is not UTF-8 were counted in the decoded text
/// (three bytes per U+FFFD), so a bad last byte gave an end offset past the end of the file.
#[test]
fn offsets_in_a_file_that_is_not_utf8_are_offsets_of_the_stored_bytes() {
    let repo = repo();
    let manifest: &[u8] = b"spec: 1\nname: caf\xe9";
    tool(&repo, "latin1", manifest);
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN007", ".dojops/tools/latin1/tool.yaml")[0];
    assert_eq!(d["span"]["start"]["offset"], 17);
    assert_eq!(d["span"]["end"]["offset"], manifest.len());
    assert_eq!(end(d), (2, 11));
}

#[test]
fn binary_file_named_tool_yaml() {
    let repo = repo();
    tool(
        &repo,
        "png",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00",
    );
    let diags = diagnostics(&repo);
    let found = find(&diags, "SYN008", ".dojops/tools/png/tool.yaml");
    assert_eq!(
        found.len(),
        1,
        "one diagnostic for a binary file: {found:#?}"
    );
    // Binary content is not shown: the message names where the first NUL is.
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("offset 8"), "{message}");
}

#[test]
fn empty_manifest_and_empty_schema() {
    let repo = repo();
    tool(&repo, "empty", b"");
    tool(&repo, "blank", b"  \n\n");
    tool(
        &repo,
        "empty-schema",
        VALID_TOOL.replace("my-tool", "empty-schema").as_bytes(),
    );
    repo.write(".dojops/tools/empty-schema/input.schema.json", b"");
    let diags = diagnostics(&repo);
    find(&diags, "SYN009", ".dojops/tools/empty/tool.yaml");
    find(&diags, "SYN009", ".dojops/tools/blank/tool.yaml");
    find(
        &diags,
        "SYN009",
        ".dojops/tools/empty-schema/input.schema.json",
    );
}

#[test]
fn comment_only_manifest_is_not_silently_accepted() {
    let repo = repo();
    tool(&repo, "comment", b"# TODO: write this tool\n");
    let diags = diagnostics(&repo);
    find(&diags, "SYN009", ".dojops/tools/comment/tool.yaml");
}

#[test]
fn five_megabyte_line_is_reported_without_printing_it() {
    let repo = repo();
    let huge = "x".repeat(5 * 1024 * 1024);
    let manifest = VALID_TOOL
        .replace("my-tool", "huge")
        .replace("You write config files.", &huge);
    tool(&repo, "huge", manifest.as_bytes());
    // The same line as the value of a field with a length limit: a diagnostic on the line itself.
    let manifest = VALID_TOOL.replace("name: my-tool", &format!("name: {huge}"));
    tool(&repo, "huge-name", manifest.as_bytes());
    let diags = diagnostics(&repo);
    find(&diags, "DOJ010", ".dojops/tools/huge/tool.yaml");
    find(&diags, "DOJ010", ".dojops/tools/huge-name/tool.yaml");
    find(&diags, "DOJ006", ".dojops/tools/huge-name/tool.yaml");
    let output = run(&repo, &["check", "--no-color"]);
    assert!(
        output.stdout.len() < 20_000,
        "human output must not print the 5 MB line: {} bytes",
        output.stdout.len()
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    tool(
        &repo,
        "looping",
        VALID_TOOL.replace("my-tool", "looping").as_bytes(),
    );
    symlink("..", repo.root.join(".dojops/tools/looping/parent")).expect("symlink");
    std::fs::create_dir_all(repo.root.join(".dojops/tools/self")).expect("mkdir");
    symlink("tool.yaml", repo.root.join(".dojops/tools/self/tool.yaml")).expect("symlink");
    let diags = diagnostics(&repo);
    find(&diags, "SYN012", ".dojops/tools/self/tool.yaml");
    assert!(
        !diags
            .iter()
            .any(|d| d["path"].as_str().is_some_and(|p| p.contains("parent"))),
        "a directory symlink is not followed: {diags:#?}"
    );
}

#[cfg(unix)]
#[test]
fn links_out_of_the_repository_are_never_followed() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    // A secrets file outside the repository, and committed links to it.
    let outside = std::env::temp_dir().join(format!("toolc-outside-{}", std::process::id()));
    std::fs::create_dir_all(&outside).expect("mkdir");
    let secret = outside.join("secrets");
    std::fs::write(&secret, "name: hunter2-do-not-print\n").expect("write");
    std::fs::write(outside.join("schema.json"), "{\"hunter2-do-not-print\": 1").expect("write");
    std::fs::create_dir_all(repo.root.join(".dojops/tools/leak")).expect("mkdir");
    symlink(&secret, repo.root.join(".dojops/tools/leak/tool.yaml")).expect("symlink");
    tool(
        &repo,
        "schema-leak",
        VALID_TOOL.replace("my-tool", "schema-leak").as_bytes(),
    );
    let schema = repo
        .root
        .join(".dojops/tools/schema-leak/input.schema.json");
    std::fs::remove_file(&schema).expect("unlink");
    symlink(outside.join("schema.json"), &schema).expect("symlink");
    // A link that stays inside the repository is read as usual.
    tool(
        &repo,
        "inside",
        VALID_TOOL.replace("my-tool", "inside").as_bytes(),
    );
    std::fs::create_dir_all(repo.root.join(".dojops/tools/alias")).expect("mkdir");
    symlink(
        repo.root.join(".dojops/tools/inside/tool.yaml"),
        repo.root.join(".dojops/tools/alias/tool.yaml"),
    )
    .expect("symlink");

    let output = run(&repo, &["check", "--no-color"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        !text.contains("hunter2"),
        "a linked file's content was printed:\n{text}"
    );
    let diags = diagnostics(&repo);
    let leak = find(&diags, "SYN012", ".dojops/tools/leak/tool.yaml");
    assert!(
        leak[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("leads out of the repository")),
        "{leak:#?}"
    );
    let schema_findings: Vec<&Value> = diags
        .iter()
        .filter(|d| {
            d["path"]
                .as_str()
                .is_some_and(|p| p.contains("schema-leak"))
        })
        .collect();
    assert!(
        schema_findings.iter().any(|d| d["message"]
            .as_str()
            .is_some_and(|m| m.contains("out of the repository"))),
        "{schema_findings:#?}"
    );
    // The alias inside the repository is read: it duplicates `inside`'s name.
    find(&diags, "DOJ011", ".dojops/tools/inside/tool.yaml");
    let _ = std::fs::remove_dir_all(&outside);
}

#[cfg(unix)]
#[test]
fn special_files_do_not_block() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    // Reading /dev/zero never ends and a FIFO blocks until someone writes: neither may hang.
    if std::path::Path::new("/dev/zero").exists() {
        std::fs::create_dir_all(repo.root.join(".dojops/tools/zero")).expect("mkdir");
        symlink("/dev/zero", repo.root.join(".dojops/tools/zero/tool.yaml")).expect("symlink");
    }
    std::fs::create_dir_all(repo.root.join(".dojops/tools/fifo")).expect("mkdir");
    let fifo = std::process::Command::new("mkfifo")
        .arg(repo.root.join(".dojops/tools/fifo/tool.yaml"))
        .status()
        .is_ok_and(|s| s.success());
    let diags = diagnostics(&repo);
    if std::path::Path::new("/dev/zero").exists() {
        find(&diags, "SYN012", ".dojops/tools/zero/tool.yaml");
    }
    if fifo {
        find(&diags, "SYN012", ".dojops/tools/fifo/tool.yaml");
    }
}

#[test]
fn ref_cycles_in_an_input_schema_terminate() {
    let repo = repo();
    tool(
        &repo,
        "self-ref",
        VALID_TOOL.replace("my-tool", "self-ref").as_bytes(),
    );
    repo.write(
        ".dojops/tools/self-ref/input.schema.json",
        br##"{"$ref": "#"}"##,
    );
    tool(
        &repo,
        "mutual",
        VALID_TOOL.replace("my-tool", "mutual").as_bytes(),
    );
    repo.write(
        ".dojops/tools/mutual/input.schema.json",
        br##"{
  "type": "object",
  "definitions": {
    "a": {"type": "object", "properties": {"b": {"$ref": "#/definitions/b"}}},
    "b": {"type": "object", "properties": {"a": {"$ref": "#/definitions/a"}}}
  },
  "properties": {"start": {"$ref": "#/definitions/a"}}
}"##,
    );
    let diags = diagnostics(&repo);
    // A cycle is legal JSON Schema: it must neither hang nor be called invalid.
    for d in &diags {
        let code = d["code"].as_str().unwrap_or_default();
        assert!(
            !(code.starts_with("SYN") || code == "SCH001")
                || d["path"] == ".dojops/tools/sentinel/tool.yaml",
            "a `$ref` cycle is valid JSON Schema: {d:#}"
        );
    }
}

#[test]
fn bom_and_crlf_keep_positions_exact() {
    let repo = repo();
    repo.write(DOJOPS_1_0.0, DOJOPS_1_0.1.as_bytes());
    let manifest = format!(
        "\u{feff}{}",
        VALID_TOOL
            .replace("name: my-tool", "name: Bad_Name")
            .replace('\n', "\r\n")
    );
    tool(&repo, "bom", manifest.as_bytes());
    tool(
        &repo,
        "bom-syntax",
        b"\xef\xbb\xbfspec: 1\r\nname: bom-syntax\r\nversion: [1\r\n",
    );
    let diags = diagnostics(&repo);
    let bom: Vec<_> = diags
        .iter()
        .filter(|d| d["path"] == ".dojops/tools/bom/tool.yaml")
        .collect();
    assert_eq!(bom.len(), 1, "only the bad name: {bom:#?}");
    assert_eq!(bom[0]["code"], "DOJ003");
    assert_eq!(start(bom[0]), (2, 7));
    assert_eq!(end(bom[0]), (2, 15));
    // BOM (3 bytes) + "spec: 1\r\n" (9) + "name: " (6).
    assert_eq!(bom[0]["span"]["start"]["offset"], 18);
    let d = find(&diags, "SYN001", ".dojops/tools/bom-syntax/tool.yaml")[0];
    assert_eq!(start(d), (3, 10));
}

#[test]
fn bom_crlf_error_on_line_three() {
    let repo = repo();
    let manifest = format!(
        "\u{feff}{}",
        VALID_TOOL
            .replace("version: \"1.0.0\"", "version: 1.0")
            .replace('\n', "\r\n")
    );
    tool(&repo, "crlf", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "DOJ002", ".dojops/tools/crlf/tool.yaml")[0];
    assert_eq!(start(d), (3, 10));
    assert_eq!(end(d), (3, 13), "the span stops before the `\\r`");
}

#[test]
fn tab_indentation_points_at_the_tab() {
    let repo = repo();
    let manifest = VALID_TOOL.replace("\n  strategy: llm", "\n\tstrategy: llm");
    tool(&repo, "tabs", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN001", ".dojops/tools/tabs/tool.yaml")[0];
    assert_eq!(start(d), (8, 1));
    assert_eq!(end(d), (8, 2));
}

#[test]
fn duplicate_keys_point_at_both() {
    let repo = repo();
    let manifest = VALID_TOOL.replace("type: tool\n", "type: tool\nname: other\n");
    tool(&repo, "dup", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN003", ".dojops/tools/dup/tool.yaml")[0];
    assert_eq!(start(d), (5, 1));
    let related = &d["related"][0];
    assert_eq!(related["path"], ".dojops/tools/dup/tool.yaml");
    assert_eq!(start(related), (2, 1));
    assert_eq!(end(related), (2, 5));
    assert_eq!(related["message"], "first defined here");
}

#[test]
fn second_yaml_document() {
    let repo = repo();
    let manifest = format!("{VALID_TOOL}---\nspec: 2\n");
    tool(&repo, "two-docs", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN006", ".dojops/tools/two-docs/tool.yaml");
    assert_eq!(start(d[0]), (13, 1));
    assert!(
        !diags
            .iter()
            .any(|d| d["path"] == ".dojops/tools/two-docs/tool.yaml" && d["code"] == "DOJ004"),
        "only the first document is read: {diags:#?}"
    );
}

#[test]
fn directory_named_tool_yaml() {
    let repo = repo();
    std::fs::create_dir_all(repo.root.join(".dojops/tools/dir/tool.yaml")).expect("mkdir");
    let diags = diagnostics(&repo);
    find(&diags, "SYN012", ".dojops/tools/dir/tool.yaml");
}

// ---------------------------------------------------------------------------------------------
// Property tests: random bytes and random mutations, no panic.

#[test]
fn check_survives_random_mutations_of_a_valid_repository() {
    let mut rng = rng(0x2545_f491_4f6c_dd1d);
    let repo = Repo::new();
    let manifest = ".dojops/tools/my-tool/tool.yaml";
    let schema = ".dojops/tools/my-tool/input.schema.json";
    for i in 0..150 * scale() {
        let tool = mutate(&mut rng, VALID_TOOL.as_bytes());
        let input = if i % 3 == 0 {
            mutate(&mut rng, VALID_SCHEMA.as_bytes())
        } else {
            VALID_SCHEMA.as_bytes().to_vec()
        };
        repo.write(manifest, &tool);
        repo.write(schema, &input);
        let result = std::panic::catch_unwind(|| {
            let report = check_dir(&repo.root).expect("no config in this repository");
            // The emitters take spans from every pass: render both.
            let _ = report.render(OutputFormat::Human, &repo.root, true);
            let _ = report.render(OutputFormat::Json, &repo.root, false);
        });
        assert!(
            result.is_ok(),
            "check panicked on iteration {i}\ntool.yaml: {:?}\ninput.schema.json: {:?}",
            String::from_utf8_lossy(&tool),
            String::from_utf8_lossy(&input)
        );
    }
}

#[test]
fn check_survives_random_bytes_as_every_file() {
    let mut rng = rng(0xdead_beef_cafe_f00d);
    let repo = Repo::new();
    for i in 0..60 * scale() {
        let tool = rng.bytes(200);
        let schema = rng.bytes(100);
        let policy = rng.bytes(100);
        let skill = rng.bytes(200);
        repo.write(".dojops/tools/x/tool.yaml", &tool);
        repo.write(".dojops/tools/x/input.schema.json", &schema);
        repo.write(".dojops/policy.yaml", &policy);
        repo.write(".dojops/skills/x.dops", &skill);
        let result = std::panic::catch_unwind(|| {
            let report = check_dir(&repo.root).expect("no config in this repository");
            let _ = report.render(OutputFormat::Human, &repo.root, false);
        });
        assert!(result.is_ok(), "check panicked on iteration {i}");
    }
}

// ---------------------------------------------------------------------------------------------
// A hostile repository: configuration that points outside it.

/// Run toolc where its configuration must be refused: exit 2, within seconds.
fn run_config_error(repo: &Repo, args: &[&str]) -> Output {
    let output = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(&repo.root)
        .args(args)
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    assert_eq!(
        output.status.code(),
        Some(2),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[cfg(unix)]
#[test]
fn a_committed_config_linked_outside_the_repository_is_neither_read_nor_echoed() {
    let outside = Repo::with(&[("environ", "GITHUB_TOKEN=ghp_not_a_real_secret_value\n")]);
    let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    std::os::unix::fs::symlink(outside.root.join("environ"), repo.root.join("toolc.toml"))
        .expect("link");
    let output = run_config_error(&repo, &["check", "."]);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(all.contains("outside the repository"), "{all}");
    assert!(
        !all.contains("ghp_not_a_real"),
        "the linked file was echoed: {all}"
    );
}

#[cfg(unix)]
#[test]
fn a_config_that_is_a_device_fails_at_once() {
    let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
    let output = run_config_error(&repo, &["check", ".", "--config", "/dev/zero"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));
}

// ---------------------------------------------------------------------------------------------
// A hostile repository: control characters in names and source lines.

#[test]
fn control_characters_from_files_never_reach_the_terminal_or_the_ci_log() {
    let repo = Repo::with(&[
        (
            ".cycod/tools/t.yaml",
            "name: \"x\\n::error file=README.md::injected\\u001b]0;PWNED\\u0007\"\ndescription: d\nbash: echo hi\ntags: [read]\n",
        ),
        (
            ".cycod/tools/u.yaml",
            "name: ok\u{9b}2J\ndescription: d\nbash: echo hi\ntags: [read]\n",
        ),
    ]);
    for format in ["human", "github"] {
        let output = run(&repo, &["check", ".", "--format", format]);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("injected"), "{format}: {text}");
        for c in ['\u{1b}', '\u{7}', '\u{9b}', '\0'] {
            assert!(!text.contains(c), "{format}: {c:?} printed raw: {text}");
        }
        // Only toolc's own annotations start a line with `::`.
        for line in text.lines().filter(|l| l.starts_with("::")) {
            assert!(
                line.contains("title=toolc ("),
                "{format}: injected line {line}"
            );
        }
        assert!(
            !text
                .lines()
                .any(|l| l.trim_start().starts_with("::error file=README.md")),
            "{format}: {text}"
        );
    }
}

#[test]
fn findings_per_rule_and_file_are_capped_in_every_format() {
    let repo = repo();
    // A thousand unknown keys in a `tool.yaml` and in a cycod tool: formats that do not cap
    // their own findings are capped all the same.
    let keys: String = (0..1000).map(|i| format!("extra_key_{i}: 1\n")).collect();
    tool(
        &repo,
        "noisy",
        format!("{}{keys}", VALID_TOOL.replace("my-tool", "noisy")).as_bytes(),
    );
    repo.write(
        ".cycod/tools/noisy.yaml",
        format!("name: noisy\ndescription: Lists files\nbash: ls\ntags: [read]\n{keys}").as_bytes(),
    );
    let diags = diagnostics(&repo);
    for path in [".dojops/tools/noisy/tool.yaml", ".cycod/tools/noisy.yaml"] {
        let mut per_rule: std::collections::HashMap<&str, usize> = Default::default();
        for d in diags.iter().filter(|d| d["path"] == path) {
            *per_rule
                .entry(d["code"].as_str().unwrap_or(""))
                .or_default() += 1;
        }
        let (code, most) = per_rule
            .iter()
            .max_by_key(|(_, n)| **n)
            .map(|(c, n)| (c.to_string(), *n))
            .unwrap_or_default();
        assert_eq!(most, 201, "{path}: {per_rule:?}");
        let more = diags
            .iter()
            .filter(|d| d["path"] == path && d["code"] == code.as_str())
            .filter_map(|d| d["message"].as_str())
            .find(|m| m.contains("more findings of this rule"));
        assert_eq!(
            more,
            Some("800 more findings of this rule in this file are not shown"),
            "{path}"
        );
    }
}

#[cfg(unix)]
#[test]
fn build_never_writes_or_deletes_through_a_committed_link() {
    use std::os::unix::fs::symlink;
    let repo = Repo::new();
    tool(&repo, "my-tool", VALID_TOOL.as_bytes());
    let outside = std::env::temp_dir().join(format!("toolc-outside-build-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(outside.join("keep.json"), "{}").expect("write");
    for linked in ["dist", "dist/agents"] {
        let _ = std::fs::remove_dir_all(repo.root.join("dist"));
        if linked == "dist/agents" {
            std::fs::create_dir_all(repo.root.join("dist")).expect("mkdir");
        }
        symlink(&outside, repo.root.join(linked)).expect("symlink");
        let out = Command::cargo_bin("toolc")
            .expect("binary")
            .current_dir(&repo.root)
            .args(["build", "--out", "dist"])
            .timeout(HANG_LIMIT)
            .output()
            .expect("toolc runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{linked}: {stderr}");
        assert!(stderr.contains("symbolic link"), "{linked}: {stderr}");
        let mut left: Vec<String> = std::fs::read_dir(&outside)
            .expect("outside")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["keep.json"],
            "{linked}: something was written or deleted outside"
        );
    }
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn a_rebuild_replaces_every_bundle_file_or_none() {
    let repo = Repo::new();
    tool(&repo, "my-tool", VALID_TOOL.as_bytes());
    let build = || {
        Command::cargo_bin("toolc")
            .expect("binary")
            .current_dir(&repo.root)
            .args(["build", "--out", "dist"])
            .output()
            .expect("toolc runs")
    };
    assert!(build().status.success());
    // A second build over the first leaves no temporary or set-aside file behind.
    assert!(build().status.success());
    let names: Vec<String> = std::fs::read_dir(repo.root.join("dist"))
        .expect("dist")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert!(names.iter().all(|n| !n.contains("toolc-tmp")), "{names:?}");
    assert!(names.iter().any(|n| n == "openai.tools.json"), "{names:?}");
}

#[cfg(unix)]
#[test]
fn report_files_are_never_written_through_a_committed_link() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    let outside = std::env::temp_dir().join(format!("toolc-outside-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).expect("mkdir");
    symlink(&outside, repo.root.join("reports")).expect("symlink");
    let out = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .args(["check", "--output-format", "sarif:reports/toolc.sarif"])
        .output()
        .expect("toolc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(!outside.join("toolc.sarif").exists());
    let _ = std::fs::remove_dir_all(&outside);
}
