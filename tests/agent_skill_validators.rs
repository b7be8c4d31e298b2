//! Agent Skills against other validators. First the reference validator: a table of front
//! matters, each with the verdict of `skills-ref validate` (the `agentskills` command of the
//! `skills-ref` package) and the rules toolc reports. toolc reports an error wherever the
//! reference rejects a skill, and where it accepts one toolc's errors are the table's
//! documented "further" findings only. When `agentskills` is installed, the test also runs it
//! on every case, on the test fixtures and on the real-world corpus, and checks that it still
//! says what the table says and that toolc never contradicts it. Then skillsaw (`pip install
//! skillsaw`), when installed: every error it reports on the same skills, toolc reports in the
//! same file, within a line (skillsaw points at a key, toolc at its value): as an error, or,
//! where skillsaw rejects what the reference accepts (a number as the name, a name it trims
//! or normalizes, letters outside `a-z`), as the warning of SKL009 or SKL020.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Repo;
use toolc::Severity;

#[path = "agent_skill_validators/reference.rs"]
mod reference;
#[path = "agent_skill_validators/skillsaw.rs"]
mod skillsaw;
#[path = "agent_skill_validators/table.rs"]
mod table;
use table::cases;

/// What the reference validator says about a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Valid,
    Invalid,
}

use Verdict::{Invalid, Valid};

/// One skill: its folder's name, its `SKILL.md`, the reference's verdict, toolc's codes on
/// the file (sorted), and, when toolc reports an error the reference does not, why.
struct Case {
    what: &'static str,
    folder: String,
    text: String,
    reference: Verdict,
    codes: &'static [&'static str],
    further: Option<&'static str>,
}

/// The repository of one case, and the skill folder in it.
fn write(case: &Case) -> (Repo, PathBuf) {
    let repo = Repo::new();
    let rel = format!("skills/{}/SKILL.md", case.folder);
    repo.write(&rel, case.text.as_bytes());
    let dir = repo.root.join("skills").join(&case.folder);
    (repo, dir)
}

/// toolc's codes (sorted, once each) and whether any is an error, for the skill at `dir`.
fn toolc(root: &Path, dir: &Path) -> (Vec<String>, bool) {
    let report = common::check_dir(root).expect("config");
    let skill_md = dir.join("SKILL.md");
    let mine: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.file.path == skill_md || d.file.path.starts_with(dir))
        .collect();
    let mut codes: Vec<String> = mine.iter().map(|d| d.rule.code.to_string()).collect();
    codes.sort();
    codes.dedup();
    let error = mine.iter().any(|d| d.severity == Severity::Error);
    (codes, error)
}

/// The documented difference: agent-specific keys are a warning, though the reference
/// rejects them.
fn only_dialect_keys(codes: &[String]) -> bool {
    codes.iter().any(|c| c == "SKL007")
}
