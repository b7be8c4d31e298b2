//! Generated documentation stays in step with its sources.

use std::path::Path;

#[test]
fn rule_reference_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let expected = toolc::rules::reference_markdown();
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
