//! Front matter and shape: missing or broken front matter, required fields, types, unknown keys,
//! identifiers, versions and enumerated values.

use super::*;

/// [`check`], with the first file named on the command line: checked in full even when it
/// lacks the front matter that tells an AML file from another tool's.
fn check_named(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&common::check_named(&repo.root, &[files[0].0]))
}

// ── front matter and shape ─────────────────────────────────────────────────────────────

#[test]
fn missing_and_unclosed_front_matter() {
    // Found by walking, a page without front matter is not AML's (a documentation page that
    // shows a tool in a fenced block); named, it is checked in full.
    assert_eq!(check(&[(TOOL, "# Search docs\n")]), Vec::<String>::new());
    expect_one(
        check_named(&[(TOOL, "# Search docs\n")]),
        TOOL,
        "1:1 SYN010 error",
        "a tool file must start",
    );
    // The agent's reference to the unreadable tool is explained by the tool file's errors.
    let repo = Repo::with(&[
        (TOOL, "---\ntool_id: x\n"),
        (AGENT, BASE_AGENT),
        (ACTION, ACTION_TOOL),
    ]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("agents/helper.agent.md:6:12 REF020 error the tool `search-docs` is not registered: its file has errors"));
    assert!(found[1].starts_with(&format!("{TOOL}:1:1 SYN011 error")));
    assert_eq!(report.diagnostics[0].related[0].file.display(), TOOL);
    expect_one(
        check_named(&[(AGENT, "agent_id: helper\n")]),
        AGENT,
        "1:1 SYN010 error",
        "an agent file must start",
    );
}

#[test]
fn yaml_errors_are_at_the_files_own_line() {
    let found = with(TOOL, &tool_with("  owner: \"docs-team\"", "  owner: [docs"));
    // At the unclosed `[` on line 9 of the file (the front matter's fourth line).
    assert!(
        found.iter().any(|l| l.starts_with(&format!("{TOOL}:9:10"))
            && l.contains("SYN001 error a `[` list is not closed")),
        "{found:#?}"
    );
}

#[test]
fn tmd001_missing_required_field() {
    expect_one(
        with(TOOL, &tool_with("  owner: \"docs-team\"\n", "")),
        TOOL,
        "6:1 TMD001 error",
        "required field `meta.owner` is missing",
    );
    expect_one(
        with(TOOL, &tool_with("spec_version: \"1.2\"\n", "")),
        TOOL,
        "1:1 TMD001 error",
        "`spec_version`",
    );
    expect_one(
        with(AGENT, &agent_with("agent_id: \"helper\"\n", "")),
        AGENT,
        "1:1 TMD001 error",
        "`agent_id`",
    );
    let no_output = tool_with(
        "  output:\n    type: object\n    properties:\n      hits:\n        type: array\n        items: {type: string}\n    required: [\"hits\"]\n",
        "",
    );
    expect_one(
        with(TOOL, &no_output),
        TOOL,
        "12:1 TMD001 error",
        "`interface.output`",
    );
}

#[test]
fn tmd002_wrong_field_type() {
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: \"5000\"")),
        TOOL,
        "31:15 TMD002 error",
        "`transport.timeout_ms` must be a whole number of milliseconds",
    );
    expect_one(
        with(
            TOOL,
            &tool_with("spec_version: \"1.2\"", "spec_version: 1.2"),
        ),
        TOOL,
        "2:15 TMD002 error",
        "found the number `1.2`",
    );
    expect_one(
        with(
            AGENT,
            &agent_with("approval_required: true", "approval_required: yes"),
        ),
        AGENT,
        "8:26 TMD002 error",
        "`tools.refs[1].approval_required` must be a boolean",
    );
}

#[test]
fn tmd003_unknown_key() {
    let found = with(
        TOOL,
        &tool_with(
            "type: \"retrieval\"",
            "type: \"retrieval\"\ncategory: \"search\"",
        ),
    );
    expect_one(found, TOOL, "12:1 TMD003 error", "unknown key `category`");
    let found = with(
        TOOL,
        &tool_with("  owner: \"docs-team\"", "  ownr: \"docs-team\""),
    );
    // The misspelt key is unknown, and `owner` is missing: the second points at the first.
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with(&format!("{TOOL}:6:1 TMD001 error")));
    assert!(found[1].starts_with(&format!("{TOOL}:9:3 TMD003 error unknown key `meta.ownr`")));
    expect_one(
        with(
            TOOL,
            &tool_with("  use_when:", "  use_whn: [\"x\"]\n  use_when:"),
        ),
        TOOL,
        "37:3 TMD003 error",
        "unknown key `use_guidance.use_whn`",
    );
    expect_one(
        with(TOOL, &tool_with("  input:", "  inputs: {}\n  input:")),
        TOOL,
        "13:3 TMD003 error",
        "unknown key `interface.inputs`",
    );
}

#[test]
fn tmd004_invalid_tool_id() {
    let invalid = tool_with("tool_id: \"search-docs\"", "tool_id: \"Search Docs\"");
    expect_one(
        check(&[(TOOL, &invalid)]),
        TOOL,
        "3:10 TMD004 error",
        "tool id `Search Docs` does not match",
    );
    // The tool is not registered, so the agent's reference fails too, pointing at the file.
    let found = with(
        TOOL,
        &tool_with("tool_id: \"search-docs\"", "tool_id: \"sd\""),
    );
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("agents/helper.agent.md:6:12 REF020 error"));
    assert!(found[1].starts_with(&format!("{TOOL}:3:10 TMD004 error tool id `sd`")));
}

#[test]
fn tmd005_invalid_version() {
    for (version, fragment) in [
        ("\"1.0\"", "has 2 of the three numbers"),
        ("\"v1.0.0\"", "has a `v` prefix"),
        ("\"1.0.0-beta.1\"", "pre-release or build suffix"),
        ("1.0", "the number `1.0`"),
    ] {
        expect_one(
            with(
                TOOL,
                &tool_with("version: \"1.0.0\"", &format!("version: {version}")),
            ),
            TOOL,
            "4:10 TMD005 error",
            fragment,
        );
    }
}

#[test]
fn tmd006_invalid_tool_type() {
    expect_one(
        with(TOOL, &tool_with("type: \"retrieval\"", "type: \"lookup\"")),
        TOOL,
        "11:7 TMD006 error",
        "`type` must be one of `retrieval`, `action`, `function`, `human`, found `lookup`",
    );
}

#[test]
fn tmd007_invalid_status() {
    expect_one(
        with(TOOL, &tool_with("status: \"active\"", "status: \"live\"")),
        TOOL,
        "5:9 TMD007 error",
        "found `live`",
    );
}

#[test]
fn tmd013_invalid_field_value() {
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: 0")),
        TOOL,
        "31:15 TMD013 error",
        "must be a positive number of milliseconds",
    );
    let database = tool_with(
        "  type: \"rest-api\"\n  base_url: \"https://docs.example.com/v1\"\n  endpoint: \"GET /search\"\n  timeout_ms: 5000\n",
        "  type: \"database\"\n  engine: \"postgres\"\n  query_method: \"parameterised-sql\"\n",
    );
    expect_one(
        with(TOOL, &database),
        TOOL,
        "29:11 TMD013 error",
        "`transport.engine` must be one of",
    );
    expect_one(
        with(
            AGENT,
            &agent_with("tool_choice: \"auto\"", "tool_choice: \"always\""),
        ),
        AGENT,
        "4:16 TMD013 error",
        "`tools.tool_choice` must be one of `none`, `auto`, `required`",
    );
}
