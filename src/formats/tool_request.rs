//! `TR-*.md` tool execution requests (see `../shared/specs/tool-execution-request.txt`).

use std::sync::Arc;

use super::{FileResult, Item};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// A lowered request.
#[derive(Debug, Default)]
pub struct Request {}

/// Parse, lower, validate and lint one request.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics: Vec::new(),
        item: Item::ToolRequest(Request::default()),
    }
}

/// Cross-file checks: unique `request_id`s.
pub fn resolve(_results: &[FileResult]) -> Vec<Diagnostic> {
    Vec::new()
}
