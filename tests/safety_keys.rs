//! A misspelt key that sets a safety gate is an error (SEC031) with the rename, where any
//! other unknown key stays its format's unknown-key finding.

mod common;

use common::{BASE_TOOL, Repo, lines};

fn agent(ref_keys: &str) -> String {
    format!(
        "---\nspec_version: \"1.2\"\nagent_id: \"helper\"\nversion: \"1.0.0\"\nstatus: \"active\"\nmeta:\n  name: \"Helper\"\n  owner: \"docs-team\"\nruntime:\n  model: \"claude-4-sonnet\"\ntools:\n  tool_choice: \"auto\"\n  refs:\n    - ref: \"search-docs\"\n{ref_keys}---\n# Purpose\nAnswers product questions.\n"
    )
}

fn check(ref_keys: &str) -> Vec<String> {
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", BASE_TOOL),
        ("agents/helper.agent.md", &agent(ref_keys)),
    ]);
    let report = repo.check().expect("valid config");
    lines(&report)
}

#[test]
fn the_valid_agent_is_clean() {
    assert_eq!(
        check("      approval_required: true\n"),
        Vec::<String>::new()
    );
}

#[test]
fn a_misspelt_approval_key_is_an_error_with_the_rename() {
    let found = check("      approvel_required: true\n");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("agents/helper.agent.md:15:7 SEC031 error unknown key `tools.refs[0].approvel_required` is a misspelling of `approval_required`"),
        "{found:#?}"
    );
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", BASE_TOOL),
        (
            "agents/helper.agent.md",
            &agent("      approvel_required: true\n"),
        ),
    ]);
    let report = repo.check().expect("valid config");
    let d = &report.diagnostics[0];
    assert_eq!(d.help.as_deref(), Some("rename it to `approval_required`"));
    let fix = d.fix.as_ref().expect("a fix");
    assert_eq!(fix.edits[0].replacement, "approval_required");
}

#[test]
fn other_unknown_keys_and_distant_names_stay_unknown_key_findings() {
    // Close to a key without safety meaning.
    let found = check("      max_call_per_run: 1\n");
    assert!(
        found.len() == 1 && !found[0].contains("SEC031"),
        "{found:#?}"
    );
    // More than two edits from `approval_required`.
    let found = check("      approval_needed: true\n");
    assert!(
        found.len() == 1 && !found[0].contains("SEC031"),
        "{found:#?}"
    );
}
