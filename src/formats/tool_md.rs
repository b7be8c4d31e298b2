//! `*.tool.md` tool specs and the `*.agent.md` agents that reference them.

use std::sync::Arc;

use super::{FileResult, Item as FileItem};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// A lowered tool or agent file.
#[derive(Debug)]
pub enum Item {
    /// A `*.tool.md`.
    Tool,
    /// A `*.agent.md`.
    Agent,
}

impl Item {
    /// Tool definitions in this item.
    pub fn tool_count(&self) -> usize {
        usize::from(matches!(self, Item::Tool))
    }
}

/// Parse, lower, validate and lint one tool or agent file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    let item = if file.format == crate::source::FormatId::AgentMd {
        Item::Agent
    } else {
        Item::Tool
    };
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics: Vec::new(),
        item: FileItem::ToolMd(item),
    }
}

/// Cross-file checks: duplicate tool ids, agent references.
pub fn resolve(_results: &[FileResult]) -> Vec<Diagnostic> {
    Vec::new()
}
