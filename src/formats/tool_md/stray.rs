//! A `*.tool.md` file that is not an AML tool, found in a folder of AML tools (TMD042). The
//! walk reads a `*.tool.md` only when its front matter has a key of AML's own, so that other
//! tools' files and documentation pages are left alone; beside valid AML tools, such a file is
//! far more likely a tool whose front matter is missing or broken.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Item;
use crate::diagnostics::Diagnostic;
use crate::formats::format::FileResult;
use crate::fs::FileSystem;
use crate::fs::display_path;
use crate::rules::tool_md as rules;
use crate::source::{FormatId, SourceFile, Span};

/// TMD042 for each walked `*.tool.md` of `not_claimed` whose folder holds a valid AML tool
/// among `results` (paths shown relative to `cwd`).
pub(crate) fn strays(
    not_claimed: &[PathBuf],
    results: &[FileResult],
    fs: &dyn FileSystem,
    cwd: &Path,
) -> Vec<Diagnostic> {
    let candidates: Vec<&PathBuf> = not_claimed
        .iter()
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".tool.md")))
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    let folders: HashSet<&Path> = results
        .iter()
        .filter(|r| {
            r.file.format == FormatId::ToolMd
                && matches!(r.item.get::<Item>(), Some(Item::Tool(t)) if t.id.is_some())
        })
        .filter_map(|r| r.file.path.parent())
        .collect();
    let mut out = Vec::new();
    for path in candidates {
        if !path.parent().is_some_and(|p| folders.contains(p)) {
            continue;
        }
        let Ok(bytes) = fs.read(path) else { continue };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let file = SourceFile::new(
            path.clone(),
            display_path(path, cwd),
            FormatId::ToolMd,
            text,
        );
        let has_front_matter = file.body().starts_with("---");
        let (message, label) = if has_front_matter {
            (
                "this file's front matter has none of the keys of an AML tool, though the files beside it are AML tools",
                "no `tool_id`, `spec_version`, `interface` or `transport`",
            )
        } else {
            (
                "this file has no front matter, though the files beside it are AML tools",
                "no `---` front matter",
            )
        };
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let id = name.strip_suffix(".tool.md").unwrap_or(name);
        out.push(
            Diagnostic::new(&rules::STRAY_TOOL_FILE, &file, Span::point(file.bom_len), message)
                .label(label)
                .note("the compiler registers a tool from its front matter: this file defines no tool, and an agent that references it fails to compile; toolc does not check it either")
                .help(format!("if it is a tool, open it with its front matter (`---`, then `spec_version`, `tool_id: \"{id}\"`, …, `---`); if it is documentation, move it out of the tools folder or rename it")),
        );
    }
    out
}
