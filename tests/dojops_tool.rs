//! DojOps `tool.yaml` (spec 1): each rule triggered at the right line and column, and silent
//! on valid manifests (the spec's own Appendix A/B example among them).

mod common;

use common::{Repo, lines};

const T: &str = ".dojops/tools/my-tool/tool.yaml";
/// The manifest rules are checked as the DojOps releases that load manifests (1.0.9 and
/// older) apply them: current DojOps does not load a manifest at all (DOJ024, tested below).
const LEGACY: (&str, &str) = ("toolc.toml", "[runtimes]\ndojops = \"1.0.9\"\n");
const S: &str = ".dojops/tools/my-tool/input.schema.json";
const SCHEMA: &str = r#"{"type": "object", "properties": {"moduleName": {"type": "string"}}}"#;
const BASE: &str = r#"spec: 1
name: my-tool
version: "1.0.0"
type: tool
description: "Generates a config file"
inputSchema: "input.schema.json"
generator:
  strategy: llm
  systemPrompt: "You write config files."
files:
  - path: "out/{moduleName}.yaml"
    serializer: yaml
"#;

/// Diagnostics (as `path:line:col CODE severity message`) for a tool with this manifest.
fn check(manifest: &str) -> Vec<String> {
    let repo = Repo::with(&[LEGACY, (T, manifest), (S, SCHEMA)]);
    lines(&repo.check().expect("config"))
}

/// Assert exactly one diagnostic, starting with `prefix` (`line:col CODE severity`).
fn expect_one(manifest: &str, prefix: &str) {
    let found = check(manifest);
    let want = format!("{T}:{prefix}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want),
        "expected one `{want}…`, got {found:#?}"
    );
}

#[test]
fn valid_manifest_is_silent() {
    assert_eq!(check(BASE), Vec::<String>::new());
}

#[test]
fn spec_appendix_a_and_b_are_valid() {
    let Some(corpus) = common::corpus("dojops-legacy") else {
        return;
    };
    let folder = corpus.join(".dojops/tools/my-terraform-module");
    let manifest = std::fs::read_to_string(folder.join("tool.yaml")).expect("read");
    let schema = std::fs::read_to_string(folder.join("input.schema.json")).expect("read");
    let output = r#"{"type": "object", "properties": {"files": {"type": "array", "items": {"type": "string"}}}}"#;
    let dir = ".dojops/tools/my-terraform-module";
    let repo = Repo::with(&[
        LEGACY,
        (&format!("{dir}/tool.yaml"), manifest.as_str()),
        (&format!("{dir}/input.schema.json"), schema.as_str()),
        (&format!("{dir}/output.schema.json"), output),
    ]);
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
}

#[test]
fn real_world_legacy_folder_reports_the_missing_output_schema() {
    let Some(dir) = common::corpus("dojops-legacy") else {
        return;
    };
    let report = common::check_dir(&dir).expect("config");
    let tool_lines: Vec<_> = lines(&report)
        .into_iter()
        .filter(|l| l.contains("tool.yaml"))
        .collect();
    // The spec's own example: current DojOps does not load it, and its output schema is
    // not shipped.
    assert_eq!(tool_lines.len(), 2, "{tool_lines:#?}");
    assert!(
        tool_lines[0].contains(":2:7 DOJ024 warning"),
        "{tool_lines:#?}"
    );
    assert!(
        tool_lines[1].contains(":7:15 DOJ009 error"),
        "{tool_lines:#?}"
    );
}

#[test]
fn current_dojops_does_not_load_a_manifest_once_per_tool() {
    let other = ".dojops/plugins/old-tool/plugin.yaml";
    let repo = Repo::with(&[
        (T, BASE),
        (S, SCHEMA),
        (other, &BASE.replace("my-tool", "old-tool")),
        (".dojops/plugins/old-tool/input.schema.json", SCHEMA),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [
            format!(
                "{other}:2:7 DOJ024 warning DojOps 1.1.0 and later no longer load `plugin.yaml` tools: `old-tool` is never registered"
            ),
            format!(
                "{T}:2:7 DOJ024 warning DojOps 1.1.0 and later no longer load `tool.yaml` tools: `my-tool` is never registered"
            ),
        ]
    );
    assert!(
        report.diagnostics[1]
            .help
            .as_deref()
            .is_some_and(|h| h.starts_with("move it to `.dojops/skills/my-tool.dops`")),
        "{:?}",
        report.diagnostics[1].help
    );
    // A project that targets a release which loads manifests hears nothing of it.
    let (path, text) = LEGACY;
    repo.write(path, text.as_bytes());
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
    // A later release than the removal is checked like the current one.
    repo.write(path, b"[runtimes]\ndojops = \"1.1\"\n");
    assert_eq!(lines(&repo.check().expect("config")).len(), 2);
}

#[test]
fn an_unknown_runtime_or_release_is_a_configuration_error() {
    for (toml, message) in [
        (
            "[runtimes]\ndojop = \"1.0.9\"\n",
            "`dojop` is not a runtime toolc knows",
        ),
        (
            "[runtimes]\ndojops = \"latest\"\n",
            "`latest` is not a release number",
        ),
    ] {
        let repo = Repo::with(&[("toolc.toml", toml), (T, BASE), (S, SCHEMA)]);
        let errors = repo.check().expect_err("invalid configuration");
        assert!(
            errors[0].message.starts_with(message),
            "{:?}",
            errors[0].message
        );
    }
}

#[test]
fn missing_required_field_points_at_the_parent_key() {
    expect_one(
        &BASE.replace("  systemPrompt: \"You write config files.\"\n", ""),
        "7:1 DOJ001 error required field `generator.systemPrompt` is missing",
    );
    expect_one(
        &BASE.replace("type: tool\n", ""),
        "1:1 DOJ001 error required field `type` is missing",
    );
}

#[test]
fn wrong_field_type() {
    expect_one(
        &BASE.replace("version: \"1.0.0\"", "version: 1.0"),
        "3:10 DOJ002 error `version` must be a string",
    );
    expect_one(
        &BASE.replace(
            "description: \"Generates a config file\"",
            "description: [a, b]",
        ),
        "5:14 DOJ002 error `description` must be a string",
    );
    expect_one(
        &format!("{BASE}permissions: none\n"),
        "13:14 DOJ002 error `permissions` must be a mapping",
    );
}

#[test]
fn invalid_tool_name() {
    expect_one(
        &BASE.replace("name: my-tool", "name: My_Tool"),
        "2:7 DOJ003 error tool name `My_Tool` is not lowercase kebab-case",
    );
    let long = "a".repeat(65);
    expect_one(
        &BASE.replace("name: my-tool", &format!("name: {long}")),
        "2:7 DOJ006 error `name` must have at most 64 characters",
    );
}

#[test]
fn unsupported_spec_version() {
    expect_one(&BASE.replace("spec: 1", "spec: \"1\""), "1:7 DOJ004 error");
    expect_one(
        &BASE.replace("spec: 1", "spec: 2"),
        "1:7 DOJ004 error `spec` must be the integer `1`, found `2`",
    );
}

#[test]
fn invalid_enum_values() {
    expect_one(
        &BASE.replace("type: tool", "type: plugin"),
        "4:7 DOJ005 error `type` must be `tool`, found `plugin`",
    );
    expect_one(
        &BASE.replace("strategy: llm", "strategy: template"),
        "8:13 DOJ005 error",
    );
    expect_one(
        &BASE.replace("serializer: yaml", "serializer: yml"),
        "12:17 DOJ005 error",
    );
    expect_one(
        &format!("{BASE}permissions:\n  network: full\n"),
        "14:12 DOJ005 error `permissions.network` must be one of `none`, `inherit`",
    );
}

#[test]
fn invalid_field_length() {
    expect_one(
        &BASE.replace(
            "description: \"Generates a config file\"",
            "description: \"\"",
        ),
        "5:14 DOJ006 error `description` must not be empty",
    );
    let long = "x".repeat(501);
    expect_one(
        &BASE.replace("Generates a config file", &long),
        "5:14 DOJ006 error `description` must have at most 500 characters, found 501",
    );
    let no_files = BASE.split("files:").next().unwrap_or_default().to_string() + "files: []\n";
    expect_one(
        &no_files,
        "10:8 DOJ006 error `files` must list at least one output file",
    );
}

#[test]
fn unknown_keys_warn_with_did_you_mean() {
    let found = check(&format!(
        "{BASE}verifcation:\n  command: terraform validate\n"
    ));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].starts_with(&format!(
        "{T}:13:1 DOJ007 warning unknown key `verifcation`"
    )));
    let repo = Repo::with(&[
        LEGACY,
        (T, &format!("{BASE}verifcation:\n  command: x\n")),
        (S, SCHEMA),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("did you mean `verification`?")
    );
}

#[test]
fn schema_paths() {
    expect_one(
        &BASE.replace("\"input.schema.json\"", "\"/etc/input.schema.json\""),
        "6:14 DOJ008 error `inputSchema` is an absolute path",
    );
    expect_one(
        &BASE.replace("\"input.schema.json\"", "\"../other/input.schema.json\""),
        "6:14 DOJ008 error",
    );
    expect_one(
        &BASE.replace("\"input.schema.json\"", "\"inputs.schema.json\""),
        "6:14 DOJ009 error `inputSchema` names `inputs.schema.json`, which does not exist",
    );
    expect_one(
        &format!("{BASE}outputSchema: output.schema.json\n"),
        "13:15 DOJ009 error",
    );
}

#[test]
fn schema_syntax_errors_are_reported_in_the_schema_file() {
    let repo = Repo::with(&[LEGACY, (T, BASE), (S, "{\n  \"type\": \"object\",\n}\n")]);
    let found = lines(&repo.check().expect("config"));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with(&format!("{S}:2:19 SYN002 error")),
        "{found:#?}"
    );
}

#[test]
fn file_too_large() {
    let big = BASE.replace("You write config files.", &"x".repeat(66_000));
    expect_one(&big, "1:1 DOJ010 error this manifest is");
}

#[test]
fn duplicate_names_in_one_project() {
    let repo = Repo::with(&[
        LEGACY,
        (T, BASE),
        (S, SCHEMA),
        (".dojops/tools/copy/tool.yaml", BASE),
        (".dojops/tools/copy/input.schema.json", SCHEMA),
    ]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with(".dojops/tools/my-tool/tool.yaml:2:7 DOJ011 error"),
        "{found:#?}"
    );
    assert_eq!(
        report.diagnostics[0].related[0].file.display(),
        ".dojops/tools/copy/tool.yaml"
    );
    // Separate projects may reuse a name.
    let repo = Repo::with(&[
        LEGACY,
        (T, BASE),
        (S, SCHEMA),
        ("other/.dojops/tools/my-tool/tool.yaml", BASE),
        ("other/.dojops/tools/my-tool/input.schema.json", SCHEMA),
    ]);
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
}

#[test]
fn template_placeholders() {
    let found = check(&BASE.replace("{moduleName}", "{modul}"));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with(&format!(
            "{T}:11:16 DOJ012 error `{{modul}}` is not a property of the input schema"
        )),
        "{found:#?}"
    );
    expect_one(
        &format!("{BASE}detector:\n  path:\n    - \"x/{{nme}}.tf\"\n"),
        "15:10 DOJ012 error",
    );
}

const VERIFY: &str = "verification:\n  command: \"yamllint out/config.yaml\"\npermissions:\n  child_process: required\n";

#[test]
fn verification_whitelist_tiers() {
    assert_eq!(check(&format!("{BASE}{VERIFY}")), Vec::<String>::new());
    expect_one(
        &format!("{BASE}{}", VERIFY.replace("yamllint", "yamlint")),
        "14:13 DOJ013 error `yamlint` is not on DojOps's verification whitelist",
    );
    expect_one(
        &format!(
            "{BASE}{}",
            VERIFY.replace("yamllint out/config.yaml", "bash -c x")
        ),
        "14:13 DOJ013 error",
    );
    expect_one(
        &format!("{BASE}{}", VERIFY.replace("yamllint", "actionlint")),
        "14:13 DOJ014 warning",
    );
}

#[test]
fn a_program_only_skills_may_run_is_refused_in_a_manifest() {
    // `packer` came to DojOps's allowlist after `tool.yaml` was removed: only skills run it.
    let manifest = format!("{BASE}{}", VERIFY.replace("yamllint", "packer validate"));
    expect_one(
        &manifest,
        "14:13 DOJ013 error `packer` is not on DojOps's verification whitelist",
    );
    let repo = Repo::with(&[LEGACY, (T, &manifest), (S, SCHEMA)]);
    let report = repo.check().expect("config");
    assert!(
        report.diagnostics[0]
            .notes
            .iter()
            .any(|n| n.contains("`.dops` skills only")),
        "{:#?}",
        report.diagnostics[0].notes
    );
}

#[test]
fn verification_without_child_process_never_runs() {
    expect_one(
        &format!("{BASE}verification:\n  command: yamllint out\n"),
        "13:1 DOJ015 warning",
    );
    expect_one(
        &format!(
            "{BASE}verification:\n  command: yamllint out\npermissions:\n  child_process: none\n"
        ),
        "13:1 DOJ015 warning",
    );
}

#[test]
fn chained_verification_commands() {
    expect_one(
        &format!(
            "{BASE}{}",
            VERIFY.replace("yamllint out/config.yaml", "yamllint out; rm -f out/x")
        ),
        "14:25 SEC002 warning the verification command chains another command with `;`",
    );
    expect_one(
        &format!(
            "{BASE}{}",
            VERIFY.replace("yamllint out/config.yaml", "yamllint $(pwd)")
        ),
        "14:22 SEC002 warning",
    );
}

#[test]
fn path_traversal() {
    expect_one(
        &BASE.replace("out/{moduleName}.yaml", "../../etc/{moduleName}.yaml"),
        "11:12 SEC001 error",
    );
    expect_one(
        &BASE.replace("out/{moduleName}.yaml", "a\\\\..\\\\b.yaml"),
        "11:15 SEC001 error",
    );
    expect_one(
        &format!("{BASE}detector:\n  path: \"x/../../y\"\n"),
        "14:12 SEC001 error",
    );
}

#[test]
fn legacy_plugin_yaml_and_dirs_are_read() {
    let repo = Repo::with(&[
        LEGACY,
        (
            ".dojops/plugins/my-tool/plugin.yaml",
            &BASE.replace("name: my-tool", "name: Bad"),
        ),
        (".dojops/plugins/my-tool/input.schema.json", SCHEMA),
    ]);
    let found = lines(&repo.check().expect("config"));
    assert!(
        found.len() == 1 && found[0].contains("DOJ003"),
        "{found:#?}"
    );
}

#[test]
fn a_missing_field_points_at_its_misspelling() {
    let repo = Repo::with(&[
        LEGACY,
        (T, &BASE.replace("  systemPrompt:", "  sytemPrompt:")),
        (S, SCHEMA),
    ]);
    let report = repo.check().expect("config");
    let missing = report
        .diagnostics
        .iter()
        .find(|d| d.rule.code == "DOJ001")
        .expect("DOJ001");
    assert_eq!(
        missing.help.as_deref(),
        Some("rename `sytemPrompt` to `systemPrompt`")
    );
    assert_eq!(missing.file.position(missing.related[0].span.start).line, 9);
    // A present, known key that merely resembles the missing one is not blamed.
    let repo = Repo::with(&[
        LEGACY,
        (
            T,
            &BASE.replace(
                "inputSchema: \"input.schema.json\"",
                "outputSchema: \"input.schema.json\"",
            ),
        ),
        (S, SCHEMA),
    ]);
    let report = repo.check().expect("config");
    let missing = report
        .diagnostics
        .iter()
        .find(|d| d.rule.code == "DOJ001")
        .expect("DOJ001");
    assert!(missing.related.is_empty());
    assert_eq!(
        missing.help.as_deref(),
        Some("add `inputSchema:` with its value at the top level")
    );
}

#[test]
fn yaml_1_1_booleans_get_a_hint() {
    let repo = Repo::with(&[
        LEGACY,
        (
            T,
            &BASE.replace("  strategy: llm\n", "  strategy: llm\n  updateMode: yes\n"),
        ),
        (S, SCHEMA),
    ]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    assert!(
        found.len() == 1 && found[0].contains(":9:15 DOJ002 error"),
        "{found:#?}"
    );
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("YAML 1.2 reads `yes` as a string, not a boolean: write `true`")
    );
}

#[test]
fn the_rule_list_of_the_format_says_which_release_toolc_knows() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["rules", "--for", "dojops-tool"])
        .output()
        .expect("toolc runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("DOJ024"), "{text}");
    assert!(
        text.contains("DojOps as toolc knows it: release 1.2.2"),
        "{text}"
    );
    assert!(text.contains("DojOps 1.1.0: `tool.yaml`"), "{text}");
}
