//! The entries of a mapping ([`Map`]). A long mapping is held in the packed form of
//! [`super::Packed`], as a long list is ([`super::Seq`]): an entry as a node takes 56 bytes
//! and its own allocation for a mapping below it, so a skill's `metadata` of 40,000 lines
//! `kN: {a, b, c, …}` took eighteen times its text, and 40,000 values nested forty deep
//! (`{"a": {"a": …}}`) eleven times. Packed, an entry takes about its text. Readers of the
//! entries one by one ([`Map::scan`]) build one entry at a time; readers that want a slice
//! see one as before (built the first time one is asked for, and kept beside the bytes).

use super::Entry;
use super::body::Body;
use super::packed::{Reader, Writer};
use super::repeats::Repeats;
use super::seq::PACK_FROM;
use crate::memory::Chunked;
use crate::source::Span;
use std::borrow::Cow;
use std::ops::Deref;

/// The entries of a mapping, in source order, keys unique.
pub(crate) struct Map(Repr);

enum Repr {
    Entries(Box<[Entry]>),
    // Boxed: a `Map` stays the size of a boxed slice, so a `Node` does not grow.
    Packed(Box<Body<Entry>>),
}

impl Map {
    /// How many entries.
    pub(crate) fn len(&self) -> usize {
        match &self.0 {
            Repr::Entries(entries) => entries.len(),
            Repr::Packed(packed) => packed.len,
        }
    }

    /// True when there is no entry.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries one by one, without building a packed mapping's.
    pub(crate) fn scan(&self) -> Scan<'_> {
        match &self.0 {
            Repr::Entries(entries) => Scan(Items::Entries(entries.iter())),
            Repr::Packed(packed) => Scan(match packed.built() {
                Some(entries) => Items::Entries(entries.iter()),
                None => Items::Packed {
                    reader: packed.reader(),
                    left: packed.len,
                },
            }),
        }
    }

    /// The entries when they are held (or were built), else a reader at the first packed
    /// one and how many there are: what [`super::NodeAt`] reads without building.
    pub(super) fn held_or_packed(&self) -> Result<&[Entry], (Reader<'_>, usize)> {
        match &self.0 {
            Repr::Entries(entries) => Ok(entries),
            Repr::Packed(packed) => match packed.built() {
                Some(entries) => Ok(entries),
                None => Err((packed.reader(), packed.len)),
            },
        }
    }

    /// The entry of `key`, found without building a packed mapping's entries.
    pub(crate) fn find(&self, key: &str) -> Option<Cow<'_, Entry>> {
        self.scan().find(|e| e.key == key)
    }

    /// The entries in the order of their keys, one at a time: a packed mapping's are put in
    /// order by where they are written (eight bytes an entry), not built.
    pub(crate) fn sorted(&self) -> impl Iterator<Item = Cow<'_, Entry>> {
        let (held, packed) = match &self.0 {
            Repr::Packed(packed) if packed.built().is_none() => (Vec::new(), Some(&**packed)),
            _ => {
                let mut held: Vec<&Entry> = self.iter().collect();
                held.sort_unstable_by(|a, b| a.key.as_str().cmp(b.key.as_str()));
                (held, None)
            }
        };
        let places = packed
            .map(|p| p.reader().places_by_key(p.len))
            .unwrap_or_default();
        let read = move |&(at, last): &(u32, u32)| {
            let bytes = &packed?.bytes;
            Reader::resume(bytes, (at as usize, last as usize)).entry(1)
        };
        let packed = places.into_iter().map_while(move |place| read(&place));
        held.into_iter()
            .map(Cow::Borrowed)
            .chain(packed.map(Cow::Owned))
    }

    /// The packed entries' bytes, when they are packed relative to offset `from` (the
    /// mapping's start), and the start of the last span in them.
    pub(super) fn packed_from(&self, from: usize) -> Option<(&[u8], usize)> {
        match &self.0 {
            Repr::Packed(packed) => packed.packed_from(from),
            Repr::Entries(_) => None,
        }
    }
}

impl Deref for Map {
    type Target = [Entry];

    fn deref(&self) -> &[Entry] {
        match &self.0 {
            Repr::Entries(entries) => entries,
            Repr::Packed(packed) => packed.slice(|reader| reader.entry(1)),
        }
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = &'a Entry;
    type IntoIter = std::slice::Iter<'a, Entry>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl From<Vec<Entry>> for Map {
    fn from(entries: Vec<Entry>) -> Map {
        Map(Repr::Entries(entries.into_boxed_slice()))
    }
}

impl Default for Map {
    fn default() -> Map {
        Map(Repr::Entries(Box::default()))
    }
}

impl Clone for Map {
    fn clone(&self) -> Map {
        match &self.0 {
            Repr::Entries(entries) => Map(Repr::Entries(entries.clone())),
            Repr::Packed(packed) => Map(Repr::Packed(packed.clone())),
        }
    }
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.scan().zip(other.scan()).all(|(a, b)| a == b)
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.scan()).finish()
    }
}

/// The entries of a [`Map`], borrowed where they are held, read one at a time where packed.
pub(crate) struct Scan<'a>(Items<'a>);

enum Items<'a> {
    Entries(std::slice::Iter<'a, Entry>),
    Packed { reader: Reader<'a>, left: usize },
}

impl<'a> Iterator for Scan<'a> {
    type Item = Cow<'a, Entry>;

    fn next(&mut self) -> Option<Cow<'a, Entry>> {
        match &mut self.0 {
            Items::Entries(entries) => entries.next().map(Cow::Borrowed),
            Items::Packed { reader, left } => {
                *left = left.checked_sub(1)?;
                reader.entry(1).map(Cow::Owned)
            }
        }
    }
}

/// A mapping's entries as a parser finds them: held as entries until [`PACK_FROM`] have
/// come, then packed when those hold more than [`DENSE`] times their text as entries and
/// nodes, else held to the end (a schema's `properties`, a client's servers: a few entries
/// each of some text, which their readers read as a slice); repeated keys dropped as it
/// grows long and when it ends ([`MapBuilder::finish`]).
pub(crate) struct MapBuilder {
    /// Where the mapping starts.
    from: usize,
    /// Where the last entry ends ([`end_of`]).
    last_end: Option<usize>,
    build: Build,
    /// True until the [`PACK_FROM`]th entry, when whether to pack is decided.
    undecided: bool,
    /// How many entries a mapping still open holds before its repeats are dropped:
    /// [`FIRST_DROP`], then twice what was left. A mapping of a million `a:` lines held them
    /// all until it closed. Sorting what is there each time costs, in all, about as much as
    /// sorting once.
    drop_at: usize,
    /// How many times their text its first entries may take before it is packed.
    dense: usize,
}

/// Entries a mapping still open holds before its repeats are first dropped.
const FIRST_DROP: usize = 1 << 16;

/// How many times their text a mapping's first entries may take as entries and nodes
/// before it is packed: mappings of mappings of one-letter entries took 9 to 18 times;
/// schemas' properties, servers and settings of a few bytes (`"k1":1`, 8 times) are read
/// whole by their formats, and held as entries.
const DENSE: usize = 8;

enum Build {
    Entries(Chunked<Entry>),
    Packed { writer: Writer, len: usize },
}

impl MapBuilder {
    /// A builder for a mapping of about `expected` entries starting at byte `from`.
    pub(crate) fn with_capacity(expected: usize, from: usize) -> MapBuilder {
        MapBuilder {
            from,
            last_end: None,
            build: Build::Entries(Chunked::with_capacity(expected.min(PACK_FROM))),
            undecided: true,
            drop_at: FIRST_DROP,
            dense: DENSE,
        }
    }

    /// The same builder, packing a long mapping whatever its entries take: for a tree read
    /// one entry at a time.
    pub(crate) fn packed_when_long(self) -> MapBuilder {
        MapBuilder { dense: 0, ..self }
    }

    /// The next entry; when the mapping has grown long, its repeated keys so far are
    /// reported to `repeats` and dropped.
    pub(crate) fn push(&mut self, entry: Entry, repeats: &mut Repeats) {
        self.last_end = Some(end_of(&entry));
        let len = match &mut self.build {
            Build::Packed { writer, len } => {
                writer.entry(&entry);
                *len += 1;
                *len
            }
            Build::Entries(entries) => {
                entries.push(entry);
                entries.len()
            }
        };
        if self.undecided && len == PACK_FROM {
            self.undecided = false;
            self.pack_when_dense();
        } else if len >= self.drop_at {
            self.drop_repeats(repeats);
        }
    }

    /// The entries so far packed, when they hold more than `dense` ([`DENSE`]) times their
    /// text.
    fn pack_when_dense(&mut self) {
        let Build::Entries(entries) = &self.build else {
            return;
        };
        let text: usize = entries
            .iter()
            .map(|e| end_of(e).saturating_sub(e.key_span().start))
            .sum();
        // An entry, and below a value that is a mapping or list an entry or node (half as
        // many as `size` counts: it counts a mapping's keys and values apart) for each value.
        let entry = std::mem::size_of::<Entry>();
        let held: usize = entries
            .iter()
            .map(|e| entry + entry / 2 * e.value.size().saturating_sub(1))
            .sum();
        if held <= self.dense.saturating_mul(text) {
            return;
        }
        // Eight bytes is what a one-letter key, a one-digit value and their spans take.
        let mut writer = Writer::new(entries.len() * 8, self.from);
        entries.iter().for_each(|e| writer.entry(e));
        self.build = Build::Packed {
            writer,
            len: entries.len(),
        };
    }

    /// The repeated keys so far reported and dropped.
    fn drop_repeats(&mut self, repeats: &mut Repeats) {
        let left = match &mut self.build {
            Build::Entries(entries) => {
                super::repeats::drop_duplicate_keys_chunked(entries, repeats);
                entries.len()
            }
            Build::Packed { writer, len } => {
                let (bytes, last) = std::mem::replace(writer, Writer::new(0, 0)).finish();
                let packed = Body::new(*len, bytes, self.from, last);
                let (packed, end) = without_repeats(packed, repeats);
                self.last_end = end.or(self.last_end);
                *writer = Writer::resume(packed.bytes.into_vec(), packed.last);
                *len = packed.len;
                packed.len
            }
        };
        self.drop_at = left.saturating_mul(2).max(FIRST_DROP);
    }

    /// The mapping, each repeated key reported to `repeats` and only its first entry kept,
    /// and where its last entry ends ([`end_of`]).
    pub(crate) fn finish(self, repeats: &mut Repeats) -> (Map, Option<usize>) {
        match self.build {
            Build::Entries(entries) => {
                let mut entries = entries.into_vec();
                super::drop_duplicate_keys(&mut entries, repeats);
                let end = entries.last().map(end_of);
                (entries.into(), end)
            }
            Build::Packed { writer, len } => {
                let (bytes, last) = writer.finish();
                let packed = Body::new(len, bytes, self.from, last);
                let (packed, end) = without_repeats(packed, repeats);
                (Map(Repr::Packed(Box::new(packed))), end.or(self.last_end))
            }
        }
    }
}

/// Where `entry` ends: its key or its value, whichever ends later.
fn end_of(entry: &Entry) -> usize {
    entry.value.span().end.max(entry.key_span().end)
}

/// `packed` with each repeated key reported to `repeats` and only its first entry kept. The
/// keys are compared where they are written (an offset an entry); only a mapping that has
/// repeats is written again, an entry at a time; it comes back with where its last kept
/// entry ends.
fn without_repeats(packed: Body<Entry>, repeats: &mut Repeats) -> (Body<Entry>, Option<usize>) {
    // Four bytes an entry: a mapping's bytes are far within 4 GiB for a file read whole.
    let mut at: Vec<u32> = Vec::with_capacity(packed.len);
    let mut reader = packed.reader();
    for _ in 0..packed.len {
        let Ok(offset) = u32::try_from(reader.offset()) else {
            return (packed, None);
        };
        at.push(offset);
        if reader.skip_entry(1).is_none() {
            return (packed, None);
        }
    }
    let bytes = &packed.bytes;
    let again = super::repeats::repeats_among(at.len(), |i| {
        at.get(i as usize)
            .and_then(|&offset| Reader::key_at(bytes, offset as usize))
            .unwrap_or_default()
    });
    drop(at);
    if again.is_empty() {
        return (packed, None);
    }
    // The first entry of each repeated key, with its span once passed.
    let mut firsts: Vec<(u32, Span)> = again.iter().map(|&(_, f)| (f, Span::point(0))).collect();
    firsts.sort_unstable_by_key(|&(f, _)| f);
    firsts.dedup_by_key(|&mut (f, _)| f);
    let mut reader = packed.reader();
    let mut writer = Writer::new(packed.bytes.len(), packed.from);
    let mut len = 0;
    let mut end = None;
    for index in 0..packed.len as u32 {
        let Some(entry) = reader.entry(1) else {
            break;
        };
        if let Ok(i) = firsts.binary_search_by_key(&index, |&(f, _)| f) {
            firsts[i].1 = entry.key_span();
        }
        match again.binary_search_by_key(&index, |&(r, _)| r) {
            Ok(r) => {
                let first = again[r].1;
                let first = firsts
                    .binary_search_by_key(&first, |&(f, _)| f)
                    .map_or(entry.key_span(), |i| firsts[i].1);
                repeats.note(entry.key_span(), first, || entry.key.to_string());
            }
            Err(_) => {
                writer.entry(&entry);
                len += 1;
                end = Some(end_of(&entry));
            }
        }
    }
    let (bytes, last) = writer.finish();
    (Body::new(len, bytes, packed.from, last), end)
}

#[cfg(test)]
#[path = "map_tests.rs"]
mod tests;
