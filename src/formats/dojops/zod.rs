//! What DojOps's JSON-Schema-to-Zod conversion does with a tool's input and output schemas
//! (DojOps's *Tool Specification v1*, §6, <https://github.com/dojops/dojops>): it reads
//! `type`, `enum`, `properties`, `required`, `items`, `description` and `default`, and drops
//! everything else without a word. This is the [`Runtime`] the shared JSON Schema checks run
//! with for DojOps, and SCH004, the keywords it drops.

use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::rules::schema as rules;
use crate::schema::vocab;
use crate::schema::{Runtime, SchemaOptions, Site, remote_scheme, short};
use crate::source::SourceFile;
use crate::syntax::{Node, NodeKind};

/// How DojOps's schemas are checked.
pub(crate) const SCHEMA_OPTIONS: SchemaOptions = SchemaOptions {
    runtime: Some(&DojopsZod),
};

/// What DojOps's JSON-Schema-to-Zod conversion reads (spec 1, §6).
const ZOD_SUBSET: &str =
    "`type`, `enum`, `properties`, `required`, `items`, `description` and `default`";

/// DojOps's conversion of a schema into a Zod validator.
pub(crate) struct DojopsZod;

/// How DojOps converts one schema: an `enum` wins over everything, then `type` picks a
/// handler; anything else becomes "any value".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Enum,
    String,
    Number,
    Boolean,
    Array,
    Object,
    Unknown,
}

fn mode(schema: &Node) -> Mode {
    if schema
        .value("enum")
        .and_then(Node::as_seq)
        .is_some_and(|v| !v.is_empty())
    {
        return Mode::Enum;
    }
    match schema.value("type").and_then(Node::as_str) {
        Some("string") => Mode::String,
        Some("number" | "integer") => Mode::Number,
        Some("boolean") => Mode::Boolean,
        Some("array") => Mode::Array,
        Some("object") => Mode::Object,
        _ => Mode::Unknown,
    }
}

impl Runtime for DojopsZod {
    fn reads(&self, schema: &Node, keyword: &str, value: &Node) -> bool {
        match keyword {
            "properties" => mode(schema) == Mode::Object,
            // A tuple-form `items` is not converted, whatever its parent.
            "items" => mode(schema) == Mode::Array && value.entries().is_some(),
            _ => false,
        }
    }

    fn lint(&self, file: &Arc<SourceFile>, site: &Site<'_>) -> Vec<Diagnostic> {
        dropped(file, site)
    }

    fn unknown_type(&self) -> &'static str {
        "DojOps converts a schema whose `type` it does not know into \"any value\": this input is not checked at all"
    }

    fn required_undefined(&self, name: &str) -> String {
        format!(
            "DojOps builds the input object from `properties` alone, so this requirement is silently dropped and an input without `{}` is accepted",
            short(name, 40)
        )
    }

    fn bad_default(&self) -> &'static str {
        "DojOps hands the default to Zod unchecked: a run without this input gets a value its own schema rejects"
    }

    fn remote_ref(&self) -> (&'static str, &'static str) {
        (
            "DojOps does not resolve `$ref` at all: whatever it points at is not enforced at run time",
            "copy the referenced schema into this file, in place of the `$ref`",
        )
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

/// SCH004: keywords of a converted schema that DojOps's conversion drops.
fn dropped(file: &Arc<SourceFile>, site: &Site<'_>) -> Vec<Diagnostic> {
    let schema = site.node;
    let Some(entries) = schema.as_map() else {
        return Vec::new();
    };
    let mode = mode(schema);
    let has_properties = schema
        .value("properties")
        .is_some_and(|p| p.entries().is_some());
    let mut out = Vec::new();
    for e in entries {
        let k = e.key.as_str();
        let kind = vocab::keyword(k).map(|kw| kw.kind);
        let finding = match k {
            "enum" | "description" => None,
            "type" => match (&e.value.kind, mode) {
                (_, Mode::Enum) => None,
                (NodeKind::Seq(_), _) => Some(Dropped::Plain {
                    message: "a list of types is not converted by DojOps".into(),
                    note: "DojOps turns a schema whose `type` is a list into \"any value\": the type is not enforced at run time".into(),
                    help: "use a single type; to make a value optional, leave it out of `required` instead of adding `null`".into(),
                }),
                (NodeKind::String(s), _) if &**s == "null" => Some(Dropped::Plain {
                    message: "`type: null` is not converted by DojOps".into(),
                    note: "DojOps turns a schema of type `null` into \"any value\": the type is not enforced at run time".into(),
                    help: "to make a value optional, leave it out of `required`".into(),
                }),
                _ => None,
            },
            "default" if mode == Mode::Object => Some(Dropped::Plain {
                message: "DojOps ignores `default` on an object schema".into(),
                note: if site.is_property {
                    "the default is never applied, and a property with a `default` is not optional either: an input without it is rejected".into()
                } else {
                    "the default is never applied".into()
                },
                help: "remove it, or give defaults to the object's own properties".into(),
            }),
            "properties" if mode == Mode::Object => None,
            "required" if mode == Mode::Object && has_properties => None,
            "required" if mode == Mode::Object => Some(Dropped::Plain {
                message: "`required` is not converted by DojOps: this object has no `properties`".into(),
                note: "DojOps turns an object without `properties` into a free-form record, so no key is required at run time".into(),
                help: "define the required keys under `properties`".into(),
            }),
            "items" if mode == Mode::Array && e.value.entries().is_some() => None,
            "items" if mode == Mode::Array => Some(Dropped::Plain {
                message: "this form of `items` is not converted by DojOps".into(),
                note: "DojOps converts `items` only when it is one schema: the array's items are not checked at run time".into(),
                help: "give `items` one schema that every item matches".into(),
            }),
            "properties" | "required" | "items" => Some(Dropped::Plain {
                message: format!("`{k}` is not converted by DojOps: {}", context_reason(schema, mode)),
                note: format!("DojOps reads `{k}` only on a schema with `type: {}`, so it is not enforced at run time", if k == "items" { "array" } else { "object" }),
                help: if mode == Mode::Unknown && schema.value("type").is_none() {
                    format!("add `\"type\": \"{}\"`", if k == "items" { "array" } else { "object" })
                } else {
                    "remove it, or fix `type`".into()
                },
            }),
            // Annotations, identifiers and definitions constrain nothing: nothing is lost.
            _ if kind.is_some_and(|kind| !kind.constrains()) => None,
            // DojOps's Zod object strips unknown keys, so none reaches the tool: what
            // `false` asks for, in effect (and what OpenAI strict mode needs, CMP005).
            "additionalProperties" if mode == Mode::Object && matches!(e.value.kind, NodeKind::Bool(false)) => None,
            "minLength" | "maxLength" | "pattern" | "minimum" | "maximum" => {
                if honoured_by_runtime(k, mode) {
                    Some(Dropped::OutsideSpec)
                } else {
                    Some(Dropped::Keyword)
                }
            }
            // A remote `$ref` is already an error of its own (SCH005).
            "$ref" if e.value.as_str().is_some_and(|r| remote_scheme(r).is_some()) => None,
            _ if kind.is_some() => Some(Dropped::Keyword),
            _ => None,
        };
        let Some(finding) = finding else { continue };
        let d = match finding {
            Dropped::Plain { message, note, help } => {
                Diagnostic::new(&rules::KEYWORD_NOT_ENFORCED, file, e.key_span(), message)
                    .label("dropped by DojOps")
                    .note(note)
                    .help(help)
            }
            Dropped::Keyword => {
                let note = if mode == Mode::Unknown {
                    format!("DojOps converts this schema into \"any value\" (it reads only {ZOD_SUBSET}): `{k}` is not enforced at run time")
                } else if mode == Mode::Enum {
                    format!("DojOps converts a schema with `enum` into an enum of strings and reads nothing else: `{k}` is not enforced at run time")
                } else {
                    format!("DojOps converts only {ZOD_SUBSET}: the `{k}` constraint is not enforced at run time")
                };
                Diagnostic::new(
                    &rules::KEYWORD_NOT_ENFORCED,
                    file,
                    e.key_span(),
                    format!("`{k}` is not enforced by DojOps"),
                )
                .label("dropped by DojOps")
                .note(note)
                .help(dropped_help(k))
            }
            Dropped::OutsideSpec => Diagnostic::new(
                &rules::KEYWORD_NOT_ENFORCED,
                file,
                e.key_span(),
                format!("`{k}` is outside DojOps's spec-1 schema subset"),
            )
            .label("not in spec 1")
            .note(format!(
                "current DojOps releases enforce `{k}` here, but spec 1 converts only {ZOD_SUBSET}: a spec-1 runtime drops this constraint"
            ))
            .help("if you target current DojOps releases only, this is safe; otherwise say it in `description` too"),
        };
        out.push(d);
    }
    out
}

/// Current DojOps (not spec 1) applies `minLength`/`maxLength`/`pattern` to strings and
/// `minimum`/`maximum` to numbers and integers.
fn honoured_by_runtime(keyword: &str, mode: Mode) -> bool {
    match keyword {
        "minLength" | "maxLength" | "pattern" => mode == Mode::String,
        "minimum" | "maximum" => mode == Mode::Number,
        _ => false,
    }
}

/// Why `properties`/`required`/`items` are not read on this schema.
fn context_reason(schema: &Node, mode: Mode) -> String {
    match (mode, schema.value("type").and_then(Node::as_str)) {
        (Mode::Enum, _) => "the schema has an `enum`, and DojOps then reads only `enum`, `description` and `default`".into(),
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

#[cfg(test)]
mod tests {
    use super::SCHEMA_OPTIONS;
    use crate::schema::tests::{ODD_INPUTS, lines};

    fn run(text: &str) -> Vec<String> {
        lines(text, SCHEMA_OPTIONS)
    }

    fn codes(text: &str) -> Vec<String> {
        run(text).iter().map(|l| l[..6].to_string()).collect()
    }

    /// DojOps tool spec 1, appendix B: the reference input schema.
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

    #[test]
    fn appendix_b_gives_nothing() {
        assert_eq!(run(APPENDIX_B), Vec::<String>::new());
        assert_eq!(crate::schema::tests::run(APPENDIX_B), Vec::<String>::new());
    }

    #[test]
    fn sch002_nested_levels() {
        let text = r#"{"type": "object", "properties": {
            "o": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["y"]},
            "l": {"type": "array", "items": {"type": "object", "properties": {}, "required": ["z"]}}
        }}"#;
        assert_eq!(codes(text), vec!["SCH002", "SCH002"]);
    }

    #[test]
    fn shared_rules_say_what_dojops_does() {
        let (_, diags) = crate::schema::tests::check_with(
            r#"{"type": "object", "properties": {"a": {"type": "strng"}}, "required": ["b"]}"#,
            SCHEMA_OPTIONS,
        );
        let notes: Vec<&str> = diags
            .iter()
            .flat_map(|d| d.notes.iter().map(|n| n.as_ref()))
            .collect();
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("DojOps converts a schema whose `type`")),
            "{notes:#?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.ends_with("an input without `b` is accepted")),
            "{notes:#?}"
        );
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
        let lines = run(text);
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
        assert_eq!(run(open).len(), 1, "{:#?}", run(open));
        let typed = r#"{"type": "object", "additionalProperties": {"type": "string"}}"#;
        assert_eq!(run(typed).len(), 1, "{:#?}", run(typed));
        assert!(
            crate::schema::tests::run(text).is_empty(),
            "SCH004 only applies to DojOps schemas"
        );
    }

    #[test]
    fn sch004_waits_for_a_valid_type() {
        assert_eq!(
            codes(r#"{"type": "strng", "minLength": 1}"#),
            vec!["SCH001"]
        );
    }

    #[test]
    fn sch004_context_of_conversion() {
        // Current DojOps honours minLength on strings: reported as outside spec 1, not as dropped.
        let lines = run(r#"{"type": "string", "minLength": 1, "maximum": 3}"#);
        assert_eq!(
            lines,
            vec![
                "SCH004 \"minLength\" `minLength` is outside DojOps's spec-1 schema subset",
                "SCH004 \"maximum\" `maximum` is not enforced by DojOps",
            ]
        );
        let lines = run(r#"{"properties": {"a": {"type": "string"}}, "required": ["a"]}"#);
        assert_eq!(
            lines,
            vec![
                "SCH004 \"properties\" `properties` is not converted by DojOps: the schema has no `type`",
                "SCH004 \"required\" `required` is not converted by DojOps: the schema has no `type`",
            ]
        );
        assert_eq!(codes(r#"{"type": ["string", "null"]}"#), vec!["SCH004"]);
        assert_eq!(
            codes(r#"{"type": "object", "required": ["a"]}"#),
            vec!["SCH004"]
        );
        // Below a dropped keyword nothing is converted, so nothing more is reported.
        assert_eq!(
            codes(r#"{"type": "object", "not": {"type": "string", "format": "email"}}"#),
            vec!["SCH004"]
        );
        // A tuple-form `items` is dropped, and nothing below it is converted.
        assert_eq!(
            run(r#"{"type": "array", "items": [{"type": "string", "format": "email"}]}"#),
            vec!["SCH004 \"items\" this form of `items` is not converted by DojOps"]
        );
    }

    #[test]
    fn sch005_remote_ref_is_not_also_dropped() {
        // With DojOps, the remote `$ref` is not also reported as dropped (SCH004).
        assert_eq!(
            codes(r#"{"type": "object", "properties": {"a": {"$ref": "http://x/y"}}}"#),
            vec!["SCH005"]
        );
    }

    #[test]
    fn ref_cycles_terminate() {
        let cycle = r##"{"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},
            "properties": {"x": {"$ref": "#/definitions/a"}, "self": {"$ref": "#"}}, "$ref": "#"}"##;
        let lines = run(cycle);
        assert!(lines.iter().all(|l| l.starts_with("SCH004")), "{lines:#?}");
        assert!(run(r##"{"$ref": "#"}"##).len() == 1);
    }

    #[test]
    fn odd_inputs_never_panic() {
        for text in ODD_INPUTS {
            let _ = run(text);
        }
    }
}
