//! `*.tool.md` tools and `*.agent.md` agents: every rule triggered at the right line and
//! column with its severity, and silent on valid files (the spec's own examples among them).

mod common;

use std::path::PathBuf;

use common::{BASE_TOOL, Repo, lines};

const TOOL: &str = "tools/search-docs.tool.md";
const ACTION: &str = "tools/send-email.tool.md";
const AGENT: &str = "agents/helper.agent.md";

/// A valid action tool.
const ACTION_TOOL: &str = r#"---
spec_version: "1.2"
tool_id: "send-email"
version: "2.1.0"
status: "active"
meta:
  name: "Send Email"
  description: "Send an email to a customer. Use it only after the user confirmed."
  owner: "comms-team"
type: "action"
interface:
  input:
    type: object
    properties:
      to: {type: string, format: email}
      body: {type: string, maxLength: 10000}
    required: ["to", "body"]
  output:
    type: object
    properties:
      status: {type: string, enum: ["sent", "queued"]}
transport:
  type: "rest-api"
  base_url: "https://mail.example.com/v2"
  endpoint: "POST /send"
  retry_policy:
    max_attempts: 1
    on_status: []
  credentials:
    scheme: "bearer-token"
    source: "aws_secrets_manager"
    secret_id: "prod/mail-token"
use_guidance:
  use_when: ["the user confirmed the email"]
  avoid_when: ["the address is not verified"]
  side_effects: ["Sends an email; this cannot be undone."]
error_codes:
  429:
    meaning: "Rate limited"
    agent_action: "Wait, then retry once"
---
"#;

/// A valid agent using both tools.
const BASE_AGENT: &str = r#"---
agent_id: "helper"
tools:
  tool_choice: "auto"
  refs:
    - ref: "search-docs"
    - ref: "send-email"
      approval_required: true
      max_calls_per_run: 1
guardrails:
  tool_calls:
    require_user_confirmation_for: ["send-email"]
---
# Purpose
Answers questions and sends follow-up email.
"#;

/// Diagnostics as `path:line:col CODE severity message` for a repository of `files`.
fn check(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&repo.check().expect("config"))
}

/// [`check`], with the first file named on the command line: checked in full even when it
/// lacks the front matter that tells an AML file from another tool's.
fn check_named(files: &[(&str, &str)]) -> Vec<String> {
    let repo = Repo::with(files);
    lines(&common::check_named(&repo.root, &[files[0].0]))
}

/// The repository: both tools and the agent, with `path` replaced by `text`.
fn with(path: &str, text: &str) -> Vec<String> {
    let mut files = vec![
        (TOOL, BASE_TOOL),
        (ACTION, ACTION_TOOL),
        (AGENT, BASE_AGENT),
    ];
    match files.iter_mut().find(|(p, _)| *p == path) {
        Some(f) => f.1 = text,
        None => files.push((path, text)),
    }
    check(&files)
}

/// Assert exactly one diagnostic, and that it starts with `path:prefix` and holds `fragment`.
fn expect_one(found: Vec<String>, path: &str, prefix: &str, fragment: &str) {
    let want = format!("{path}:{prefix}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want) && found[0].contains(fragment),
        "expected one `{want}…{fragment}…`, got {found:#?}"
    );
}

/// `BASE_TOOL` with `from` replaced by `to` (which must occur).
fn tool_with(from: &str, to: &str) -> String {
    assert!(BASE_TOOL.contains(from), "`{from}` is not in the base tool");
    BASE_TOOL.replacen(from, to, 1)
}

fn action_with(from: &str, to: &str) -> String {
    assert!(
        ACTION_TOOL.contains(from),
        "`{from}` is not in the action tool"
    );
    ACTION_TOOL.replacen(from, to, 1)
}

fn agent_with(from: &str, to: &str) -> String {
    assert!(BASE_AGENT.contains(from), "`{from}` is not in the agent");
    BASE_AGENT.replacen(from, to, 1)
}

const CREDENTIALS: &str =
    "  credentials:\n    scheme: \"bearer-token\"\n    source: \"env\"\n    name: \"DOCS_TOKEN\"\n";

// ── valid files ────────────────────────────────────────────────────────────────────────

#[test]
fn valid_repository_is_silent() {
    assert_eq!(with(TOOL, BASE_TOOL), Vec::<String>::new());
}

#[test]
fn every_feature_of_the_spec_in_valid_use_is_silent() {
    // A retrieval tool over REST with a secret-manager credential and a nested output, an
    // action tool with error codes, a retry policy and a bearer token from the environment,
    // and a `function` tool without transport.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tool-md/feature-tour");
    let report = common::check_dir(&dir).expect("config");
    assert_eq!(lines(&report), Vec::<String>::new());
    assert_eq!(report.summary.tools, 3);
}

#[test]
fn function_tool_needs_no_transport() {
    let function = tool_with("type: \"retrieval\"", "type: \"function\"");
    let start = function.find("transport:").expect("transport");
    let end = function.find("use_guidance:").expect("use_guidance");
    let function = format!("{}{}", &function[..start], &function[end..]);
    assert_eq!(with(TOOL, &function), Vec::<String>::new());
}

#[test]
fn real_world_aml_folder() {
    let Some(dir) = common::corpus("aml") else {
        return;
    };
    let report = common::check_dir(&dir).expect("config");
    let found = lines(&report);
    // The corpus copy of the spec's minimal example was extracted from the spec's text, which
    // lost every indentation: as long as it is that copy, its YAML really is broken
    // (`description: >` with no indented content), and toolc says so once, with the cause.
    // Indented as in the spec, it is valid, and then the whole
    // folder must be silent; so must it when the corpus holds no such copy.
    let copy = dir.join("tools/search-product-kb.tool.md");
    let copy = std::fs::read_to_string(&copy).ok();
    if copy.is_none_or(|c| c.lines().any(|l| l.starts_with(' '))) {
        assert_eq!(found, Vec::<String>::new());
        return;
    }
    assert_eq!(
        found,
        vec![
            "tools/search-product-kb.tool.md:9:1 SYN001 error a key is missing its `:`, or runs over more than one line"
        ],
    );
    let help = report.diagnostics[0].help.as_deref().unwrap_or("");
    assert!(
        help.contains("no line of this front matter is indented"),
        "{help}"
    );
}

// ── front matter and shape ─────────────────────────────────────────────────────────────

#[test]
fn missing_and_unclosed_front_matter() {
    // Found by walking, a page without front matter is not AML's (a documentation page that
    // shows a tool in a fenced block); named, it is checked in full.
    assert_eq!(check(&[(TOOL, "# Search docs\n")]), Vec::<String>::new());
    expect_one(
        check_named(&[(TOOL, "# Search docs\n")]),
        TOOL,
        "1:1 SYN010 error",
        "a tool file must start",
    );
    // The agent's reference to the unreadable tool is explained by the tool file's errors.
    let repo = Repo::with(&[
        (TOOL, "---\ntool_id: x\n"),
        (AGENT, BASE_AGENT),
        (ACTION, ACTION_TOOL),
    ]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("agents/helper.agent.md:6:12 REF020 error the tool `search-docs` is not registered: its file has errors"));
    assert!(found[1].starts_with(&format!("{TOOL}:1:1 SYN011 error")));
    assert_eq!(report.diagnostics[0].related[0].file.display(), TOOL);
    expect_one(
        check_named(&[(AGENT, "agent_id: helper\n")]),
        AGENT,
        "1:1 SYN010 error",
        "an agent file must start",
    );
}

#[test]
fn yaml_errors_are_at_the_files_own_line() {
    let found = with(TOOL, &tool_with("  owner: \"docs-team\"", "  owner: [docs"));
    assert!(
        found
            .iter()
            .any(|l| l.starts_with(&format!("{TOOL}:10:")) && l.contains("SYN001 error")),
        "{found:#?}"
    );
}

#[test]
fn tmd001_missing_required_field() {
    expect_one(
        with(TOOL, &tool_with("  owner: \"docs-team\"\n", "")),
        TOOL,
        "6:1 TMD001 error",
        "required field `meta.owner` is missing",
    );
    expect_one(
        with(TOOL, &tool_with("spec_version: \"1.2\"\n", "")),
        TOOL,
        "1:1 TMD001 error",
        "`spec_version`",
    );
    expect_one(
        with(AGENT, &agent_with("agent_id: \"helper\"\n", "")),
        AGENT,
        "1:1 TMD001 error",
        "`agent_id`",
    );
    let no_output = tool_with(
        "  output:\n    type: object\n    properties:\n      hits:\n        type: array\n        items: {type: string}\n    required: [\"hits\"]\n",
        "",
    );
    expect_one(
        with(TOOL, &no_output),
        TOOL,
        "12:1 TMD001 error",
        "`interface.output`",
    );
}

#[test]
fn tmd002_wrong_field_type() {
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: \"5000\"")),
        TOOL,
        "31:15 TMD002 error",
        "`transport.timeout_ms` must be a whole number of milliseconds",
    );
    expect_one(
        with(
            TOOL,
            &tool_with("spec_version: \"1.2\"", "spec_version: 1.2"),
        ),
        TOOL,
        "2:15 TMD002 error",
        "found the number `1.2`",
    );
    expect_one(
        with(
            AGENT,
            &agent_with("approval_required: true", "approval_required: yes"),
        ),
        AGENT,
        "8:26 TMD002 error",
        "`tools.refs[1].approval_required` must be a boolean",
    );
}

#[test]
fn tmd003_unknown_key() {
    let found = with(
        TOOL,
        &tool_with(
            "type: \"retrieval\"",
            "type: \"retrieval\"\ncategory: \"search\"",
        ),
    );
    expect_one(found, TOOL, "12:1 TMD003 error", "unknown key `category`");
    let found = with(
        TOOL,
        &tool_with("  owner: \"docs-team\"", "  ownr: \"docs-team\""),
    );
    // The misspelt key is unknown, and `owner` is missing: the second points at the first.
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with(&format!("{TOOL}:6:1 TMD001 error")));
    assert!(found[1].starts_with(&format!("{TOOL}:9:3 TMD003 error unknown key `meta.ownr`")));
    expect_one(
        with(
            TOOL,
            &tool_with("  use_when:", "  use_whn: [\"x\"]\n  use_when:"),
        ),
        TOOL,
        "37:3 TMD003 error",
        "unknown key `use_guidance.use_whn`",
    );
    expect_one(
        with(TOOL, &tool_with("  input:", "  inputs: {}\n  input:")),
        TOOL,
        "13:3 TMD003 error",
        "unknown key `interface.inputs`",
    );
}

#[test]
fn tmd004_invalid_tool_id() {
    let invalid = tool_with("tool_id: \"search-docs\"", "tool_id: \"Search Docs\"");
    expect_one(
        check(&[(TOOL, &invalid)]),
        TOOL,
        "3:10 TMD004 error",
        "tool id `Search Docs` does not match",
    );
    // The tool is not registered, so the agent's reference fails too, pointing at the file.
    let found = with(
        TOOL,
        &tool_with("tool_id: \"search-docs\"", "tool_id: \"sd\""),
    );
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("agents/helper.agent.md:6:12 REF020 error"));
    assert!(found[1].starts_with(&format!("{TOOL}:3:10 TMD004 error tool id `sd`")));
}

#[test]
fn tmd005_invalid_version() {
    for (version, fragment) in [
        ("\"1.0\"", "has 2 of the three numbers"),
        ("\"v1.0.0\"", "has a `v` prefix"),
        ("\"1.0.0-beta.1\"", "pre-release or build suffix"),
        ("1.0", "the number `1.0`"),
    ] {
        expect_one(
            with(
                TOOL,
                &tool_with("version: \"1.0.0\"", &format!("version: {version}")),
            ),
            TOOL,
            "4:10 TMD005 error",
            fragment,
        );
    }
}

#[test]
fn tmd006_invalid_tool_type() {
    expect_one(
        with(TOOL, &tool_with("type: \"retrieval\"", "type: \"lookup\"")),
        TOOL,
        "11:7 TMD006 error",
        "`type` must be one of `retrieval`, `action`, `function`, `human`, found `lookup`",
    );
}

#[test]
fn tmd007_invalid_status() {
    expect_one(
        with(TOOL, &tool_with("status: \"active\"", "status: \"live\"")),
        TOOL,
        "5:9 TMD007 error",
        "found `live`",
    );
}

#[test]
fn tmd008_missing_transport() {
    let start = BASE_TOOL.find("transport:").expect("transport");
    let end = BASE_TOOL.find("use_guidance:").expect("use_guidance");
    let without = format!("{}{}", &BASE_TOOL[..start], &BASE_TOOL[end..]);
    expect_one(
        with(TOOL, &without),
        TOOL,
        "11:7 TMD008 error",
        "this `retrieval` tool has no `transport`",
    );
}

#[test]
fn tmd009_unknown_transport_type() {
    expect_one(
        with(TOOL, &tool_with("type: \"rest-api\"", "type: \"grpc\"")),
        TOOL,
        "28:9 TMD009 error",
        "`transport.type` must be one of",
    );
}

#[test]
fn tmd010_missing_transport_field() {
    expect_one(
        with(TOOL, &tool_with("  endpoint: \"GET /search\"\n", "")),
        TOOL,
        "27:1 TMD010 error",
        "a `rest-api` transport requires `endpoint`",
    );
    let lambda = tool_with(
        "  type: \"rest-api\"\n  base_url: \"https://docs.example.com/v1\"\n  endpoint: \"GET /search\"\n  timeout_ms: 5000\n",
        "  type: \"lambda\"\n  provider: \"aws\"\n  invocation_type: \"RequestResponse\"\n",
    );
    expect_one(
        with(TOOL, &lambda),
        TOOL,
        "27:1 TMD010 error",
        "a `lambda` transport requires `function_id`",
    );
}

#[test]
fn tmd011_invalid_endpoint() {
    for (endpoint, fragment) in [
        ("/search", "it has no HTTP method"),
        ("get /search", "the method `get` must be uppercase"),
        ("GET search", "the path must start with `/`"),
        ("https://docs.example.com/v1/search", "it is a full URL"),
    ] {
        expect_one(
            with(
                TOOL,
                &tool_with("\"GET /search\"", &format!("\"{endpoint}\"")),
            ),
            TOOL,
            "30:13 TMD011 error",
            fragment,
        );
    }
}

#[test]
fn tmd012_invalid_base_url() {
    expect_one(
        with(
            TOOL,
            &tool_with("\"https://docs.example.com/v1\"", "\"docs.example.com/v1\""),
        ),
        TOOL,
        "29:13 TMD012 error",
        "must be an absolute `https://` URL",
    );
    // The trailing slash itself is marked.
    expect_one(
        with(
            TOOL,
            &tool_with(
                "\"https://docs.example.com/v1\"",
                "\"https://docs.example.com/v1/\"",
            ),
        ),
        TOOL,
        "29:41 TMD012 error",
        "ends with a `/`",
    );
}

#[test]
fn tmd013_invalid_field_value() {
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: 0")),
        TOOL,
        "31:15 TMD013 error",
        "must be a positive number of milliseconds",
    );
    let database = tool_with(
        "  type: \"rest-api\"\n  base_url: \"https://docs.example.com/v1\"\n  endpoint: \"GET /search\"\n  timeout_ms: 5000\n",
        "  type: \"database\"\n  engine: \"postgres\"\n  query_method: \"parameterised-sql\"\n",
    );
    expect_one(
        with(TOOL, &database),
        TOOL,
        "29:11 TMD013 error",
        "`transport.engine` must be one of",
    );
    expect_one(
        with(
            AGENT,
            &agent_with("tool_choice: \"auto\"", "tool_choice: \"always\""),
        ),
        AGENT,
        "4:16 TMD013 error",
        "`tools.tool_choice` must be one of `none`, `auto`, `required`",
    );
}

#[test]
fn tmd014_missing_credentials() {
    expect_one(
        with(TOOL, &tool_with(CREDENTIALS, "")),
        TOOL,
        "27:1 TMD014 error",
        "this transport has no `credentials` block",
    );
}

#[test]
fn tmd015_unknown_credential_scheme() {
    expect_one(
        with(
            TOOL,
            &tool_with("scheme: \"bearer-token\"", "scheme: \"basic\""),
        ),
        TOOL,
        "33:13 TMD015 error",
        "`transport.credentials.scheme` must be one of",
    );
}

#[test]
fn tmd016_missing_credential_source() {
    expect_one(
        with(
            TOOL,
            &tool_with("    source: \"env\"\n    name: \"DOCS_TOKEN\"\n", ""),
        ),
        TOOL,
        "32:3 TMD016 error",
        "a `bearer-token` credential needs a `source`",
    );
    // `iam-role` resolves no secret, so it needs none.
    let iam = tool_with(
        "    scheme: \"bearer-token\"\n    source: \"env\"\n    name: \"DOCS_TOKEN\"\n",
        "    scheme: \"iam-role\"\n",
    );
    assert_eq!(with(TOOL, &iam), Vec::<String>::new());
}

#[test]
fn tmd017_unknown_credential_source() {
    expect_one(
        with(TOOL, &tool_with("source: \"env\"", "source: \"vault\"")),
        TOOL,
        "34:13 TMD017 error",
        "`transport.credentials.source` must be one of",
    );
}

#[test]
fn tmd018_missing_secret_field() {
    expect_one(
        with(TOOL, &tool_with("    name: \"DOCS_TOKEN\"\n", "")),
        TOOL,
        "32:3 TMD018 error",
        "a credential from `env` needs `name`",
    );
    let gcp = tool_with(
        "source: \"env\"\n    name: \"DOCS_TOKEN\"",
        "source: \"gcp_secret_manager\"\n    project: \"docs\"",
    );
    expect_one(
        with(TOOL, &gcp),
        TOOL,
        "32:3 TMD018 error",
        "a credential from `gcp_secret_manager` needs `secret`",
    );
}

#[test]
fn tmd019_incomplete_oauth2() {
    let oauth = tool_with(
        "    scheme: \"bearer-token\"\n    source: \"env\"\n    name: \"DOCS_TOKEN\"\n",
        "    scheme: \"oauth2\"\n    provider: \"aws\"\n",
    );
    expect_one(
        with(TOOL, &oauth),
        TOOL,
        "32:3 TMD019 error",
        "an `oauth2` credential needs `function_id`",
    );
    let complete = tool_with(
        "    scheme: \"bearer-token\"\n    source: \"env\"\n    name: \"DOCS_TOKEN\"\n",
        "    scheme: \"oauth2\"\n    provider: \"aws\"\n    function_id: \"arn:aws:lambda:eu-west-1:123456789012:function:broker\"\n    scopes: [\"docs:read\"]\n",
    );
    assert_eq!(with(TOOL, &complete), Vec::<String>::new());
}

// ── interface schemas ──────────────────────────────────────────────────────────────────

#[test]
fn tmd020_unsupported_schema_keyword() {
    expect_one(
        with(
            TOOL,
            &tool_with(
                "        description: \"What to look for.\"",
                "        description: \"What to look for.\"\n        title: \"Query\"",
            ),
        ),
        TOOL,
        "19:9 TMD020 error",
        "`title` is not in the tool.md schema subset",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        minLenght: 1\n",
        ),
    );
    expect_one(found, TOOL, "18:9 TMD020 error", "`minLenght`");
    // A property *named* like a keyword is fine.
    let named = tool_with(
        "      query:\n",
        "      title:\n        type: string\n      query:\n",
    );
    assert_eq!(with(TOOL, &named), Vec::<String>::new());
}

#[test]
fn tmd021_unsupported_schema_reference() {
    let found = with(
        TOOL,
        &tool_with(
            "        items: {type: string}",
            "        items: {$ref: \"#/definitions/hit\"}",
        ),
    );
    expect_one(found, TOOL, "25:17 TMD021 error", "`$ref` is not supported");
    let found = with(
        TOOL,
        &tool_with(
            "    required: [\"hits\"]",
            "    required: [\"hits\"]\n    definitions:\n      hit: {type: string}",
        ),
    );
    expect_one(
        found,
        TOOL,
        "27:5 TMD021 error",
        "`definitions` is not supported",
    );
}

#[test]
fn tmd022_unknown_schema_format() {
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        format: \"hostname\"\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "18:17 TMD022 warning",
        "`hostname` is a JSON Schema format, but not one tool.md supports",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        format: \"datetime\"\n",
        ),
    );
    assert!(
        found[0].contains("TMD022") && found.len() == 1,
        "{found:#?}"
    );
    let ok = tool_with(
        "        type: string\n",
        "        type: string\n        format: \"date-time\"\n",
    );
    assert_eq!(with(TOOL, &ok), Vec::<String>::new());
}

#[test]
fn shared_schema_rules_apply_to_interfaces() {
    expect_one(
        with(
            TOOL,
            &tool_with("required: [\"query\"]", "required: [\"qury\"]"),
        ),
        TOOL,
        "19:16 SCH002 warning",
        "`qury` is required but not defined",
    );
    expect_one(
        with(
            TOOL,
            &tool_with("        type: string\n", "        type: strng\n"),
        ),
        TOOL,
        "17:15 SCH001 error",
        "`type` must be one of the JSON Schema types",
    );
    // Beyond type and enum: a default above its maximum, a const of the wrong type.
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        maxLength: 3\n        default: \"four\"\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "19:18 SCH003 warning",
        "`default` `\"four\"` does not satisfy its own schema",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        const: 5\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "18:16 SCH003 warning",
        "`const` `5` does not satisfy its own schema",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        pattern: \"^[a-z]+$\"\n        enum: [\"ok\", \"Not OK\"]\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "19:22 SCH003 warning",
        "`enum` value `\"Not OK\"`",
    );
    // The type mismatch is the shared rule's: reported once, not twice.
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        default: 5\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "18:18 SCH003 warning",
        "`default` is an integer",
    );
}

// ── error codes and lints ──────────────────────────────────────────────────────────────

#[test]
fn tmd023_incomplete_error_code() {
    expect_one(
        with(
            ACTION,
            &action_with("    agent_action: \"Wait, then retry once\"\n", ""),
        ),
        ACTION,
        "38:3 TMD023 error",
        "`error_codes.429.agent_action` is missing",
    );
}

#[test]
fn tmd024_duplicate_tool_id() {
    let copy = "tools/b/search-docs.tool.md";
    let repo = Repo::with(&[(TOOL, BASE_TOOL), (copy, BASE_TOOL)]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    expect_one(
        found,
        TOOL,
        "3:10 TMD024 error",
        "tool id `search-docs` is already defined",
    );
    let related = &report.diagnostics[0].related[0];
    assert_eq!(related.file.display(), copy);
    assert_eq!(related.file.position(related.span.start).line, 3);
}

#[test]
fn tmd025_undeclared_side_effects() {
    expect_one(
        with(
            ACTION,
            &action_with(
                "  side_effects: [\"Sends an email; this cannot be undone.\"]\n",
                "",
            ),
        ),
        ACTION,
        "33:1 TMD025 warning",
        "this `action` tool does not declare its `side_effects`",
    );
    expect_one(
        with(
            ACTION,
            &action_with("[\"Sends an email; this cannot be undone.\"]", "\"None\""),
        ),
        ACTION,
        "36:17 TMD025 warning",
        "declares no side effects",
    );
}

#[test]
fn tmd026_missing_usage_hints() {
    expect_one(
        with(
            TOOL,
            &tool_with("  avoid_when: [\"the question is small talk\"]\n", ""),
        ),
        TOOL,
        "36:1 TMD026 warning",
        "`use_guidance` has no `avoid_when`",
    );
    expect_one(
        with(
            TOOL,
            &tool_with("[\"the user asks about the product\"]", "[]"),
        ),
        TOOL,
        "37:13 TMD026 warning",
        "`use_guidance.use_when` is empty",
    );
}

#[test]
fn tmd027_deprecated_without_date() {
    let deprecated = tool_with("status: \"active\"", "status: \"deprecated\"").replacen(
        "  last_updated: \"2025-04-01\"\n",
        "",
        1,
    );
    let found = with(TOOL, &deprecated);
    // The agent that uses it is told too (REF022).
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("agents/helper.agent.md:6:12 REF022 warning"));
    assert!(found[1].starts_with(&format!("{TOOL}:5:9 TMD027 warning")));
    let dated = tool_with("status: \"active\"", "status: \"deprecated\"");
    assert_eq!(with(TOOL, &dated).len(), 1);
}

#[test]
fn tmd028_file_name_mismatch() {
    let found = check(&[("tools/docs.tool.md", BASE_TOOL)]);
    expect_one(
        found,
        "tools/docs.tool.md",
        "3:10 TMD028 warning",
        "the file is named `docs.tool.md`, but its `tool_id` is `search-docs`",
    );
}

#[test]
fn tmd029_outside_tools_folder() {
    let found = check(&[("search-docs.tool.md", BASE_TOOL)]);
    expect_one(
        found,
        "search-docs.tool.md",
        "3:10 TMD029 info",
        "not inside a `tools/` folder",
    );
    assert_eq!(
        check(&[("lib/tools/search-docs.tool.md", BASE_TOOL)]),
        Vec::<String>::new()
    );
}

#[test]
fn tmd030_description_sentence_count() {
    expect_one(
        with(
            TOOL,
            &tool_with(
                "\"Search the product documentation. Use it for product questions.\"",
                "\"Searches docs\"",
            ),
        ),
        TOOL,
        "8:16 TMD030 info",
        "has 1 sentence; the spec asks for two to five",
    );
    let long = "\"One. Two. Three. Four. Five. Six.\"";
    expect_one(
        with(
            TOOL,
            &tool_with(
                "\"Search the product documentation. Use it for product questions.\"",
                long,
            ),
        ),
        TOOL,
        "8:16 TMD030 info",
        "has 6 sentences",
    );
}

#[test]
fn tmd031_retried_non_idempotent_call() {
    let three = action_with("max_attempts: 1\n    on_status: []", "max_attempts: 3");
    expect_one(
        with(ACTION, &three),
        ACTION,
        "27:19 TMD031 warning",
        "`POST /send` is attempted up to 3 times",
    );
    let default_retries = action_with(
        "  retry_policy:\n    max_attempts: 1\n    on_status: []\n",
        "",
    );
    expect_one(
        with(ACTION, &default_retries),
        ACTION,
        "25:13 TMD031 warning",
        "retried by default (up to 3 attempts)",
    );
    // An idempotent method, or retries switched off by an empty `on_status`, is fine.
    assert_eq!(
        with(ACTION, &three.replace("\"POST /send\"", "\"PUT /send\"")),
        Vec::<String>::new()
    );
    assert_eq!(
        with(ACTION, &action_with("max_attempts: 1", "max_attempts: 3")),
        Vec::<String>::new()
    );
}

#[test]
fn tmd032_timeout_out_of_range() {
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: 50")),
        TOOL,
        "31:15 TMD032 warning",
        "is 50 ms, below 100 ms",
    );
    expect_one(
        with(TOOL, &tool_with("timeout_ms: 5000", "timeout_ms: 600000")),
        TOOL,
        "31:15 TMD032 warning",
        "above 5 minutes",
    );
}

#[test]
fn tmd033_invalid_date() {
    expect_one(
        with(TOOL, &tool_with("\"2025-04-01\"", "\"2025-02-30\"")),
        TOOL,
        "10:17 TMD033 warning",
        "must be an ISO 8601 date",
    );
}

#[test]
fn tmd034_unknown_transport_key() {
    let found = with(TOOL, &tool_with("  timeout_ms: 5000", "  timeout: 5000"));
    expect_one(
        found,
        TOOL,
        "31:3 TMD034 warning",
        "unknown key `transport.timeout`",
    );
    let found = with(
        TOOL,
        &tool_with("  timeout_ms: 5000", "  tool_name: \"search\""),
    );
    expect_one(
        found,
        TOOL,
        "31:3 TMD034 warning",
        "unknown key `transport.tool_name`",
    );
}

// ── agents ─────────────────────────────────────────────────────────────────────────────

#[test]
fn tmd035_invalid_agent_id() {
    expect_one(
        with(
            AGENT,
            &agent_with("agent_id: \"helper\"", "agent_id: \"Helper Bot\""),
        ),
        AGENT,
        "2:11 TMD035 error",
        "agent id `Helper Bot` does not match",
    );
}

#[test]
fn tmd036_unknown_agent_key() {
    expect_one(
        with(
            AGENT,
            &agent_with("guardrails:", "gaurdrails: {}\nguardrails:"),
        ),
        AGENT,
        "10:1 TMD036 warning",
        "unknown key `gaurdrails`",
    );
    expect_one(
        with(
            AGENT,
            &agent_with("      max_calls_per_run: 1", "      max_calls: 1"),
        ),
        AGENT,
        "9:7 TMD036 warning",
        "unknown key `tools.refs[1].max_calls`",
    );
    // The keys of the full agent format are known.
    let full = agent_with(
        "guardrails:",
        "runtime:\n  model: \"claude-4-sonnet\"\nmemory:\n  mode: \"session\"\nguardrails:",
    );
    assert_eq!(with(AGENT, &full), Vec::<String>::new());
}

#[test]
fn tmd037_duplicate_tool_ref() {
    let found = with(
        AGENT,
        &agent_with(
            "    - ref: \"search-docs\"\n",
            "    - ref: \"search-docs\"\n    - ref: \"search-docs\"\n",
        ),
    );
    expect_one(
        found,
        AGENT,
        "7:12 TMD037 warning",
        "`search-docs` is referenced twice",
    );
}

#[test]
fn tmd038_confirmation_for_unreferenced_tool() {
    let found = with(
        AGENT,
        &agent_with("[\"send-email\"]", "[\"send-email\", \"search-doc\"]"),
    );
    expect_one(
        found,
        AGENT,
        "12:51 TMD038 warning",
        "`search-doc` needs user confirmation, but this agent does not reference it",
    );
}

#[test]
fn tmd039_invalid_max_calls() {
    for (value, found_text) in [
        ("0", "found 0"),
        ("\"2\"", "found the string"),
        ("1.5", "found a number"),
    ] {
        expect_one(
            with(
                AGENT,
                &agent_with(
                    "max_calls_per_run: 1",
                    &format!("max_calls_per_run: {value}"),
                ),
            ),
            AGENT,
            "9:26 TMD039 error",
            found_text,
        );
    }
}

// ── references between agents and tools ───────────────────────────────────────────────

#[test]
fn ref020_unregistered_tool_ref() {
    let repo = Repo::with(&[
        (TOOL, BASE_TOOL),
        (ACTION, ACTION_TOOL),
        (
            AGENT,
            &agent_with("ref: \"search-docs\"", "ref: \"search-doc\""),
        ),
    ]);
    let report = repo.check().expect("config");
    expect_one(
        lines(&report),
        AGENT,
        "6:12 REF020 error",
        "no tool file defines the tool id `search-doc`",
    );
    let d = &report.diagnostics[0];
    assert_eq!(d.help.as_deref(), Some("did you mean `search-docs`?"));
    assert_eq!(d.related[0].file.display(), TOOL);
}

#[test]
fn ref021_disabled_tool_ref_fails_every_agent_pointing_at_both_files() {
    let disabled = tool_with("status: \"active\"", "status: \"disabled\"");
    let second = "agents/other.agent.md";
    let other = agent_with("agent_id: \"helper\"", "agent_id: \"other\"");
    let repo = Repo::with(&[
        (TOOL, &disabled),
        (ACTION, ACTION_TOOL),
        (AGENT, BASE_AGENT),
        (second, &other),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        vec![
            "agents/helper.agent.md:6:12 REF021 error `search-docs` is disabled, and this agent still references it",
            "agents/other.agent.md:6:12 REF021 error `search-docs` is disabled, and this agent still references it",
        ]
    );
    assert!(report.fails_at(toolc::Severity::Error));
    for d in &report.diagnostics {
        let r = &d.related[0];
        assert_eq!(r.file.display(), TOOL);
        assert_eq!(r.file.slice(r.span), "\"disabled\"");
    }
}

#[test]
fn ref022_and_ref023_deprecated_and_draft_tool_refs() {
    let found = with(
        TOOL,
        &tool_with("status: \"active\"", "status: \"deprecated\""),
    );
    expect_one(
        found,
        AGENT,
        "6:12 REF022 warning",
        "`search-docs` is deprecated",
    );
    let found = with(TOOL, &tool_with("status: \"active\"", "status: \"draft\""));
    expect_one(
        found,
        AGENT,
        "6:12 REF023 warning",
        "`search-docs` is still a draft",
    );
}

#[test]
fn sec030_unconfirmed_action_tool() {
    let unconfirmed =
        agent_with("      approval_required: true\n", "").replacen("[\"send-email\"]", "[]", 1);
    let repo = Repo::with(&[
        (TOOL, BASE_TOOL),
        (ACTION, ACTION_TOOL),
        (AGENT, &unconfirmed),
    ]);
    let report = repo.check().expect("config");
    expect_one(
        lines(&report),
        AGENT,
        "7:12 SEC030 warning",
        "may call the `action` tool `send-email` without asking a human",
    );
    let r = &report.diagnostics[0].related[0];
    assert_eq!(
        (r.file.display(), r.file.slice(r.span)),
        (ACTION, "\"send-email\"")
    );
    // Either confirmation is enough, and so is an agent-wide approval policy.
    assert_eq!(
        with(AGENT, &agent_with("      approval_required: true\n", "")),
        Vec::<String>::new()
    );
    assert_eq!(
        with(AGENT, &agent_with("[\"send-email\"]", "[]")),
        Vec::<String>::new()
    );
    let policy = format!(
        "{}policies:\n  require_human_approval: true\n---\n",
        unconfirmed
            .trim_end_matches("---\n# Purpose\nAnswers questions and sends follow-up email.\n")
    );
    assert_eq!(with(AGENT, &policy), Vec::<String>::new());
}

// ── near misses ────────────────────────────────────────────────────────────────────────

const REST_TRANSPORT: &str = "  type: \"rest-api\"\n  base_url: \"https://docs.example.com/v1\"\n  endpoint: \"GET /search\"\n  timeout_ms: 5000\n";

#[test]
fn near_misses_are_silent() {
    let tool_only = |text: String| check(&[(TOOL, &text)]);
    let silent: Vec<(&str, String)> = vec![
        (
            "every status of an unreferenced tool",
            tool_with("status: \"active\"", "status: \"draft\""),
        ),
        (
            "disabled, unreferenced",
            tool_with("status: \"active\"", "status: \"disabled\""),
        ),
        (
            "a human tool with transport",
            tool_with("type: \"retrieval\"", "type: \"human\""),
        ),
        (
            "lambda",
            tool_with(
                REST_TRANSPORT,
                "  type: \"lambda\"\n  provider: \"gcp\"\n  function_id: \"projects/p/functions/f\"\n  invocation_type: \"Event\"\n  payload_format: \"raw\"\n",
            ),
        ),
        (
            "mcp",
            tool_with(
                REST_TRANSPORT,
                "  type: \"mcp\"\n  url: \"https://mcp.example.com/tools\"\n  tool_name: \"search\"\n  protocol_version: \"2024-11-05\"\n",
            ),
        ),
        (
            "message-queue",
            tool_with(
                REST_TRANSPORT,
                "  type: \"message-queue\"\n  provider: \"kafka\"\n  queue_url: \"orders\"\n  message_format: \"avro\"\n",
            ),
        ),
        (
            "database",
            tool_with(
                REST_TRANSPORT,
                "  type: \"database\"\n  engine: \"rds-data-api\"\n  query_method: \"orm\"\n",
            ),
        ),
        (
            "scheme none",
            tool_with(
                "    scheme: \"bearer-token\"\n    source: \"env\"\n    name: \"DOCS_TOKEN\"\n",
                "    scheme: \"none\"\n",
            ),
        ),
        (
            "env_aws",
            tool_with(
                "source: \"env\"\n    name: \"DOCS_TOKEN\"",
                "source: \"env_aws\"\n    access_key_id: \"AWS_KEY\"\n    secret_access_key: \"AWS_SECRET\"",
            ),
        ),
        (
            "azure",
            tool_with(
                "source: \"env\"\n    name: \"DOCS_TOKEN\"",
                "source: \"azure_key_vault\"\n    vault_url: \"https://v.vault.azure.net\"\n    secret_name: \"docs\"\n    header: \"X-Api-Key\"",
            ),
        ),
        (
            "timeout at the low end",
            tool_with("timeout_ms: 5000", "timeout_ms: 100"),
        ),
        (
            "timeout at the high end",
            tool_with("timeout_ms: 5000", "timeout_ms: 300000"),
        ),
        (
            "every method",
            tool_with("\"GET /search\"", "\"OPTIONS /search/{id}\""),
        ),
        (
            "five sentences",
            tool_with(
                "\"Search the product documentation. Use it for product questions.\"",
                "\"One. Two, e.g. this. Three! Four? Five.\"",
            ),
        ),
        (
            "a nullable type, a format, a const",
            tool_with(
                "        type: string\n",
                "        type: [\"string\", \"null\"]\n        format: \"uuid\"\n        const: \"a1\"\n        pattern: \"^[a-z0-9]+$\"\n",
            ),
        ),
        (
            "values within their schema",
            tool_with(
                "        type: string\n",
                "        type: string\n        minLength: 2\n        maxLength: 5\n        enum: [\"ab\", \"abcde\"]\n        default: \"ab\"\n",
            ),
        ),
        (
            "a default object",
            tool_with(
                "    required: [\"query\"]\n",
                "    required: [\"query\"]\n    default: {query: \"x\"}\n",
            ),
        ),
        (
            "side effects as a list",
            tool_with(
                "side_effects: \"None. Read-only.\"",
                "side_effects: [\"None.\"]",
            ),
        ),
    ];
    for (what, text) in silent {
        assert_eq!(tool_only(text), Vec::<String>::new(), "{what}");
    }
    let agents: Vec<(&str, String)> = vec![
        (
            "confirmed by the guardrail only",
            agent_with("      approval_required: true\n", ""),
        ),
        ("tool_choice none", agent_with("\"auto\"", "\"none\"")),
        (
            "tool_choice required",
            agent_with("\"auto\"", "\"required\""),
        ),
        (
            "more calls",
            agent_with("max_calls_per_run: 1", "max_calls_per_run: 25"),
        ),
        (
            "the full agent format",
            agent_with(
                "guardrails:",
                "knowledge:\n  refs: [{ref: \"product-docs\"}]\npolicies:\n  pii_redaction: true\nguardrails:",
            ),
        ),
    ];
    for (what, text) in agents {
        assert_eq!(with(AGENT, &text), Vec::<String>::new(), "{what}");
    }
}

// ── robustness ────────────────────────────────────────────────────────────────────────

#[test]
fn no_input_makes_it_panic() {
    let mut inputs: Vec<(String, bool)> = Vec::new();
    for (text, format) in [(BASE_TOOL, false), (ACTION_TOOL, false), (BASE_AGENT, true)] {
        // Every prefix (on a char boundary) and every file with one line removed.
        for (i, _) in text.char_indices() {
            inputs.push((text[..i].to_string(), format));
        }
        let all: Vec<&str> = text.split_inclusive('\n').collect();
        for skip in 0..all.len() {
            let without: String = all
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            inputs.push((without, format));
        }
    }
    for odd in [
        "---\n---\n",
        "---\n- a\n- b\n---\n",
        "---\nmeta: 5\ninterface: \"x\"\ntransport: []\nuse_guidance: 7\nerror_codes: [1]\ntool_id: 5\nstatus: null\ntype: [a]\n---\n",
        "---\ninterface:\n  input: {type: object, properties: {a: {items: [{$ref: 1}], default: {x: 1}}}}\n  output: true\n---\n",
        "---\ninterface:\n  input: {type: object, properties: {a: {type: string, pattern: \"(\", default: \"x\", const: 1}}}\n---\n",
        "---\ntransport: {type: rest-api, endpoint: \"POST\", base_url: \"https://\", timeout_ms: -1, retry_policy: {max_attempts: x, on_status: [x, 9999]}, credentials: {scheme: oauth2, source: env}}\n---\n",
        "\u{feff}---\r\ntool_id: \"ünïcödé\"\r\nmeta: {description: \"Ünï. Cödé.\"}\r\n---\r\n",
        "---\ntools: {refs: [1, [2], {ref: 3}, {ref: \"x\", max_calls_per_run: .inf}]}\nguardrails: {tool_calls: {require_user_confirmation_for: [null, 1]}}\npolicies: 1\n---\n",
        "---\ntools: [a]\nagent_id: []\n---\n",
    ] {
        inputs.push((odd.to_string(), false));
        inputs.push((odd.to_string(), true));
    }
    // Every variant is a file of one repository, so resolving each against every other
    // runs too.
    let repo = Repo::new();
    for (i, (text, agent)) in inputs.iter().enumerate() {
        let path = if *agent {
            format!("agents/a{i}.agent.md")
        } else {
            format!("tools/t{i}.tool.md")
        };
        repo.write(&path, text.as_bytes());
    }
    repo.check().expect("no configuration in this repository");
}
