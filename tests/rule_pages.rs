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
#[path = "rule_pages/examples.rs"]
mod examples;
#[path = "rule_pages/pages.rs"]
mod pages;
#[path = "rule_pages/sources.rs"]
mod sources;

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
