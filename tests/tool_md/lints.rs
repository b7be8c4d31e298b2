//! Error codes and lints (TMD023 to TMD034).

use super::*;

fn action_with(from: &str, to: &str) -> String {
    assert!(
        ACTION_TOOL.contains(from),
        "`{from}` is not in the action tool"
    );
    ACTION_TOOL.replacen(from, to, 1)
}

// ── error codes and lints ──────────────────────────────────────────────────────────────

#[test]
fn tmd023_incomplete_error_code() {
    expect_one(
        with(
            ACTION,
            &action_with("    agent_action: \"Wait, then retry once\"\n", ""),
        ),
        ACTION,
        "38:3 TMD023 error",
        "`error_codes.429.agent_action` is missing",
    );
}

#[test]
fn tmd024_duplicate_tool_id() {
    let copy = "tools/b/search-docs.tool.md";
    let repo = Repo::with(&[(TOOL, BASE_TOOL), (copy, BASE_TOOL)]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    expect_one(
        found,
        TOOL,
        "3:10 TMD024 error",
        "tool id `search-docs` is already defined",
    );
    let related = &report.diagnostics[0].related[0];
    assert_eq!(related.file.display(), copy);
    assert_eq!(related.file.position(related.span.start).line, 3);
}

#[test]
fn tmd025_undeclared_side_effects() {
    expect_one(
        with(
            ACTION,
            &action_with(
                "  side_effects: [\"Sends an email; this cannot be undone.\"]\n",
                "",
            ),
        ),
        ACTION,
        "33:1 TMD025 warning",
        "this `action` tool does not declare its `side_effects`",
    );
    expect_one(
        with(
            ACTION,
            &action_with("[\"Sends an email; this cannot be undone.\"]", "\"None\""),
        ),
        ACTION,
        "36:17 TMD025 warning",
        "declares no side effects",
    );
}

#[test]
fn tmd026_missing_usage_hints() {
    expect_one(
        with(
            TOOL,
            &tool_with("  avoid_when: [\"the question is small talk\"]\n", ""),
        ),
        TOOL,
        "36:1 TMD026 warning",
        "`use_guidance` has no `avoid_when`",
    );
    expect_one(
        with(
            TOOL,
            &tool_with("[\"the user asks about the product\"]", "[]"),
        ),
        TOOL,
        "37:13 TMD026 warning",
        "`use_guidance.use_when` is empty",
    );
}

#[test]
fn tmd027_deprecated_without_date() {
    let deprecated = tool_with("status: \"active\"", "status: \"deprecated\"").replacen(
        "  last_updated: \"2025-04-01\"\n",
        "",
        1,
    );
    let found = with(TOOL, &deprecated);
    // The agent that uses it is told too (REF022).
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("agents/helper.agent.md:6:12 REF022 warning"));
    assert!(found[1].starts_with(&format!("{TOOL}:5:9 TMD027 warning")));
    let dated = tool_with("status: \"active\"", "status: \"deprecated\"");
    assert_eq!(with(TOOL, &dated).len(), 1);
}

#[test]
fn tmd028_file_name_mismatch() {
    let found = check(&[("tools/docs.tool.md", BASE_TOOL)]);
    expect_one(
        found,
        "tools/docs.tool.md",
        "3:10 TMD028 warning",
        "the file is named `docs.tool.md`, but its `tool_id` is `search-docs`",
    );
}

#[test]
fn tmd029_outside_tools_folder() {
    let found = check(&[("search-docs.tool.md", BASE_TOOL)]);
    expect_one(
        found,
        "search-docs.tool.md",
        "3:10 TMD029 info",
        "not inside a `tools/` folder",
    );
    assert_eq!(
        check(&[("lib/tools/search-docs.tool.md", BASE_TOOL)]),
        Vec::<String>::new()
    );
}

#[test]
fn tmd030_description_sentence_count() {
    expect_one(
        with(
            TOOL,
            &tool_with(
                "\"Search the product documentation. Use it for product questions.\"",
                "\"Searches docs\"",
            ),
        ),
        TOOL,
        "8:16 TMD030 info",
        "has 1 sentence; the spec asks for two to five",
    );
    let long = "\"One. Two. Three. Four. Five. Six.\"";
    expect_one(
        with(
            TOOL,
            &tool_with(
                "\"Search the product documentation. Use it for product questions.\"",
                long,
            ),
        ),
        TOOL,
        "8:16 TMD030 info",
        "has 6 sentences",
    );
}

#[test]
fn tmd031_retried_non_idempotent_call() {
    let three = action_with("max_attempts: 1\n    on_status: []", "max_attempts: 3");
    expect_one(
        with(ACTION, &three),
        ACTION,
        "27:19 TMD031 warning",
        "`POST /send` is attempted up to 3 times",
    );
    let default_retries = action_with(
        "  retry_policy:\n    max_attempts: 1\n    on_status: []\n",
        "",
    );
    expect_one(
        with(ACTION, &default_retries),
        ACTION,
        "25:13 TMD031 warning",
        "retried by default (up to 3 attempts)",
    );
    // An idempotent method, or retries switched off by an empty `on_status`, is fine.
    assert_eq!(
        with(ACTION, &three.replace("\"POST /send\"", "\"PUT /send\"")),
        Vec::<String>::new()
    );
    assert_eq!(
        with(ACTION, &action_with("max_attempts: 1", "max_attempts: 3")),
        Vec::<String>::new()
    );
}

#[test]
fn tmd032_timeout_out_of_range() {
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: 50")),
        TOOL,
        "31:15 TMD032 warning",
        "is 50 ms, below 100 ms",
    );
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: 600000")),
        TOOL,
        "31:15 TMD032 warning",
        "above 5 minutes",
    );
}

#[test]
fn tmd033_invalid_date() {
    expect_one(
        with(TOOL, &tool_with("\"2025-04-01\"", "\"2025-02-30\"")),
        TOOL,
        "10:17 TMD033 warning",
        "must be an ISO 8601 date",
    );
}

#[test]
fn tmd034_unknown_transport_key() {
    let found = with(TOOL, &tool_with("  timeout_ms: 5000", "  timeout: 5000"));
    expect_one(
        found,
        TOOL,
        "31:3 TMD034 warning",
        "unknown key `transport.timeout`",
    );
    let found = with(
        TOOL,
        &tool_with("  timeout_ms: 5000", "  tool_name: \"search\""),
    );
    expect_one(
        found,
        TOOL,
        "31:3 TMD034 warning",
        "unknown key `transport.tool_name`",
    );
}
