//! `[[custom-rules]]` in `toolc.toml`: rules a team writes without code, over toolc's view of
//! every tool and over each file's own tree. Each finding is checked for its file, line,
//! code and severity, and each rule for its silence on files that follow it.

mod common;

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use common::{Repo, lines};

/// Four rules over cycod tools and Agent Skills, reading both tools and files, written in the
/// syntax of the documentation.
const POLICY: &str = r#"
[[custom-rules]]
code = "ORG001"                 # a family of our own
name = "description-too-short"
severity = "warning"
message = "tool `{name}`: describe it in at least 40 characters"
subject = "tool"
formats = ["cycod-tool"]
given = "$"
then = { field = "description", function = "length", options = { min = 40 } }

[[custom-rules]]
code = "ORG002"
name = "cycod-timeout"
severity = "error"
message = "cycod tool `{name}` sets no timeout"
subject = "file"
formats = ["cycod-tool"]
then = { field = "timeout", function = "defined" }

[[custom-rules]]
code = "ORG003"
name = "skill-license"
severity = "info"
message = "skill `{name}` names no license"
subject = "file"
formats = ["agent-skill"]
given = "$"
then = { field = "license", function = "truthy" }

[[custom-rules]]
code = "ORGX004"
name = "no-todo"
severity = "warning"
message = "`{name}` leaves a TODO in what the model reads"
subject = "tool"
formats = ["cycod-tool", "agent-skill"]
then = [
  { field = "description", function = "defined" },
  { field = "description", function = "notPattern", options = { pattern = "\\bTODO\\b" } },
]
"#;

const SHORT_TOOL: &str = "name: short\ndescription: Too short\nbash: echo hi\ntags: [read]\n";
const GOOD_TOOL: &str = "name: good\ndescription: Lists every file of the folder it is given, one per line\nbash: ls -1\ntimeout: 30000\ntags: [read]\n";
const TODO_TOOL: &str = "name: todo\ndescription: Lists every file of the folder. TODO say which folder\nbash: ls -1\ntimeout: 5000\ntags: [read]\n";
const BARE_SKILL: &str = "---\nname: bare\ndescription: Writes release notes from merged pull requests; use when preparing a release.\n---\n\n# Bare\n\nWrite the notes.\n";
const TODO_SKILL: &str = "---\nname: todo-skill\ndescription: TODO describe when to use this skill and what it writes for the user.\nlicense: MIT\n---\n\n# Todo\n\nWrite the notes.\n";
const GOOD_SKILL: &str = "---\nname: good-skill\ndescription: Writes release notes from merged pull requests; use when preparing a release.\nlicense: Apache-2.0\n---\n\n# Good\n\nWrite the notes.\n";

fn policy_repo() -> Repo {
    Repo::with(&[
        ("toolc.toml", POLICY),
        (".cycod/tools/short.yaml", SHORT_TOOL),
        (".cycod/tools/good.yaml", GOOD_TOOL),
        (".cycod/tools/todo.yaml", TODO_TOOL),
        (".claude/skills/bare/SKILL.md", BARE_SKILL),
        (".claude/skills/todo-skill/SKILL.md", TODO_SKILL),
        (".claude/skills/good-skill/SKILL.md", GOOD_SKILL),
    ])
}

/// The findings of custom rules only (their codes are not toolc's).
fn custom_lines(repo: &Repo) -> Vec<String> {
    let report = repo.check().expect("valid configuration");
    lines(&report)
        .into_iter()
        .filter(|l| l.contains(" ORG"))
        .collect()
}

#[test]
fn each_rule_fires_on_its_file_at_its_line_and_severity() {
    let repo = policy_repo();
    assert_eq!(
        custom_lines(&repo),
        [
            ".claude/skills/bare/SKILL.md:2:1 ORG003 info skill `bare` names no license",
            ".claude/skills/todo-skill/SKILL.md:3:14 ORGX004 warning `todo-skill` leaves a TODO in what the model reads",
            ".cycod/tools/short.yaml:1:1 ORG002 error cycod tool `short` sets no timeout",
            ".cycod/tools/short.yaml:2:14 ORG001 warning tool `short`: describe it in at least 40 characters",
            ".cycod/tools/todo.yaml:2:14 ORGX004 warning `todo` leaves a TODO in what the model reads",
        ]
    );
}

#[test]
fn files_that_follow_the_rules_are_silent() {
    let repo = Repo::with(&[
        ("toolc.toml", POLICY),
        (".cycod/tools/good.yaml", GOOD_TOOL),
        (".claude/skills/good-skill/SKILL.md", GOOD_SKILL),
    ]);
    assert_eq!(custom_lines(&repo), Vec::<String>::new());
    // And the same files with the rules gone give the same report as with them.
    let report = repo.check().expect("config");
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| !d.rule.code.starts_with("ORG")),
        "{:?}",
        lines(&report)
    );
}

#[test]
fn a_missing_field_is_reported_on_its_parent() {
    // `timeout` missing under a parameter: the finding is at the parameter's key.
    let toml = r#"
[[custom-rules]]
code = "ORG001"
name = "parameter-description"
severity = "warning"
message = "describe each parameter"
subject = "file"
formats = ["cycod-tool"]
given = "$.parameters.*"
then = { field = "description", function = "truthy" }
"#;
    let tool = "name: short\ndescription: Lists the files of a folder, one per line, sorted\nbash: ls {DIR} {SORT}\ntags: [read]\nparameters:\n  DIR:\n    description: The folder\n  SORT:\n    default: name\n";
    let repo = Repo::with(&[("toolc.toml", toml), (".cycod/tools/short.yaml", tool)]);
    assert_eq!(
        custom_lines(&repo),
        [".cycod/tools/short.yaml:8:3 ORG001 warning describe each parameter"]
    );
}

#[test]
fn a_tool_rule_reads_every_format_the_same_way() {
    // The same rule covers a cycod tool, an agentcli manifest's tools and an Agent Skill.
    let toml = r#"
[[custom-rules]]
code = "ORG001"
name = "tool-names-kebab-case"
severity = "warning"
message = "`{name}` is not kebab-case ({format})"
then = { field = "name", function = "casing", options = { type = "kebab" } }
"#;
    let repo = Repo::with(&[
        ("toolc.toml", toml),
        (
            ".cycod/tools/ListFiles.yaml",
            "name: ListFiles\ndescription: Lists the files of a folder, one per line\nbash: ls\ntags: [read]\n",
        ),
        (
            ".cycod/tools/ok.yaml",
            "name: ok\ndescription: Lists the files\nbash: ls\ntags: [read]\n",
        ),
        (
            ".claude/skills/Notes/SKILL.md",
            "---\nname: Notes\ndescription: Writes release notes; use when preparing a release.\n---\n\nBody.\n",
        ),
    ]);
    let got = custom_lines(&repo);
    assert_eq!(
        got,
        [
            ".claude/skills/Notes/SKILL.md:2:7 ORG001 warning `Notes` is not kebab-case (agent-skill)",
            ".cycod/tools/ListFiles.yaml:1:7 ORG001 warning `ListFiles` is not kebab-case (cycod-tool)",
        ]
    );
}

#[test]
fn rules_come_through_extend() {
    let repo = Repo::with(&[
        ("shared/policy.toml", POLICY),
        (
            "toolc.toml",
            "extend = \"shared/policy.toml\"\n[rules]\nORG003 = \"off\"\n",
        ),
        (".cycod/tools/short.yaml", SHORT_TOOL),
        (".claude/skills/bare/SKILL.md", BARE_SKILL),
    ]);
    assert_eq!(
        custom_lines(&repo),
        [
            ".cycod/tools/short.yaml:1:1 ORG002 error cycod tool `short` sets no timeout",
            ".cycod/tools/short.yaml:2:14 ORG001 warning tool `short`: describe it in at least 40 characters",
        ]
    );
    // A setting naming a rule no file of the chain declares is still refused, at its place.
    repo.write(
        "toolc.toml",
        b"extend = \"shared/policy.toml\"\n[rules]\nORG030 = \"off\"\n",
    );
    let Err(diags) = repo.check() else {
        panic!("accepted an unknown rule");
    };
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].file.position(diags[0].span.start).line, 3);
    assert!(diags[0].message.starts_with("`ORG030` is not a rule code"));
}

/// One rule reading the file's tree with `then` as given, over one cycod tool.
fn one_rule(then: &str, tool: &str) -> Vec<String> {
    let toml = format!(
        "[[custom-rules]]\ncode = \"ORG001\"\nname = \"under-test\"\nseverity = \"warning\"\nmessage = \"fired\"\nsubject = \"file\"\nformats = [\"cycod-tool\"]\nthen = {then}\n"
    );
    let repo = Repo::with(&[("toolc.toml", &toml), (".cycod/tools/t.yaml", tool)]);
    custom_lines(&repo)
}

fn tool_with(extra: &str) -> String {
    format!("name: t\ndescription: Lists the files of a folder\nbash: ls\ntags: [read]\n{extra}")
}

#[test]
fn every_function_fires_and_stays_silent() {
    // (then, a file it fires on, a file it is silent on)
    let cases: &[(&str, &str, &str)] = &[
        (
            r#"{ field = "owner", function = "truthy" }"#,
            "owner: \"\"\n",
            "owner: ops\n",
        ),
        (
            r#"{ field = "owner", function = "truthy" }"#,
            "",
            "owner: ops\n",
        ),
        (
            r#"{ field = "hidden", function = "falsy" }"#,
            "hidden: true\n",
            "hidden: false\n",
        ),
        (
            r#"{ field = "owner", function = "defined" }"#,
            "",
            "owner: null\n",
        ),
        (
            r#"{ field = "owner", function = "undefined" }"#,
            "owner: x\n",
            "",
        ),
        (
            r#"{ field = "owner", function = "pattern", options = { pattern = "^team-" } }"#,
            "owner: ops\n",
            "owner: team-ops\n",
        ),
        (
            r#"{ field = "owner", function = "notPattern", options = { pattern = "(?i)todo" } }"#,
            "owner: TODO\n",
            "owner: ops\n",
        ),
        (
            r#"{ field = "owner", function = "enumeration", options = { values = ["ops", "dev"] } }"#,
            "owner: sales\n",
            "owner: dev\n",
        ),
        (
            r#"{ field = "owner", function = "length", options = { min = 3, max = 5 } }"#,
            "owner: abcdef\n",
            "owner: abc\n",
        ),
        (
            r#"{ field = "owner", function = "length", options = { max = 1 } }"#,
            "owner: {a: 1, b: 2}\n",
            "owner: {a: 1}\n",
        ),
        (
            r#"{ field = "owner", function = "casing", options = { type = "macro" } }"#,
            "owner: Ops\n",
            "owner: OPS_TEAM\n",
        ),
        (
            r#"{ field = "owner", function = "casing", options = { type = "snake" } }"#,
            "owner: opsTeam\n",
            "owner: ops_team\n",
        ),
        (
            r#"{ field = "owner", function = "schema", options = { schema = { type = "object", required = ["team"] } } }"#,
            "owner: {name: x}\n",
            "owner: {team: x}\n",
        ),
    ];
    for (then, fires, silent) in cases {
        let fired = one_rule(then, &tool_with(fires));
        assert_eq!(fired.len(), 1, "{then} on {fires:?}: {fired:?}");
        assert!(fired[0].contains("ORG001 warning fired"), "{fired:?}");
        let quiet = one_rule(then, &tool_with(silent));
        assert!(quiet.is_empty(), "{then} on {silent:?}: {quiet:?}");
    }
}

#[test]
fn tags_too_many_points_at_the_list() {
    let got = one_rule(
        r#"{ field = "tags", function = "length", options = { max = 0 } }"#,
        &tool_with(""),
    );
    assert_eq!(got, [".cycod/tools/t.yaml:4:7 ORG001 warning fired"]);
}

/// The configuration errors of a `toolc.toml` holding `rule` (after a valid rule), as
/// `line:col message`.
fn config_errors(rule: &str) -> Vec<String> {
    let valid = "[[custom-rules]]\ncode = \"ORG001\"\nname = \"ok\"\nseverity = \"info\"\nmessage = \"m\"\nthen = { function = \"truthy\" }\n\n";
    let repo = Repo::with(&[("toolc.toml", &format!("{valid}{rule}"))]);
    let Err(diags) = repo.check() else {
        panic!("accepted: {rule}");
    };
    diags
        .iter()
        .map(|d| {
            let p = d.file.position(d.span.start);
            assert_eq!(d.rule.code, "TLC003");
            format!("{}:{} {}", p.line, p.column, d.message)
        })
        .collect()
}

#[test]
fn a_broken_rule_is_a_configuration_error_at_its_place() {
    let head = "[[custom-rules]]\ncode = \"ORG002\"\nname = \"broken\"\nseverity = \"warning\"\nmessage = \"m\"\n";
    let cases: &[(&str, &str)] = &[
        (
            "given = \"$.[\"\nthen = { function = \"truthy\" }\n",
            "13:9 `$.[` is not a JSONPath",
        ),
        (
            "then = { function = \"exists\" }\n",
            "13:21 `exists` is not a function",
        ),
        (
            "then = { field = \"a\", function = \"pattern\", options = { pattern = \"(\" } }\n",
            "13:55 `options.pattern` does not compile as a regular expression: unclosed group",
        ),
        (
            "then = { field = \"a\", function = \"casing\", options = { type = \"train\" } }\n",
            "13:54 `options.type` of `casing` is one of",
        ),
        (
            "then = { field = \"a\", function = \"schema\", options = { schema = { type = 5 } } }\n",
            "13:54 `options.schema` is not a usable JSON Schema",
        ),
        (
            "then = { function = \"pattern\" }\n",
            "13:8 function `pattern` needs `options.pattern`",
        ),
        (
            "subject = \"server\"\nthen = { function = \"truthy\" }\n",
            "13:11 `server` is not a subject",
        ),
        (
            "formats = [\"cycod\"]\nthen = { function = \"truthy\" }\n",
            "13:12 `cycod` is not a format",
        ),
    ];
    for (rest, want) in cases {
        let got = config_errors(&format!("{head}{rest}"));
        assert!(
            got.len() == 1 && got[0].starts_with(want),
            "{rest}: {got:?}, want {want}"
        );
    }
    // The code and the name, each checked at its own place.
    let named = |code: &str, name: &str| {
        config_errors(&format!(
            "[[custom-rules]]\ncode = \"{code}\"\nname = \"{name}\"\nseverity = \"warning\"\nmessage = \"m\"\nthen = {{ function = \"truthy\" }}\n"
        ))
    };
    assert_eq!(
        named("SEC101", "mine"),
        [
            "9:8 `SEC101` collides with toolc's own `SEC` rules: choose a family of your own, e.g. `ORG`"
        ]
    );
    assert_eq!(
        named("DOJX001", "mine")[0],
        "9:8 `DOJX001` collides with toolc's own `DOJ` rules: choose a family of your own, e.g. `ORG`"
    );
    assert!(named("ORG1", "mine")[0].starts_with("9:8 `ORG1` is not a custom rule code"));
    assert_eq!(
        named("ORG001", "mine"),
        ["9:8 custom rule `ORG001` is declared twice"]
    );
    assert_eq!(
        named("ORG009", "ok"),
        ["10:8 custom rule ORG001 is already named `ok`"]
    );
    assert!(named("ORG009", "Not_Kebab")[0].starts_with("10:8 `Not_Kebab` is not a kebab-case"));
    assert!(
        named("ORG009", "unknown-key")[0]
            .starts_with("10:8 `unknown-key` is the name of toolc's own rule")
    );
}

fn toolc(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run toolc")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn select_and_ignore_take_the_family_and_the_code() {
    let repo = policy_repo();
    let o = toolc(
        &repo.root,
        &["check", "--select", "ORG", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let mut codes: Vec<&str> = json["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    codes.sort_unstable();
    assert_eq!(codes, ["ORG001", "ORG002", "ORG003", "ORGX004", "ORGX004"]);
    let o = toolc(
        &repo.root,
        &[
            "check",
            "--select",
            "ORG",
            "--ignore",
            "ORGX004",
            "--ignore",
            "skill-license",
            "--format",
            "json",
        ],
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let codes: Vec<&str> = json["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(codes, ["ORG002", "ORG001"]);
    assert_eq!(json["summary"]["errors"], 1);
    // A family no rule has is still a usage error.
    let o = toolc(&repo.root, &["check", "--select", "ZZZ"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_suppression_comment_silences_a_custom_rule() {
    let repo = Repo::with(&[
        ("toolc.toml", POLICY),
        (
            ".cycod/tools/short.yaml",
            "name: short # toolc: ignore ORG002 -- set by the runner\ndescription: Too short\nbash: echo hi\ntags: [read]\n",
        ),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        custom_lines(&repo),
        [
            ".cycod/tools/short.yaml:2:14 ORG001 warning tool `short`: describe it in at least 40 characters"
        ]
    );
    assert_eq!(report.summary.suppressed, 1);
}

#[test]
fn explain_and_rules_know_the_repository_rules() {
    let repo = policy_repo();
    let with_description = POLICY.replace(
        "code = \"ORG002\"",
        "code = \"ORG002\"\ndescription = \"The runner kills a tool after its timeout; without one it hangs the agent.\"",
    );
    repo.write("toolc.toml", with_description.as_bytes());
    let o = toolc(&repo.root, &["explain", "ORG002"]);
    assert!(o.status.success());
    let page = stdout(&o);
    assert!(
        page.starts_with("ORG002 · cycod-timeout · error · formats: cycod-tool\n"),
        "{page}"
    );
    assert!(
        page.contains("The runner kills a tool after its timeout"),
        "{page}"
    );
    assert!(page.contains("- `timeout` is present"), "{page}");
    let o = toolc(&repo.root, &["explain", "description-too-short"]);
    assert!(stdout(&o).contains("- `description` has a length of at least 40"));
    let o = toolc(&repo.root, &["rules", "ORG", "--format", "json"]);
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let codes: Vec<&str> = list
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|r| r["code"].as_str())
        .collect();
    assert_eq!(codes, ["ORG001", "ORG002", "ORG003", "ORGX004"]);
    assert_eq!(
        list[1]["summary"],
        "The runner kills a tool after its timeout; without one it hangs the agent."
    );
}

#[test]
fn sarif_and_statistics_carry_the_code() {
    let repo = policy_repo();
    let o = toolc(
        &repo.root,
        &["check", "--select", "ORG002", "--format", "sarif"],
    );
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).expect("sarif");
    let run = &sarif["runs"][0];
    assert_eq!(run["results"][0]["ruleId"], "ORG002");
    assert_eq!(run["results"][0]["level"], "error");
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert!(
        rules
            .iter()
            .any(|r| r["id"] == "ORG002" && r["name"] == "cycod-timeout")
    );
    let o = toolc(&repo.root, &["check", "--select", "ORG", "--statistics"]);
    let text = format!("{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("ORGX004"), "{text}");
    assert_one_name_column(&text);
    let o = toolc(&repo.root, &["rules", "ORG"]);
    assert_one_name_column(&stdout(&o));
}

/// A five-letter code does not push its line's columns out of line with the others: every
/// table line's rule name starts at the same place.
fn assert_one_name_column(text: &str) {
    let starts: std::collections::BTreeSet<usize> = text
        .lines()
        .filter(|l| l.contains("ORG"))
        .filter_map(|l| {
            let code = l.find("ORG")?;
            let after = code + l[code..].find(' ')?;
            Some(after + l[after..].find(|c: char| c != ' ')?)
        })
        .collect();
    assert_eq!(starts.len(), 1, "{text}");
}

#[test]
fn the_editor_gets_the_findings_of_an_unsaved_buffer() {
    let repo = Repo::with(&[
        ("toolc.toml", POLICY),
        (".cycod/tools/good.yaml", GOOD_TOOL),
    ]);
    let config = toolc::Config::discover(&repo.root, None).expect("config");
    let mut ws = toolc::Workspace::new(config, repo.root.clone());
    let custom = |report: &toolc::Report| -> Vec<String> {
        lines(report)
            .into_iter()
            .filter(|l| l.contains(" ORG"))
            .collect()
    };
    assert_eq!(
        custom(&ws.check_file(".cycod/tools/good.yaml")),
        Vec::<String>::new()
    );
    // The buffer drops the timeout: the editor sees ORG002 before the file is saved.
    ws.set_buffer(
        ".cycod/tools/good.yaml",
        GOOD_TOOL.replace("timeout: 30000\n", ""),
    );
    assert_eq!(
        custom(&ws.check_file(".cycod/tools/good.yaml")),
        [".cycod/tools/good.yaml:1:1 ORG002 error cycod tool `good` sets no timeout"]
    );
}

#[test]
fn a_run_from_the_cache_finds_what_a_fresh_run_finds() {
    let repo = policy_repo();
    let org = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter(|l| l.contains("(ORG"))
            .map(str::to_string)
            .collect()
    };
    let fresh = org(&toolc(
        &repo.root,
        &["check", "--no-cache", "--format", "github"],
    ));
    assert_eq!(fresh.len(), 5, "{fresh:?}");
    let cold = toolc(&repo.root, &["check", "--format", "github"]);
    let warm = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .env("TOOLC_DEBUG_CACHE", "1")
        .env("NO_COLOR", "1")
        .args(["check", "--format", "github"])
        .output()
        .expect("run toolc");
    // Every file came from the cache: their texts were let go and are read back.
    let err = String::from_utf8_lossy(&warm.stderr);
    assert!(
        err.contains("toolc: cache: 6 files from the cache, 0 loaded"),
        "{err}"
    );
    assert_eq!(org(&cold), fresh);
    assert_eq!(org(&warm), fresh);
}
