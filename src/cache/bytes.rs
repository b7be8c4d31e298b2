//! Encoded results and items written as one run of bytes: serde's own writes a `Vec<u8>`
//! as a list of numbers, read back one by one, and a large repository's archive holds
//! megabytes of them. (A digest, a fixed-size array, is written as its bytes already.)

use serde::de::{Error, Visitor};
use serde::{Deserializer, Serializer};

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
