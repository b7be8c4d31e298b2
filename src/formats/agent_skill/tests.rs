//! A skill checked from in-memory files: which files its check reads (never one outside the
//! skill's folder), how they are shown, and spans inside the front matter.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::*;
use crate::fs::{DirEntry, Overlay, ReadError};

/// In-memory files under `/repo`, noting every path asked about.
struct Noting {
    files: Overlay,
    asked: Mutex<Vec<PathBuf>>,
}

impl Noting {
    fn new(files: &[(&str, &str)]) -> Noting {
        let mut overlay = Overlay::new(Box::new(crate::fs::NoFiles));
        for (path, text) in files {
            overlay.set(Path::new("/repo").join(path), text.as_bytes().to_vec());
        }
        Noting {
            files: overlay,
            asked: Mutex::new(Vec::new()),
        }
    }

    fn note(&self, path: &Path) {
        self.asked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path.to_path_buf());
    }
}

impl FileSystem for Noting {
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        self.note(path);
        self.files.read(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        self.note(path);
        self.files.is_file(path)
    }

    fn list_dir(&self, path: &Path) -> Vec<DirEntry> {
        self.note(path);
        let mut out: Vec<DirEntry> = self.files.list_dir(path);
        // The overlay lists only files: add the folders that hold buffers.
        for buffered in self.files.buffered() {
            if let Ok(rest) = buffered.strip_prefix(path)
                && let Some(first) = rest.components().next()
                && rest.components().count() > 1
            {
                let name = first.as_os_str().to_string_lossy().into_owned();
                if !out.iter().any(|e| e.name == name) {
                    out.push(DirEntry {
                        name,
                        kind: crate::fs::EntryKind::Dir,
                        executable: None,
                    });
                }
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }
}

fn check(fs: &Noting, rel: &str) -> FileResult {
    let path = Path::new("/repo").join(rel);
    let text = String::from_utf8(fs.files.read(&path).unwrap_or_default()).unwrap_or_default();
    let file = SourceFile::new(path, rel.to_string(), FormatId::AgentSkill, text);
    load(file, fs, crate::security::Passes::default())
}

fn codes(r: &FileResult) -> Vec<(&'static str, String)> {
    r.diagnostics
        .iter()
        .map(|d| (d.rule.code, d.file.slice(d.span).to_string()))
        .collect()
}

const SKILL: &str = "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user mentions PDFs.\n---\n";

#[test]
fn reads_stay_inside_the_skill_folder() {
    let body = format!(
        "{SKILL}See [up](../../secrets.md), [guide](references/GUIDE.md), [abs](/etc/passwd).\n"
    );
    let fs = Noting::new(&[
        ("skills/pdf-tools/SKILL.md", &body),
        (
            "skills/pdf-tools/references/GUIDE.md",
            "See [back](../SKILL.md) and [out](../../../x.md).\n",
        ),
        ("secrets.md", "ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"),
    ]);
    let r = check(&fs, "skills/pdf-tools/SKILL.md");
    let asked = fs.asked.lock().unwrap_or_else(|e| e.into_inner()).clone();
    assert!(
        asked
            .iter()
            .all(|p| p.starts_with("/repo/skills/pdf-tools")),
        "{asked:?}"
    );
    let found = codes(&r);
    assert_eq!(
        found,
        [
            ("SKL012", "../../secrets.md".to_string()),
            ("SKL012", "/etc/passwd".to_string()),
            ("SKL012", "../../../x.md".to_string()),
        ]
    );
    // A companion is shown by its path beside `SKILL.md`'s.
    let shown: Vec<&str> = r.companions.iter().map(|c| c.display()).collect();
    assert_eq!(shown, ["skills/pdf-tools/references/GUIDE.md"]);
}

#[test]
fn constructs_the_strict_reader_refuses_are_pointed_at() {
    let text = "---\nname: &n pdf-tools\ndescription: !!str Extracts text from PDF files. Use when the user mentions PDFs.\nmetadata:\n  id: *n\n  tags: [a, b]\n  note: \"a\\tb\" # tab in quotes is fine\n  plain: a\tb\ncompatibility: |\n  needs\ttabs in a block\n---\n";
    let fs = Noting::new(&[("s/pdf-tools/SKILL.md", text)]);
    let found: Vec<(&str, String)> = codes(&check(&fs, "s/pdf-tools/SKILL.md"))
        .into_iter()
        .filter(|(c, _)| *c == "SKL010")
        .collect();
    assert_eq!(
        found,
        [
            ("SKL010", "&n".to_string()),
            ("SKL010", "!!str".to_string()),
            ("SKL010", "*n".to_string()),
            ("SKL010", "[a, b]".to_string()),
            ("SKL010", "\t".to_string()),
        ]
    );
}

/// Found in two passes (flow collections from the tree, tags from the text), the first
/// findings by place are shown and the rest counted, as if all were held and sorted.
#[test]
fn constructs_past_the_cap_are_counted_and_the_first_by_place_shown() {
    // 500 findings: more than twice the 201 held, so the list is cut as it is found too.
    let lines: String = (0..250).map(|i| format!("  k{i}: !t [x]\n")).collect();
    let text = format!(
        "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user mentions PDFs.\nmetadata:\n{lines}---\n"
    );
    let fs = Noting::new(&[("s/pdf-tools/SKILL.md", &text)]);
    let r = check(&fs, "s/pdf-tools/SKILL.md");
    let found: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.rule.code == "SKL010")
        .collect();
    let shown: Vec<&str> = found.iter().map(|d| d.file.slice(d.span)).collect();
    let expected: Vec<&str> = ["!t", "[x]"].repeat(101);
    assert_eq!(
        shown,
        expected[..201],
        "the tag then the list, line by line"
    );
    assert!(found[..200].iter().all(|d| d.omitted == 0));
    assert_eq!(
        found[200].omitted, 300,
        "the 300 not shown, from the 201st on"
    );
    assert_eq!(found[200].file.position(found[200].span.start).line, 105);
}

#[test]
fn the_reference_cut_is_at_the_first_three_hyphens() {
    let text =
        "---\nname: pdf-tools\ndescription: Use when the user asks --- for PDFs, always.\n---\n";
    let fs = Noting::new(&[("s/pdf-tools/SKILL.md", text)]);
    let r = check(&fs, "s/pdf-tools/SKILL.md");
    let d = r
        .diagnostics
        .first()
        .map(|d| (d.rule.code, d.file.position(d.span.start)));
    assert_eq!(
        d.map(|(c, p)| (c, p.line, p.column)),
        Some(("SKL010", 3, 37))
    );
}

#[test]
fn other_scripts_and_long_lines_are_read_without_a_hitch() {
    // Letters whose upper and lower case differ in length, a long line of paths, and an
    // unclosed fence with CRLF line ends.
    let long = "`scripts/a.py` ".repeat(20_000);
    let body = format!(
        "{SKILL}See ÄBC.md, \u{212A}elvin.md and [x](ünï/\u{212A}.md).\r\n{long}\r\n```bash\r\nls\r\n"
    );
    let fs = Noting::new(&[
        ("s/pdf-tools/SKILL.md", &body),
        ("s/pdf-tools/äbc.md", "# a\n"),
        ("s/pdf-tools/kelvin.md", "# k\n"),
        ("s/pdf-tools/ünï/k.md", "# k\n"),
        ("s/pdf-tools/scripts/a.py", "print(1)\n"),
    ]);
    let started = std::time::Instant::now();
    let r = check(&fs, "s/pdf-tools/SKILL.md");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let found: Vec<(&str, String)> = codes(&r)
        .into_iter()
        .filter(|(c, _)| *c != "SKL013" && *c != "SKL014")
        .collect();
    assert_eq!(
        found,
        [
            // Links first, then the paths in the text; then the fence, read from the same
            // parse of the body (the report sorts findings by place).
            ("SKL021", "ünï/\u{212A}.md".to_string()),
            ("SKL021", "ÄBC.md".to_string()),
            ("SKL021", "\u{212A}elvin.md".to_string()),
            ("SKL022", "```bash".to_string()),
        ]
    );
}
