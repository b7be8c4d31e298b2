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

/// A file named on the command line may lie outside the repository toolc runs in: it is
/// read and reported on, but `--fix` never writes it (the issue's "it is still never
/// written"). One inside is fixed as usual.
#[test]
fn fix_never_writes_a_named_file_outside_the_repository() {
    let tool = b"name: t\ndescriptoin: d\nbash: echo hi\ntags: [read]\n";
    let repo = Repo::new();
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    repo.write(".cycod/tools/t.yaml", tool);
    let outside = Repo::new();
    outside.write(".cycod/tools/t.yaml", tool);
    let target = outside.root.join(".cycod/tools/t.yaml");
    let output = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .arg("check")
        .arg("--fix")
        .arg(&target)
        .arg(".cycod/tools/t.yaml")
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("toolc writes nothing outside it"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&target).expect("read"),
        tool,
        "written outside"
    );
    let inside = std::fs::read_to_string(repo.root.join(".cycod/tools/t.yaml")).expect("read");
    assert!(inside.contains("description: d"), "{inside}");
}
