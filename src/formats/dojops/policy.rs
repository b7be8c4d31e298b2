//! `.dojops/policy.yaml`: allowlist / blocklist of tools.

use std::sync::Arc;

use super::{Item, Member};
use crate::diagnostics::Diagnostic;
use crate::formats::{FileResult, Item as FileItem};
use crate::source::SourceFile;

/// A lowered policy.
#[derive(Debug, Default)]
pub struct Policy {}

/// Parse and lower a policy file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics: Vec::new(),
        item: FileItem::Dojops(Item::Policy(Policy::default())),
    }
}

/// Checks of a policy against the project's tools.
pub fn resolve(
    _file: &Arc<SourceFile>,
    _policy: &Policy,
    _members: &[Member<'_>],
) -> Vec<Diagnostic> {
    Vec::new()
}
