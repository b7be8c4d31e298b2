//! Checks of embedded and referenced JSON Schemas (`SCH` rules), shared by every format.

use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;
use crate::syntax::Node;

/// Which lints apply to a schema.
#[derive(Debug, Clone, Copy, Default)]
pub struct SchemaOptions {
    /// The schema is converted to Zod by DojOps, which drops unsupported keywords (SCH004).
    pub dojops_zod: bool,
}

/// Validate `root` (a schema in `file`) against the meta-schema and lint it.
pub fn check_schema(
    _file: &Arc<SourceFile>,
    _root: &Node,
    _options: SchemaOptions,
) -> Vec<Diagnostic> {
    Vec::new()
}

/// Names of the root schema's `properties`, in source order.
pub fn root_property_names(root: &Node) -> Vec<&str> {
    root.value("properties")
        .and_then(Node::as_map)
        .map(|entries| entries.iter().map(|e| e.key.as_str()).collect())
        .unwrap_or_default()
}
