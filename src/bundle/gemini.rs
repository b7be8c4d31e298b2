//! `gemini.tools.json`: `functionDeclarations` with each schema converted to Gemini's
//! OpenAPI 3.0 subset. A keyword the subset cannot express is a problem (CMP rule), never
//! silently dropped; only annotations that constrain nothing are left out.

use std::io::Write;

use std::borrow::Cow;

use serde::Serialize;

use super::{NoTools, SchemaProblem, SchemaProblems, escape, write_json};
use crate::diagnostics::cap::MAX_PER_RULE;
use crate::ir::{Json, Member, Tool};

/// Keywords of the subset, kept as they are (`type` is converted).
const SUPPORTED: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "properties",
    "required",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "default",
    "example",
    "propertyOrdering",
];
/// Annotations that constrain no value: leaving them out changes nothing the model may send.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];
/// String formats Gemini accepts.
const STRING_FORMATS: &[&str] = &["enum", "date-time"];

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct File<T> {
    function_declarations: T,
}

#[derive(Serialize)]
pub(super) struct Declaration<'t> {
    name: &'t str,
    description: &'t str,
    /// Left out for a tool that takes nothing: Gemini refuses an `OBJECT` without properties.
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters: Option<Json<'t>>,
}

/// The file with an empty list where its tools go.
pub(super) fn document(out: &mut dyn Write) -> std::io::Result<()> {
    write_json(
        out,
        &File {
            function_declarations: NoTools,
        },
    )
}

/// The declaration of `t`. Tools whose schema cannot be converted were reported (CMP) and the
/// build stopped; should one get here, it is left out rather than half-converted.
pub(super) fn entry(t: &Tool) -> Option<Declaration<'_>> {
    convert(&t.input_schema.tree())
        .ok()
        .map(|parameters| Declaration {
            name: &t.name,
            description: &t.description,
            parameters: takes_something(&parameters).then_some(parameters),
        })
}

/// True when a converted root schema declares at least one property.
fn takes_something(parameters: &Json) -> bool {
    parameters
        .get("properties")
        .and_then(Json::as_object)
        .is_some_and(|p| !p.is_empty())
}

/// Convert a JSON Schema to Gemini's subset, or say what stands in the way: the first
/// problems, one past what a file shows of a rule, and how many there are in all.
pub(crate) fn convert<'a>(schema: &Json<'a>) -> Result<Json<'a>, SchemaProblems> {
    let mut problems = SchemaProblems::keeping(MAX_PER_RULE + 1);
    let out = convert_at(schema, "", &mut problems);
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// What to write instead of a keyword Gemini's subset lacks.
fn keyword_help(key: &str) -> String {
    match key {
        "const" => "write `enum` with the one value instead (a string)".into(),
        "oneOf" => "use `anyOf`, which Gemini's subset has".into(),
        "allOf" => "merge the subschemas into one schema".into(),
        "$ref" | "$defs" | "definitions" => {
            "inline the referenced schema where it is used: Gemini resolves no references".into()
        }
        "exclusiveMinimum" | "exclusiveMaximum" => {
            "use `minimum` / `maximum` (inclusive), adjusted by one step".into()
        }
        "additionalProperties" => {
            "declare each property under `properties`, or take the map as a JSON-encoded string"
                .into()
        }
        _ => format!(
            "remove `{key}` and state the constraint in `description`, where the model reads it"
        ),
    }
}

fn convert_at<'a>(schema: &Json<'a>, at: &str, problems: &mut SchemaProblems) -> Json<'a> {
    let Some(map) = schema.as_object() else {
        problems.push(
            SchemaProblem::value(
                at,
                "a boolean schema has no Gemini equivalent",
                "write an object schema, e.g. `{\"type\": \"string\"}`",
            )
            .label("boolean schema"),
        );
        return Json::Null;
    };
    let mut out: Vec<Member<'a>> = Vec::new();
    let mut nested: Vec<(&Cow<'a, str>, &Json<'a>)> = Vec::new();
    for (key, value) in map {
        let here = format!("{at}/{}", escape(key));
        match key.as_ref() {
            "type" => match gemini_type(value) {
                Ok((ty, nullable)) => {
                    out.push(("type".into(), Json::String(ty.into())));
                    if nullable {
                        out.push(("nullable".into(), Json::Bool(true)));
                    }
                }
                Err(m) => problems.push(
                    SchemaProblem::value(
                        &here,
                        m,
                        "use one type; for an optional value write `[T, \"null\"]`",
                    )
                    .label("no Gemini type"),
                ),
            },
            // Gemini's Schema has no such field and sends it back as an unknown name; a
            // declaration's parameters are closed anyway, so `false` is what Gemini does.
            "additionalProperties" if *value == Json::Bool(false) => {}
            "format" => {
                let ty = schema
                    .get("type")
                    .and_then(|t| gemini_type(t).ok())
                    .map(|(t, _)| t);
                let ok = match (ty, value.as_str()) {
                    (Some("STRING"), Some(f)) => STRING_FORMATS.contains(&f),
                    (Some("INTEGER"), Some(f)) => ["int32", "int64"].contains(&f),
                    (Some("NUMBER"), Some(f)) => ["float", "double"].contains(&f),
                    _ => false,
                };
                if ok {
                    out.push((key.clone(), value.clone()));
                } else {
                    problems.push(SchemaProblem::value(
                        &here,
                        format!("Gemini does not accept `format: {value}` on this type"),
                        "Gemini takes `enum` and `date-time` on strings, `int32`/`int64` on integers and `float`/`double` on numbers; remove `format` and say it in `description` (e.g. \"an https URL\")",
                    ).label("not a Gemini format for this type"));
                }
            }
            "enum" => {
                let all_strings = value
                    .as_array()
                    .is_some_and(|v| v.iter().all(Json::is_string));
                if all_strings {
                    out.push((key.clone(), value.clone()));
                    // An enum of strings is a string: Gemini wants the type said.
                    if schema.get("type").is_none() {
                        out.push(("type".into(), Json::String("STRING".into())));
                    }
                } else {
                    problems.push(SchemaProblem::value(
                        &here,
                        "Gemini's `enum` takes strings only",
                        "use `type: string` with string values, or drop `enum` and bound a number with `minimum` / `maximum`",
                    ).label("not all strings"));
                }
            }
            "properties" | "items" | "anyOf" => nested.push((key, value)),
            k if SUPPORTED.contains(&k) => {
                out.push((key.clone(), value.clone()));
            }
            k if ANNOTATIONS.contains(&k) => {}
            k => problems.push(
                SchemaProblem::key(
                    &here,
                    format!("`{k}` is not in Gemini's schema subset"),
                    keyword_help(k),
                )
                .label("not in Gemini's subset"),
            ),
        }
    }
    for (key, value) in nested {
        let here = format!("{at}/{key}");
        let converted = match (key.as_ref(), value) {
            // At the root, no properties means no parameters at all (see `render`).
            ("properties", Json::Object(props)) if props.is_empty() && !at.is_empty() => {
                problems.push(SchemaProblem::value(
                    &here,
                    "an object with no properties, which Gemini refuses",
                    "declare the properties the object takes, or take it as a JSON-encoded string",
                ).label("empty"));
                continue;
            }
            // Sorted and of distinct keys already, as the schema's text is.
            ("properties", Json::Object(props)) => Json::Object(
                props
                    .iter()
                    .map(|(name, sub)| {
                        let at = format!("{here}/{}", escape(name));
                        (name.clone(), convert_at(sub, &at, problems))
                    })
                    .collect(),
            ),
            ("anyOf", Json::Array(subs)) => Json::Array(
                subs.iter()
                    .enumerate()
                    .map(|(i, sub)| convert_at(sub, &format!("{here}/{i}"), problems))
                    .collect(),
            ),
            ("items", sub @ Json::Object(_)) => convert_at(sub, &here, problems),
            _ => {
                problems.push(SchemaProblem::value(
                    &here,
                    format!("`{key}` has a shape Gemini cannot take"),
                    "Gemini takes `properties` as a mapping, `items` as one schema and `anyOf` as a list",
                ).label("unexpected shape"));
                continue;
            }
        };
        out.push((key.clone(), converted));
    }
    Json::object(out)
}
/// A JSON Schema `type` as Gemini's upper-case `Type`, plus whether it was nullable
/// (`["string", "null"]` is `STRING` with `nullable: true`).
fn gemini_type(value: &Json) -> Result<(&'static str, bool), String> {
    let one = |name: &str| -> Result<&'static str, String> {
        Ok(match name {
            "string" => "STRING",
            "number" => "NUMBER",
            "integer" => "INTEGER",
            "boolean" => "BOOLEAN",
            "array" => "ARRAY",
            "object" => "OBJECT",
            other => return Err(format!("type `{other}` has no Gemini equivalent")),
        })
    };
    match value {
        Json::String(s) => one(s).map(|t| (t, false)),
        Json::Array(types) => {
            let named: Vec<&str> = types.iter().filter_map(Json::as_str).collect();
            let non_null: Vec<&str> = named.iter().copied().filter(|t| *t != "null").collect();
            match non_null.as_slice() {
                [single] if named.len() == 2 && named.len() == types.len() => {
                    one(single).map(|t| (t, true))
                }
                _ => Err(format!(
                    "a type array ({value}) is not supported by Gemini; only `[T, \"null\"]` converts (to `nullable`)"
                )),
            }
        }
        _ => Err("`type` must be a string".into()),
    }
}
