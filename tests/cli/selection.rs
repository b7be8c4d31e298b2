//! Rule selection and exit codes: `--select` and `--ignore`, `--deny-warnings`, and a usage error.

use super::*;

// --- selection and exit codes ---------------------------------------------------------------

#[test]
fn select_and_ignore_by_code_name_and_prefix() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    let dir = &repo.root;
    let (_, all) = check_json(dir, &[]);
    assert_eq!(codes(&all), ["DOJ003", "DOJ007"]);
    for (args, expected) in [
        (vec!["--select", "DOJ003"], vec!["DOJ003"]),
        (vec!["--select", "unknown-key"], vec!["DOJ007"]),
        (vec!["--select", "doj00"], vec!["DOJ003", "DOJ007"]),
        (vec!["--select", "SEC"], vec![]),
        (
            vec!["--select", "DOJ003,unknown-key"],
            vec!["DOJ003", "DOJ007"],
        ),
        (vec!["--ignore", "DOJ003"], vec!["DOJ007"]),
        (vec!["--ignore", "invalid-tool-name"], vec!["DOJ007"]),
        (vec!["--ignore", "DOJ"], vec![]),
        (
            vec!["--select", "DOJ", "--ignore", "DOJ007"],
            vec!["DOJ003"],
        ),
    ] {
        let (_, diags) = check_json(dir, &args);
        assert_eq!(codes(&diags), expected, "{args:?}");
    }
    let output = toolc(dir, &["check", "--select", "DOJ999"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("DOJ999"), "{}", stderr(&output));
}

/// An empty selector is the prefix of every code: `--ignore DOJ003,` (a comma too many)
/// turned every rule off, and `"" = "off"` in `toolc.toml` too, and the run passed. Both are
/// refused, as a selector that names no rule is.
#[test]
fn an_empty_rule_selector_is_refused_not_read_as_every_rule() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    let dir = &repo.root;
    for args in [
        vec!["check", "--ignore", "DOJ003,"],
        vec!["check", "--ignore", ""],
        vec!["check", "--select", ",DOJ003"],
        vec!["rules", ""],
    ] {
        let output = toolc(dir, &args);
        assert_eq!(code(&output), 2, "{args:?}: {}", stdout(&output));
        assert!(
            stderr(&output).contains("an empty rule selector"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    config(&repo, "toolc.toml", "[rules]\n\"\" = \"off\"\n");
    let output = toolc(dir, &["check"]);
    assert_eq!(code(&output), 2, "{}", stdout(&output));
    let err = stderr(&output);
    assert!(
        err.contains("an empty rule selector") && err.contains("TLC003"),
        "{err}"
    );
}

#[test]
fn exit_codes_and_deny_warnings() {
    let repo = Repo::new();
    warning_tool(&repo, "b");
    assert_eq!(code(&toolc(&repo.root, &["check"])), 0);
    assert_eq!(code(&toolc(&repo.root, &["check", "--deny-warnings"])), 1);
    tool(&repo, "a", "Bad_A");
    assert_eq!(code(&toolc(&repo.root, &["check"])), 1);
    let clean = Repo::new();
    tool(&clean, "ok", "ok");
    assert_eq!(code(&toolc(&clean.root, &["check", "--deny-warnings"])), 0);
}

#[test]
fn a_missing_path_argument_is_a_usage_error() {
    let repo = common::Repo::new();
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .args(["check", "no/such/dir"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no/such/dir: no such file or directory")
    );
}
