//! Agent Skills: the paths a skill names, judged as an agent uses them. Which scripts must
//! run as programs (SKL016), which files count as used (SKL018), which missing paths are
//! references (SKL011), a path in another letter case (SKL021) and an unclosed code fence
//! (SKL022), each silent and triggering.

mod common;

use common::{Repo, lines};

const DIR: &str = ".claude/skills/pdf-tools";

/// A valid `SKILL.md` for the folder `pdf-tools`, with `body` as its instructions.
fn skill_md(body: &str) -> String {
    format!(
        "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user mentions PDFs.\n---\n{body}"
    )
}

/// A repository with the skill's `SKILL.md` (`body`) and `files` (paths in the skill).
fn skill(body: &str, files: &[(&str, &str)]) -> Repo {
    let repo = Repo::with(&[(&format!("{DIR}/SKILL.md"), &skill_md(body))]);
    for (path, text) in files {
        repo.write(&format!("{DIR}/{path}"), text.as_bytes());
    }
    repo
}

/// The findings, as `path:line:col CODE severity message`, the skill's folder left out.
fn found(repo: &Repo) -> Vec<String> {
    let report = repo.check().expect("config");
    lines(&report)
        .into_iter()
        .map(|l| l.replacen(&format!("{DIR}/"), "", 1))
        .collect()
}

#[cfg(unix)]
fn make_executable(repo: &Repo, path: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = repo.root.join(DIR).join(path);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn only_scripts_run_by_their_path_need_a_shebang_and_the_execute_bit() {
    let body = "1. Run scripts/fetch.py to get the data.\n\
                2. Deploy:\n\n```bash\nscripts/deploy.sh --env prod\n./scripts/ready.sh\n```\n\n\
                3. Convert with `python scripts/convert.py in.pdf`, `uv run scripts/report.py`,\n\
                   `node scripts/page.js`, `bash scripts/clean.sh` and `npx tsx scripts/types.ts`.\n\
                4. Run `scripts/bake.mjs` once; `scripts/legacy.py` is the old converter.\n\
                5. Run `./scripts/tool.py` (or `python3 -m scripts.tool`).\n\
                6. Open [the page](assets/page.html).\n";
    let repo = skill(
        body,
        &[
            (
                "scripts/fetch.py",
                "#!/usr/bin/env python3\nimport helpers\n",
            ),
            ("scripts/helpers.py", "X = 1\n"),
            ("scripts/deploy.sh", "echo deploy\n"),
            ("scripts/ready.sh", "#!/bin/sh\necho ready\n"),
            ("scripts/convert.py", "print('convert')\n"),
            ("scripts/report.py", "print('report')\n"),
            ("scripts/page.js", "console.log(1)\n"),
            ("scripts/clean.sh", "rm -rf out\n"),
            ("scripts/types.ts", "export {}\n"),
            ("scripts/bake.mjs", "// bake\n"),
            ("scripts/legacy.py", "print('old')\n"),
            ("scripts/tool.py", "print('tool')\n"),
            (
                "assets/page.html",
                "<script src=\"../scripts/app.js\"></script>\n",
            ),
            ("scripts/app.js", "document.title = 'x'\n"),
        ],
    );
    #[cfg(unix)]
    make_executable(&repo, "scripts/ready.sh");
    // Run through an interpreter (anywhere in the skill, even where a command also runs it
    // by its path), imported, loaded by a page, named by no command, or told to be run
    // without a `#!` line (the agent picks the interpreter): none is reported.
    let want: &[&str] = if cfg!(unix) {
        &[
            "scripts/deploy.sh:1:1 SKL016 warning `scripts/deploy.sh` has no `#!` line and is not executable",
            "scripts/fetch.py:1:1 SKL016 warning `scripts/fetch.py` is not executable",
        ]
    } else {
        &["scripts/deploy.sh:1:1 SKL016 warning `scripts/deploy.sh` has no `#!` line"]
    };
    assert_eq!(found(&repo), want);
}

#[test]
fn files_used_without_a_link_are_not_unreferenced() {
    let body = "Pick the rule for the task, as in `rules/alpha-first.md`:\n\n\
                - `alpha-first` - the first\n- `beta-second` - the second\n\n\
                Query pages share the `query-` prefix (see `references/query-intro.md`).\n\
                Every topic has a page `topics/{topic}.md`.\n\
                Run `python3 {baseDir}/scripts/main.py` and `${CLAUDE_SKILL_DIR}/scripts/other.sh`.\n\
                Read [the guide]({baseDir}/references/guide.md).\n\
                ```python\nfrom core.gif_builder import Builder\n```\n";
    let repo = skill(
        body,
        &[
            ("rules/alpha-first.md", "# Alpha\n"),
            ("rules/beta-second.md", "# Beta\n"),
            ("rules/_template.md", "# Template for new rules\n"),
            ("references/query-intro.md", "# Queries\n"),
            ("references/query-joins.md", "# Joins\n"),
            ("references/guide.md", "# Guide\n"),
            ("topics/a.md", "# A\n"),
            ("topics/b.md", "# B\n"),
            ("core/gif_builder.py", "class Builder: pass\n"),
            (
                "scripts/main.py",
                "from lib.util import run\nopen(os.path.join(HERE, 'template.txt'))\n",
            ),
            ("lib/util.py", "def run(): pass\n"),
            ("scripts/template.txt", "{name}\n"),
            ("scripts/other.sh", "node \"$DIR/helper.js\"\n"),
            ("scripts/helper.js", "const fmt = require('./format');\n"),
            ("scripts/format.js", "module.exports = {};\n"),
            (
                "agents/openai.yaml",
                "interface:\n  display_name: PDF tools\n  icon_small: './assets/icon.png'\n",
            ),
            ("assets/icon.png", "PNG"),
            ("LICENSE.txt", "MIT\n"),
            ("README.md", "# PDF tools\n"),
            ("CHANGELOG.md", "# Changes\n"),
        ],
    );
    // A file no id, pattern, import or link names is still reported, on itself.
    assert_eq!(
        found(&repo),
        [
            "rules/_template.md:1:1 SKL018 warning `rules/_template.md` ships with the skill, but neither `SKILL.md` nor a file it links names it"
        ]
    );
}

#[test]
fn a_makefile_run_through_make_is_used_and_one_never_run_is_not() {
    // `make setup` reads the Makefile of its folder: that names it as a path would.
    let repo = skill(
        "Run `make setup` once, then:\n\n```bash\nmake test\n```\n",
        &[("Makefile", "setup:\n\tpip install -e .\ntest:\n\tpytest\n")],
    );
    assert!(found(&repo).is_empty(), "{:?}", found(&repo));
    // "Make sure" is a verb: the Makefile is never run.
    let repo = skill(
        "Make sure the PDF has a text layer.\n",
        &[("Makefile", "setup:\n\tpip install -e .\n")],
    );
    assert_eq!(
        found(&repo),
        [
            "Makefile:1:1 SKL018 warning `Makefile` ships with the skill, but neither `SKILL.md` nor a file it links names it"
        ]
    );
}

#[test]
fn a_path_pattern_names_every_file_it_matches() {
    let body = "Read the page for the rule: `rules/<id>.md`.\n";
    let repo = skill(
        body,
        &[("rules/one.md", "# One\n"), ("rules/_template.md", "# T\n")],
    );
    assert_eq!(found(&repo), Vec::<String>::new());
}

#[test]
fn only_paths_the_agent_is_sent_to_are_broken() {
    let body = "For how-tos, capture steps, links to assets/code, and edge cases; the scripts/orchestrators do the rest.\n\n\
                ## What to never include\n\n- Custom scripts with side effects (e.g., `./scripts/deploy-prod.sh`)\n\n\
                ## Output format\n\n- **Location**: `scripts/tool.py:15`\n\n\
                ## Steps\n\n\
                1. See [the API]({baseDir}/references/api.md).\n\
                2. Run the project's `scripts/deploy.sh --dry-run` from the project's folder.\n\
                3. Create `scripts/new_check.py` for the new check.\n\
                4. Never run `scripts/wipe.sh`.\n\
                5. Read `references/missing.md` and [the limits](references/limits.md).\n";
    let repo = skill(body, &[("references/api.md", "# API\n")]);
    // The project holding `.claude/skills/` has the script the skill runs from there.
    repo.write("scripts/deploy.sh", b"#!/bin/sh\n");
    assert_eq!(
        found(&repo),
        [
            "SKILL.md:21:10 SKL011 error `SKILL.md` names `references/missing.md`, which is not in the skill's folder",
            "SKILL.md:21:50 SKL011 error `SKILL.md` links to `references/limits.md`, which is not in the skill's folder",
        ]
    );
}

#[test]
fn a_path_in_another_case_or_without_its_extension() {
    let body = "For advanced features, see REFERENCE.md. To fill a form, read [the form guide](FORMS.md).\n";
    let repo = skill(
        body,
        &[
            ("reference.md", "# Reference\n"),
            (
                "forms.md",
                "Check the fields first: `python scripts/check_fields input.pdf`.\n",
            ),
            ("scripts/check_fields.py", "print('ok')\n"),
        ],
    );
    let report = repo.check().expect("config");
    let shown: Vec<String> = lines(&report)
        .into_iter()
        .map(|l| l.replacen(&format!("{DIR}/"), "", 1))
        .collect();
    // The files are found on macOS and Windows: none of them is unreferenced.
    assert_eq!(
        shown,
        [
            "SKILL.md:5:28 SKL021 error `SKILL.md` names `REFERENCE.md`, but the skill's file is `reference.md`: the names differ only in case",
            "SKILL.md:5:80 SKL021 error `SKILL.md` links to `FORMS.md`, but the skill's file is `forms.md`: the names differ only in case",
            "forms.md:1:33 SKL011 error `forms.md` names `scripts/check_fields`, which is not in the skill's folder",
            "forms.md:1:33 SKL015 warning `scripts/check_fields.py` is reached only through `forms.md`, two steps from `SKILL.md`",
        ]
    );
    let helps: Vec<&str> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.help.as_deref())
        .collect();
    assert_eq!(
        helps[2], "did you mean `scripts/check_fields.py`?",
        "{helps:?}"
    );
    let fixed: Vec<String> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref()?.apply(&d.file.text))
        .collect();
    assert!(fixed[0].contains("see reference.md.") && fixed[1].contains("](forms.md)"));
    assert!(fixed[2].contains("`python scripts/check_fields.py input.pdf`"));
}

#[test]
fn an_unclosed_code_fence() {
    let closed = "Run:\n\n```bash\nls\n```\n\n1. Step\n   ```sh\n   pwd\n   ```\n";
    assert_eq!(found(&skill(closed, &[])), Vec::<String>::new());
    let open = "## Steps\n\nRun:\n\n```bash\nls\n\n## Next\n\nMore steps.\n";
    assert_eq!(
        found(&skill(open, &[])),
        [
            "SKILL.md:9:1 SKL022 warning the code block opened on this line with 3 backticks is never closed"
        ]
    );
    // A fence inside a template closes the template's block: the line meant to close it
    // opens a block that never closes.
    let nested = "## Output\n\n```markdown\n## Report\n- Evidence:\n  ```python\n  code\n  ```\n- Fix: x\n```\n\nDone.\n";
    let report = skill(nested, &[]).check().expect("config");
    assert_eq!(
        lines(&report)
            .iter()
            .map(|l| l.replacen(&format!("{DIR}/"), "", 1))
            .collect::<Vec<_>>(),
        [
            "SKILL.md:14:1 SKL022 warning the code block opened on this line with 3 backticks is never closed"
        ]
    );
    let help = report.diagnostics.first().and_then(|d| d.help.as_deref());
    assert_eq!(
        help,
        Some(
            "open and close the outer block with a longer fence (4 backticks) so the fence inside it does not close it"
        )
    );
}

#[test]
fn programs_lead_to_what_they_import_and_open() {
    let body = "Validate with `python tools/scripts/validate.py doc.xml`.\n\
                Pick a font from the `./fonts` folder.\n";
    let repo = skill(
        body,
        &[
            (
                "tools/scripts/validate.py",
                "from validation import check\ncheck()\n",
            ),
            (
                "tools/scripts/validation/__init__.py",
                "from .base import check\n",
            ),
            (
                "tools/scripts/validation/base.py",
                "SCHEMAS = Path(__file__).parent.parent.parent / \"schemas\"\n",
            ),
            ("tools/schemas/a.xsd", "<xs:schema/>\n"),
            ("tools/schemas/b.xsd", "<xs:schema/>\n"),
            ("fonts/Serif.ttf", "font"),
            ("tools/stray.py", "print('unused')\n"),
        ],
    );
    // The package a script imports is read in turn: the schemas its module opens from a
    // folder above its own are used; a module nothing imports is not.
    assert_eq!(
        found(&repo),
        [
            "tools/stray.py:1:1 SKL018 warning `tools/stray.py` ships with the skill, but neither `SKILL.md` nor a file it links names it"
        ]
    );
}
