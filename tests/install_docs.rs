//! One install story: every `cargo install` and `cargo run` the README and the docs show uses
//! `--locked` (the tested `Cargo.lock`, not a fresh resolution), the first build's time is
//! stated where installing is described, and no cargo configuration turns ShellCheck off for
//! every cargo command (which would keep `cargo run -- check` from running it).

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every page of docs/ (the generated rule reference quotes commands that rules
/// report, so it is left out).
fn pages() -> Vec<(String, String)> {
    let mut out = vec![(
        "README.md".to_string(),
        std::fs::read_to_string(root().join("README.md")).expect("README"),
    )];
    for dir in ["docs", "docs/formats"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("docs") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if path.extension().is_some_and(|e| e == "md") && name != "rules.md" {
                let text = std::fs::read_to_string(&path).expect("read");
                out.push((format!("{dir}/{name}"), text));
            }
        }
    }
    out
}

#[test]
fn every_cargo_install_and_run_shown_is_locked() {
    let mut checked = 0;
    for (name, text) in pages() {
        let mut in_code = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                continue;
            }
            let command = in_code
                && (line.contains("cargo install ") || line.contains("cargo run "))
                && !line.trim_start().starts_with('#');
            if command {
                checked += 1;
                assert!(
                    line.contains("--locked"),
                    "{name}: `{}` has no --locked",
                    line.trim()
                );
            }
        }
    }
    assert!(checked >= 4, "only {checked} commands found");
}

#[test]
fn the_first_build_time_is_stated_where_installing_is_described() {
    for page in ["README.md", "docs/getting-started.md", "docs/pre-commit.md"] {
        let text = std::fs::read_to_string(root().join(page)).expect("read");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains("8 minutes"),
            "{page} does not say how long the first build takes"
        );
    }
}

#[test]
fn no_cargo_configuration_turns_shellcheck_off() {
    let config = root().join(".cargo/config.toml");
    let text = std::fs::read_to_string(&config).unwrap_or_default();
    assert!(!text.contains("TOOLC_SHELLCHECK"), "{text}");
}
