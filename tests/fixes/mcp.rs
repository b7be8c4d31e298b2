//! The fixable defects of MCP Registry `server.json` files and client configurations.

use super::*;

/// A valid MCP Registry server.json (the current schema).
const SERVER_JSON: &str = r#"{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.example/weather",
  "description": "Weather forecasts and alerts for any city.",
  "version": "1.0.0",
  "websiteUrl": "https://example.com/weather",
  "remotes": [
    {"type": "streamable-http", "url": "https://{region}.example.com/mcp", "variables": {"region": {"default": "eu"}}}
  ]
}
"#;

/// A valid Claude Code `.mcp.json`.
const MCP_JSON: &str = r#"{
  "mcpServers": {
    "docs": {"type": "http", "url": "https://docs.example.com/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}}
  }
}
"#;

pub(super) fn cases() -> Vec<Case> {
    vec![
        // MCP server.json and client configurations
        case(
            "MCP001",
            "server.json",
            vec![(
                "server.json",
                edit(SERVER_JSON, "\"description\"", "\"descripton\""),
            )],
        ),
        case(
            "MCP005",
            "server.json",
            vec![(
                "server.json",
                edit(SERVER_JSON, "\"websiteUrl\"", "\"websiteURL\""),
            )],
        ),
        case(
            "MCP008",
            "server.json",
            vec![("server.json", edit(SERVER_JSON, "\"1.0.0\"", "\"v1.0.0\""))],
        ),
        case(
            "MCP009",
            "server.json",
            vec![("server.json", edit(SERVER_JSON, "2025-12-11", "2025-10-17"))],
        ),
        case(
            "MCP011",
            "server.json",
            vec![(
                "server.json",
                edit(
                    SERVER_JSON,
                    "https://example.com/weather",
                    "http://example.com/weather",
                ),
            )],
        ),
        case(
            "MCP012",
            "server.json",
            vec![(
                "server.json",
                edit(SERVER_JSON, "{region}.example", "{regoin}.example"),
            )],
        ),
        case(
            "MCP003",
            ".mcp.json",
            vec![(
                ".mcp.json",
                edit(MCP_JSON, "\"type\": \"http\"", "\"type\": \"htpp\""),
            )],
        ),
        case(
            "MCP017",
            ".vscode/mcp.json",
            vec![(
                ".vscode/mcp.json",
                edit(MCP_JSON, "Bearer ${DOCS_TOKEN}", "Bearer ${env:DOCS_TOKEN}"),
            )],
        ),
        case(
            "MCP021",
            ".mcp.json",
            vec![(".mcp.json", edit(MCP_JSON, "https://docs", "http://docs"))],
        ),
    ]
}
