//! agentcli `tools.json` manifests (see `../shared/specs/agentcli-tools-json.txt`).

use std::sync::Arc;

use super::{FileResult, Item};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// A lowered `tools.json`.
#[derive(Debug, Default)]
pub struct Manifest {
    /// Number of tool entries.
    pub tools: usize,
}

impl Manifest {
    /// Tool definitions in this manifest.
    pub fn tool_count(&self) -> usize {
        self.tools
    }
}

/// Parse, lower, validate and lint one manifest.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics: Vec::new(),
        item: Item::Agentcli(Manifest::default()),
    }
}

/// Cross-file checks (none yet: a manifest is its own name scope).
pub fn resolve(_results: &[FileResult]) -> Vec<Diagnostic> {
    Vec::new()
}
