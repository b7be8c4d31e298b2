//! `anthropic.tools.json`: the Messages API `tools` array.

use std::io::Write;

use serde::Serialize;

use super::{Each, write_json};
use crate::ir::{Schema, Tool};

#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Schema,
}

/// Write the file to `out`.
pub(crate) fn render(tools: &[Tool], out: &mut dyn Write) -> std::io::Result<()> {
    write_json(
        out,
        &Each(|| {
            tools.iter().map(|t| Entry {
                name: &t.name,
                description: &t.description,
                input_schema: &t.input_schema,
            })
        }),
    )
}
