//! Lints of one subschema that is valid JSON Schema but likely wrong: a `required` name that
//! `properties` does not define (SCH002), and `enum` or `default` values that the schema's own
//! `type` or `enum` rejects (SCH003).

use super::Cx;
use super::values::{
    article, declared_types, has_type, json_eq, retype_help, short, shown, types_text,
};
use super::walk::Site;
use crate::analysis::names::{NameIndex, did_you_mean, did_you_mean_within};
use crate::diagnostics::edits::replace_scalar;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::rules::schema as rules;
use crate::syntax::Node;

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

impl Cx<'_> {
    /// SCH002: `required` names that the sibling `properties` does not define.
    pub(super) fn required_undefined(&mut self, site: &Site<'_>) {
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
                .is_some_and(|a| a.entries().is_some());
        if elsewhere {
            return;
        }
        // Looked up, not searched for among the properties: a schema of many properties and
        // many required names was quadratic.
        let names = NameIndex::new(props.iter().map(|p| p.key.as_str()).collect());
        for item in required {
            let Some(name) = item.as_str() else { continue };
            if names.first(name).is_some() {
                continue;
            }
            if !self.wants(&rules::REQUIRED_PROPERTY_UNDEFINED, item.span()) {
                self.count(&rules::REQUIRED_PROPERTY_UNDEFINED);
                continue;
            }
            let candidates = names.names().iter().copied();
            let hint = did_you_mean_within(&mut self.suggestions, name, props.len(), candidates);
            let note = match self.options.runtime {
                Some(r) => r.required_undefined(name),
                None => "validators then require the key but accept any value for it; usually this is a typo".to_string(),
            };
            let d = Diagnostic::new(
                &rules::REQUIRED_PROPERTY_UNDEFINED,
                self.file,
                item.span(),
                format!(
                    "`{}` is required but not defined in `properties`",
                    short(name, 60)
                ),
            )
            .label("not in `properties`")
            .related(
                self.file,
                props_entry.key_span(),
                "the properties are defined here",
            )
            .note(note)
            .did_you_mean_or(
                hint.map(|h| {
                    let fix = replace_scalar(self.file, item.span(), h, Applicability::Unsafe);
                    DidYouMean::new(h, fix)
                }),
                format!(
                    "add `{}` to `properties`, or remove it from `required`",
                    short(name, 60)
                ),
            );
            self.push(d);
        }
    }

    /// SCH003: `enum` values and `default` that do not match their own schema.
    pub(super) fn own_values(&mut self, site: &Site<'_>) {
        let schema = site.node;
        let file = self.file;
        let types = declared_types(schema);
        let enum_values = schema.value("enum").and_then(Node::as_list);
        if let (Some(types), Some(values)) = (&types, enum_values) {
            for v in values.scan() {
                let v = &*v;
                if types.iter().any(|t| has_type(v, t)) {
                    continue;
                }
                if !self.wants(&rules::VALUE_VIOLATES_OWN_SCHEMA, v.span()) {
                    self.count(&rules::VALUE_VIOLATES_OWN_SCHEMA);
                    continue;
                }
                let d = Diagnostic::new(
                    &rules::VALUE_VIOLATES_OWN_SCHEMA,
                    file,
                    v.span(),
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
        let default_note = self.options.runtime.map_or(
            "validators do not check `default`: a client that fills it in sends a value the schema rejects",
            |r| r.bad_default(),
        );
        if let Some(types) = &types
            && !types.iter().any(|t| has_type(default, t))
        {
            let d = Diagnostic::new(
                &rules::VALUE_VIOLATES_OWN_SCHEMA,
                file,
                default.span(),
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
            && !values.scan().any(|v| json_eq(default, &v, 0))
        {
            let hint = default
                .as_str()
                .and_then(|s| did_you_mean(s, values.strings().map(|(s, _)| s)));
            let listed: Vec<String> = values.scan().take(5).map(|v| shown(file, &v)).collect();
            let more = if values.len() > 5 { ", …" } else { "" };
            let d = Diagnostic::new(
                &rules::VALUE_VIOLATES_OWN_SCHEMA,
                file,
                default.span(),
                format!(
                    "`default` {} is not one of the `enum` values",
                    shown(file, default)
                ),
            )
            .label("not in `enum`")
            .note(default_note)
            .did_you_mean_or(
                hint.map(|h| {
                    let fix = replace_scalar(file, default.span(), h, Applicability::Unsafe);
                    DidYouMean::new(format!("\"{h}\""), fix)
                }),
                format!("use one of {}{more}", listed.join(", ")),
            );
            self.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes, diagnostics, run};
    use super::super::vocab;
    use super::DEFINES_ELSEWHERE;

    #[test]
    fn defines_elsewhere_names_applicators_and_references() {
        for k in DEFINES_ELSEWHERE {
            let kw = vocab::keyword(k).expect("a JSON Schema keyword");
            assert!(kw.kind.constrains(), "{k}");
        }
    }

    #[test]
    fn sch002_required_not_in_properties() {
        let text = r#"{"type": "object", "properties": {"region": {"type": "string"}}, "required": ["regoin"]}"#;
        let (file, diags) = diagnostics(text);
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].rule.code, "SCH002");
        assert_eq!(file.slice(diags[0].span), "\"regoin\"");
        assert_eq!(diags[0].help.as_deref(), Some("did you mean `region`?"));
        assert_eq!(file.slice(diags[0].related[0].span), "\"properties\"");
    }

    #[test]
    fn sch002_nested_levels_without_a_runtime() {
        let text = r#"{"type": "object", "properties": {
            "o": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["y"]},
            "l": {"type": "array", "items": {"type": "object", "properties": {}, "required": ["z"]}}
        }}"#;
        assert_eq!(codes(text), vec!["SCH002", "SCH002"]);
    }

    #[test]
    fn sch002_silent_when_defined_or_composed() {
        assert!(codes(r#"{"properties": {"a": {}}, "required": ["a"]}"#).is_empty());
        assert!(codes(r#"{"required": ["a"]}"#).is_empty());
        assert!(codes(r#"{"properties": {"a": {}}, "allOf": [{"properties": {"b": {}}}], "required": ["b"]}"#).is_empty());
        assert!(codes(r#"{"properties": {}, "additionalProperties": {"type": "string"}, "required": ["b"]}"#).is_empty());
    }

    #[test]
    fn sch003_default_and_enum_against_type() {
        let text = r#"{"type": "object", "properties": {
            "port": {"type": "integer", "default": "8080"},
            "mode": {"type": "string", "enum": ["fast", 2]},
            "region": {"type": "string", "enum": ["eu-west-1", "us-east-1"], "default": "eu-west1"}
        }}"#;
        let lines = run(text);
        assert_eq!(
            lines,
            vec![
                "SCH003 \"8080\" `default` is a string, but `type` is `integer`",
                "SCH003 2 `enum` value `2` is an integer, but `type` is `string`",
                "SCH003 \"eu-west1\" `default` `\"eu-west1\"` is not one of the `enum` values",
            ]
        );
        let (_, diags) = diagnostics(text);
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
        assert!(codes(r#"{"type": "integer", "default": 1.0, "enum": [1.0, 2]}"#).is_empty());
        assert_eq!(
            codes(r#"{"type": "integer", "default": 1.5}"#),
            vec!["SCH003"]
        );
        assert!(codes(r#"{"type": "number", "enum": [1, 2.5], "default": 2.5}"#).is_empty());
        assert!(codes(r#"{"type": ["string", "null"], "default": null}"#).is_empty());
        assert!(codes(r#"{"enum": [1, 2], "default": 1.0}"#).is_empty());
    }
}
