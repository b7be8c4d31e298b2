//! Every relative link in README.md and docs/ points at a file that exists: the docs link to
//! each other a lot, and a renamed page must not leave dead links behind.

use std::path::{Path, PathBuf};

/// The targets of `[text](target)` links in `text`, without `#fragment`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or("").trim();
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target.to_string());
        }
        rest = &rest[end..];
    }
    out
}

#[test]
fn relative_links_resolve() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut dead = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("read page");
        let dir = page.parent().unwrap_or(Path::new("."));
        for target in links(&text) {
            checked += 1;
            if !dir.join(&target).exists() {
                dead.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser broken?"
    );
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}
