use super::*;
use crate::rules::dojops::INVALID_TOOL_NAME;

/// A diagnostic of DOJ003 on the first occurrence of `token` after `after` in `text`.
fn diag(path: &str, text: &str, token: &str, after: usize) -> Diagnostic {
    let file = SourceFile::new(
        PathBuf::from(format!("/repo/{path}")),
        path.to_string(),
        FormatId::DojopsTool,
        text.to_string(),
    );
    let at = text[after..].find(token).map_or(0, |i| i + after);
    Diagnostic::new(
        &INVALID_TOOL_NAME,
        &file,
        Span::new(at, at + token.len()),
        "m",
    )
}

fn fp(path: &str, text: &str, token: &str) -> String {
    fingerprint(&diag(path, text, token, 0), Path::new("/repo"))
}

const TOOL: &str = "spec: 1\nname: Bad_Name\nfiles:\n  - path: a\n    serializer: yml\n";

#[test]
fn lines_added_above_or_reindenting_keep_the_fingerprint() {
    let base = fp("t.yaml", TOOL, "yml");
    let moved = format!("# a comment\n\n{TOOL}");
    assert_eq!(fp("t.yaml", &moved, "yml"), base);
    let reindented = TOOL
        .replace("  - path", "    - path")
        .replace("    serializer", "      serializer");
    assert_eq!(fp("t.yaml", &reindented, "yml"), base);
}

#[test]
fn rule_path_token_and_surroundings_change_it() {
    let base = fp("t.yaml", TOOL, "yml");
    assert_ne!(fp("u.yaml", TOOL, "yml"), base, "path");
    assert_ne!(
        fp("t.yaml", &TOOL.replace("yml", "ymal"), "ymal"),
        base,
        "token"
    );
    // The same value nested under another item is another finding.
    let other = TOOL.replace("path: a", "path: b");
    assert_ne!(fp("t.yaml", &other, "yml"), base, "parent");
}

#[test]
fn on_a_long_line_only_the_neighbourhood_counts() {
    let pad = "x".repeat(200);
    let line =
        format!("{{\"a\": \"{pad}\", \"name\": \"Bad_Name\", \"z\": \"{pad}\", \"w\": 1}}\n");
    let edited = line.replace("\"w\": 1", "\"w\": 2").replacen('x', "y", 1);
    assert_eq!(
        fp("t.json", &line, "Bad_Name"),
        fp("t.json", &edited, "Bad_Name")
    );
}

#[test]
fn numbering_tells_equal_fingerprints_apart() {
    let text = "a:\n  x: yml\na:\n  x: yml\n";
    let first = diag("t.yaml", text, "yml", 0);
    let second = diag("t.yaml", text, "yml", 10);
    let numbered = numbered([&first, &second].into_iter(), Path::new("/repo"));
    assert_eq!(numbered[0].0, numbered[1].0);
    assert_eq!((numbered[0].1, numbered[1].1), (1, 2));
}

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolc-baseline-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp folder");
    dir
}

fn diag_in(dir: &Path, path: &str, text: &str, token: &str, after: usize) -> Diagnostic {
    let mut d = diag(path, text, token, after);
    let file = SourceFile::new(
        dir.join(path),
        path.into(),
        FormatId::DojopsTool,
        text.into(),
    );
    d.file = file;
    d
}

/// `name` in `dir`, as configuration names it.
fn at(dir: &Path, name: &str) -> RepoPath {
    crate::fs::Repository::of(dir)
        .configured(Path::new(name), dir)
        .expect("inside")
}

#[test]
fn each_entry_hides_one_finding_and_unmatched_entries_are_stale_only_in_scope() {
    let dir = temp_dir("apply");
    let baseline = at(&dir, DEFAULT_FILE_NAME);
    let text = "a:\n  x: yml\na:\n  x: yml\n";
    let one = diag_in(&dir, "t.yaml", text, "yml", 0);
    let gone = diag_in(&dir, "gone.yaml", "name: X\n", "X", 0);
    let elsewhere = diag_in(&dir, "other/e.yaml", "name: Y\n", "Y", 0);
    let all = |_: &Rule, _: &Path| true;
    let written = write(&baseline, &[one.clone(), gone, elsewhere], &all).expect("write");
    assert_eq!(
        written,
        Written {
            recorded: 3,
            kept: 0
        }
    );

    // Two equal findings now, one recorded: one is new. `gone.yaml` is fixed: stale. The
    // entry under `other/` is outside this run's scope: not stale.
    let mut diagnostics = vec![one.clone(), diag_in(&dir, "t.yaml", text, "yml", 10)];
    let other = dir.join("other");
    let in_scope = |_: &Rule, p: &Path| !p.starts_with(&other);
    let applied = apply(&baseline, &dir, &mut diagnostics, &in_scope);
    assert_eq!(applied.baselined.len(), 1);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(applied.problems.len(), 1);
    let stale = &applied.problems[0];
    assert_eq!(stale.rule.code, "TLC004");
    assert!(
        stale.message.starts_with("1 baseline entry"),
        "{}",
        stale.message
    );

    // Writing from that run keeps the entry it did not cover and drops the stale one.
    let written = write(&baseline, &diagnostics, &in_scope).expect("rewrite");
    assert_eq!(
        written,
        Written {
            recorded: 1,
            kept: 1
        }
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreadable_or_foreign_baseline_is_one_error_and_hides_nothing() {
    let dir = temp_dir("invalid");
    let all = |_: &Rule, _: &Path| true;
    let mut diagnostics = vec![diag_in(&dir, "t.yaml", TOOL, "yml", 0)];
    let missing = apply(&at(&dir, "nope.json"), &dir, &mut diagnostics, &all);
    assert_eq!(missing.problems[0].rule.code, "TLC005");
    let path = dir.join("b.json");
    std::fs::write(&path, "{\"version\": 1,\n \"entries\": 3}\n").expect("write");
    let bad = apply(&at(&dir, "b.json"), &dir, &mut diagnostics, &all);
    assert_eq!(bad.problems[0].rule.code, "TLC005");
    assert_eq!(
        bad.problems[0]
            .file
            .position(bad.problems[0].span.start)
            .line,
        2
    );
    std::fs::write(
        &path,
        "{\"version\": 9, \"fingerprint\": \"x\", \"entries\": []}",
    )
    .expect("write");
    let foreign = apply(&at(&dir, "b.json"), &dir, &mut diagnostics, &all);
    assert!(foreign.problems[0].message.contains("version 9"));
    assert_eq!(diagnostics.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
