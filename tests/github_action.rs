//! The GitHub Action's script (`scripts/github-action.sh`) run as the runner runs it: inputs as
//! `INPUT_*` variables, the job summary and step outputs in files, the built toolc binary.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL};

/// What one run of the script left behind.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    summary: String,
    outputs: String,
}

/// Run the action's script in `dir` with `inputs` (name without `INPUT_`, value).
fn action(dir: &Path, inputs: &[(&str, &str)]) -> Run {
    action_with_env(dir, inputs, &[])
}

/// [`action`], with more environment variables (`GITHUB_BASE_REF`).
fn action_with_env(dir: &Path, inputs: &[(&str, &str)], env: &[(&str, &str)]) -> Run {
    let github = dir.join(".github-env");
    std::fs::create_dir_all(&github).expect("mkdir");
    let summary = github.join("step-summary.md");
    let outputs = github.join("output.txt");
    let _ = std::fs::remove_file(&summary);
    let _ = std::fs::remove_file(&outputs);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/github-action.sh");
    let mut cmd = Command::new("bash");
    cmd.arg(&script)
        .current_dir(dir)
        .env("TOOLC", env!("CARGO_BIN_EXE_toolc"))
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", dir)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &outputs)
        .env("RUNNER_TEMP", &github);
    for (name, _) in std::env::vars() {
        if name.starts_with("INPUT_") {
            cmd.env_remove(name);
        }
    }
    for (name, value) in inputs {
        cmd.env(format!("INPUT_{name}"), value);
    }
    cmd.env_remove("GITHUB_BASE_REF")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    for (name, value) in env {
        cmd.env(name, value);
    }
    let out = cmd.output().expect("run bash");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
        outputs: std::fs::read_to_string(&outputs).unwrap_or_default(),
    }
}

/// A repository with one valid DojOps tool, plus `files`.
fn repo(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::with(&[
        DOJOPS_1_0,
        (".dojops/tools/my-tool/tool.yaml", VALID_TOOL),
        (".dojops/tools/my-tool/input.schema.json", VALID_SCHEMA),
    ]);
    for (path, content) in files {
        repo.write(path, content.as_bytes());
    }
    repo
}

/// A tool whose name is invalid (DOJ003, an error, at 2:7).
fn with_error() -> Repo {
    repo(&[
        (
            ".dojops/tools/bad/tool.yaml",
            &VALID_TOOL.replace("name: my-tool", "name: Bad_Name"),
        ),
        (".dojops/tools/bad/input.schema.json", VALID_SCHEMA),
    ])
}

/// A tool with an unknown key (DOJ007, a warning) and nothing worse.
fn with_warning() -> Repo {
    repo(&[
        (
            ".dojops/tools/odd/tool.yaml",
            &VALID_TOOL
                .replace("name: my-tool", "name: odd-tool")
                .replace("type: tool\n", "type: tool\ncolour: blue\n"),
        ),
        (".dojops/tools/odd/input.schema.json", VALID_SCHEMA),
    ])
}

#[test]
fn errors_are_annotated_summarised_and_fail_the_job() {
    let repo = with_error();
    let run = action(&repo.root, &[]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let annotation = run
        .stdout
        .lines()
        .find(|l| l.starts_with("::error "))
        .unwrap_or_else(|| panic!("no annotation in {}", run.stdout));
    assert!(
        annotation.starts_with(
            "::error file=.dojops/tools/bad/tool.yaml,line=2,col=7,endLine=2,endColumn=15,title=toolc (DOJ003 invalid-tool-name)::"
        ),
        "{annotation}"
    );
    assert!(run.summary.starts_with("## toolc\n"), "{}", run.summary);
    assert!(
        run.summary.contains("❌ 1 error, 0 warnings"),
        "{}",
        run.summary
    );
    assert!(
        run.summary
            .contains("| `DOJ003` | invalid-tool-name | error | 1 |"),
        "{}",
        run.summary
    );
    assert!(
        run.summary
            .contains("| `.dojops/tools/bad/tool.yaml` | 1 | 0 | 0 |"),
        "{}",
        run.summary
    );
    assert!(run.outputs.contains("errors=1\n"), "{}", run.outputs);
    assert!(run.outputs.contains("warnings=0\n"), "{}", run.outputs);
}

#[test]
fn fail_on_never_reports_without_failing() {
    let repo = with_error();
    let run = action(&repo.root, &[("FAIL_ON", "never")]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("::error file="), "{}", run.stdout);
    assert!(run.summary.contains("⚠️ 1 error"), "{}", run.summary);
    assert!(run.summary.contains("`fail-on: never`"), "{}", run.summary);
}

#[test]
fn warnings_fail_only_with_fail_on_warning() {
    let repo = with_warning();
    let run = action(&repo.root, &[]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("::warning file=.dojops/tools/odd/tool.yaml,"),
        "{}",
        run.stdout
    );
    assert!(run.summary.contains("| `DOJ007` |"), "{}", run.summary);
    let run = action(&repo.root, &[("FAIL_ON", "warning")]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.summary.contains("❌ 0 errors, 1 warning"),
        "{}",
        run.summary
    );
}

#[test]
fn a_clean_repository_passes_with_a_short_summary() {
    let repo = repo(&[]);
    let run = action(&repo.root, &[("FAIL_ON", "warning")]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("::"), "{}", run.stdout);
    assert!(
        run.summary.contains("✅ No problems in 2 files, 1 tool."),
        "{}",
        run.summary
    );
    assert!(!run.summary.contains("| rule |"), "{}", run.summary);
}

#[test]
fn sarif_is_written_where_asked() {
    let repo = with_error();
    let run = action(&repo.root, &[("SARIF_FILE", "reports/toolc.sarif")]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let text = std::fs::read_to_string(repo.root.join("reports/toolc.sarif")).expect("SARIF file");
    let sarif: serde_json::Value = serde_json::from_str(&text).expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "DOJ003");
    assert!(
        run.outputs.contains("sarif-file=reports/toolc.sarif\n"),
        "{}",
        run.outputs
    );
    assert!(
        run.summary
            .contains("SARIF written to `reports/toolc.sarif`"),
        "{}",
        run.summary
    );
}

#[test]
fn path_args_and_config_inputs_reach_toolc() {
    let repo = with_error();
    repo.write(
        "elsewhere/.dojops/tools/x/tool.yaml",
        VALID_TOOL
            .replace("name: my-tool", "name: Also_Bad")
            .as_bytes(),
    );
    repo.write(
        "elsewhere/.dojops/tools/x/input.schema.json",
        VALID_SCHEMA.as_bytes(),
    );
    // Only `elsewhere` is checked.
    let run = action(&repo.root, &[("PATH", "elsewhere")]);
    assert_eq!(run.code, 1);
    // A job writes no cache: no later job would read it.
    assert!(!repo.root.join(".toolc_cache").exists());
    assert!(
        run.stdout.contains("file=elsewhere/.dojops"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("file=.dojops/tools/bad"),
        "{}",
        run.stdout
    );
    // Quoted arguments stay one argument; `--ignore` removes the only error.
    let run = action(&repo.root, &[("ARGS", "--ignore 'DOJ003'")]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    // A configuration given by path is used.
    repo.write("ci/toolc.toml", b"[rules]\nDOJ003 = \"warning\"\n");
    let run = action(&repo.root, &[("CONFIG", "ci/toolc.toml")]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("::warning file="), "{}", run.stdout);
}

#[test]
fn the_baseline_input_hides_recorded_findings() {
    let repo = with_error();
    let written = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .current_dir(&repo.root)
        .args(["check", "--write-baseline=ci/toolc-baseline.json"])
        .output()
        .expect("toolc runs");
    assert!(written.status.success(), "{written:?}");
    let run = action(&repo.root, &[("BASELINE", "ci/toolc-baseline.json")]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("::error "), "{}", run.stdout);
    assert!(run.outputs.contains("errors=0\n"), "{}", run.outputs);
    // What the baseline hid is said in the job summary.
    assert!(
        run.summary.contains("1 finding hidden: 1 by the baseline."),
        "{}",
        run.summary
    );
    // A new finding is still reported and fails the step.
    repo.write(
        ".dojops/tools/new/tool.yaml",
        VALID_TOOL
            .replace("name: my-tool", "name: New_Bad")
            .as_bytes(),
    );
    repo.write(
        ".dojops/tools/new/input.schema.json",
        VALID_SCHEMA.as_bytes(),
    );
    let run = action(&repo.root, &[("BASELINE", "ci/toolc-baseline.json")]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.outputs.contains("errors=1\n"), "{}", run.outputs);
    // A baseline that does not exist fails the step: exit 2.
    let run = action(&repo.root, &[("BASELINE", "nope.json")]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
}

#[test]
fn toolc_failing_to_run_fails_the_step_whatever_fail_on_says() {
    let repo = with_error();
    repo.write("toolc.toml", b"[rules]\nNOPE999 = \"off\"\n");
    let run = action(&repo.root, &[("FAIL_ON", "never")]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("::error title=toolc action::toolc could not run (exit 2)"),
        "{}",
        run.stdout
    );
    let run = action(&repo.root, &[("FAIL_ON", "sometimes")]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("fail-on must be"), "{}", run.stdout);
}

#[test]
fn action_yml_runs_this_script_with_every_input() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let action = std::fs::read_to_string(root.join("action.yml")).expect("action.yml");
    assert!(action.contains("using: composite"));
    assert!(action.contains("scripts/github-action.sh"));
    // Installing is the installer's job (tests/action_install.rs runs it), with the version
    // the action resolved and its own source to build from when there is none.
    assert!(action.contains("scripts/install-toolc.sh"));
    assert!(action.contains("VERSION: ${{ steps.key.outputs.version }}"));
    assert!(action.contains("ACTION_PATH: ${{ github.action_path }}"));
    assert!(action.contains("uses: actions/cache@"));
    for input in [
        "path",
        "args",
        "config",
        "baseline",
        "fail-on",
        "sarif-file",
        "diff",
        "version",
    ] {
        assert!(action.contains(&format!("\n  {input}:\n")), "input {input}");
        if input != "version" {
            let env = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
            assert!(
                action.contains(&format!("{env}: ${{{{ inputs.{input} }}}}")),
                "{env}"
            );
        }
    }
}

/// Run git in `dir` with a fixed identity and no user configuration.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "toolc")
        .env("GIT_AUTHOR_EMAIL", "toolc@example.com")
        .env("GIT_COMMITTER_NAME", "toolc")
        .env("GIT_COMMITTER_EMAIL", "toolc@example.com")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}");
}

#[test]
fn diff_annotates_breaking_changes_and_adds_the_stat_table_to_the_summary() {
    let repo = repo(&[]);
    git(&repo.root, &["init", "-q", "-b", "main"]);
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "-m", "v1"]);
    git(&repo.root, &["checkout", "-q", "-b", "feature"]);
    repo.write(
        ".dojops/tools/my-tool/input.schema.json",
        br#"{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}"#,
    );
    git(&repo.root, &["commit", "-q", "-am", "v2"]);
    git(
        &repo.root,
        &["update-ref", "refs/remotes/origin/main", "main"],
    );
    // `true` on a pull request: the merge base with the base branch.
    let run = action_with_env(
        &repo.root,
        &[("DIFF", "true")],
        &[("GITHUB_BASE_REF", "main")],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("::error file=.dojops/tools/my-tool/input.schema.json"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("BRK012"), "{}", run.stdout);
    assert!(run.summary.contains("### toolc diff"), "{}", run.summary);
    assert!(
        run.summary
            .contains("| `my-tool` | tool | dojops-tool | changed | ❌ yes |"),
        "{}",
        run.summary
    );
    assert!(run.outputs.contains("errors=2"), "{}", run.outputs);
    // A revision; `false` runs no diff.
    let run = action(&repo.root, &[("DIFF", "main")]);
    assert_eq!(run.code, 1);
    let run = action(&repo.root, &[("DIFF", "false")]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(!run.summary.contains("toolc diff"));
    let run = action(&repo.root, &[("DIFF", "no-such-branch")]);
    assert_eq!(run.code, 2);
    // The input is a revision, never a folder the pull request committed under its name.
    repo.write("release/.dojops/tools/my-tool/input.schema.json", b"{}");
    let run = action(&repo.root, &[("DIFF", "release")]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.contains("fetch-depth: 0"), "{}", run.stdout);
}

#[test]
fn the_summary_shows_both_places_of_a_changed_mcp_server_package() {
    let v1 = "{\n  \"mcpServers\": {\n    \"weather\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@acme/weather-mcp@1.2.0\"]\n    }\n  }\n}\n";
    let repo = repo(&[(".mcp.json", v1)]);
    git(&repo.root, &["init", "-q", "-b", "main"]);
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "-m", "v1"]);
    git(&repo.root, &["checkout", "-q", "-b", "feature"]);
    repo.write(".mcp.json", v1.replace("1.2.0", "2.0.0").as_bytes());
    git(&repo.root, &["commit", "-q", "-am", "v2"]);
    let run = action(&repo.root, &[("DIFF", "main")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.summary.contains("### Changes to review"),
        "{}",
        run.summary
    );
    let row = run
        .summary
        .lines()
        .find(|l| l.starts_with("| `BRK062` |") && l.contains(".mcp.json"))
        .unwrap_or_else(|| panic!("no BRK062 row: {}", run.summary));
    // The new place, then the old one.
    assert_eq!(row.matches("`.mcp.json:5`").count(), 2, "{row}");
    assert!(row.contains("in \\`main\\`"), "{row}");
    assert!(
        run.summary
            .contains("| `weather` | MCP server | mcp-config | changed | ❌ yes |"),
        "{}",
        run.summary
    );
}

#[cfg(unix)]
#[test]
fn file_names_in_the_summary_are_shown_as_written_not_as_markdown() {
    // A folder name a stranger can commit: backticks, a link, HTML.
    let folder = ".dojops/tools/`x`[click](https:evil)<img>";
    let bad = VALID_TOOL.replace("name: my-tool", "name: Bad_Name");
    let repo = repo(&[
        (&format!("{folder}/tool.yaml"), bad.as_str()),
        (&format!("{folder}/input.schema.json"), VALID_SCHEMA),
    ]);
    let run = action(&repo.root, &[("fail-on", "never")]);
    let line = run
        .summary
        .lines()
        .find(|l| l.contains("click"))
        .unwrap_or_else(|| panic!("{}", run.summary));
    // One code span fenced by more backticks than the name holds: the link and the tag stay
    // text inside it.
    assert!(
        line.starts_with("| ``.dojops/tools/`x`[click](https:evil)<img>/tool.yaml`` |"),
        "{line}"
    );
}

/// Text of `markdown` that GitHub renders outside code, where it looks for mentions (`@user`),
/// issues (`#1`, `owner/repo#1`) and commits; consecutive text is one node there.
fn text_outside_code(markdown: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser};
    let mut text = String::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) => text.push_str(&t),
            _ => text.push('\n'),
        }
    }
    text
}

#[test]
fn the_summary_mentions_and_references_nothing_a_file_wrote() {
    // A package a pull request can name: an `@user`, an issue elsewhere and a commit.
    let v1 = "{\"mcpServers\": {\"weather\": {\"command\": \"npx\", \"args\": [\"@acme/weather-mcp@1.2.0\"]}}}\n";
    let v2 = v1.replace(
        "@acme/weather-mcp@1.2.0",
        "@octocat/x`y #1 torvalds/linux#1 6dcb09b5b57875f334f61aebed695e2e4193db5e",
    );
    let repo = repo(&[(".mcp.json", v1)]);
    git(&repo.root, &["init", "-q", "-b", "main"]);
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "-m", "v1"]);
    repo.write(".mcp.json", v2.as_bytes());
    let run = action(&repo.root, &[("DIFF", "main")]);
    assert!(run.summary.contains("torvalds/linux#1"), "{}", run.summary);
    let text = text_outside_code(&run.summary);
    let linked =
        regex::Regex::new(r"@[A-Za-z0-9]|#[0-9]|(?i-u:\b[0-9a-f]{7,}\b)").expect("pattern");
    let found: Vec<&str> = linked.find_iter(&text).map(|m| m.as_str()).collect();
    assert!(found.is_empty(), "{found:?} linked in\n{}", run.summary);
}
