//! What a long list ([`super::Seq`]) and a long mapping ([`super::Map`]) hold: their items or
//! entries in the packed form of [`super::Packed`], and the same built, once a reader asked
//! for them as a slice.

use std::sync::OnceLock;

use super::packed::Reader;

/// Items or entries (`T`) packed after their container's start.
pub(super) struct Body<T> {
    /// How many.
    pub(super) len: usize,
    /// As [`super::Packed`] writes them after their container's start, `from`.
    pub(super) bytes: Box<[u8]>,
    pub(super) from: usize,
    /// The start of the last span written (where the next is relative to).
    pub(super) last: usize,
    /// Built, once a reader asked for the slice.
    built: OnceLock<Box<[T]>>,
}

impl<T> Body<T> {
    /// `len` of them in `bytes`, their first span relative to `from`, the last at `last`.
    pub(super) fn new(len: usize, bytes: Box<[u8]>, from: usize, last: usize) -> Body<T> {
        Body {
            len,
            bytes,
            from,
            last,
            built: OnceLock::new(),
        }
    }

    /// A reader at the first of them.
    pub(super) fn reader(&self) -> Reader<'_> {
        Reader::new(&self.bytes, self.from)
    }

    /// The bytes when they are packed relative to offset `from`, and the start of the last
    /// span in them: a packed tree holding the container copies them as they are.
    pub(super) fn packed_from(&self, from: usize) -> Option<(&[u8], usize)> {
        (self.from == from).then_some((&self.bytes, self.last))
    }

    /// The slice, when a reader asked for it before.
    pub(super) fn built(&self) -> Option<&[T]> {
        self.built.get().map(|b| &**b)
    }

    /// The slice, each read by `read` the first time it is asked for. The bytes were written
    /// from these very items: reading stops only at their end.
    pub(super) fn slice(&self, mut read: impl FnMut(&mut Reader<'_>) -> Option<T>) -> &[T] {
        self.built.get_or_init(|| {
            let mut reader = self.reader();
            (0..self.len).map_while(|_| read(&mut reader)).collect()
        })
    }
}

impl<T> Clone for Body<T> {
    /// The bytes copied; the slice, if built, is built again when asked for.
    fn clone(&self) -> Body<T> {
        Body::new(self.len, self.bytes.clone(), self.from, self.last)
    }
}
