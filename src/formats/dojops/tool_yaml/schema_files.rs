//! The schema files a `tool.yaml` names (`inputSchema`, `outputSchema`): where they may lie,
//! read, parsed and checked once, with the manifest's findings about them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{MAX_DOJOPS_FILE, too_large};
use crate::analysis::paths::sibling_display;
use crate::formats::fields::Lowerer;
use crate::formats::format::{source_of, syntax_diagnostics};
use crate::fs::FileSystem;
use crate::rules::dojops as rules;
use crate::schema::check_schema;
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::{Node, json};

/// Why a schema path is not usable, if it is not.
pub(super) fn bad_schema_path(rel: &str) -> Option<&'static str> {
    let b = rel.as_bytes();
    let windows_drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if rel.starts_with(['/', '\\']) || windows_drive {
        Some("is an absolute path")
    } else if rel.split(['/', '\\']).any(|s| s == "..") {
        Some("climbs out of the tool folder with `..`")
    } else {
        None
    }
}

/// Read, parse and check a schema file named by `key`; None when it cannot be read.
pub(super) fn load_schema(
    lw: &mut Lowerer<'_>,
    fs: &dyn FileSystem,
    dir: &Path,
    key: &str,
    rel: &str,
    span: Span,
) -> Option<(Arc<SourceFile>, Option<Node>)> {
    if let Some(why) = bad_schema_path(rel) {
        let d = lw
            .diag(&rules::INVALID_SCHEMA_PATH, span, format!("`{key}` {why}: `{rel}`"))
            .label("must be relative to the tool folder")
            .note("DojOps only loads schema files inside the tool's own folder and skips the tool otherwise")
            .help(format!("put the schema next to tool.yaml and write `{key}: \"{}\"`", Path::new(rel).file_name().and_then(|n| n.to_str()).unwrap_or("input.schema.json")));
        lw.push(d);
        return None;
    }
    let path: PathBuf = crate::fs::normalize(&dir.join(rel.replace('\\', "/")));
    // Read straight away: asking first whether it is a file is a call more per tool.
    let read = fs.read(&path);
    if read.as_ref().is_err_and(|e| e.is_not_a_file()) {
        let d = lw
            .diag(
                &rules::MISSING_SCHEMA_FILE,
                span,
                format!("`{key}` names `{rel}`, which does not exist"),
            )
            .label("no such file in the tool folder")
            .note(if key == "inputSchema" {
                "DojOps skips a tool whose input schema is missing, without an error"
            } else {
                "DojOps cannot load the output schema, so structured output is not enforced"
            })
            .help(format!("create `{rel}` next to tool.yaml, or fix the path"));
        lw.push(d);
        return None;
    }
    let display = sibling_display(lw.file.display(), rel);
    let (schema_file, fatal) = source_of(read, &path, display, FormatId::DojopsSchema);
    if let Some(d) = fatal {
        lw.push(d);
        return Some((schema_file, None));
    }
    if schema_file.text.len() > MAX_DOJOPS_FILE {
        lw.push(too_large(&schema_file, "schema"));
    }
    // `schema_tree` parses it the same way when the bundles need the tree again.
    let parsed = json::parse(schema_file.body(), schema_file.bom_len);
    lw.diags.extend(syntax_diagnostics(&schema_file, &parsed));
    if let Some(root) = parsed.root.as_ref().filter(|_| lw.schema) {
        lw.diags.extend(check_schema(
            &schema_file,
            root,
            super::super::zod::SCHEMA_OPTIONS,
        ));
    }
    Some((schema_file, parsed.root))
}
