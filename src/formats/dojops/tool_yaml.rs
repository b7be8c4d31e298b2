//! DojOps `tool.yaml` (spec 1) and the schema files it names.

use std::sync::Arc;

use super::{Item, Name};
use crate::formats::{FileResult, Item as FileItem};
use crate::source::SourceFile;

/// A lowered `tool.yaml`.
#[derive(Debug, Default)]
pub struct Tool {
    /// `name`, when present and a string.
    pub name: Option<Name>,
}

/// Parse, lower, validate and lint one manifest and its schema files.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    FileResult { file, companions: Vec::new(), diagnostics: Vec::new(), item: FileItem::Dojops(Item::Tool(Tool::default())) }
}
