//! Parts of an item that a check does not need, kept out of its way: a syntax tree parsed
//! again from its file when the bundles ask for it ([`Later`]), and likewise any other part
//! ([`Again`]).

use std::sync::OnceLock;

use serde::de::Deserializer;
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::{Node, Packed};

/// A tree that is not kept: its file had one when it was checked, and it is parsed again
/// from the file's text when something asks for it (a bundle, a CMP rule). A run that only
/// checks never holds these trees, and the cache does not store them.
#[derive(Debug, Default)]
pub(crate) struct Later {
    /// The file had a tree.
    exists: bool,
    tree: OnceLock<Option<Packed>>,
}

impl Later {
    /// A tree there is (`exists`) or is not.
    pub(crate) fn new(exists: bool) -> Later {
        Later {
            exists,
            tree: OnceLock::new(),
        }
    }

    /// The tree: the first time, `have` (a tree of the file still in hand) or else what
    /// `parse` gives.
    pub(crate) fn get_or_pack(
        &self,
        have: Option<&Node>,
        parse: impl FnOnce() -> Option<Node>,
    ) -> Option<&Packed> {
        if !self.exists {
            return None;
        }
        self.tree
            .get_or_init(|| match have {
                Some(n) => Some(Packed::pack(n)),
                None => parse().map(|n| Packed::pack(&n)),
            })
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

/// A part of an item only the bundles read (a manifest's description, tags, files), worked
/// out again from its file when they ask for it, as a [`Later`] tree is: kept as it is when
/// the file is loaded, but neither stored in the cache nor kept once the item has been
/// through its encoding (a check never reads it, and every tool's item is held).
pub(crate) struct Again<T> {
    // Boxed: an item holding it stays small until it is worked out.
    value: OnceLock<Option<Box<T>>>,
}

impl<T> Again<T> {
    /// `value`, worked out already.
    pub(crate) fn new(value: T) -> Again<T> {
        Again {
            value: OnceLock::from(Some(Box::new(value))),
        }
    }

    /// The value, worked out by `make` the first time (none when it cannot be).
    pub(crate) fn get_or_make(&self, make: impl FnOnce() -> Option<T>) -> Option<&T> {
        self.value.get_or_init(|| make().map(Box::new)).as_deref()
    }
}

impl<T> Default for Again<T> {
    fn default() -> Again<T> {
        Again {
            value: OnceLock::new(),
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Again<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value.get() {
            Some(v) => v.fmt(f),
            None => f.write_str("Again(..)"),
        }
    }
}

impl<T> Serialize for Again<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de, T> Deserialize<'de> for Again<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Again<T>, D::Error> {
        <()>::deserialize(deserializer).map(|()| Again::default())
    }
}

#[cfg(test)]
mod tests {
    use super::Again;

    #[test]
    fn a_value_is_worked_out_again_after_a_round_trip() {
        let a = Again::new((Some("v1".to_string()), vec![3u32, 4]));
        assert_eq!(
            a.get_or_make(|| None),
            Some(&(Some("v1".to_string()), vec![3, 4]))
        );
        let bytes = postcard::to_allocvec(&a).unwrap();
        assert!(bytes.is_empty(), "nothing is stored");
        let back: Again<(Option<String>, Vec<u32>)> = postcard::from_bytes(&bytes).unwrap();
        let made = back.get_or_make(|| Some((None, vec![5])));
        assert_eq!(made, Some(&(None, vec![5])));
        // Worked out once.
        assert_eq!(back.get_or_make(|| None), Some(&(None, vec![5])));
    }
}
