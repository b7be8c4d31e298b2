//! cycod custom tools (`.cycod/tools/*.yaml`, see `../shared/specs/cycod-custom-tools.txt`).

use std::sync::Arc;

use super::{FileResult, Item};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// A lowered cycod tool.
#[derive(Debug, Default)]
pub struct Tool {}

/// Parse, lower, validate and lint one tool file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics: Vec::new(),
        item: Item::Cycod(Tool::default()),
    }
}

/// Cross-file checks per `.cycod/tools` scope: duplicate names, `uses`/`tool:` references.
pub fn resolve(_results: &[FileResult]) -> Vec<Diagnostic> {
    Vec::new()
}
