//! Byte fields (digests, encoded results) written as one run of bytes: serde's own writes a
//! list of numbers, read back one by one, and a large repository's archive holds megabytes.

use serde::de::{Error, Visitor};
use serde::{Deserializer, Serializer};

/// Write the bytes.
pub(super) fn serialize<S: Serializer, const N: usize>(
    value: &[u8; N],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(value)
}

/// Read `N` bytes back (into the array itself: a digest per path, no allocation each).
pub(super) fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
    d: D,
) -> Result<[u8; N], D::Error> {
    d.deserialize_bytes(Array::<N>)
}

/// Reads a run of exactly `N` bytes.
struct Array<const N: usize>;

impl<'de, const N: usize> Visitor<'de> for Array<N> {
    type Value = [u8; N];
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a digest")
    }
    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<[u8; N], E> {
        v.try_into()
            .map_err(|_| E::invalid_length(v.len(), &"a digest"))
    }
}

/// Reads a run of bytes into a `Vec`.
struct Bytes;

impl<'de> Visitor<'de> for Bytes {
    type Value = Vec<u8>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("bytes")
    }
    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
        Ok(v.to_vec())
    }
}

/// An optional run of bytes.
pub(super) mod option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// A run of bytes inside an option, as written.
    struct Written<'a>(&'a [u8]);

    impl Serialize for Written<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }

    /// A run of bytes inside an option, as read.
    struct Read(Vec<u8>);

    impl<'de> Deserialize<'de> for Read {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Read, D::Error> {
            d.deserialize_bytes(super::Bytes).map(Read)
        }
    }

    /// Write the bytes, when there are any.
    pub(crate) fn serialize<S: Serializer>(
        value: &Option<Vec<u8>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_deref().map(Written).serialize(s)
    }

    /// Read them back.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<u8>>, D::Error> {
        Ok(Option::<Read>::deserialize(d)?.map(|r| r.0))
    }
}
