//! Valid files are silent: the spec's own examples, a real-world folder, and near misses of every
//! rule.

use super::*;

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
