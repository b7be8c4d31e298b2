//! `toolc diff` and `[[custom-rules]]`: `--select` and `--ignore` take a custom rule's code
//! (known once the configuration is read) as `check` does, and apply it like any selector.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::Repo;

const POLICY: &str = r#"[[custom-rules]]
code = "ORG001"
name = "description-too-short"
severity = "warning"
message = "tool `{name}`: describe it in at least 40 characters"
formats = ["cycod-tool"]
then = { field = "description", function = "length", options = { min = 40 } }
"#;

fn git(dir: &Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

/// A committed cycod tool whose description then changes in the working tree.
fn changed() -> Repo {
    let repo = Repo::with(&[
        ("toolc.toml", POLICY),
        (
            ".cycod/tools/list.yaml",
            "name: list\ndescription: Lists files\nbash: ls -1\ntags: [read]\n",
        ),
    ]);
    git(&repo.root, &["init", "-q", "-b", "main"]);
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "-m", "one"]);
    repo.write(
        ".cycod/tools/list.yaml",
        b"name: list\ndescription: Lists all files\nbash: ls -1\ntags: [read]\n",
    );
    repo
}

fn diff(repo: &Repo, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(&repo.root)
        .arg("diff")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("toolc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn diff_takes_custom_codes_in_select_and_ignore() {
    let repo = changed();
    let (code, all, err) = diff(&repo, &[]);
    assert_eq!(code, 0, "{all}{err}");
    assert!(all.contains("\"BRK032\""), "{all}");
    // The custom family selects the custom rules: the diff's own findings are not among them.
    for select in ["ORG", "ORG001", "description-too-short"] {
        let (code, out, err) = diff(&repo, &["--select", select]);
        assert_eq!(code, 0, "--select {select}: {err}");
        assert!(!out.contains("\"BRK032\""), "--select {select}: {out}");
    }
    let (code, out, err) = diff(&repo, &["--select", "BRK,ORG001"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"BRK032\""), "{out}");
    let (code, out, err) = diff(&repo, &["--ignore", "ORG001"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"BRK032\""), "{out}");
    // A code that no rule has, built in or custom, is still refused.
    let (code, _, err) = diff(&repo, &["--select", "ORG002"]);
    assert_eq!(code, 2);
    assert!(err.contains("`ORG002` is not a rule code"), "{err}");
}
