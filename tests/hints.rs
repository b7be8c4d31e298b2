//! A "did you mean" carries its fix: the hint is made only by `DidYouMean`, which takes the
//! edit that writes what it names, so no such hint reaches a user without one. This reads
//! `src/` and fails on the phrase written anywhere else; `tests/rule_pages.rs` checks every
//! page's example for a did-you-mean without a fix.

use std::path::Path;

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// True when the phrase at `at` is the label of a related place (the candidate the hint
/// names, pointed at where it is defined): the diagnostic's own hint carries the fix.
fn in_related_label(text: &str, at: usize) -> bool {
    let before = &text[..at];
    before
        .rfind(".related(")
        .is_some_and(|r| at - r < 200 && !before[r..].contains(';'))
}

#[test]
fn every_did_you_mean_is_made_with_its_fix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut loose = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        // The one constructor; the command line's own errors name no file to fix.
        if rel == "src/diagnostics/fix.rs"
            || rel.starts_with("src/cli/")
            || rel.ends_with("tests.rs")
        {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file");
        let text = text
            .find("\n#[cfg(test)]")
            .map_or(text.as_str(), |i| &text[..i]);
        for (at, _) in text.match_indices("did you mean") {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line = &text[line_start..text[at..].find('\n').map_or(text.len(), |i| at + i)];
            if line.trim_start().starts_with("//") || in_related_label(text, at) {
                continue;
            }
            let number = text[..at].matches('\n').count() + 1;
            loose.push(format!("{rel}:{number}: {}", line.trim()));
        }
    }
    assert!(
        loose.is_empty(),
        "a \"did you mean\" written by hand (make it with `DidYouMean::new(shown, fix)` and \
         `Diagnostic::did_you_mean`):\n{}",
        loose.join("\n")
    );
}

#[test]
fn a_related_label_is_told_from_a_hint() {
    let text = "d.related(f, s, format!(\"did you mean `{h}`?\"));\nd.help(\"did you mean x\");";
    let first = text.find("did you mean").expect("one");
    let second = text.rfind("did you mean").expect("two");
    assert!(in_related_label(text, first));
    assert!(!in_related_label(text, second));
}
