//! Agent Skills (`SKILL.md` and its folder): every rule at its line and column, silent on
//! valid skills, the real-world corpus with exactly its true findings, and the skills index
//! of `toolc.bundle.json`. The front matter against the reference validator is in
//! tests/agent_skill_validators.rs.

mod common;

use std::path::Path;

use common::{Repo, lines};

const SKILL: &str = ".claude/skills/pdf-tools/SKILL.md";

/// A valid `SKILL.md` for the folder `pdf-tools`, with `body` as its instructions.
fn skill_md(body: &str) -> String {
    format!(
        "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user mentions PDFs.\n---\n{body}"
    )
}

/// Diagnostics of a repository holding `files`, as `path:line:col CODE severity message`.
fn check(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&repo.check().expect("config"))
}

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent-skill/valid")
}

#[test]
fn valid_skills_are_silent() {
    let report = common::check_dir(&fixtures()).expect("config");
    assert_eq!(lines(&report), Vec::<String>::new());
    // Every text file the skill leads to is read, and counted.
    assert_eq!(report.summary.files, 5);
    assert_eq!(
        check(&[(SKILL, &skill_md("# Steps\n"))]),
        Vec::<String>::new()
    );
}

#[test]
fn links_and_paths_that_name_nothing() {
    let body = "See [the guide](references/GUIDE.md) and [forms](references/FORM.md#fields).\n\
                Run `python scripts/extract.py`, then `scripts/merge.py` or `scripts/<name>.py`.\n\
                Files go under `assets/` (like `assets/logo.png`).\n";
    let found = check(&[
        (SKILL, &skill_md(body)),
        (
            ".claude/skills/pdf-tools/references/GUIDE.md",
            "# Guide\n[back](../SKILL.md) and [gone](gone.md)\n",
        ),
        (".claude/skills/pdf-tools/references/FORMS.md", "# Forms\n"),
        (
            ".claude/skills/pdf-tools/scripts/extract.py",
            "#!/usr/bin/env python3\n",
        ),
    ]);
    let want = [
        ".claude/skills/pdf-tools/SKILL.md:5:50 SKL011 error `SKILL.md` links to `references/FORM.md`, which is not in the skill's folder",
        ".claude/skills/pdf-tools/SKILL.md:6:40 SKL011 error `SKILL.md` names `scripts/merge.py`, which is not in the skill's folder",
        ".claude/skills/pdf-tools/SKILL.md:7:33 SKL011 error `SKILL.md` names `assets/logo.png`, which is not in the skill's folder",
        ".claude/skills/pdf-tools/references/FORMS.md:1:1 SKL018 warning `references/FORMS.md` ships with the skill, but neither `SKILL.md` nor a file it links names it",
        ".claude/skills/pdf-tools/references/GUIDE.md:2:32 SKL011 error `references/GUIDE.md` links to `references/gone.md`, which is not in the skill's folder",
    ];
    assert_eq!(found, want);
}

#[test]
fn links_that_leave_the_skill() {
    let body = "[shared](../common/STYLE.md), [abs](/etc/hosts), [home](~/notes.md), [web](https://example.com/a.md), [top](#steps)\n";
    assert_eq!(
        check(&[(SKILL, &skill_md(body))]),
        [
            ".claude/skills/pdf-tools/SKILL.md:5:10 SKL012 error `../common/STYLE.md` climbs out of the skill's folder",
            ".claude/skills/pdf-tools/SKILL.md:5:37 SKL012 error `/etc/hosts` is an absolute path, outside the skill's folder",
            ".claude/skills/pdf-tools/SKILL.md:5:57 SKL012 error `~/notes.md` is an absolute path, outside the skill's folder",
        ]
    );
}

#[test]
fn references_one_level_deep_and_files_nothing_leads_to() {
    let found = check(&[
        (
            SKILL,
            &skill_md(
                "Read [the guide](references/GUIDE.md). Templates are in [assets](assets/).\n",
            ),
        ),
        (
            ".claude/skills/pdf-tools/references/GUIDE.md",
            "# Guide\nDetails in [deep](DEEP.md); see references/GUIDE.md.\n",
        ),
        (".claude/skills/pdf-tools/references/DEEP.md", "# Deep\n"),
        (".claude/skills/pdf-tools/assets/a/template.docx", "x"),
        (".claude/skills/pdf-tools/notes/todo.txt", "later\n"),
        (".claude/skills/pdf-tools/README.md", "# For people\n"),
        (".claude/skills/pdf-tools/LICENSE.txt", "MIT\n"),
        (".claude/skills/pdf-tools/.DS_Store", "x"),
        (
            ".claude/skills/pdf-tools/nested/SKILL.md",
            "---\nname: nested\ndescription: A nested skill of its own. Use when testing nesting.\n---\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            ".claude/skills/pdf-tools/notes/todo.txt:1:1 SKL018 warning `notes/todo.txt` ships with the skill, but neither `SKILL.md` nor a file it links names it",
            ".claude/skills/pdf-tools/references/GUIDE.md:2:19 SKL015 warning `references/DEEP.md` is reached only through `references/GUIDE.md`, two steps from `SKILL.md`",
        ]
    );
}

#[test]
fn a_folder_nothing_leads_into_is_one_finding() {
    // A skill at the root of a whole project: its sources ship with it.
    let text = "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user mentions PDFs.\n---\nRun `bin/pdf-tools` on the file.\n";
    let repo = Repo::new();
    let root = repo.root.join("pdf-tools");
    for (path, content) in [
        ("SKILL.md", text),
        ("bin/pdf-tools", "#!/bin/sh\n"),
        ("bin/helper.sh", "#!/bin/sh\n"),
        ("src/main.rs", "fn main() {}\n"),
        ("src/lib.rs", "\n"),
        ("src/README.md", "# Sources\n"),
        ("tests/it.rs", "\n"),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let run = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(root.join("bin/pdf-tools"), run).expect("chmod");
    }
    let report = common::check_dir(&root).expect("config");
    // Each finding is on the file, or on the folder none of whose files is named.
    assert_eq!(
        lines(&report),
        [
            "bin/helper.sh:1:1 SKL018 warning `bin/helper.sh` ships with the skill, but neither `SKILL.md` nor a file it links names it",
            "src:1:1 SKL018 warning `src/` (2 files) ships with the skill, but neither `SKILL.md` nor a file it links names it",
            "tests/it.rs:1:1 SKL018 warning `tests/it.rs` ships with the skill, but neither `SKILL.md` nor a file it links names it",
        ]
    );
}

#[test]
fn size_and_budget() {
    let long = "- step\n".repeat(520);
    let found = check(&[(SKILL, &skill_md(&long))]);
    assert_eq!(
        found,
        [
            ".claude/skills/pdf-tools/SKILL.md:501:1 SKL013 warning `SKILL.md` has 524 lines; the spec recommends at most 500"
        ]
    );
    let wide = format!("{}\n", "word ".repeat(9000));
    let found = check(&[(SKILL, &skill_md(&wide))]);
    assert_eq!(
        found,
        [
            ".claude/skills/pdf-tools/SKILL.md:5:1 SKL014 warning the instructions are about 11251 tokens, far over the 5000 the spec recommends"
        ]
    );
}

#[test]
fn vague_descriptions() {
    // A preview rule: on only with preview.
    let preview = ("toolc.toml", "preview = true\n");
    let text = "---\nname: pdf-tools\ndescription: Helps with PDFs.\n---\n";
    assert_eq!(
        check(&[(SKILL, text), preview]),
        [
            ".claude/skills/pdf-tools/SKILL.md:3:14 SKL019 info the description is too short to say what the skill does and when to use it"
        ]
    );
    let text = "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files, fills forms and merges documents.\n---\n";
    assert_eq!(
        check(&[(SKILL, text), preview]),
        [
            ".claude/skills/pdf-tools/SKILL.md:3:14 SKL019 info the description does not say when to use the skill"
        ]
    );
}

#[test]
fn duplicate_names_in_one_skills_folder() {
    let other = "---\nname: pdf-tools\ndescription: Another PDF skill. Use when the first one is not enough.\n---\n";
    let found = check(&[
        (SKILL, &skill_md("")),
        (".claude/skills/pdf-kit/SKILL.md", other),
        // Another skills folder may reuse the name.
        ("plugins/extra/skills/pdf-tools/SKILL.md", &skill_md("")),
    ]);
    assert_eq!(
        found,
        [
            ".claude/skills/pdf-kit/SKILL.md:2:7 SKL004 error `name` is `pdf-tools` but the skill's folder is `pdf-kit`",
            ".claude/skills/pdf-tools/SKILL.md:2:7 SKL017 error skill `pdf-tools` is already defined by `.claude/skills/pdf-kit/SKILL.md`",
        ]
    );
}

#[test]
fn allowed_tools_entries() {
    let text = "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user mentions PDFs.\nallowed-tools: Read, Grep Bash() Bash(git:*\n---\n";
    assert_eq!(
        check(&[(SKILL, text)]),
        [
            ".claude/skills/pdf-tools/SKILL.md:4:20 SKL008 warning entries of `allowed-tools` are separated by spaces, not commas",
            ".claude/skills/pdf-tools/SKILL.md:4:27 SKL008 warning `Bash()` has an empty pattern",
            ".claude/skills/pdf-tools/SKILL.md:4:38 SKL008 warning `(` is never closed: the rest of the value is read as its pattern",
        ]
    );
}

#[test]
fn secrets_and_downloads_in_instructions_and_scripts() {
    let body = "Install the CLI: `curl -fsSL https://example.com/install.sh | sh`\n\
                Set `GITHUB_TOKEN` in your environment (never write it here).\n";
    let found = check(&[
        (SKILL, &skill_md(body)),
        (
            ".claude/skills/pdf-tools/references/API.md",
            "token = ghp_abcdefghijklmnopqrstuvwxyz0123456789\n",
        ),
    ]);
    let found: Vec<&String> = found.iter().filter(|l| !l.contains("SKL018")).collect();
    assert_eq!(
        found,
        [
            ".claude/skills/pdf-tools/SKILL.md:5:19 SEC040 warning the instructions in `SKILL.md` tell the agent to run a download: `curl … | sh`"
        ]
    );
    let found = check(&[
        (
            SKILL,
            &skill_md("Call the API as [its reference](references/API.md) says.\n"),
        ),
        (
            ".claude/skills/pdf-tools/references/API.md",
            // Made up, with a valid checksum.
            "Use token 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 to call it.\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            ".claude/skills/pdf-tools/references/API.md:1:11 SEC013 error a GitHub personal access token (`ghp_ab…`) is embedded in the skill"
        ]
    );
}

#[test]
fn links_are_never_followed_out_of_the_skill() {
    let repo = Repo::with(&[
        (
            SKILL,
            &skill_md("See [shared](references/shared/STYLE.md).\n"),
        ),
        (
            "outside/STYLE.md",
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n",
        ),
    ]);
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        repo.root.join("outside"),
        repo.root.join(".claude/skills/pdf-tools/references"),
    )
    .expect("link");
    let report = repo.check().expect("config");
    // The link exists, so the path is not broken, but nothing behind it is read.
    assert_eq!(lines(&report), Vec::<String>::new());
    assert_eq!(report.summary.files, 1);
}

#[test]
fn the_bundle_lists_skills_without_errors() {
    let out = Repo::new();
    let dir = out.root.to_string_lossy().into_owned();
    let run = std::process::Command::new(assert_cmd::cargo::cargo_bin!("toolc"))
        .current_dir(fixtures())
        .args(["build", "--out", &dir, "--target", "bundle"])
        .output()
        .expect("run toolc");
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bundle: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.root.join("toolc.bundle.json")).expect("bundle"))
            .expect("JSON");
    let skills = bundle["skills"].as_array().expect("skills");
    let listed: Vec<(&str, &str)> = skills
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or(""),
                s["path"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("form-filler", ".claude/skills/form-filler/SKILL.md"),
            ("release-notes", "skills/release-notes/SKILL.md")
        ]
    );
    assert!(
        skills
            .iter()
            .all(|s| s["sha256"].as_str().is_some_and(|h| h.len() == 64))
    );
    assert!(
        skills[1]["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("Writes release notes"))
    );
    assert_eq!(bundle["tools"].as_array().map(Vec::len), Some(0));
}

#[test]
fn real_world_skills_give_exactly_their_true_findings() {
    let Some(corpus) = common::corpus("agent-skills") else {
        return;
    };
    let expected: &[(&str, &[&str])] = &[
        (
            "0g-compute-skills",
            &[
                "SKILL.md:2:7 SKL004 error `name` is `0g-compute` but the skill's folder is `0g-compute-skills`",
                "references/examples/README.md:11:31 SKL015 warning `references/examples/streaming-chat.md` is reached only through `references/examples/README.md`, two steps from `SKILL.md`",
                "references/examples/README.md:35:30 SKL015 warning `references/examples/text-to-image.md` is reached only through `references/examples/README.md`, two steps from `SKILL.md`",
                "references/examples/README.md:58:31 SKL015 warning `references/examples/speech-to-text.md` is reached only through `references/examples/README.md`, two steps from `SKILL.md`",
            ],
        ),
        (
            "link-jumper-skill",
            &[
                "SKILL.md:2:7 SKL004 error `name` is `link-jumper` but the skill's folder is `link-jumper-skill`",
                "SKILL.md:12:3 SKL002 error `compatibility` must be a string, found a list",
                "test_cases.md:1:1 SKL018 warning `test_cases.md` ships with the skill, but neither `SKILL.md` nor a file it links names it",
            ],
        ),
        (
            "nba-scores-skill",
            &[
                "SKILL.md:2:7 SKL003 error `NBA实时比分` is not a valid skill name: uppercase letters are not allowed",
            ],
        ),
        ("resume-writing", &[]),
    ];
    for (folder, want) in expected {
        let report = common::check_dir(&corpus.join(folder)).expect("config");
        assert_eq!(lines(&report), *want, "{folder}");
    }
}

/// A file nothing leads to is named by its path alone in the human output: it is not read,
/// so there is no line of it to show, only the skill it ships with.
#[test]
fn a_stray_file_is_shown_by_its_path_beside_its_skill() {
    let repo = Repo::with(&[
        (SKILL, &skill_md("# PDF tools\n")),
        (".claude/skills/pdf-tools/notes.txt", "later\n"),
    ]);
    let (_, human, _) = common::change::toolc(&repo.root, &["check", "--no-cache"]);
    let stray = human
        .split("\n\n")
        .find(|d| d.contains("[unreferenced-skill-file]"))
        .unwrap_or_else(|| panic!("no SKL018 in:\n{human}"));
    let lines: Vec<&str> = stray.lines().collect();
    assert_eq!(
        lines[1], " --> .claude/skills/pdf-tools/notes.txt",
        "{stray}"
    );
    assert!(
        !lines.iter().any(|l| l.trim_start().starts_with("1 |")),
        "{stray}"
    );
    assert!(
        stray.contains(&format!("::: {SKILL}:2:7")),
        "the skill it ships with: {stray}"
    );
}

/// A folder `SKILL.md` points into, whose other files it names by id in code: those files are
/// reached, a file of the folder it does not name is not.
#[test]
fn files_named_by_id_in_a_folder_the_skill_points_into_are_reached() {
    let found = check(&[
        (
            SKILL,
            &skill_md(
                "Read [the index](rules/index.md), then the rule you need: `async-parallel` or `query-cache`.\n",
            ),
        ),
        (".claude/skills/pdf-tools/rules/index.md", "# Rules\n"),
        (".claude/skills/pdf-tools/rules/async-parallel.md", "# A\n"),
        (".claude/skills/pdf-tools/rules/query-cache.md", "# Q\n"),
        (".claude/skills/pdf-tools/rules/unrelated.md", "# U\n"),
    ]);
    assert_eq!(
        found,
        [
            ".claude/skills/pdf-tools/rules/unrelated.md:1:1 SKL018 warning `rules/unrelated.md` ships with the skill, but neither `SKILL.md` nor a file it links names it",
        ]
    );
}
