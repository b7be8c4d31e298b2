//! SCH001 for the `type` keyword, checked directly: the meta-schema's `anyOf` reports a bad
//! type name too vaguely to help (`"strng"` deserves a "did you mean `string`?").

use super::Cx;
use super::values::{found, short};
use super::vocab::{self, TYPES};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::edits::replace_scalar;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::rules::schema as rules;
use crate::syntax::{Node, NodeKind};

impl Cx<'_> {
    /// The problem with the `type` value `ty`, if any.
    pub(super) fn type_problem(&self, ty: &Node) -> Option<Diagnostic> {
        let file = self.file;
        let unknown = |node: &Node, name: &str| {
            let hint =
                vocab::type_alias(name).or_else(|| did_you_mean(name, TYPES.iter().copied()));
            Diagnostic::new(
                &rules::INVALID_JSON_SCHEMA,
                file,
                node.span(),
                format!(
                    "`type` must be one of the JSON Schema types, found `{}`",
                    short(name, 40)
                ),
            )
            .label("not a JSON Schema type")
            .did_you_mean_or(
                hint.map(|h| {
                    DidYouMean::new(h, replace_scalar(file, node.span(), h, Applicability::Safe))
                }),
                "use one of `string`, `number`, `integer`, `boolean`, `array`, `object`, `null`",
            )
            .note(self.options.runtime.map_or(
                "validators refuse to compile a schema with an unknown type",
                |r| r.unknown_type(),
            ))
        };
        match &ty.kind {
            NodeKind::String(s) if !vocab::is_type(s) => Some(unknown(ty, s)),
            NodeKind::String(_) => None,
            NodeKind::Seq(items) => {
                if items.is_empty() {
                    return Some(
                        Diagnostic::new(
                            &rules::INVALID_JSON_SCHEMA,
                            file,
                            ty.span(),
                            "`type` must not be an empty list",
                        )
                        .label("empty list")
                        .help("name at least one type"),
                    );
                }
                for (i, item) in items.iter().enumerate() {
                    match &item.kind {
                        NodeKind::String(s) if !vocab::is_type(s) => {
                            return Some(unknown(item, s));
                        }
                        NodeKind::String(s) if items[..i].iter().any(|p| p.as_str() == Some(s)) => {
                            return Some(
                                Diagnostic::new(
                                    &rules::INVALID_JSON_SCHEMA,
                                    file,
                                    item.span(),
                                    format!("`type` lists `{s}` more than once"),
                                )
                                .label("duplicate")
                                .help("remove the repeated type"),
                            );
                        }
                        NodeKind::String(_) => {}
                        _ => {
                            return Some(
                                Diagnostic::new(
                                    &rules::INVALID_JSON_SCHEMA,
                                    file,
                                    item.span(),
                                    format!(
                                        "entries of `type` must be type names, found {}",
                                        found(file, item)
                                    ),
                                )
                                .label("not a type name"),
                            );
                        }
                    }
                }
                None
            }
            _ => Some(
                Diagnostic::new(
                    &rules::INVALID_JSON_SCHEMA,
                    file,
                    ty.span(),
                    format!(
                        "`type` must be a type name or a list of type names, found {}",
                        found(file, ty)
                    ),
                )
                .label("not a type name"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{diagnostics, run};

    #[test]
    fn sch001_misspelt_type_with_did_you_mean() {
        let text = r#"{"type": "object", "properties": {"a": {"type": "strng"}}}"#;
        let (file, diags) = diagnostics(text);
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].rule.code, "SCH001");
        assert_eq!(file.slice(diags[0].span), "\"strng\"");
        assert_eq!(
            diags[0].message,
            "`type` must be one of the JSON Schema types, found `strng`"
        );
        assert_eq!(diags[0].help.as_deref(), Some("did you mean `string`?"));
        assert_eq!(
            diags[0].notes,
            vec!["validators refuse to compile a schema with an unknown type".to_string()]
        );
    }

    #[test]
    fn sch001_type_aliases_and_lists() {
        let lines = run(r#"{"type": "int"}"#);
        assert_eq!(
            lines,
            vec!["SCH001 \"int\" `type` must be one of the JSON Schema types, found `int`"]
        );
        let lines = run(r#"{"type": ["string", "nul"]}"#);
        assert_eq!(
            lines,
            vec!["SCH001 \"nul\" `type` must be one of the JSON Schema types, found `nul`"]
        );
        let lines = run(r#"{"type": ["string", "string"]}"#);
        assert_eq!(
            lines,
            vec!["SCH001 \"string\" `type` lists `string` more than once"]
        );
        let lines = run(r#"{"type": 3}"#);
        assert_eq!(
            lines,
            vec!["SCH001 3 `type` must be a type name or a list of type names, found `3`"]
        );
        assert_eq!(
            run(r#"{"type": []}"#),
            vec!["SCH001 [] `type` must not be an empty list"]
        );
    }
}
