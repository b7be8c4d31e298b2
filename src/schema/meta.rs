//! SCH001: a schema against its draft's meta-schema (<https://json-schema.org/specification>),
//! with the `jsonschema` crate and never the network: the meta-schemas ship with the crate,
//! and the user's schema is validated as plain data, so none of its references is followed.
//! Each error is reduced to its most telling cause and worded in schema terms.

use jsonschema::JsonType;
use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};

use super::Cx;
use super::values::{first_repeat, found, short, shown};
use super::vocab::{self, Draft};
use super::walk::{Target, locate};
use crate::diagnostics::Diagnostic;
use crate::rules::schema as rules;
use crate::syntax::{Entry, MAX_DEPTH, Node};

/// At most this many meta-schema errors per file: past that, the file is simply not a schema.
const MAX_META_ERRORS: usize = 50;

/// The meta-schema validator of `draft`.
fn meta_validator(draft: Draft) -> jsonschema::meta::MetaValidator<'static> {
    match draft {
        Draft::D4 => jsonschema::draft4::meta::validator(),
        Draft::D6 => jsonschema::draft6::meta::validator(),
        Draft::D7 => jsonschema::draft7::meta::validator(),
        Draft::D201909 => jsonschema::draft201909::meta::validator(),
        Draft::D202012 => jsonschema::draft202012::meta::validator(),
    }
}

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

impl Cx<'_> {
    /// SCH001: the schema against its draft's meta-schema.
    pub(super) fn meta_validate(&mut self) {
        let declared = self.root.value("$schema").and_then(Node::as_str);
        let known = declared.and_then(Draft::from_uri);
        let draft = known.unwrap_or(Draft::D7);
        let validator = meta_validator(draft);
        let mut errors: Vec<MetaError> = Vec::new();
        super::instance::meta_errors(&validator, draft, self.root, &mut |at, e| {
            let mut err = simplify(e, MAX_DEPTH);
            err.pointer.insert_str(0, at);
            errors.push(err);
            errors.len() < MAX_META_ERRORS
        });
        if errors.is_empty() {
            return;
        }
        let unknown_note = match (declared, known) {
            (Some(uri), None) => Some(format!(
                "`$schema` names `{}`, a meta-schema toolc does not know; the schema was checked as draft-07",
                short(uri, 80)
            )),
            _ => None,
        };
        for err in errors {
            let mut d = self.meta_diagnostic(&err, draft);
            if let Some(note) = &unknown_note {
                d = d.note(note.clone());
            }
            self.push(d);
        }
    }

    fn meta_diagnostic(&self, err: &MetaError, draft: Draft) -> Diagnostic {
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
            return d;
        }
        let expected =
            |k: &str, otherwise: String| vocab::expected_value(k).map_or(otherwise, str::to_string);
        let (span, message, label) = match (&target, &err.kind) {
            (Target::Schema(what), MetaKind::Type(types)) => (
                node.span(),
                format!(
                    "{what} must be {}, found {}",
                    schema_words(types),
                    found(file, node)
                ),
                "not a schema".to_string(),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::Unique) => {
                let dup = first_repeat(node.as_seq().unwrap_or_default());
                match dup {
                    Some(a) => (
                        a.span(),
                        format!("`{k}` lists {} more than once", shown(file, a)),
                        "duplicate".to_string(),
                    ),
                    None => (
                        node.span(),
                        format!("`{k}` must not repeat a value"),
                        "duplicates".to_string(),
                    ),
                }
            }
            (Target::Keyword(k), MetaKind::Type(types)) => (
                node.span(),
                format!(
                    "`{k}` must be {}, found {}",
                    expected(k, type_words(types)),
                    found(file, node)
                ),
                format!("not {}", expected(k, type_words(types))),
            ),
            (Target::InValue(k), MetaKind::Type(types)) => (
                node.span(),
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
                        node.span(),
                        format!(
                            "`{k}` is not a valid regular expression: {}",
                            found(file, node)
                        ),
                        "invalid regular expression".to_string(),
                    ),
                    "uri-reference" | "uri" | "iri-reference" | "iri" => (
                        node.span(),
                        format!("`{k}` must be a URI reference, found {}", found(file, node)),
                        "not a URI reference".to_string(),
                    ),
                    other => (
                        node.span(),
                        format!(
                            "`{k}` must be a valid `{other}`, found {}",
                            found(file, node)
                        ),
                        format!("not a valid `{other}`"),
                    ),
                }
            }
            (Target::Keyword(k) | Target::InValue(k), MetaKind::Minimum(limit)) => (
                node.span(),
                format!(
                    "`{k}` must be {}, found {}",
                    expected(k, format!("at least {limit}")),
                    found(file, node)
                ),
                format!("must be at least {limit}"),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::ExclusiveMinimum(limit)) => (
                node.span(),
                format!(
                    "`{k}` must be greater than {limit}, found {}",
                    found(file, node)
                ),
                format!("must be greater than {limit}"),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::MinItems(n)) => (
                node.span(),
                if *n <= 1 {
                    format!("`{k}` must not be an empty list")
                } else {
                    format!("`{k}` must list at least {n} values")
                },
                "empty list".to_string(),
            ),
            (Target::Keyword(k) | Target::InValue(k), MetaKind::Enum(options)) => (
                node.span(),
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
                    by.key_span(),
                    format!("`{}` needs `{property}` next to it", by.key),
                    format!("`{property}` is missing"),
                )
            }
            (Target::Schema(what), kind) => (
                node.span(),
                format!("{what} is invalid: {}", other_text(kind)),
                "invalid".to_string(),
            ),
            (Target::Keyword(k) | Target::InValue(k), kind) => (
                node.span(),
                format!("`{k}` is invalid: {}", other_text(kind)),
                "invalid".to_string(),
            ),
        };
        Diagnostic::new(&rules::INVALID_JSON_SCHEMA, file, span, message)
            .label(label)
            .note(generic_note)
    }
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
fn needed_by<'a>(schema: &'a Node, property: &str) -> Option<&'a Entry> {
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

#[cfg(test)]
mod tests {
    use super::super::tests::{codes, diagnostics, run};

    #[test]
    fn sch001_keyword_shapes() {
        let lines = run(r#"{"required": "a", "minLength": -1, "pattern": "(open"}"#);
        assert_eq!(
            lines,
            vec![
                "SCH001 \"a\" `required` must be a list of property names, found the string `a`",
                "SCH001 -1 `minLength` must be a non-negative integer, found `-1`",
                "SCH001 \"(open\" `pattern` is not a valid regular expression: the string `(open`",
            ]
        );
        let lines = run(r#"{"required": ["a", 2, "a"]}"#);
        assert!(
            lines
                .contains(&"SCH001 2 entries of `required` must be strings, found `2`".to_string()),
            "{lines:#?}"
        );
        let lines = run(r#"{"properties": {"a": 3}, "items": [{"type": "x"}]}"#);
        assert_eq!(
            lines,
            vec![
                "SCH001 3 the schema of property `a` must be a schema (a mapping, or `true`/`false`), found `3`",
                "SCH001 \"x\" `type` must be one of the JSON Schema types, found `x`",
            ]
        );
        assert_eq!(
            run("[1]"),
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
            run(d4),
            vec![
                "SCH001 \"exclusiveMinimum\" `exclusiveMinimum` needs `minimum` next to it",
                "SCH001 3 `exclusiveMinimum` must be a boolean, found `3`",
            ]
        );
        let d7 = r#"{"$schema": "http://json-schema.org/draft-07/schema#", "exclusiveMinimum": 3}"#;
        assert!(codes(d7).is_empty());
        let d2020 = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "prefixItems": [{"type": "string"}]}"#;
        assert!(codes(d2020).is_empty());
    }

    #[test]
    fn sch001_unknown_meta_schema_is_read_as_draft_07() {
        let (_, diags) =
            diagnostics(r#"{"$schema": "http://example.com/custom", "minLength": "1"}"#);
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert!(
            diags[0]
                .notes
                .iter()
                .any(|n| n.contains("a meta-schema toolc does not know")),
            "{diags:#?}"
        );
        assert!(
            diags[0]
                .notes
                .iter()
                .any(|n| n.contains("draft-07 meta-schema"))
        );
    }

    #[test]
    fn sch001_silent_on_valid_schemas() {
        assert!(
            run(r#"{"type": ["string", "null"], "minLength": 1, "pattern": "^[a-z]+$"}"#)
                .is_empty()
        );
        assert!(run("true").is_empty());
    }
}
