//! The server names of a cycod scope's `mcp/mcp.json`, read for their keys only: each server's
//! definition is passed over unread, so the file costs its bytes and its names, under the
//! read cap every file has. (It was parsed whole under a cap of its own, 1 MiB, past which
//! the references to its servers went unchecked without a word.)

use std::fmt;
use std::path::Path;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::fs::FileSystem;

/// Server names of the scope's `mcp/mcp.json` (next to `tools/`), sorted, when it exists and
/// reads as an object with a servers object.
pub(super) fn mcp_servers(fs: &dyn FileSystem, tools_folder: &Path) -> Option<Vec<String>> {
    let path = tools_folder.parent()?.join("mcp").join("mcp.json");
    let bytes = fs.read(&path).ok()?;
    let Top(found) = serde_json::from_slice(&bytes).ok()?;
    found?.names
}

/// The servers object, under the key it was found at.
struct Found {
    /// The key, as written.
    key: String,
    /// Its servers' names, sorted; none when its value is not an object.
    names: Option<Vec<String>>,
}

/// The top-level object of `mcp.json`. cycod reads the servers key whatever its case
/// (`McpServers`, `mcpServers`); of several such keys the first in byte order counts, and
/// of one key written twice the last.
struct Top(Option<Found>);

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Top, D::Error> {
        d.deserialize_map(TopVisitor)
    }
}

/// Reads [`Top`].
struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
        let mut found: Option<Found> = None;
        while let Some(key) = map.next_key::<String>()? {
            let first = found.as_ref().is_none_or(|f| key <= f.key);
            if first && key.eq_ignore_ascii_case("mcpservers") {
                let Names(names) = map.next_value()?;
                found = Some(Found { key, names });
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Top(found))
    }
}

/// The keys of the servers object, each server's definition passed over; none when the
/// value is not an object (then nothing is checked against it, whatever other key follows).
struct Names(Option<Vec<String>>);

impl<'de> Deserialize<'de> for Names {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Names, D::Error> {
        d.deserialize_any(NamesVisitor)
    }
}

/// Reads [`Names`].
struct NamesVisitor;

impl<'de> Visitor<'de> for NamesVisitor {
    type Value = Names;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of servers")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Names, A::Error> {
        let mut names = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            map.next_value::<IgnoredAny>()?;
            names.push(name);
        }
        // A name written twice is one server.
        names.sort_unstable();
        names.dedup();
        Ok(Names(Some(names)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Names, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Names(None))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Names, E> {
        Ok(Names(None))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Names, E> {
        Ok(Names(None))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Names, E> {
        Ok(Names(None))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Names, E> {
        Ok(Names(None))
    }

    fn visit_str<E>(self, _: &str) -> Result<Names, E> {
        Ok(Names(None))
    }

    fn visit_unit<E>(self) -> Result<Names, E> {
        Ok(Names(None))
    }
}

#[cfg(test)]
mod tests {
    use super::Top;

    fn names(json: &str) -> Option<Vec<String>> {
        let Top(found) = serde_json::from_str(json).ok()?;
        found?.names
    }

    #[test]
    fn the_servers_key_in_any_case_and_only_its_names() {
        let json = r#"{"other": {"x": 1}, "mcpServers": {"b": {"command": "b"}, "a": {"url": "u"}, "b": {}}}"#;
        assert_eq!(names(json), Some(vec!["a".into(), "b".into()]));
        assert_eq!(
            names(r#"{"McpServers": {"c": {}}, "mcpServers": {"d": {}}}"#),
            Some(vec!["c".into()])
        );
        assert_eq!(
            names(r#"{"mcpServers": {"d": {}}, "McpServers": {"c": {}}}"#),
            Some(vec!["c".into()])
        );
        assert_eq!(names(r#"{"servers": {"c": {}}}"#), None);
        assert_eq!(names(r#"{"mcpServers": [1]}"#), None);
        // The first key in byte order counts, and of one key written twice the last, as a
        // whole reading of the file found them; a value that is not an object checks nothing.
        assert_eq!(
            names(r#"{"mcpServers": [1], "McpServers": {"c": {}}}"#),
            Some(vec!["c".into()])
        );
        assert_eq!(names(r#"{"McpServers": 5, "mcpServers": {"c": {}}}"#), None);
        assert_eq!(
            names(r#"{"mcpServers": null, "mcpServers": {"d": {}}}"#),
            Some(vec!["d".into()])
        );
        assert_eq!(names("[]"), None);
    }
}
