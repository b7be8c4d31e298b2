//! What `SKILL.md` leads to: links and paths named in it and, one step further each time, in
//! the files it links. Broken ones (SKL011), ones that leave the skill's folder (SKL012),
//! and files reached only through another file (SKL015); what nothing leads to is in
//! `unreferenced`.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

use super::{Cx, rules};
use crate::analysis::names::did_you_mean;
use crate::analysis::paths::{clean, is_absolute_anywhere};
use crate::diagnostics::{Applicability, Fix};
use crate::source::{SourceFile, Span};
use crate::syntax::markdown::links;

/// Files followed at most for one skill, so a skill of thousands of pages stays quick.
const MAX_FOLLOWED: usize = 200;

/// The folders the spec names for a skill's files: a path starting with one, anywhere in
/// `SKILL.md`, is meant to exist.
const SKILL_DIRS: &[&str] = &["scripts/", "references/", "assets/"];

/// One reference in a file of the skill.
struct Reference {
    /// The path as written (fragment and query kept).
    written: String,
    /// Where it is written.
    span: Span,
    /// A Markdown link (rather than a path mentioned in text).
    link: bool,
}

/// Where a reference leads.
enum Target {
    /// Not a path (a URL, an anchor in the same page).
    External,
    /// Outside the skill's folder: why, for the message.
    Outside(&'static str),
    /// A path inside the skill's folder (cleaned; `""` for the folder itself).
    Inside(String),
}

/// A file of the skill being followed.
struct Doc {
    rel: String,
    file: Arc<SourceFile>,
    /// Steps from `SKILL.md` (0 for `SKILL.md` itself).
    depth: usize,
    /// Where its Markdown starts (after `SKILL.md`'s front matter).
    body_start: usize,
}

impl Cx<'_> {
    /// Follow every reference from `SKILL.md` (its body starting at `body_start`), and
    /// report what nothing leads to at `anchor`. `license` may name a bundled file.
    pub(super) fn references(&mut self, body_start: usize, anchor: Span) {
        let mut depth_of: HashMap<String, usize> = HashMap::from([("SKILL.md".to_string(), 0)]);
        let mut reached_dirs: BTreeSet<String> = BTreeSet::new();
        let mut queue = VecDeque::from([Doc {
            rel: "SKILL.md".to_string(),
            file: Arc::clone(self.file),
            depth: 0,
            body_start,
        }]);
        let mut followed = 0;
        let mut linked_scripts: BTreeSet<String> = BTreeSet::new();
        let stems = stems(&self.folder.files);
        while let Some(doc) = queue.pop_front() {
            let markdown = is_markdown(&doc.rel);
            for r in self.references_in(&doc, markdown, &stems) {
                let target = resolve(dir_of(&doc.rel), &r.written);
                let rel = match target {
                    Target::External => continue,
                    Target::Outside(why) => {
                        if r.link && markdown {
                            self.outside(&doc.file, &r, why);
                        }
                        continue;
                    }
                    Target::Inside(rel) => rel,
                };
                // A mention is tried from the skill's root too: agents run from there.
                let rel = if self.folder.exists(&rel) || r.link {
                    rel
                } else {
                    match resolve("", &r.written) {
                        Target::Inside(from_root) => from_root,
                        _ => rel,
                    }
                };
                if self.folder.dirs.contains(&rel) {
                    reached_dirs.insert(rel);
                    continue;
                }
                if !self.folder.files.contains_key(&rel) {
                    let meant =
                        markdown && (r.link || (doc.depth == 0 && names_skill_dir(&r.written)));
                    if !self.folder.exists(&rel) {
                        if meant && !self.folder.truncated {
                            self.broken(&doc, &r, &rel);
                        }
                    } else if meant && linked_scripts.insert(rel.clone()) {
                        // A link (or a path through one): where it leads, for SEC003.
                        self.linked_script(&doc.file, r.span, &rel);
                    }
                    continue;
                }
                if depth_of.contains_key(&rel) {
                    continue;
                }
                let depth = doc.depth + 1;
                depth_of.insert(rel.clone(), depth);
                if depth == 2 && markdown {
                    self.too_deep(&doc, &r, &rel);
                }
                if followed < MAX_FOLLOWED
                    && (is_markdown(&rel) || rel.starts_with("scripts/"))
                    && let Some(file) = self.companion(&rel)
                {
                    followed += 1;
                    queue.push_back(Doc {
                        rel,
                        file,
                        depth,
                        body_start: 0,
                    });
                }
            }
        }
        if !self.folder.truncated {
            self.unreferenced(&depth_of, &reached_dirs, anchor);
        }
    }

    /// The links (in Markdown) and path-like words of a followed file; in code, also the
    /// words that are the stem of a file beside it (`import nba_api` for `nba_api.py`).
    fn references_in(&self, doc: &Doc, markdown: bool, stems: &Stems) -> Vec<Reference> {
        let text = doc.file.text.as_str();
        let mut out: Vec<Reference> = if markdown {
            links(text, doc.body_start)
                .into_iter()
                .map(|l| Reference {
                    written: l.dest,
                    span: l.span,
                    link: true,
                })
                .collect()
        } else {
            Vec::new()
        };
        let link_spans: Vec<Span> = out.iter().map(|r| r.span).collect();
        for (span, word) in words(text) {
            if link_spans
                .iter()
                .any(|l| l.start <= span.start && span.start < l.end)
            {
                continue;
            }
            if looks_like_path(word) {
                out.push(Reference {
                    written: word.to_string(),
                    span,
                    link: false,
                });
            } else if !markdown
                && let Some(sibling) = stems.get(&match dir_of(&doc.rel) {
                    "" => word.to_string(),
                    dir => format!("{dir}/{word}"),
                })
            {
                out.push(Reference {
                    written: sibling.clone(),
                    span,
                    link: false,
                });
            }
        }
        out
    }

    /// SKL012.
    fn outside(&mut self, file: &Arc<SourceFile>, r: &Reference, why: &str) {
        let d = crate::diagnostics::Diagnostic::new(
            &rules::REFERENCE_OUTSIDE_SKILL,
            file,
            r.span,
            format!("`{}` {why}", r.written),
        )
        .label("outside the skill")
        .note("a skill is installed by copying its folder (into `~/.claude/skills/`, a plugin, another repository): a file outside it is not there")
        .help("copy the file into the skill (under `references/` or `assets/`) and link it by a path inside the folder");
        self.push(d);
    }

    /// SKL011, with the closest file of the skill as a suggestion.
    fn broken(&mut self, doc: &Doc, r: &Reference, rel: &str) {
        let suggestion =
            did_you_mean(rel, self.folder.files.keys().map(String::as_str)).map(str::to_string);
        let fix = suggestion.as_ref().and_then(|s| {
            // Only a plain path written from the skill's root can be replaced as it is.
            (doc.depth == 0
                && doc.file.slice(r.span) == r.written
                && clean(&r.written) == rel
                && !r.written.contains(['#', '?', '%']))
            .then(|| {
                Fix::replace(Applicability::Unsafe, r.span, s.clone())
                    .with_message(format!("point it at `{s}`"))
            })
        });
        let what = if r.link { "links to" } else { "names" };
        let d = crate::diagnostics::Diagnostic::new(
            &rules::BROKEN_REFERENCE,
            &doc.file,
            r.span,
            format!("`{}` {what} `{rel}`, which is not in the skill's folder", doc.rel),
        )
        .label("no such file")
        .note("the agent follows this path when it uses the skill and finds nothing there")
        .help(match &suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None => "add the file to the skill, or correct the path (paths are relative to the file that names them, and case matters)".to_string(),
        })
        .maybe_fix(fix);
        self.push(d);
    }

    /// SKL015.
    fn too_deep(&mut self, doc: &Doc, r: &Reference, rel: &str) {
        let d = crate::diagnostics::Diagnostic::new(
            &rules::DEEP_REFERENCE_CHAIN,
            &doc.file,
            r.span,
            format!("`{rel}` is reached only through `{}`, two steps from `SKILL.md`", doc.rel),
        )
        .label("second-level reference")
        .note("agents load referenced files on demand and may not follow a chain: the spec keeps references one level deep from `SKILL.md`")
        .help(format!("link `{rel}` from `SKILL.md` directly"));
        self.push(d);
    }
}

/// File names by path without extension (`scripts/nba_api` → `nba_api.py`), for code that
/// names a module without its extension.
type Stems = HashMap<String, String>;

fn stems<V>(files: &std::collections::BTreeMap<String, V>) -> Stems {
    files
        .keys()
        .filter_map(|f| {
            let name = f.rsplit('/').next().unwrap_or(f);
            let (stem, _) = name.rsplit_once('.')?;
            let path = &f[..f.len() - name.len() + stem.len()];
            (stem.len() >= 3).then(|| (path.to_string(), name.to_string()))
        })
        .collect()
}

/// Where `written` (as found in a file of folder `dir`) leads.
fn resolve(dir: &str, written: &str) -> Target {
    let lower = written.to_ascii_lowercase();
    if written.contains("://")
        || ["mailto:", "tel:", "data:", "javascript:"]
            .iter()
            .any(|s| lower.starts_with(s))
    {
        return Target::External;
    }
    let path = written.split(['#', '?']).next().unwrap_or("");
    if path.is_empty() {
        return Target::External;
    }
    let path = percent_decoded(path);
    if is_absolute_anywhere(&path) || path.starts_with('~') {
        return Target::Outside("is an absolute path, outside the skill's folder");
    }
    let joined = if dir.is_empty() {
        path
    } else {
        format!("{dir}/{path}")
    };
    let cleaned = clean(&joined);
    if cleaned == ".." || cleaned.starts_with("../") {
        return Target::Outside("climbs out of the skill's folder");
    }
    Target::Inside(if cleaned == "." {
        String::new()
    } else {
        cleaned
    })
}

/// `%20` and other escapes of a link destination decoded (invalid ones kept as written).
fn percent_decoded(path: &str) -> String {
    if !path.contains('%') {
        return path.to_string();
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The folder of a `/`-separated relative path (`""` at the root).
fn dir_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// A file read for its links (rather than as code).
fn is_markdown(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    [".md", ".markdown", ".mdx", ".txt"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// A word that names a file of a skill's own folders (`scripts/run.py`), complete enough to
/// check (no placeholder such as `<name>` or `*`).
fn names_skill_dir(written: &str) -> bool {
    let path = written.trim_start_matches("./");
    SKILL_DIRS
        .iter()
        .any(|d| path.strip_prefix(d).is_some_and(|rest| !rest.is_empty()))
        && !path.ends_with('/')
        && !path.contains(['<', '>', '{', '}', '$', '*', '[', ']', '…'])
        && !path.contains("...")
}

/// A word that may be a relative path: it has a `/` or a file extension.
fn looks_like_path(word: &str) -> bool {
    if word.contains("://") || word.starts_with(['#', '@', '$', '-']) {
        return false;
    }
    let name = word.rsplit('/').next().unwrap_or(word);
    word.contains('/')
        || name.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// Words of `text` that could be paths, split on whitespace, quotes, brackets and Markdown
/// emphasis, with trailing sentence punctuation dropped.
fn words(text: &str) -> impl Iterator<Item = (Span, &str)> + '_ {
    let is_break = |c: char| c.is_whitespace() || "`'\"()[]<>{},;|*=".contains(c);
    let mut start: Option<usize> = None;
    let mut chars = text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')));
    std::iter::from_fn(move || {
        for (i, c) in chars.by_ref() {
            match (is_break(c), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    start = None;
                    let w = text[s..i].trim_end_matches(['.', ':', '!', '?']);
                    let lead = w.len() - w.trim_start_matches("./").len();
                    let w = &w[lead..];
                    if !w.is_empty() {
                        return Some((Span::new(s + lead, s + lead + w.len()), w));
                    }
                }
                _ => {}
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert!(matches!(
            resolve("", "https://x.example/a"),
            Target::External
        ));
        assert!(matches!(resolve("", "#usage"), Target::External));
        assert!(matches!(resolve("", "/etc/passwd"), Target::Outside(_)));
        assert!(matches!(
            resolve("references", "../../x.md"),
            Target::Outside(_)
        ));
        assert!(
            matches!(resolve("references", "../scripts/a%20b.py#L1"), Target::Inside(p) if p == "scripts/a b.py")
        );
        assert!(matches!(resolve("", "./"), Target::Inside(p) if p.is_empty()));
    }

    #[test]
    fn words_that_may_be_paths() {
        let text = "Run `python scripts/extract.py` on **references/A.md**. See (assets/) too.";
        let found: Vec<&str> = words(text)
            .map(|(_, w)| w)
            .filter(|w| looks_like_path(w))
            .collect();
        assert_eq!(found, ["scripts/extract.py", "references/A.md", "assets/"]);
        for (span, w) in words(text) {
            assert_eq!(&text[span.start..span.end], w);
        }
        assert!(names_skill_dir("./scripts/run.sh"));
        assert!(!names_skill_dir("scripts/"));
        assert!(!names_skill_dir("scripts/<name>.py"));
        assert!(!names_skill_dir("src/scripts/run.sh"));
    }
}
