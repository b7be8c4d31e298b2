//! What an editor navigates in a file: the names it defines (tools and their parameters,
//! skills, agents) and the references it makes to names or files elsewhere. Each format
//! gives its files' [`Outline`] from their typed items; resolving a reference reads only
//! outlines, never syntax trees, so a cache of per-file facts can hold them.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::FileResult;
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind, Packed};

/// A name as a reference looks it up: names of one namespace (a format family's registry)
/// and one scope (a project or tools folder; empty for repository-wide names) are one
/// registry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Name {
    /// The registry's family: `tool-md`, `cycod`, `dojops`…
    #[serde(with = "crate::formats::item::static_str")]
    pub namespace: crate::formats::item::StaticStr,
    /// The folder the name is registered in (empty when the whole repository is one scope).
    pub scope: PathBuf,
    /// The name itself.
    pub value: String,
}

/// What a reference points at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Target {
    /// A name another file defines.
    Name(Name),
    /// A whole file (a schema file a manifest names).
    File(PathBuf),
}

/// A place in a file that names something defined elsewhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Reference {
    /// Where the name is written.
    pub span: Span,
    /// What it names.
    pub target: Target,
}

/// What a symbol is, for an editor's outline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SymbolKind {
    /// A tool definition.
    Tool,
    /// A DojOps skill (a tool the LLM generates files with).
    Skill,
    /// An agent that references tools.
    Agent,
    /// A parameter of a tool.
    Parameter,
}

/// A definition in a file, with the definitions inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    /// The name shown.
    pub name: String,
    /// A short description (a title, a parameter's type).
    pub detail: Option<String>,
    /// What it is.
    pub kind: SymbolKind,
    /// Where the name is written.
    pub name_span: Span,
    /// Everything that belongs to the definition (contains `name_span`).
    pub span: Span,
    /// The name references resolve to this symbol by, when others can name it.
    pub defines: Option<Name>,
    /// Definitions inside this one (a tool's parameters).
    pub children: Vec<Symbol>,
}

impl Symbol {
    /// A symbol named `name` at `name_span`, covering `span` (widened to hold the name).
    pub(crate) fn new(
        name: impl Into<String>,
        kind: SymbolKind,
        name_span: Span,
        span: Span,
    ) -> Symbol {
        Symbol {
            name: name.into(),
            detail: None,
            kind,
            name_span,
            span: span.join(name_span),
            defines: None,
            children: Vec::new(),
        }
    }

    /// The same symbol, registered under `name` for references.
    pub(crate) fn defines(mut self, name: Name) -> Symbol {
        self.defines = Some(name);
        self
    }

    /// The same symbol with a detail line.
    pub(crate) fn detail(mut self, detail: Option<String>) -> Symbol {
        self.detail = detail;
        self
    }

    /// The same symbol with `children`, its span widened to hold them.
    pub(crate) fn children(mut self, children: Vec<Symbol>) -> Symbol {
        for c in &children {
            self.span = self.span.join(c.span);
        }
        self.children = children;
        self
    }
}

/// The definitions and references of one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Outline {
    /// Top-level definitions, in file order.
    pub symbols: Vec<Symbol>,
    /// References to other definitions, in file order.
    pub references: Vec<Reference>,
}

/// A place a reference resolves to.
#[derive(Debug, Clone)]
pub(crate) struct Location {
    /// The file.
    pub file: Arc<SourceFile>,
    /// The bytes (the definition's name; the start of a file).
    pub span: Span,
}

/// The parameters of a JSON Schema written in the file: one symbol per key of its root
/// `properties`, with the property's `type` as detail.
pub(crate) fn parameters(schema: &Packed) -> Vec<Symbol> {
    let schema = schema.unpack();
    let Some(properties) = schema.value("properties").and_then(Node::as_map) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|e| {
            let kind = e.value.value("type").and_then(|t| match &t.kind {
                NodeKind::String(s) => Some(s.to_string()),
                _ => None,
            });
            Symbol::new(
                e.key.as_str(),
                SymbolKind::Parameter,
                e.key_span(),
                e.value.span(),
            )
            .detail(kind)
        })
        .collect()
}

/// The whole text of `file` as a span (the range of a file that defines one thing).
pub(crate) fn whole(file: &SourceFile) -> Span {
    Span::new(file.bom_len, file.text.len())
}

/// The file of `results` whose path is `path`, or that some result pulled in as a companion.
pub(crate) fn source<'a>(results: &'a [FileResult], path: &Path) -> Option<&'a Arc<SourceFile>> {
    results
        .iter()
        .flat_map(|r| std::iter::once(&r.file).chain(&r.companions))
        .find(|f| f.path == path)
}

/// Where `target` is defined among `results`. A name defined in the reference's own scope
/// wins; otherwise every definition of the name in its namespace is a candidate (include
/// folders and runtime scopes the checks cannot pin down).
pub(crate) fn resolve(results: &[FileResult], target: &Target) -> Vec<Location> {
    let name = match target {
        Target::File(path) => {
            return source(results, path)
                .map(|file| Location {
                    file: Arc::clone(file),
                    span: Span::point(file.bom_len),
                })
                .into_iter()
                .collect();
        }
        Target::Name(name) => name,
    };
    let mut same_scope = Vec::new();
    let mut elsewhere = Vec::new();
    for r in results {
        for symbol in r.outline().symbols {
            let Some(defined) = &symbol.defines else {
                continue;
            };
            if defined.namespace != name.namespace || defined.value != name.value {
                continue;
            }
            let at = Location {
                file: Arc::clone(&r.file),
                span: symbol.name_span,
            };
            if defined.scope == name.scope {
                same_scope.push(at);
            } else {
                elsewhere.push(at);
            }
        }
    }
    if same_scope.is_empty() {
        elsewhere
    } else {
        same_scope
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::yaml;

    #[test]
    fn parameters_are_the_root_properties_with_their_types() {
        let text = "type: object\nproperties:\n  query:\n    type: string\n  limit: {}\n";
        let root = yaml::parse(text, 0).root.expect("yaml");
        let params = parameters(&Packed::pack(&root));
        let names: Vec<(&str, Option<&str>)> = params
            .iter()
            .map(|p| (p.name.as_str(), p.detail.as_deref()))
            .collect();
        assert_eq!(names, [("query", Some("string")), ("limit", None)]);
        assert_eq!(
            &text[params[0].name_span.start..params[0].name_span.end],
            "query"
        );
        assert!(params[0].span.start <= params[0].name_span.start);
    }

    #[test]
    fn a_symbol_covers_its_name_and_children() {
        let child = Symbol::new(
            "p",
            SymbolKind::Parameter,
            Span::new(40, 41),
            Span::new(40, 50),
        );
        let tool = Symbol::new("t", SymbolKind::Tool, Span::new(10, 11), Span::new(12, 20))
            .children(vec![child]);
        assert_eq!(tool.span, Span::new(10, 50));
    }
}
