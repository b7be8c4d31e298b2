//! skillsaw, when installed: every error it reports, toolc reports in the same file, within a line.

use super::*;

// ── skillsaw ────────────────────────────────────────────────────────────────────────────

/// One error skillsaw reports: its rule, file (relative to the linted folder) and line.
struct Finding {
    rule: String,
    path: String,
    line: Option<u64>,
}

/// skillsaw's errors on the folder `root`, or `None` when skillsaw is not installed.
fn skillsaw_errors(root: &Path) -> Option<Vec<Finding>> {
    let out = Command::new("skillsaw")
        .current_dir(root)
        .args([
            "lint",
            "--format",
            "json",
            "--no-progress",
            "--no-baseline",
            ".",
        ])
        .output()
        .ok()?;
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let violations = report["violations"].as_array()?;
    Some(
        violations
            .iter()
            .filter(|v| v["severity"] == "error")
            .map(|v| Finding {
                rule: v["rule_id"].as_str().unwrap_or("").to_string(),
                path: v["file_path"]
                    .as_str()
                    .unwrap_or("")
                    .trim_start_matches("./")
                    .to_string(),
                line: v["line"].as_u64(),
            })
            .collect(),
    )
}

fn skillsaw_installed() -> bool {
    let installed = Command::new("skillsaw")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("skipped: `skillsaw` (pip install skillsaw) is not installed");
    }
    installed
}

/// Every skillsaw error on `root` is a toolc error in the same file, on its line or the
/// next (skillsaw points at a key, toolc at its value).
fn covers_skillsaw(root: &Path) -> usize {
    let errors = skillsaw_errors(root).expect("skillsaw runs");
    let report = common::check_dir(root).expect("config");
    // Where skillsaw and the reference disagree, toolc follows the reference and warns.
    let toolc: Vec<(String, u64)> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error || ["SKL009", "SKL020"].contains(&d.rule.code))
        .map(|d| {
            (
                d.file.display().to_string(),
                d.file.position(d.span.start).line as u64,
            )
        })
        .collect();
    let missed: Vec<String> = errors
        .iter()
        .filter(|f| {
            !toolc
                .iter()
                .any(|(path, line)| *path == f.path && f.line.is_none_or(|l| line.abs_diff(l) <= 1))
        })
        .map(|f| format!("{}:{} {}", f.path, f.line.unwrap_or(0), f.rule))
        .collect();
    assert!(
        missed.is_empty(),
        "{}: skillsaw's errors without a toolc error at their place: {missed:#?}",
        root.display()
    );
    errors.len()
}

#[test]
fn toolc_reports_every_error_skillsaw_reports() {
    if !skillsaw_installed() {
        return;
    }
    // Every case of the table in one repository, each in a skills folder of its own.
    let repo = Repo::new();
    for (i, case) in cases().iter().enumerate() {
        repo.write(
            &format!("case-{i:02}/skills/{}/SKILL.md", case.folder),
            case.text.as_bytes(),
        );
    }
    let mut total = covers_skillsaw(&repo.root);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    total += covers_skillsaw(&root.join("tests/fixtures/agent-skill/valid"));
    total += covers_skillsaw(&root.join("examples/demo"));
    if let Some(corpus) = common::corpus("agent-skills") {
        for folder in [
            "0g-compute-skills",
            "link-jumper-skill",
            "nba-scores-skill",
            "resume-writing",
        ] {
            total += covers_skillsaw(&corpus.join(folder));
        }
    }
    assert!(
        total > 0,
        "skillsaw reported no error at all: is it reading the skills?"
    );
}
