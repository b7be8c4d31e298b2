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

/// A run of bytes (an encoded result or item), written as one.
#[derive(Clone)]
pub(super) struct Blob(pub Vec<u8>);

impl serde::Serialize for Blob {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Blob {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Blob, D::Error> {
        d.deserialize_bytes(Run)
    }
}

/// Reads a run of bytes into a [`Blob`].
struct Run;

impl<'de> Visitor<'de> for Run {
    type Value = Blob;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("bytes")
    }
    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Blob, E> {
        Ok(Blob(v.to_vec()))
    }
}
