//! The JSON Schema vocabulary (<https://json-schema.org/specification>): every keyword of
//! drafts 04 to 2020-12 with its kind, the drafts that define it and how its value holds
//! subschemas; the type names and the `format` names. Every list of keywords elsewhere is
//! derived from this table, so a keyword is described once.

/// The JSON Schema drafts toolc knows (those the `jsonschema` crate ships meta-schemas for).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Draft {
    /// Draft 4.
    D4,
    /// Draft 6.
    D6,
    /// Draft 7, which a schema without `$schema` is read as.
    D7,
    /// Draft 2019-09.
    D201909,
    /// Draft 2020-12.
    D202012,
}

impl Draft {
    /// The draft a `$schema` URI names (with or without `#`, over http or https).
    pub(crate) fn from_uri(uri: &str) -> Option<Draft> {
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

    /// The draft's name, for messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Draft::D4 => "draft-04",
            Draft::D6 => "draft-06",
            Draft::D7 => "draft-07",
            Draft::D201909 => "draft 2019-09",
            Draft::D202012 => "draft 2020-12",
        }
    }
}

/// What a keyword is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// About the schema document itself (`$schema`, `$vocabulary`, `$comment`).
    Core,
    /// Names a schema so that references can reach it (`$id`, `$anchor`, …).
    Identifier,
    /// Points at another schema (`$ref`, `$dynamicRef`, `$recursiveRef`).
    Reference,
    /// Holds schemas only to be referenced (`definitions`, `$defs`).
    Definitions,
    /// Applies subschemas to the value or its parts (`properties`, `allOf`, `items`, …).
    Applicator,
    /// Asserts something of the value (`type`, `enum`, `minLength`, `format`, …).
    Assertion,
    /// Describes the value without constraining it (`title`, `default`, …).
    Annotation,
    /// Describes string-encoded content (`contentMediaType`, …); annotations only.
    Content,
}

impl Kind {
    /// Whether keywords of this kind constrain which values the schema accepts.
    pub(crate) fn constrains(self) -> bool {
        matches!(self, Kind::Applicator | Kind::Assertion | Kind::Reference)
    }
}

/// How a keyword's value holds subschemas.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Holds {
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

/// One keyword of the vocabulary.
#[derive(Debug)]
pub(crate) struct Keyword {
    /// Its spelling.
    pub name: &'static str,
    /// What it is for.
    pub kind: Kind,
    /// How its value holds subschemas.
    pub holds: Holds,
    /// The first draft that defines it.
    pub since: Draft,
    /// The last draft that defines it, when a later draft dropped it.
    pub until: Option<Draft>,
}

impl Keyword {
    /// Whether `draft` defines this keyword.
    #[cfg(test)]
    pub(crate) fn in_draft(&self, draft: Draft) -> bool {
        self.since <= draft && self.until.is_none_or(|u| draft <= u)
    }

    /// Whether `draft` or a later draft defines this keyword.
    pub(crate) fn defined_since(&self, draft: Draft) -> bool {
        self.until.is_none_or(|u| draft <= u)
    }
}

const fn kw(name: &'static str, kind: Kind, holds: Holds, since: Draft) -> Keyword {
    Keyword {
        name,
        kind,
        holds,
        since,
        until: None,
    }
}

const fn until(name: &'static str, kind: Kind, holds: Holds, since: Draft, last: Draft) -> Keyword {
    Keyword {
        name,
        kind,
        holds,
        since,
        until: Some(last),
    }
}

use Draft::*;
use Holds::{Data, List, Named, One, OneOrList, SchemaOrNames};
use Kind::*;

/// Every keyword of drafts 04 to 2020-12.
pub(crate) const KEYWORDS: &[Keyword] = &[
    kw("$schema", Core, Data, D4),
    kw("$vocabulary", Core, Data, D201909),
    kw("$comment", Core, Data, D7),
    until("id", Identifier, Data, D4, D4),
    kw("$id", Identifier, Data, D6),
    kw("$anchor", Identifier, Data, D201909),
    kw("$dynamicAnchor", Identifier, Data, D202012),
    until("$recursiveAnchor", Identifier, Data, D201909, D201909),
    kw("$ref", Reference, Data, D4),
    kw("$dynamicRef", Reference, Data, D202012),
    until("$recursiveRef", Reference, Data, D201909, D201909),
    until("definitions", Definitions, Named, D4, D7),
    kw("$defs", Definitions, Named, D201909),
    kw("allOf", Applicator, List, D4),
    kw("anyOf", Applicator, List, D4),
    kw("oneOf", Applicator, List, D4),
    kw("not", Applicator, One, D4),
    kw("if", Applicator, One, D7),
    kw("then", Applicator, One, D7),
    kw("else", Applicator, One, D7),
    kw("dependentSchemas", Applicator, Named, D201909),
    until("dependencies", Applicator, SchemaOrNames, D4, D7),
    kw("prefixItems", Applicator, List, D202012),
    kw("items", Applicator, OneOrList, D4),
    until("additionalItems", Applicator, One, D4, D201909),
    kw("contains", Applicator, One, D6),
    kw("properties", Applicator, Named, D4),
    kw("patternProperties", Applicator, Named, D4),
    kw("additionalProperties", Applicator, One, D4),
    kw("propertyNames", Applicator, One, D6),
    kw("unevaluatedItems", Applicator, One, D201909),
    kw("unevaluatedProperties", Applicator, One, D201909),
    kw("type", Assertion, Data, D4),
    kw("enum", Assertion, Data, D4),
    kw("const", Assertion, Data, D6),
    kw("multipleOf", Assertion, Data, D4),
    kw("maximum", Assertion, Data, D4),
    kw("exclusiveMaximum", Assertion, Data, D4),
    kw("minimum", Assertion, Data, D4),
    kw("exclusiveMinimum", Assertion, Data, D4),
    kw("maxLength", Assertion, Data, D4),
    kw("minLength", Assertion, Data, D4),
    kw("pattern", Assertion, Data, D4),
    kw("maxItems", Assertion, Data, D4),
    kw("minItems", Assertion, Data, D4),
    kw("uniqueItems", Assertion, Data, D4),
    kw("maxContains", Assertion, Data, D201909),
    kw("minContains", Assertion, Data, D201909),
    kw("maxProperties", Assertion, Data, D4),
    kw("minProperties", Assertion, Data, D4),
    kw("required", Assertion, Data, D4),
    kw("dependentRequired", Assertion, Data, D201909),
    kw("format", Assertion, Data, D4),
    kw("title", Annotation, Data, D4),
    kw("description", Annotation, Data, D4),
    kw("default", Annotation, Data, D4),
    kw("examples", Annotation, Data, D6),
    kw("readOnly", Annotation, Data, D7),
    kw("writeOnly", Annotation, Data, D7),
    kw("deprecated", Annotation, Data, D201909),
    kw("contentMediaType", Content, Data, D7),
    kw("contentEncoding", Content, Data, D7),
    kw("contentSchema", Content, One, D201909),
];

/// The keyword spelt `name`, if JSON Schema has one.
pub(crate) fn keyword(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.name == name)
}

/// How the value of keyword `name` holds subschemas ([`Holds::Data`] for an unknown key).
pub(crate) fn holds(name: &str) -> Holds {
    keyword(name).map_or(Holds::Data, |k| k.holds)
}

/// The JSON Schema type names.
pub(crate) const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// Whether `name` is a JSON Schema type name.
pub(crate) fn is_type(name: &str) -> bool {
    TYPES.contains(&name)
}

/// The JSON Schema type that another language's name for a type means (`int` → `integer`).
pub(crate) fn type_alias(name: &str) -> Option<&'static str> {
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

/// The `format` values JSON Schema defines (draft 2020-12, a superset of the earlier drafts').
pub(crate) const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// What the value of keyword `name` must be, in words, where a meta-schema error reads badly.
pub(crate) fn expected_value(name: &str) -> Option<&'static str> {
    Some(match name {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_keyword_is_listed_once() {
        for (i, k) in KEYWORDS.iter().enumerate() {
            assert!(
                KEYWORDS[..i].iter().all(|p| p.name != k.name),
                "{} twice",
                k.name
            );
        }
    }

    #[test]
    fn drafts_bound_keywords() {
        let defs = keyword("$defs").expect("known");
        assert!(!defs.in_draft(Draft::D7) && defs.in_draft(Draft::D202012));
        let id = keyword("id").expect("known");
        assert!(id.in_draft(Draft::D4) && !id.in_draft(Draft::D6));
        assert!(!id.defined_since(Draft::D7));
        let definitions = keyword("definitions").expect("known");
        assert!(definitions.defined_since(Draft::D7) && !definitions.in_draft(Draft::D201909));
        assert!(
            keyword("prefixItems")
                .expect("known")
                .defined_since(Draft::D7)
        );
    }

    #[test]
    fn subschema_holders() {
        assert_eq!(holds("properties"), Holds::Named);
        assert_eq!(holds("items"), Holds::OneOrList);
        assert_eq!(holds("not"), Holds::One);
        assert_eq!(holds("anyOf"), Holds::List);
        assert_eq!(holds("enum"), Holds::Data);
        assert_eq!(holds("propertys"), Holds::Data);
    }

    #[test]
    fn kinds_split_constraints_from_annotations() {
        let constrains = |n: &str| keyword(n).expect("known").kind.constrains();
        assert!(constrains("$ref") && constrains("minLength") && constrains("oneOf"));
        assert!(!constrains("title") && !constrains("$defs") && !constrains("contentSchema"));
        assert!(keyword("minLenght").is_none());
    }

    #[test]
    fn drafts_from_schema_uris() {
        assert_eq!(
            Draft::from_uri("http://json-schema.org/draft-07/schema#"),
            Some(Draft::D7)
        );
        assert_eq!(
            Draft::from_uri("https://json-schema.org/draft/2020-12/schema"),
            Some(Draft::D202012)
        );
        assert_eq!(Draft::from_uri("json-schema.org/draft-07/schema"), None);
        assert_eq!(Draft::from_uri("http://example.com/schema"), None);
    }

    #[test]
    fn types_and_aliases() {
        assert!(is_type("integer") && !is_type("int"));
        assert_eq!(type_alias("Int"), Some("integer"));
        assert_eq!(type_alias("dict"), Some("object"));
        assert_eq!(type_alias("strng"), None);
        assert!(FORMATS.contains(&"uuid") && !FORMATS.contains(&"datetime"));
    }
}
