//! What an editor navigates in tool and agent files: a tool's id and its input parameters;
//! an agent's id and its references to tool ids (`tools.refs[].ref`,
//! `require_user_confirmation_for`), which resolve repository-wide.

use std::path::PathBuf;

use super::Item;
use crate::formats::format::FileResult;
use crate::formats::outline::{self, Name, Outline, Reference, Symbol, SymbolKind, Target};
use crate::source::Span;

/// Tool ids are one registry for the whole repository.
fn tool_id(value: &str) -> Name {
    Name {
        namespace: "tool-md",
        scope: PathBuf::new(),
        value: value.to_string(),
    }
}

/// The outline of a `*.tool.md` or `*.agent.md` file.
pub(super) fn outline(r: &FileResult) -> Outline {
    let whole = outline::whole(&r.file);
    match r.item.get::<Item>() {
        Some(Item::Tool(tool)) => {
            let params = tool
                .doc
                .as_ref()
                .and_then(|d| d.input.as_ref())
                .map(outline::parameters)
                .unwrap_or_default();
            let title = tool.doc.as_ref().and_then(|d| d.title.clone());
            // A tool whose id cannot be read still answers to its file name, which is
            // what a reference to it most likely meant.
            let (name, span) = match (&tool.id, &tool.file_stem) {
                (Some(id), _) => (id.value.clone(), id.span),
                (None, Some(stem)) => (stem.clone(), Span::point(r.file.bom_len)),
                (None, None) => return Outline::default(),
            };
            let symbol = Symbol::new(&name, SymbolKind::Tool, span, whole)
                .defines(tool_id(&name))
                .detail(title)
                .children(params);
            Outline {
                symbols: vec![symbol],
                references: Vec::new(),
            }
        }
        Some(Item::Agent(agent)) => {
            let symbols = agent
                .id
                .iter()
                .map(|id| {
                    Symbol::new(&id.value, SymbolKind::Agent, id.span, whole)
                        .detail(agent.name.clone())
                })
                .collect();
            let mut references: Vec<Reference> = agent
                .refs
                .iter()
                .map(|r| (r.span, r.id.as_str()))
                .chain(agent.confirmations.iter().map(|(id, span)| (span, id)))
                .map(|(span, id)| Reference {
                    span,
                    target: Target::Name(tool_id(id)),
                })
                .collect();
            references.sort_by_key(|r| r.span);
            Outline {
                symbols,
                references,
            }
        }
        Some(Item::Definition(_)) | None => Outline::default(),
    }
}
