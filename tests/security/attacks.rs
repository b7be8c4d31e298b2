//! The planted attacks: each reported at its place with its severity, every class caught and its
//! look-alike not, an exfiltration pointing at what it reads and where it sends.

use super::*;

#[test]
fn markers_expand() {
    assert_eq!(expand("a{U+202E}b"), "a\u{202e}b");
    assert_eq!(expand("x{TAGS:hi}y"), "x\u{e0068}\u{e0069}y");
    assert_eq!(expand("{PATH} {U+ZZ}"), "{PATH} {U+ZZ}");
}

#[test]
fn every_planted_attack_is_reported_at_its_place() {
    let repo = materialize("attacks");
    let found = sec_findings(&repo.root);
    let expected_text =
        std::fs::read_to_string(fixture("attacks/expected.txt")).expect("expected.txt");
    let mut expected: Vec<String> = expected_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    expected.sort();
    assert_eq!(found, expected);
    // Every rule of the pass is planted at least once; but SEC057, which needs more than a
    // megabyte of code and is planted by `tests/hostile/commands_budget.rs`.
    for rule in toolc::rules()
        .into_iter()
        .filter(|r| is_pass_rule(r.code) && r.code != "SEC057")
    {
        assert!(
            expected.iter().any(|e| e.ends_with(rule.code)),
            "no planted attack for {}",
            rule.code
        );
    }
}

/// `path:line:col CODE severity` of every `SEC` finding in `dir`.
fn sec_findings_with_severity(dir: &Path) -> Vec<String> {
    let report = check_dir(dir).expect("valid config");
    let mut found: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.code.starts_with("SEC"))
        .map(|d| {
            let p = d.file.position(d.span.start);
            format!(
                "{}:{}:{} {} {}",
                d.file.display(),
                p.line,
                p.column,
                d.rule.code,
                d.severity
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn every_class_of_attack_is_caught_and_its_look_alike_is_not() {
    let repo = materialize("classes");
    let found = sec_findings_with_severity(&repo.root);
    let expected_text =
        std::fs::read_to_string(fixture("classes/expected.txt")).expect("expected.txt");
    let mut expected: Vec<String> = expected_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    expected.sort();
    assert_eq!(found, expected);
}

#[test]
fn an_exfiltration_points_at_what_it_reads_and_where_it_sends() {
    let repo = materialize("classes");
    let report = check_dir(&repo.root).expect("valid config");
    let chains: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.code == "SEC046")
        .collect();
    assert!(!chains.is_empty());
    for d in chains {
        let sent = d.file.slice(d.span);
        let read = d.related.first().map(|r| r.file.slice(r.span));
        assert!(
            read.is_some_and(|r| !r.is_empty() && r != sent),
            "{}: {sent} / {read:?}",
            d.file.display()
        );
    }
    let diagnostics = repo.root.join(".claude/skills/upload-diagnostics/SKILL.md");
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.rule.code == "SEC046" && d.file.path == diagnostics)
        .expect("the diagnostics upload");
    assert!(d.file.slice(d.span).starts_with("curl -s -X POST -F"));
    assert_eq!(
        d.related.first().map(|r| r.file.slice(r.span)),
        Some("env | grep -iE 'token|key|secret' > /tmp/.diag")
    );
}
