//! `anthropic.tools.json`: the Messages API `tools` array.

use std::io::Write;

use serde::Serialize;

use super::{NoTools, write_json};
use crate::ir::{Schema, Tool};

#[derive(Serialize)]
pub(super) struct Entry<'t> {
    name: &'t str,
    description: &'t str,
    input_schema: &'t Schema,
}

/// The file with an empty list where its tools go.
pub(super) fn document(out: &mut dyn Write) -> std::io::Result<()> {
    write_json(out, &NoTools)
}

/// The entry of `t` in the list.
pub(super) fn entry(t: &Tool) -> Entry<'_> {
    Entry {
        name: &t.name,
        description: &t.description,
        input_schema: &t.input_schema,
    }
}
