//! The security pass end to end: a repository with one planted attack of each kind, across
//! every format, reports each at its place and nothing else; realistic benign definitions,
//! the real-world corpus and the fixed demo report nothing.
//!
//! The fixtures hold no invisible characters themselves: `{U+202E}` stands for the code
//! point and `{TAGS:text}` for `text` spelled in Unicode tag characters; they are written
//! out when the fixture is copied into a temporary repository.

mod common;

use std::path::{Path, PathBuf};

use common::{Repo, check_dir};

#[path = "security/attacks.rs"]
mod attacks;
#[path = "security/benign.rs"]
mod benign;
#[path = "security/commands.rs"]
mod commands;
#[path = "security/poisoning.rs"]
mod poisoning;
#[path = "security/shellcheck.rs"]
mod shellcheck;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/security")
        .join(name)
}

/// `text` with the markers replaced by the characters they stand for.
fn expand(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let close = tail.find('}').unwrap_or(0);
        let inner = &tail[1..close.max(1)];
        if let Some(hex) = inner.strip_prefix("U+")
            && let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
        {
            out.push(c);
            rest = &tail[close + 1..];
        } else if let Some(hidden) = inner.strip_prefix("TAGS:") {
            out.extend(
                hidden
                    .chars()
                    .filter_map(|c| char::from_u32(0xe0000 + c as u32)),
            );
            rest = &tail[close + 1..];
        } else {
            out.push('{');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// A copy of fixture `name` with its markers expanded.
fn materialize(name: &str) -> Repo {
    fn copy(repo: &Repo, root: &Path, dir: &Path) {
        for entry in std::fs::read_dir(dir).expect("fixture dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                copy(repo, root, &path);
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "expected.txt" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("fixture text");
            repo.write(&rel, expand(&text).as_bytes());
        }
    }
    let repo = Repo::new();
    let root = fixture(name);
    copy(&repo, &root, &root);
    repo
}

/// `path:line:col CODE` of every `SEC` finding of the rules the security pass emits.
fn sec_findings(dir: &Path) -> Vec<String> {
    let report = check_dir(dir).expect("valid config");
    let mut found: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| is_pass_rule(d.rule.code))
        .map(|d| {
            let p = d.file.position(d.span.start);
            format!(
                "{}:{}:{} {}",
                d.file.display(),
                p.line,
                p.column,
                d.rule.code
            )
        })
        .collect();
    found.sort();
    found
}

/// Rules of the shared pass (every format): SEC013 and SEC040 on.
fn is_pass_rule(code: &str) -> bool {
    code == "SEC013"
        || code
            .strip_prefix("SEC")
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n >= 40)
}
