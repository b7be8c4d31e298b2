//! DojOps `.dops` v2 skills: every rule triggered at its exact line and column and silent on
//! valid skills, the real-world corpus (v2 valid, v1 one error per file), and dependencies
//! between the skills of a project.

mod common;

use common::{Repo, VALID_DOPS as BASE, lines};
use toolc::Report;
use toolc::{Diagnostic, Span};

const P: &str = ".dojops/skills/nginx.dops";

/// Every optional block, each with valid values.
const FULL: &str = r#"---
dops: v2
kind: tool
meta:
  name: nginx
  version: "2.0"
  description: Generate nginx server blocks
  author: someone
  license: MIT
  repository: https://example.com/nginx-skill
  tags: [web, proxy]
  icon: https://example.com/nginx.svg
context:
  technology: nginx
  fileFormat: raw
  outputGuidance: |
    Output the configuration only.
    ---
    Never wrap it in code fences.
  bestPractices:
    - Redirect HTTP to HTTPS
  context7Libraries:
    - name: nginx
      query: "server blocks, TLS"
files:
  - path: "{outputPath}/nginx.conf"
    format: raw
    conditional: false
detection:
  paths: ["nginx.conf", "**/nginx/*.conf"]
  updateMode: true
verification:
  structural:
    - path: "server"
      required: true
      type: object
      minItems: 1
      message: "a server block is required"
      requiredUnless: "upstream"
  binary:
    command: "nginx -t -c {entryFile}"
    parser: nginx-stderr
    timeout: 30000
    cwd: tool
  severity:
    error: ["emerg"]
    warning: []
    info: ["notice"]
permissions:
  filesystem: write
  child_process: required
  network: none
scope:
  write: ["nginx.conf", 'conf.d\*.conf', "a..b/x.conf"]
risk:
  level: LOW
  rationale: "Configuration is reviewed before deployment"
execution:
  mode: update
  deterministic: true
  idempotent: true
update:
  strategy: preserve_structure
  inputSource: file
  injectAs: existingContent
capabilities:
  sideEffects: filesystem
  runtime: short
dependencies:
  - skill: tls-certificates
    optional: true
---
# nginx

## prompt

You are an nginx expert.

## Update Prompt

Update the configuration.

## KEYWORDS

nginx
"#;

fn report_for(files: &[(&str, &str)]) -> Report {
    Repo::with(files).check().expect("config")
}

/// Diagnostics (as `path:line:col CODE severity message`) for one skill.
fn check(skill: &str) -> Vec<String> {
    lines(&report_for(&[(P, skill)]))
}

/// The single diagnostic of a skill, asserting there is exactly one and where it is.
fn expect_one(skill: &str, at: &str) -> Diagnostic {
    let report = report_for(&[(P, skill)]);
    let found = lines(&report);
    let want = format!("{P}:{at}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want),
        "expected one `{want}…`, got {found:#?}"
    );
    report
        .diagnostics
        .into_iter()
        .next()
        .expect("one diagnostic")
}

fn help(d: &Diagnostic) -> &str {
    d.help.as_deref().unwrap_or("")
}

// ── valid skills ───────────────────────────────────────────────────────────────────────

#[test]
fn minimal_skill_is_silent() {
    assert_eq!(check(BASE), Vec::<String>::new());
}

#[test]
fn every_optional_block_with_valid_values_is_silent() {
    assert_eq!(check(FULL), Vec::<String>::new());
}

#[test]
fn every_known_parser_is_accepted() {
    for parser in [
        "terraform-json",
        "hadolint-json",
        "kubectl-stderr",
        "helm-lint",
        "nginx-stderr",
        "promtool",
        "systemd-analyze",
        "make-dryrun",
        "ansible-syntax",
        "docker-compose-config",
        "actionlint",
        "github-actions",
        "gitlab-ci",
        "generic-stderr",
        "generic-json",
        "packer-validate",
        "shellcheck-json",
    ] {
        let skill = BASE.replace(
            "files:",
            &format!(
                "verification:\n  binary:\n    command: make -n\n    parser: {parser}\nfiles:"
            ),
        );
        assert_eq!(check(&skill), Vec::<String>::new(), "{parser}");
    }
}

#[test]
fn real_world_v2_skills_have_no_error() {
    for corpus in ["dojops-skills", "dojops-kind-tool"] {
        let Some(dir) = common::corpus(corpus) else {
            continue;
        };
        let report = common::check_dir(&dir).expect("config");
        // DojOps's own github-actions skill verifies with shell syntax it runs without a
        // shell (DOJ023): a warning, the skill itself loads.
        let expected: &[&str] = if corpus == "dojops-skills" {
            &[
                ".dojops/skills/github-actions.dops:159:39 DOJ023 warning DojOps runs this command without a shell: `.github/workflows/*.yml`, `2>&1` and `||` reach `actionlint` as literal arguments",
            ]
        } else {
            &[]
        };
        assert_eq!(lines(&report), expected, "{corpus}");
    }
}

#[test]
fn real_world_v1_skills_get_one_migration_error_each() {
    let Some(dir) = common::corpus("dojops-v1-dops") else {
        return;
    };
    let report = common::check_dir(&dir).expect("config");
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/github-actions.dops:2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`",
            ".dojops/skills/terraform.dops:2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`",
        ]
    );
    for d in &report.diagnostics {
        assert!(
            help(d).contains("`context`") && help(d).contains("`format: raw`"),
            "{d:?}"
        );
        assert!(d.notes.iter().any(|n| n.contains("rejects")), "{d:?}");
        let related: Vec<_> = d.related.iter().map(|r| d.file.slice(r.span)).collect();
        assert_eq!(related, ["tool", "input", "output", "format"], "{d:?}");
    }
}

// ── DOJ019 unsupported-dops-version ────────────────────────────────────────────────────

#[test]
fn v1_stops_after_the_version_error() {
    // No `context`, an `input` block, a v1 file format and no `## Keywords`: all of it is
    // covered by the one migration error.
    let skill = BASE
        .replace("dops: v2", "dops: v1")
        .replace("context:", "input:\n  fields: {}\nold_context:")
        .replace("## Keywords", "## Notes");
    let d = expect_one(
        &skill,
        "2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`",
    );
    assert!(help(&d).starts_with("migrate to v2:"), "{d:?}");
}

#[test]
fn v1_layout_without_a_version_is_the_same_single_error() {
    let skill = BASE
        .replace("dops: v2\n", "")
        .replace("context:", "output:\n  type: object\nold_context:");
    expect_one(
        &skill,
        "1:1 DOJ019 error this is a `.dops` v1 skill without a `dops` version; current DojOps only accepts `dops: v2`",
    );
}

#[test]
fn other_versions_are_reported_and_the_rest_still_checked() {
    let skill = BASE
        .replace("dops: v2", "dops: 2")
        .replace("  version: 1.0.0\n", "");
    assert_eq!(
        check(&skill),
        [
            format!("{P}:2:7 DOJ019 error `dops` must be `v2`, found `2`"),
            format!("{P}:4:1 DOJ001 error required field `meta.version` is missing"),
        ]
    );
    let d = expect_one(
        &BASE.replace("dops: v2\n", ""),
        "1:1 DOJ019 error the front matter has no `dops` version",
    );
    assert_eq!(
        help(&d),
        "add `dops: v2` as the first line of the front matter"
    );
}

// ── DOJ001 missing-required-field ──────────────────────────────────────────────────────

#[test]
fn missing_field_points_at_the_mapping_that_lacks_it() {
    let d = expect_one(
        &BASE.replace("  version: 1.0.0\n", ""),
        "4:1 DOJ001 error required field `meta.version` is missing",
    );
    assert_eq!(help(&d), "add `version: 1.0.0` under `meta`");
    assert!(d.notes.iter().any(|n| n.contains("refuses to load")));
    // A root field: the opening fence.
    let without_files = BASE.replace("files:\n  - path: nginx.conf\n", "");
    expect_one(
        &without_files,
        "1:1 DOJ001 error required field `files` is missing",
    );
    // A field of a list item: the item's first key.
    let no_query = BASE.replace("files:", "  context7Libraries:\n    - name: nginx\nfiles:");
    expect_one(
        &no_query,
        "15:7 DOJ001 error required field `context.context7Libraries[0].query` is missing",
    );
}

#[test]
fn empty_front_matter_is_one_error() {
    let skill = "---\n---\n## Prompt\n\nx\n\n## Keywords\n\ny\n";
    let report = report_for(&[(P, skill)]);
    assert_eq!(report.diagnostics.len(), 1, "{:#?}", lines(&report));
    assert!(
        lines(&report)[0].contains(" error "),
        "{:#?}",
        lines(&report)
    );
}

// ── DOJ002 wrong-field-type ────────────────────────────────────────────────────────────

#[test]
fn wrong_type_offers_the_mechanical_fix() {
    let d = expect_one(
        &BASE.replace("version: 1.0.0", "version: 2.0"),
        "6:12 DOJ002 error `meta.version` must be a string, found a number",
    );
    assert_eq!(help(&d), "quote it: `\"2.0\"`");
    let d = expect_one(
        &BASE.replace("files:", "detection:\n  paths: \"*.conf\"\nfiles:"),
        "15:10 DOJ002 error `detection.paths` must be a list, found a string",
    );
    assert_eq!(help(&d), "make it a list: `[\"*.conf\"]`");
    let d = expect_one(
        &BASE.replace(
            "files:",
            "detection:\n  paths: [a]\n  updateMode: \"true\"\nfiles:",
        ),
        "16:15 DOJ002 error `detection.updateMode` must be a boolean (`true` or `false`), found a string",
    );
    assert_eq!(help(&d), "remove the quotes: `true`");
    expect_one(
        &BASE.replace(
            "meta:\n  name: nginx\n  version: 1.0.0\n  description: Generate nginx server blocks\n",
            "meta: nginx\n",
        ),
        "4:7 DOJ002 error `meta` must be a mapping, found a string",
    );
}

#[test]
fn bare_string_list_items_get_the_key_they_lack() {
    let d = expect_one(
        &BASE.replace("  - path: nginx.conf", "  - nginx.conf"),
        "15:5 DOJ002 error `files[0]` must be a mapping, found a string",
    );
    assert_eq!(help(&d), "write it as `path: nginx.conf`");
    let d = expect_one(
        &BASE.replace("files:", "dependencies: [tls]\nfiles:"),
        "14:16 DOJ002 error `dependencies[0]` must be a mapping, found a string",
    );
    assert_eq!(help(&d), "write it as `skill: tls`");
}

#[test]
fn front_matter_that_is_not_a_mapping() {
    let skill = "---\n- a\n- b\n---\n## Prompt\n\nx\n\n## Keywords\n\ny\n";
    expect_one(
        skill,
        "2:1 DOJ002 error the front matter must be a mapping, found a list",
    );
}

// ── DOJ003 invalid-tool-name ───────────────────────────────────────────────────────────

#[test]
fn skill_names_must_be_kebab_case() {
    let d = expect_one(
        &BASE.replace("name: nginx", "name: Nginx_Proxy"),
        "5:9 DOJ003 error skill name `Nginx_Proxy` is not lowercase kebab-case",
    );
    assert_eq!(help(&d), "rename it to `nginx-proxy`");
    expect_one(
        &BASE.replace("name: nginx", "name: 9lives"),
        "5:9 DOJ003 error skill name `9lives` is not lowercase kebab-case",
    );
    let long = "a".repeat(65);
    // Length defects are DOJ006 (invalid-field-length), as in `tool.yaml`; DOJ003 is the
    // pattern only.
    expect_one(
        &BASE.replace("name: nginx", &format!("name: {long}")),
        "5:9 DOJ006 error `meta.name` must have at most 64 characters, found 65",
    );
    expect_one(
        &BASE.replace("name: nginx", "name: \"\""),
        "5:9 DOJ006 error `meta.name` must not be empty",
    );
    assert_eq!(
        check(&BASE.replace("name: nginx", &format!("name: {}", "a".repeat(64)))),
        Vec::<String>::new()
    );
    expect_one(
        &BASE.replace("files:", "dependencies:\n  - skill: TLS\nfiles:"),
        "15:12 DOJ003 error dependency `TLS` is not lowercase kebab-case",
    );
}

// ── DOJ005 invalid-enum-value ──────────────────────────────────────────────────────────

#[test]
fn enum_values_outside_their_set() {
    let d = expect_one(
        &BASE.replace("fileFormat: raw", "fileFormat: markdown"),
        "10:15 DOJ005 error `context.fileFormat` must be one of `yaml`, `hcl`, `json`, `raw`, `ini`, `toml`, found `markdown`",
    );
    assert_eq!(
        help(&d),
        "use `raw` when the generated file is none of these formats"
    );
    let d = expect_one(
        &BASE.replace("files:", "risk:\n  level: low\n  rationale: safe\nfiles:"),
        "15:10 DOJ005 error `risk.level` must be one of `LOW`, `MEDIUM`, `HIGH`, found `low`",
    );
    assert_eq!(help(&d), "did you mean `LOW`?");
    let d = expect_one(
        &BASE.replace(
            "  - path: nginx.conf",
            "  - path: nginx.conf\n    format: yaml",
        ),
        "16:13 DOJ005 error `files[0].format` must be `raw`, found `yaml`",
    );
    assert!(help(&d).contains("context.fileFormat"), "{d:?}");
    expect_one(
        &BASE.replace("kind: skill", "kind: module"),
        "3:7 DOJ005 error `kind` must be one of `skill`, `tool`, found `module`",
    );
    expect_one(
        &BASE.replace("files:", "permissions:\n  network: allowed\nfiles:"),
        "15:12 DOJ005 error `permissions.network` must be one of `none`, `required`, found `allowed`",
    );
    expect_one(
        &BASE.replace("files:", "verification:\n  binary:\n    command: nginx -t\n    parser: nginx-stderr\n    timeout: -5\nfiles:"),
        "18:14 DOJ005 error `verification.binary.timeout` must be a positive number of milliseconds, found `-5`",
    );
}

// ── DOJ006 invalid-field-length ────────────────────────────────────────────────────────

#[test]
fn empty_and_too_long_values() {
    expect_one(
        &BASE.replace(
            "description: Generate nginx server blocks",
            "description: \"\"",
        ),
        "7:16 DOJ006 error `meta.description` must not be empty",
    );
    let long = "x".repeat(501);
    let d = expect_one(
        &BASE.replace(
            "description: Generate nginx server blocks",
            &format!("description: {long}"),
        ),
        "7:16 DOJ006 error `meta.description` must have at most 500 characters, found 501",
    );
    assert_eq!(help(&d), "shorten it to at most 500 characters");
    expect_one(
        &BASE.replace("files:\n  - path: nginx.conf", "files: []"),
        "14:8 DOJ006 error `files` must not be empty",
    );
    expect_one(
        &BASE.replace("path: nginx.conf", "path: \"  \""),
        "15:11 DOJ006 error `files[0].path` must not be empty",
    );
    expect_one(
        &BASE.replace("    - Redirect HTTP to HTTPS", "    - \"\""),
        "13:7 DOJ006 error `context.bestPractices[0]` must not be empty",
    );
}

// ── DOJ007 unknown-key ─────────────────────────────────────────────────────────────────

#[test]
fn unknown_keys_are_warnings_with_did_you_mean() {
    let d = expect_one(
        &BASE.replace("files:", "verifcation: {}\nfiles:"),
        "14:1 DOJ007 warning unknown key `verifcation`",
    );
    assert_eq!(help(&d), "did you mean `verification`?");
    let d = expect_one(
        &BASE.replace(
            "  - path: nginx.conf",
            "  - path: nginx.conf\n    source: llm",
        ),
        "16:5 DOJ007 warning unknown key `files[0].source`",
    );
    assert!(d.notes.iter().any(|n| n.contains("v1")), "{d:?}");
}

// ── DOJ010 file-too-large ──────────────────────────────────────────────────────────────

#[test]
fn files_over_one_mebibyte() {
    let big = BASE.replace("You are an nginx expert.", &"x".repeat(1024 * 1024));
    expect_one(&big, "1:1 DOJ010 error this skill is");
    let just_fits = BASE.replace(
        "You are an nginx expert.",
        &"x".repeat(1024 * 1024 - BASE.len() + "You are an nginx expert.".len()),
    );
    assert_eq!(just_fits.len(), 1024 * 1024);
    assert_eq!(check(&just_fits), Vec::<String>::new());
}

// ── DOJ020 missing-dops-section ────────────────────────────────────────────────────────

#[test]
fn missing_sections_point_at_the_end_of_the_front_matter() {
    let skill = BASE.replace("## Keywords\n\nnginx, reverse proxy\n", "");
    let d = expect_one(
        &skill,
        "16:1 DOJ020 error the body has no `## Keywords` section",
    );
    assert!(help(&d).starts_with("add a `## Keywords` heading"), "{d:?}");
}

#[test]
fn empty_sections_and_near_miss_headings() {
    expect_one(
        &BASE.replace("You are an nginx expert.\n", ""),
        "17:1 DOJ020 error the `## Prompt` section is empty",
    );
    let d = expect_one(
        &BASE.replace("## Prompt", "# Prompt"),
        "17:1 DOJ020 error the body has no `## Prompt` section",
    );
    assert_eq!(help(&d), "make this heading exactly `## Prompt`");
    expect_one(
        &BASE.replace("## Keywords", "## Keyword"),
        "21:1 DOJ020 error the body has no `## Keywords` section",
    );
    // An optional section is not a near miss: the report stays at the fence.
    expect_one(
        &BASE.replace("## Prompt", "## Update Prompt"),
        "16:1 DOJ020 error the body has no `## Prompt` section",
    );
}

// ── DOJ021 unknown-verification-parser ─────────────────────────────────────────────────

#[test]
fn unknown_parsers() {
    let with_parser = |p: &str| {
        BASE.replace(
            "files:",
            &format!("verification:\n  binary:\n    command: terraform validate -json\n    parser: {p}\nfiles:"),
        )
    };
    let d = expect_one(
        &with_parser("terraform-jsn"),
        "17:13 DOJ021 error unknown verification parser `terraform-jsn`",
    );
    assert_eq!(help(&d), "did you mean `terraform-json`?");
    let d = expect_one(
        &with_parser("xml"),
        "17:13 DOJ021 error unknown verification parser `xml`",
    );
    assert!(help(&d).contains("shellcheck-json"), "{d:?}");
}

// ── DOJ022 insecure-icon-url ───────────────────────────────────────────────────────────

#[test]
fn icon_urls() {
    let with_icon = |icon: &str| BASE.replace("context:", &format!("  icon: {icon}\ncontext:"));
    let d = expect_one(
        &with_icon("http://example.com/i.svg"),
        "8:9 DOJ022 error icon URL `http://example.com/i.svg` does not use `https://`",
    );
    assert_eq!(help(&d), "use `https://example.com/i.svg`");
    expect_one(
        &with_icon("icon.svg"),
        "8:9 DOJ022 error `meta.icon` must be an `https://` URL, found `icon.svg`",
    );
    let long = format!("https://example.com/{}", "a".repeat(2048));
    expect_one(
        &with_icon(&long),
        "8:9 DOJ022 error `meta.icon` is 2068 characters long; DojOps allows at most 2048",
    );
    assert_eq!(
        check(&with_icon("https://example.com/i.svg")),
        Vec::<String>::new()
    );
}

// ── SEC001 path-traversal ──────────────────────────────────────────────────────────────

#[test]
fn scope_paths_with_a_dotdot_segment() {
    let with_scope = |s: &str| BASE.replace("files:", &format!("scope:\n  write: {s}\nfiles:"));
    expect_one(
        &with_scope(r#"["conf/*.conf", "conf/../../etc/x"]"#),
        "15:32 SEC001 error scope path `conf/../../etc/x` climbs out of the project with `..`",
    );
    let report = report_for(&[(P, &with_scope(r"['..\windows']"))]);
    let d = &report.diagnostics[0];
    assert_eq!(d.file.slice(d.span), "..");
    assert_eq!(lines(&report).len(), 1);
    assert_eq!(
        check(&with_scope(r#"["a..b/x", "...", "x/y.."]"#)),
        Vec::<String>::new()
    );
    expect_one(
        &with_scope("[]"),
        "15:10 DOJ006 error `scope.write` must not be empty",
    );
}

// ── REF001 unknown-dependency / REF002 dependency-cycle ────────────────────────────────

fn skill_named(name: &str, deps: &[&str]) -> (String, String) {
    let mut text = BASE.replace("name: nginx", &format!("name: {name}"));
    if !deps.is_empty() {
        let list: String = deps.iter().map(|d| format!("  - skill: {d}\n")).collect();
        text = text.replace("files:", &format!("dependencies:\n{list}files:"));
    }
    (format!(".dojops/skills/{name}.dops"), text)
}

fn project(skills: &[(&str, &[&str])]) -> Report {
    let files: Vec<(String, String)> = skills.iter().map(|(n, d)| skill_named(n, d)).collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    report_for(&refs)
}

#[test]
fn unknown_dependencies() {
    let report = project(&[("app", &["nginx", "tls-certs"]), ("tls-certificates", &[])]);
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/app.dops:15:12 REF001 error dependency `nginx` is not a skill of this project",
            ".dojops/skills/app.dops:16:12 REF001 error dependency `tls-certs` is not a skill of this project"
        ]
    );
    assert!(help(&report.diagnostics[0]).contains("optional: true"));
    assert_eq!(
        help(&report.diagnostics[1]),
        "did you mean `tls-certificates`?"
    );
}

#[test]
fn optional_and_present_dependencies_are_silent() {
    let (path, text) = skill_named("app", &["tls"]);
    let text = text.replace(
        "  - skill: tls\n",
        "  - skill: tls\n    optional: true\n  - skill: nginx\n",
    );
    let (other, other_text) = skill_named("nginx", &[]);
    assert_eq!(
        lines(&report_for(&[(&path, &text), (&other, &other_text)])),
        Vec::<String>::new()
    );
}

#[test]
fn dependencies_resolve_per_project() {
    let (_, app) = skill_named("app", &["nginx"]);
    let (_, nginx) = skill_named("nginx", &[]);
    let report = report_for(&[
        ("one/.dojops/skills/app.dops", &app),
        ("two/.dojops/skills/nginx.dops", &nginx),
    ]);
    assert_eq!(
        lines(&report),
        [
            "one/.dojops/skills/app.dops:15:12 REF001 error dependency `nginx` is not a skill of this project"
        ]
    );
}

#[test]
fn a_cycle_is_reported_once_at_its_closing_entry() {
    let report = project(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])]);
    assert_eq!(
        lines(&report),
        [".dojops/skills/c.dops:15:12 REF002 error dependency cycle `a → b → c → a`"]
    );
    let related: Vec<_> = report.diagnostics[0]
        .related
        .iter()
        .map(|r| (r.file.display(), r.message.as_str()))
        .collect();
    assert_eq!(
        related,
        [
            (".dojops/skills/a.dops", "`a` depends on `b` here"),
            (".dojops/skills/b.dops", "`b` depends on `c` here")
        ]
    );
}

#[test]
fn self_dependency_and_acyclic_diamonds() {
    let report = project(&[("a", &["a"])]);
    assert_eq!(
        lines(&report),
        [".dojops/skills/a.dops:15:12 REF002 error dependency cycle `a → a`"]
    );
    let diamond = project(&[("a", &["b", "c"]), ("b", &["d"]), ("c", &["d"]), ("d", &[])]);
    assert_eq!(lines(&diamond), Vec::<String>::new());
    let two = project(&[("a", &["b"]), ("b", &["a"]), ("c", &["d"]), ("d", &["c"])]);
    assert_eq!(
        lines(&two),
        [
            ".dojops/skills/b.dops:15:12 REF002 error dependency cycle `a → b → a`",
            ".dojops/skills/d.dops:15:12 REF002 error dependency cycle `c → d → c`"
        ]
    );
}

#[test]
fn missing_and_unclosed_front_matter() {
    expect_one(
        "## Prompt\n\nx\n\n## Keywords\n\ny\n",
        "1:1 SYN010 error a `.dops` file must start with a `---` front-matter line",
    );
    expect_one(
        "---\ndops: v2\n## Prompt\n",
        "1:1 SYN011 error the front matter is opened but never closed",
    );
}

#[test]
fn yaml_errors_are_at_whole_file_positions() {
    let report = report_for(&[(
        P,
        &BASE.replace("  technology: nginx", "  technology: [nginx"),
    )]);
    let found = lines(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains(" SYN001 error"), "{found:#?}");
    assert!(
        report.diagnostics[0]
            .notes
            .iter()
            .any(|n| n.contains("refuses to load"))
    );
    let line: usize = found[0]
        .split(':')
        .nth(1)
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    assert!((9..=11).contains(&line), "{found:#?}");
}

#[test]
fn bom_and_crlf_give_exact_positions_and_whole_file_offsets() {
    let text = format!(
        "\u{feff}{}",
        BASE.replace("name: nginx", "name: Bad_Name")
            .replace('\n', "\r\n")
    );
    let report = report_for(&[(P, &text)]);
    assert_eq!(
        lines(&report),
        [format!(
            "{P}:5:9 DOJ003 error skill name `Bad_Name` is not lowercase kebab-case"
        )]
    );
    let d = &report.diagnostics[0];
    let offset = text.find("Bad_Name").expect("in text");
    assert_eq!(d.span, Span::new(offset, offset + "Bad_Name".len()));
    // The body sections are found through CRLF too.
    let valid = format!("\u{feff}{}", BASE.replace('\n', "\r\n"));
    assert_eq!(lines(&report_for(&[(P, &valid)])), Vec::<String>::new());
    let no_keywords = format!(
        "\u{feff}{}",
        BASE.replace("nginx, reverse proxy\n", "")
            .replace('\n', "\r\n")
    );
    let report = report_for(&[(P, &no_keywords)]);
    assert_eq!(
        lines(&report),
        [format!(
            "{P}:21:1 DOJ020 error the `## Keywords` section is empty"
        )]
    );
}

#[test]
fn duplicate_skill_names_are_found_through_meta_name() {
    let (_, a) = skill_named("nginx", &[]);
    let report = report_for(&[(".dojops/skills/a.dops", &a), (".dojops/skills/b.dops", &a)]);
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/b.dops:5:9 DOJ011 error a tool named `nginx` is already defined in this project"
        ]
    );
}

#[test]
fn hostile_input_never_panics() {
    let cases = [
        "---",
        "---\n",
        "---\n---",
        "---\r\n---\r\n",
        "\u{feff}---\n\u{feff}\n---\n",
        "---\n: :\n---\n##",
        "---\ndops: v2\nmeta: [\n---\n## Prompt\n",
        "---\ndops: v2\nfiles: [{}, 1, null, [x]]\ndependencies: [1, {skill: []}, {skill: a, optional: yes}]\nscope: {write: [1, '..', '']}\n---\n",
        "---\ndops: [v1]\ninput: 1\n---\n",
        "---\ndops: v1\nfiles: 3\n---\n",
        "---\nverification: {binary: {parser: 1, timeout: 1.5}, structural: [{minItems: x}]}\n---\n",
        "---\nmeta: {name: é, icon: 'https://'}\n---\n# é\n## é\n",
    ];
    for case in cases {
        let _ = check(case);
    }
}

#[test]
fn doj025_a_skill_outside_the_skills_folder_is_never_loaded() {
    let report = report_for(&[
        (".dojops/tools/nginx.dops", BASE),
        (
            ".dojops/skills/ci/other.dops",
            &BASE.replace("name: nginx", "name: other"),
        ),
    ]);
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/ci/other.dops:5:9 DOJ025 warning DojOps never reads skills from `.dojops/skills/ci/`: `other` is not loaded",
            ".dojops/tools/nginx.dops:5:9 DOJ025 warning DojOps never reads skills from `.dojops/tools/`: `nginx` is not loaded",
        ]
    );
    let help = report.diagnostics[1].help.as_deref().unwrap_or_default();
    assert!(
        help.starts_with("move it to `.dojops/skills/nginx.dops`"),
        "{help}"
    );
}

#[test]
fn doj025_is_silent_where_dojops_loads_skills_and_for_older_releases() {
    // The skills folder, an installed pack, a catalog outside any `.dojops/`.
    let loaded = report_for(&[
        (".dojops/skills/nginx.dops", BASE),
        (
            ".dojops/packs/web/skills/proxy.dops",
            &BASE.replace("name: nginx", "name: proxy"),
        ),
        (
            "catalog/web/cache.dops",
            &BASE.replace("name: nginx", "name: cache"),
        ),
    ]);
    assert_eq!(lines(&loaded), Vec::<String>::new());
    // DojOps 1.0 read `.dojops/tools/`.
    let old = report_for(&[(".dojops/tools/nginx.dops", BASE), common::DOJOPS_1_0]);
    assert_eq!(lines(&old), Vec::<String>::new());
}

#[test]
fn doj019_holds_for_the_releases_that_reject_v1() {
    let skill = BASE.replace("dops: v2", "dops: v1");
    let current = report_for(&[(P, &skill)]);
    assert_eq!(
        lines(&current),
        [format!(
            "{P}:2:7 DOJ019 error `dops: v1` is no longer supported; current DojOps only accepts `dops: v2`"
        )]
    );
    // DojOps 1.0 still loads v1 skills.
    let old = report_for(&[(P, &skill), common::DOJOPS_1_0]);
    assert_eq!(lines(&old), Vec::<String>::new());
}

#[test]
fn doj011_between_a_manifest_and_a_skill_holds_while_dojops_loads_manifests() {
    let manifest = common::VALID_TOOL.replace("my-tool", "nginx");
    let files = [
        (".dojops/skills/nginx.dops", BASE),
        (".dojops/tools/nginx/tool.yaml", manifest.as_str()),
        (
            ".dojops/tools/nginx/input.schema.json",
            common::VALID_SCHEMA,
        ),
    ];
    // Current DojOps loads the skill only: no duplicate (DOJ024 says the manifest is not
    // loaded).
    let current = report_for(&files);
    assert!(
        !lines(&current).iter().any(|l| l.contains("DOJ011")),
        "{:?}",
        lines(&current)
    );
    let mut old_files = files.to_vec();
    old_files.push(common::DOJOPS_1_0);
    let old = report_for(&old_files);
    assert!(
        lines(&old)
            .iter()
            .any(|l| l.contains("DOJ011 error a tool named `nginx` is already defined")),
        "{:?}",
        lines(&old)
    );
}
