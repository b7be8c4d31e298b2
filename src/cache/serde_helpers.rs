//! Serde adapters for the few field types a cached item holds that the binary cache format
//! cannot read back as they are: `&'static str` names and JSON values.

/// A `&'static str` field of a cached item, under a name serde's derive does not take for a
/// borrow of the input (which a `&'static str` would demand of it).
pub type StaticStr = &'static str;

/// A `&'static str` field (a namespace, a key name): written as a string, read back as the
/// same text, interned once per distinct value for the life of the process.
pub mod static_str {
    use std::collections::HashSet;
    use std::sync::Mutex;

    use serde::{Deserialize, Deserializer, Serializer};

    static INTERNED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

    /// Write the text.
    pub fn serialize<S: Serializer>(value: &&'static str, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value)
    }

    /// Read the text back as a `&'static str`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
        let text = String::deserialize(d)?;
        Ok(intern(text))
    }

    fn intern(text: String) -> &'static str {
        let mut set = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
        let set = set.get_or_insert_with(HashSet::new);
        if let Some(known) = set.get(text.as_str()) {
            return known;
        }
        // Bounded by the distinct values in the cache (a few format and key names).
        let leaked: &'static str = Box::leak(text.into_boxed_str());
        set.insert(leaked);
        leaked
    }
}

/// An `Option<serde_json::Value>` field, written as JSON text (the binary format cannot
/// describe an arbitrary value by itself).
pub mod json_option {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use serde_json::Value;

    /// Write the value, when there is one, as JSON text.
    pub fn serialize<S: Serializer>(value: &Option<Value>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(&v.to_string()),
            None => s.serialize_none(),
        }
    }

    /// Read the JSON text back.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| serde_json::from_str(&text).map_err(D::Error::custom))
            .transpose()
    }
}

/// A digest or check field written as one run of bytes (serde's own writes one number per
/// byte, read back one by one: the index of a large repository holds hundreds of thousands).
pub mod digest {
    use serde::{Deserializer, Serializer};

    /// Write the bytes.
    pub fn serialize<S: Serializer, const N: usize>(
        value: &[u8; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(value)
    }

    /// Read the bytes back.
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        d: D,
    ) -> Result<[u8; N], D::Error> {
        struct Bytes<const N: usize>;
        impl<'de, const N: usize> serde::de::Visitor<'de> for Bytes<N> {
            type Value = [u8; N];
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{N} bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<[u8; N], E> {
                v.try_into().map_err(|_| E::invalid_length(v.len(), &self))
            }
        }
        d.deserialize_bytes(Bytes::<N>)
    }
}
