//! `mcp.tools.json`: a `tools/list` result, with annotations from the risk model.

use std::io::Write;

use serde::Serialize;

use super::{NoTools, write_json};
use crate::ir::{Schema, Tool};

#[derive(Serialize)]
struct List<T> {
    tools: T,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Entry<'t> {
    name: &'t str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'t str>,
    description: &'t str,
    input_schema: &'t Schema,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'t Schema>,
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

/// The file with an empty list where its tools go.
pub(super) fn document(out: &mut dyn Write) -> std::io::Result<()> {
    write_json(out, &List { tools: NoTools })
}

/// The entry of `t` in the list.
pub(super) fn entry(t: &Tool) -> Entry<'_> {
    Entry {
        name: &t.name,
        title: t.title.as_deref(),
        description: &t.description,
        input_schema: &t.input_schema,
        // MCP requires an output schema to describe an object; others stay out.
        output_schema: t
            .output_schema
            .as_ref()
            .filter(|s| s.root_type().as_deref() == Some("object")),
        annotations: Annotations {
            read_only_hint: t.risk.read_only,
            destructive_hint: t.risk.destructive,
            idempotent_hint: t.risk.idempotent,
            open_world_hint: t.risk.open_world,
        },
    }
}
