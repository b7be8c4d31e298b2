//! `mcp.tools.json`: a `tools/list` result, with annotations from the risk model.

use serde::Serialize;
use serde_json::Value;

use super::to_json_bytes;
use crate::ir::Tool;

#[derive(Serialize)]
struct List<'a> {
    tools: Vec<Entry<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    description: &'a str,
    input_schema: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a Value>,
    annotations: Annotations,
}

/// MCP tool annotations (hints a client may use for approval prompts).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    read_only_hint: bool,
    destructive_hint: bool,
    idempotent_hint: bool,
    open_world_hint: bool,
}

/// The file's bytes.
pub(crate) fn render(tools: &[Tool]) -> Vec<u8> {
    let list = List {
        tools: tools
            .iter()
            .map(|t| Entry {
                name: &t.name,
                title: t.title.as_deref(),
                description: &t.description,
                input_schema: &t.input_schema,
                // MCP requires an output schema to describe an object; others stay out.
                output_schema: t
                    .output_schema
                    .as_ref()
                    .filter(|s| s.get("type").and_then(Value::as_str) == Some("object")),
                annotations: Annotations {
                    read_only_hint: t.risk.read_only,
                    destructive_hint: t.risk.destructive,
                    idempotent_hint: t.risk.idempotent,
                    open_world_hint: t.risk.open_world,
                },
            })
            .collect(),
    };
    to_json_bytes(&list)
}
