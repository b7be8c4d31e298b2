//! Suppression comments: on the line and the line above, unused and unknown ones.

use super::*;

// --- suppression comments -------------------------------------------------------------------

#[test]
fn suppression_on_the_line_and_the_line_above() {
    let repo = Repo::new();
    tool_at(
        &repo,
        ".dojops/tools",
        "same-line",
        &VALID_TOOL.replace(
            "name: my-tool",
            "name: Bad_A # toolc: ignore DOJ003 -- legacy name, kept for old agents",
        ),
    );
    tool_at(
        &repo,
        ".dojops/tools",
        "line-above",
        &VALID_TOOL.replace(
            "name: my-tool",
            "# toolc: ignore invalid-tool-name -- legacy\nname: Bad_B",
        ),
    );
    tool_at(
        &repo,
        ".dojops/tools",
        "two-lines-above",
        &VALID_TOOL
            .replace(
                "name: my-tool",
                "# toolc: ignore DOJ003 -- too far away\nspec: 1\nname: Bad_C",
            )
            .replacen("spec: 1\n", "", 1),
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert_eq!(
        summary(&diags),
        [
            "TLC001 .dojops/tools/two-lines-above/tool.yaml:1:17",
            "DOJ003 .dojops/tools/two-lines-above/tool.yaml:3:7",
        ]
    );
}

#[test]
fn unused_and_unknown_suppressions() {
    let repo = Repo::new();
    tool_at(
        &repo,
        ".dojops/tools",
        "a",
        &VALID_TOOL.replace(
            "name: my-tool",
            "name: my-tool # toolc: ignore DOJ003, SEC001, DOJ9999 -- stale",
        ),
    );
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(
        summary(&diags),
        [
            "TLC001 .dojops/tools/a/tool.yaml:2:31",
            "TLC001 .dojops/tools/a/tool.yaml:2:39",
            "TLC002 .dojops/tools/a/tool.yaml:2:47",
        ]
    );
    assert_eq!(status, 0, "both are warnings");
    // A suppression of a rule that is off is not "unused".
    let (_, diags) = check_json(&repo.root, &["--ignore", "DOJ003,SEC001"]);
    assert_eq!(codes(&diags), ["TLC002"]);
}
