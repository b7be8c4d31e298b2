//! The JSON value a schema is meta-validated as: the schema's own structure, without the
//! data it carries. Every draft's meta-schema lets the items of `enum` and `examples`, and
//! the values of `const` and `default`, be anything, so no meta-schema error can point
//! inside them; copied whole, an `enum` of millions of values cost 32 bytes a value beside
//! the tree, for nothing (issue 29, row 10).

//!
//! A map of more than [`SPLIT_FROM`] schemas (`properties` and the like) is left empty and
//! each of its schemas validated on its own: the validator builds every error of a value at
//! once, and a map of millions of properties that are not schemas held an error for each,
//! beside a copy of the map (over thirty times the file's size). So is a list of as many
//! (`oneOf` and the like), left as one empty schema: a `oneOf` of 320,000 small schemas was
//! copied whole (40 MB: 1.3 GB).

use jsonschema::ValidationError;
use jsonschema::meta::MetaValidator;
use serde_json::{Map, Value};

use super::vocab::{Draft, keyword};
use crate::syntax::{Node, NodeKind, Seq};

/// Maps of schemas longer than this are validated a schema at a time.
const SPLIT_FROM: usize = 1024;

/// Keywords whose maps may be split in every draft: every value is a schema, read as the
/// root of the meta-schema (not `dependencies`, whose values may be lists of names, nor
/// `patternProperties`, whose keys the meta-schema reads too). The meta-schemas of 2019-09
/// and 2020-12 still read `definitions` as schemas.
const SPLIT: &[&str] = &["properties", "definitions"];

/// Keywords whose maps may be split from 2019-09 on: before, they are no keywords, and
/// their values data the meta-schema does not read.
const SPLIT_SINCE_2019: &[&str] = &["$defs", "dependentSchemas"];

/// Whether the map of `key` may be split in a schema of `draft`.
fn splits_map(key: &str, draft: Draft) -> bool {
    SPLIT.contains(&key) || (draft >= Draft::D201909 && SPLIT_SINCE_2019.contains(&key))
}

/// Whether the meta-schema of `draft` reads the value of `key`: none reads a key that is no
/// keyword, nor a keyword of a later draft. Their values are data to it, and were copied
/// whole for nothing: a `prefixItems` of 600,000 small schemas in a draft-07 schema took 34
/// times its file.
fn read_by_meta(key: &str, draft: Draft) -> bool {
    keyword(key).is_some_and(|kw| kw.since <= draft)
}

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

/// Keywords whose lists may be split in every draft.
const SPLIT_LIST: &[&str] = &["allOf", "anyOf", "oneOf"];

/// Whether the list of `key` may be split in a schema of `draft`: `prefixItems` lists
/// schemas in 2020-12 alone (elsewhere it is data that must not be read as schemas), a list
/// of `items` in the drafts before it. Copied whole, a `prefixItems` of 600,000 small
/// schemas took 34 times its file.
fn splits_list(key: &str, draft: Draft) -> bool {
    SPLIT_LIST.contains(&key)
        || (key == "prefixItems" && draft >= Draft::D202012)
        || (key == "items" && draft < Draft::D202012)
}

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
#[cfg(test)]
fn meta_instance(schema: &Node) -> Value {
    Instance::new(Draft::D202012).convert(schema, Role::Schema)
}

/// Each meta-schema error of `schema` (at most until `each` returns false), with the JSON
/// pointer of the part of the schema it was found in (the error's path is below it).
/// `validator` is `draft`'s.
pub(super) fn meta_errors(
    validator: &MetaValidator<'_>,
    draft: Draft,
    schema: &Node,
    each: &mut dyn FnMut(&str, &ValidationError<'_>) -> bool,
) {
    part(&Meta { validator, draft }, schema, "", each);
}

/// A meta-schema and the draft it is of.
struct Meta<'v, 'm> {
    validator: &'v MetaValidator<'m>,
    draft: Draft,
}

/// [`meta_errors`] of the part `node` at `pointer`; false once `each` wants no more.
fn part(
    meta: &Meta<'_, '_>,
    node: &Node,
    pointer: &str,
    each: &mut dyn FnMut(&str, &ValidationError<'_>) -> bool,
) -> bool {
    let validator = meta.validator;
    let mut instance = Instance::new(meta.draft);
    let value = instance.convert(node, Role::Schema);
    if !validator.is_valid(&value) && !validator.iter_errors(&value).all(|e| each(pointer, &e)) {
        return false;
    }
    drop(value);
    instance.splits.iter().all(|split| match split.schemas {
        // An entry at a time too: a long mapping is held packed.
        Schemas::Map(entries) => entries.scan().all(|e| {
            let at = format!("{pointer}{}/{}", split.pointer, escape(&e.key));
            part(meta, &e.value, &at, each)
        }),
        // Read an item at a time: a packed list is not built whole beside the tree.
        Schemas::List(items) => items.scan().enumerate().all(|(i, item)| {
            let at = format!("{pointer}{}/{i}", split.pointer);
            part(meta, &item, &at, each)
        }),
    })
}

/// `key` as a JSON pointer's segment.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A step from a schema to one of its values.
#[derive(Clone, Copy)]
enum Step<'n> {
    Key(&'n str),
    Index(usize),
}

/// A schema of `draft` being converted: where the conversion is, and the maps left out of
/// it.
struct Instance<'n> {
    draft: Draft,
    path: Vec<Step<'n>>,
    splits: Vec<Split<'n>>,
}

/// A map or list of schemas left out of an instance, to be validated a schema at a time.
struct Split<'n> {
    /// Its JSON pointer below the instance's.
    pointer: String,
    schemas: Schemas<'n>,
}

/// The schemas of a [`Split`].
enum Schemas<'n> {
    Map(&'n crate::syntax::Map),
    List(&'n Seq),
}

impl Instance<'_> {
    /// A schema of `draft`, before its conversion.
    fn new(draft: Draft) -> Self {
        Instance {
            draft,
            path: Vec::new(),
            splits: Vec::new(),
        }
    }

    /// The JSON pointer of where the conversion is.
    fn pointer(&self) -> String {
        self.path.iter().fold(String::new(), |mut p, step| {
            p.push('/');
            match step {
                Step::Key(k) => p.push_str(&escape(k)),
                Step::Index(i) => p.push_str(&i.to_string()),
            }
            p
        })
    }
}

impl<'n> Instance<'n> {
    fn convert(&mut self, node: &'n Node, role: Role) -> Value {
        match (&node.kind, role) {
            (NodeKind::Map(entries), Role::Schema) => Value::Object(
                entries
                    .iter()
                    .map(|e| {
                        self.path.push(Step::Key(&e.key));
                        let value = self.keyword(&e.key, &e.value);
                        self.path.pop();
                        (String::from(e.key.as_str()), value)
                    })
                    .collect::<Map<String, Value>>(),
            ),
            (NodeKind::Map(entries), Role::Map) => Value::Object(
                entries
                    .iter()
                    .map(|e| {
                        self.path.push(Step::Key(&e.key));
                        let value = self.convert(&e.value, Role::Schema);
                        self.path.pop();
                        (String::from(e.key.as_str()), value)
                    })
                    .collect(),
            ),
            (NodeKind::Seq(items), Role::List) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        self.path.push(Step::Index(i));
                        let value = self.convert(item, Role::Schema);
                        self.path.pop();
                        value
                    })
                    .collect(),
            ),
            (NodeKind::Map(_), Role::List) => self.convert(node, Role::Schema),
            _ => node.to_json(),
        }
    }

    /// The value of `key` in a schema.
    fn keyword(&mut self, key: &str, value: &'n Node) -> Value {
        match (key, &value.kind) {
            // `{"type": "array"}` (with `items: true` from draft 7 on) in every draft: the
            // type is all that can be wrong.
            ("enum" | "examples", NodeKind::Seq(_)) => Value::Array(Vec::new()),
            // Any value at all.
            ("const" | "default", _) => Value::Null,
            _ if !read_by_meta(key, self.draft) => Value::Null,
            (_, NodeKind::Map(entries))
                if entries.len() > SPLIT_FROM && splits_map(key, self.draft) =>
            {
                let pointer = self.pointer();
                let schemas = Schemas::Map(entries);
                self.splits.push(Split { pointer, schemas });
                Value::Object(Map::new())
            }
            // One empty schema: every draft's meta-schema wants a non-empty list of schemas.
            (_, NodeKind::Seq(items))
                if items.len() > SPLIT_FROM && splits_list(key, self.draft) =>
            {
                let pointer = self.pointer();
                self.splits.push(Split {
                    pointer,
                    schemas: Schemas::List(items),
                });
                Value::Array(vec![Value::Object(Map::new())])
            }
            _ if ONE_SCHEMA.contains(&key) => self.convert(value, Role::List),
            _ if SCHEMA_MAP.contains(&key) => self.convert(value, Role::Map),
            _ if SCHEMA_LIST.contains(&key) => self.convert(value, Role::List),
            _ => self.convert(value, Role::Data),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json;

    fn validators() -> Vec<(Draft, jsonschema::meta::MetaValidator<'static>)> {
        vec![
            (Draft::D4, jsonschema::draft4::meta::validator()),
            (Draft::D6, jsonschema::draft6::meta::validator()),
            (Draft::D7, jsonschema::draft7::meta::validator()),
            (Draft::D201909, jsonschema::draft201909::meta::validator()),
            (Draft::D202012, jsonschema::draft202012::meta::validator()),
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
            // Keys no meta-schema reads, and keywords of later drafts than some.
            r#"{"x-data": {"type": 5, "items": [3]}, "prefixItems": [{"type": 7}, 2],
                "$defs": {"type": 1}, "const": 2, "dependentRequired": {"a": 1},
                "unevaluatedProperties": 3, "$anchor": 4, "contentSchema": 5,
                "properties": {"p": {"x": {"minimum": "no"}, "if": 6, "$comment": 7}}}"#,
        ];
        for text in schemas {
            let root = json::parse(text, 0).root.expect("parses");
            for (draft, v) in validators() {
                let instance = Instance::new(draft).convert(&root, Role::Schema);
                assert_eq!(
                    errors(&v, &instance),
                    errors(&v, &root.to_json()),
                    "{text} in {draft:?}"
                );
            }
        }
    }

    /// A map of schemas too long to be validated at once gives the errors it gives whole,
    /// at the same places.
    #[test]
    fn a_long_map_of_schemas_is_validated_a_schema_at_a_time() {
        let mut properties: Vec<String> = (0..SPLIT_FROM + 50)
            .map(|i| format!(r#""p{i}": {{"type": "string"}}"#))
            .collect();
        properties[3] = r#""a/b~": "v""#.to_string();
        properties[700] = format!(
            r#""deep": {{"properties": {{{}}}}}"#,
            (0..SPLIT_FROM + 1)
                .map(|i| format!(r#""q{i}": {}"#, if i == 9 { "3" } else { "{}" }))
                .collect::<Vec<_>>()
                .join(",")
        );
        properties[SPLIT_FROM + 9] = r#""late": {"minLength": -1}"#.to_string();
        let text = format!(
            r#"{{"type": 7, "$defs": {{"x": {{"enum": 1}}}}, "properties": {{{}}}}}"#,
            properties.join(",")
        );
        let root = json::parse(&text, 0).root.expect("parses");
        for (draft, v) in validators() {
            let split = split_and_whole(draft, &v, &root);
            assert!(split.contains(&"/properties/deep/properties/q9".to_string()));
            assert!(split.contains(&"/properties/a~1b~0".to_string()));
        }
    }

    /// Where [`meta_errors`] finds each error of `root`, sorted.
    fn split_errors(
        draft: Draft,
        v: &jsonschema::meta::MetaValidator<'static>,
        root: &Node,
    ) -> Vec<String> {
        let mut split = Vec::new();
        meta_errors(v, draft, root, &mut |at, e| {
            split.push(format!("{at}{}", e.instance_path()));
            true
        });
        split.sort();
        split
    }

    /// The places of the errors of `root` validated a part at a time, which are those of
    /// `root` validated whole.
    fn split_and_whole(
        draft: Draft,
        v: &jsonschema::meta::MetaValidator<'static>,
        root: &Node,
    ) -> Vec<String> {
        let split = split_errors(draft, v, root);
        let mut whole: Vec<String> = v
            .iter_errors(&root.to_json())
            .map(|e| e.instance_path().to_string())
            .collect();
        whole.sort();
        assert_eq!(split, whole);
        split
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

    /// The same for a list of schemas (`oneOf`), errors of the list itself included.
    #[test]
    fn a_long_list_of_schemas_is_validated_a_schema_at_a_time() {
        let mut items: Vec<String> = (0..SPLIT_FROM + 50)
            .map(|i| format!(r#"{{"required": ["k{i}"]}}"#))
            .collect();
        items[5] = "7".to_string();
        items[SPLIT_FROM + 20] = r#"{"anyOf": [{"maxItems": "x"}]}"#.to_string();
        let text = format!(
            r#"{{"oneOf": [{}], "allOf": {{"not": "a list"}}}}"#,
            items.join(",")
        );
        let root = json::parse(&text, 0).root.expect("parses");
        for (draft, v) in validators() {
            let split = split_and_whole(draft, &v, &root);
            assert!(split.contains(&"/oneOf/5".to_string()), "{split:?}");
        }
        // `prefixItems` lists schemas in 2020-12 only, a list of `items` before it; each is
        // split where it does, and read as what it is everywhere else.
        for key in ["prefixItems", "items"] {
            let text = format!(r#"{{"{key}": [{}]}}"#, items.join(","));
            let root = json::parse(&text, 0).root.expect("parses");
            for (draft, v) in validators() {
                let split = if key == "items" && splits_list(key, draft) {
                    split_items(draft, &v, &root)
                } else {
                    split_and_whole(draft, &v, &root)
                };
                let in_list = split.iter().any(|at| at.starts_with(&format!("/{key}/5")));
                assert_eq!(
                    in_list,
                    splits_list(key, draft),
                    "{key} in {draft:?}: {split:?}"
                );
            }
        }
    }

    /// The errors of a long list of `items`, split, where the whole schema has one: the
    /// meta-schema reads `items` as a schema or a list of them, and says only that it is
    /// neither; split, each schema's own errors are told.
    fn split_items(
        draft: Draft,
        v: &jsonschema::meta::MetaValidator<'static>,
        root: &Node,
    ) -> Vec<String> {
        let split = split_errors(draft, v, root);
        let whole: Vec<String> = v
            .iter_errors(&root.to_json())
            .map(|e| e.instance_path().to_string())
            .collect();
        assert_eq!(whole, ["/items"], "{draft:?}");
        split
    }

    /// `$defs` and `dependentSchemas` are keywords from 2019-09 on: before, a long map of
    /// values that are not schemas is data, and no error of them is made up by reading each
    /// as a schema; from 2019-09 on, each such value is an error, as the whole gives.
    #[test]
    fn a_long_map_is_split_only_where_its_keyword_holds_schemas() {
        let entries: Vec<String> = (0..SPLIT_FROM + 10)
            .map(|i| format!(r#""d{i}": {i}"#))
            .collect();
        let map = entries.join(",");
        for key in ["$defs", "dependentSchemas"] {
            let text = format!(r#"{{"{key}": {{{map}}}}}"#);
            let root = json::parse(&text, 0).root.expect("parses");
            for (draft, v) in validators() {
                let mut places = split_and_whole(draft, &v, &root);
                places.dedup();
                let expected = if draft >= Draft::D201909 {
                    SPLIT_FROM + 10
                } else {
                    0
                };
                assert_eq!(places.len(), expected, "{key} in {draft:?}");
            }
        }
    }
}
