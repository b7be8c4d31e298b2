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
    let named = manifest.tools.iter().map(|tool| {
        let d = tool.details();
        let params = d
            .schema
            .as_ref()
            .map(outline::parameters)
            .unwrap_or_default();
        let symbol = Symbol::new(
            manifest.name(tool).to_string(),
            SymbolKind::Tool,
            tool.name_at(),
            tool.at(),
        );
        (
            tool.index,
            symbol
                .detail(d.description.as_deref().map(str::to_string))
                .children(params),
        )
    });
    let unnamed = manifest.unnamed.iter().map(|entry| {
        let at = entry.span.get().unwrap_or(Span::point(0));
        let symbol = Symbol::new(
            format!("tools[{}]", entry.index),
            SymbolKind::Tool,
            Span::point(at.start),
            at,
        );
        (entry.index, symbol)
    });
    // In the order they are written: the two lists are each in order.
    let mut symbols: Vec<(u32, Symbol)> = named.chain(unnamed).collect();
    symbols.sort_by_key(|(index, _)| *index);
    let symbols = symbols.into_iter().map(|(_, symbol)| symbol).collect();
    Outline {
        symbols,
        references: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::fs::NoFiles;
    use crate::source::{FormatId, SourceFile};

    /// An entry without a name is listed where it is written, between the named ones, and
    /// counted as a tool.
    #[test]
    fn entries_without_a_name_are_listed_in_order() {
        let text = r#"{"tools":[{"name":"a","description":"A","command":["./tools/bin/a"]},{},{"command":["x"]},{"name":"b"},{"name":""}]}"#;
        let file = SourceFile::new(
            Path::new("/repo/tools.json").to_path_buf(),
            "tools.json".into(),
            FormatId::AgentcliManifest,
            text.into(),
        );
        let result = super::super::load(file, &NoFiles, crate::security::Passes::NONE);
        let outline = super::outline(&result);
        let names: Vec<&str> = outline.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "tools[1]", "tools[2]", "b", "tools[4]"]);
        let second = &outline.symbols[1];
        assert_eq!(&text[second.span.start..second.span.end], "{}");
        assert_eq!(outline.symbols[0].detail.as_deref(), Some("A"));
        let manifest = result.item.get::<super::Manifest>().expect("a manifest");
        assert_eq!(manifest.tool_count(), 5);
    }
}
