//! Generated documentation stays in step with its sources.

use std::path::Path;

use assert_cmd::Command;

#[test]
fn rule_reference_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    // `toolc rules --format markdown` prints the reference from the embedded pages.
    let output = Command::cargo_bin("toolc")
        .expect("toolc binary")
        .args(["rules", "--format", "markdown"])
        .output()
        .expect("run toolc rules");
    assert!(
        output.status.success(),
        "toolc rules --format markdown failed"
    );
    let expected = String::from_utf8(output.stdout).expect("UTF-8 Markdown");
    if std::env::var_os("TOOLC_BLESS").is_some() {
        std::fs::write(&path, &expected).expect("write docs/rules.md");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/rules.md is stale: run `TOOLC_BLESS=1 cargo test --test docs` and commit it"
    );
}
