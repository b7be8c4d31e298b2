//! `--fix` on a file whose safe fixes clash in meaning, not in bytes.

use super::*;

/// Row 19: two misspellings of one absent key are each renamed to it by a safe fix; applied
/// together they would write a duplicate key (a syntax error a second `--fix` cannot repair).
/// One is applied, the other stays reported, and the file is never left broken.
#[test]
fn two_fixes_that_add_the_same_key_are_not_both_applied() {
    let repo = repo();
    let manifest = VALID_TOOL.replace(
        "version: \"1.0.0\"",
        "verison: \"1.0.0\"\nversoin: \"1.0.1\"",
    );
    tool(&repo, "twice", manifest.as_bytes());
    let path = ".dojops/tools/twice/tool.yaml";
    let diff = run(&repo, &["check", "--diff"]);
    let diff = String::from_utf8_lossy(&diff.stdout);
    assert_eq!(diff.matches("+version:").count(), 1, "{diff}");
    run(&repo, &["check", "--fix"]);
    let fixed = std::fs::read_to_string(repo.root.join(path)).expect("read");
    assert_eq!(fixed.matches("version:").count(), 1, "{fixed}");
    let diags = diagnostics(&repo);
    assert!(
        !diags
            .iter()
            .any(|d| d["path"] == path && d["code"].as_str().is_some_and(|c| c.starts_with("SYN"))),
        "--fix left a syntax error: {diags:#?}"
    );
    // The other misspelling is still reported, for a person to decide.
    find(&diags, "DOJ007", path);
}
