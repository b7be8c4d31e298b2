//! Files `SKILL.md` names as a family rather than one by one: by a path pattern
//! (`rules/<id>.md`, `references/{name}.md`, `references/<prefix>-*.md`, `rules/*.md`), or by
//! id, where `SKILL.md` points into a folder and lists the other files of it, in code, by
//! their names without extension (`async-parallel`, beside `rules/async-parallel.md`) or by
//! a prefix they share (`query-`). The agent reads the one it needs.

use std::collections::{BTreeSet, HashSet};

use super::Cx;
use super::layout::Layout;

/// Path patterns of one `SKILL.md` matched at most.
const MAX_PATTERNS: usize = 100;
use super::paths;

impl Cx<'_> {
    /// The files of the families that `text` (`SKILL.md`, its body from `body_start`) names;
    /// `dirs` are the folders its references point into.
    pub(super) fn families(
        &self,
        text: &str,
        body_start: usize,
        dirs: &BTreeSet<String>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        // Each pattern once, and a bounded number of them: each is matched against the
        // files of its folder.
        let patterns: BTreeSet<&str> = pattern_words(text).take(MAX_PATTERNS).collect();
        for word in patterns {
            let Some(pattern) = Pattern::parse(word) else {
                continue;
            };
            out.extend(
                self.folder
                    .files_under(&pattern.base)
                    .filter(|f| pattern.matches(f))
                    .cloned(),
            );
        }
        // Not the skill's own folder: any word would name a file there (`metadata`).
        let named: Vec<&String> = dirs
            .iter()
            .filter(|d| !d.is_empty() && self.folder.dirs.contains(*d))
            .collect();
        if named.is_empty() {
            // No folder to list: the body is not read for code again (a body of megabytes
            // was parsed a second time here for nothing).
            return out;
        }
        // Ids are written as code (`async-parallel`): a word of prose ("cropping") that is
        // also a file's name is not a reference to it.
        // Only its code is read here, not what its headings say.
        let layout = Layout::read(text, body_start, |_| false);
        let tokens: HashSet<&str> = layout
            .codes()
            .iter()
            .flat_map(|c| tokens(text.get(c.span.start..c.span.end).unwrap_or("")))
            .collect();
        for dir in named {
            for f in self.folder.files_in(dir) {
                let name = f.get(dir.len() + 1..).unwrap_or("");
                let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
                if tokens.contains(stem) || prefixes(stem).any(|p| tokens.contains(p)) {
                    out.push(f.clone());
                }
            }
        }
        out
    }
}

/// A path with placeholders or wildcards in it, matched one folder level at a time.
#[derive(Debug)]
struct Pattern {
    /// The folders before the first wildcard (`references` in `references/<x>.md`).
    base: String,
    /// Every level, each a glob with `*` for every placeholder or wildcard.
    levels: Vec<String>,
}

impl Pattern {
    /// `word` as a pattern, when it has a placeholder or wildcard after a plain folder.
    fn parse(word: &str) -> Option<Pattern> {
        let path = paths::skill_relative(word).unwrap_or(word);
        let path = path.trim_start_matches("./");
        let levels: Vec<String> = path.split('/').map(glob).collect();
        let plain = levels.iter().take_while(|l| !l.contains('*')).count();
        if plain == 0 || plain == levels.len() || levels.last().is_some_and(String::is_empty) {
            return None;
        }
        Some(Pattern {
            base: levels[..plain].join("/"),
            levels,
        })
    }

    fn matches(&self, rel: &str) -> bool {
        let parts: Vec<&str> = rel.split('/').collect();
        let levels: Vec<&str> = self.levels.iter().map(String::as_str).collect();
        match_levels(&levels, &parts)
    }
}

/// Levels of a pattern against the parts of a path; `**` takes any number of folders. Read a
/// level at a time over every part at once: trying each way a `**` could go, one after
/// another, took time exponential in the `**`s (a pattern of 17 of them: minutes).
fn match_levels(levels: &[&str], parts: &[&str]) -> bool {
    // reach[j]: the levels so far can take exactly the first j parts.
    let mut reach = vec![false; parts.len() + 1];
    reach[0] = true;
    for level in levels {
        let mut next = vec![false; parts.len() + 1];
        if *level == "**" {
            let mut any = false;
            for (to, from) in next.iter_mut().zip(&reach) {
                any |= *from;
                *to = any;
            }
        } else {
            for (j, part) in parts.iter().enumerate() {
                next[j + 1] = reach[j] && matches_glob(level, part);
            }
        }
        if !next.contains(&true) {
            return false;
        }
        reach = next;
    }
    reach[parts.len()]
}

/// One level of a path with each placeholder (`<id>`, `{name}`, `${x}`, `$X`, `[n]`) as `*`.
fn glob(level: &str) -> String {
    let mut out = String::new();
    let mut chars = level.chars().peekable();
    while let Some(c) = chars.next() {
        let close = match c {
            '<' => Some('>'),
            '{' => Some('}'),
            '[' => Some(']'),
            _ => None,
        };
        if let Some(close) = close {
            for n in chars.by_ref() {
                if n == close {
                    break;
                }
            }
            push_star(&mut out);
        } else if c == '$' {
            while chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == '_')
            {
                chars.next();
            }
            if chars.peek() != Some(&'{') {
                push_star(&mut out);
            }
        } else if c == '*' || c == '…' {
            push_star(&mut out);
        } else {
            out.push(c);
        }
    }
    if level == "**" {
        return "**".to_string();
    }
    out
}

fn push_star(out: &mut String) {
    if !out.ends_with('*') {
        out.push('*');
    }
}

/// `name` against a glob whose only wildcard is `*` (any text), in linear time: on a
/// mismatch, the last `*` takes one more character.
fn matches_glob(glob: &str, name: &str) -> bool {
    let (g, n): (Vec<char>, Vec<char>) = (glob.chars().collect(), name.chars().collect());
    let (mut gi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if gi < g.len() && g[gi] == '*' {
            star = Some((gi, ni));
            gi += 1;
        } else if gi < g.len() && g[gi] == n[ni] {
            gi += 1;
            ni += 1;
        } else if let Some((sg, sn)) = star {
            gi = sg + 1;
            ni = sn + 1;
            star = Some((sg, sn + 1));
        } else {
            return false;
        }
    }
    g[gi..].iter().all(|c| *c == '*')
}

/// Words of `text` that may be path patterns: split on white space, quotes and brackets,
/// with `/` and a placeholder or wildcard in them.
fn pattern_words(text: &str) -> impl Iterator<Item = &str> {
    // Trimming only takes characters away: a word without a `/` and a placeholder mark is
    // left before it is trimmed (setting up the trims for every word of a body of a million
    // blocks was 6 % of its check).
    let marked = |w: &&str| w.contains('/') && w.contains(['*', '<', '{', '[', '$', '…']);
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, '`' | '\'' | '"' | '(' | ')' | '|' | ',' | ';')
    })
    .filter(marked)
    .map(|w| {
        w.trim_end_matches(['.', ':'])
            .trim_start_matches("**")
            .trim_end_matches("**")
    })
    .filter(marked)
}

/// The words of `text` that may be names of files without extension: letters, digits, `-`,
/// `_` and inner dots (`async-parallel`, `query-`).
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| w.len() >= 3)
}

/// The prefixes of `stem` that end at a `-` or `_` (`query-` and `query-missing-` of
/// `query-missing-indexes`), three characters at least.
fn prefixes(stem: &str) -> impl Iterator<Item = &str> {
    stem.char_indices()
        .filter(|(i, c)| *i >= 2 && matches!(c, '-' | '_'))
        .map(|(i, c)| &stem[..i + c.len_utf8()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, rel: &str) -> bool {
        Pattern::parse(pattern).is_some_and(|p| p.matches(rel))
    }

    #[test]
    fn patterns_match_the_files_they_name() {
        assert!(matches("rules/<id>.md", "rules/async-parallel.md"));
        assert!(matches("rules/{id}.md", "rules/a.md"));
        assert!(matches(
            "references/<prefix>-*.md",
            "references/query-index.md"
        ));
        assert!(!matches(
            "references/<prefix>-*.md",
            "references/_template.md"
        ));
        assert!(matches("{baseDir}/references/*.md", "references/x.md"));
        assert!(matches("docs/**/*.md", "docs/a/b/c.md"));
        assert!(!matches("rules/*.md", "rules/a/b.md"));
        assert!(!matches("rules/*.md", "other/a.md"));
        assert!(matches("docs/**/*.md", "docs/c.md") && matches("docs/**", "docs/a/b"));
        assert!(matches("docs/**/x/**/*.md", "docs/a/x/b/x/c.md"));
        assert!(!matches("docs/**/x/**/*.md", "docs/a/b/c.md"));
        // Thirty `**` against a path of thirty folders that none fits: at once.
        let deep = format!("scripts/{}/z*.py", ["**"; 30].join("/"));
        let path = format!("scripts/{}/f.txt", ["a"; 30].join("/"));
        assert!(!matches(&deep, &path));
        // A pattern needs a plain folder before its wildcard, and a wildcard.
        assert!(Pattern::parse("*/x.md").is_none() && Pattern::parse("rules/a.md").is_none());
    }

    #[test]
    fn globs() {
        assert!(matches_glob("*-*.md", "query-index.md"));
        assert!(matches_glob("a*b*c", "aXbYbZc"));
        assert!(!matches_glob("a*b", "aXc"));
        assert_eq!(glob("${id}.md"), "*.md");
        assert_eq!(glob("<prefix>-*.md"), "*-*.md");
    }

    #[test]
    fn ids_and_prefixes() {
        let t: HashSet<&str> =
            tokens("- `async-parallel` - Use Promise.all(). Prefix `query-`.").collect();
        assert!(t.contains("async-parallel") && t.contains("query-") && t.contains("Promise.all"));
        let p: Vec<&str> = prefixes("query-missing_indexes").collect();
        assert_eq!(p, ["query-", "query-missing_"]);
        assert_eq!(prefixes("_template").count(), 0);
    }
}
