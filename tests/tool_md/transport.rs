//! Transports and credentials (TMD008 to TMD012, TMD014 to TMD019).

use super::*;

const CREDENTIALS: &str =
    "  credentials:\n    scheme: \"bearer-token\"\n    source: \"env\"\n    name: \"DOCS_TOKEN\"\n";

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
