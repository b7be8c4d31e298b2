//! What a hostile repository's files make toolc print: control characters in names and
//! source lines never reach the terminal or the CI log, and a flood of findings is capped per
//! rule and file in every format.

use super::*;

// ---------------------------------------------------------------------------------------------
// A hostile repository: control characters in names and source lines.

#[test]
fn control_characters_from_files_never_reach_the_terminal_or_the_ci_log() {
    let repo = Repo::with(&[
        (
            ".cycod/tools/t.yaml",
            "name: \"x\\n::error file=README.md::injected\\u001b]0;PWNED\\u0007\"\ndescription: d\nbash: echo hi\ntags: [read]\n",
        ),
        (
            ".cycod/tools/u.yaml",
            "name: ok\u{9b}2J\ndescription: d\nbash: echo hi\ntags: [read]\n",
        ),
    ]);
    for format in ["human", "github"] {
        let output = run(&repo, &["check", ".", "--format", format]);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("injected"), "{format}: {text}");
        for c in ['\u{1b}', '\u{7}', '\u{9b}', '\0'] {
            assert!(!text.contains(c), "{format}: {c:?} printed raw: {text}");
        }
        // Only toolc's own annotations start a line with `::`.
        for line in text.lines().filter(|l| l.starts_with("::")) {
            assert!(
                line.contains("title=toolc ("),
                "{format}: injected line {line}"
            );
        }
        assert!(
            !text
                .lines()
                .any(|l| l.trim_start().starts_with("::error file=README.md")),
            "{format}: {text}"
        );
    }
}

/// What the command line names is printed on stderr, which GitHub's runner reads for workflow
/// commands as it reads stdout: a path a pre-commit hook passes (a committed file's name), an
/// output folder, a revision. Each is shown, not obeyed.
#[test]
fn names_from_the_command_line_never_reach_stderr_as_controls() {
    let repo = common::change::history(
        &[
            (
                "skills/good/SKILL.md",
                "---\nname: good\ndescription: Does good. Use when good is needed for the job.\n---\nBody.\n",
            ),
            ("toolc.toml", "[discovery]\nexclude = [\"vendor\"]\n"),
        ],
        &[],
    );
    let hostile = "x\n::error file=README.md::injected\u{1b}]0;PWNED\u{7}";
    let excluded = format!("vendor/{hostile}.md");
    repo.write(&excluded, b"hi");
    let missing = format!("gone{hostile}");
    let out = format!("dist{hostile}");
    let runs: [&[&str]; 5] = [
        &["check", "--allow-empty", "skills/good/SKILL.md", &excluded],
        &["check", &missing],
        &["check", "--no-cache", &missing, "--allow-empty"],
        &["build", "--out", &out, "."],
        &["diff", "--against", hostile, "."],
    ];
    for args in runs {
        let output = run_exiting(&repo, args, &[0, 1, 2]);
        let text = String::from_utf8_lossy(&output.stderr);
        assert!(text.contains("injected"), "{args:?}: {text}");
        for c in ['\u{1b}', '\u{7}'] {
            assert!(!text.contains(c), "{args:?}: {c:?} printed raw: {text}");
        }
        assert!(
            !text.lines().any(|l| l.starts_with("::")),
            "{args:?}: an injected line in {text}"
        );
    }
}

/// JSON, SARIF, GitLab's and reviewdog's JSON carry a name's bidirectional and invisible
/// characters, C1 controls and line separators as `\u` escapes: serde_json writes them raw,
/// and a code-scanning view showing the message would obey them.
#[test]
fn machine_read_formats_escape_what_a_reader_would_obey() {
    let repo = Repo::with(&[(
        "tools.json",
        r#"{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{},"required":["adm\u202eni\u2028x\u0085\u200b"]}}]}"#,
    )]);
    for format in ["json", "sarif", "gitlab", "rdjson"] {
        let output = run(&repo, &["check", "--no-cache", "--format", format]);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("adm"), "{format}: {text}");
        // Escaped in JSON, or already spelt out as the text outputs do.
        assert!(
            text.contains(r"\u202e") || text.contains(r"\\u{202e}"),
            "{format}: {text}"
        );
        for c in ['\u{202e}', '\u{2028}', '\u{85}', '\u{200b}'] {
            assert!(!text.contains(c), "{format}: {c:?} written raw: {text}");
        }
        let _: Value = serde_json::from_str(&text).expect("still JSON");
    }
}

/// A JUnit report is shown as a web page by CI test views: the C1 controls, line separators,
/// invisible and bidirectional characters of a name are spelt out there too, as in every
/// other output (XML could carry them raw).
#[test]
fn a_junit_report_spells_out_what_it_would_hide() {
    let repo = Repo::with(&[(
        ".cycod/tools/t.yaml",
        "name: \"a\\u202Eb\\u2028c\\u0085d\\u200Be\"\ndescription: d\nbash: echo hi\ntags: [read]\n",
    )]);
    let output = run(&repo, &["check", ".", "--format", "junit"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("a\\u{202e}b\\u{2028}c\\u{85}d\\u{200b}e"),
        "{text}"
    );
    for c in ['\u{202e}', '\u{2028}', '\u{85}', '\u{200b}'] {
        assert!(!text.contains(c), "{c:?} written raw: {text}");
    }
}

#[test]
fn findings_per_rule_and_file_are_capped_in_every_format() {
    let repo = repo();
    // A thousand unknown keys in a `tool.yaml` and in a cycod tool: formats that do not cap
    // their own findings are capped all the same.
    let keys: String = (0..1000).map(|i| format!("extra_key_{i}: 1\n")).collect();
    tool(
        &repo,
        "noisy",
        format!("{}{keys}", VALID_TOOL.replace("my-tool", "noisy")).as_bytes(),
    );
    repo.write(
        ".cycod/tools/noisy.yaml",
        format!("name: noisy\ndescription: Lists files\nbash: ls\ntags: [read]\n{keys}").as_bytes(),
    );
    let diags = diagnostics(&repo);
    for path in [".dojops/tools/noisy/tool.yaml", ".cycod/tools/noisy.yaml"] {
        let mut per_rule: std::collections::HashMap<&str, usize> = Default::default();
        for d in diags.iter().filter(|d| d["path"] == path) {
            *per_rule
                .entry(d["code"].as_str().unwrap_or(""))
                .or_default() += 1;
        }
        let (code, most) = per_rule
            .iter()
            .max_by_key(|(_, n)| **n)
            .map(|(c, n)| (c.to_string(), *n))
            .unwrap_or_default();
        assert_eq!(most, 201, "{path}: {per_rule:?}");
        let more = diags
            .iter()
            .filter(|d| d["path"] == path && d["code"] == code.as_str())
            .filter_map(|d| d["message"].as_str())
            .find(|m| m.contains("more findings of this rule"));
        assert_eq!(
            more,
            Some("800 more findings of this rule in this file are not shown"),
            "{path}"
        );
    }
}
