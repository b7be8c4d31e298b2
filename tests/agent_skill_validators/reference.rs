//! The reference validator (`agentskills validate`), when installed: it still says what the table
//! says, and toolc never contradicts it on the fixtures and the real-world corpus.

use super::*;

/// `agentskills validate DIR`, or `None` when the reference validator is not installed.
fn reference(dir: &Path) -> Option<Verdict> {
    let out = Command::new("agentskills")
        .arg("validate")
        .arg(dir)
        .output()
        .ok()?;
    Some(if out.status.success() { Valid } else { Invalid })
}

fn reference_installed() -> bool {
    let installed = Command::new("agentskills")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("skipped: `agentskills` (pip install skills-ref) is not installed");
    }
    installed
}

/// toolc does not contradict the reference on the skill at `dir` of repository `root`.
fn agrees(root: &Path, dir: &Path, what: &str) -> Verdict {
    let verdict = reference(dir).expect("agentskills runs");
    let (codes, error) = toolc(root, dir);
    if verdict == Invalid {
        assert!(
            error || only_dialect_keys(&codes),
            "{what}: `agentskills validate` rejects it, toolc has no error: {codes:?}"
        );
    }
    verdict
}

#[test]
fn the_reference_validator_says_what_the_table_says() {
    if !reference_installed() {
        return;
    }
    for case in cases() {
        let (repo, dir) = write(&case);
        let verdict = agrees(&repo.root, &dir, case.what);
        assert_eq!(
            verdict, case.reference,
            "{}: the reference changed its verdict",
            case.what
        );
    }
}

#[test]
fn the_reference_validator_and_toolc_agree_on_fixtures_and_the_corpus() {
    if !reference_installed() {
        return;
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent-skill/valid");
    for dir in skill_dirs(&fixtures) {
        let verdict = agrees(&fixtures, &dir, &dir.display().to_string());
        assert_eq!(verdict, Valid, "{}", dir.display());
        assert!(!toolc(&fixtures, &dir).1, "{}", dir.display());
    }
    let Some(corpus) = common::corpus("agent-skills") else {
        return;
    };
    for (folder, want) in [
        ("0g-compute-skills", Invalid),
        ("link-jumper-skill", Invalid),
        ("nba-scores-skill", Invalid),
        ("resume-writing", Valid),
    ] {
        let dir = corpus.join(folder);
        assert_eq!(agrees(&dir, &dir, folder), want, "{folder}");
    }
}

/// Every folder under `root` that holds a `SKILL.md`.
fn skill_dirs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "SKILL.md") {
                out.push(dir.clone());
            }
        }
    }
    out.sort();
    out
}
