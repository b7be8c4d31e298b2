//! Parts of an item that a check does not need, kept out of its way: a syntax tree parsed
//! again from its file when the bundles ask for it ([`Later`]), a part left encoded until
//! then ([`Deferred`]).

use std::sync::OnceLock;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::{Node, Packed};

/// A tree that is not kept: its file had one when it was checked, and it is parsed again
/// from the file's text when something asks for it (a bundle, a CMP rule). A run that only
/// checks never holds these trees, and the cache does not store them.
#[derive(Debug, Default)]
pub struct Later {
    /// The file had a tree.
    exists: bool,
    tree: OnceLock<Option<Packed>>,
}

impl Later {
    /// A tree there is (`exists`) or is not.
    pub fn new(exists: bool) -> Later {
        Later {
            exists,
            tree: OnceLock::new(),
        }
    }

    /// The tree, parsed by `parse` the first time.
    pub fn get_or_parse(&self, parse: impl FnOnce() -> Option<Node>) -> Option<&Packed> {
        if !self.exists {
            return None;
        }
        self.tree
            .get_or_init(|| parse().map(|n| Packed::pack(&n)))
            .as_ref()
    }
}

impl Clone for Later {
    fn clone(&self) -> Later {
        Later::new(self.exists)
    }
}

impl Serialize for Later {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(self.exists)
    }
}

impl<'de> Deserialize<'de> for Later {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Later, D::Error> {
        bool::deserialize(deserializer).map(Later::new)
    }
}

/// A part of an item only the bundles read (a manifest's description, tags, files), kept
/// as it is when the file is loaded but, read back from the cache, left encoded until the
/// bundles ask for it: a check that only resolves names never decodes it.
pub struct Deferred<T> {
    // Boxed: an item holding it stays small until it is decoded.
    value: OnceLock<Option<Box<T>>>,
    /// The encoded value, until it is decoded.
    bytes: std::sync::Mutex<Option<Box<[u8]>>>,
}

impl<T> Deferred<T> {
    /// `value`, decoded already.
    pub fn new(value: T) -> Deferred<T> {
        Deferred {
            value: OnceLock::from(Some(Box::new(value))),
            bytes: std::sync::Mutex::new(None),
        }
    }
}

impl<T: serde::de::DeserializeOwned> Deferred<T> {
    /// The value, decoded the first time (none when its bytes do not decode).
    pub fn get(&self) -> Option<&T> {
        self.value
            .get_or_init(|| {
                let bytes = self
                    .bytes
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()?;
                postcard::from_bytes(&bytes).ok().map(Box::new)
            })
            .as_deref()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value.get() {
            Some(v) => v.fmt(f),
            None => f.write_str("Deferred(..)"),
        }
    }
}

impl<T: Serialize> Serialize for Deferred<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = match self.value.get() {
            // The value itself (not the `Option` it is kept in), as `get` decodes it.
            Some(Some(v)) => postcard::to_allocvec(&**v).map_err(serde::ser::Error::custom)?,
            // Bytes that did not decode: none that would.
            Some(None) => Vec::new(),
            None => self
                .bytes
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_deref()
                .map(<[u8]>::to_vec)
                .unwrap_or_default(),
        };
        serializer.serialize_bytes(&bytes)
    }
}

impl<'de, T> Deserialize<'de> for Deferred<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Deferred<T>, D::Error> {
        struct Bytes;
        impl<'de> Visitor<'de> for Bytes {
            type Value = Box<[u8]>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an encoded value")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Box<[u8]>, E> {
                Ok(v.into())
            }
        }
        let bytes = deserializer.deserialize_bytes(Bytes)?;
        Ok(Deferred {
            value: OnceLock::new(),
            bytes: std::sync::Mutex::new(Some(bytes)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Deferred;

    #[test]
    fn a_deferred_value_reads_back_after_a_round_trip() {
        let d = Deferred::new((Some("v1".to_string()), vec![3u32, 4]));
        let bytes = postcard::to_allocvec(&d).unwrap();
        let back: Deferred<(Option<String>, Vec<u32>)> = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back.get(), Some(&(Some("v1".to_string()), vec![3, 4])));
        let again = postcard::to_allocvec(&back).unwrap();
        let back: Deferred<(Option<String>, Vec<u32>)> = postcard::from_bytes(&again).unwrap();
        assert_eq!(back.get(), Some(&(Some("v1".to_string()), vec![3, 4])));
    }
}
