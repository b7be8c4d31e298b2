//! JSON values inside schemas: their JSON Schema types, JSON equality, and how a value is
//! shown in a message.

use super::vocab;
use crate::source::SourceFile;
use std::collections::HashMap;

use crate::syntax::{Entry, MAX_DEPTH, Node, NodeKind, Number};

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
        (NodeKind::Map(x), NodeKind::Map(y)) if x.len() != y.len() => false,
        (NodeKind::Map(x), NodeKind::Map(y)) if x.len() <= SMALL_MAP => x.iter().all(|ex| {
            y.iter()
                .any(|ey| ex.key == ey.key && json_eq(&ex.value, &ey.value, depth + 1))
        }),
        (NodeKind::Map(x), NodeKind::Map(y)) => {
            // Each key looked up among the other's sorted keys, not compared with all of
            // them: two mappings of 100,000 keys took 8 s.
            let mut keys: Vec<&Entry> = y.iter().collect();
            keys.sort_unstable_by(|a, b| a.key.cmp(&b.key));
            x.iter().all(|ex| {
                let from = keys.partition_point(|ey| ey.key < ex.key);
                keys[from..]
                    .iter()
                    .take_while(|ey| ey.key == ex.key)
                    .any(|ey| json_eq(&ex.value, &ey.value, depth + 1))
            })
        }
        _ => false,
    }
}

/// Up to how many keys two mappings are compared key by key.
const SMALL_MAP: usize = 16;

/// The first of `items` equal ([`json_eq`]) to one before it. Items are grouped by a hash
/// that equal values share (keyed afresh each run, so a file cannot aim for collisions) and
/// compared only within a group: a `required` of 200,000 names took 50 s.
pub(crate) fn first_repeat(items: &[Node]) -> Option<&Node> {
    use std::hash::BuildHasher;
    let keyed = std::collections::hash_map::RandomState::new();
    let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let mut hasher = keyed.build_hasher();
        hash_value(item, 0, &keyed, &mut hasher);
        let group = groups
            .entry(std::hash::Hasher::finish(&hasher))
            .or_default();
        if group.iter().any(|&j| json_eq(item, &items[j], 0)) {
            return Some(item);
        }
        group.push(i);
    }
    None
}

/// Feed `value` to `hasher` so that values [`json_eq`] calls equal hash alike: numbers by
/// their value as a float, a mapping's entries whatever their order.
fn hash_value(
    value: &Node,
    depth: usize,
    keyed: &std::collections::hash_map::RandomState,
    hasher: &mut impl std::hash::Hasher,
) {
    use std::hash::{BuildHasher, Hash};
    if depth > MAX_DEPTH {
        return;
    }
    match &value.kind {
        NodeKind::Null => 0u8.hash(hasher),
        NodeKind::Bool(b) => (1u8, b).hash(hasher),
        NodeKind::String(s) => (2u8, &**s).hash(hasher),
        NodeKind::Number(n) => {
            let f = match n {
                Number::Int(i) => *i as f64,
                Number::Float(f) => *f,
            };
            // 0.0 and -0.0 are equal.
            (3u8, if f == 0.0 { 0 } else { f.to_bits() }).hash(hasher);
        }
        NodeKind::Seq(items) => {
            (4u8, items.len()).hash(hasher);
            for item in items.iter() {
                hash_value(item, depth + 1, keyed, hasher);
            }
        }
        NodeKind::Map(entries) => {
            // Order does not count: the entries' own hashes are summed.
            let mut sum = 0u64;
            for e in entries.iter() {
                let mut one = keyed.build_hasher();
                e.key.as_str().hash(&mut one);
                hash_value(&e.value, depth + 1, keyed, &mut one);
                sum = sum.wrapping_add(std::hash::Hasher::finish(&one));
            }
            (5u8, entries.len(), sum).hash(hasher);
        }
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

    /// Equal values are found repeated whatever their numbers' spelling or their keys'
    /// order, small mappings or large; values that differ are not.
    #[test]
    fn repeats_and_equality_follow_json() {
        let repeat = |text: &str| {
            let list = parse(text);
            first_repeat(list.as_seq().unwrap_or_default()).map(|n| n.span().start)
        };
        assert_eq!(repeat(r#"[1, "a", 1.0]"#), Some(9));
        assert_eq!(
            repeat(r#"[{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]"#),
            Some(21)
        );
        assert_eq!(repeat(r#"[0.0, -0.0]"#), Some(6));
        assert_eq!(repeat(r#"[1, "1", true, null, [1], {"1": 1}]"#), None);
        let map = |last: i32| {
            let mut keys: Vec<String> = (0..40).map(|i| format!(r#""k{i}": {i}"#)).collect();
            keys.push(format!(r#""last": {last}"#));
            parse(&format!("{{{}}}", keys.join(", ")))
        };
        assert!(json_eq(&map(1), &map(1), 0));
        assert!(!json_eq(&map(1), &map(2), 0));
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
