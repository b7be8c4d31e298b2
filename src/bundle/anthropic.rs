//! `anthropic.tools.json`: the Messages API `tools` array.

use serde::Serialize;
use serde_json::Value;

use super::to_json_bytes;
use crate::ir::Tool;

#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
}

/// The file's bytes.
pub(crate) fn render(tools: &[Tool]) -> Vec<u8> {
    let entries: Vec<Entry<'_>> = tools
        .iter()
        .map(|t| Entry {
            name: &t.name,
            description: &t.description,
            input_schema: &t.input_schema,
        })
        .collect();
    to_json_bytes(&entries)
}
