//! `interface.input` and `interface.output`: JSON Schema (the meta-schema and the shared
//! `SCH` lints) restricted to the subset tool.md supports, with `default`, `const` and
//! `enum` values checked against the schema they belong to.

use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::formats::fields::Lowerer;
use crate::rules::{schema as sch, tool_md as rules};
use crate::schema::{SchemaOptions, check_schema};
use crate::source::Span;
use crate::syntax::{MAX_DEPTH, Node, NodeKind, Number};

/// The keywords tool.md schemas may use.
const SUBSET: &[&str] = &[
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

/// Keywords that define or follow references; tool.md has none of them.
const REFERENCES: &[&str] = &[
    "$ref",
    "$id",
    "definitions",
    "$defs",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
];

/// Keywords that point at another schema (their value is where validators complain).
const POINTERS: &[&str] = &["$ref", "$dynamicRef", "$recursiveRef"];

/// JSON Schema keywords outside the subset (an unknown key that is none of these is a typo).
const STANDARD: &[&str] = &[
    "title",
    "examples",
    "$schema",
    "$comment",
    "readOnly",
    "writeOnly",
    "deprecated",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
    "dependencies",
    "multipleOf",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "additionalItems",
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "minProperties",
    "maxProperties",
    "patternProperties",
    "propertyNames",
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

/// Other formats JSON Schema defines: real formats, but not ones tool.md supports.
const OTHER_FORMATS: &[&str] = &[
    "duration",
    "idn-email",
    "hostname",
    "idn-hostname",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

const SUBSET_NOTE: &str = "tool.md schemas allow only `type`, `properties`, `required`, `additionalProperties`, `items`, `description`, `enum`, `const`, `format`, `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minItems`, `maxItems` and `default`; the compiler rejects any other keyword";

/// What the subset walk found.
#[derive(Default)]
struct Walk<'n> {
    /// Every subschema (a mapping) reached through subset keywords.
    sites: Vec<&'n Node>,
    /// Values of `$ref`-like keywords (where `SCH001`/`SCH005` would point too).
    pointer_values: Vec<Span>,
}

/// Check the schema `node` written at `path` (`interface.input`).
pub fn check(lw: &mut Lowerer<'_>, node: &Node, path: &str) {
    if node.as_map().is_none() {
        lw.wrong_type(node, path, "a JSON Schema (a mapping)");
        if let Some(d) = lw.diags.last_mut() {
            d.help = Some(format!(
                "write the schema under `{}:`, e.g. `type: object` with its `properties`",
                path.rsplit('.').next().unwrap_or(path)
            ));
        }
        return;
    }
    let walk = walk(lw, node);
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
    lw.diags.extend(shared);
    if walk.pointer_values.is_empty() {
        for site in &walk.sites {
            own_values(lw, site, &reported);
        }
    }
}

/// Every subschema reached through subset keywords; TMD020/TMD021/TMD022 on the way.
fn walk<'n>(lw: &mut Lowerer<'_>, root: &'n Node) -> Walk<'n> {
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
            } else if REFERENCES.contains(&key) {
                if POINTERS.contains(&key) {
                    out.pointer_values.push(e.value.span);
                }
                reference(lw, e.key_span, key);
            } else {
                unsupported(lw, e.key_span, key);
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

fn unsupported(lw: &mut Lowerer<'_>, span: Span, key: &str) {
    let help = match key {
        "title" => "fold the title into `description`".to_string(),
        "examples" => "show an example value in `description`".to_string(),
        "$schema" => "remove it: tool.md schemas are always read as draft-07".to_string(),
        "$comment" => "use a YAML comment (`# …`) instead".to_string(),
        "oneOf" | "anyOf" => "for a fixed set of values use `enum`; for a value that may be null use a type list such as `type: [\"string\", \"null\"]`".to_string(),
        "allOf" => "merge the combined schemas into this one".to_string(),
        "patternProperties" | "propertyNames" => "list the keys under `properties`, or allow any with `additionalProperties`".to_string(),
        "prefixItems" | "additionalItems" => "give `items` one schema that every item matches".to_string(),
        _ if STANDARD.contains(&key) => {
            format!("remove `{key}` and state the constraint in `description`")
        }
        _ => match did_you_mean(key, SUBSET.iter().copied()) {
            Some(h) => format!("did you mean `{h}`?"),
            None => format!("remove `{key}`"),
        },
    };
    let d = lw
        .diag(
            &rules::UNSUPPORTED_SCHEMA_KEYWORD,
            span,
            format!("`{key}` is not in the tool.md schema subset"),
        )
        .label("unsupported keyword")
        .note(SUBSET_NOTE)
        .help(help);
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
    let (message, help) = if OTHER_FORMATS.contains(&value) {
        (
            format!("`{value}` is a JSON Schema format, but not one tool.md supports"),
            format!("use one of {list}, or describe the format in `description`"),
        )
    } else {
        let lower = value.to_ascii_lowercase();
        let hint = FORMATS
            .iter()
            .find(|f| f.replace('-', "") == lower.replace(['-', '_', ' '], ""))
            .copied()
            .or_else(|| did_you_mean(value, FORMATS.iter().copied()));
        (
            format!("`{value}` is not a format tool.md knows"),
            match hint {
                Some(h) => format!("did you mean `{h}`?"),
                None => format!("use one of {list}, or describe the format in `description`"),
            },
        )
    };
    let d = lw
        .diag(&rules::UNKNOWN_SCHEMA_FORMAT, node.span, message)
        .label("unknown format")
        .note("validators ignore a format they do not know, so values are not checked against it")
        .help(help);
    lw.push(d);
}

/// SCH003 for `default`, `const` and `enum` values that the rest of their schema rejects
/// (beyond the type and enum mismatches the shared check already reports). Scalar
/// constraints are checked directly; a validator is compiled only for what needs one
/// (`pattern`, `format`, or the items and properties of a list or mapping value).
fn own_values(lw: &mut Lowerer<'_>, schema: &Node, reported: &[Span]) {
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
                        .map(|e| (e.key.clone(), e.value.to_json()))
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
                    (at.span, e.to_string())
                })
            });
            let Some((span, reason)) = problem else {
                continue;
            };
            if reported.iter().any(|s| overlaps(*s, span)) {
                continue;
            }
            lw.push(value_diagnostic(lw, key, instance, span, &reason));
        }
    }
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
    let fail = |reason: String| Some((value.span, reason));
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
        && !crate::schema::json_eq(value, c, 0)
    {
        return fail("it is not the schema's `const` value".to_string());
    }
    if key != "enum"
        && let Some(options) = schema.value("enum").and_then(Node::as_seq)
        && !options.iter().any(|o| crate::schema::json_eq(value, o, 0))
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

/// The declared `type`s, when `type` is a type name or a list of them.
fn declared_types(schema: &Node) -> Option<Vec<&str>> {
    match &schema.value("type")?.kind {
        NodeKind::String(s) => Some(vec![s.as_str()]),
        NodeKind::Seq(items) => items.iter().map(Node::as_str).collect(),
        _ => None,
    }
}

/// True when `value` is of JSON Schema type `ty`; an unknown type name is SCH001's and
/// constrains nothing here.
fn has_type(value: &Node, ty: &str) -> bool {
    crate::schema::has_type(value, ty)
        || !matches!(
            ty,
            "string" | "number" | "integer" | "boolean" | "array" | "object" | "null"
        )
}

fn value_diagnostic(
    lw: &Lowerer<'_>,
    key: &str,
    instance: &Node,
    span: Span,
    reason: &str,
) -> Diagnostic {
    let shown = short(lw.file.slice(instance.span).trim(), 40);
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
