//! Every function of a rule's `then`, over the file's tree: each fires and each stays silent.

use super::*;

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

/// A tool rule reads the schema an agentcli tool without one is given (an object of no
/// properties, that takes no others) as it reads a written one: each tool sees it whole.
#[test]
fn a_tool_without_a_schema_is_read_with_the_schema_it_is_given() {
    let rule = |then: &str| {
        format!(
            "[[custom-rules]]\ncode = \"ORG001\"\nname = \"under-test\"\nseverity = \"warning\"\nmessage = \"fired on {{name}}\"\nsubject = \"tool\"\nformats = [\"agentcli-manifest\"]\nthen = {then}\n"
        )
    };
    let manifest = r#"{"tools": [
  {"name": "a", "description": "Lists the files of a folder", "command": ["./tools/bin/a"]},
  {"name": "b", "description": "Lists the files of a folder", "command": ["./tools/bin/b"]}
]}
"#;
    let fired = |then: &str| {
        let repo = Repo::with(&[("toolc.toml", &rule(then)), ("tools.json", manifest)]);
        custom_lines(&repo)
    };
    let found = fired(r#"{ field = "parameters.additionalProperties", function = "truthy" }"#);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].contains("fired on a") && found[1].contains("fired on b"),
        "{found:?}"
    );
    let silent = fired(
        r#"{ field = "parameters", function = "schema", options = { schema = { required = ["type", "properties"], properties = { type = { const = "object" } } } } }"#,
    );
    assert!(silent.is_empty(), "{silent:?}");
}
