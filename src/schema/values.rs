//! JSON values inside schemas: their JSON Schema types, JSON equality, and how a value is
//! shown in a message.

use super::vocab;
use crate::source::SourceFile;
use crate::syntax::{MAX_DEPTH, Node, NodeKind, Number};

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
pub(crate) fn declared_types(schema: &Node) -> Option<Vec<&str>> {
    let ty = schema.value("type")?;
    let names: Vec<&str> = match &ty.kind {
        NodeKind::String(s) => vec![&**s],
        NodeKind::Seq(items) => items.iter().map(Node::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    (!names.is_empty() && names.iter().all(|n| vocab::is_type(n))).then_some(names)
}

/// `s` cut to `max` characters, on one line.
pub(crate) fn short(s: &str, max: usize) -> String {
    let one_line = s.replace('\n', "\\n").replace('`', "'");
    if one_line.chars().count() <= max {
        one_line
    } else {
        let cut: String = one_line.chars().take(max).collect();
        format!("{cut}…")
    }
}

/// The `.. found X` part of a message.
pub(crate) fn found(file: &SourceFile, node: &Node) -> String {
    match &node.kind {
        NodeKind::Null => "`null`".to_string(),
        NodeKind::Bool(b) => format!("`{b}`"),
        NodeKind::Number(_) => format!("`{}`", number_text(file, node)),
        NodeKind::String(s) => format!("the string `{}`", short(s, 40)),
        NodeKind::Seq(_) => "a list".to_string(),
        NodeKind::Map(_) => "a mapping".to_string(),
    }
}

/// A number as written in the file (so `1.50` stays `1.50`).
pub(crate) fn number_text(file: &SourceFile, node: &Node) -> String {
    let text = file.slice(node.span()).trim();
    if text.is_empty() {
        node.to_json().to_string()
    } else {
        short(text, 40)
    }
}

/// A value as written, for messages: scalars in full (short), containers by kind.
pub(crate) fn shown(file: &SourceFile, node: &Node) -> String {
    match &node.kind {
        NodeKind::Seq(_) | NodeKind::Map(_) => node.type_name().to_string(),
        NodeKind::String(s) => format!("`\"{}\"`", short(s, 40)),
        NodeKind::Number(_) => format!("`{}`", number_text(file, node)),
        NodeKind::Bool(b) => format!("`{b}`"),
        NodeKind::Null => "`null`".to_string(),
    }
}

/// Type names as code, joined with "or".
pub(crate) fn types_text(types: &[&str]) -> String {
    types
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// A value of JSON Schema type `ty`, in words.
pub(crate) fn article(ty: &str) -> &'static str {
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
pub(crate) fn retype_help(file: &SourceFile, value: &Node, types: &[&str]) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::source::FormatId;
    use crate::syntax::json;

    fn parse(text: &str) -> Node {
        json::parse(text, 0).root.expect("test value parses")
    }

    #[test]
    fn types_follow_json_schema() {
        assert!(has_type(&parse("1.0"), "integer") && !has_type(&parse("1.5"), "integer"));
        assert!(has_type(&parse("3"), "number") && !has_type(&parse("\"3\""), "number"));
        assert!(has_type(&parse("null"), "null") && has_type(&parse("{}"), "object"));
        assert!(!has_type(&parse("[]"), "object"));
    }

    #[test]
    fn equality_is_by_json_value() {
        assert!(json_eq(
            &parse(r#"{"a": 1, "b": [true]}"#),
            &parse(r#"{"b": [true], "a": 1.0}"#),
            0
        ));
        assert!(!json_eq(
            &parse(r#"{"a": 1}"#),
            &parse(r#"{"a": 1, "b": 2}"#),
            0
        ));
        assert!(!json_eq(&parse("\"1\""), &parse("1"), 0));
    }

    #[test]
    fn declared_types_only_when_valid() {
        assert_eq!(
            declared_types(&parse(r#"{"type": ["string", "null"]}"#)),
            Some(vec!["string", "null"])
        );
        assert_eq!(declared_types(&parse(r#"{"type": "strng"}"#)), None);
        assert_eq!(declared_types(&parse(r#"{"type": []}"#)), None);
        assert_eq!(declared_types(&parse("{}")), None);
    }

    #[test]
    fn messages_show_values_as_written() {
        let text = r#"{"n": 1.50, "s": "a`b", "l": [1]}"#;
        let file = SourceFile::new(
            PathBuf::from("s.json"),
            "s.json".into(),
            FormatId::DojopsSchema,
            text.into(),
        );
        let root = parse(text);
        let value = |k: &str| root.value(k).expect("present");
        assert_eq!(shown(&file, value("n")), "`1.50`");
        assert_eq!(found(&file, value("s")), "the string `a'b`");
        assert_eq!(found(&file, value("l")), "a list");
        assert_eq!(short("abcdef", 3), "abc…");
        assert_eq!(
            retype_help(&file, value("n"), &["string"]).as_deref(),
            Some("quote it: `\"1.50\"`")
        );
        assert_eq!(types_text(&["string", "null"]), "`string` or `null`");
    }
}
