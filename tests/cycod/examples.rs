//! Valid tools are silent: every key of the spec, the spec's examples and the real-world corpus;
//! hostile files never panic.

use super::*;

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
