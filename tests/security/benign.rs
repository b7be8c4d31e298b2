//! Realistic benign definitions, the real-world corpus and the fixed demo report nothing.

use super::*;

#[test]
fn benign_definitions_are_silent() {
    let repo = materialize("benign");
    let report = check_dir(&repo.root).expect("valid config");
    let sec: Vec<String> = common::lines(&report)
        .into_iter()
        .filter(|l| l.contains(" SEC"))
        .collect();
    assert_eq!(sec, Vec::<String>::new());
}

#[test]
fn the_real_world_corpus_and_the_fixed_demo_are_silent() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-fixed");
    assert_eq!(
        sec_findings(&demo),
        Vec::<String>::new(),
        "examples/demo-fixed"
    );
    let Some(root) = common::corpus("") else {
        return;
    };
    for entry in std::fs::read_dir(root).expect("corpus") {
        let dir = entry.expect("entry").path();
        if dir.is_dir() {
            assert_eq!(
                sec_findings(&dir),
                Vec::<String>::new(),
                "{}",
                dir.display()
            );
        }
    }
}
