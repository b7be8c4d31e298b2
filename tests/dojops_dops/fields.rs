//! Front-matter fields: required fields, types, names, enumerated values, lengths, unknown keys,
//! file size, parsers, icon URLs and scope paths (DOJ001 to DOJ010, DOJ021, DOJ022, SEC001).

use super::*;

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
