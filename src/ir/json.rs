//! A JSON value read from a schema's compact text, borrowing its strings: what the provider
//! rules and the bundle writers walk. A `serde_json::Value` of a schema took eleven times the
//! bytes of its text (a tree map of eleven slots for each small object), so one tool of
//! 100,000 parameters took 80 MB to check for Gemini, and its converted copy 64 MB more.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Number;

/// A JSON value; an object keeps its members in the order of the text (sorted, in a schema's
/// canonical text).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as `serde_json` reads it.
    Number(Number),
    /// A string, borrowed unless it held an escape.
    String(Cow<'a, str>),
    /// An array.
    Array(Box<[Json<'a>]>),
    /// An object's members.
    Object(Box<[Member<'a>]>),
}

/// One member of an object: its key and value.
pub(crate) type Member<'a> = (Cow<'a, str>, Json<'a>);

impl<'a> Json<'a> {
    /// The value read from `text`; `Null` when it is not JSON (a schema's text always is).
    pub(crate) fn parse(text: &'a str) -> Json<'a> {
        // As deep as any tree the parsers build (200 levels), beyond serde_json's own 128.
        let mut reader = serde_json::Deserializer::from_str(text);
        reader.disable_recursion_limit();
        Json::deserialize(&mut reader).unwrap_or(Json::Null)
    }

    /// An object of `members`, sorted by key as a schema's canonical text is; of two members
    /// with one key, the later is kept (as inserting into a map would).
    pub(crate) fn object(mut members: Vec<Member<'a>>) -> Json<'a> {
        members.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept: Vec<Member<'a>> = Vec::with_capacity(members.len());
        for member in members {
            match kept.last_mut() {
                Some(last) if last.0 == member.0 => *last = member,
                _ => kept.push(member),
            }
        }
        Json::Object(kept.into_boxed_slice())
    }

    /// The value of `key`, when this is an object that has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        // A schema object holds a few keywords; a map of properties is walked, not asked.
        self.as_object()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The members, when this is an object.
    pub(crate) fn as_object(&self) -> Option<&[Member<'a>]> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The items, when this is an array.
    pub(crate) fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The text, when this is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is a string.
    pub(crate) fn is_string(&self) -> bool {
        matches!(self, Json::String(_))
    }

    /// Whether this is an object.
    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }
}

impl From<serde_json::Value> for Json<'static> {
    fn from(value: serde_json::Value) -> Self {
        use serde_json::Value;
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(Cow::Owned(s)),
            Value::Array(items) => Json::Array(items.into_iter().map(Json::from).collect()),
            Value::Object(map) => Json::Object(
                map.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Json::from(v)))
                    .collect(),
            ),
        }
    }
}

impl fmt::Display for Json<'_> {
    /// Compact JSON, as `serde_json::Value` writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key.as_ref(), value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json<'de>, E> {
        Ok(Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(s)))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items.into_boxed_slice()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut members = Vec::new();
        while let Some(Key(key)) = map.next_key()? {
            members.push((key, map.next_value()?));
        }
        Ok(Json::Object(members.into_boxed_slice()))
    }
}

/// An object's key, borrowed from the text unless it held an escape (serde's own `Cow`
/// always copies).
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }

            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }

            fn visit_string<E: de::Error>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_writes_back_what_serde_json_wrote() {
        let value = serde_json::json!({
            "type": "object",
            "properties": {"a\"b": {"enum": ["x", 1, 2.5, -3, null, true]}, "c": {}},
            "required": ["a\"b"],
        });
        let text = value.to_string();
        let tree = Json::parse(&text);
        assert_eq!(tree.to_string(), text);
        assert_eq!(tree.get("type").and_then(Json::as_str), Some("object"));
        let props = tree.get("properties").and_then(Json::as_object);
        // The escaped key is the one copied.
        assert!(matches!(props.map(|p| &p[0].0), Some(Cow::Owned(k)) if k == "a\"b"));
        assert!(matches!(props.map(|p| &p[1].0), Some(Cow::Borrowed("c"))));
    }

    #[test]
    fn an_object_is_sorted_and_keeps_the_later_of_one_key() {
        let members = vec![
            ("type".into(), Json::Bool(false)),
            ("nullable".into(), Json::Null),
            ("type".into(), Json::Bool(true)),
        ];
        assert_eq!(
            Json::object(members).to_string(),
            r#"{"nullable":null,"type":true}"#
        );
    }
}
