//! What an installed binary tells its user about itself: its version, and completion scripts
//! for each shell.

use std::process::Output;

fn toolc(args: &[&str]) -> Output {
    assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .args(args)
        .output()
        .expect("run toolc")
}

#[test]
fn version_names_the_crate_version() {
    let out = toolc(&["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!("toolc {}", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    // Built from this checkout, the version also names the commit.
    if std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".git")
        .exists()
        && std::process::Command::new("git")
            .arg("--version")
            .output()
            .is_ok()
    {
        assert!(text.contains(" ("), "no commit in {text}");
    }
}

#[test]
fn completions_cover_every_subcommand_in_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = toolc(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        // Fish spells options without their dashes (`-l format`).
        for word in ["check", "build", "explain", "format", "completions"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let out = toolc(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_bash_script_is_valid_bash() {
    let out = toolc(&["completions", "bash"]);
    let dir = std::env::temp_dir().join(format!("toolc-completions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp");
    let path = dir.join("toolc.bash");
    std::fs::write(&path, &out.stdout).expect("write");
    let Ok(check) = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
    else {
        eprintln!("skipped: bash not found");
        return;
    };
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_readme_output_snippet_is_what_toolc_prints() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let marker = "<!-- output of: toolc check examples/demo -->\n```text\n";
    let start = readme.find(marker).expect("the README shows real output") + marker.len();
    let snippet = &readme[start..];
    let snippet = &snippet[..snippet.find("```").expect("closing fence")];
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(root)
        .args(["check", "examples/demo", "--no-color"])
        .output()
        .expect("run toolc");
    let printed = String::from_utf8_lossy(&out.stdout);
    for block in snippet.split("\n\n") {
        assert!(
            printed.contains(block.trim_end()),
            "the README shows output toolc no longer prints:\n{block}"
        );
    }
}
