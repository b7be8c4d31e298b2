//! What an editor navigates in DojOps files: a manifest's or skill's name, the schema files
//! a manifest names (`inputSchema`, `outputSchema`), a skill's `dependencies[].skill`, and
//! every entry of the policy's lists, which name tools and skills of the same project.

use std::path::Path;

use super::{Item, project_of};
use crate::formats::format::FileResult;
use crate::formats::outline::{self, Name, Outline, Reference, Symbol, SymbolKind, Target};

/// A tool or skill name in the registry of the `.dojops/` project of `path`.
fn member(path: &Path, value: &str) -> Name {
    Name {
        namespace: "dojops",
        scope: project_of(path),
        value: value.to_string(),
    }
}

/// A reference from `span` in the file at `path` to the member `value` of its project.
fn to_member(path: &Path, span: crate::source::Span, value: &str) -> Reference {
    Reference {
        span,
        target: Target::Name(member(path, value)),
    }
}

/// The outline of a `tool.yaml`, `.dops` or `.dojops/policy.yaml`.
pub(super) fn outline(r: &FileResult) -> Outline {
    let path = r.file.path.as_path();
    let whole = outline::whole(&r.file);
    match r.item.get::<Item>() {
        Some(Item::Tool(tool)) => Outline {
            symbols: tool
                .name
                .iter()
                .map(|n| {
                    Symbol::new(n.value.as_str(), SymbolKind::Tool, n.span, whole)
                        .defines(member(path, &n.value))
                })
                .collect(),
            references: [&tool.input, &tool.output]
                .into_iter()
                .flatten()
                .map(super::tool_yaml::SchemaFile::reference)
                .collect(),
        },
        Some(Item::Skill(skill)) => Outline {
            symbols: skill
                .name
                .iter()
                .map(|n| {
                    Symbol::new(n.value.as_str(), SymbolKind::Skill, n.span, whole)
                        .defines(member(path, &n.value))
                })
                .collect(),
            references: skill
                .dependencies
                .iter()
                .map(|d| to_member(path, d.span, &d.skill))
                .collect(),
        },
        Some(Item::Policy(policy)) => {
            let mut references: Vec<Reference> = [&policy.allowed, &policy.blocked]
                .into_iter()
                .flatten()
                .flat_map(|list| &list.entries)
                .map(|n| to_member(path, n.span, &n.value))
                .collect();
            references.sort_by_key(|r| r.span);
            Outline {
                symbols: Vec::new(),
                references,
            }
        }
        None => Outline::default(),
    }
}
