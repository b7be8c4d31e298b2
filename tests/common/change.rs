//! Repositories with a git history built in the test, and `toolc diff` findings read as
//! (code, place on the new side, related places on the old side).

use std::path::Path;
use std::process::Command as Process;

use toolc::{Config, DiffOptions, DiffReport, Severity};

use super::Repo;

/// Run git in `dir` with a fixed identity and no user or system configuration.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Process::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "toolc")
        .env("GIT_AUTHOR_EMAIL", "toolc@example.com")
        .env("GIT_COMMITTER_NAME", "toolc")
        .env("GIT_COMMITTER_EMAIL", "toolc@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository whose history is `v1` then `v2` (each: path, content; `None` deletes).
pub fn history(v1: &[(&str, &str)], v2: &[(&str, Option<&str>)]) -> Repo {
    let repo = Repo::with(v1);
    git(&repo.root, &["init", "-q", "-b", "main"]);
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "-m", "v1"]);
    for (path, content) in v2 {
        match content {
            Some(c) => repo.write(path, c.as_bytes()),
            None => std::fs::remove_file(repo.root.join(path)).expect("delete"),
        }
    }
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "--allow-empty", "-m", "v2"]);
    repo
}

/// `toolc diff --against <against>` in `dir`, through the library.
pub fn diff(dir: &Path, against: &str) -> DiffReport {
    let config = Config::discover(dir, None).expect("valid config");
    let options = DiffOptions {
        cwd: dir.to_path_buf(),
        against: Some(against.to_string()),
        ..DiffOptions::default()
    };
    toolc::diff(&options, &config).expect("the diff runs")
}

/// One finding as the tests read it.
#[derive(Debug, Clone)]
pub struct Hit {
    pub code: String,
    pub severity: Severity,
    pub path: String,
    pub line: usize,
    pub message: String,
    /// Related places: (path, line, message).
    pub related: Vec<(String, usize, String)>,
    pub notes: Vec<String>,
}

pub fn hits(report: &DiffReport) -> Vec<Hit> {
    report
        .report
        .diagnostics
        .iter()
        .map(|d| Hit {
            code: d.rule.code.to_string(),
            severity: d.severity,
            path: d.file.display().to_string(),
            line: d.file.position(d.span.start).line,
            message: d.message.clone(),
            related: d
                .related
                .iter()
                .map(|r| {
                    (
                        r.file.display().to_string(),
                        r.file.position(r.span.start).line,
                        r.message.clone(),
                    )
                })
                .collect(),
            notes: d.notes.iter().map(|n| n.to_string()).collect(),
        })
        .collect()
}

pub fn codes(report: &DiffReport) -> Vec<String> {
    hits(report).into_iter().map(|h| h.code).collect()
}

/// The 1-based line of the first occurrence of `needle` in `text`.
pub fn line(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    text[..at].matches('\n').count() + 1
}

/// The only finding of `code`, checked to be at `new_line` with a related place at `old_line`
/// (in `HEAD~1`).
pub fn one(report: &DiffReport, code: &str, new_line: usize, old_line: usize) -> Hit {
    let all = hits(report);
    let found: Vec<&Hit> = all.iter().filter(|h| h.code == code).collect();
    assert_eq!(found.len(), 1, "one {code} expected in {all:#?}");
    let hit = found[0].clone();
    assert_eq!(hit.line, new_line, "{code} new-side line: {hit:#?}");
    assert!(
        hit.related
            .iter()
            .any(|(_, l, m)| *l == old_line && m.starts_with("in `HEAD~1`")),
        "{code} should relate to line {old_line} of HEAD~1: {hit:#?}"
    );
    hit
}

/// Run the toolc binary in `dir` (git configured as in [`git`]): exit code, stdout, stderr.
pub fn toolc(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
