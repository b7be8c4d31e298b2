//! The table run: each case's fix applied to its file clears the diagnostic, `check --fix`
//! applies the safe fixes and no unsafe one, and every rule that offers a fix has a case.

use super::*;

/// `toolc check --format json` in `dir`, parsed.
fn check_json(dir: &Path) -> Value {
    let out = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("toolc runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn diagnostics(output: &Value) -> Vec<Value> {
    output["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// `text` with the edits of `fix` applied (from the last offset down).
fn apply(text: &str, fix: &Value) -> String {
    let mut edits: Vec<(usize, usize, String)> = fix["edits"]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| {
            let offset = |end: &str| e["span"][end]["offset"].as_u64().expect("offset") as usize;
            (
                offset("start"),
                offset("end"),
                e["replacement"].as_str().expect("replacement").to_string(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    let mut limit = out.len();
    for (start, end, replacement) in edits {
        assert!(
            start <= end && end <= limit,
            "edits overlap or leave the file: {fix}"
        );
        out.replace_range(start..end, &replacement);
        limit = start;
    }
    out
}

/// Codes of the diagnostics in `output` that carry a fix.
fn fixed_codes(output: &Value) -> BTreeSet<String> {
    diagnostics(output)
        .iter()
        .filter(|d| d.get("fix").is_some())
        .filter_map(|d| d["code"].as_str().map(str::to_string))
        .collect()
}

/// Run one case: returns the codes of every fix offered in its first run.
fn run(case: &Case) -> BTreeSet<String> {
    let repo = Repo::new();
    for (path, content) in &case.files {
        repo.write(path, content.as_bytes());
    }
    let before = check_json(&repo.root);
    let found: Vec<Value> = diagnostics(&before)
        .into_iter()
        .filter(|d| d["code"] == case.code && d["path"] == case.path)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{} in {}: expected one diagnostic, found {found:?}",
        case.code,
        case.path
    );
    let fix = found[0]
        .get("fix")
        .unwrap_or_else(|| panic!("{} offers no fix: {}", case.code, found[0]));
    assert!(
        matches!(fix["applicability"].as_str(), Some("safe" | "unsafe")),
        "{fix}"
    );
    let text = std::fs::read_to_string(repo.root.join(case.path)).expect("read");
    let fixed = apply(&text, fix);
    assert_ne!(fixed, text, "{}: the fix changes nothing", case.code);
    repo.write(case.path, fixed.as_bytes());
    let after = check_json(&repo.root);
    let left: Vec<Value> = diagnostics(&after)
        .into_iter()
        .filter(|d| d["code"] == case.code && d["path"] == case.path)
        .collect();
    assert!(
        left.is_empty(),
        "{}: applying the fix did not remove the diagnostic:\n{fixed}\n{left:?}",
        case.code
    );
    fixed_codes(&before)
}

#[test]
fn applying_each_fix_removes_its_diagnostic() {
    for case in cases() {
        run(&case);
    }
}

#[test]
fn every_rule_that_offers_a_fix_has_a_case() {
    let tested: BTreeSet<String> = cases().iter().map(|c| c.code.to_string()).collect();
    let mut offered = BTreeSet::new();
    for case in cases() {
        let repo = Repo::new();
        for (path, content) in &case.files {
            repo.write(path, content.as_bytes());
        }
        offered.extend(fixed_codes(&check_json(&repo.root)));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    offered.extend(fixed_codes(&check_json(&root.join("examples/demo"))));
    // The real-world corpus lives beside the checkout, when it is there.
    if let Some(corpus) = common::corpus("") {
        for entry in std::fs::read_dir(corpus).expect("corpus") {
            let dir = entry.expect("entry").path();
            if dir.is_dir() {
                offered.extend(fixed_codes(&check_json(&dir)));
            }
        }
    }
    let missing: Vec<&String> = offered.difference(&tested).collect();
    assert!(
        missing.is_empty(),
        "rules that offer a fix but have no case in tests/fixes/: {missing:?}"
    );
}

/// `toolc check --fix --format json` in `dir`: what remains, parsed.
fn fix_json(dir: &Path) -> Value {
    let out = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(["check", "--fix", "--format", "json"])
        .output()
        .expect("toolc runs");
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn check_fix_applies_every_safe_fix_and_no_unsafe_one() {
    for case in cases() {
        let repo = Repo::new();
        for (path, content) in &case.files {
            repo.write(path, content.as_bytes());
        }
        let of_case = |output: &Value| -> Vec<Value> {
            diagnostics(output)
                .into_iter()
                .filter(|d| d["code"] == case.code && d["path"] == case.path)
                .collect()
        };
        let before = of_case(&check_json(&repo.root));
        let safe = before[0]["fix"]["applicability"] == "safe";
        let text = std::fs::read_to_string(repo.root.join(case.path)).expect("read");
        let remaining = fix_json(&repo.root);
        let after = std::fs::read_to_string(repo.root.join(case.path)).expect("read");
        if safe {
            assert_ne!(after, text, "{}: --fix changed nothing", case.code);
            assert!(of_case(&remaining).is_empty(), "{}: {remaining}", case.code);
        } else {
            assert_eq!(after, text, "{}: --fix applied an unsafe fix", case.code);
            assert_eq!(of_case(&remaining).len(), 1, "{}", case.code);
        }
        // What --fix reports as remaining is what a fresh check finds.
        assert_eq!(
            diagnostics(&remaining),
            diagnostics(&check_json(&repo.root)),
            "{}",
            case.code
        );
    }
}
