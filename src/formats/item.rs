//! A lowered file's typed item, and how the cache keeps it.

use std::any::Any;
use std::sync::{Arc, Mutex, OnceLock};

use crate::source::SourceFile;
use crate::source::file_ref::with_files;

type Boxed = Box<dyn Any + Send + Sync>;

/// A lowered file: the format's own typed item, which only that format (or a reader that
/// names the type) looks into. No central list of item types exists, so a new format adds
/// none. An item read back from the cache stays encoded until something looks into it: a run
/// where nothing changed never decodes most of them.
pub(crate) struct Item(Inner);

enum Inner {
    None,
    Ready(Boxed),
    Encoded(Box<Encoded>),
}

/// Where an encoded item's bytes come from (read from the cache file when it is decoded).
pub(crate) type Fetch = Box<dyn FnOnce() -> Option<Vec<u8>> + Send>;

/// An item as the cache stored it.
struct Encoded {
    /// How to get its bytes, until it is decoded.
    fetch: Mutex<Option<Fetch>>,
    codec: ItemCodec,
    /// The result's files (the file, then its companions), which the item names by place.
    files: Box<[Arc<SourceFile>]>,
    /// What the format's `tool_count` said of it.
    tools: usize,
    decoded: OnceLock<Option<Boxed>>,
}

impl Item {
    /// Nothing usable (unreadable, unparsable).
    pub(crate) fn none() -> Item {
        Item(Inner::None)
    }

    /// A format's typed item.
    pub(crate) fn new<T: Any + Send + Sync>(item: T) -> Item {
        Item(Inner::Ready(Box::new(item)))
    }

    /// An item `codec` encoded as the bytes `fetch` gives, which held `tools` tool
    /// definitions and names the result's `files` by place; fetched and decoded when first
    /// looked into.
    pub(crate) fn encoded(
        codec: ItemCodec,
        fetch: Fetch,
        tools: usize,
        files: Vec<Arc<SourceFile>>,
    ) -> Item {
        Item(Inner::Encoded(Box::new(Encoded {
            fetch: Mutex::new(Some(fetch)),
            codec,
            files: files.into_boxed_slice(),
            tools,
            decoded: OnceLock::new(),
        })))
    }

    /// The item, when it is a `T`.
    pub(crate) fn get<T: Any>(&self) -> Option<&T> {
        self.boxed()?.downcast_ref()
    }

    /// The item to change, when it is a `T` in hand (not one still encoded).
    pub(crate) fn get_mut<T: Any>(&mut self) -> Option<&mut T> {
        match &mut self.0 {
            Inner::Ready(b) => b.downcast_mut(),
            _ => None,
        }
    }

    /// Decode it now, when it came from the cache (callers decode many at once, in
    /// parallel, before a pass that looks into each).
    pub(crate) fn prepare(&self) {
        self.boxed();
    }

    fn boxed(&self) -> Option<&Boxed> {
        match &self.0 {
            Inner::None => None,
            Inner::Ready(b) => Some(b),
            Inner::Encoded(e) => e.decoded.get_or_init(|| e.decode()).as_ref(),
        }
    }

    /// Make the item name `new` in place of the result's files `old` (the same files, held
    /// apart: without their texts), through `codec`, holding `tools` tool definitions. An
    /// item in hand is encoded naming `old` and left to decode naming `new`. False when it
    /// cannot be (it is then as it was).
    pub(crate) fn repoint(
        &mut self,
        codec: ItemCodec,
        old: &[Arc<SourceFile>],
        new: Vec<Arc<SourceFile>>,
        tools: usize,
    ) -> bool {
        match &mut self.0 {
            Inner::None => true,
            Inner::Encoded(e) if e.decoded.get().is_none() => {
                e.files = new.into_boxed_slice();
                true
            }
            _ => {
                let Some(bytes) = codec.encode(self, old) else {
                    return false;
                };
                *self = Item::encoded(codec, Box::new(move || Some(bytes)), tools, new);
                true
            }
        }
    }

    /// Decode it now, when it came from the cache or was repointed, and hold it as a decoded
    /// item: the encoded form's wrapper (its fetch, its files, its count) is let go. A run
    /// without the cache holds one for each file until the report.
    pub(crate) fn decode_now(&mut self) {
        let Inner::Encoded(e) = &mut self.0 else {
            return;
        };
        let decoded = match e.decoded.take() {
            Some(decoded) => decoded,
            None => e.decode(),
        };
        match decoded {
            Some(boxed) => self.0 = Inner::Ready(boxed),
            None => {
                let _ = e.decoded.set(None);
            }
        }
    }

    /// The item by value, when it is a `T`.
    #[cfg(test)]
    pub(crate) fn take<T: Any>(self) -> Option<T> {
        let boxed = match self.0 {
            Inner::None => None,
            Inner::Ready(b) => Some(b),
            Inner::Encoded(e) => {
                let Encoded { decoded, .. } = *e;
                decoded.into_inner()?
            }
        };
        boxed?.downcast().ok().map(|b| *b)
    }

    /// True when the file could not be lowered.
    pub(crate) fn is_none(&self) -> bool {
        matches!(self.0, Inner::None)
    }

    /// The number of tool definitions the item held when it was stored, without decoding it.
    pub(crate) fn stored_tool_count(&self) -> Option<usize> {
        match &self.0 {
            Inner::Encoded(e) => Some(e.tools),
            _ => None,
        }
    }
}

impl Encoded {
    fn decode(&self) -> Option<Boxed> {
        let fetch = self
            .fetch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()?;
        let bytes = fetch()?;
        match with_files(&self.files, || (self.codec.decode)(&bytes))?.0 {
            Inner::Ready(b) => Some(b),
            _ => None,
        }
    }
}

impl std::fmt::Debug for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_none() {
            "Item(none)"
        } else {
            "Item(..)"
        })
    }
}

/// How a format's items are written to the cache and read back. A format opts into the
/// cache by deriving `Serialize` and `Deserialize` on its item type (syntax trees kept as
/// [`crate::syntax::Packed`], `&'static str` and JSON fields through the adapters in
/// this module: `static_str`, `json_option`) and returning `Some(ItemCodec::of::<ItsItem>())` from
/// [`super::Format::cache`]. A format that does not is checked afresh on every run, which is
/// always correct.
#[derive(Clone, Copy)]
pub(crate) struct ItemCodec {
    encode: fn(&Item) -> Option<Vec<u8>>,
    decode: fn(&[u8]) -> Option<Item>,
}

impl ItemCodec {
    /// The codec of items of type `T`.
    pub(crate) fn of<T>() -> ItemCodec
    where
        T: Any + Send + Sync + serde::Serialize + serde::de::DeserializeOwned,
    {
        ItemCodec {
            encode: |item| crate::memory::exact::encode(item.get::<T>()?),
            decode: |bytes| {
                crate::memory::exact::with_input(bytes.len(), || {
                    postcard::from_bytes::<T>(bytes).ok()
                })
                .map(Item::new)
            },
        }
    }

    /// A codec of its own: for a format whose files lower into more than one item type.
    pub(crate) fn new(
        encode: fn(&Item) -> Option<Vec<u8>>,
        decode: fn(&[u8]) -> Option<Item>,
    ) -> ItemCodec {
        ItemCodec { encode, decode }
    }

    /// `item` as bytes, naming the result's `files` (the file, then its companions) by
    /// place; `None` when it is not of the codec's type or names another file.
    pub(crate) fn encode(&self, item: &Item, files: &[Arc<SourceFile>]) -> Option<Vec<u8>> {
        with_files(files, || (self.encode)(item))
    }
}
/// A `&'static str` field of a cached item, under a name serde's derive does not take for a
/// borrow of the input (which a `&'static str` would demand of it).
pub(crate) type StaticStr = &'static str;

/// A `&'static str` field (a namespace, a key name): written as a string, read back as the
/// same text, interned once per distinct value for the life of the process.
pub(crate) mod static_str {
    use std::collections::HashSet;
    use std::sync::Mutex;

    use serde::{Deserialize, Deserializer, Serializer};

    static INTERNED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

    /// Write the text.
    pub(crate) fn serialize<S: Serializer>(value: &&'static str, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value)
    }

    /// Read the text back as a `&'static str`.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
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
pub(crate) mod json_option {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use serde_json::Value;

    /// Write the value, when there is one, as JSON text.
    pub(crate) fn serialize<S: Serializer>(value: &Option<Value>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(&v.to_string()),
            None => s.serialize_none(),
        }
    }

    /// Read the JSON text back.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| serde_json::from_str(&text).map_err(D::Error::custom))
            .transpose()
    }
}
