//! The JSON Schema subset that tool.md's `interface.input` and `interface.output` may use
//! (the tool.md specification of AML, <https://github.com/alirion-io/aml>): its keywords and
//! `format` values, and the walk that reports everything outside it (TMD020 keywords, TMD021
//! references, TMD022 formats). What counts as a JSON Schema keyword at all comes from the
//! shared vocabulary; tool.md schemas are read as draft-07, so a keyword only earlier drafts
//! define (draft-04's `id`) is an unknown key here.

use crate::analysis::names::did_you_mean;
use crate::diagnostics::edits::replace_scalar;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::Lowerer;
use crate::rules::tool_md as rules;
use crate::schema::vocab::{self, Draft, Keyword, Kind};
use crate::source::Span;
use crate::syntax::{MAX_DEPTH, Node, NodeKind};

/// The keywords tool.md schemas may use.
pub(super) const SUBSET: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "description",
    "enum",
    "const",
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "default",
];

/// The `format` values tool.md documents.
const FORMATS: &[&str] = &[
    "date",
    "date-time",
    "time",
    "email",
    "uri",
    "uuid",
    "ipv4",
    "ipv6",
];

const SUBSET_NOTE: &str = "tool.md schemas allow only `type`, `properties`, `required`, `additionalProperties`, `items`, `description`, `enum`, `const`, `format`, `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minItems`, `maxItems` and `default`; the compiler rejects any other keyword";

/// What the subset walk found.
#[derive(Default)]
pub(super) struct Walk<'n> {
    /// Every subschema (a mapping) reached through subset keywords.
    pub sites: Vec<&'n Node>,
    /// Values of `$ref`-like keywords (where `SCH001`/`SCH005` would point too).
    pub pointer_values: Vec<Span>,
}

/// The JSON Schema keyword `key`, as a draft-07 reader knows it.
fn keyword(key: &str) -> Option<&'static Keyword> {
    vocab::keyword(key).filter(|k| k.defined_since(Draft::D7))
}

/// Whether `kind` exists only for references (defining, naming or following them).
fn is_reference(kind: Kind) -> bool {
    matches!(kind, Kind::Identifier | Kind::Reference | Kind::Definitions)
}

/// Every subschema reached through subset keywords; TMD020/TMD021/TMD022 on the way.
pub(super) fn walk<'n>(lw: &mut Lowerer<'_>, root: &'n Node) -> Walk<'n> {
    let mut out = Walk::default();
    let mut stack: Vec<(&'n Node, usize)> = vec![(root, 0)];
    while let Some((schema, depth)) = stack.pop() {
        let Some(entries) = schema.as_map() else {
            continue;
        };
        out.sites.push(schema);
        let mut children: Vec<&'n Node> = Vec::new();
        for e in entries {
            let key = e.key.as_str();
            let kind = keyword(key).map(|k| k.kind);
            if SUBSET.contains(&key) {
                match (key, &e.value.kind) {
                    ("properties", NodeKind::Map(props)) => {
                        children.extend(props.iter().map(|p| &p.value));
                    }
                    ("items" | "additionalProperties", NodeKind::Map(_)) => {
                        children.push(&e.value);
                    }
                    ("items", NodeKind::Seq(items)) => children.extend(items.iter()),
                    ("format", NodeKind::String(f)) => format(lw, &e.value, f),
                    _ => {}
                }
            } else if let Some(kind) = kind.filter(|k| is_reference(*k)) {
                if kind == Kind::Reference {
                    out.pointer_values.push(e.value.span());
                }
                reference(lw, e.key_span(), key);
            } else {
                unsupported(lw, e.key_span(), key, kind);
            }
        }
        if depth < MAX_DEPTH {
            stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
        }
    }
    out
}

fn reference(lw: &mut Lowerer<'_>, span: Span, key: &str) {
    let (note, help) = match key {
        "$ref" | "$dynamicRef" | "$recursiveRef" => (
            "the compiler does not resolve references, and recursive schemas are not supported",
            "copy the referenced schema here in place of the reference",
        ),
        "definitions" | "$defs" => (
            "nothing may refer to these definitions, since `$ref` is not supported either",
            "copy each definition to where it is used, then remove this block",
        ),
        _ => (
            "schema identifiers and anchors exist only to be referenced, which tool.md does not support",
            "remove it",
        ),
    };
    let d = lw
        .diag(
            &rules::UNSUPPORTED_SCHEMA_REFERENCE,
            span,
            format!("`{key}` is not supported in tool.md schemas"),
        )
        .label("references are not supported")
        .note(note)
        .note("the compiler rejects a tool whose schema uses `$ref`, `$id` or `definitions`")
        .help(help);
    lw.push(d);
}

/// TMD020 for `key`, which is the JSON Schema keyword of `kind` or, without one, unknown.
fn unsupported(lw: &mut Lowerer<'_>, span: Span, key: &str, kind: Option<Kind>) {
    let mut hint = None;
    let help = match key {
        "title" => "fold the title into `description`".to_string(),
        "examples" => "show an example value in `description`".to_string(),
        "$schema" => "remove it: tool.md schemas are always read as draft-07".to_string(),
        "$comment" => "use a YAML comment (`# …`) instead".to_string(),
        "oneOf" | "anyOf" => "for a fixed set of values use `enum`; for a value that may be null use a type list such as `type: [\"string\", \"null\"]`".to_string(),
        "allOf" => "merge the combined schemas into this one".to_string(),
        "patternProperties" | "propertyNames" => "list the keys under `properties`, or allow any with `additionalProperties`".to_string(),
        "prefixItems" | "additionalItems" => "give `items` one schema that every item matches".to_string(),
        // A keyword about the value (not about the schema document) can live on as prose.
        _ if kind.is_some_and(|k| k != Kind::Core) => {
            format!("remove `{key}` and state the constraint in `description`")
        }
        _ => {
            // The key may already be there under its right name: a guess, to review.
            hint = did_you_mean(key, SUBSET.iter().copied()).map(|h| {
                let fix = replace_scalar(lw.file, span, h, Applicability::Unsafe);
                DidYouMean::new(h, fix)
            });
            format!("remove `{key}`")
        }
    };
    let d = lw
        .diag(
            &rules::UNSUPPORTED_SCHEMA_KEYWORD,
            span,
            format!("`{key}` is not in the tool.md schema subset"),
        )
        .label("unsupported keyword")
        .note(SUBSET_NOTE)
        .did_you_mean_or(hint, help);
    lw.push(d);
}

fn format(lw: &mut Lowerer<'_>, node: &Node, value: &str) {
    if FORMATS.contains(&value) {
        return;
    }
    let list = FORMATS
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let help = format!("use one of {list}, or describe the format in `description`");
    let (message, hint) = if vocab::FORMATS.contains(&value) {
        (
            format!("`{value}` is a JSON Schema format, but not one tool.md supports"),
            None,
        )
    } else {
        let lower = value.to_ascii_lowercase();
        let hint = FORMATS
            .iter()
            .find(|f| f.replace('-', "") == lower.replace(['-', '_', ' '], ""))
            .copied()
            .or_else(|| did_you_mean(value, FORMATS.iter().copied()));
        let hint = hint.map(|h| {
            DidYouMean::new(
                h,
                replace_scalar(lw.file, node.span(), h, Applicability::Safe),
            )
        });
        (format!("`{value}` is not a format tool.md knows"), hint)
    };
    let d = lw
        .diag(&rules::UNKNOWN_SCHEMA_FORMAT, node.span(), message)
        .label("unknown format")
        .note("validators ignore a format they do not know, so values are not checked against it")
        .did_you_mean_or(hint, help);
    lw.push(d);
}

#[cfg(test)]
mod tests {
    use super::super::interface::tests::lowered;
    use super::*;

    /// `(code, help)` of each diagnostic the subset walk reports for `schema` (YAML).
    fn findings(schema: &str) -> Vec<(String, String)> {
        lowered(schema, |lw, root| {
            walk(lw, root);
        })
        .into_iter()
        .map(|d| {
            (
                d.rule.code.to_string(),
                d.help.unwrap_or_default().into_owned(),
            )
        })
        .collect()
    }

    #[test]
    fn subset_and_formats_are_json_schema() {
        for k in SUBSET {
            assert!(keyword(k).is_some(), "{k}");
        }
        for f in FORMATS {
            assert!(vocab::FORMATS.contains(f), "{f}");
        }
    }

    #[test]
    fn keywords_outside_the_subset() {
        assert!(
            findings("type: object\nproperties:\n  a: {type: string, maxLength: 3}\n").is_empty()
        );
        assert_eq!(
            findings("type: string\nminLenght: 1\n"),
            vec![("TMD020".into(), "did you mean `minLength`?".into())]
        );
        assert_eq!(
            findings("type: string\nuniqueItems: true\n"),
            vec![(
                "TMD020".into(),
                "remove `uniqueItems` and state the constraint in `description`".into()
            )]
        );
        // Draft-04's `id` is no keyword of draft-07: an unknown key, not an identifier.
        assert_eq!(
            findings("id: x\n"),
            vec![("TMD020".into(), "remove `id`".into())]
        );
        assert_eq!(
            findings("$vocabulary: {}\n"),
            vec![("TMD020".into(), "remove `$vocabulary`".into())]
        );
    }

    #[test]
    fn references_and_formats() {
        assert_eq!(
            findings("$id: x\nitems: {$ref: \"#/definitions/a\"}\n"),
            vec![
                ("TMD021".into(), "remove it".into()),
                (
                    "TMD021".into(),
                    "copy the referenced schema here in place of the reference".into()
                ),
            ]
        );
        assert_eq!(
            findings("type: string\nformat: date_time\n"),
            vec![("TMD022".into(), "did you mean `date-time`?".into())]
        );
        assert_eq!(findings("type: string\nformat: uuid\n"), vec![]);
    }
}
