//! A schema file a DojOps manifest names, as the manifest's item holds it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::formats::outline::{Reference, Target};
use crate::source::{SourceFile, Span};
use crate::syntax::Later;

/// A schema file a manifest names (`inputSchema`, `outputSchema`), found and read: one of
/// the result's companions, which the item holds rather than a copy of its path (a
/// repository holds every tool's item).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct SchemaFile {
    /// The file.
    #[serde(with = "crate::source::file_ref")]
    pub file: Arc<SourceFile>,
    /// Where the manifest names it.
    pub span: Span,
    /// Its tree, for the bundle lowering (parsed again from the file when it is lowered: a
    /// check never needs it).
    pub tree: Later,
}

impl SchemaFile {
    /// The manifest's reference to it (for an editor).
    pub(crate) fn reference(&self) -> Reference {
        Reference {
            span: self.span,
            target: Target::File(self.file.path.clone()),
        }
    }
}
