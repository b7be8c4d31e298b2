//! Output that carries a repository's text, escaped for where it goes: a terminal and a CI
//! log (`check --diff`), a Markdown job summary (`--format markdown`, `diff --stat`).

use super::*;

/// A `*.tool.md` with a misspelt key at the end of its front matter (a safe fix) and a body
/// whose first lines, shown as the diff's context, hold a workflow command and terminal
/// escape sequences (a body is Markdown: any character may be there).
fn hostile_context() -> String {
    let tool = common::BASE_TOOL.replace(
        "  side_effects: \"None. Read-only.\"\n---\n",
        "  side_efects: \"None. Read-only.\"\n---\n::error file=README.md::injected\n\u{1b}]0;PWNED\u{7} and \u{9b}2J\n",
    );
    assert_ne!(tool, common::BASE_TOOL);
    tool
}

/// Row 14: `check --diff` prints the context lines of a fix with no control character and
/// no line GitHub's runner would take as a workflow command.
#[test]
fn check_diff_prints_no_workflow_command_or_escape_sequence() {
    let repo = repo();
    repo.write("tools/search-docs.tool.md", hostile_context().as_bytes());
    let output = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .args(["check", "--diff"])
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("+  side_effects:"),
        "the fix is shown: {text}"
    );
    assert!(
        text.contains("injected") && text.contains("PWNED"),
        "{text}"
    );
    for c in ['\u{1b}', '\u{7}', '\u{9b}'] {
        assert!(!text.contains(c), "{c:?} printed raw: {text}");
    }
    // GitHub's runner reads a line as a command when it starts with `::` after blanks.
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with("::")),
        "{text}"
    );
}
