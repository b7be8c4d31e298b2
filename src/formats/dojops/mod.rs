//! DojOps: `tool.yaml` (spec 1), `.dops` v2 skills and `.dojops/policy.yaml`.

use std::sync::Arc;

use super::{FileResult, Item as FileItem};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// A lowered DojOps file.
#[derive(Debug)]
pub enum Item {
    /// A `tool.yaml` manifest.
    Tool,
}

impl Item {
    /// Tool definitions in this item.
    pub fn tool_count(&self) -> usize {
        1
    }
}

/// Parse and lower one DojOps file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    FileResult { file, companions: Vec::new(), diagnostics: Vec::new(), item: FileItem::Dojops(Item::Tool) }
}

/// Cross-file checks.
pub fn resolve(_results: &[FileResult]) -> Vec<Diagnostic> {
    Vec::new()
}
