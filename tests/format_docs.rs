//! The format pages in `docs/formats/` hold what they promise: each has at least one example,
//! every example checks clean with the built binary, the first example is read as the page's
//! format, each page lists every rule of its format, and its relative links resolve.
//!
//! An example file is a fenced block right after a line `<!-- example: path/in/repo -->`.

mod common;

use std::path::{Component, Path, PathBuf};

use assert_cmd::Command;
use common::Repo;

/// One example file of a page: where it goes in the repository, and its content.
#[derive(Debug)]
struct Example {
    path: String,
    content: String,
}

fn formats_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats")
}

/// The format pages (every `.md` but the index), as (format id, text).
fn pages() -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = std::fs::read_dir(formats_dir())
        .expect("docs/formats/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .map(|p| {
            let id = p
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("page name")
                .to_string();
            (id, std::fs::read_to_string(&p).expect("read page"))
        })
        .collect();
    pages.sort();
    pages
}

/// The marked examples of a page, in order; a marker not followed by a fenced block is an error.
fn examples(page: &str) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        let Some(path) = line
            .trim()
            .strip_prefix("<!-- example:")
            .and_then(|rest| rest.strip_suffix("-->"))
        else {
            continue;
        };
        let path = path.trim().to_string();
        let fence = lines.next().unwrap_or("");
        if !fence.starts_with("```") {
            return Err(format!(
                "`{path}`: the marker must be followed by a ``` fence, found {fence:?}"
            ));
        }
        let mut content = String::new();
        let mut closed = false;
        for body in lines.by_ref() {
            if body.trim_end() == "```" {
                closed = true;
                break;
            }
            content.push_str(body);
            content.push('\n');
        }
        if !closed {
            return Err(format!("`{path}`: the fence is never closed"));
        }
        out.push(Example { path, content });
    }
    Ok(out)
}

/// A path an example may be written to: relative, without `..`.
fn inside(path: &str) -> bool {
    !path.is_empty()
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// `toolc check --format json` in `dir`: exit code and parsed output.
fn check_json(dir: &Path) -> (Option<i32>, serde_json::Value) {
    let out = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .output()
        .expect("run toolc");
    let value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout).into_owned()
        )
    });
    (out.status.code(), value)
}

fn diagnostics(report: &serde_json::Value) -> Vec<serde_json::Value> {
    report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn every_format_has_a_page() {
    let ids: Vec<String> = pages().into_iter().map(|(id, _)| id).collect();
    assert_eq!(
        ids,
        [
            "agent-md",
            "agent-skill",
            "agentcli-manifest",
            "cycod-tool",
            "dojops-dops",
            "dojops-policy",
            "dojops-tool",
            "mcp-config",
            "mcp-server",
            "mcp-tools",
            "tool-md",
            "tool-request",
        ]
    );
    let index = std::fs::read_to_string(formats_dir().join("README.md")).expect("index");
    for id in &ids {
        assert!(index.contains(&format!("]({id}.md)")), "index lacks {id}");
    }
}

#[test]
fn every_example_checks_clean_and_is_read_as_its_format() {
    for (id, page) in pages() {
        let examples = examples(&page).unwrap_or_else(|e| panic!("{id}.md: {e}"));
        assert!(!examples.is_empty(), "{id}.md has no marked example");
        let repo = Repo::new();
        for ex in &examples {
            assert!(inside(&ex.path), "{id}.md: bad example path `{}`", ex.path);
            repo.write(&ex.path, ex.content.as_bytes());
        }
        let (code, report) = check_json(&repo.root);
        assert_eq!(
            diagnostics(&report),
            Vec::<serde_json::Value>::new(),
            "{id}.md: its example is not clean"
        );
        assert_eq!(code, Some(0), "{id}.md: {report}");

        // With a byte that is not UTF-8 at its end, the first example must be an error in the
        // page's own format: proof that toolc reads that path as this format, rather than
        // ignoring the file (its content still has the format's shape, so it is claimed).
        let first = &examples[0];
        let mut bytes = first.content.as_bytes().to_vec();
        bytes.push(0xff);
        repo.write(&first.path, &bytes);
        let (code, report) = check_json(&repo.root);
        assert_eq!(code, Some(1), "{id}.md: {report}");
        let found: Vec<(String, String, String)> = diagnostics(&report)
            .iter()
            .map(|d| {
                let field = |k: &str| d[k].as_str().unwrap_or("").to_string();
                (field("code"), field("path"), field("format"))
            })
            .collect();
        assert!(
            found.contains(&("SYN007".into(), first.path.clone(), id.clone())),
            "{id}.md: `{}` made invalid UTF-8 is not read as {id}: {found:?}",
            first.path
        );
    }
}

/// The rule pages whose front matter names `format` (not `all`).
fn rules_of(format: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut codes = Vec::new();
    for entry in std::fs::read_dir(dir).expect("rules/") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("read rule");
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .map(str::trim)
                .unwrap_or("")
                .to_string()
        };
        let formats = field("formats:");
        let listed = formats
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split(',')
            .any(|f| f.trim() == format);
        if listed {
            codes.push(field("code:"));
        }
    }
    codes.sort();
    codes
}

#[test]
fn every_page_lists_the_rules_of_its_format() {
    for (id, page) in pages() {
        let codes = rules_of(&id);
        assert!(
            !codes.is_empty(),
            "no rule names {id}: is the reader broken?"
        );
        let missing: Vec<&String> = codes
            .iter()
            .filter(|c| !page.contains(&format!("[{c}](../../rules/{c}.md)")))
            .collect();
        assert!(missing.is_empty(), "{id}.md does not list {missing:?}");
    }
}

#[test]
fn relative_links_of_format_pages_resolve() {
    let dir = formats_dir();
    let mut dead = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("docs/formats/") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read page");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split('#').next().unwrap_or("").trim();
            if !target.is_empty() && !target.contains("://") && !dir.join(target).exists() {
                dead.push(format!("{}: {target}", path.display()));
            }
            rest = &rest[end..];
        }
    }
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}

#[test]
fn a_marker_without_a_fence_or_an_unclosed_fence_is_an_error() {
    assert!(examples("<!-- example: a.yaml -->\nname: x\n").is_err());
    assert!(examples("<!-- example: a.yaml -->\n```yaml\nname: x\n").is_err());
    let found =
        examples("text\n<!-- example: a/b.yaml -->\n```yaml\nname: x\n```\n").expect("one example");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].path, "a/b.yaml");
    assert_eq!(found[0].content, "name: x\n");
    assert!(!inside("../a.yaml") && !inside("/etc/a.yaml") && inside(".cycod/tools/a.yaml"));
}
