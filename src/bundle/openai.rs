//! `openai.tools.json`: the Chat Completions `tools` array. `strict: true` is set only where
//! the schema meets strict mode's rules, since OpenAI rejects a strict tool whose schema does
//! not.

use std::io::Write;

use serde::Serialize;

use super::{NoTools, SchemaProblem, SchemaProblems, escape, write_json};
use crate::ir::{Json, Tool};

/// Keywords strict mode does not support (OpenAI structured outputs).
pub(crate) const STRICT_UNSUPPORTED: &[&str] = &[
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "contains",
    "uniqueItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "dependentRequired",
    "dependentSchemas",
];
/// Strict mode's limits: properties in all, levels of nesting, enum values in all.
pub(crate) const STRICT_MAX_PROPERTIES: usize = 5000;
/// Deepest object nesting strict mode accepts.
pub(crate) const STRICT_MAX_DEPTH: usize = 10;
/// Most enum values (over the whole schema) strict mode accepts.
pub(crate) const STRICT_MAX_ENUM_VALUES: usize = 1000;
/// Most tools one request may carry.
pub(crate) const MAX_TOOLS: usize = 128;

#[derive(Serialize)]
pub(super) struct Entry<'t> {
    r#type: &'static str,
    function: Function<'t>,
}

#[derive(Serialize)]
struct Function<'t> {
    name: &'t str,
    description: &'t str,
    parameters: Json<'t>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    strict: bool,
}

/// The file with an empty list where its tools go.
pub(super) fn document(out: &mut dyn Write) -> std::io::Result<()> {
    write_json(out, &NoTools)
}

/// The entry of `t` in the list.
pub(super) fn entry(t: &Tool) -> Entry<'_> {
    let parameters = t.input_schema.tree();
    Entry {
        r#type: "function",
        function: Function {
            name: &t.name,
            description: &t.description,
            strict: strict_violations(&parameters, 0).is_empty(),
            parameters,
        },
    }
}

/// Why a schema cannot be used in strict mode, the first `keep` problems kept and all
/// counted. Empty: it can.
pub(crate) fn strict_violations(schema: &Json, keep: usize) -> SchemaProblems {
    let mut walk = StrictWalk {
        out: SchemaProblems::keeping(keep),
        properties: 0,
        enum_values: 0,
    };
    if schema.get("anyOf").is_some() {
        walk.out.push(
            SchemaProblem::key(
                "/anyOf",
                "the root of the schema is an `anyOf`",
                "make the root one object; put the alternatives under one of its properties",
            )
            .label("not allowed at the root"),
        );
    }
    walk.visit(schema, String::new(), 0);
    if walk.properties > STRICT_MAX_PROPERTIES {
        walk.out.push(
            SchemaProblem::value(
                "",
                format!(
                    "{} properties in all, over strict mode's {STRICT_MAX_PROPERTIES}",
                    walk.properties
                ),
                "split the tool, or take part of the input as a JSON-encoded string",
            )
            .label("too many properties"),
        );
    }
    if walk.enum_values > STRICT_MAX_ENUM_VALUES {
        walk.out.push(
            SchemaProblem::value(
                "",
                format!(
                    "{} enum values in all, over strict mode's {STRICT_MAX_ENUM_VALUES}",
                    walk.enum_values
                ),
                "take the long lists as plain strings and check them in the tool",
            )
            .label("too many enum values"),
        );
    }
    walk.out
}

struct StrictWalk {
    out: SchemaProblems,
    properties: usize,
    enum_values: usize,
}

impl StrictWalk {
    fn visit(&mut self, schema: &Json, at: String, depth: usize) {
        if !schema.is_object() {
            return;
        }
        for key in STRICT_UNSUPPORTED {
            if schema.get(key).is_some() {
                self.out.push(
                    SchemaProblem::key(
                        &format!("{at}/{key}"),
                        format!("`{key}` is not supported in strict mode"),
                        format!("remove `{key}`, or keep the tool non-strict"),
                    )
                    .label("not supported in strict mode"),
                );
            }
        }
        if let Some(Json::Array(values)) = schema.get("enum") {
            self.enum_values += values.len();
        }
        let is_object = schema.get("type").and_then(Json::as_str) == Some("object")
            || schema.get("properties").is_some();
        if is_object {
            if depth > STRICT_MAX_DEPTH {
                self.out.push(
                    SchemaProblem::value(
                        &at,
                        format!("objects nest deeper than strict mode's {STRICT_MAX_DEPTH} levels"),
                        "flatten the input, or take the deep part as a JSON-encoded string",
                    )
                    .label("too deep"),
                );
                return;
            }
            if schema.get("additionalProperties") != Some(&Json::Bool(false)) {
                // On the keyword when there is one, else on `type`, else on the object.
                let (pointer, on_key) = if schema.get("additionalProperties").is_some() {
                    (format!("{at}/additionalProperties"), false)
                } else if schema.get("type").is_some() {
                    (format!("{at}/type"), true)
                } else {
                    (at.clone(), false)
                };
                self.out.push(SchemaProblem {
                    pointer,
                    on_key,
                    message: "an object without `additionalProperties: false`".into(),
                    label: "this object takes properties it does not declare".into(),
                    help: "add `additionalProperties: false` to this object".into(),
                });
            }
            // Looked up for each property: a list took the properties times the names.
            let required: std::collections::HashSet<&str> = schema
                .get("required")
                .and_then(Json::as_array)
                .map(|r| r.iter().filter_map(Json::as_str).collect())
                .unwrap_or_default();
            if let Some(Json::Object(props)) = schema.get("properties") {
                self.properties += props.len();
                for (name, sub) in props.iter() {
                    let here = format!("{at}/properties/{}", escape(name));
                    if !required.contains(name.as_ref()) {
                        self.out.push(SchemaProblem::key(
                            &here,
                            format!("property `{name}` is not in `required`"),
                            format!("add `{name}` to `required`; if it may be left out, let it be null too (`type: [\"string\", \"null\"]`)"),
                        ).label("optional"));
                    }
                    self.visit(sub, here, depth + 1);
                }
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(sub @ Json::Object(_)) = schema.get(key) {
                self.visit(sub, format!("{at}/{key}"), depth);
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Json::Array(subs)) = schema.get(key) {
                for (i, sub) in subs.iter().enumerate() {
                    self.visit(sub, format!("{at}/{key}/{i}"), depth);
                }
            }
        }
        for key in ["$defs", "definitions"] {
            if let Some(Json::Object(defs)) = schema.get(key) {
                for (name, sub) in defs.iter() {
                    self.visit(sub, format!("{at}/{key}/{}", escape(name)), depth);
                }
            }
        }
    }
}
