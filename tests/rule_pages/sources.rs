//! Every page names the source files that emit its rule.

use super::*;

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
