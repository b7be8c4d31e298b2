//! Rules are documents: every rule has a page, every page has a rule, and every page's
//! Example produces exactly its rule while its Fix produces nothing. Rules about two versions
//! (`example: diff`, `example: lock` in the front matter) give a `### Before` and a `### After`
//! version, compared by `toolc diff` or locked and checked with `--locked`.

mod common;

use std::collections::BTreeSet;

use common::{Repo, check_dir};

/// The registry as the public API gives it, and the pages in `rules/` on disk.
mod rules {
    use toolc::Rule;

    pub fn all() -> Vec<&'static Rule> {
        toolc::rules()
    }

    pub fn page(rule: &Rule) -> Option<&'static str> {
        rule.page()
    }

    /// Codes of the pages in `rules/`.
    pub fn page_codes() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let mut codes: Vec<String> = std::fs::read_dir(dir)
            .expect("rules/ exists")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|name| name.strip_suffix(".md").map(str::to_string))
            .collect();
        codes.sort();
        codes
    }
}

/// Front matter fields and sections every page must have.
const SECTIONS: &[&str] = &[
    "## What it does",
    "## Why is this bad?",
    "## Example",
    "## Fix",
];

/// Fenced blocks with `title="path"` in the section starting at `heading`.
fn blocks<'a>(page: &'a str, heading: &str) -> Vec<(&'a str, Vec<u8>)> {
    blocks_in(section(page, heading))
}

/// The text of the section starting at `heading` (empty when there is none).
fn section<'a>(page: &'a str, heading: &str) -> &'a str {
    let Some(start) = page.find(heading) else {
        return "";
    };
    let section = &page[start + heading.len()..];
    &section[..section_end(section)]
}

/// Fenced blocks with `title="path"` in `section`.
fn blocks_in(section: &str) -> Vec<(&str, Vec<u8>)> {
    let mut out = Vec::new();
    let mut rest = section;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(line_end) = after.find('\n') else {
            break;
        };
        let info = &after[..line_end];
        let body_start = &after[line_end + 1..];
        let Some(close) = body_start.find("\n```") else {
            break;
        };
        let mut body = format!("{}\n", &body_start[..close]).into_bytes();
        if info.contains("escapes") {
            body = unescape(&body);
        }
        if let Some(t) = info.find("title=\"") {
            let title = &info[t + 7..];
            if let Some(end) = title.find('"') {
                out.push((&title[..end], body));
            }
        }
        rest = &body_start[close + 4..];
    }
    out
}

/// Files of one version of a repository: (path, content).
type Files<'a> = Vec<(&'a str, Vec<u8>)>;

/// The `### Before` and `### After` files of the section starting at `heading`, for pages
/// whose rule compares two versions.
fn versions<'a>(page: &'a str, heading: &str) -> (Files<'a>, Files<'a>) {
    let text = section(page, heading);
    let before = text.find("### Before");
    let after = text.find("### After");
    let part = |from: Option<usize>, to: Option<usize>| match from {
        Some(f) => blocks_in(&text[f..to.filter(|t| *t > f).unwrap_or(text.len())]),
        None => Vec::new(),
    };
    (part(before, after), part(after, None))
}

/// Where a section ends: at the next `## ` heading outside a code fence (a `.dops` example
/// has `## Prompt` lines of its own).
fn section_end(section: &str) -> usize {
    let mut in_fence = false;
    let mut offset = 0;
    for line in section.split_inclusive('\n') {
        if line.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && offset > 0 && line.starts_with("## ") {
            return offset - 1;
        }
        offset += line.len();
    }
    section.len()
}

fn codes_for(files: &[(&str, Vec<u8>)]) -> Vec<String> {
    findings_for(files).0
}

/// `CODE path: message` of each diagnostic, and whether any of them points into a second file
/// (a related span elsewhere: the rule is checked across files).
fn findings_for(files: &[(&str, Vec<u8>)]) -> (Vec<String>, bool) {
    let repo = Repo::new();
    for (path, content) in files {
        repo.write(path, content);
    }
    let diags = match check_dir(&repo.root) {
        Ok(report) => report.diagnostics,
        Err(config_errors) => config_errors,
    };
    for d in &diags {
        // A did-you-mean carries the edit that writes what it names.
        let hint = d
            .help
            .as_deref()
            .is_some_and(|h| h.contains("did you mean"));
        assert!(
            !hint || d.fix.is_some(),
            "{} {}: {:?} without its fix",
            d.rule.code,
            d.file.display(),
            d.help
        );
    }
    let crosses = diags
        .iter()
        .any(|d| d.related.iter().any(|r| r.file.path != d.file.path));
    let lines = diags
        .iter()
        .map(|d| format!("{} {}: {}", d.rule.code, d.file.display(), d.message))
        .collect();
    (lines, crosses)
}

/// `\xNN` escapes in blocks marked `escapes`, so pages can show bytes that are not UTF-8.
fn unescape(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let hex = body
            .get(i + 2..i + 4)
            .and_then(|h| std::str::from_utf8(h).ok());
        if body[i..].starts_with(b"\\x")
            && let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 4;
            continue;
        }
        out.push(body[i]);
        i += 1;
    }
    out
}

/// Pages whose example cannot be a file in a code block (say so in their front matter).
fn example_is_untestable(page: &str) -> bool {
    page.split("\n---")
        .next()
        .is_some_and(|fm| fm.contains("\nexample: untestable"))
}

/// How a page's Example and Fix are run, from `example:` in its front matter.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The files are checked (`toolc check`).
    Check,
    /// `### Before` and `### After` are two versions, compared (`toolc diff --against`).
    Diff,
    /// `### Before` is locked (`toolc lock`; no Before: no lock), then `### After` is checked
    /// with `--locked`. A Fix that runs `toolc lock` locks the Example's After instead.
    Lock,
}

fn example_kind(page: &str) -> Kind {
    let front = page.split("\n---").next().unwrap_or("");
    if front.contains("\nexample: diff") {
        Kind::Diff
    } else if front.contains("\nexample: lock") {
        Kind::Lock
    } else {
        Kind::Check
    }
}

/// Findings of `toolc diff` from `before` to `after`, each in a repository of its own.
fn diff_codes(before: &[(&str, Vec<u8>)], after: &[(&str, Vec<u8>)]) -> Vec<String> {
    let (old, new) = (Repo::new(), Repo::new());
    for (path, content) in before {
        old.write(path, content);
    }
    for (path, content) in after {
        new.write(path, content);
    }
    let config = match toolc::Config::discover(&new.root, None) {
        Ok(c) => c,
        Err(e) => return vec![format!("config: {e}")],
    };
    let options = toolc::DiffOptions {
        cwd: new.root.clone(),
        against: Some(old.root.display().to_string()),
        ..toolc::DiffOptions::default()
    };
    match toolc::diff(&options, &config) {
        Ok(report) => report
            .report
            .diagnostics
            .iter()
            .map(|d| format!("{} {}: {}", d.rule.code, d.file.display(), d.message))
            .collect(),
        Err(e) => vec![format!("diff: {e}")],
    }
}

/// Findings of `toolc check --locked` on `after`, with `locked` locked first (none: no lock).
fn lock_codes(locked: Option<&[(&str, Vec<u8>)]>, after: &[(&str, Vec<u8>)]) -> Vec<String> {
    let repo = Repo::new();
    let config = |root: &std::path::Path| toolc::Config::discover(root, None);
    if let Some(files) = locked {
        for (path, content) in files {
            repo.write(path, content);
        }
        let Ok(c) = config(&repo.root) else {
            return vec!["config".into()];
        };
        if let Err(e) = toolc::lock(&c) {
            return vec![format!("lock: {e}")];
        }
        for (path, _) in files {
            let _ = std::fs::remove_file(repo.root.join(path));
        }
    }
    for (path, content) in after {
        repo.write(path, content);
    }
    let Ok(mut c) = config(&repo.root) else {
        return vec!["config".into()];
    };
    c.lock_required = true;
    let options = toolc::CheckOptions {
        cwd: repo.root.clone(),
        ..toolc::CheckOptions::default()
    };
    toolc::check(&options, &c)
        .diagnostics
        .iter()
        .map(|d| format!("{} {}: {}", d.rule.code, d.file.display(), d.message))
        .collect()
}

/// What the Example and the Fix of a page that compares two versions produce, or why they
/// cannot be run.
fn run_versions(page: &str, kind: Kind) -> Result<(Vec<String>, Vec<String>), String> {
    let (before, after) = versions(page, "## Example");
    if after.is_empty() {
        return Err("the Example has no `### After` block with a title=\"path\"".into());
    }
    if kind == Kind::Diff && before.is_empty() {
        return Err("the Example has no `### Before` block with a title=\"path\"".into());
    }
    let example = match kind {
        Kind::Diff => diff_codes(&before, &after),
        _ => lock_codes((!before.is_empty()).then_some(&before[..]), &after),
    };
    let (fix_before, fix_after) = versions(page, "## Fix");
    let fix_before = if fix_before.is_empty() {
        before
    } else {
        fix_before
    };
    let relock = section(page, "## Fix").contains("\ntoolc lock\n");
    let fix = match (kind, fix_after.is_empty()) {
        (Kind::Lock, true) if relock => lock_codes(Some(&after), &after),
        (_, true) => {
            return Err("the Fix has no `### After` block with a title=\"path\"".into());
        }
        (Kind::Diff, false) => diff_codes(&fix_before, &fix_after),
        (_, false) => lock_codes(Some(&fix_before), &fix_after),
    };
    Ok((example, fix))
}

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

#[test]
fn every_example_produces_exactly_its_rule_and_every_fix_nothing() {
    let mut failures = Vec::new();
    for rule in rules::all() {
        let Some(page) = rules::page(rule) else {
            continue;
        };
        if example_is_untestable(page) {
            continue;
        }
        let kind = example_kind(page);
        if kind != Kind::Check {
            match run_versions(page, kind) {
                Err(why) => failures.push(format!("{}: {why}", rule.code)),
                Ok((example, fix)) => {
                    if example.is_empty()
                        || example
                            .iter()
                            .any(|f| !f.starts_with(&format!("{} ", rule.code)))
                    {
                        failures.push(format!(
                            "{}: the Example should produce only {} but produced {example:#?}",
                            rule.code, rule.code
                        ));
                    }
                    if !fix.is_empty() {
                        failures.push(format!(
                            "{}: the Fix should produce nothing but produced {fix:#?}",
                            rule.code
                        ));
                    }
                }
            }
            continue;
        }
        let example = blocks(page, "## Example");
        if example.is_empty() {
            failures.push(format!(
                "{}: the Example has no code block with a title=\"path\"",
                rule.code
            ));
            continue;
        }
        let (found, crosses) = findings_for(&example);
        if crosses
            && !page
                .split("\n---")
                .next()
                .is_some_and(|fm| fm.contains("\nscope: "))
        {
            failures.push(format!(
                "{}: the Example's finding points into another file, so the page needs `scope:` in its front matter (what the rule checks across)",
                rule.code
            ));
        }
        if found.is_empty()
            || found
                .iter()
                .any(|f| !f.starts_with(&format!("{} ", rule.code)))
        {
            failures.push(format!(
                "{}: the Example should produce only {} but produced {found:#?}",
                rule.code, rule.code
            ));
        }
        let fix = blocks(page, "## Fix");
        if fix.is_empty() {
            failures.push(format!(
                "{}: the Fix has no code block with a title=\"path\"",
                rule.code
            ));
            continue;
        }
        let found = codes_for(&fix);
        if !found.is_empty() {
            failures.push(format!(
                "{}: the Fix should produce nothing but produced {found:#?}",
                rule.code
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each rule's constant and the family module that declares it, read from `src/rules/`.
fn declarations(root: &std::path::Path) -> std::collections::BTreeMap<String, (String, String)> {
    let mut out = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(root.join("src/rules")).expect("src/rules") {
        let path = entry.expect("entry").path();
        let Some(family) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if family == "mod" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read a family");
        for line in text.lines() {
            // `    IDENT = "CODE" "name" …;`
            let Some((ident, rest)) = line.trim().split_once(" = \"") else {
                continue;
            };
            if let Some(code) = rest.get(..6) {
                out.insert(code.to_string(), (family.to_string(), ident.to_string()));
            }
        }
    }
    out
}

/// True when `text` has `word` with no identifier character on either side.
fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word)
        .any(|(at, _)| !text[..at].ends_with(ident) && !text[at + word.len()..].starts_with(ident))
}

/// True when `text` uses the rules of `family` (`rules::family`, `rules::{…, family, …}`).
fn uses_family(text: &str, family: &str) -> bool {
    text.match_indices("rules::").any(|(at, _)| {
        let rest = &text[at + "rules::".len()..];
        match rest.strip_prefix('{') {
            Some(list) => list.split('}').next().is_some_and(|l| has_word(l, family)),
            None => rest.starts_with(family) && has_word(&rest[..family.len() + 1], family),
        }
    })
}

/// The code of `text` before its unit-test module, which names rules without emitting them.
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]\nmod tests")
        .map_or(text, |at| &text[..at])
}

#[test]
fn every_page_names_the_files_that_emit_its_rule() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let declared = declarations(root);
    let sources = source_files(root);
    let mut failures = Vec::new();
    for rule in rules::all() {
        let Some(page) = rules::page(rule) else {
            continue;
        };
        let front = page.split("\n---").next().unwrap_or("");
        let Some(source) = front.lines().find_map(|l| l.strip_prefix("source:")) else {
            failures.push(format!("{}: the front matter has no `source:`", rule.code));
            continue;
        };
        let Some((family, ident)) = declared.get(rule.code) else {
            failures.push(format!("{}: no declaration in src/rules/", rule.code));
            continue;
        };
        let files: Vec<&str> = source
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect();
        if files.is_empty() {
            failures.push(format!("{}: `source:` names no file", rule.code));
        }
        for file in files {
            let Ok(text) = std::fs::read_to_string(root.join(file)) else {
                failures.push(format!(
                    "{}: `source:` names `{file}`, which does not exist",
                    rule.code
                ));
                continue;
            };
            let text = without_tests(&text);
            // A format folder's files reach the family through their `mod.rs` alias.
            let module = root.join(file).with_file_name("mod.rs");
            let module = std::fs::read_to_string(module).unwrap_or_default();
            if !has_word(text, ident) {
                failures.push(format!("{}: `{file}` does not name `{ident}`", rule.code));
            } else if !uses_family(text, family) && !uses_family(&module, family) {
                failures.push(format!(
                    "{}: `{file}` names `{ident}` but not from `rules::{family}`",
                    rule.code
                ));
            }
        }
        // The other way: every file that names the rule from its family is listed.
        for (file, text) in &sources {
            let module = std::path::Path::new(file).with_file_name("mod.rs");
            let module = std::fs::read_to_string(root.join(module)).unwrap_or_default();
            if has_word(text, ident)
                && (uses_family(text, family) || uses_family(&module, family))
                && !source.contains(file.as_str())
                && !REFERS_WITHOUT_EMITTING.contains(&file.as_str())
            {
                failures.push(format!(
                    "{}: `{file}` names `{ident}`: list it in `source:` (or in REFERS_WITHOUT_EMITTING when it only refers to the rule)",
                    rule.code
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Files that name rules without emitting them: the security context lists the heuristics it
/// judges, the secret scan the rules a format reports itself, the server the rule it marks,
/// the security pass the rules that decide whether its costly scans run.
const REFERS_WITHOUT_EMITTING: &[&str] = &[
    "src/security/context.rs",
    "src/security/mod.rs",
    "src/security/secrets.rs",
    "src/server/convert.rs",
];

/// Every source file of `src/` outside `src/rules/`, without its tests, by its path from the
/// root.
fn source_files(root: &std::path::Path) -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, root: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("a folder of src/").flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                if rel != "src/rules" && !rel.ends_with("/tests") {
                    walk(&path, root, out);
                }
            } else if rel.ends_with(".rs") && !rel.ends_with("/tests.rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.push((rel, without_tests(&text).to_string()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root.join("src"), root, &mut out);
    out
}
