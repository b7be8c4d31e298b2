//! Which `tools.json` files are agentcli manifests: thousands of repositories have a root
//! `tools.json` of another kind (an MCP tool list, a documentation server's configuration).

use std::fmt;

use serde::Deserializer;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// True when `text` has a manifest's shape: an object whose `tools` is a list with at least
/// one object whose `command` is a list (keys matched case-insensitively, as agentcli's
/// decoder does, the last match winning), or such a list on its own — a manifest missing its
/// `{"tools": ...}` wrapper, which agentcli refuses whole and toolc must say so. Text that is
/// not valid JSON is a manifest when it names both keys, so a manifest broken by a stray
/// comma is still reported.
///
/// The shape is read as the text streams by, keeping nothing: a file of millions of values
/// costs no memory to tell apart (a tree of it took 28 times its size).
pub(super) fn is_manifest(text: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(text);
    match de.deserialize_any(Shape::Root).and_then(|found| {
        de.end()?;
        Ok(found)
    }) {
        Ok(found) => found == Some(true),
        Err(_) => text.contains("\"tools\"") && text.contains("\"command\""),
    }
}

/// What a value is looked at as; each answers `Some(true)` when it has the shape wanted,
/// `None` when it is not the kind of value the shape needs at all.
#[derive(Clone, Copy)]
enum Shape {
    /// The whole file: `{"tools": LIST}` or a `LIST` alone.
    Root,
    /// A list with at least one [`Shape::Tool`].
    List,
    /// An object whose `command` is a list.
    Tool,
    /// Any list.
    AnyList,
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = Option<bool>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<bool>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Shape {
    type Value = Option<bool>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<bool>, A::Error> {
        let item = match self {
            Shape::Root | Shape::List => Some(Shape::Tool),
            Shape::Tool => None,
            Shape::AnyList => {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                return Ok(Some(true));
            }
        };
        let mut any = false;
        match item {
            Some(shape) => {
                while let Some(found) = seq.next_element_seed(shape)? {
                    any |= found == Some(true);
                }
            }
            None => while seq.next_element::<IgnoredAny>()?.is_some() {},
        }
        Ok(matches!(self, Shape::Root | Shape::List).then_some(any))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<bool>, A::Error> {
        let wanted = match self {
            Shape::Root => Some(("tools", Shape::List)),
            Shape::Tool => Some(("command", Shape::AnyList)),
            Shape::List | Shape::AnyList => None,
        };
        let mut found = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match wanted {
                Some((name, shape)) if key.eq_ignore_ascii_case(name) => {
                    found = map.next_value_seed(shape)?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(wanted.map(|_| found == Some(true)))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Option<bool>, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Option<bool>, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Option<bool>, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Option<bool>, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Option<bool>, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Option<bool>, E> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::is_manifest;

    #[test]
    fn manifests_and_other_tools_json() {
        assert!(is_manifest(
            r#"{"tools": [{"name": "a", "command": ["./tools/bin/a"]}]}"#
        ));
        assert!(is_manifest(r#"{"Tools": [{"Command": []}, 3]}"#));
        // Broken JSON that names both keys is still read, and reported.
        assert!(is_manifest(r#"{"tools": [{"command": ["x"],}]}"#));
        // An MCP tool list, a doc server's configuration, an empty object.
        assert!(!is_manifest(
            r#"[{"name": "getTopStories", "arguments": []}]"#
        ));
        assert!(!is_manifest(
            r#"{"tools": [{"name": "q", "title": "Q", "docType": "x"}]}"#
        ));
        assert!(!is_manifest("{}"));
        // The tool list without its wrapper: agentcli fails on it, so toolc reads it.
        assert!(is_manifest(
            r#"[{"name": "a", "command": ["./tools/bin/a"]}]"#
        ));
        assert!(!is_manifest(""));
        assert!(!is_manifest(r#"{"tools": [{"command": "./run"}]}"#));
    }
}
