//! Agents (TMD035 to TMD039) and the references between agents and tools (REF020 to REF023,
//! SEC030).

use super::*;

// ── agents ─────────────────────────────────────────────────────────────────────────────

#[test]
fn tmd035_invalid_agent_id() {
    expect_one(
        with(
            AGENT,
            &agent_with("agent_id: \"helper\"", "agent_id: \"Helper Bot\""),
        ),
        AGENT,
        "2:11 TMD035 error",
        "agent id `Helper Bot` does not match",
    );
}

#[test]
fn tmd036_unknown_agent_key() {
    expect_one(
        with(
            AGENT,
            &agent_with("guardrails:", "gaurdrails: {}\nguardrails:"),
        ),
        AGENT,
        "10:1 TMD036 warning",
        "unknown key `gaurdrails`",
    );
    expect_one(
        with(
            AGENT,
            &agent_with("      max_calls_per_run: 1", "      max_calls: 1"),
        ),
        AGENT,
        "9:7 TMD036 warning",
        "unknown key `tools.refs[1].max_calls`",
    );
    // The keys of the full agent format are known.
    let full = agent_with(
        "guardrails:",
        "runtime:\n  model: \"claude-4-sonnet\"\nmemory:\n  mode: \"session\"\nguardrails:",
    );
    assert_eq!(with(AGENT, &full), Vec::<String>::new());
}

#[test]
fn tmd037_duplicate_tool_ref() {
    let found = with(
        AGENT,
        &agent_with(
            "    - ref: \"search-docs\"\n",
            "    - ref: \"search-docs\"\n    - ref: \"search-docs\"\n",
        ),
    );
    expect_one(
        found,
        AGENT,
        "7:12 TMD037 warning",
        "`search-docs` is referenced twice",
    );
}

#[test]
fn tmd038_confirmation_for_unreferenced_tool() {
    let found = with(
        AGENT,
        &agent_with("[\"send-email\"]", "[\"send-email\", \"search-doc\"]"),
    );
    expect_one(
        found,
        AGENT,
        "12:51 TMD038 warning",
        "`search-doc` needs user confirmation, but this agent does not reference it",
    );
}

/// Past the cap of 200 findings a rule has in a file, the rest are counted on one line:
/// 500 unreferenced confirmations are 200 findings and a line for the other 300.
#[test]
fn tmd038_past_the_cap_the_rest_are_counted() {
    let names: Vec<String> = (0..500).map(|i| format!("\"missing-{i}\"")).collect();
    let repo = Repo::with(&[
        (TOOL, BASE_TOOL),
        (ACTION, ACTION_TOOL),
        (
            AGENT,
            &agent_with(
                "[\"send-email\"]",
                &format!("[\"send-email\", {}]", names.join(", ")),
            ),
        ),
    ]);
    let report = repo.check().expect("config");
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.code == "TMD038")
        .collect();
    let shown = found.iter().filter(|d| d.omitted == 0).count();
    let more: usize = found.iter().map(|d| d.omitted).sum();
    assert_eq!((shown, more), (200, 300));
}

#[test]
fn tmd039_invalid_max_calls() {
    for (value, found_text) in [
        ("0", "found 0"),
        ("\"2\"", "found the string"),
        ("1.5", "found a number"),
    ] {
        expect_one(
            with(
                AGENT,
                &agent_with(
                    "max_calls_per_run: 1",
                    &format!("max_calls_per_run: {value}"),
                ),
            ),
            AGENT,
            "9:26 TMD039 error",
            found_text,
        );
    }
}

// ── references between agents and tools ───────────────────────────────────────────────

#[test]
fn ref020_unregistered_tool_ref() {
    let repo = Repo::with(&[
        (TOOL, BASE_TOOL),
        (ACTION, ACTION_TOOL),
        (
            AGENT,
            &agent_with("ref: \"search-docs\"", "ref: \"search-doc\""),
        ),
    ]);
    let report = repo.check().expect("config");
    expect_one(
        lines(&report),
        AGENT,
        "6:12 REF020 error",
        "no tool file defines the tool id `search-doc`",
    );
    let d = &report.diagnostics[0];
    assert_eq!(d.help.as_deref(), Some("did you mean `search-docs`?"));
    assert_eq!(d.related[0].file.display(), TOOL);
}

#[test]
fn ref021_disabled_tool_ref_fails_every_agent_pointing_at_both_files() {
    let disabled = tool_with("status: \"active\"", "status: \"disabled\"");
    let second = "agents/other.agent.md";
    let other = agent_with("agent_id: \"helper\"", "agent_id: \"other\"");
    let repo = Repo::with(&[
        (TOOL, &disabled),
        (ACTION, ACTION_TOOL),
        (AGENT, BASE_AGENT),
        (second, &other),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        vec![
            "agents/helper.agent.md:6:12 REF021 error `search-docs` is disabled, and this agent still references it",
            "agents/other.agent.md:6:12 REF021 error `search-docs` is disabled, and this agent still references it",
        ]
    );
    assert!(report.fails_at(toolc::Severity::Error));
    for d in &report.diagnostics {
        let r = &d.related[0];
        assert_eq!(r.file.display(), TOOL);
        assert_eq!(r.file.slice(r.span), "\"disabled\"");
    }
}

#[test]
fn ref022_and_ref023_deprecated_and_draft_tool_refs() {
    let found = with(
        TOOL,
        &tool_with("status: \"active\"", "status: \"deprecated\""),
    );
    expect_one(
        found,
        AGENT,
        "6:12 REF022 warning",
        "`search-docs` is deprecated",
    );
    let found = with(TOOL, &tool_with("status: \"active\"", "status: \"draft\""));
    expect_one(
        found,
        AGENT,
        "6:12 REF023 warning",
        "`search-docs` is still a draft",
    );
}

#[test]
fn sec030_unconfirmed_action_tool() {
    let unconfirmed =
        agent_with("      approval_required: true\n", "").replacen("[\"send-email\"]", "[]", 1);
    let repo = Repo::with(&[
        (TOOL, BASE_TOOL),
        (ACTION, ACTION_TOOL),
        (AGENT, &unconfirmed),
    ]);
    let report = repo.check().expect("config");
    expect_one(
        lines(&report),
        AGENT,
        "7:12 SEC030 warning",
        "may call the `action` tool `send-email` without asking a human",
    );
    let r = &report.diagnostics[0].related[0];
    assert_eq!(
        (r.file.display(), r.file.slice(r.span)),
        (ACTION, "\"send-email\"")
    );
    // Either confirmation is enough, and so is an agent-wide approval policy.
    assert_eq!(
        with(AGENT, &agent_with("      approval_required: true\n", "")),
        Vec::<String>::new()
    );
    assert_eq!(
        with(AGENT, &agent_with("[\"send-email\"]", "[]")),
        Vec::<String>::new()
    );
    let policy = format!(
        "{}policies:\n  require_human_approval: true\n---\n",
        unconfirmed
            .trim_end_matches("---\n# Purpose\nAnswers questions and sends follow-up email.\n")
    );
    assert_eq!(with(AGENT, &policy), Vec::<String>::new());
}
