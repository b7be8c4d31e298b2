//! `[build] out` in toolc.toml: `toolc build` and `build --check` without `--out`.

mod common;

use assert_cmd::Command;
use common::{Repo, VALID_SCHEMA, VALID_TOOL};

fn toolc(repo: &Repo, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("toolc")
        .expect("toolc")
        .current_dir(&repo.root)
        .args(args)
        .output()
        .expect("toolc runs")
}

#[test]
fn the_configured_folder_is_used_without_out() {
    let repo = Repo::with(&[
        (".dojops/tools/my-tool/tool.yaml", VALID_TOOL),
        (".dojops/tools/my-tool/input.schema.json", VALID_SCHEMA),
    ]);
    let missing = toolc(&repo, &["build"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("[build]"),
        "{missing:?}"
    );

    repo.write(
        "toolc.toml",
        b"[build]\nout = \"dist/tools\"\ntargets = [\"openai\"]\n",
    );
    let built = toolc(&repo, &["build"]);
    assert_eq!(built.status.code(), Some(0), "{built:?}");
    assert!(repo.root.join("dist/tools/openai.tools.json").is_file());
    assert_eq!(toolc(&repo, &["build", "--check"]).status.code(), Some(0));
    // `--out` still wins.
    let other = toolc(&repo, &["build", "--out", "elsewhere"]);
    assert_eq!(other.status.code(), Some(0), "{other:?}");
    assert!(repo.root.join("elsewhere/openai.tools.json").is_file());
}
