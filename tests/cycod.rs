//! cycod custom tools: every rule triggered at the right line and column with its severity,
//! and silent on near misses; the spec's examples and the real-world corpus.

mod common;

use common::{CYCOD_STEPS as STEPS, Repo, VALID_CYCOD as BASE, lines};

const T: &str = ".cycod/tools/search.yaml";

/// Diagnostics (as `path:line:col CODE severity message`) for a repository of these files.
fn check_files(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&repo.check().expect("config"))
}

/// Diagnostics for one tool file at `T`.
fn check(tool: &str) -> Vec<String> {
    check_files(&[(T, tool)])
}

/// Assert the diagnostics of one tool at `T` are exactly `want` (`line:col CODE severity message`).
fn expect(tool: &str, want: &[&str]) {
    let want: Vec<String> = want.iter().map(|w| format!("{T}:{w}")).collect();
    assert_eq!(check(tool), want);
}

fn silent(tool: &str) {
    expect(tool, &[]);
}

#[test]
fn valid_tool_is_silent() {
    silent(BASE);
}

#[test]
fn every_key_of_the_spec_is_accepted() {
    silent(
        r#"name: search
description: Everything the spec defines
parameters:
  PATTERN:
    description: Pattern
    type: string
    required: false
    default: ''
platforms: [windows, linux, macos]
tags: [search, read]
uses:
  config: name0
  configs: [name1]
  profile: p0
  profiles: [p1]
  tool: helper
  tools: [helper]
with:
  config: {model: x}
  mcps: [{name: inline-mcp, command: npx}]
  tools:
    - name: helper
      bash: echo {Q}
      parameters:
        Q: {description: q}
script: grep "{PATTERN}" .
shell: bash
arguments:
  pattern: "{PATTERN}"
input: "{PATTERN}"
timeout: 60000
working-directory: ~/src
environment:
  DEBUG: "false"
  PATH: "${PATH}:/usr/local/bin"
"#,
    );
}

// CYC001 unknown-key

#[test]
fn unknown_keys_are_errors_with_did_you_mean() {
    expect(
        &BASE.replace("description: Search", "descripton: Search"),
        &["2:1 CYC001 error unknown key `descripton`"],
    );
    expect(
        &BASE.replace(
            "    required: true\n",
            "    required: true\n    detailed-help: x\n",
        ),
        &["9:5 CYC001 error unknown key `parameters.PATTERN.detailed-help`"],
    );
    expect(
        "steps:\n  - bash: ls\n    continue-on-error: true\ntags: [read]\n",
        &["3:5 CYC001 error unknown key `steps[0].continue-on-error`"],
    );
}

// CYC002 wrong-field-type

#[test]
fn wrong_types_are_errors() {
    expect(
        &BASE.replace("tags: [search, read]", "tags: read"),
        &[
            "13:7 CYC002 error `tags` must be a list of strings, found a string",
            "13:7 SEC021 warning this tool has no `read`, `write` or `run` tag",
        ],
    );
    expect(
        &format!("{BASE}environment:\n  variables:\n    GH_REPO: \"{{PATTERN}}\"\n"),
        &[
            "17:3 CYC002 error environment variable `environment.variables` must be a string, found a mapping",
        ],
    );
}

#[test]
fn scalars_cycod_reads_as_strings_are_fine() {
    silent(&format!(
        "{BASE}environment:\n  DEBUG: true\n  RETRIES: 3\n  EMPTY:\n"
    ));
}

// CYC003 name-differs-from-file

#[test]
fn name_differs_from_file_stem() {
    expect(
        &BASE.replace("name: search", "name: grep-code"),
        &["1:7 CYC003 warning tool name `grep-code` differs from its file name `search`"],
    );
    silent(&BASE.replace("name: search\n", ""));
}

// CYC004 duplicate-tool-name

#[test]
fn duplicate_names_in_one_folder() {
    let other = BASE.replace("name: search", "name: search\n# a copy");
    let found = check_files(&[(T, BASE), (".cycod/tools/search-copy.yaml", &other)]);
    assert_eq!(
        found,
        [
            ".cycod/tools/search-copy.yaml:1:7 CYC003 warning tool name `search` differs from its file name `search-copy`",
            ".cycod/tools/search.yaml:1:7 CYC004 error a tool named `search` is already defined in this folder",
        ]
    );
    // The same name in two scope folders is two tools.
    let found = check_files(&[(&format!("a/{T}"), BASE), (&format!("b/{T}"), BASE)]);
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn duplicate_inline_tools() {
    expect(
        &format!(
            "{BASE}with:\n  tools:\n    - name: h\n      bash: ls\n    - name: h\n      bash: ls\n"
        ),
        &["20:13 CYC004 error an inline tool named `h` is already defined above"],
    );
}

// CYC005 missing-command, CYC006 multiple-commands

#[test]
fn a_tool_needs_a_command() {
    expect(
        &BASE.replace("bash: grep -r \"{PATTERN}\" {DIRECTORY}\n", ""),
        &[
            "1:1 CYC005 error this tool has nothing to run: it has none of `run`, `bash`, `cmd`, `pwsh`, `python`, `script`, `tool`, `mcp` or `steps`",
        ],
    );
    expect(
        &BASE.replace("bash: grep -r \"{PATTERN}\" {DIRECTORY}", "bash: \"\""),
        &["3:1 CYC005 error this tool has nothing to run: `bash` is empty"],
    );
    expect(
        "steps: []\ntags: [read]\n",
        &["1:1 CYC005 error this tool has nothing to run: `steps` is empty"],
    );
}

#[test]
fn several_commands_name_the_one_that_runs() {
    expect(
        &BASE.replace(
            "bash: grep",
            "run: grep -r {PATTERN} {DIRECTORY}\nbash: grep",
        ),
        &["4:1 CYC006 warning `bash` never runs: `run` is also set and takes precedence"],
    );
    expect(
        "steps:\n  - bash: ls\ncmd: dir\ntags: [read]\n",
        &["3:1 CYC006 warning `cmd` never runs: `steps` is also set and takes precedence"],
    );
}

// CYC007 step-multiple-commands, CYC005 for steps, CYC008 duplicate-step-name

#[test]
fn each_step_runs_exactly_one_command() {
    expect(
        "steps:\n  - name: list\n    bash: ls\n    cmd: dir\n  - name: empty\ntags: [read]\n",
        &[
            "4:5 CYC007 error step `list` sets both `bash` and `cmd`",
            "5:5 CYC005 error step `empty` has nothing to run: it has no command option",
        ],
    );
    silent("steps:\n  - bash: ls\n  - run: ls\ntags: [read]\n");
}

#[test]
fn step_names_are_unique_counting_default_names() {
    expect(
        "steps:\n  - name: a\n    bash: ls\n  - name: a\n    bash: ls\ntags: [read]\n",
        &["4:11 CYC008 error a step named `a` is already defined in this tool"],
    );
    expect(
        "steps:\n  - name: step2\n    bash: ls\n  - bash: ls\ntags: [read]\n",
        &[
            "4:5 CYC008 error step 2 has no name, so it is called `step2`, a name an earlier step already has",
        ],
    );
    silent(
        "steps:\n  - bash: ls\n  - bash: echo {step1.output}\n  - name: last\n    bash: echo {step2.exit-code}\ntags: [read]\n",
    );
}

// CYC009 invalid-parameter-type, CYC010 invalid-parameter-default, CYC011 required-with-default

#[test]
fn parameter_types() {
    expect(
        &BASE.replace(
            "    type: string\n    description: Where",
            "    type: integer\n    description: Where",
        ),
        &[
            "10:11 CYC009 error `parameters.DIRECTORY.type` must be `string`, `number`, `boolean` or `array`, found `integer`",
        ],
    );
    // cycod compares the type case-insensitively.
    silent(&BASE.replace(
        "    type: string\n    description: Where",
        "    type: String\n    description: Where",
    ));
}

#[test]
fn defaults_must_fit_their_type() {
    let tool = |ty: &str, default: &str| {
        BASE.replace(
            "    type: string\n    description: Where to search\n    default: \".\"",
            &format!("    type: {ty}\n    description: Where to search\n    default: {default}"),
        )
    };
    expect(
        &tool("number", "ten"),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be a number for `type: number`, found `ten`",
        ],
    );
    expect(
        &tool("boolean", "maybe"),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be `true` or `false` for `type: boolean`, found `maybe`",
        ],
    );
    expect(
        &tool("array", "\"a,b\""),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be a list (`[a, b]`) for `type: array`, found `\"a,b\"`",
        ],
    );
    expect(
        &tool("string", "[a, b]"),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be a single value for `type: string`, found a list",
        ],
    );
    for (ty, default) in [
        ("number", "5"),
        ("number", "\"2.5\""),
        ("boolean", "false"),
        ("boolean", "\"yes\""),
        ("array", "[a, b]"),
        ("string", "3"),
    ] {
        silent(&tool(ty, default));
    }
}

#[test]
fn required_parameter_with_default_is_info() {
    expect(
        &BASE.replace(
            "    required: true\n",
            "    required: true\n    default: TODO\n",
        ),
        &["9:5 CYC011 info parameter `PATTERN` is required, so its default `TODO` is never used"],
    );
    silent(&BASE.replace(
        "    default: \".\"",
        "    required: false\n    default: \".\"",
    ));
}

// CYC012 unknown-parameter-reference, CYC013 unused-parameter, SEC020 raw-parameter-reference

#[test]
fn unknown_parameter_is_reported_on_the_reference() {
    expect(
        &BASE.replace("\"{PATTERN}\"", "\"{PATERN}\""),
        &[
            "3:16 CYC012 error `{PATERN}` is not a parameter of this tool",
            "5:3 CYC013 warning parameter `PATTERN` is never referenced",
        ],
    );
    expect(
        &format!("{BASE}working-directory: \"{{REPO_DIR}}\"\n"),
        &["16:21 CYC012 error `{REPO_DIR}` is not a parameter of this tool"],
    );
}

#[test]
fn references_inside_block_scalars_point_at_the_reference() {
    expect(
        &BASE.replace(
            "bash: grep -r \"{PATTERN}\" {DIRECTORY}",
            "bash: |\n  cd {DIRECTORY}\n  grep -r \"{PATERN}\" .\n  grep -r \"{PATTERN}\" .",
        ),
        &["5:12 CYC012 error `{PATERN}` is not a parameter of this tool"],
    );
}

#[test]
fn other_braces_are_not_references() {
    // jq programs, JSON in heredocs, `${VAR}`, positional templates and jq shorthands.
    silent(&BASE.replace(
        "bash: grep -r \"{PATTERN}\" {DIRECTORY}",
        r#"bash: |
  cat << EOF > /dev/null
  {"pattern": "{PATTERN}", "dir": {"path": "${HOME}/{DIRECTORY}"}}
  EOF
  grep -r "{PATTERN}" {DIRECTORY} | jq -R '{line: ., n: 1}' | jq '{line}' | xargs printf '{0} {1}'"#,
    ));
}

#[test]
fn parameters_used_anywhere_count_as_used() {
    silent(
        r#"bash: grep -r "{A}" .
arguments:
  b: "{B}"
input: "{C}"
working-directory: "{D}"
environment:
  E: "{E}"
parameters:
  A: {description: a}
  B: {description: b}
  C: {description: c}
  D: {description: d}
  E: {description: e}
tags: [read]
"#,
    );
}

#[test]
fn raw_references_are_a_security_warning() {
    expect(
        &BASE.replace("{DIRECTORY}", "{RAW:DIRECTORY}"),
        &[
            "3:27 SEC020 warning `{RAW:DIRECTORY}` inserts `DIRECTORY` into the command without escaping",
        ],
    );
    expect(
        &BASE.replace("{DIRECTORY}", "{RAW:DIRECTORY} {RAW:DIR}"),
        &[
            "3:27 SEC020 warning `{RAW:DIRECTORY}` inserts `DIRECTORY` into the command without escaping",
            "3:43 CYC012 error `{RAW:DIR}` is not a parameter of this tool",
        ],
    );
}

// CYC014 unknown-step-reference, CYC015 forward-step-reference, CYC016 unknown-step-property

#[test]
fn step_references() {
    silent(STEPS);
    expect(
        &STEPS.replace("{fetch.output}", "{fetc.output}"),
        &["5:17 CYC014 error `{fetc.output}` refers to a step `fetc` this tool does not have"],
    );
    expect(
        &STEPS.replace("{fetch.output}", "{fetch.outptu}"),
        &["5:17 CYC016 error `{fetch.outptu}` reads `outptu`, which a step does not have"],
    );
    expect(
        &STEPS.replace("https://example.com", "https://example.com/{count.stdout}"),
        &["3:39 CYC015 error `{count.stdout}` reads the output of step `count`, which runs later"],
    );
    expect(
        &STEPS.replace("{fetch.output}", "{count.exit-code}"),
        &["5:17 CYC015 error step `count` reads its own output with `{count.exit-code}`"],
    );
    for property in ["output", "stdout", "stderr", "exit-code"] {
        silent(&STEPS.replace("{fetch.output}", &format!("{{fetch.{property}}}")));
    }
    // `{obj.attr}` in Python is not a step reference.
    silent("python: |\n  print(f\"{self.name}\")\ntags: [read]\n");
}

// CYC017 invalid-platform, CYC018 windows-only-shell, CYC019 conflicting-shell

#[test]
fn platforms_and_shells() {
    expect(
        &BASE.replace("[windows, linux, macos]", "[windows, linux, osx]"),
        &["14:29 CYC017 error platform `osx` is not `windows`, `linux` or `macos`"],
    );
    expect(
        &BASE
            .replace("bash: grep -r", "cmd: findstr")
            .replace("[windows, linux, macos]", "[linux, macos]"),
        &["3:1 CYC018 warning `cmd` runs only on Windows, but `platforms` does not list `windows`"],
    );
    silent(&BASE.replace("bash: grep -r", "cmd: findstr"));
    expect(
        &BASE.replace("timeout: 10000", "timeout: 10000\nshell: pwsh"),
        &[
            "16:8 CYC019 warning `shell: pwsh` contradicts `bash:`, which already runs its script with bash",
        ],
    );
    silent(
        &BASE
            .replace("bash: grep -r", "script: Select-String")
            .replace("timeout: 10000", "timeout: 10000\nshell: pwsh"),
    );
}

// CYC020 invalid-timeout, CYC021 short-timeout

#[test]
fn timeouts() {
    expect(
        &BASE.replace("timeout: 10000", "timeout: 0"),
        &["15:10 CYC020 error `timeout` must be a positive number of milliseconds, found `0`"],
    );
    expect(
        &BASE.replace("timeout: 10000", "timeout: 1.5"),
        &[
            "15:10 CYC020 error `timeout` must be a whole number of milliseconds, found `1.5` (a fraction)",
        ],
    );
    expect(
        &BASE.replace("timeout: 10000", "timeout: 30s"),
        &[
            "15:10 CYC020 error `timeout` must be a whole number of milliseconds, found `30s` (not a number)",
        ],
    );
    expect(
        &BASE.replace("timeout: 10000", "timeout: 30"),
        &["15:10 CYC021 warning `timeout` is 30 ms, too short for a process to start and finish"],
    );
    silent(&BASE.replace("timeout: 10000", "timeout: 100"));
    silent(&BASE.replace("timeout: 10000", "timeout: \"15000\""));
    expect(
        "steps:\n  - bash: ls\n    timeout: -5\ntags: [read]\n",
        &[
            "3:14 CYC020 error `steps[0].timeout` must be a positive number of milliseconds, found `-5`",
        ],
    );
}

// CYC022 missing-tool-name

#[test]
fn names_must_not_be_empty() {
    expect(
        &BASE.replace("name: search", "name: \"\""),
        &["1:1 CYC022 error `name` is empty"],
    );
    expect(
        &format!("{BASE}with:\n  tools:\n    - bash: ls\n"),
        &["18:7 CYC022 error inline tool `with.tools[0]` has no `name`"],
    );
}

// SEC021 missing-security-tag, SEC022 read-tool-writes

#[test]
fn security_tags() {
    expect(
        &BASE.replace("tags: [search, read]", "tags: [search]"),
        &["13:7 SEC021 warning this tool has no `read`, `write` or `run` tag"],
    );
    expect(
        &BASE.replace("tags: [search, read]\n", ""),
        &["1:1 SEC021 warning this tool has no `read`, `write` or `run` tag"],
    );
    silent(&BASE.replace("[search, read]", "[search, run]"));
}

#[test]
fn read_tools_that_write() {
    expect(
        &BASE.replace("{DIRECTORY}", "{DIRECTORY} > hits.txt"),
        &[
            "3:39 SEC022 warning this tool is tagged `read` but its command writes: a `>` redirection into a file",
        ],
    );
    expect(
        "steps:\n  - bash: git log\n  - bash: git push origin\ntags: [read]\n",
        &["3:11 SEC022 warning this tool is tagged `read` but its command writes: `git push`"],
    );
    expect(
        "bash: curl -s -X POST https://example.com\ntags: [read]\n",
        &["1:15 SEC022 warning this tool is tagged `read` but its command writes: `-X POST`"],
    );
    // Reads, redirections to /dev/null, and writes declared as such are fine.
    silent(&BASE.replace("{DIRECTORY}", "{DIRECTORY} 2>/dev/null | sort"));
    silent(
        &BASE
            .replace("{DIRECTORY}", "{DIRECTORY} > hits.txt")
            .replace("read]", "read, write]"),
    );
}

// REF010 unknown-tool-reference, REF011 tool-reference-cycle, REF012 unknown-mcp-reference

#[test]
fn tool_references_resolve_in_the_folder_or_inline() {
    let caller = "steps:\n  - bash: ls\n  - tool: serch\ntags: [read]\n";
    assert_eq!(
        check_files(&[(T, BASE), (".cycod/tools/caller.yaml", caller)]),
        [
            ".cycod/tools/caller.yaml:3:11 REF010 error `steps[1].tool` names tool `serch`, which is not defined in this `.cycod/tools` folder or in `with.tools`"
        ]
    );
    let caller = "uses:\n  tools: [search]\ntool: search\ntags: [read]\n";
    assert_eq!(
        check_files(&[(T, BASE), (".cycod/tools/caller.yaml", caller)]),
        Vec::<String>::new()
    );
    silent(&format!(
        "{BASE}uses:\n  tool: helper\nwith:\n  tools:\n    - name: helper\n      bash: ls\n"
    ));
    // A tool in another scope folder is not visible.
    assert_eq!(
        check_files(&[
            (&format!("a/{T}"), BASE),
            ("b/.cycod/tools/caller.yaml", caller)
        ])
        .len(),
        2
    );
}

#[test]
fn include_pattern_folders_are_loaded_beside_the_scope() {
    let config = "[formats.cycod-tool]\ninclude = [\"my-tools/*.yaml\"]\n";
    let helper = "name: helper\nbash: ls\ntags: [read]\n";
    let uses_scope = "name: wrapper\ntool: search\ntags: [read]\n";
    let caller = "steps:\n  - tool: helper\n  - tool: helpr\ntags: [read]\n";
    assert_eq!(
        check_files(&[
            ("toolc.toml", config),
            (T, BASE),
            ("my-tools/helper.yaml", helper),
            ("my-tools/wrapper.yaml", uses_scope),
            (".cycod/tools/caller.yaml", caller),
        ]),
        [
            ".cycod/tools/caller.yaml:3:11 REF010 error `steps[1].tool` names tool `helpr`, which is not defined in this `.cycod/tools` folder or in `with.tools`"
        ]
    );
}

#[test]
fn reference_cycles() {
    let a = "tool: b\ntags: [run]\n";
    let b = "steps:\n  - tool: c\ntags: [run]\n";
    let c = "uses:\n  tools: [a]\nbash: ls\ntags: [run]\n";
    assert_eq!(
        check_files(&[
            (".cycod/tools/a.yaml", a),
            (".cycod/tools/b.yaml", b),
            (".cycod/tools/c.yaml", c),
        ]),
        [".cycod/tools/c.yaml:2:11 REF011 error tool reference cycle `a → b → c → a`"]
    );
    expect(
        "tool: search\ntags: [run]\n",
        &["1:7 REF011 error tool reference cycle `search → search`"],
    );
    let c = "bash: ls\ntags: [run]\n";
    assert_eq!(
        check_files(&[
            (".cycod/tools/a.yaml", a),
            (".cycod/tools/b.yaml", b),
            (".cycod/tools/c.yaml", c),
        ]),
        Vec::<String>::new()
    );
}

#[test]
fn mcp_names_are_checked_against_mcp_json_when_there_is_one() {
    let tool = format!("{BASE}uses:\n  mcps: [github, gitlab]\n");
    assert_eq!(check(&tool), Vec::<String>::new());
    let found = check_files(&[
        (T, &tool),
        (
            ".cycod/mcp/mcp.json",
            r#"{"mcpServers": {"github": {"command": "npx"}}}"#,
        ),
    ]);
    assert_eq!(
        found,
        [format!(
            "{T}:17:18 REF012 error MCP server `gitlab` is not defined in this scope's `mcp/mcp.json` or in `with.mcps`"
        )]
    );
}

// The spec's examples and the real-world corpus.

#[test]
fn spec_multi_step_example_with_jq_is_silent_when_valid_yaml() {
    // The spec's `github-commit-stats`, with the two jq commands as block scalars: as printed
    // in the spec those plain scalars hold `: ` and are not valid YAML (see the corpus test).
    silent(
        r#"name: github-commit-stats
description: Get statistics for recent commits in a GitHub repository

steps:
  - name: fetch-commits
    bash: curl -s "https://api.github.com/repos/{OWNER}/{REPO}/commits?per_page=10"
    environment:
      GITHUB_TOKEN: "{AUTH_TOKEN}"  # Step-specific environment variable

  - name: count-authors
    bash: |
      echo '{fetch-commits.output}' | jq 'group_by(.commit.author.name) | map({author: .[0].commit.author.name, count: length}) | sort_by(.count) | reverse'

  - name: format-output
    bash: |
      echo '{count-authors.output}' | jq -r '.[] | "\(.author): \(.count) commits"'

parameters:
  OWNER:
    type: string
    description: Repository owner username
    required: true
  REPO:
    type: string
    description: Repository name
    required: true
  AUTH_TOKEN:
    type: string
    description: GitHub authentication token
    required: false

environment:
  DEBUG: "false"  # Tool-level environment variable applies to all steps

tags: [github, api, read]
timeout: 15000
"#
        .replace("name: github-commit-stats", "name: search")
        .as_str(),
    );
}

#[test]
fn real_world_corpus_gives_exactly_the_real_findings() {
    let Some(dir) = common::corpus("cycod") else {
        return;
    };
    let report = common::check_dir(&dir).expect("config");
    let p = ".cycod/tools/";
    let want: Vec<String> = [
        // Spec examples: no errors. `required: true` with a default, and no security tag on
        // the two minimal examples, are what the issue asks to report.
        "analyze-data.yaml:34:5 CYC011 info parameter `ANALYSIS_TYPE` is required, so its default `\"summary\"` is never used",
        // As printed in the spec, the jq line is a plain scalar holding `: `: every YAML
        // parser (cycod's included) rejects the file before any template is read.
        "github-commit-stats.yaml:11:90 SYN001 error `: ` inside an unquoted value starts a new mapping here",
        "multi-step-tool.yaml:1:1 SEC021 warning this tool has no `read`, `write` or `run` tag",
        // The PR-comment examples: keys the model does not have, `{REPO_DIR}` never defined.
        "pr-gh-pr-line-comment.yaml:1:7 CYC003 warning tool name `gh-pr-line-comment` differs from its file name `pr-gh-pr-line-comment`",
        "pr-gh-pr-line-comment.yaml:63:21 CYC012 error `{REPO_DIR}` is not a parameter of this tool",
        "pr-gh-pr-line-comment.yaml:69:1 CYC001 error unknown key `tests`",
        "pr-gh-pr-line-comment.yaml:79:1 CYC001 error unknown key `resources`",
        "pr-gh-pr-multi-comment.yaml:1:7 CYC003 warning tool name `gh-pr-multi-comment` differs from its file name `pr-gh-pr-multi-comment`",
        "pr-gh-pr-multi-comment.yaml:23:5 CYC001 error unknown key `steps[2].continue-on-error`",
        "pr-gh-pr-multi-comment.yaml:32:5 CYC001 error unknown key `steps[3].continue-on-error`",
        "pr-gh-pr-multi-comment.yaml:52:5 CYC001 error unknown key `steps[4].continue-on-error`",
        "pr-gh-pr-multi-comment.yaml:82:3 CYC013 warning parameter `REPO` is never referenced",
        "pr-gh-pr-multi-comment.yaml:88:21 CYC012 error `{REPO_DIR}` is not a parameter of this tool",
        "pr-gh-pr-multi-comment.yaml:94:1 CYC001 error unknown key `detailed-help`",
        // A backtick escape (`\``) inside a double-quoted scalar: not valid YAML.
        "pr-gh-pr-section-comment.yaml:68:71 SYN001 error a backslash escape that YAML does not know, inside double quotes",
        "pr-gh-pr-summary-comment.yaml:1:7 CYC003 warning tool name `gh-pr-summary-comment` differs from its file name `pr-gh-pr-summary-comment`",
        "pr-gh-pr-summary-comment.yaml:23:21 CYC012 error `{REPO_DIR}` is not a parameter of this tool",
        "pr-gh-pr-summary-comment.yaml:30:3 CYC002 error environment variable `environment.variables` must be a string, found a mapping",
        "pr-gh-pr-summary-comment.yaml:34:1 CYC001 error unknown key `error-handling`",
        "simple-tool.yaml:1:1 SEC021 warning this tool has no `read`, `write` or `run` tag",
    ]
    .iter()
    .map(|l| format!("{p}{l}"))
    .collect();
    assert_eq!(lines(&report), want);
}

#[test]
fn section_comment_example_once_its_yaml_is_valid() {
    // The same tool with the backtick escapes removed: the remaining findings are the
    // `{REPO_DIR}` reference and the nested `environment.variables` section.
    let Some(dir) = common::corpus("cycod") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join(".cycod/tools/pr-gh-pr-section-comment.yaml"))
        .expect("read")
        .replace("\\`", "'");
    let found = check_files(&[(".cycod/tools/gh-pr-section-comment.yaml", &text)]);
    let p = ".cycod/tools/gh-pr-section-comment.yaml";
    assert_eq!(
        found,
        [
            format!("{p}:60:21 CYC012 error `{{REPO_DIR}}` is not a parameter of this tool"),
            format!(
                "{p}:67:3 CYC002 error environment variable `environment.variables` must be a string, found a mapping"
            ),
        ]
    );
}

#[test]
fn hostile_files_never_panic() {
    for text in [
        "[]",
        "just a string",
        "42",
        "~",
        "# only a comment",
        "steps: 5\nparameters: [1]\nplatforms: linux\ntags: {a: 1}\n",
        "steps: [1, [2], {bash: [x]}]\n",
        "parameters: {A: 1, B: ~, C: {type: [x], default: {a: 1}, required: maybe}}\n",
        "bash: \"{\"\nenvironment: {A: [1, {b: 2}]}\narguments: [1]\n",
        "bash: \"{RAW:}{.}{a.}{.b}{{{}}}${{X}}é{É}\"\ntags: [read]\n",
        "uses: [a]\nwith: [b]\n",
        "uses: {tool: [x], tools: x, mcps: [1]}\nwith: {tools: [1, {name: [x]}], mcps: x}\nbash: ls\n",
        "timeout: 99999999999999999999\nbash: ls\n",
        "bash: \"cat <<\"\ntags: [read]\n",
        "bash: \"'\\\"`$(\"\ntags: [read]\n",
        "python: \"open(\"\ntags: [read]\n",
        "\u{feff}name: x\nbash: ls\r\ntags: [read]\r\n",
    ] {
        let _ = check(text);
    }
    // Inline tools nested deeply enough to reach the parser's depth limit.
    let mut deep = String::from("bash: ls\n");
    for _ in 0..80 {
        deep = format!(
            "name: n\nbash: ls\nwith:\n  tools:\n{}",
            deep.lines()
                .map(|l| format!("    {l}\n"))
                .collect::<String>()
                .replacen("    ", "    - ", 1)
        );
    }
    let _ = check(&deep);
}

// ── CYC023 ───────────────────────────────────────────────────────────────────────────

/// A tool that downloads a release archive into a folder whose default names a parameter.
fn fetch_tool(order: &str) -> String {
    let tag =
        "  TAG:\n    type: string\n    description: The release to fetch\n    required: true\n";
    let dest = "  DEST:\n    type: string\n    description: Where to put the archive\n    default: \"downloads/{TAG}\"\n";
    let params = if order == "tag first" {
        format!("{tag}{dest}")
    } else {
        format!("{dest}{tag}")
    };
    format!(
        "name: search\ndescription: Fetch a release archive\nbash: mkdir -p {{DEST}} && curl -fsSLo {{DEST}}/app.tgz https://example.com/{{TAG}}.tgz\nparameters:\n{params}tags: [write]\n"
    )
}

#[test]
fn cyc023_a_default_naming_an_earlier_parameter_is_not_substituted() {
    expect(
        &fetch_tool("tag first"),
        &[
            "12:25 CYC023 warning the default of `DEST` names `{TAG}`, which cycod has already replaced when it puts this default in: the braces reach the command as written",
        ],
    );
    // A default naming itself is inserted by its own replacement, and not read again either.
    expect(
        "name: search\ndescription: Echo a label\nbash: echo {LABEL}\nparameters:\n  LABEL:\n    type: string\n    description: The label\n    default: '[{LABEL}]'\ntags: [read]\n",
        &[
            "8:16 CYC023 warning the default of `LABEL` names `{LABEL}`, which cycod has already replaced when it puts this default in: the braces reach the command as written",
        ],
    );
}

#[test]
fn cyc023_is_silent_on_defaults_cycod_substitutes_or_that_name_no_parameter() {
    // Declared before the parameter it names: that replacement comes after the default is in.
    silent(&fetch_tool("dest first"));
    // Braces that are not a reference, or name no parameter (CYC012's business in a command,
    // a literal in a default), and shell expansions.
    silent(
        "name: search\ndescription: Format a report\nbash: jq {QUERY} {FILE}\nparameters:\n  FILE:\n    type: string\n    description: The input\n    required: true\n  QUERY:\n    type: string\n    description: The jq program\n    default: '{name: .title} | ${HOME} | {OTHER}'\ntags: [read]\n",
    );
}

/// Unknown references are capped per file as the file's own findings are: the first 200,
/// then one line that counts the rest (a tool naming 300,000 unknown tools printed each).
#[test]
fn unknown_tool_references_are_capped_per_file() {
    let names: Vec<String> = (0..300).map(|i| format!("u{i}")).collect();
    let caller = format!(
        "uses:\n  tools: [{}]\nbash: ls\ntags: [read]\n",
        names.join(", ")
    );
    let found = check_files(&[(T, BASE), (".cycod/tools/caller.yaml", &caller)]);
    assert_eq!(found.len(), 201, "{found:?}");
    assert!(found[..200].iter().all(|l| l.contains(" REF010 error ")));
    assert!(found[0].contains("names tool `u0`"), "{}", found[0]);
    assert!(found[199].contains("names tool `u199`"), "{}", found[199]);
    assert!(
        found[200].ends_with("100 more findings of this rule in this file are not shown"),
        "{}",
        found[200]
    );
}
