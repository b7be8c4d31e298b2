//! The unit tests of `mentions.rs`.

use super::*;

fn found(text: &str) -> Vec<(String, Form, bool, Run)> {
    in_markdown(text, 0, None, usize::MAX)
        .1
        .filter(|r| r.written.contains('/'))
        .map(|r| (r.written, r.form, r.aside, r.run))
        .collect()
}

#[test]
fn past_the_limit_neither_links_nor_the_words_after_them_are_listed() {
    let text = "See `a/x.sh`, [b](b.md), [c](c.md) and `d/y.sh`.";
    let (cut, refs) = in_markdown(text, 0, None, 1);
    let written: Vec<String> = refs.map(|r| r.written).collect();
    assert_eq!(written, ["b.md", "a/x.sh"]);
    assert_eq!(cut.map(|s| &text[s.start..s.end]), Some("[c](c.md)"));
}

#[test]
fn words_keep_placeholders_and_drop_punctuation() {
    let text = "Run `python scripts/extract.py` on **references/A.md**. See (assets/) and {baseDir}/x.md, <skill-dir>/s.sh.";
    let all: Vec<&str> = words(text)
        .map(|(_, w)| w)
        .filter(|w| might_be_path(w))
        .collect();
    assert_eq!(
        all,
        [
            "scripts/extract.py",
            "references/A.md",
            "assets/",
            "{baseDir}/x.md",
            "<skill-dir>/s.sh"
        ]
    );
    for (span, w) in words(text) {
        assert_eq!(&text[span.start..span.end], w);
    }
}

#[test]
fn how_paths_are_run() {
    use Form::{Code, Prose};
    let text = "Run scripts/a.py now.\n\
                | `scripts/b.py` | `uv run scripts/b.py --x` |\n\
                ```bash\nscripts/c.sh --fast\n```\n\
                ```\nreferences/d.md\n./scripts/e.sh\n```\n\
                Load it:\n```js\nrequire(\"./scripts/g.js\")\n```\n\
                Run `./scripts/h.sh` first; `./scripts/i.py` holds the helpers.\n\
                Never include `./scripts/deploy.sh` (e.g. `scripts/f.sh`).\n";
    let direct = |literal| Run::Direct { literal };
    let want: Vec<(String, Form, bool, Run)> = vec![
        ("scripts/a.py".into(), Prose, false, direct(false)),
        ("scripts/b.py".into(), Code, false, Run::Not),
        (
            "scripts/b.py".into(),
            Code,
            false,
            Run::Through("uv".into()),
        ),
        ("scripts/c.sh".into(), Code, false, direct(true)),
        ("references/d.md".into(), Code, false, Run::Not),
        ("scripts/e.sh".into(), Code, false, direct(true)),
        ("scripts/g.js".into(), Code, false, Run::Not),
        ("scripts/h.sh".into(), Code, false, direct(true)),
        ("scripts/i.py".into(), Code, false, Run::Not),
        ("scripts/deploy.sh".into(), Code, true, Run::Not),
        ("scripts/f.sh".into(), Code, true, Run::Not),
    ];
    assert_eq!(found(text), want);
}

#[test]
fn templates_and_files_to_make_are_aside() {
    let text = "## Output Format\n\n- **Location**: `scripts/tool.py:15`\n\n## Steps\n\n\
                Create `scripts/new.py` with the code.\n\
                ```markdown\nSee scripts/x.py\n```\n\
                Don't edit by hand; run `scripts/gen.sh --all`.\n";
    let asides: Vec<(String, bool)> = found(text).into_iter().map(|(w, _, a, _)| (w, a)).collect();
    assert_eq!(
        asides,
        [
            ("scripts/tool.py:15".to_string(), true),
            ("scripts/new.py".to_string(), true),
            ("scripts/x.py".to_string(), true),
            ("scripts/gen.sh".to_string(), false),
        ]
    );
}

#[test]
fn clauses_and_whole_words() {
    assert_eq!(clause("never do x; run "), " run ");
    assert_eq!(clause("(e.g. a b "), "(e.g. a b ");
    assert_eq!(clause("Done. Next "), " Next ");
    assert!(told_not("❌bad") && told_not("never include"));
    assert!(!told_not("nevertheless") && !told_not("badge"));
}
