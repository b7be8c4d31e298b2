//! What an editor navigates in a `tools.json`: each tool entry and its schema's parameters.

use super::Manifest;
use crate::formats::format::FileResult;
use crate::formats::outline::{self, Outline, Symbol, SymbolKind};
use crate::source::Span;

/// The outline of a `tools.json`: one symbol per object entry of `tools`.
pub(super) fn outline(r: &FileResult) -> Outline {
    let Some(manifest) = r.item.get::<Manifest>() else {
        return Outline::default();
    };
    let symbols = manifest
        .tools
        .iter()
        .map(|tool| {
            let name = tool
                .name
                .as_deref()
                .map_or_else(|| format!("tools[{}]", tool.index), str::to_string);
            let name_span = tool.name_span.get().unwrap_or(Span::point(tool.at().start));
            let params = tool
                .schema
                .as_ref()
                .map(outline::parameters)
                .unwrap_or_default();
            Symbol::new(name, SymbolKind::Tool, name_span, tool.at())
                .detail(tool.description.as_deref().map(str::to_string))
                .children(params)
        })
        .collect();
    Outline {
        symbols,
        references: Vec::new(),
    }
}
