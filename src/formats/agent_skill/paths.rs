//! Paths as skills write them, resolved to files of the skill's folder: relative to the file
//! that names them or to the skill's folder, behind a placeholder for the skill's folder
//! (`{baseDir}/x`, `${CLAUDE_SKILL_DIR}/x`, `<skill-dir>/x`), through the folder's own name
//! (`/mnt/skills/user/<name>/x`, `skills/<name>/x`), as a location (`x.py:15`), a Python
//! module (`core.gif_builder`) or a program without its extension.

use super::folder::Folder;
use super::mentions::{Form, Reference, has_extension};
use crate::analysis::paths::{clean, is_absolute_anywhere};

/// Folders above a program's own that a path it names is tried from.
const MAX_UP: usize = 16;

/// The folders the spec names for a skill's files: a path starting with one, anywhere in
/// `SKILL.md`, is meant to exist.
const SKILL_DIRS: &[&str] = &["scripts/", "references/", "assets/"];

/// Extensions of files read for what they open or import.
const CODE_EXTENSIONS: &[&str] = &[
    "py", "js", "mjs", "cjs", "ts", "tsx", "jsx", "sh", "bash", "zsh", "rb", "pl", "php", "lua",
    "html", "htm",
];

/// Where a reference may lead.
#[derive(Debug, Default)]
pub(super) struct Resolved {
    /// Paths inside the skill's folder to try, most likely first.
    pub candidates: Vec<String>,
    /// Why it leaves the skill's folder (an absolute path, `../`).
    pub outside: Option<&'static str>,
    /// The first candidate is the path as written, not a guess: missing, it may be
    /// reported.
    pub checkable: bool,
}

impl Resolved {
    fn push(&mut self, rel: String) {
        if !self.candidates.contains(&rel) {
            self.candidates.push(rel);
        }
    }
}

/// What a path is written from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    /// The folder of the file naming it.
    Here,
    /// A placeholder for the skill's folder (`{baseDir}`, `$SKILL_DIR`, `<skill-dir>`).
    Skill,
    /// Another placeholder (`$SCRIPT_DIR`, `<workspace>`).
    Other,
}

/// Where `r`, named in a file of the folder `dir` of the skill whose folder is called
/// `name`, may lead in `folder`.
pub(super) fn resolve(dir: &str, r: &Reference, name: &str, folder: &Folder) -> Resolved {
    let mut out = Resolved::default();
    let written = r.written.as_str();
    let lower = written.to_ascii_lowercase();
    if written.contains("://")
        || ["mailto:", "tel:", "data:", "javascript:"]
            .iter()
            .any(|s| lower.starts_with(s))
    {
        return out;
    }
    let path = match r.form {
        Form::Link => percent_decoded(written.split(['#', '?']).next().unwrap_or("")),
        Form::Code | Form::Prose => without_location(written.split('#').next().unwrap_or("")),
        Form::Program => written.to_string(),
    };
    if path.is_empty() {
        return out;
    }
    let (root, rest) = rooted(&path);
    match root {
        Root::Skill => match inside("", rest) {
            Ok(rel) => {
                out.push(rel);
                out.checkable = true;
            }
            Err(why) => out.outside = Some(why),
        },
        Root::Other => {
            for base in [dir, ""] {
                if let Ok(rel) = inside(base, rest) {
                    out.push(rel);
                }
            }
        }
        Root::Here => match inside(dir, &path) {
            Ok(rel) => {
                out.push(rel);
                out.checkable = true;
                // A path in text is tried from the skill's folder too: agents run from there.
                // A program may name a file from any folder above its own
                // (`Path(__file__).parent.parent / "schemas"`).
                let bases: Vec<&str> = match r.form {
                    Form::Link => Vec::new(),
                    Form::Program => {
                        // The nearest folders only: each word of a script 800 folders deep
                        // was tried from each of them (2,000 words: 22 s).
                        let mut up: Vec<&str> = super::folder::ancestors(dir).collect();
                        up.reverse();
                        up.truncate(MAX_UP);
                        up.push("");
                        up
                    }
                    Form::Code | Form::Prose => vec![""],
                };
                for base in bases {
                    if let Ok(rel) = inside(base, &path) {
                        out.push(rel);
                    }
                }
            }
            Err(why) => out.outside = Some(why),
        },
    }
    if (r.form != Form::Link || out.outside.is_some())
        && let Some(rest) = after_name(&path, name)
        && let Ok(rel) = inside("", rest)
    {
        out.push(rel);
    }
    if r.form != Form::Link {
        for module in modules(&path) {
            for base in [dir, ""] {
                if let Ok(rel) = inside(base, &module) {
                    out.push(rel);
                }
            }
        }
    }
    if r.form == Form::Program && !has_extension(rest.rsplit('/').next().unwrap_or(rest)) {
        for base in [dir, ""] {
            if let Ok(rel) = inside(base, rest) {
                for f in folder.with_stem(&rel) {
                    out.push(f.clone());
                }
            }
        }
    }
    out
}

/// `path` split into what it is written from and the rest (`{baseDir}/x.md` → the skill's
/// folder and `x.md`).
fn rooted(path: &str) -> (Root, &str) {
    let Some((first, rest)) = path.split_once('/') else {
        return (Root::Here, path);
    };
    let inner = first
        .strip_prefix("${")
        .and_then(|p| p.strip_suffix('}'))
        .or_else(|| first.strip_prefix("{{").and_then(|p| p.strip_suffix("}}")))
        .or_else(|| first.strip_prefix('{').and_then(|p| p.strip_suffix('}')))
        .or_else(|| first.strip_prefix('<').and_then(|p| p.strip_suffix('>')))
        .or_else(|| first.strip_prefix('%').and_then(|p| p.strip_suffix('%')))
        .or_else(|| {
            first.strip_prefix('$').filter(|p| {
                !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        });
    match inner {
        Some(name) => {
            let name = name.to_lowercase();
            if name.contains("skill") || name.contains("base") {
                (Root::Skill, rest)
            } else {
                (Root::Other, rest)
            }
        }
        None => (Root::Here, path),
    }
}

/// `path` without its placeholder for the skill's folder (`x.md` for `{baseDir}/x.md`).
pub(super) fn skill_relative(path: &str) -> Option<&str> {
    match rooted(path) {
        (Root::Skill, rest) => Some(rest),
        _ => None,
    }
}

/// What follows the skill's own folder name in `path`, when a folder of the path has that
/// name (`/mnt/skills/user/pdf/x.sh`, `skills/pdf/x.md` for the skill `pdf`).
fn after_name<'p>(path: &'p str, name: &str) -> Option<&'p str> {
    if name.is_empty() {
        return None;
    }
    let mut found = None;
    let mut at = 0;
    for part in path.split('/') {
        at += part.len() + 1;
        if part == name && at < path.len() {
            found = path.get(at..);
        }
    }
    found.filter(|rest| !rest.is_empty())
}

/// The file paths a Python module name may be (`core/gif_builder.py` for `core.gif_builder`).
fn modules(word: &str) -> Vec<String> {
    let parts: Vec<&str> = word.split('.').collect();
    let identifier =
        |p: &&str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if parts.len() < 2 || !parts.iter().all(identifier) {
        return Vec::new();
    }
    let path = parts.join("/");
    vec![format!("{path}.py"), format!("{path}/__init__.py")]
}

/// `path` inside the skill's folder from the folder `dir`, cleaned (`""` for the folder
/// itself); why not when it is absolute or climbs out.
fn inside(dir: &str, path: &str) -> Result<String, &'static str> {
    if is_absolute_anywhere(path) || path.starts_with('~') {
        return Err("is an absolute path, outside the skill's folder");
    }
    let joined = if dir.is_empty() {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    };
    let cleaned = clean(&joined);
    if cleaned == ".." || cleaned.starts_with("../") {
        return Err("climbs out of the skill's folder");
    }
    Ok(if cleaned == "." {
        String::new()
    } else {
        cleaned
    })
}

/// `x.py` for `x.py:15` and `x.py:15:3`: a location in a file names the file.
fn without_location(word: &str) -> String {
    let mut path = word;
    for _ in 0..2 {
        if let Some((head, tail)) = path.rsplit_once(':')
            && !tail.is_empty()
            && tail.chars().all(|c| c.is_ascii_digit())
        {
            path = head;
        }
    }
    path.to_string()
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
pub(super) fn dir_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// A file read for its links (rather than as code).
pub(super) fn is_markdown(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    [".md", ".markdown", ".mdx", ".txt"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// A file read for what it opens or imports: a program, or a page that loads scripts.
pub(super) fn is_code(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => {
            CODE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
        }
        _ => rel.starts_with("scripts/"),
    }
}

/// A program (a script the agent may run), not a page a program reads.
pub(super) fn is_program(rel: &str) -> bool {
    is_code(rel)
        && !rel.to_ascii_lowercase().ends_with(".html")
        && !rel.to_ascii_lowercase().ends_with(".htm")
}

/// A path with no placeholder or wildcard (`scripts/<name>.py`, `rules/*.md` are patterns).
pub(super) fn complete(path: &str) -> bool {
    !path.contains(['<', '>', '{', '}', '$', '*', '[', ']', '…']) && !path.contains("...")
}

/// A path to a file of a skill's own folders (`scripts/run.py`), complete enough to check.
pub(super) fn names_skill_dir(rel: &str) -> bool {
    SKILL_DIRS
        .iter()
        .any(|d| rel.strip_prefix(d).is_some_and(|rest| !rest.is_empty()))
        && !rel.ends_with('/')
        && complete(rel)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::agent_skill::mentions::Run;
    use crate::source::Span;

    fn resolved(dir: &str, written: &str, form: Form) -> (Vec<String>, bool, bool) {
        let r = Reference {
            written: written.to_string(),
            span: Span::point(0),
            form,
            aside: false,
            cue: false,
            run: Run::Not,
        };
        let out = resolve(dir, &r, "pdf", &Folder::default());
        (out.candidates, out.checkable, out.outside.is_some())
    }

    #[test]
    fn where_paths_lead() {
        let c = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            resolved("", "https://x.example/a", Form::Link),
            (c(&[]), false, false)
        );
        assert_eq!(resolved("", "#usage", Form::Link), (c(&[]), false, false));
        assert_eq!(
            resolved("", "/etc/passwd", Form::Link),
            (c(&[]), false, true)
        );
        assert_eq!(
            resolved("references", "../scripts/a%20b.py#L1", Form::Link),
            (c(&["scripts/a b.py"]), true, false)
        );
        assert_eq!(
            resolved("references", "{baseDir}/references/x.md", Form::Link),
            (c(&["references/x.md"]), true, false)
        );
        assert_eq!(
            resolved("references", "scripts/x.py:15", Form::Code),
            (c(&["references/scripts/x.py", "scripts/x.py"]), true, false)
        );
        assert_eq!(
            resolved("", "/mnt/skills/user/pdf/resources/run.sh", Form::Code),
            (c(&["resources/run.sh"]), false, true)
        );
        assert_eq!(
            resolved("", "<workspace>/out.json", Form::Code),
            (c(&["out.json"]), false, false)
        );
        assert_eq!(
            resolved("", "core.gif_builder", Form::Code),
            (
                c(&[
                    "core.gif_builder",
                    "core/gif_builder.py",
                    "core/gif_builder/__init__.py"
                ]),
                true,
                false
            )
        );
        assert_eq!(
            resolved("tools/scripts", "schemas", Form::Program),
            (
                c(&["tools/scripts/schemas", "tools/schemas", "schemas"]),
                true,
                false
            )
        );
        assert_eq!(
            resolved("scripts", "$SCRIPT_DIR/server.cjs", Form::Program),
            (c(&["scripts/server.cjs", "server.cjs"]), false, false)
        );
    }

    #[test]
    fn paths_to_check() {
        assert!(names_skill_dir("scripts/run.sh"));
        assert!(!names_skill_dir("scripts/"));
        assert!(!names_skill_dir("scripts/<name>.py"));
        assert!(!names_skill_dir("src/scripts/run.sh"));
        assert_eq!(without_location("a/b.py:15:3"), "a/b.py");
        assert_eq!(without_location("c:d"), "c:d");
    }
}
