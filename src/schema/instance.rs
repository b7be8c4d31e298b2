//! The JSON value a schema is meta-validated as: the schema's own structure, without the
//! data it carries. Every draft's meta-schema lets the items of `enum` and `examples`, and
//! the values of `const` and `default`, be anything, so no meta-schema error can point
//! inside them; copied whole, an `enum` of millions of values cost 32 bytes a value beside
//! the tree, for nothing (issue 29, row 10).

use serde_json::{Map, Value};

use crate::syntax::{Node, NodeKind};

/// Keywords whose value is a schema.
const ONE_SCHEMA: &[&str] = &[
    "additionalItems",
    "additionalProperties",
    "contains",
    "contentSchema",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords whose value maps names to schemas.
const SCHEMA_MAP: &[&str] = &[
    "$defs",
    "definitions",
    "dependencies",
    "dependentSchemas",
    "patternProperties",
    "properties",
];

/// Keywords whose value lists schemas.
const SCHEMA_LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// What a value is to the meta-schema.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// A schema: its keywords are looked at.
    Schema,
    /// Names mapped to schemas.
    Map,
    /// Schemas in a list, or one schema (`items` is either).
    List,
    /// Anything else: copied as it is.
    Data,
}

/// `schema` as the meta-validator reads it.
pub(super) fn meta_instance(schema: &Node) -> Value {
    convert(schema, Role::Schema)
}

fn convert(node: &Node, role: Role) -> Value {
    match (&node.kind, role) {
        (NodeKind::Map(entries), Role::Schema) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.clone(), keyword(&e.key, &e.value)))
                .collect::<Map<String, Value>>(),
        ),
        (NodeKind::Map(entries), Role::Map) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.clone(), convert(&e.value, Role::Schema)))
                .collect(),
        ),
        (NodeKind::Seq(items), Role::List) => {
            Value::Array(items.iter().map(|i| convert(i, Role::Schema)).collect())
        }
        (NodeKind::Map(_), Role::List) => convert(node, Role::Schema),
        _ => node.to_json(),
    }
}

/// The value of `key` in a schema.
fn keyword(key: &str, value: &Node) -> Value {
    match (key, &value.kind) {
        // `{"type": "array"}` (with `items: true` from draft 7 on) in every draft: the type
        // is all that can be wrong.
        ("enum" | "examples", NodeKind::Seq(_)) => Value::Array(Vec::new()),
        // Any value at all.
        ("const" | "default", _) => Value::Null,
        _ if ONE_SCHEMA.contains(&key) => convert(value, Role::List),
        _ if SCHEMA_MAP.contains(&key) => convert(value, Role::Map),
        _ if SCHEMA_LIST.contains(&key) => convert(value, Role::List),
        _ => convert(value, Role::Data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json;

    fn validators() -> Vec<jsonschema::meta::MetaValidator<'static>> {
        vec![
            jsonschema::draft4::meta::validator(),
            jsonschema::draft6::meta::validator(),
            jsonschema::draft7::meta::validator(),
            jsonschema::draft201909::meta::validator(),
            jsonschema::draft202012::meta::validator(),
        ]
    }

    /// Each error as its place in the schema and what the meta-schema says.
    fn errors(v: &jsonschema::meta::MetaValidator<'static>, instance: &Value) -> Vec<String> {
        let mut out: Vec<String> = v
            .iter_errors(instance)
            .map(|e| format!("{} {}", e.instance_path(), e.schema_path()))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn the_meta_schema_finds_the_same_errors_without_the_data() {
        let schemas = [
            r#"{"type": "object", "enum": [1, {"type": 5}, [2, 2]], "const": {"items": 3},
                "default": [1], "examples": [{"minimum": "x"}], "required": [1, 1]}"#,
            r#"{"properties": {"enum": {"enum": {"not": "an array"}}, "const": [1],
                "examples": {"examples": 7}, "default": {"type": "nope"}},
                "items": [{"enum": []}, {"minLength": -1}], "allOf": [{"enum": [{}]}, 3],
                "dependencies": {"a": ["b", 1], "c": {"enum": [1, 1], "maxItems": "2"}},
                "definitions": {"d": {"default": {"type": 9}, "examples": [[]]}},
                "additionalProperties": {"enum": [1], "type": ["string", 3]}}"#,
            r#"{"$defs": {"x": {"enum": "x", "examples": "y"}}, "prefixItems": [{"const": 1},
                {"type": {}}], "not": {"enum": [], "format": 3}, "if": true,
                "then": {"dependentRequired": {"a": [1]}}, "enum": [], "required": []}"#,
            r#"[{"enum": [1]}]"#,
            r#"{"items": {"enum": [1, 2], "uniqueItems": "no"}, "type": "array"}"#,
        ];
        for text in schemas {
            let root = json::parse(text, 0).root.expect("parses");
            for v in validators() {
                assert_eq!(
                    errors(&v, &meta_instance(&root)),
                    errors(&v, &root.to_json()),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn an_enum_is_not_copied() {
        let values = vec!["1"; 1000].join(",");
        let root = json::parse(
            &format!(r#"{{"enum": [{values}], "const": [{values}]}}"#),
            0,
        )
        .root
        .expect("parses");
        assert_eq!(
            meta_instance(&root),
            serde_json::json!({"enum": [], "const": null})
        );
    }
}
