//! Custom rules read a DojOps tool's schema and a file's tree as the load parsed them (not
//! as JSON made for the rules): what they find, where, and why, is what the JSON gave.

mod common;

use common::Repo;

const RULES: &str = r#"
[[custom-rules]]
code = "ORG001"
name = "parameters-described"
severity = "warning"
message = "a {type} parameter without a description"
subject = "tool"
given = "$.parameters.properties.*"
then = { field = "description", function = "truthy" }

[[custom-rules]]
code = "ORG002"
name = "no-todo"
severity = "warning"
message = "no-todo"
subject = "tool"
given = "$..description"
then = { function = "notPattern", options = { pattern = "\\bTODO\\b" } }

[[custom-rules]]
code = "ORG003"
name = "required-is-a-map"
severity = "info"
message = "required-is-a-map"
subject = "tool"
then = { field = "parameters.required", function = "schema", options = { schema = { type = "object" } } }

[[custom-rules]]
code = "ORG004"
name = "parameters-object"
severity = "info"
message = "parameters-object"
subject = "tool"
then = { field = "parameters", function = "schema", options = { schema = { type = "object", required = ["properties", "title"] } } }

[[custom-rules]]
code = "ORG005"
name = "project-files-only"
severity = "info"
message = "project-files-only"
subject = "file"
formats = ["dojops-tool"]
then = { field = "permissions", function = "enumeration", options = { values = [{ filesystem = "project" }] } }

[[custom-rules]]
code = "ORG006"
name = "last-file-serializer"
severity = "info"
message = "last-file-serializer"
subject = "file"
formats = ["dojops-tool"]
given = "$.files[-1]"
then = { field = "serializer.kind", function = "defined" }
"#;

const TOOL: &str = "spec: 1
name: deploy-config
version: \"1.0.0\"
type: tool
description: \"Generates a deployment configuration for a service\"
inputSchema: \"input.schema.json\"
tags: [deploy]
generator:
  strategy: llm
  systemPrompt: \"You are a deployment expert. Write the configuration.\"
files:
  - path: \"config/deploy.json\"
    serializer: json
permissions:
  filesystem: any
";

const SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "service": {
      "type": "string",
      "description": "The service to deploy"
    },
    "region": {
      "type": "string"
    },
    "replicas": {
      "type": "integer",
      "description": "TODO say how many"
    }
  },
  "required": ["service", "region"]
}
"#;

/// The custom findings, each as `path:line:col CODE message | label`.
fn findings(repo: &Repo) -> Vec<String> {
    let report = repo.check().expect("valid configuration");
    report
        .diagnostics
        .iter()
        .filter(|d| d.rule.code.starts_with("ORG"))
        .map(|d| {
            let p = d.file.position(d.span.start);
            format!(
                "{}:{}:{} {} {} | {}",
                d.file.display(),
                p.line,
                p.column,
                d.rule.code,
                d.message,
                d.label.as_deref().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn rules_on_a_dojops_schema_and_tree_find_what_their_json_gave() {
    let repo = Repo::with(&[
        ("toolc.toml", RULES),
        (".dojops/tools/deploy-config/tool.yaml", TOOL),
        (".dojops/tools/deploy-config/input.schema.json", SCHEMA),
    ]);
    let schema = ".dojops/tools/deploy-config/input.schema.json";
    let tool = ".dojops/tools/deploy-config/tool.yaml";
    assert_eq!(
        findings(&repo),
        [
            // A schema that reads only its value's type and keys: on the value.
            format!(
                "{schema}:1:1 ORG004 parameters-object | `parameters` does not match the schema: \"title\" is a required property"
            ),
            // A field missing under a parameter: on the parameter's key in the schema file,
            // the message reading the parameter's own `type`.
            format!(
                "{schema}:8:5 ORG001 a string parameter without a description | `description` is missing"
            ),
            format!("{schema}:13:22 ORG002 no-todo | the value matches `\\bTODO\\b` (`TODO`)"),
            // Such a schema failing says why with the whole value, not only its level.
            format!(
                "{schema}:16:15 ORG003 required-is-a-map | `parameters.required` does not match the schema: [\"service\",\"region\"] is not of type \"object\""
            ),
            // The last item of a list; a field missing below a value that is not a map: on
            // that value's key.
            format!("{tool}:13:5 ORG006 last-file-serializer | `serializer.kind` is missing"),
            // A map compared with the values allowed.
            format!(
                "{tool}:15:3 ORG005 project-files-only | `permissions` is {{\"filesystem\":\"any\"}}, not one of {{\"filesystem\":\"project\"}}"
            ),
        ]
    );
}

#[test]
fn rules_on_a_dojops_schema_that_follows_them_are_silent() {
    let good = SCHEMA
        .replace(
            "\"type\": \"string\"\n    }",
            "\"type\": \"string\", \"description\": \"Where\"\n    }",
        )
        .replace("TODO say how many", "How many")
        .replace(
            "\"type\": \"object\",\n",
            "\"type\": \"object\", \"title\": \"t\",\n",
        )
        .replace(
            "\"required\": [\"service\", \"region\"]",
            "\"required\": {}",
        );
    let tool = TOOL
        .replace("filesystem: any", "filesystem: project")
        .replace("serializer: json", "serializer: {kind: json}");
    let repo = Repo::with(&[
        ("toolc.toml", RULES),
        (".dojops/tools/deploy-config/tool.yaml", &tool),
        (".dojops/tools/deploy-config/input.schema.json", &good),
    ]);
    assert_eq!(findings(&repo), Vec::<String>::new());
}

/// Rules whose `given` the JSONPath engine runs (a filter) read the subject's JSON, made for
/// them: on a tool's view and on a file's tree.
#[test]
fn a_filter_reads_the_json_made_for_it() {
    let rules = r#"
[[custom-rules]]
code = "ORG001"
name = "integers-bounded"
severity = "warning"
message = "integers-bounded"
subject = "tool"
given = "$.parameters.properties[?@.type == 'integer']"
then = { field = "maximum", function = "defined" }

[[custom-rules]]
code = "ORG002"
name = "json-files-in-config"
severity = "warning"
message = "json-files-in-config"
subject = "file"
formats = ["dojops-tool"]
given = "$.files[?@.serializer == 'json']"
then = { field = "path", function = "pattern", options = { pattern = "^src/" } }
"#;
    let repo = Repo::with(&[
        ("toolc.toml", rules),
        (".dojops/tools/deploy-config/tool.yaml", TOOL),
        (".dojops/tools/deploy-config/input.schema.json", SCHEMA),
    ]);
    assert_eq!(
        findings(&repo),
        [
            ".dojops/tools/deploy-config/input.schema.json:11:5 ORG001 integers-bounded | `maximum` is missing",
            ".dojops/tools/deploy-config/tool.yaml:12:11 ORG002 json-files-in-config | `path` does not match `^src/`",
        ]
    );
}

/// A rule allowing thousands of values names the first twenty of them when a value is none,
/// and counts the rest: each finding copied them all.
#[test]
fn an_enumeration_of_thousands_lists_twenty() {
    let values: Vec<String> = (0..5_000).map(|i| format!("\"tag{i}\"")).collect();
    let rules = format!(
        "[[custom-rules]]\ncode = \"ORG007\"\nname = \"known-tags\"\nseverity = \"info\"\nmessage = \"known-tags\"\nsubject = \"file\"\nformats = [\"dojops-tool\"]\ngiven = \"$.tags[*]\"\nthen = {{ function = \"enumeration\", options = {{ values = [{}] }} }}\n",
        values.join(", ")
    );
    let repo = Repo::with(&[
        ("toolc.toml", &rules),
        (".dojops/tools/deploy-config/tool.yaml", TOOL),
        (".dojops/tools/deploy-config/input.schema.json", SCHEMA),
    ]);
    let found = findings(&repo);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].ends_with(
            "| the value is \"deploy\", not one of \"tag0\", \"tag1\", \"tag2\", \"tag3\", \"tag4\", \"tag5\", \"tag6\", \"tag7\", \"tag8\", \"tag9\", \"tag10\", \"tag11\", \"tag12\", \"tag13\", \"tag14\", \"tag15\", \"tag16\", \"tag17\", \"tag18\", \"tag19\", and 4980 more"
        ),
        "{}",
        found[0]
    );
}
