//! `interface.input` and `interface.output`: JSON Schema (<https://json-schema.org>; the
//! meta-schema and the shared `SCH` lints) restricted to the subset tool.md supports (see
//! [`super::subset`]), with `default`, `const` and `enum` values checked against the whole
//! schema they belong to.

use super::subset;
use crate::diagnostics::Diagnostic;
use crate::formats::fields::Lowerer;
use crate::rules::schema as sch;
use crate::schema::{SchemaOptions, check_schema, declared_types, has_type, json_eq};
use crate::source::Span;
use crate::syntax::{Node, NodeKind, Number};

/// Check the schema `node` written at `path` (`interface.input`).
pub(super) fn check(lw: &mut Lowerer<'_>, node: &Node, path: &str) {
    if node.entries().is_none() {
        lw.wrong_type(node, path, "a JSON Schema (a mapping)");
        if let Some(d) = lw.diags.last_mut() {
            d.help = Some(
                format!(
                    "write the schema under `{}:`, e.g. `type: object` with its `properties`",
                    path.rsplit('.').next().unwrap_or(path)
                )
                .into(),
            );
        }
        return;
    }
    let walk = subset::walk(lw, node);
    if !lw.schema {
        return;
    }
    let mut shared = check_schema(lw.file, node, SchemaOptions::default());
    // A `$ref` is already an error of the subset; a second one on the same token adds nothing.
    shared.retain(|d| {
        !(matches!(d.rule.code, "SCH001" | "SCH005") && walk.pointer_values.contains(&d.span))
    });
    let reported: Vec<Span> = shared
        .iter()
        .filter(|d| std::ptr::eq(d.rule, &sch::VALUE_VIOLATES_OWN_SCHEMA))
        .map(|d| d.span)
        .collect();
    // Past the cap the shared check counts its findings without keeping them: what it
    // left out is not reported again here.
    let shared_capped = shared
        .iter()
        .any(|d| std::ptr::eq(d.rule, &sch::VALUE_VIOLATES_OWN_SCHEMA) && d.omitted > 0);
    lw.diags.extend(shared);
    if walk.pointer_values.is_empty() {
        for site in &walk.sites {
            own_values(lw, site, &reported, shared_capped);
        }
    }
}

/// SCH003 for `default`, `const` and `enum` values that the rest of their schema rejects
/// (beyond the type and enum mismatches the shared check already reports). Scalar
/// constraints are checked directly; a validator is compiled only for what needs one
/// (`pattern`, `format`, or the items and properties of a list or mapping value).
fn own_values(lw: &mut Lowerer<'_>, schema: &Node, reported: &[Span], shared_capped: bool) {
    let Some(entries) = schema.as_map() else {
        return;
    };
    for (key, drop) in [
        ("default", &["default"][..]),
        ("const", &["const", "default"][..]),
        ("enum", &["enum", "const", "default"][..]),
    ] {
        let Some(value) = schema.value(key) else {
            continue;
        };
        let instances: Vec<&Node> = if key == "enum" {
            value
                .as_seq()
                .map(|v| v.iter().collect())
                .unwrap_or_default()
        } else {
            vec![value]
        };
        let mut validator: Option<Option<jsonschema::Validator>> = None;
        for instance in instances {
            let problem = direct_problem(schema, key, instance).or_else(|| {
                if !needs_validator(schema, instance) {
                    return None;
                }
                let compiled = validator.get_or_insert_with(|| {
                    let rest: serde_json::Map<String, serde_json::Value> = entries
                        .iter()
                        .filter(|e| !drop.contains(&e.key.as_str()))
                        .map(|e| (e.key.to_string(), e.value.to_json()))
                        .collect();
                    // A schema that does not compile is SCH001's to report.
                    jsonschema::draft7::options()
                        .should_validate_formats(true)
                        .build(&serde_json::Value::Object(rest))
                        .ok()
                });
                let json = instance.to_json();
                compiled.as_ref()?.iter_errors(&json).next().map(|e| {
                    let at = instance.at_pointer(e.instance_path().as_str());
                    (at.span(), e.to_string())
                })
            });
            let Some((span, reason)) = problem else {
                continue;
            };
            if reported.iter().any(|s| overlaps(*s, span)) {
                continue;
            }
            if shared_capped && shared_finds(schema, key, instance) {
                continue;
            }
            lw.push(value_diagnostic(lw, key, instance, span, &reason));
        }
    }
}

/// Whether the shared check (SCH003 of `crate::schema`) reports `value` under `key` of
/// `schema`: an `enum` value or a `default` that is not of the declared type, or a
/// `default` that is not one of the `enum` values.
fn shared_finds(schema: &Node, key: &str, value: &Node) -> bool {
    let types = declared_types(schema);
    if types.is_some_and(|t| !t.iter().any(|t| has_type(value, t))) {
        return key == "enum" || key == "default";
    }
    key == "default"
        && schema
            .value("enum")
            .and_then(Node::as_list)
            .is_some_and(|options| !options.scan().any(|o| json_eq(value, &o, 0)))
}

/// Whether checking `value` needs more than [`direct_problem`] can do.
fn needs_validator(schema: &Node, value: &Node) -> bool {
    match &value.kind {
        NodeKind::String(_) => schema.get("pattern").is_some() || schema.get("format").is_some(),
        NodeKind::Seq(_) => schema.get("items").is_some(),
        NodeKind::Map(_) => ["properties", "required", "additionalProperties"]
            .iter()
            .any(|k| schema.get(k).is_some()),
        _ => false,
    }
}

/// The first scalar constraint of `schema` that `value` (its `key`) breaks, and why.
fn direct_problem(schema: &Node, key: &str, value: &Node) -> Option<(Span, String)> {
    let fail = |reason: String| Some((value.span(), reason));
    if let Some(types) = declared_types(schema)
        && !types.iter().any(|t| has_type(value, t))
    {
        return fail(format!(
            "it is {}, but `type` is {}",
            value.type_name(),
            types
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ));
    }
    if key != "const"
        && let Some(c) = schema.value("const")
        && !json_eq(value, c, 0)
    {
        return fail("it is not the schema's `const` value".to_string());
    }
    if key != "enum"
        && let Some(options) = schema.value("enum").and_then(Node::as_seq)
        && !options.iter().any(|o| json_eq(value, o, 0))
    {
        return fail("it is not one of the `enum` values".to_string());
    }
    let bound = |k: &str| schema.value(k).and_then(number);
    match &value.kind {
        NodeKind::String(s) => {
            let len = s.chars().count() as f64;
            if let Some(min) = bound("minLength").filter(|m| len < *m) {
                return fail(format!(
                    "it is {len} characters long, below `minLength` {min}"
                ));
            }
            if let Some(max) = bound("maxLength").filter(|m| len > *m) {
                return fail(format!(
                    "it is {len} characters long, above `maxLength` {max}"
                ));
            }
        }
        NodeKind::Number(_) => {
            let n = number(value)?;
            for (k, breaks, words) in [
                (
                    "minimum",
                    n < bound("minimum").unwrap_or(f64::NEG_INFINITY),
                    "below",
                ),
                (
                    "maximum",
                    n > bound("maximum").unwrap_or(f64::INFINITY),
                    "above",
                ),
                (
                    "exclusiveMinimum",
                    bound("exclusiveMinimum").is_some_and(|m| n <= m),
                    "not above",
                ),
                (
                    "exclusiveMaximum",
                    bound("exclusiveMaximum").is_some_and(|m| n >= m),
                    "not below",
                ),
            ] {
                if breaks {
                    let limit = bound(k).unwrap_or_default();
                    return fail(format!("it is {words} `{k}` {limit}"));
                }
            }
        }
        NodeKind::Seq(items) => {
            let len = items.len() as f64;
            if let Some(min) = bound("minItems").filter(|m| len < *m) {
                return fail(format!("it has {len} items, below `minItems` {min}"));
            }
            if let Some(max) = bound("maxItems").filter(|m| len > *m) {
                return fail(format!("it has {len} items, above `maxItems` {max}"));
            }
        }
        _ => {}
    }
    None
}

/// The value of a number node.
fn number(node: &Node) -> Option<f64> {
    match node.kind {
        NodeKind::Number(Number::Int(i)) => Some(i as f64),
        NodeKind::Number(Number::Float(f)) => Some(f),
        _ => None,
    }
}

fn value_diagnostic(
    lw: &Lowerer<'_>,
    key: &str,
    instance: &Node,
    span: Span,
    reason: &str,
) -> Diagnostic {
    let shown = short(lw.file.slice(instance.span()).trim(), 40);
    let (message, note) = match key {
        "default" => (
            format!(
                "`default` `{shown}` does not satisfy its own schema: {}",
                short(reason, 120)
            ),
            "the model takes `default` as the value of an omitted input; the tool's own schema rejects this one",
        ),
        "const" => (
            format!(
                "`const` `{shown}` does not satisfy its own schema: {}",
                short(reason, 120)
            ),
            "`const` is the only value this schema accepts, and the schema rejects it: no call can pass",
        ),
        _ => (
            format!(
                "`enum` value `{shown}` does not satisfy its own schema: {}",
                short(reason, 120)
            ),
            "the value is listed as allowed, but the rest of the schema rejects it: a model that picks it gets an error",
        ),
    };
    lw.diag(&sch::VALUE_VIOLATES_OWN_SCHEMA, span, message)
        .label("rejected by this schema")
        .note(note)
        .help("change the value, or the constraint it breaks")
}

/// True when the two spans share a byte or touch.
fn overlaps(a: Span, b: Span) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// `s` on one line, cut to `max` characters.
fn short(s: &str, max: usize) -> String {
    let one_line = s.replace('\n', " ").replace('`', "'");
    if one_line.chars().count() <= max {
        one_line
    } else {
        let cut: String = one_line.chars().take(max).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;
    use crate::source::{FormatId, SourceFile};
    use crate::syntax::yaml;

    /// What `step` reports for the schema `yaml`, lowered as a tool.md interface.
    pub(in crate::formats::tool_md) fn lowered(
        yaml_text: &str,
        step: impl FnOnce(&mut Lowerer<'_>, &Node),
    ) -> Vec<Diagnostic> {
        let file = Arc::new(SourceFile::new(
            PathBuf::from("t.tool.md"),
            "t.tool.md".into(),
            FormatId::ToolMd,
            yaml_text.to_string(),
        ));
        let root = yaml::parse(&file.text, 0).root.expect("test schema parses");
        let mut lw = Lowerer::new(&file, &super::super::TOOL_SHAPE);
        step(&mut lw, &root);
        lw.diags.into_vec()
    }

    /// `CODE message` of each diagnostic of a full check of `yaml_text`.
    fn checked(yaml_text: &str) -> Vec<String> {
        lowered(yaml_text, |lw, root| check(lw, root, "interface.input"))
            .iter()
            .map(|d| format!("{} {}", d.rule.code, d.message))
            .collect()
    }

    #[test]
    fn values_against_their_whole_schema() {
        assert_eq!(
            checked("type: integer\nminimum: 1\ndefault: 0\n"),
            vec!["SCH003 `default` `0` does not satisfy its own schema: it is below 'minimum' 1"]
        );
        assert_eq!(
            checked("type: array\nmaxItems: 1\nenum: [[1], [1, 2]]\n"),
            vec![
                "SCH003 `enum` value `[1, 2]` does not satisfy its own schema: it has 2 items, above 'maxItems' 1"
            ]
        );
        let found = checked("type: string\nformat: email\nconst: \"not an address\"\n");
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].starts_with("SCH003 `const`"), "{found:#?}");
        assert!(
            checked("type: string\nmaxLength: 3\nenum: [\"ab\", \"abc\"]\ndefault: ab\n")
                .is_empty()
        );
    }

    #[test]
    fn a_reference_is_reported_once() {
        // The subset rejects the `$ref`; the shared SCH001/SCH005 on the same token is dropped,
        // and values are not checked against a schema that is not all there.
        let found = checked("items: {$ref: \"https://x/y\"}\ndefault: 3\ntype: array\n");
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(found.iter().any(|l| l.starts_with("TMD021")), "{found:#?}");
        assert!(
            found
                .iter()
                .any(|l| l.starts_with("SCH003 `default` is an integer")),
            "{found:#?}"
        );
    }

    #[test]
    fn a_schema_must_be_a_mapping() {
        let found = lowered("[1]\n", |lw, root| check(lw, root, "interface.input"));
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(
            found[0].help.as_deref(),
            Some("write the schema under `input:`, e.g. `type: object` with its `properties`")
        );
    }
}
