//! MCP Registry `server.json`: the registry's own valid and invalid examples give exactly
//! their findings, every rule fires at its token and is silent on a complete valid file, and
//! a `server.json` of another tool is not claimed.

mod common;

use common::{Repo, lines};

const S: &str = "server.json";
const SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// A complete, valid server.json using every part of the format.
const FULL: &str = r#"{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.example/weather",
  "title": "Weather",
  "description": "Weather forecasts and alerts for any city.",
  "version": "1.4.0",
  "websiteUrl": "https://example.com/weather",
  "repository": {"url": "https://github.com/example/weather", "source": "github", "subfolder": "servers/weather"},
  "icons": [{"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48", "any"]}],
  "packages": [
    {
      "registryType": "npm",
      "identifier": "@example/weather-mcp",
      "version": "1.4.0",
      "runtimeHint": "npx",
      "runtimeArguments": [{"type": "named", "name": "-y"}],
      "transport": {"type": "streamable-http", "url": "http://localhost:{port}/mcp"},
      "packageArguments": [{"type": "named", "name": "--port", "valueHint": "port", "default": "8080"}],
      "environmentVariables": [
        {"name": "WEATHER_API_KEY", "isSecret": true, "isRequired": true, "description": "API key"},
        {"name": "UNITS", "default": "metric", "choices": ["metric", "imperial"]}
      ]
    },
    {
      "registryType": "mcpb",
      "identifier": "https://github.com/example/weather/releases/download/v1.4.0/weather-mcp.mcpb",
      "fileSha256": "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce",
      "transport": {"type": "stdio"}
    },
    {"registryType": "oci", "identifier": "ghcr.io/example/weather:1.4.0", "transport": {"type": "stdio"}}
  ],
  "remotes": [
    {
      "type": "streamable-http",
      "url": "https://{region}.weather.example.com/mcp",
      "headers": [{"name": "Authorization", "value": "Bearer {token}", "variables": {"token": {"isSecret": true}}}],
      "variables": {"region": {"description": "Region", "default": "eu", "choices": ["eu", "us"]}}
    }
  ],
  "_meta": {"io.modelcontextprotocol.registry/publisher-provided": {"tool": "ci"}}
}
"#;

fn check(text: &str) -> Vec<String> {
    let repo = Repo::with(&[(S, text)]);
    lines(&repo.check().expect("config"))
}

/// FULL with `from` replaced by `to`.
fn with(from: &str, to: &str) -> String {
    assert!(FULL.contains(from), "FULL lacks {from}");
    FULL.replacen(from, to, 1)
}

/// Exactly one diagnostic, starting `server.json:<prefix>`.
fn expect_one(text: &str, prefix: &str) {
    let found = check(text);
    let want = format!("{S}:{prefix}");
    assert!(
        found.len() == 1 && found[0].starts_with(&want),
        "expected one `{want}…`, got {found:#?}"
    );
}

#[test]
fn a_complete_server_json_is_silent() {
    assert_eq!(check(FULL), Vec::<String>::new());
}

#[test]
fn registry_examples_give_exactly_their_findings() {
    let Some(dir) = common::corpus("mcp-registry") else {
        return;
    };
    // Each invalid example also lacks `$schema`, which mcp-publisher requires.
    let cases: &[(&str, &[&str])] = &[
        ("valid/minimal.json", &[]),
        ("valid/with-package.json", &[]),
        ("valid/with-remote.json", &[]),
        (
            "invalid/bad-name-pattern.json",
            &["2:11 MCP006 error", "1:1 MCP001 error"],
        ),
        (
            "invalid/description-too-long.json",
            &["3:18 MCP004 error", "1:1 MCP001 error"],
        ),
        (
            "invalid/missing-name.json",
            &["1:1 MCP001 error", "1:1 MCP001 error"],
        ),
        (
            "invalid/package-version-latest.json",
            &["9:18 MCP007 error", "1:1 MCP001 error"],
        ),
        (
            "invalid/positional-argument-missing-value.json",
            &["12:9 MCP001 error", "1:1 MCP001 error"],
        ),
    ];
    let mut seen = 0;
    for sub in ["valid", "invalid"] {
        seen += std::fs::read_dir(dir.join(sub)).map_or(0, Iterator::count);
    }
    assert_eq!(
        seen,
        cases.len(),
        "an example of the corpus has no case here"
    );
    for (file, want) in cases {
        let text = std::fs::read_to_string(dir.join(file)).expect("read example");
        let mut found: Vec<String> = check(&text)
            .iter()
            .map(|l| {
                let rest = l.strip_prefix("server.json:").unwrap_or(l);
                rest.splitn(4, ' ').take(3).collect::<Vec<_>>().join(" ")
            })
            .collect();
        found.sort();
        let mut want: Vec<String> = want.iter().map(|w| w.to_string()).collect();
        want.sort();
        assert_eq!(found, want, "{file}");
    }
}

#[test]
fn names_versions_and_lengths() {
    expect_one(
        &with("io.github.example/weather", "weather"),
        "3:11 MCP006 error server name `weather` is not `namespace/name`",
    );
    expect_one(
        &with("io.github.example/weather", "io.github.example/a/b"),
        "3:11 MCP006",
    );
    expect_one(
        &with("io.github.example/weather", "-io.x/weather"),
        "3:11 MCP006",
    );
    expect_one(
        &with(
            "\"version\": \"1.4.0\",\n  \"websiteUrl\"",
            "\"version\": \"^1.4.0\",\n  \"websiteUrl\"",
        ),
        "6:14 MCP007 error server version `^1.4.0`",
    );
    expect_one(
        &with(
            "\"version\": \"1.4.0\",\n  \"websiteUrl\"",
            "\"version\": \"v1.4.0\",\n  \"websiteUrl\"",
        ),
        "6:14 MCP008 warning",
    );
    expect_one(
        &with(
            "\"version\": \"1.4.0\",\n      \"runtimeHint\"",
            "\"version\": \"1.x\",\n      \"runtimeHint\"",
        ),
        "14:18 MCP007 error package version `1.x`",
    );
    expect_one(
        &with("\"title\": \"Weather\"", "\"title\": \"\""),
        "4:12 MCP004 error `title` must not be empty",
    );
    expect_one(
        &with("\"title\": \"Weather\"", "\"title\": \"  \""),
        "4:12 MCP003",
    );
    expect_one(
        &with(
            "io.github.example/weather",
            &format!("io.github.example/{}", "w".repeat(190)),
        ),
        "3:11 MCP004 error `name` must have at most 200 characters",
    );
}

#[test]
fn schema_versions() {
    let old = SCHEMA.replace("2025-12-11", "2025-09-29");
    expect_one(
        &with(SCHEMA, &old),
        "2:14 MCP009 warning `$schema` names the 2025-09-29 schema",
    );
    expect_one(
        &with(SCHEMA, "https://example.com/server.schema.json"),
        "2:14 MCP009 warning `$schema` is not a published",
    );
    let missing = with(&format!("\"$schema\": \"{SCHEMA}\",\n  "), "");
    expect_one(
        &missing,
        "1:1 MCP001 error required field `$schema` is missing",
    );
    expect_one(&with(&format!("\"{SCHEMA}\""), "1"), "2:14 MCP002");
}

#[test]
fn keys_nobody_reads() {
    expect_one(
        &with("\"title\"", "\"titel\""),
        "4:3 MCP005 warning unknown key `titel`",
    );
    let legacy = with("\"runtimeHint\": \"npx\"", "\"runtime_hint\": \"npx\"");
    let found = check(&legacy);
    assert!(
        found
            .iter()
            .any(|l| l.contains("MCP005 warning `runtime_hint` was renamed `runtimeHint`")),
        "{found:#?}"
    );
    expect_one(
        &with("\"_meta\": {", "\"_meta\": {\"com.example/x\": {}, "),
        "40:13 MCP015 warning",
    );
    let big = format!("{{\"blob\": \"{}\"}}", "x".repeat(5000));
    let found = check(&with("{\"tool\": \"ci\"}", &big));
    assert!(
        found
            .iter()
            .any(|l| l.contains("MCP004 error the publisher-provided `_meta` is")),
        "{found:#?}"
    );
}

#[test]
fn urls_must_be_https_and_remotes_not_local() {
    expect_one(
        &with(
            "\"https://example.com/weather\"",
            "\"http://example.com/weather\"",
        ),
        "7:17 MCP011 error `websiteUrl` must use `https`",
    );
    expect_one(
        &with("\"https://example.com/weather\"", "\"example.com/weather\""),
        "7:17 MCP003",
    );
    expect_one(
        &with(
            "\"https://example.com/icon.png\"",
            "\"http://example.com/icon.png\"",
        ),
        "9:21 MCP011",
    );
    expect_one(
        &with("https://{region}.weather", "http://{region}.weather"),
        "35:14 MCP011 error remote `remotes[0].url` uses `http://`",
    );
    expect_one(
        &with(
            "https://{region}.weather.example.com/mcp",
            "https://localhost:8080/mcp",
        ),
        "35:14 MCP011 error remote `remotes[0].url` points at this machine",
    );
    expect_one(
        &with(
            "\"type\": \"streamable-http\",\n      \"url\": \"https",
            "\"type\": \"stdio\",\n      \"url\": \"https",
        ),
        "34:15 MCP003 error `remotes[0].type` is `stdio`",
    );
}

#[test]
fn variables_must_be_declared() {
    expect_one(
        &with("{region}.weather", "{regoin}.weather"),
        "35:23 MCP012 error `{regoin}` in `remotes[0].url` names nothing",
    );
    expect_one(
        &with("localhost:{port}", "localhost:{prot}"),
        "17:73 MCP012 error `{prot}` in `packages[0].transport.url`",
    );
    expect_one(
        &with("\"Bearer {token}\"", "\"Bearer {tokne}\""),
        "36:62 MCP012 error `{tokne}` names no entry of `variables`",
    );
}

#[test]
fn packages_and_their_requirements() {
    expect_one(
        &with(
            "\"fileSha256\": \"fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce\",\n      ",
            "",
        ),
        "24:5 MCP010 error MCPB package `packages[1]` has no `fileSha256`",
    );
    expect_one(
        &with(
            "fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce",
            "FE33",
        ),
        "27:21 MCP003 error `fileSha256` is not 64",
    );
    expect_one(
        &with("\"registryType\": \"npm\"", "\"registryType\": \"npmjs\""),
        "12:23 MCP014 warning registry type `npmjs`",
    );
    expect_one(
        &with(
            "\"identifier\": \"@example/weather-mcp\",",
            "\"identifier\": \"@example/weather-mcp\", \"registryBaseUrl\": \"https://npm.example.com\",",
        ),
        "13:64 MCP014 warning registry base URL",
    );
    expect_one(
        &with(
            "\"version\": \"1.4.0\",\n      \"runtimeHint\"",
            "\"runtimeHint\"",
        ),
        "11:5 MCP001 error npm package `packages[0]` has no `version`",
    );
    expect_one(
        &with(
            "\"version\": \"1.4.0\",\n      \"runtimeHint\"",
            "\"version\": \"1.4\",\n      \"runtimeHint\"",
        ),
        "14:18 MCP003 error npm package version `1.4` is not a semantic version",
    );
    let placeholder = with(
        "\"version\": \"1.4.0\",\n      \"runtimeHint\"",
        "\"version\": \"${VERSION}\",\n      \"runtimeHint\"",
    );
    assert_eq!(check(&placeholder), Vec::<String>::new());
    expect_one(
        &with(
            "ghcr.io/example/weather:1.4.0\"",
            "ghcr.io/example/weather:1.4.0\", \"registryBaseUrl\": \"https://ghcr.io\"",
        ),
        "30:95 MCP014 warning oci packages take no `registryBaseUrl`",
    );
    expect_one(
        &with(
            "ghcr.io/example/weather:1.4.0",
            "quay.io/example/weather:1.4.0",
        ),
        "30:43 MCP014 warning OCI image",
    );
    expect_one(
        &with(
            "https://github.com/example/weather/releases",
            "https://example.com/example/weather/releases",
        ),
        "26:21 MCP014 warning MCPB package URL",
    );
    expect_one(
        &with("\"runtimeHint\": \"npx\",\n      ", ""),
        "15:7 MCP016 warning `packages[0]` gives `runtimeArguments` but no `runtimeHint`",
    );
    expect_one(
        &with(
            "\"transport\": {\"type\": \"stdio\"}\n    },\n    {\"registryType\": \"oci\"",
            "\"transport\": {\"type\": \"stdio\", \"url\": \"https://x.example.com\"}\n    },\n    {\"registryType\": \"oci\"",
        ),
        "28:38 MCP003 error `packages[1].transport` is `stdio` but has a `url`",
    );
    expect_one(
        &with(
            "\"identifier\": \"@example/weather-mcp\"",
            "\"identifier\": \"@example/weather mcp\"",
        ),
        "13:21 MCP003 error package identifier",
    );
    expect_one(
        &with(
            "{\"type\": \"stdio\"}\n    },",
            "{\"type\": \"stdoi\"}\n    },",
        ),
        "28:29 MCP003",
    );
}

#[test]
fn arguments_and_inputs() {
    expect_one(
        &with(
            "\"version\": \"1.4.0\",\n  \"websiteUrl\"",
            "\"version\": \">=1.0,<2.0\",\n  \"websiteUrl\"",
        ),
        "6:14 MCP007",
    );
    expect_one(
        &with("\"name\": \"--port\"", "\"name\": \"--port <port>\""),
        "18:54 MCP013 error named argument `--port <port>` holds a space",
    );
    expect_one(
        &with("\"default\": \"8080\"", "\"default\": \"--port=8080\""),
        "18:96 MCP013 error the value `--port=8080` starts with the flag",
    );
    expect_one(
        &with(
            "{\"type\": \"named\", \"name\": \"-y\"}",
            "{\"type\": \"named\"}",
        ),
        "16:28 MCP001 error required field `packages[0].runtimeArguments[0].name` is missing",
    );
    expect_one(
        &with("\"default\": \"metric\"", "\"default\": \"kelvin\""),
        "21:38 MCP003 error default `kelvin` is not one of the choices",
    );
    // Fifty choices are named, the rest counted: a list of millions makes no message of megabytes.
    let many: Vec<String> = (0..300).map(|i| format!("\"u{i}\"")).collect();
    let found = check(&with(
        "\"default\": \"metric\", \"choices\": [\"metric\", \"imperial\"]",
        &format!(
            "\"default\": \"kelvin\", \"choices\": [{}]",
            many.join(", ")
        ),
    ));
    assert!(
        found.len() == 1
            && found[0].starts_with("server.json:21:38 MCP003 error default `kelvin` is not one of the choices (`u0`, `u1`,")
            && found[0].contains(", `u49`, and 250 more)"),
        "{found:#?}"
    );
    expect_one(
        &with(
            "{\"type\": \"named\", \"name\": \"-y\"}",
            "{\"type\": \"flag\", \"name\": \"-y\"}",
        ),
        "16:37 MCP003",
    );
}

#[test]
fn duplicates_and_secrets() {
    expect_one(
        &with("{\"name\": \"UNITS\"", "{\"name\": \"WEATHER_API_KEY\""),
        "21:18 MCP022 error environment variable `WEATHER_API_KEY` is declared twice",
    );
    // Header names are compared ignoring case, as HTTP does; environment variables are not.
    let headers = r#"[{"name": "Authorization", "value": "Bearer {token}", "variables": {"token": {"isSecret": true}}}]"#;
    expect_one(
        &with(
            headers,
            &headers.replace("]", r#", {"name": "AUTHORIZATION", "isSecret": true}]"#),
        ),
        "36:126 MCP022 error header `AUTHORIZATION` is declared twice",
    );
    assert_eq!(
        check(&with("{\"name\": \"UNITS\"", "{\"name\": \"units\"")),
        Vec::<String>::new()
    );
    let found = check(&with(
        "\"isRequired\": true, \"description\": \"API key\"",
        "\"value\": \"Zq8x3Lw9Pk2Rv7Tn4Ys1\"",
    ));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("MCP019 error environment variable `WEATHER_API_KEY`"),
        "{found:#?}"
    );
    assert!(
        !found[0].contains("Zq8x3Lw9"),
        "the secret is echoed: {found:#?}"
    );
    expect_one(
        &with(
            "\"Bearer {token}\", \"variables\": {\"token\": {\"isSecret\": true}}",
            "\"Bearer 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\"",
        ),
        "36:62 MCP019 error header `Authorization`",
    );
}

#[test]
fn repository_and_icons() {
    expect_one(
        &with("\"source\": \"github\"", "\"source\": \"bitbucket\""),
        "8:73 MCP003 error `repository.source` `bitbucket`",
    );
    expect_one(
        &with(
            "https://github.com/example/weather\"",
            "https://github.com/example\"",
        ),
        "8:25 MCP003 error `repository.url`",
    );
    expect_one(
        &with("servers/weather", "../weather"),
        "8:96 MCP003 error `repository.subfolder`",
    );
    expect_one(
        &with("\"48x48\"", "\"48\""),
        "9:88 MCP003 error icon size `48`",
    );
    expect_one(&with("\"image/png\"", "\"image/gif\""), "9:65 MCP003");
}

#[test]
fn other_tools_server_json_is_not_claimed() {
    for text in [
        "{\"port\": 3000, \"host\": \"0.0.0.0\"}\n",
        "{\"name\": \"my-app\", \"port\": 3000, \"routes\": {}}\n",
        "[1, 2, 3]\n",
        "{ not json at all\n",
    ] {
        assert_eq!(check(text), Vec::<String>::new(), "{text}");
    }
    // A broken file that names the registry's schema is ours, and its syntax error is real.
    let broken = format!("{{\"$schema\": \"{SCHEMA}\",\n");
    assert!(
        check(&broken).iter().any(|l| l.contains("SYN")),
        "not claimed"
    );
}
