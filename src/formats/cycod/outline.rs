//! What an editor navigates in a cycod tool file: the tool's name and its parameters, and
//! the tools it names (`uses.tools`, a step's or the tool's `tool:`), which resolve in the
//! tool's own folder first.

use std::path::Path;

use super::Tool;
use crate::formats::format::FileResult;
use crate::formats::outline::{self, Name, Outline, Reference, Symbol, SymbolKind, Target};

/// A tool name in the registry of the tools folder `folder`.
fn tool_name(folder: &Path, value: &str) -> Name {
    Name {
        namespace: "cycod",
        scope: folder.to_path_buf(),
        value: value.to_string(),
    }
}

/// The outline of a cycod tool file.
pub(super) fn outline(r: &FileResult) -> Outline {
    let Some(tool) = r.item.get::<Tool>() else {
        return Outline::default();
    };
    let folder = r
        .file
        .path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let symbols = tool
        .name
        .iter()
        .map(|name| {
            let params = tool
                .doc
                .as_ref()
                .and_then(|d| d.parameters.as_ref())
                .map(crate::syntax::Packed::unpack)
                .as_ref()
                .and_then(|p| p.as_map())
                .map(|entries| {
                    entries
                        .iter()
                        .map(|e| {
                            let kind = e.value.value("type").and_then(|t| t.as_str());
                            Symbol::new(
                                e.key.as_str(),
                                SymbolKind::Parameter,
                                e.key_span(),
                                e.value.span(),
                            )
                            .detail(kind.map(str::to_string))
                        })
                        .collect()
                })
                .unwrap_or_default();
            Symbol::new(
                &name.value,
                SymbolKind::Tool,
                name.span,
                outline::whole(&r.file),
            )
            .defines(tool_name(&folder, &name.value))
            .children(params)
        })
        .collect();
    // A tool defined inline under `with.tools` has no file to go to. Looked up: a tool may
    // name and define hundreds of thousands.
    let inline: std::collections::HashSet<&str> =
        tool.inline_tools.iter().map(String::as_str).collect();
    let references = tool
        .tool_references
        .iter()
        .filter(|n| !inline.contains(n.name))
        .map(|n| Reference {
            span: n.span,
            target: Target::Name(tool_name(&folder, n.name)),
        })
        .collect();
    Outline {
        symbols,
        references,
    }
}
