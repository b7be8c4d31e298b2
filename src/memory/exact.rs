//! Lists of a cached item read into room of exactly their length: serde's own reading grows
//! a list by doubling from a small start (its length is not trusted), and a cycod tool of 2
//! million steps decoded its steps' list into twice its room, the peak of its whole check.
//! The length is trusted only as far as the bytes being decoded go: every item takes at
//! least one.

use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};

thread_local! {
    /// How many bytes the item being decoded on this thread has.
    static INPUT: Cell<usize> = const { Cell::new(0) };
}

/// Run `f`, decoding an item of `len` bytes.
pub(crate) fn with_input<R>(len: usize, f: impl FnOnce() -> R) -> R {
    let before = INPUT.with(|cell| cell.replace(len));
    let out = f();
    INPUT.with(|cell| cell.set(before));
    out
}

/// `value` in postcard's bytes, measured first and then written into room of exactly that
/// size: grown by doubling, the bytes of a large item were held in up to twice their room
/// beside the item they are written from (the peak of its check).
pub(crate) fn encode<T: serde::Serialize + ?Sized>(value: &T) -> Option<Vec<u8>> {
    let size = postcard::serialize_with_flavor::<T, _, usize>(
        value,
        postcard::ser_flavors::Size::default(),
    )
    .ok()?;
    postcard::to_extend(value, Vec::with_capacity(size)).ok()
}

struct Items<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Items<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let room = INPUT.with(Cell::get).min(seq.size_hint().unwrap_or(0));
        let mut out = Vec::with_capacity(room);
        while let Some(item) = seq.next_element()? {
            out.push(item);
        }
        Ok(out)
    }
}

/// Read a list.
pub(crate) fn deserialize<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_seq(Items(PhantomData))
}

/// Read a list that may be absent.
pub(crate) fn option<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<Exact<T>>::deserialize(d).map(|o| o.map(|e| e.0))
}

/// A list read by [`deserialize`].
struct Exact<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Exact<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Exact<T>, D::Error> {
        deserialize(d).map(Exact)
    }
}
