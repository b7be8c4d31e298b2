//! The severity policy (docs/severity.md): every rule that is an error by default says why
//! (the runtime refuses the file, misbehaves for certain, a certain credential or attack, or
//! a gate the user asked for); preview rules are off until the user turns them on.

mod common;

use std::process::Command;

use common::{Repo, lines};

const SKILL: &str = ".claude/skills/pdf-tools/SKILL.md";
const VAGUE: &str = "---\nname: pdf-tools\ndescription: Helps with PDFs.\n---\n";

/// The preview rule these tests turn on and off.
const PREVIEW_RULE: &str = "SKL019";

#[test]
fn every_error_has_a_basis_and_only_errors_do() {
    let mut failures = Vec::new();
    for rule in toolc::rules() {
        let error = rule.severity == toolc::Severity::Error;
        if error && rule.basis.is_none() {
            failures.push(format!(
                "{} is an error without a basis: declare `rejects`, `breaks`, `threat` or `gate`, or make it a warning",
                rule.code
            ));
        }
        if !error && rule.basis.is_some_and(|b| b != toolc::Basis::Refused) {
            failures.push(format!(
                "{} declares why it is an error but is a {}",
                rule.code, rule.severity
            ));
        }
        if rule.preview && error {
            failures.push(format!(
                "{} is a preview rule, which is not proven precise: it cannot be an error",
                rule.code
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        toolc::rules()
            .iter()
            .any(|r| r.code == PREVIEW_RULE && r.preview),
        "{PREVIEW_RULE} is the preview rule these tests use"
    );
}

#[test]
fn the_policy_is_written_down() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/severity.md"),
    )
    .expect("docs/severity.md");
    for word in ["`rejects`", "`breaks`", "`threat`", "`gate`", "preview"] {
        assert!(
            doc.contains(word),
            "docs/severity.md does not explain {word}"
        );
    }
}

fn codes(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&repo.check().expect("config"))
        .into_iter()
        .filter(|l| l.contains(PREVIEW_RULE))
        .collect()
}

#[test]
fn a_preview_rule_runs_only_when_turned_on() {
    assert_eq!(
        codes(&[(SKILL, VAGUE)]),
        Vec::<String>::new(),
        "off by default"
    );
    assert_eq!(
        codes(&[(SKILL, VAGUE), ("toolc.toml", "preview = true\n")]).len(),
        1,
        "`preview = true`"
    );
    assert_eq!(
        codes(&[
            (SKILL, VAGUE),
            ("toolc.toml", "[rules]\nSKL019 = \"warning\"\n")
        ])
        .len(),
        1,
        "a setting that names the rule"
    );
    assert_eq!(
        codes(&[
            (SKILL, VAGUE),
            ("toolc.toml", "[rules]\nSKL = \"warning\"\n")
        ]),
        Vec::<String>::new(),
        "a prefix does not turn a preview rule on"
    );
    assert_eq!(
        codes(&[
            (SKILL, VAGUE),
            ("toolc.toml", "preview = true\n[rules]\nSKL019 = \"off\"\n")
        ]),
        Vec::<String>::new(),
        "`off` still wins"
    );
}

/// `toolc check` with `args` in a repository holding a vague skill: the codes it prints.
fn run(args: &[&str]) -> String {
    let repo = Repo::with(&[(SKILL, VAGUE)]);
    let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["check", "--no-cache", "--format", "json"])
        .args(args)
        .arg(".")
        .current_dir(&repo.root)
        .output()
        .expect("toolc runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_command_line_turns_preview_on() {
    assert!(!run(&[]).contains(PREVIEW_RULE));
    assert!(run(&["--preview"]).contains(PREVIEW_RULE));
    assert!(run(&["--select", "SKL019"]).contains(PREVIEW_RULE));
    assert!(run(&["--select", "vague-skill-description"]).contains(PREVIEW_RULE));
    assert!(!run(&["--select", "SKL"]).contains(PREVIEW_RULE));
}

#[test]
fn every_page_gives_its_measured_precision() {
    let missing: Vec<&str> = toolc::rules()
        .iter()
        .filter(|r| {
            !r.page()
                .and_then(|p| p.split("\n---").next())
                .is_some_and(|front| front.contains("\nprecision: "))
        })
        .map(|r| r.code)
        .collect();
    assert!(
        missing.is_empty(),
        "pages without `precision:` (run scripts/rule-precision.py): {missing:?}"
    );
}
