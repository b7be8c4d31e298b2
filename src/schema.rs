//! Checks of embedded and referenced JSON Schemas (`SCH` rules), shared by every format.
//!
//! A schema is validated against its draft's meta-schema (SCH001), then linted in one
//! iterative walk over its subschemas (SCH002–SCH005). Nothing here follows a `$ref`:
//! references are strings to inspect, never edges to walk, so a reference cycle cannot make
//! a check loop, and the meta-schema validation treats the user's schema as plain data.

use std::sync::Arc;

use jsonschema::JsonType;
use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};

use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::rules::schema as rules;
use crate::source::SourceFile;
use crate::syntax::{MAX_DEPTH, Node, NodeKind, Number};

/// Which lints apply to a schema.
#[derive(Debug, Clone, Copy, Default)]
pub struct SchemaOptions {
    /// The schema is converted to Zod by DojOps, which drops unsupported keywords (SCH004).
    pub dojops_zod: bool,
}

/// Validate `root` (a schema in `file`) against the meta-schema and lint it.
pub fn check_schema(
    file: &Arc<SourceFile>,
    root: &Node,
    options: SchemaOptions,
) -> Vec<Diagnostic> {
    let mut cx = Cx {
        file,
        root,
        options,
        out: Vec::new(),
    };
    let sites = subschemas(root);
    cx.meta_validate();
    cx.dangling_refs(&sites);
    let ids = embedded_ids(&sites);
    for site in &sites {
        cx.required_undefined(site);
        cx.own_values(site);
        cx.remote_refs(site, &ids);
        // With a broken `type` (SCH001) the conversion is anyone's guess until it is fixed.
        let type_is_valid = site.node.get("type").is_none() || declared_types(site.node).is_some();
        if options.dojops_zod && site.converted && type_is_valid {
            cx.zod_dropped(site);
        }
    }
    let mut out = cx.out;
    out.sort_by(|a, b| {
        (a.span.start, a.span.end, a.rule.code).cmp(&(b.span.start, b.span.end, b.rule.code))
    });
    out.dedup_by(|a, b| a.span == b.span && a.rule.code == b.rule.code && a.message == b.message);
    out
}

/// Names of the root schema's `properties`, in source order.
pub fn root_property_names(root: &Node) -> Vec<&str> {
    root.value("properties")
        .and_then(Node::as_map)
        .map(|entries| entries.iter().map(|e| e.key.as_str()).collect())
        .unwrap_or_default()
}

/// The JSON Schema type names.
const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// What DojOps's JSON-Schema-to-Zod conversion reads (spec 1, §6).
const ZOD_SUBSET: &str =
    "`type`, `enum`, `properties`, `required`, `items`, `description` and `default`";

/// Keywords that only annotate: no validator enforces them, so nothing is lost when DojOps drops them.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "default",
    "$schema",
    "$id",
    "id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
    "readOnly",
    "writeOnly",
    "deprecated",
    "definitions",
    "$defs",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

/// Keywords that combine or point at other schemas.
const COMPOSITION: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "dependentSchemas",
];

/// Validation keywords outside DojOps's subset (those the runtime honours in some contexts are
/// handled separately, see [`honoured_by_runtime`]).
const VALIDATION: &[&str] = &[
    "const",
    "multipleOf",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "additionalItems",
    "prefixItems",
    "unevaluatedItems",
    "minProperties",
    "maxProperties",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "dependencies",
    "dependentRequired",
    "unevaluatedProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
];

/// Keywords whose presence means a property may be defined (or required) somewhere other
/// than the sibling `properties`, so SCH002 cannot tell a typo from a design.
const DEFINES_ELSEWHERE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "patternProperties",
    "dependencies",
    "dependentSchemas",
    "unevaluatedProperties",
];

/// How a keyword's value holds subschemas.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// One schema.
    One,
    /// A mapping from names to schemas.
    Named,
    /// A list of schemas.
    List,
    /// `items`: one schema, or a list of them before 2020-12.
    OneOrList,
    /// `dependencies`: per name, a schema or a list of property names.
    SchemaOrNames,
    /// Plain data (`enum`, `default`, …) or an unknown keyword: never a schema.
    Data,
}

fn holds(keyword: &str) -> Holds {
    match keyword {
        "additionalItems"
        | "additionalProperties"
        | "contains"
        | "propertyNames"
        | "not"
        | "if"
        | "then"
        | "else"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => Holds::One,
        "properties" | "patternProperties" | "definitions" | "$defs" | "dependentSchemas" => {
            Holds::Named
        }
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Holds::List,
        "items" => Holds::OneOrList,
        "dependencies" => Holds::SchemaOrNames,
        _ => Holds::Data,
    }
}

/// How DojOps converts one schema: an `enum` wins over everything, then `type` picks a
/// handler; anything else becomes "any value".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Zod {
    Enum,
    String,
    Number,
    Boolean,
    Array,
    Object,
    Unknown,
}

fn zod_mode(schema: &Node) -> Zod {
    if schema
        .value("enum")
        .and_then(Node::as_seq)
        .is_some_and(|v| !v.is_empty())
    {
        return Zod::Enum;
    }
    match schema.value("type").and_then(Node::as_str) {
        Some("string") => Zod::String,
        Some("number" | "integer") => Zod::Number,
        Some("boolean") => Zod::Boolean,
        Some("array") => Zod::Array,
        Some("object") => Zod::Object,
        _ => Zod::Unknown,
    }
}

/// One subschema (a mapping) found by the walk.
#[derive(Clone, Copy)]
struct Site<'a> {
    node: &'a Node,
    /// Reached by DojOps's conversion (root, `properties` of objects, `items` of arrays).
    converted: bool,
    /// A value of some `properties` mapping.
    is_property: bool,
}

/// Every subschema that is a mapping, found iteratively (depth-capped at [`MAX_DEPTH`]).
fn subschemas(root: &Node) -> Vec<Site<'_>> {
    let mut out = Vec::new();
    let top = Site {
        node: root,
        converted: true,
        is_property: false,
    };
    let mut stack = vec![(top, 0usize)];
    let mut children: Vec<Site<'_>> = Vec::new();
    while let Some((site, depth)) = stack.pop() {
        let Some(entries) = site.node.as_map() else {
            continue;
        };
        out.push(site);
        if depth >= MAX_DEPTH {
            continue;
        }
        let mode = zod_mode(site.node);
        children.clear();
        for e in entries {
            let converted = site.converted
                && match e.key.as_str() {
                    "properties" => mode == Zod::Object,
                    "items" => mode == Zod::Array,
                    _ => false,
                };
            let child = |node| Site {
                node,
                converted,
                is_property: e.key == "properties",
            };
            match (holds(&e.key), &e.value.kind) {
                (Holds::One, _) | (Holds::OneOrList, NodeKind::Map(_)) => {
                    children.push(child(&e.value))
                }
                (Holds::Named | Holds::SchemaOrNames, NodeKind::Map(named)) => {
                    children.extend(named.iter().map(|c| child(&c.value)));
                }
                // A tuple-form `items` is not converted by DojOps, whatever its parent.
                (Holds::List | Holds::OneOrList, NodeKind::Seq(items)) => {
                    children.extend(items.iter().map(|node| Site {
                        node,
                        converted: false,
                        is_property: false,
                    }));
                }
                _ => {}
            }
        }
        stack.extend(children.drain(..).rev().map(|c| (c, depth + 1)));
    }
    out
}

/// `$id`s declared anywhere (without a trailing `#`), so references to embedded resources are
/// recognised as local.
fn embedded_ids<'a>(sites: &[Site<'a>]) -> Vec<&'a str> {
    sites
        .iter()
        .filter_map(|s| {
            s.node
                .value("$id")
                .or_else(|| s.node.value("id"))
                .and_then(Node::as_str)
        })
        .map(|id| id.trim_end_matches('#'))
        .collect()
}

/// JSON Schema drafts the `jsonschema` crate ships meta-schemas for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Draft {
    D4,
    D6,
    D7,
    D201909,
    D202012,
}

impl Draft {
    fn from_uri(uri: &str) -> Option<Draft> {
        let u = uri.trim().trim_end_matches('#');
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))?;
        Some(match u {
            "json-schema.org/draft-04/schema" => Draft::D4,
            "json-schema.org/draft-06/schema" => Draft::D6,
            "json-schema.org/draft-07/schema" => Draft::D7,
            "json-schema.org/draft/2019-09/schema" => Draft::D201909,
            "json-schema.org/draft/2020-12/schema" => Draft::D202012,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Draft::D4 => "draft-04",
            Draft::D6 => "draft-06",
            Draft::D7 => "draft-07",
            Draft::D201909 => "draft 2019-09",
            Draft::D202012 => "draft 2020-12",
        }
    }

    fn meta_validator(self) -> jsonschema::meta::MetaValidator<'static> {
        match self {
            Draft::D4 => jsonschema::draft4::meta::validator(),
            Draft::D6 => jsonschema::draft6::meta::validator(),
            Draft::D7 => jsonschema::draft7::meta::validator(),
            Draft::D201909 => jsonschema::draft201909::meta::validator(),
            Draft::D202012 => jsonschema::draft202012::meta::validator(),
        }
    }
}

/// At most this many meta-schema errors per file: past that, the file is simply not a schema.
const MAX_META_ERRORS: usize = 50;

/// A meta-schema error reduced to what a message needs.
struct MetaError {
    pointer: String,
    kind: MetaKind,
}

enum MetaKind {
    Type(Vec<JsonType>),
    Format(String),
    Unique,
    Minimum(String),
    ExclusiveMinimum(String),
    MinItems(u64),
    Enum(Vec<String>),
    /// A keyword that needs another (`exclusiveMinimum` needs `minimum` in draft-04).
    Needs {
        property: String,
    },
    Other(String),
}

fn depth_of(pointer: &str) -> usize {
    pointer.matches('/').count()
}

fn is_shape_mismatch(e: &ValidationError<'_>, pointer: &str) -> bool {
    matches!(e.kind(), ValidationErrorKind::Type { .. }) && e.instance_path().as_str() == pointer
}

/// Reduce an error to its most telling cause: for `anyOf`/`oneOf`, the branch that got furthest
/// (a branch whose only complaint is the value's JSON type was never the one meant).
fn simplify(e: &ValidationError<'_>, budget: usize) -> MetaError {
    let pointer = e.instance_path().as_str().to_string();
    let kind = match e.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context }
            if budget > 0 =>
        {
            let mut best: Option<(usize, &ValidationError<'static>)> = None;
            for branch in context {
                let pick = branch
                    .iter()
                    .filter(|b| !is_shape_mismatch(b, &pointer))
                    .max_by_key(|b| depth_of(b.instance_path().as_str()));
                let (score, err) = match pick {
                    Some(b) => (1 + depth_of(b.instance_path().as_str()), b),
                    None => match branch.first() {
                        Some(b) => (0, b),
                        None => continue,
                    },
                };
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, err));
                }
            }
            if let Some((score, err)) = best
                && score > 0
            {
                return simplify(err, budget - 1);
            }
            MetaKind::Other(short(&e.to_string(), 120))
        }
        ValidationErrorKind::Type { kind } => MetaKind::Type(match kind {
            TypeKind::Single(t) => vec![*t],
            TypeKind::Multiple(set) => set.iter().collect(),
        }),
        ValidationErrorKind::Format { format } => MetaKind::Format(format.clone()),
        ValidationErrorKind::UniqueItems => MetaKind::Unique,
        ValidationErrorKind::Minimum { limit } => MetaKind::Minimum(limit.to_string()),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            MetaKind::ExclusiveMinimum(limit.to_string())
        }
        ValidationErrorKind::MinItems { limit } => MetaKind::MinItems(*limit),
        ValidationErrorKind::Required { property } => MetaKind::Needs {
            property: property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_string),
        },
        ValidationErrorKind::Enum { options } => MetaKind::Enum(
            options
                .as_array()
                .map(|a| a.iter().map(|v| format!("`{v}`")).collect())
                .unwrap_or_default(),
        ),
        _ => MetaKind::Other(short(&e.to_string(), 120)),
    };
    MetaError { pointer, kind }
}

/// Where a JSON pointer lands, in schema terms.
enum Target {
    /// A subschema itself (described, e.g. "the schema of property `a`").
    Schema(String),
    /// The value of a keyword.
    Keyword(String),
    /// Something inside a keyword's value (`/required/0`).
    InValue(String),
}

/// Classify `pointer` against the structure of a schema; also returns the pointer of the
/// keyword it lands in or under, when there is one.
fn locate(root: &Node, pointer: &str) -> (Target, Option<String>) {
    #[derive(Clone, Copy)]
    enum State<'k> {
        Schema,
        Named(&'k str),
        List(&'k str),
        Data,
    }
    let mut state = State::Schema;
    let mut target = Target::Schema("the schema".to_string());
    let mut keyword_ptr = None;
    let mut node = root;
    let mut walked = String::new();
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    for (raw, seg) in pointer.split('/').skip(1).zip(&segments) {
        walked.push('/');
        walked.push_str(raw);
        let child = match &node.kind {
            NodeKind::Map(entries) => entries.iter().find(|e| &e.key == seg).map(|e| &e.value),
            NodeKind::Seq(items) => seg.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        let child = child.unwrap_or(node);
        state = match state {
            State::Schema => {
                keyword_ptr = Some(walked.clone());
                match (holds(seg), &child.kind) {
                    (Holds::One, _) | (Holds::OneOrList, NodeKind::Map(_) | NodeKind::Bool(_)) => {
                        target = Target::Schema(format!("the `{seg}` schema"));
                        keyword_ptr = None;
                        State::Schema
                    }
                    (Holds::Named | Holds::SchemaOrNames, _) => {
                        target = Target::Keyword(seg.clone());
                        State::Named(keyword_str(seg))
                    }
                    (Holds::List | Holds::OneOrList, _) => {
                        target = Target::Keyword(seg.clone());
                        State::List(keyword_str(seg))
                    }
                    _ => {
                        target = Target::Keyword(seg.clone());
                        State::Data
                    }
                }
            }
            State::Named(kw) => {
                keyword_ptr = None;
                target = Target::Schema(match kw {
                    "properties" => format!("the schema of property `{seg}`"),
                    "definitions" | "$defs" => format!("definition `{seg}`"),
                    "patternProperties" => format!("the schema for pattern `{seg}`"),
                    _ => format!("the `{kw}` entry `{seg}`"),
                });
                State::Schema
            }
            State::List(kw) => {
                keyword_ptr = None;
                target = Target::Schema(format!("`{kw}[{seg}]`"));
                State::Schema
            }
            State::Data => {
                if let Target::Keyword(k) = &target {
                    target = Target::InValue(k.clone());
                }
                State::Data
            }
        };
        node = child;
    }
    (target, keyword_ptr)
}

/// The static spelling of a schema-holding keyword (so states need not own strings).
fn keyword_str(seg: &str) -> &'static str {
    const KEYWORDS: &[&str] = &[
        "properties",
        "patternProperties",
        "definitions",
        "$defs",
        "dependentSchemas",
        "dependencies",
        "allOf",
        "anyOf",
        "oneOf",
        "prefixItems",
        "items",
    ];
    KEYWORDS
        .iter()
        .find(|k| **k == seg)
        .copied()
        .unwrap_or("keyword")
}

/// What a keyword's value must be, in words, for the keywords whose meta-schema errors read badly.
fn expected(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "required" => "a list of property names",
        "enum" => "a list of values",
        "properties" | "patternProperties" | "definitions" | "$defs" | "dependentSchemas" => {
            "a mapping from names to schemas"
        }
        "dependencies" => "a mapping from property names to schemas or lists of property names",
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => "a non-empty list of schemas",
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties"
        | "minContains" | "maxContains" => "a non-negative integer",
        "multipleOf" => "a number greater than 0",
        "minimum" | "maximum" => "a number",
        "pattern" => "a regular expression (a string)",
        "title" | "description" | "$comment" | "format" | "$id" | "$ref" | "$schema"
        | "contentMediaType" | "contentEncoding" | "$anchor" => "a string",
        "uniqueItems" | "readOnly" | "writeOnly" | "deprecated" => "a boolean",
        _ => return None,
    })
}

fn type_words(types: &[JsonType]) -> String {
    let words: Vec<&str> = types
        .iter()
        .map(|t| match t {
            JsonType::Array => "a list",
            JsonType::Boolean => "a boolean",
            JsonType::Integer => "an integer",
            JsonType::Null => "null",
            JsonType::Number => "a number",
            JsonType::Object => "a mapping",
            JsonType::String => "a string",
        })
        .collect();
    words.join(" or ")
}

/// Common names for JSON Schema types in other languages.
fn type_alias(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "str" | "text" | "char" => "string",
        "int" | "long" | "short" | "uint" | "i32" | "i64" | "u32" | "u64" | "int32" | "int64" => {
            "integer"
        }
        "float" | "double" | "decimal" | "real" | "f32" | "f64" | "numeric" => "number",
        "bool" => "boolean",
        "list" | "tuple" | "vec" | "sequence" => "array",
        "dict" | "map" | "hash" | "record" | "mapping" | "struct" => "object",
        "none" | "nil" => "null",
        _ => return None,
    })
}

/// `s` cut to `max` characters, on one line.
fn short(s: &str, max: usize) -> String {
    let one_line = s.replace('\n', "\\n").replace('`', "'");
    if one_line.chars().count() <= max {
        one_line
    } else {
        let cut: String = one_line.chars().take(max).collect();
        format!("{cut}…")
    }
}

/// The `.. found X` part of a message.
fn found(file: &SourceFile, node: &Node) -> String {
    match &node.kind {
        NodeKind::Null => "`null`".to_string(),
        NodeKind::Bool(b) => format!("`{b}`"),
        NodeKind::Number(_) => format!("`{}`", number_text(file, node)),
        NodeKind::String(s) => format!("the string `{}`", short(s, 40)),
        NodeKind::Seq(_) => "a list".to_string(),
        NodeKind::Map(_) => "a mapping".to_string(),
    }
}

fn number_text(file: &SourceFile, node: &Node) -> String {
    let text = file.slice(node.span).trim();
    if text.is_empty() {
        node.to_json().to_string()
    } else {
        short(text, 40)
    }
}

/// A value as written, for messages: scalars in full (short), containers by kind.
fn shown(file: &SourceFile, node: &Node) -> String {
    match &node.kind {
        NodeKind::Seq(_) | NodeKind::Map(_) => node.type_name().to_string(),
        NodeKind::String(s) => format!("`\"{}\"`", short(s, 40)),
        NodeKind::Number(_) => format!("`{}`", number_text(file, node)),
        NodeKind::Bool(b) => format!("`{b}`"),
        NodeKind::Null => "`null`".to_string(),
    }
}

/// True when `value` is of JSON Schema type `ty`. `1.0` counts as an integer, as drafts 6+
/// and JavaScript (hence Zod's `.int()`) both say.
pub(crate) fn has_type(value: &Node, ty: &str) -> bool {
    match (&value.kind, ty) {
        (NodeKind::String(_), "string")
        | (NodeKind::Number(_), "number")
        | (NodeKind::Bool(_), "boolean")
        | (NodeKind::Seq(_), "array")
        | (NodeKind::Map(_), "object")
        | (NodeKind::Null, "null")
        | (NodeKind::Number(Number::Int(_)), "integer") => true,
        (NodeKind::Number(Number::Float(f)), "integer") => f.is_finite() && f.fract() == 0.0,
        _ => false,
    }
}

/// JSON equality (numbers by value, mappings regardless of order), depth-capped.
pub(crate) fn json_eq(a: &Node, b: &Node, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (&a.kind, &b.kind) {
        (NodeKind::Null, NodeKind::Null) => true,
        (NodeKind::Bool(x), NodeKind::Bool(y)) => x == y,
        (NodeKind::String(x), NodeKind::String(y)) => x == y,
        (NodeKind::Number(x), NodeKind::Number(y)) => match (x, y) {
            (Number::Int(x), Number::Int(y)) => x == y,
            (Number::Int(i), Number::Float(f)) | (Number::Float(f), Number::Int(i)) => {
                (*i as f64) == *f
            }
            (Number::Float(x), Number::Float(y)) => x == y,
        },
        (NodeKind::Seq(x), NodeKind::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y, depth + 1))
        }
        (NodeKind::Map(x), NodeKind::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|ex| {
                    y.iter()
                        .any(|ey| ex.key == ey.key && json_eq(&ex.value, &ey.value, depth + 1))
                })
        }
        _ => false,
    }
}

/// The declared `type`s, when `type` is a valid type name or list of them.
fn declared_types(schema: &Node) -> Option<Vec<&str>> {
    let ty = schema.value("type")?;
    let names: Vec<&str> = match &ty.kind {
        NodeKind::String(s) => vec![s.as_str()],
        NodeKind::Seq(items) => items.iter().map(Node::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    (!names.is_empty() && names.iter().all(|n| TYPES.contains(n))).then_some(names)
}

fn types_text(types: &[&str]) -> String {
    types
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

fn article(ty: &str) -> &'static str {
    match ty {
        "string" => "a string",
        "number" => "a number",
        "integer" => "an integer",
        "boolean" => "a boolean",
        "array" => "a list",
        "object" => "a mapping",
        _ => "null",
    }
}

/// The mechanical fix for a value of the wrong type, when there is one (`"8080"` → `8080`).
fn retype_help(file: &SourceFile, value: &Node, types: &[&str]) -> Option<String> {
    match &value.kind {
        NodeKind::String(s) => {
            let t = s.trim();
            let fits = (types.contains(&"integer") && t.parse::<i64>().is_ok())
                || (types.contains(&"number") && t.parse::<f64>().is_ok_and(f64::is_finite))
                || (types.contains(&"boolean") && (t == "true" || t == "false"));
            fits.then(|| format!("write it without quotes: `{t}`"))
        }
        NodeKind::Number(_) | NodeKind::Bool(_) if types.contains(&"string") => {
            let text = match &value.kind {
                NodeKind::Bool(b) => b.to_string(),
                _ => number_text(file, value),
            };
            Some(format!("quote it: `\"{text}\"`"))
        }
        _ => None,
    }
}

/// Where a `$ref`-like value points, for SCH005: a URI with a scheme is remote.
fn remote_scheme(reference: &str) -> Option<&str> {
    let colon = reference.find(':')?;
    let scheme = &reference[..colon];
    let valid = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    // `C:\schemas\a.json` is a Windows path, not a URI with scheme `c`.
    let drive = scheme.len() == 1 && reference[colon + 1..].starts_with(['\\', '/']);
    (valid && !drive && !reference.starts_with('#')).then_some(scheme)
}

/// Decode `%XX` escapes of a URI fragment.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

struct Cx<'a> {
    file: &'a Arc<SourceFile>,
    root: &'a Node,
    options: SchemaOptions,
    out: Vec<Diagnostic>,
}

impl Cx<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.out.push(d);
    }

    /// SCH001: the schema against its draft's meta-schema.
    fn meta_validate(&mut self) {
        let declared = self.root.value("$schema").and_then(Node::as_str);
        let known = declared.and_then(Draft::from_uri);
        let draft = known.unwrap_or(Draft::D7);
        let validator = draft.meta_validator();
        let instance = self.root.to_json();
        if validator.is_valid(&instance) {
            return;
        }
        let errors: Vec<MetaError> = validator
            .iter_errors(&instance)
            .take(MAX_META_ERRORS)
            .map(|e| simplify(&e, MAX_DEPTH))
            .collect();
        let unknown_note = match (declared, known) {
            (Some(uri), None) => Some(format!(
                "`$schema` names `{}`, a meta-schema toolc does not know; the schema was checked as draft-07",
                short(uri, 80)
            )),
            _ => None,
        };
        for err in errors {
            let Some(mut d) = self.meta_diagnostic(&err, draft) else {
                continue;
            };
            if let Some(note) = &unknown_note {
                d = d.note(note.clone());
            }
            self.push(d);
        }
    }

    fn meta_diagnostic(&self, err: &MetaError, draft: Draft) -> Option<Diagnostic> {
        let file = self.file;
        let node = self.root.at_pointer(&err.pointer);
        let (target, keyword_ptr) = locate(self.root, &err.pointer);
        let generic_note = format!(
            "the schema breaks the {} meta-schema: validators refuse to compile it, and other tools read it each their own way",
            draft.name()
        );
        if let Some(ptr) = &keyword_ptr
            && ptr.ends_with("/type")
            && let Some(d) = self.type_problem(self.root.at_pointer(ptr))
        {
            return Some(d);
        }
        let (span, message, label) = match (&target, &err.kind) {
            (Target::Schema(what), MetaKind::Type(types)) => (
                node.span,
                format!(
                    "{what} must be {}, found {}",
                    schema_words(types),
                    found(file, node)
                ),
                "not a schema".to_string(),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::Unique) => {
                let items = node.as_seq().unwrap_or_default();
                let dup = items
                    .iter()
                    .enumerate()
                    .find(|(i, a)| items[..*i].iter().any(|b| json_eq(a, b, 0)))
                    .map(|(_, a)| a);
                match dup {
                    Some(a) => (
                        a.span,
                        format!("`{k}` lists {} more than once", shown(file, a)),
                        "duplicate".to_string(),
                    ),
                    None => (
                        node.span,
                        format!("`{k}` must not repeat a value"),
                        "duplicates".to_string(),
                    ),
                }
            }
            (Target::Keyword(k), MetaKind::Type(types)) => (
                node.span,
                format!(
                    "`{k}` must be {}, found {}",
                    expected(k).map_or_else(|| type_words(types), str::to_string),
                    found(file, node)
                ),
                format!(
                    "not {}",
                    expected(k).map_or_else(|| type_words(types), str::to_string)
                ),
            ),
            (Target::InValue(k), MetaKind::Type(types)) => (
                node.span,
                format!(
                    "entries of `{k}` must be {}, found {}",
                    plural_words(types),
                    found(file, node)
                ),
                format!("not {}", type_words(types)),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::Format(format)) => {
                match format.as_str() {
                    "regex" => (
                        node.span,
                        format!(
                            "`{k}` is not a valid regular expression: {}",
                            found(file, node)
                        ),
                        "invalid regular expression".to_string(),
                    ),
                    "uri-reference" | "uri" | "iri-reference" | "iri" => (
                        node.span,
                        format!("`{k}` must be a URI reference, found {}", found(file, node)),
                        "not a URI reference".to_string(),
                    ),
                    other => (
                        node.span,
                        format!(
                            "`{k}` must be a valid `{other}`, found {}",
                            found(file, node)
                        ),
                        format!("not a valid `{other}`"),
                    ),
                }
            }
            (Target::Keyword(k) | Target::InValue(k), MetaKind::Minimum(limit)) => (
                node.span,
                format!(
                    "`{k}` must be {}, found {}",
                    expected(k).map_or_else(|| format!("at least {limit}"), str::to_string),
                    found(file, node)
                ),
                format!("must be at least {limit}"),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::ExclusiveMinimum(limit)) => (
                node.span,
                format!(
                    "`{k}` must be greater than {limit}, found {}",
                    found(file, node)
                ),
                format!("must be greater than {limit}"),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::MinItems(n)) => (
                node.span,
                if *n <= 1 {
                    format!("`{k}` must not be an empty list")
                } else {
                    format!("`{k}` must list at least {n} values")
                },
                "empty list".to_string(),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::Enum(options)) => (
                node.span,
                format!(
                    "`{k}` must be one of {}, found {}",
                    options.join(", "),
                    found(file, node)
                ),
                "not an allowed value".to_string(),
            ),
            (Target::Schema(_), MetaKind::Needs { property, .. })
                if let Some(by) = needed_by(node, property) =>
            {
                (
                    by.key_span,
                    format!("`{}` needs `{property}` next to it", by.key),
                    format!("`{property}` is missing"),
                )
            }
            (Target::Schema(what), kind) => (
                node.span,
                format!("{what} is invalid: {}", other_text(kind)),
                "invalid".to_string(),
            ),
            (Target::Keyword(k) | Target::InValue(k), kind) => (
                node.span,
                format!("`{k}` is invalid: {}", other_text(kind)),
                "invalid".to_string(),
            ),
        };
        let d = Diagnostic::new(&rules::INVALID_JSON_SCHEMA, file, span, message)
            .label(label)
            .note(generic_note);
        Some(d)
    }

    /// SCH001 for `type`, checked directly: the meta-schema's `anyOf` reports it too vaguely.
    fn type_problem(&self, ty: &Node) -> Option<Diagnostic> {
        let file = self.file;
        let unknown = |node: &Node, name: &str| {
            let hint = type_alias(name).or_else(|| did_you_mean(name, TYPES.iter().copied()));
            let mut d = Diagnostic::new(
                &rules::INVALID_JSON_SCHEMA,
                file,
                node.span,
                format!(
                    "`type` must be one of the JSON Schema types, found `{}`",
                    short(name, 40)
                ),
            )
            .label("not a JSON Schema type")
            .help(match hint {
                Some(h) => format!("did you mean `{h}`?"),
                None => {
                    "use one of `string`, `number`, `integer`, `boolean`, `array`, `object`, `null`"
                        .to_string()
                }
            });
            d = d.note(if self.options.dojops_zod {
                "DojOps converts a schema whose `type` it does not know into \"any value\": this input is not checked at all"
            } else {
                "validators refuse to compile a schema with an unknown type"
            });
            d
        };
        match &ty.kind {
            NodeKind::String(s) if !TYPES.contains(&s.as_str()) => Some(unknown(ty, s)),
            NodeKind::String(_) => None,
            NodeKind::Seq(items) => {
                if items.is_empty() {
                    return Some(
                        Diagnostic::new(
                            &rules::INVALID_JSON_SCHEMA,
                            file,
                            ty.span,
                            "`type` must not be an empty list",
                        )
                        .label("empty list")
                        .help("name at least one type"),
                    );
                }
                for (i, item) in items.iter().enumerate() {
                    match &item.kind {
                        NodeKind::String(s) if !TYPES.contains(&s.as_str()) => {
                            return Some(unknown(item, s));
                        }
                        NodeKind::String(s) if items[..i].iter().any(|p| p.as_str() == Some(s)) => {
                            return Some(
                                Diagnostic::new(
                                    &rules::INVALID_JSON_SCHEMA,
                                    file,
                                    item.span,
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
                                    item.span,
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
                    ty.span,
                    format!(
                        "`type` must be a type name or a list of type names, found {}",
                        found(file, ty)
                    ),
                )
                .label("not a type name"),
            ),
        }
    }

    /// SCH001 for local `$ref`s that point at nothing (a validator cannot compile them).
    fn dangling_refs(&mut self, sites: &[Site<'_>]) {
        // A nested `$id` changes what `#...` means below it; rather than model base URIs, skip.
        let nested_ids = sites.iter().skip(1).any(|s| {
            s.node
                .value("$id")
                .or_else(|| s.node.value("id"))
                .and_then(Node::as_str)
                .is_some()
        });
        if nested_ids {
            return;
        }
        let anchors: Vec<&str> = sites
            .iter()
            .flat_map(|s| {
                let anchor = s
                    .node
                    .value("$anchor")
                    .or_else(|| s.node.value("$dynamicAnchor"))
                    .and_then(Node::as_str);
                let id_anchor = s
                    .node
                    .value("$id")
                    .or_else(|| s.node.value("id"))
                    .and_then(Node::as_str)
                    .and_then(|id| id.strip_prefix('#'));
                [anchor, id_anchor]
            })
            .flatten()
            .collect();
        for site in sites {
            let Some(entry) = site.node.get("$ref") else {
                continue;
            };
            let Some(reference) = entry.value.as_str() else {
                continue;
            };
            let Some(fragment) = reference.strip_prefix('#') else {
                continue;
            };
            if fragment.is_empty() {
                continue;
            }
            let fragment = percent_decode(fragment);
            let problem = if let Some(pointer) = fragment.strip_prefix('/') {
                resolve_pointer(self.root, pointer).err()
            } else if anchors.contains(&fragment.as_str()) {
                None
            } else {
                Some(did_you_mean(&fragment, anchors.iter().copied()).map(|a| format!("#{a}")))
            };
            let Some(hint) = problem else { continue };
            let d = Diagnostic::new(
                &rules::INVALID_JSON_SCHEMA,
                self.file,
                entry.value.span,
                format!(
                    "`$ref` points at `{}`, which this schema does not define",
                    short(reference, 80)
                ),
            )
            .label("nothing here")
            .note("a validator refuses to compile a schema with a reference it cannot resolve")
            .maybe_help(hint.map(|h| format!("did you mean `{h}`?")));
            self.push(d);
        }
    }

    /// SCH002: `required` names that the sibling `properties` does not define.
    fn required_undefined(&mut self, site: &Site<'_>) {
        let schema = site.node;
        let Some(required) = schema.value("required").and_then(Node::as_seq) else {
            return;
        };
        let Some(props_entry) = schema.get("properties") else {
            return;
        };
        let Some(props) = props_entry.value.as_map() else {
            return;
        };
        let elsewhere = DEFINES_ELSEWHERE.iter().any(|k| schema.get(k).is_some())
            || schema
                .value("additionalProperties")
                .is_some_and(|a| a.as_map().is_some());
        if elsewhere {
            return;
        }
        for item in required {
            let Some(name) = item.as_str() else { continue };
            if props.iter().any(|p| p.key == name) {
                continue;
            }
            let hint = did_you_mean(name, props.iter().map(|p| p.key.as_str()));
            let note = if self.options.dojops_zod {
                format!(
                    "DojOps builds the input object from `properties` alone, so this requirement is silently dropped and an input without `{}` is accepted",
                    short(name, 40)
                )
            } else {
                "validators then require the key but accept any value for it; usually this is a typo".to_string()
            };
            let d = Diagnostic::new(
                &rules::REQUIRED_PROPERTY_UNDEFINED,
                self.file,
                item.span,
                format!(
                    "`{}` is required but not defined in `properties`",
                    short(name, 60)
                ),
            )
            .label("not in `properties`")
            .related(
                self.file,
                props_entry.key_span,
                "the properties are defined here",
            )
            .note(note)
            .help(match hint {
                Some(h) => format!("did you mean `{h}`?"),
                None => format!(
                    "add `{}` to `properties`, or remove it from `required`",
                    short(name, 60)
                ),
            });
            self.push(d);
        }
    }

    /// SCH003: `enum` values and `default` that do not match their own schema.
    fn own_values(&mut self, site: &Site<'_>) {
        let schema = site.node;
        let file = self.file;
        let types = declared_types(schema);
        let enum_values = schema.value("enum").and_then(Node::as_seq);
        if let (Some(types), Some(values)) = (&types, enum_values) {
            for v in values {
                if types.iter().any(|t| has_type(v, t)) {
                    continue;
                }
                let d = Diagnostic::new(
                    &rules::VALUE_VIOLATES_OWN_SCHEMA,
                    file,
                    v.span,
                    format!(
                        "`enum` value {} is {}, but `type` is {}",
                        shown(file, v),
                        v.type_name(),
                        types_text(types)
                    ),
                )
                .label(format!("not {}", article(types[0])))
                .note("a value must match both `type` and `enum`, so this one is never accepted")
                .maybe_help(retype_help(file, v, types));
                self.push(d);
            }
        }
        let Some(default) = schema.value("default") else {
            return;
        };
        let default_note = if self.options.dojops_zod {
            "DojOps hands the default to Zod unchecked: a run without this input gets a value its own schema rejects"
        } else {
            "validators do not check `default`: a client that fills it in sends a value the schema rejects"
        };
        if let Some(types) = &types
            && !types.iter().any(|t| has_type(default, t))
        {
            let d = Diagnostic::new(
                &rules::VALUE_VIOLATES_OWN_SCHEMA,
                file,
                default.span,
                format!(
                    "`default` is {}, but `type` is {}",
                    default.type_name(),
                    types_text(types)
                ),
            )
            .label(format!("not {}", article(types[0])))
            .note(default_note)
            .help(retype_help(file, default, types).unwrap_or_else(|| {
                format!("change `default` to {}, or remove it", article(types[0]))
            }));
            self.push(d);
            return;
        }
        if let Some(values) = enum_values
            && !values.iter().any(|v| json_eq(default, v, 0))
        {
            let hint = default
                .as_str()
                .and_then(|s| did_you_mean(s, values.iter().filter_map(Node::as_str)));
            let listed: Vec<String> = values.iter().take(5).map(|v| shown(file, v)).collect();
            let more = if values.len() > 5 { ", …" } else { "" };
            let d = Diagnostic::new(
                &rules::VALUE_VIOLATES_OWN_SCHEMA,
                file,
                default.span,
                format!(
                    "`default` {} is not one of the `enum` values",
                    shown(file, default)
                ),
            )
            .label("not in `enum`")
            .note(default_note)
            .help(match hint {
                Some(h) => format!("did you mean `\"{h}\"`?"),
                None => format!("use one of {}{more}", listed.join(", ")),
            });
            self.push(d);
        }
    }

    /// SCH005: `$ref`s to absolute URLs.
    fn remote_refs(&mut self, site: &Site<'_>, ids: &[&str]) {
        for key in ["$ref", "$dynamicRef", "$recursiveRef"] {
            let Some(entry) = site.node.get(key) else {
                continue;
            };
            let Some(reference) = entry.value.as_str() else {
                continue;
            };
            let Some(scheme) = remote_scheme(reference) else {
                continue;
            };
            let base = reference.split('#').next().unwrap_or(reference);
            if ids.iter().any(|id| !id.is_empty() && *id == base) {
                continue;
            }
            let mut d = Diagnostic::new(
                &rules::REMOTE_REF,
                self.file,
                entry.value.span,
                format!("`{key}` points at a remote schema `{}`", short(reference, 80)),
            )
            .label(format!("`{scheme}:` reference, never fetched"))
            .note("toolc never reads the network, so nothing behind this reference is checked, and a runtime that cannot reach it fails or skips it");
            d = if self.options.dojops_zod {
                d.note("DojOps does not resolve `$ref` at all: whatever it points at is not enforced at run time")
                    .help("copy the referenced schema into this file, in place of the `$ref`")
            } else {
                d.help("copy the referenced schema into this file under `definitions` and refer to it as `#/definitions/<name>`")
            };
            self.push(d);
        }
    }

    /// SCH004: keywords of a converted schema that DojOps's conversion drops.
    fn zod_dropped(&mut self, site: &Site<'_>) {
        let schema = site.node;
        let Some(entries) = schema.as_map() else {
            return;
        };
        let mode = zod_mode(schema);
        let has_properties = schema
            .value("properties")
            .is_some_and(|p| p.as_map().is_some());
        for e in entries {
            let k = e.key.as_str();
            let finding = match k {
                "enum" | "description" => None,
                "type" => match (&e.value.kind, mode) {
                    (_, Zod::Enum) => None,
                    (NodeKind::Seq(_), _) => Some(Dropped::Plain {
                        message: "a list of types is not converted by DojOps".into(),
                        note: "DojOps turns a schema whose `type` is a list into \"any value\": the type is not enforced at run time".into(),
                        help: "use a single type; to make a value optional, leave it out of `required` instead of adding `null`".into(),
                    }),
                    (NodeKind::String(s), _) if s == "null" => Some(Dropped::Plain {
                        message: "`type: null` is not converted by DojOps".into(),
                        note: "DojOps turns a schema of type `null` into \"any value\": the type is not enforced at run time".into(),
                        help: "to make a value optional, leave it out of `required`".into(),
                    }),
                    _ => None,
                },
                "default" if mode == Zod::Object => Some(Dropped::Plain {
                    message: "DojOps ignores `default` on an object schema".into(),
                    note: if site.is_property {
                        "the default is never applied, and a property with a `default` is not optional either: an input without it is rejected".into()
                    } else {
                        "the default is never applied".into()
                    },
                    help: "remove it, or give defaults to the object's own properties".into(),
                }),
                "properties" if mode == Zod::Object => None,
                "required" if mode == Zod::Object && has_properties => None,
                "required" if mode == Zod::Object => Some(Dropped::Plain {
                    message: "`required` is not converted by DojOps: this object has no `properties`".into(),
                    note: "DojOps turns an object without `properties` into a free-form record, so no key is required at run time".into(),
                    help: "define the required keys under `properties`".into(),
                }),
                "items" if mode == Zod::Array && e.value.as_map().is_some() => None,
                "items" if mode == Zod::Array => Some(Dropped::Plain {
                    message: "this form of `items` is not converted by DojOps".into(),
                    note: "DojOps converts `items` only when it is one schema: the array's items are not checked at run time".into(),
                    help: "give `items` one schema that every item matches".into(),
                }),
                "properties" | "required" | "items" => Some(Dropped::Plain {
                    message: format!("`{k}` is not converted by DojOps: {}", context_reason(schema, mode)),
                    note: format!("DojOps reads `{k}` only on a schema with `type: {}`, so it is not enforced at run time", if k == "items" { "array" } else { "object" }),
                    help: if mode == Zod::Unknown && schema.value("type").is_none() {
                        format!("add `\"type\": \"{}\"`", if k == "items" { "array" } else { "object" })
                    } else {
                        "remove it, or fix `type`".into()
                    },
                }),
                _ if ANNOTATIONS.contains(&k) => None,
                // DojOps's Zod object strips unknown keys, so none reaches the tool: what
                // `false` asks for, in effect (and what OpenAI strict mode needs, CMP005).
                "additionalProperties" if mode == Zod::Object && matches!(e.value.kind, NodeKind::Bool(false)) => None,
                "minLength" | "maxLength" | "pattern" | "minimum" | "maximum" => {
                    if honoured_by_runtime(k, mode) {
                        Some(Dropped::OutsideSpec)
                    } else {
                        Some(Dropped::Keyword)
                    }
                }
                _ if COMPOSITION.contains(&k) || VALIDATION.contains(&k) => {
                    // A remote `$ref` is already an error of its own (SCH005).
                    if k == "$ref" && e.value.as_str().is_some_and(|r| remote_scheme(r).is_some()) {
                        None
                    } else {
                        Some(Dropped::Keyword)
                    }
                }
                _ => None,
            };
            let Some(finding) = finding else { continue };
            let d = match finding {
                Dropped::Plain { message, note, help } => {
                    Diagnostic::new(&rules::KEYWORD_NOT_ENFORCED, self.file, e.key_span, message)
                        .label("dropped by DojOps")
                        .note(note)
                        .help(help)
                }
                Dropped::Keyword => {
                    let note = if mode == Zod::Unknown {
                        format!("DojOps converts this schema into \"any value\" (it reads only {ZOD_SUBSET}): `{k}` is not enforced at run time")
                    } else if mode == Zod::Enum {
                        format!("DojOps converts a schema with `enum` into an enum of strings and reads nothing else: `{k}` is not enforced at run time")
                    } else {
                        format!("DojOps converts only {ZOD_SUBSET}: the `{k}` constraint is not enforced at run time")
                    };
                    Diagnostic::new(
                        &rules::KEYWORD_NOT_ENFORCED,
                        self.file,
                        e.key_span,
                        format!("`{k}` is not enforced by DojOps"),
                    )
                    .label("dropped by DojOps")
                    .note(note)
                    .help(dropped_help(k))
                }
                Dropped::OutsideSpec => Diagnostic::new(
                    &rules::KEYWORD_NOT_ENFORCED,
                    self.file,
                    e.key_span,
                    format!("`{k}` is outside DojOps's spec-1 schema subset"),
                )
                .label("not in spec 1")
                .note(format!(
                    "current DojOps releases enforce `{k}` here, but spec 1 converts only {ZOD_SUBSET}: a spec-1 runtime drops this constraint"
                ))
                .help("if you target current DojOps releases only, this is safe; otherwise say it in `description` too"),
            };
            self.push(d);
        }
    }
}

/// What SCH004 found for one keyword.
enum Dropped {
    /// A keyword-specific finding.
    Plain {
        message: String,
        note: String,
        help: String,
    },
    /// A composition or validation keyword the conversion never reads.
    Keyword,
    /// Outside the spec's subset, though current DojOps reads it in this context.
    OutsideSpec,
}

/// Current DojOps (not spec 1) applies `minLength`/`maxLength`/`pattern` to strings and
/// `minimum`/`maximum` to numbers and integers.
fn honoured_by_runtime(keyword: &str, mode: Zod) -> bool {
    match keyword {
        "minLength" | "maxLength" | "pattern" => mode == Zod::String,
        "minimum" | "maximum" => mode == Zod::Number,
        _ => false,
    }
}

/// Why `properties`/`required`/`items` are not read on this schema.
fn context_reason(schema: &Node, mode: Zod) -> String {
    match (mode, schema.value("type").and_then(Node::as_str)) {
        (Zod::Enum, _) => "the schema has an `enum`, and DojOps then reads only `enum`, `description` and `default`".into(),
        (_, Some(t)) => format!("its `type` is `{}`", short(t, 20)),
        (_, None) if schema.value("type").is_some() => "its `type` is not a single type name".into(),
        _ => "the schema has no `type`".into(),
    }
}

fn dropped_help(keyword: &str) -> String {
    match keyword {
        "const" => "use `enum` with the one value: DojOps enforces `enum`".into(),
        "oneOf" | "anyOf" => "if the alternatives are fixed strings, use `enum`; otherwise use one `type` and describe the alternatives in `description`".into(),
        "allOf" => "merge the combined schemas into this one".into(),
        "$ref" | "$dynamicRef" | "$recursiveRef" => "inline the referenced schema: DojOps does not resolve references".into(),
        "additionalProperties" => "remove it: DojOps's Zod object drops unknown keys instead of rejecting them".into(),
        _ => format!("state the constraint in `description` so the model sees it, or remove `{keyword}`"),
    }
}

fn schema_words(types: &[JsonType]) -> String {
    if types.contains(&JsonType::Object) && types.contains(&JsonType::Boolean) {
        "a schema (a mapping, or `true`/`false`)".to_string()
    } else if types == [JsonType::Object] {
        "a schema (a mapping)".to_string()
    } else {
        type_words(types)
    }
}

fn plural_words(types: &[JsonType]) -> String {
    let words: Vec<&str> = types
        .iter()
        .map(|t| match t {
            JsonType::Array => "lists",
            JsonType::Boolean => "booleans",
            JsonType::Integer => "integers",
            JsonType::Null => "null",
            JsonType::Number => "numbers",
            JsonType::Object => "mappings",
            JsonType::String => "strings",
        })
        .collect();
    words.join(" or ")
}

/// The keyword of `schema` whose meta-schema dependency requires `property` (the error names
/// only the missing keyword, not the one that needs it).
fn needed_by<'a>(schema: &'a Node, property: &str) -> Option<&'a crate::syntax::Entry> {
    const NEEDS: &[(&str, &str)] = &[
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ];
    NEEDS
        .iter()
        .filter(|(_, needed)| *needed == property)
        .find_map(|(by, _)| schema.get(by))
}

fn other_text(kind: &MetaKind) -> String {
    match kind {
        MetaKind::Other(text) => text.clone(),
        MetaKind::Type(types) => format!("expected {}", type_words(types)),
        MetaKind::Format(f) => format!("not a valid `{f}`"),
        MetaKind::Unique => "values must be unique".into(),
        MetaKind::Minimum(l) => format!("must be at least {l}"),
        MetaKind::ExclusiveMinimum(l) => format!("must be greater than {l}"),
        MetaKind::MinItems(n) => format!("must list at least {n} values"),
        MetaKind::Enum(o) => format!("must be one of {}", o.join(", ")),
        MetaKind::Needs { property, .. } => format!("`{property}` is missing"),
    }
}

/// Resolve a JSON pointer (without the leading `/`) exactly; on failure, a "did you mean"
/// for the first segment that is missing.
fn resolve_pointer<'a>(root: &'a Node, pointer: &str) -> Result<&'a Node, Option<String>> {
    let mut node = root;
    let mut walked = String::from("#");
    for raw in pointer.split('/') {
        let seg = raw.replace("~1", "/").replace("~0", "~");
        let next = match &node.kind {
            NodeKind::Map(entries) => entries.iter().find(|e| e.key == seg).map(|e| &e.value),
            NodeKind::Seq(items) => seg.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        match next {
            Some(n) => node = n,
            None => {
                let hint = node
                    .as_map()
                    .and_then(|entries| did_you_mean(&seg, entries.iter().map(|e| e.key.as_str())))
                    .map(|k| format!("{walked}/{}", k.replace('~', "~0").replace('/', "~1")));
                return Err(hint);
            }
        }
        walked.push('/');
        walked.push_str(raw);
    }
    Ok(node)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::source::FormatId;
    use crate::syntax::json;

    const APPENDIX_B: &str = r#"{
  "type": "object",
  "properties": {
    "moduleName": {
      "type": "string",
      "description": "Name of the Terraform module to generate"
    },
    "provider": {
      "type": "string",
      "enum": ["aws", "gcp", "azure"],
      "description": "Cloud provider"
    },
    "resources": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "description": "List of resource types to include"
    },
    "region": {
      "type": "string",
      "default": "us-east-1",
      "description": "Cloud region"
    },
    "enableMonitoring": {
      "type": "boolean",
      "default": false,
      "description": "Whether to include CloudWatch monitoring"
    }
  },
  "required": ["moduleName", "provider", "resources"]
}"#;

    fn run(text: &str, dojops: bool) -> Vec<String> {
        let file = SourceFile::new(
            PathBuf::from("s.json"),
            "s.json".into(),
            FormatId::DojopsSchema,
            text.to_string(),
        );
        let parsed = json::parse(&file.text, 0);
        let root = parsed.root.expect("test schema parses");
        check_schema(&file, &root, SchemaOptions { dojops_zod: dojops })
            .iter()
            .map(|d| format!("{} {} {}", d.rule.code, file.slice(d.span), d.message))
            .collect()
    }

    fn codes(text: &str, dojops: bool) -> Vec<String> {
        run(text, dojops)
            .iter()
            .map(|l| l[..6].to_string())
            .collect()
    }

    #[test]
    fn appendix_b_gives_nothing() {
        assert_eq!(run(APPENDIX_B, true), Vec::<String>::new());
        assert_eq!(run(APPENDIX_B, false), Vec::<String>::new());
    }

    #[test]
    fn sch001_misspelt_type_with_did_you_mean() {
        let file = SourceFile::new(
            PathBuf::from("s.json"),
            "s.json".into(),
            FormatId::DojopsSchema,
            String::new(),
        );
        let text = r#"{"type": "object", "properties": {"a": {"type": "strng"}}}"#;
        let file = SourceFile::new(
            file.path.clone(),
            file.display.clone(),
            file.format,
            text.into(),
        );
        let root = json::parse(text, 0).root.expect("parses");
        let diags = check_schema(&file, &root, SchemaOptions::default());
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].rule.code, "SCH001");
        assert_eq!(file.slice(diags[0].span), "\"strng\"");
        assert_eq!(
            diags[0].message,
            "`type` must be one of the JSON Schema types, found `strng`"
        );
        assert_eq!(diags[0].help.as_deref(), Some("did you mean `string`?"));
    }

    #[test]
    fn sch001_type_aliases_and_lists() {
        let lines = run(r#"{"type": "int"}"#, false);
        assert_eq!(
            lines,
            vec!["SCH001 \"int\" `type` must be one of the JSON Schema types, found `int`"]
        );
        let lines = run(r#"{"type": ["string", "nul"]}"#, false);
        assert_eq!(
            lines,
            vec!["SCH001 \"nul\" `type` must be one of the JSON Schema types, found `nul`"]
        );
        let lines = run(r#"{"type": ["string", "string"]}"#, false);
        assert_eq!(
            lines,
            vec!["SCH001 \"string\" `type` lists `string` more than once"]
        );
        let lines = run(r#"{"type": 3}"#, false);
        assert_eq!(
            lines,
            vec!["SCH001 3 `type` must be a type name or a list of type names, found `3`"]
        );
    }

    #[test]
    fn sch001_keyword_shapes() {
        let lines = run(
            r#"{"required": "a", "minLength": -1, "pattern": "(open"}"#,
            false,
        );
        assert_eq!(
            lines,
            vec![
                "SCH001 \"a\" `required` must be a list of property names, found the string `a`",
                "SCH001 -1 `minLength` must be a non-negative integer, found `-1`",
                "SCH001 \"(open\" `pattern` is not a valid regular expression: the string `(open`",
            ]
        );
        let lines = run(r#"{"required": ["a", 2, "a"]}"#, false);
        assert!(
            lines
                .contains(&"SCH001 2 entries of `required` must be strings, found `2`".to_string()),
            "{lines:#?}"
        );
        let lines = run(
            r#"{"properties": {"a": 3}, "items": [{"type": "x"}]}"#,
            false,
        );
        assert_eq!(
            lines,
            vec![
                "SCH001 3 the schema of property `a` must be a schema (a mapping, or `true`/`false`), found `3`",
                "SCH001 \"x\" `type` must be one of the JSON Schema types, found `x`",
            ]
        );
        assert_eq!(
            run("[1]", false),
            vec![
                "SCH001 [1] the schema must be a schema (a mapping, or `true`/`false`), found a list"
            ]
        );
    }

    #[test]
    fn sch001_honours_declared_draft() {
        // Draft-04 wants a boolean `exclusiveMinimum`; draft-07 a number.
        let d4 = r#"{"$schema": "http://json-schema.org/draft-04/schema#", "exclusiveMinimum": 3}"#;
        assert_eq!(
            run(d4, false),
            vec![
                "SCH001 \"exclusiveMinimum\" `exclusiveMinimum` needs `minimum` next to it",
                "SCH001 3 `exclusiveMinimum` must be a boolean, found `3`",
            ]
        );
        let d7 = r#"{"$schema": "http://json-schema.org/draft-07/schema#", "exclusiveMinimum": 3}"#;
        assert!(codes(d7, false).is_empty());
        let d2020 = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "prefixItems": [{"type": "string"}]}"#;
        assert!(codes(d2020, false).is_empty());
    }

    #[test]
    fn sch001_dangling_local_ref() {
        let text = r##"{"definitions": {"address": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/adress"}}}"##;
        let file = SourceFile::new(
            PathBuf::from("s.json"),
            "s.json".into(),
            FormatId::DojopsSchema,
            text.into(),
        );
        let root = json::parse(text, 0).root.expect("parses");
        let diags = check_schema(&file, &root, SchemaOptions::default());
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].rule.code, "SCH001");
        assert_eq!(
            diags[0].help.as_deref(),
            Some("did you mean `#/definitions/address`?")
        );
        assert!(
            codes(
                r##"{"definitions": {"a": {}}, "$ref": "#/definitions/a"}"##,
                false
            )
            .is_empty()
        );
    }

    #[test]
    fn sch001_silent_on_valid_schemas() {
        assert!(
            run(
                r#"{"type": ["string", "null"], "minLength": 1, "pattern": "^[a-z]+$"}"#,
                false
            )
            .is_empty()
        );
        assert!(run("true", false).is_empty());
    }

    #[test]
    fn sch002_required_not_in_properties() {
        let text = r#"{"type": "object", "properties": {"region": {"type": "string"}}, "required": ["regoin"]}"#;
        let file = SourceFile::new(
            PathBuf::from("s.json"),
            "s.json".into(),
            FormatId::DojopsSchema,
            text.into(),
        );
        let root = json::parse(text, 0).root.expect("parses");
        let diags = check_schema(&file, &root, SchemaOptions::default());
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].rule.code, "SCH002");
        assert_eq!(file.slice(diags[0].span), "\"regoin\"");
        assert_eq!(diags[0].help.as_deref(), Some("did you mean `region`?"));
        assert_eq!(file.slice(diags[0].related[0].span), "\"properties\"");
    }

    #[test]
    fn sch002_nested_levels() {
        let text = r#"{"type": "object", "properties": {
            "o": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["y"]},
            "l": {"type": "array", "items": {"type": "object", "properties": {}, "required": ["z"]}}
        }}"#;
        assert_eq!(codes(text, true), vec!["SCH002", "SCH002"]);
    }

    #[test]
    fn sch002_silent_when_defined_or_composed() {
        assert!(codes(r#"{"properties": {"a": {}}, "required": ["a"]}"#, false).is_empty());
        assert!(codes(r#"{"required": ["a"]}"#, false).is_empty());
        assert!(codes(r#"{"properties": {"a": {}}, "allOf": [{"properties": {"b": {}}}], "required": ["b"]}"#, false).is_empty());
    }

    #[test]
    fn sch003_default_and_enum_against_type() {
        let text = r#"{"type": "object", "properties": {
            "port": {"type": "integer", "default": "8080"},
            "mode": {"type": "string", "enum": ["fast", 2]},
            "region": {"type": "string", "enum": ["eu-west-1", "us-east-1"], "default": "eu-west1"}
        }}"#;
        let lines = run(text, false);
        assert_eq!(
            lines,
            vec![
                "SCH003 \"8080\" `default` is a string, but `type` is `integer`",
                "SCH003 2 `enum` value `2` is an integer, but `type` is `string`",
                "SCH003 \"eu-west1\" `default` `\"eu-west1\"` is not one of the `enum` values",
            ]
        );
        let file = SourceFile::new(
            PathBuf::from("s.json"),
            "s.json".into(),
            FormatId::DojopsSchema,
            text.into(),
        );
        let root = json::parse(text, 0).root.expect("parses");
        let diags = check_schema(&file, &root, SchemaOptions::default());
        assert_eq!(
            diags[0].help.as_deref(),
            Some("write it without quotes: `8080`")
        );
        assert_eq!(
            diags[2].help.as_deref(),
            Some("did you mean `\"eu-west-1\"`?")
        );
    }

    #[test]
    fn sch003_integer_accepts_whole_floats() {
        assert!(
            codes(
                r#"{"type": "integer", "default": 1.0, "enum": [1.0, 2]}"#,
                false
            )
            .is_empty()
        );
        assert_eq!(
            codes(r#"{"type": "integer", "default": 1.5}"#, false),
            vec!["SCH003"]
        );
        assert!(
            codes(
                r#"{"type": "number", "enum": [1, 2.5], "default": 2.5}"#,
                false
            )
            .is_empty()
        );
        assert!(codes(r#"{"type": ["string", "null"], "default": null}"#, false).is_empty());
        assert!(codes(r#"{"enum": [1, 2], "default": 1.0}"#, false).is_empty());
    }

    #[test]
    fn sch004_flags_each_dropped_keyword() {
        let text = r##"{"type": "object", "additionalProperties": false, "properties": {
            "a": {"type": "string", "format": "email"},
            "b": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "c": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true},
            "d": {"type": "string", "const": "x", "title": "D", "examples": ["x"], "$comment": "ok"},
            "e": {"$ref": "#/definitions/e"}
        }, "definitions": {"e": {"type": "string", "pattern": "^a"}}}"##;
        let lines = run(text, true);
        let keys: Vec<&str> = lines
            .iter()
            .map(|l| l.split(' ').nth(1).unwrap_or(""))
            .collect();
        assert_eq!(
            keys,
            vec![
                "\"format\"",
                "\"oneOf\"",
                "\"minItems\"",
                "\"uniqueItems\"",
                "\"const\"",
                "\"$ref\""
            ],
            "{lines:#?}"
        );
        assert!(lines.iter().all(|l| l.starts_with("SCH004")));
        // `false` is what DojOps's stripping object does anyway; other values are dropped.
        let open = r#"{"type": "object", "properties": {}, "additionalProperties": true}"#;
        assert_eq!(run(open, true).len(), 1, "{:#?}", run(open, true));
        let typed = r#"{"type": "object", "additionalProperties": {"type": "string"}}"#;
        assert_eq!(run(typed, true).len(), 1, "{:#?}", run(typed, true));
        assert!(
            run(text, false).is_empty(),
            "SCH004 only applies to DojOps schemas"
        );
    }

    #[test]
    fn sch004_waits_for_a_valid_type() {
        assert_eq!(
            codes(r#"{"type": "strng", "minLength": 1}"#, true),
            vec!["SCH001"]
        );
    }

    #[test]
    fn sch004_context_of_conversion() {
        // Current DojOps honours minLength on strings: reported as outside spec 1, not as dropped.
        let lines = run(r#"{"type": "string", "minLength": 1, "maximum": 3}"#, true);
        assert_eq!(
            lines,
            vec![
                "SCH004 \"minLength\" `minLength` is outside DojOps's spec-1 schema subset",
                "SCH004 \"maximum\" `maximum` is not enforced by DojOps",
            ]
        );
        let lines = run(
            r#"{"properties": {"a": {"type": "string"}}, "required": ["a"]}"#,
            true,
        );
        assert_eq!(
            lines,
            vec![
                "SCH004 \"properties\" `properties` is not converted by DojOps: the schema has no `type`",
                "SCH004 \"required\" `required` is not converted by DojOps: the schema has no `type`",
            ]
        );
        assert_eq!(
            codes(r#"{"type": ["string", "null"]}"#, true),
            vec!["SCH004"]
        );
        assert_eq!(
            codes(r#"{"type": "object", "required": ["a"]}"#, true),
            vec!["SCH004"]
        );
        // Below a dropped keyword nothing is converted, so nothing more is reported.
        assert_eq!(
            codes(
                r#"{"type": "object", "not": {"type": "string", "format": "email"}}"#,
                true
            ),
            vec!["SCH004"]
        );
    }

    #[test]
    fn sch005_remote_refs() {
        let text = r##"{"type": "object", "properties": {
            "a": {"$ref": "https://example.com/schemas/a.json"},
            "b": {"$ref": "urn:example:b"},
            "c": {"$ref": "#/properties/a"},
            "d": {"$ref": "common.json#/definitions/d"},
            "e": {"$ref": "http://example.com/embedded#/x"}
        }, "definitions": {"emb": {"$id": "http://example.com/embedded", "x": {}}}}"##;
        let lines: Vec<String> = run(text, false);
        assert_eq!(
            lines,
            vec![
                "SCH005 \"https://example.com/schemas/a.json\" `$ref` points at a remote schema `https://example.com/schemas/a.json`",
                "SCH005 \"urn:example:b\" `$ref` points at a remote schema `urn:example:b`",
            ]
        );
        // With DojOps, the remote `$ref` is not also reported as dropped (SCH004).
        assert_eq!(
            codes(
                r#"{"type": "object", "properties": {"a": {"$ref": "http://x/y"}}}"#,
                true
            ),
            vec!["SCH005"]
        );
    }

    #[test]
    fn ref_cycles_terminate() {
        let cycle = r##"{"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},
            "properties": {"x": {"$ref": "#/definitions/a"}, "self": {"$ref": "#"}}, "$ref": "#"}"##;
        assert!(codes(cycle, false).is_empty());
        let lines = run(cycle, true);
        assert!(lines.iter().all(|l| l.starts_with("SCH004")), "{lines:#?}");
        assert!(run(r##"{"$ref": "#"}"##, true).len() == 1);
    }

    #[test]
    fn deep_schemas_do_not_overflow() {
        // The parsers stop at MAX_DEPTH; a schema just under it must check on a 2 MiB thread
        // (rayon's default) without overflowing the stack.
        let n = MAX_DEPTH / 2 - 1;
        let deep =
            "{\"properties\": {\"a\": ".repeat(n) + "{\"type\": \"strng\"}" + &"}}".repeat(n);
        let nots =
            "{\"not\": ".repeat(MAX_DEPTH - 1) + "{\"type\": 3}" + &"}".repeat(MAX_DEPTH - 1);
        let handle = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || (codes(&deep, false), codes(&nots, false)))
            .expect("spawn");
        let (a, b) = handle.join().expect("no stack overflow");
        assert_eq!(a, vec!["SCH001"]);
        assert_eq!(b.iter().filter(|c| *c == "SCH001").count(), 1);
    }

    #[test]
    fn odd_inputs_never_panic() {
        for text in [
            "null",
            "3",
            "\"x\"",
            "{}",
            r#"{"$schema": 3}"#,
            r#"{"$schema": "http://example.com/custom"}"#,
            r#"{"required": [1, null, {}]}"#,
            r#"{"enum": "x", "default": 1}"#,
            r##"{"$ref": "#/%ZZ/~2"}"##,
            r##"{"$ref": "#nowhere"}"##,
            r#"{"$ref": "C:\\schemas\\a.json"}"#,
            r#"{"items": true, "type": "array", "dependencies": {"a": ["b"], "c": {"type": "x"}}}"#,
            r#"{"type": "number", "default": 1e400}"#,
        ] {
            let _ = run(text, true);
            let _ = run(text, false);
        }
    }
}
