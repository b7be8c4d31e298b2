//! `mcp.tools.json`: a `tools/list` result, with annotations from the risk model.

use std::io::Write;

use serde::Serialize;

use super::{Each, write_json};
use crate::ir::{Schema, Tool};

#[derive(Serialize)]
struct List<T> {
    tools: T,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    description: String,
    input_schema: Schema,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<Schema>,
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

/// Write the file to `out`.
pub(crate) fn render<I: Iterator<Item = Tool>>(
    tools: impl Fn() -> I,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let list = List {
        tools: Each(|| {
            tools().map(|t| Entry {
                name: t.name,
                title: t.title,
                description: t.description,
                input_schema: t.input_schema,
                // MCP requires an output schema to describe an object; others stay out.
                output_schema: t
                    .output_schema
                    .filter(|s| s.root_type().as_deref() == Some("object")),
                annotations: Annotations {
                    read_only_hint: t.risk.read_only,
                    destructive_hint: t.risk.destructive,
                    idempotent_hint: t.risk.idempotent,
                    open_world_hint: t.risk.open_world,
                },
            })
        }),
    };
    write_json(out, &list)
}
