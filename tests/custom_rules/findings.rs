//! The policy's rules fire on their files at their lines and severities, stay silent on files that
//! follow them, read every format the same way, and come through `extend`.

use super::*;

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
