//! agentcli `tools.json`: every rule triggered at the right line and column, silent on valid
//! manifests (the reference's own examples and the real-world goagent manifest among them),
//! and each "Common mistakes" example of the reference giving its error.

mod common;

use common::{Repo, VALID_AGENTCLI as BASE, lines};

const M: &str = "tools.json";
const BIN: &str = "tools/bin/get_time";

/// Diagnostics (as `path:line:col CODE severity message`) for this manifest, with the
/// `get_time` program shipped next to it.
fn check(manifest: &str) -> Vec<String> {
    let repo = Repo::with(&[(M, manifest), (BIN, "#!/bin/sh\n")]);
    lines(&repo.check().expect("config"))
}

/// [`check`], with the manifest named on the command line: checked in full even when it is
/// too broken to have a manifest's shape (found by walking, such a `tools.json` is another
/// tool's and left alone).
fn check_named(manifest: &str) -> Vec<String> {
    let repo = Repo::with(&[(M, manifest), (BIN, "#!/bin/sh\n")]);
    lines(&common::check_named(&repo.root, &[M]))
}

/// Assert exactly one diagnostic, starting with `prefix` (`line:col CODE severity message…`).
fn expect_one(manifest: &str, prefix: &str) {
    let found = check_named(manifest);
    let want = format!("{M}:{prefix}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want),
        "expected one `{want}…`, got {found:#?}"
    );
}

/// Replace one `"key": value` line of the base entry.
fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "BASE lacks {from}");
    BASE.replacen(from, to, 1)
}

#[test]
fn valid_manifest_is_silent() {
    assert_eq!(check(BASE), Vec::<String>::new());
}

#[test]
fn reference_minimal_example_is_valid() {
    let manifest = r#"{
  "tools": [
    {
      "name": "get_time",
      "description": "Get current time for an IANA timezone",
      "schema": {
        "type": "object",
        "properties": {
          "timezone": {"type": "string", "description": "IANA timezone, e.g. Europe/Helsinki"},
          "tz": {"type": "string", "description": "Alias for timezone (deprecated)"}
        },
        "required": ["timezone"],
        "additionalProperties": false
      },
      "command": ["./tools/bin/get_time"],
      "timeoutSec": 5,
      "envPassthrough": ["TZ", "OAI_HTTP_TIMEOUT"]
    }
  ]
}
"#;
    assert_eq!(check(manifest), Vec::<String>::new());
}

#[test]
fn reference_windows_example_has_no_error() {
    let manifest = r#"{
  "tools": [
    {
      "name": "get_time",
      "schema": {"type":"object","properties":{"timezone":{"type":"string"}},"required":["timezone"],"additionalProperties":false},
      "command": ["./tools/bin/get_time.exe"],
      "timeoutSec": 5
    }
  ]
}
"#;
    let repo = Repo::with(&[(M, manifest), ("tools/bin/get_time.exe", "MZ")]);
    let found = lines(&repo.check().expect("config"));
    // The example leaves out `description`: legal, worth a warning, not an error.
    assert_eq!(
        found,
        [format!(
            "{M}:4:7 ACL012 warning tool[0] \"get_time\": the tool has no description"
        )]
    );
}

#[test]
fn real_world_goagent_manifest_has_no_error() {
    let Some(dir) = common::corpus("agentcli") else {
        return;
    };
    let report = common::check_dir(&dir).expect("config");
    assert_eq!(report.summary.tools, 28);
    assert_eq!(report.summary.errors, 0, "{:#?}", lines(&report));
    let warnings: Vec<String> = lines(&report)
        .into_iter()
        .filter(|l| l.contains(" warning "))
        .collect();
    // The programs are built by the project's Makefile, so none is shipped: one summary line.
    assert_eq!(
        warnings,
        [
            "tools.json:2:3 ACL011 warning none of the 28 programs under `./tools/bin/` exists next to this manifest"
        ]
    );
    let infos: Vec<String> = lines(&report)
        .into_iter()
        .filter(|l| l.contains(" info "))
        .collect();
    assert_eq!(
        infos,
        [
            "tools.json:286:26 SEC010 info tool[15] \"img_create\": envPassthrough hands the tool `OAI_API_KEY`, which looks like a credential",
            "tools.json:483:26 SEC010 info tool[26] \"github_search\": envPassthrough hands the tool `GITHUB_TOKEN`, which looks like a credential",
        ]
    );
}

// ── the reference's "Common mistakes", each with the runtime's wording ─────────────────

#[test]
fn common_mistake_missing_name() {
    expect_one(
        &with("      \"name\": \"get_time\",\n", ""),
        "3:5 ACL001 error tool[0]: name is required",
    );
    expect_one(
        &with("\"name\": \"get_time\"", "\"name\": \"\""),
        "4:15 ACL001 error tool[0]: name is required (it is empty)",
    );
}

#[test]
fn common_mistake_duplicate_name() {
    let manifest = r#"{
  "tools": [
    {"name": "a", "description": "A", "command": ["./tools/bin/get_time"]},
    {"name": "a", "description": "B", "command": ["./tools/bin/get_time"]}
  ]
}
"#;
    let repo = Repo::with(&[(M, manifest), (BIN, "")]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [format!(
            "{M}:4:14 ACL003 error tool[1] \"a\": duplicate name"
        )]
    );
    let related = &report.diagnostics[0].related[0];
    assert_eq!(related.file.position(related.span.start).line, 3);
}

#[test]
fn common_mistake_empty_command() {
    expect_one(
        &with("[\"./tools/bin/get_time\"]", "[]"),
        "7:18 ACL004 error tool[0] \"get_time\": command must have at least the program name",
    );
}

#[test]
fn common_mistake_command_outside_tools_bin() {
    expect_one(
        &with("[\"./tools/bin/get_time\"]", "[\"echo\", \"hi\"]"),
        "7:19 ACL005 error tool[0] \"get_time\": relative command[0] must start with ./tools/bin/ (got \"echo\")",
    );
}

#[test]
fn common_mistake_command_escapes_tools_bin() {
    // The span is the `..` that leaves tools/bin; the message shows the cleaned path.
    expect_one(
        &with("\"./tools/bin/get_time\"", "\"./tools/bin/../hack\""),
        "7:32 ACL006 error tool[0] \"get_time\": command[0] escapes ./tools/bin after normalization (got \"./tools/bin/../hack\" -> \"./tools/hack\")",
    );
    expect_one(
        &with("\"./tools/bin/get_time\"", r#"".\\tools\\bin\\..\\hack""#),
        "7:35 ACL006 error tool[0] \"get_time\": command[0] escapes ./tools/bin after normalization",
    );
    expect_one(
        &with("\"./tools/bin/get_time\"", "\"../tools/bin/get_time\""),
        "7:20 ACL006 error tool[0] \"get_time\": command[0] must not start with `..` or escape tools/bin (got \"../tools/bin/get_time\")",
    );
}

#[test]
fn common_mistake_invalid_env_names() {
    let found = check(&with(
        "\"timeoutSec\": 5",
        "\"timeoutSec\": 5, \"envPassthrough\": [\"OAI-API-KEY\", \"1BAD\"]",
    ));
    assert_eq!(
        found,
        [
            format!(
                "{M}:8:43 ACL008 error tool[0] \"get_time\": envPassthrough[0]: invalid name \"OAI-API-KEY\" (must match [A-Z_][A-Z0-9_]*)"
            ),
            format!(
                "{M}:8:58 ACL008 error tool[0] \"get_time\": envPassthrough[1]: invalid name \"1BAD\" (must match [A-Z_][A-Z0-9_]*)"
            ),
        ]
    );
}

// ── every rule, triggered and silent ───────────────────────────────────────────────────

#[test]
fn runtime_accepted_command_forms_are_silent() {
    for program in [
        "/usr/bin/env",
        "tools/bin/get_time",
        r".\\tools\\bin\\get_time",
        "./tools/bin/../bin/get_time",
    ] {
        let manifest = with("\"./tools/bin/get_time\"", &format!("\"{program}\""));
        assert_eq!(check(&manifest), Vec::<String>::new(), "{program}");
    }
}

#[test]
fn missing_tools_and_command() {
    // A misspelt `tools` is named in the help, and reported as unknown on its own.
    let repo = Repo::with(&[(M, "{\"tool\": []}\n")]);
    let report = common::check_named(&repo.root, &[M]);
    assert_eq!(
        lines(&report),
        [
            format!("{M}:1:1 ACL001 error required field `tools` is missing"),
            format!("{M}:1:2 ACL010 warning the manifest: unknown key `tool`"),
        ]
    );
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("rename `tool` to `tools`")
    );
    expect_one(
        &with("      \"command\": [\"./tools/bin/get_time\"],\n", ""),
        "3:5 ACL001 error tool[0] \"get_time\": command is required",
    );
}

#[test]
fn wrong_field_types() {
    expect_one(
        "[]\n",
        "1:1 ACL002 error the manifest must be a JSON object",
    );
    expect_one(
        "{\"tools\": {}}\n",
        "1:11 ACL002 error `tools` must be a list of tool objects, found an object",
    );
    expect_one(
        &with(
            "\"command\": [\"./tools/bin/get_time\"]",
            "\"command\": \"./tools/bin/get_time --utc\"",
        ),
        "7:18 ACL002 error tool[0] \"get_time\": `command` must be a list of strings (program, then arguments), found a string",
    );
    expect_one(
        &with("\"timeoutSec\": 5", "\"timeoutSec\": \"5\""),
        "8:21 ACL002 error tool[0] \"get_time\": `timeoutSec` must be an integer, found a string",
    );
    expect_one(
        &with("\"name\": \"get_time\"", "\"name\": 7"),
        "4:15 ACL002 error tool[0]: `name` must be a string, found an integer",
    );
}

#[test]
fn invalid_timeouts() {
    expect_one(
        &with("\"timeoutSec\": 5", "\"timeoutSec\": 0"),
        "8:21 ACL007 error tool[0] \"get_time\": timeoutSec must be a positive number of seconds, found `0`",
    );
    expect_one(
        &with("\"timeoutSec\": 5", "\"timeoutSec\": 2.5"),
        "8:21 ACL007 error tool[0] \"get_time\": timeoutSec must be a whole number of seconds, found `2.5`",
    );
}

#[test]
fn env_names_normalised_by_the_runtime() {
    // The implementation notes' example: the runtime ends up with OAI_API_KEY, PATH, TZ.
    let found = check(&with(
        "\"timeoutSec\": 5",
        "\"timeoutSec\": 5, \"envPassthrough\": [\"oai_api_key\", \"OAI_API_KEY\", \" Path \", \"TZ\"]",
    ));
    assert_eq!(
        found,
        [
            format!(
                "{M}:8:43 ACL009 warning tool[0] \"get_time\": envPassthrough[0] \"oai_api_key\" is passed as \"OAI_API_KEY\""
            ),
            format!(
                "{M}:8:43 SEC010 info tool[0] \"get_time\": envPassthrough hands the tool `OAI_API_KEY`, which looks like a credential"
            ),
            format!(
                "{M}:8:58 ACL009 warning tool[0] \"get_time\": envPassthrough[1] \"OAI_API_KEY\" duplicates envPassthrough[0] once normalised to \"OAI_API_KEY\""
            ),
            format!(
                "{M}:8:73 ACL009 warning tool[0] \"get_time\": envPassthrough[2] \" Path \" is passed as \"PATH\""
            ),
        ]
    );
    let report = Repo::with(&[
        (
            M,
            &with(
                "\"timeoutSec\": 5",
                "\"timeoutSec\": 5, \"envPassthrough\": [\" Path \"]",
            ),
        ),
        (BIN, ""),
    ])
    .check()
    .expect("config");
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("write the list as agentcli reads it: `\"envPassthrough\": [\"PATH\"]`")
    );
    // A long list is spelled by its first names in each finding's note and help: every
    // finding held a copy of the whole list (a list of megabytes on one line, 25 times its
    // size).
    let names: Vec<String> = (0..30).map(|i| format!("\"v{i}\"")).collect();
    let manifest = with(
        "\"timeoutSec\": 5",
        &format!(
            "\"timeoutSec\": 5, \"envPassthrough\": [{}]",
            names.join(", ")
        ),
    );
    let report = Repo::with(&[(M, &manifest), (BIN, "")])
        .check()
        .expect("config");
    let help = report.diagnostics[0].help.as_deref().unwrap_or("");
    assert!(
        help.contains("\"V19\", … (10 more)]") && !help.contains("V20"),
        "{help}"
    );
}

#[test]
fn unknown_keys_with_did_you_mean_and_case() {
    expect_one(
        &with("\"timeoutSec\": 5", "\"timeoutSec\": 5, \"timeout\": 9"),
        "8:24 ACL010 warning tool[0] \"get_time\": unknown key `timeout`",
    );
    expect_one(
        &with("\"timeoutSec\": 5", "\"timeoutsec\": 5"),
        "8:7 ACL010 warning tool[0] \"get_time\": key `timeoutsec` is read as `timeoutSec` only because agentcli's JSON decoder ignores case",
    );
    let found = check(&BASE.replacen("\"tools\"", "\"version\": 1, \"tools\"", 1));
    assert_eq!(
        found,
        [format!(
            "{M}:2:3 ACL010 warning the manifest: unknown key `version`"
        )]
    );
}

#[test]
fn missing_programs_one_warning_or_one_summary() {
    let one = Repo::with(&[(M, BASE)]);
    assert_eq!(
        lines(&one.check().expect("config")),
        [format!(
            "{M}:7:19 ACL011 warning tool[0] \"get_time\": `./tools/bin/get_time` does not exist next to this manifest"
        )]
    );
    let two = BASE.replacen(
        "    }\n  ]",
        "    },\n    {\"name\": \"b\", \"description\": \"B\", \"command\": [\"./tools/bin/b\"]}\n  ]",
        1,
    );
    let none = Repo::with(&[(M, &two)]);
    assert_eq!(
        lines(&none.check().expect("config")),
        [format!(
            "{M}:2:3 ACL011 warning none of the 2 programs under `./tools/bin/` exists next to this manifest"
        )]
    );
    // One of two present: the missing one is named on its own.
    let some = Repo::with(&[(M, &two), (BIN, "")]);
    assert_eq!(
        lines(&some.check().expect("config")),
        [format!(
            "{M}:10:51 ACL011 warning tool[1] \"b\": `./tools/bin/b` does not exist next to this manifest"
        )]
    );
    // Programs are counted, not the tools that run them: two tools of one missing program
    // are each told so, and a third program makes two to summarise.
    let shared = two.replace("./tools/bin/b", "./tools/bin/get_time");
    let same = Repo::with(&[(M, &shared)]);
    let found = lines(&same.check().expect("config"));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found
            .iter()
            .all(|l| l.contains("`./tools/bin/get_time` does not exist"))
    );
    let three = shared.replacen(
        "]}\n  ]",
        "]},\n    {\"name\": \"c\", \"description\": \"C\", \"command\": [\"./tools/bin/c\"]}\n  ]",
        1,
    );
    assert_ne!(three, shared);
    let summary = Repo::with(&[(M, &three)]);
    assert_eq!(
        lines(&summary.check().expect("config")),
        [format!(
            "{M}:2:3 ACL011 warning none of the 2 programs under `./tools/bin/` exists next to this manifest"
        )]
    );
}

#[test]
fn missing_description() {
    expect_one(
        &with(
            "      \"description\": \"Get the current time for an IANA timezone\",\n",
            "",
        ),
        "4:7 ACL012 warning tool[0] \"get_time\": the tool has no description",
    );
    expect_one(
        &with("\"Get the current time for an IANA timezone\"", "\"  \""),
        "5:22 ACL012 warning tool[0] \"get_time\": the tool has no description",
    );
}

#[test]
fn open_parameter_schema() {
    expect_one(
        &with(", \"additionalProperties\": false", ""),
        "6:7 ACL013 info tool[0] \"get_time\": the parameter schema does not set `additionalProperties: false`",
    );
    // A deliberate `true`, or a non-object schema, is the author's choice.
    assert_eq!(
        check(&with(
            "\"additionalProperties\": false",
            "\"additionalProperties\": true"
        )),
        Vec::<String>::new()
    );
}

#[test]
fn byte_order_mark() {
    expect_one(
        &format!("\u{feff}{BASE}"),
        "1:1 ACL014 error the manifest starts with a UTF-8 byte-order mark",
    );
}

#[test]
fn credential_passthrough_is_an_info_note() {
    expect_one(
        &with(
            "\"timeoutSec\": 5",
            "\"timeoutSec\": 5, \"envPassthrough\": [\"TZ\", \"DB_PASSWORD\"]",
        ),
        "8:49 SEC010 info tool[0] \"get_time\": envPassthrough hands the tool `DB_PASSWORD`, which looks like a credential",
    );
    assert_eq!(
        check(&with(
            "\"timeoutSec\": 5",
            "\"timeoutSec\": 5, \"envPassthrough\": [\"TZ\", \"KEYBOARD_LAYOUT\"]"
        )),
        Vec::<String>::new()
    );
}

#[test]
fn embedded_schema_is_checked_with_the_tool_named() {
    let found = check(&with(
        "\"properties\": {\"tz\": {\"type\": \"string\"}}",
        "\"properties\": {\"tz\": {\"type\": \"string\", \"default\": 3}}, \"required\": [\"timezone\"]",
    ));
    assert_eq!(
        found,
        [
            format!(
                "{M}:6:87 SCH003 warning tool[0] \"get_time\": `default` is an integer, but `type` is `string`"
            ),
            format!(
                "{M}:6:105 SCH002 warning tool[0] \"get_time\": `timezone` is required but not defined in `properties`"
            ),
        ]
    );
    expect_one(
        &with("{\"type\": \"object\",", "{\"type\": \"objekt\","),
        "6:26 SCH001 error tool[0] \"get_time\": `type` must be one of the JSON Schema types, found `objekt`",
    );
    expect_one(
        &with(
            r#""schema": {"type": "object", "properties": {"tz": {"type": "string"}}, "additionalProperties": false}"#,
            r#""schema": "object""#,
        ),
        "6:17 ACL002 error tool[0] \"get_time\": `schema` must be a JSON Schema object, found a string",
    );
}

#[test]
fn every_problem_of_a_broken_manifest_in_one_run() {
    let manifest = r#"{
  "tools": [
    {"description": "no name", "command": ["./tools/bin/get_time"]},
    {"name": "dup", "description": "d", "command": ["./tools/bin/get_time"]},
    {"name": "dup", "description": "d", "command": ["sh", "-c", "date"]},
    {"name": "empty", "description": "e", "command": []},
    {"name": "env", "description": "e", "command": ["./tools/bin/get_time"], "envPassthrough": ["A-B"]}
  ]
}
"#;
    let repo = Repo::with(&[(M, manifest), (BIN, "")]);
    let codes: Vec<String> = lines(&repo.check().expect("config"))
        .iter()
        .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        codes,
        [
            "tools.json:3:5 ACL001",
            "tools.json:5:14 ACL003",
            "tools.json:5:53 ACL005",
            "tools.json:6:54 ACL004",
            "tools.json:7:97 ACL008",
        ]
    );
}

#[path = "agentcli/large.rs"]
mod large;
