//! Every rule has a page and every page a rule, with its front matter and sections.

use super::*;

/// Front matter fields and sections every page must have.
const SECTIONS: &[&str] = &[
    "## What it does",
    "## Why is this bad?",
    "## Example",
    "## Fix",
];

#[test]
fn every_rule_has_a_page_and_every_page_a_rule() {
    let registry: BTreeSet<&str> = rules::all().iter().map(|r| r.code).collect();
    let codes = rules::page_codes();
    let pages: BTreeSet<&str> = codes.iter().map(String::as_str).collect();
    let missing: Vec<_> = registry.difference(&pages).collect();
    let orphans: Vec<_> = pages.difference(&registry).collect();
    assert!(
        missing.is_empty(),
        "rules without a page in rules/: {missing:?}"
    );
    assert!(
        orphans.is_empty(),
        "pages in rules/ without a rule: {orphans:?}"
    );
}

#[test]
fn pages_have_front_matter_and_sections() {
    for rule in rules::all() {
        let Some(page) = rules::page(rule) else {
            continue;
        };
        assert!(
            page.starts_with("---\n"),
            "{}: page must start with front matter",
            rule.code
        );
        for field in [
            format!("code: {}", rule.code),
            format!("name: {}", rule.name),
            format!("severity: {}", rule.severity),
        ] {
            assert!(
                page.contains(&field),
                "{}: front matter lacks `{field}`",
                rule.code
            );
        }
        assert!(
            page.contains("\nformats:") && page.contains("\nsince:"),
            "{}: front matter lacks formats/since",
            rule.code
        );
        // The format pages list rules by this field, so it must say what the registry does.
        let mut expected: Vec<&str> = if rule.formats.is_empty() {
            vec!["all"]
        } else {
            rule.formats.to_vec()
        };
        expected.sort_unstable();
        let mut listed: Vec<&str> = page
            .lines()
            .find_map(|l| l.strip_prefix("formats:"))
            .map(|v| v.trim().trim_start_matches('[').trim_end_matches(']'))
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect();
        listed.sort_unstable();
        assert_eq!(
            listed, expected,
            "{}: `formats:` differs from the registry",
            rule.code
        );
        for s in SECTIONS {
            assert!(page.contains(s), "{}: page lacks section `{s}`", rule.code);
        }
        let front = page.split("\n---").next().unwrap_or("");
        assert_eq!(
            front.contains("\npreview: true"),
            rule.preview,
            "{}: `preview: true` in the front matter and the registry disagree",
            rule.code
        );
        if rule.preview {
            // Its Example would be silent, and its Fix trivially so, without preview on.
            for heading in ["## Example", "## Fix"] {
                assert!(
                    blocks(page, heading)
                        .iter()
                        .any(|(path, body)| *path == "toolc.toml"
                            && String::from_utf8_lossy(body).contains("preview = true")),
                    "{}: a preview rule's {heading} needs a `toolc.toml` block with `preview = true`",
                    rule.code
                );
            }
            assert!(
                page.contains("**Preview rule**"),
                "{}: a preview rule's page says so (`**Preview rule**`)",
                rule.code
            );
        }
    }
}
