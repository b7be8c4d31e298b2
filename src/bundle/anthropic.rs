//! `anthropic.tools.json`: the Messages API `tools` array.

use std::io::Write;

use serde::Serialize;

use super::{Each, write_json};
use crate::ir::{Schema, Tool};

#[derive(Serialize)]
struct Entry {
    name: String,
    description: String,
    input_schema: Schema,
}

/// Write the file to `out`.
pub(crate) fn render<I: Iterator<Item = Tool>>(
    tools: impl Fn() -> I,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    write_json(
        out,
        &Each(|| {
            tools().map(|t| Entry {
                name: t.name,
                description: t.description,
                input_schema: t.input_schema,
            })
        }),
    )
}
