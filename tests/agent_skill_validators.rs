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

const DESCRIPTION: &str =
    "Extracts text and tables from PDF files. Use when the user mentions PDFs.";

/// A `SKILL.md` named `name` with the good description and `extra` front-matter lines.
fn skill(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {DESCRIPTION}\n{extra}---\n# Steps\n\nRead the file.\n"
    )
}

fn case(
    what: &'static str,
    text: String,
    reference: Verdict,
    codes: &'static [&'static str],
) -> Case {
    Case {
        what,
        folder: "pdf-tools".into(),
        text,
        reference,
        codes,
        further: None,
    }
}

fn cases() -> Vec<Case> {
    let mut out = vec![
        case("minimal", skill("pdf-tools", ""), Valid, &[]),
        case(
            "every optional field",
            skill(
                "pdf-tools",
                "license: Apache-2.0\ncompatibility: Requires Python 3.12 and poppler\nmetadata:\n  author: example-org\n  version: \"1.0\"\nallowed-tools: Bash(git:*) Bash(pdftotext *) Read\n",
            ),
            Valid,
            &[],
        ),
        case(
            "quoted values, comments, a block scalar",
            format!(
                "---\n# the skill\nname: 'pdf-tools' # its folder\ndescription: |\n  {DESCRIPTION}\n  More detail.\n---\nbody\n"
            ),
            Valid,
            &[],
        ),
        case(
            "surrounding spaces in the name",
            skill("\" pdf-tools \"", ""),
            Valid,
            &["SKL020"],
        ),
        case(
            "a description of 1024 characters",
            format!(
                "---\nname: pdf-tools\ndescription: Use when {}\n---\n",
                "x".repeat(1015)
            ),
            Valid,
            &[],
        ),
        case(
            "a number as a metadata value",
            skill("pdf-tools", "metadata:\n  version: 1.10\n"),
            Valid,
            &["SKL009"],
        ),
        case(
            "a dialect key",
            skill("pdf-tools", "user-invocable: false\n"),
            Invalid,
            &["SKL007"],
        ),
        case(
            "an unknown key",
            skill("pdf-tools", "version: 1.0.0\n"),
            Invalid,
            &["SKL006"],
        ),
        case(
            "a misspelt key",
            skill("pdf-tools", "licence: MIT\n"),
            Invalid,
            &["SKL006"],
        ),
        case(
            "no name",
            format!("---\ndescription: {DESCRIPTION}\n---\n"),
            Invalid,
            &["SKL001"],
        ),
        case(
            "no description",
            "---\nname: pdf-tools\n---\n".into(),
            Invalid,
            &["SKL001"],
        ),
        case(
            "an empty name",
            format!("---\nname: \"\"\ndescription: {DESCRIPTION}\n---\n"),
            Invalid,
            &["SKL001"],
        ),
        case(
            "a blank description",
            "---\nname: pdf-tools\ndescription: \"  \"\n---\n".into(),
            Invalid,
            &["SKL001"],
        ),
        case(
            "a description of 1025 characters",
            format!(
                "---\nname: pdf-tools\ndescription: Use when {}\n---\n",
                "x".repeat(1016)
            ),
            Invalid,
            &["SKL005"],
        ),
        case(
            "a description that is a list",
            "---\nname: pdf-tools\ndescription:\n  - Use when PDFs\n---\n".into(),
            Invalid,
            &["SKL002"],
        ),
        case(
            "a compatibility list",
            skill("pdf-tools", "compatibility:\n  - python\n"),
            Invalid,
            &["SKL002"],
        ),
        case(
            "a compatibility of 501 characters",
            skill(
                "pdf-tools",
                &format!("compatibility: {}\n", "x".repeat(501)),
            ),
            Invalid,
            &["SKL005"],
        ),
        Case {
            further: Some("the spec wants 1–500 characters when `compatibility` is given"),
            ..case(
                "an empty compatibility",
                skill("pdf-tools", "compatibility: \"\"\n"),
                Valid,
                &["SKL005"],
            )
        },
        case(
            "a name that is not the folder's",
            skill("pdf-kit", ""),
            Invalid,
            &["SKL004"],
        ),
        case(
            "leading hyphen",
            skill("-pdf-tools", ""),
            Invalid,
            &["SKL003"],
        ),
        case(
            "double hyphen",
            skill("pdf--tools", ""),
            Invalid,
            &["SKL003"],
        ),
        case("underscore", skill("pdf_tools", ""), Invalid, &["SKL003"]),
        case(
            "no front matter",
            "# PDF tools\n".into(),
            Invalid,
            &["SYN010"],
        ),
        case(
            "an unclosed front matter",
            "---\nname: pdf-tools\n".into(),
            Invalid,
            &["SYN011"],
        ),
        case(
            "an empty front matter",
            "---\n---\nbody\n".into(),
            Invalid,
            &["SKL001"],
        ),
        case(
            "a list as front matter",
            "---\n- pdf-tools\n---\n".into(),
            Invalid,
            &["SKL002"],
        ),
        case(
            "invalid YAML",
            "---\nname: [pdf\n---\n".into(),
            Invalid,
            &["SYN001"],
        ),
        case(
            "a duplicate key",
            skill("pdf-tools", "name: pdf-tools\n"),
            Invalid,
            &["SYN003"],
        ),
        case(
            "a byte-order mark",
            format!("\u{feff}{}", skill("pdf-tools", "")),
            Invalid,
            &["SKL010"],
        ),
        case(
            "a flow list",
            skill("pdf-tools", "allowed-tools: [Read, Grep]\n"),
            Invalid,
            &["SKL008", "SKL010"],
        ),
        case(
            "a flow mapping",
            skill("pdf-tools", "metadata: {author: example-org}\n"),
            Invalid,
            &["SKL010"],
        ),
        case(
            "an anchor and an alias",
            format!(
                "---\nname: &n pdf-tools\ndescription: {DESCRIPTION}\nmetadata:\n  id: *n\n---\n"
            ),
            Invalid,
            &["SKL010"],
        ),
        case("a tag", skill("!!str pdf-tools", ""), Invalid, &["SKL010"]),
        case(
            "a tab after a value",
            skill("pdf-tools\t", ""),
            Invalid,
            &["SKL010"],
        ),
        case(
            "`---` in a comment",
            format!("---\n# --- skill ---\nname: pdf-tools\ndescription: {DESCRIPTION}\n---\n"),
            Invalid,
            &["SKL010"],
        ),
        Case {
            further: Some("the reference reads the description cut short at `---`"),
            ..case(
                "`---` in the description",
                "---\nname: pdf-tools\ndescription: Use when the user asks --- for PDFs.\n---\n"
                    .into(),
                Valid,
                &["SKL010"],
            )
        },
    ];
    out.push(Case {
        folder: "实时比分".into(),
        ..case(
            "a name in another script",
            "---\nname: 实时比分\ndescription: 桌面级赛事追踪助手。当用户询问比分、比赛状态、球队排名或者赛程安排时使用这个技能来回答。\n---\n".into(),
            Valid,
            &["SKL020"],
        )
    });
    out.push(Case {
        folder: "ａｂ-tools".into(),
        ..case(
            "a name equal to its folder after NFKC",
            skill("ab-tools", ""),
            Valid,
            &["SKL020"],
        )
    });
    out.push(Case {
        folder: "PDF-Tools".into(),
        ..case("uppercase", skill("PDF-Tools", ""), Invalid, &["SKL003"])
    });
    out.push(Case {
        folder: "123".into(),
        ..case("a number as the name", skill("123", ""), Valid, &["SKL009"])
    });
    let long = "a".repeat(65);
    out.push(Case {
        folder: long.clone(),
        ..case(
            "a name of 65 characters",
            skill(&long, ""),
            Invalid,
            &["SKL003"],
        )
    });
    out
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

#[test]
fn each_case_gives_its_codes() {
    for case in cases() {
        let (repo, dir) = write(&case);
        let (codes, _) = toolc(&repo.root, &dir);
        assert_eq!(codes, case.codes, "{}", case.what);
    }
}

#[test]
fn toolc_errs_exactly_where_the_reference_rejects_or_says_why() {
    for case in cases() {
        let (repo, dir) = write(&case);
        let (codes, error) = toolc(&repo.root, &dir);
        match case.reference {
            Invalid => assert!(
                error || only_dialect_keys(&codes),
                "{}: the reference rejects it, toolc has no error: {codes:?}",
                case.what
            ),
            Valid => assert_eq!(
                error,
                case.further.is_some(),
                "{}: the reference accepts it; toolc's errors {codes:?} need a `further` reason",
                case.what
            ),
        }
    }
}

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
