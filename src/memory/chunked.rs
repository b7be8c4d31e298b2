//! A list of unknown length grown a chunk at a time. A `Vec` grown by doubling holds its old
//! room and the new, twice as large, while it copies: a YAML mapping of 1.2 million keys
//! (64 bytes an entry) peaked at twice its entries for that copy alone, the peak of its whole
//! check. Chunks never move; the list is moved once, when it is done, into room of exactly
//! its length, a chunk at a time, each chunk freed as it is emptied.

use std::mem::{size_of, take};

/// About how many bytes a full chunk holds.
const CHUNK_BYTES: usize = 256 << 10;

/// A list grown by chunks of [`CHUNK_BYTES`]; short lists stay one `Vec`.
pub(crate) struct Chunked<T> {
    full: Vec<Vec<T>>,
    /// How many items the full chunks hold.
    in_full: usize,
    last: Vec<T>,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            full: Vec::new(),
            in_full: 0,
            last: Vec::new(),
        }
    }
}

impl<T> Chunked<T> {
    /// How many items a full chunk holds: a power of two, so that the first chunk, grown by
    /// doubling from one item, is full exactly at its room.
    const PER_CHUNK: usize = {
        let items = CHUNK_BYTES
            / if size_of::<T>() == 0 {
                1
            } else {
                size_of::<T>()
            };
        if items <= 1 {
            1
        } else {
            (items / 2 + 1).next_power_of_two()
        }
    };

    /// A list with room for `n` items before its first chunk is full.
    pub(crate) fn with_capacity(n: usize) -> Chunked<T> {
        Chunked {
            full: Vec::new(),
            in_full: 0,
            last: Vec::with_capacity(n),
        }
    }

    /// Whether every full chunk holds [`Self::PER_CHUNK`] items (a list grown from empty, or
    /// one with no full chunk), so that an index tells its chunk.
    fn uniform(&self) -> bool {
        self.full.first().is_none_or(|c| c.len() == Self::PER_CHUNK)
    }

    /// The item at `index`: at once when every full chunk holds [`Self::PER_CHUNK`] items
    /// (a list grown from empty), else by counting the chunks (one made
    /// [`Chunked::with_capacity`] larger holds more in its first).
    pub(crate) fn get(&self, index: usize) -> Option<&T> {
        if !self.uniform() {
            return self.iter().nth(index);
        }
        if index < self.in_full {
            self.full
                .get(index / Self::PER_CHUNK)?
                .get(index % Self::PER_CHUNK)
        } else {
            self.last.get(index - self.in_full)
        }
    }

    /// The index of the first item `pred` is false of, in a list of which it is true of a
    /// first part and false of the rest (as `slice::partition_point`): the chunk, then the
    /// place in it, each by halves.
    pub(crate) fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let whole = self
            .full
            .partition_point(|c| c.last().is_some_and(&mut pred));
        let before = if self.uniform() {
            whole * Self::PER_CHUNK
        } else {
            self.full.iter().take(whole).map(Vec::len).sum()
        };
        before
            + self
                .full
                .get(whole)
                .unwrap_or(&self.last)
                .partition_point(pred)
    }

    /// The items in order, each chunk freed once emptied: a list rebuilt from another never
    /// holds both whole.
    pub(crate) fn into_items(self) -> impl Iterator<Item = T> {
        self.full.into_iter().flatten().chain(self.last)
    }

    /// The next item.
    pub(crate) fn push(&mut self, item: T) {
        if self.last.len() == self.last.capacity() && self.last.len() >= Self::PER_CHUNK {
            let next = Vec::with_capacity(Self::PER_CHUNK);
            self.in_full += self.last.len();
            self.full.push(std::mem::replace(&mut self.last, next));
        }
        self.last.push(item);
    }

    /// How many items.
    pub(crate) fn len(&self) -> usize {
        self.in_full + self.last.len()
    }

    /// The items in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.full.iter().flatten().chain(&self.last)
    }

    /// The items, in room of exactly their number.
    pub(crate) fn into_vec(mut self) -> Vec<T> {
        if self.full.is_empty() {
            if self.last.len() == self.last.capacity() {
                return self.last;
            }
            // Moved into room of exactly its length: shrinking in place keeps the spare room
            // where the allocator can (mimalloc does for a block still half used), and a
            // mapping of two entries held the room of four (a skill's `metadata` of
            // millions of `k: {a: b, c: d}` took 16.8 times its size).
            let mut exact = Vec::with_capacity(self.last.len());
            exact.append(&mut self.last);
            return exact;
        }
        let mut out = Vec::with_capacity(self.len());
        for chunk in take(&mut self.full) {
            out.extend(chunk);
        }
        out.append(&mut self.last);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_come_back_in_order_in_room_of_their_number() {
        let per = Chunked::<u64>::PER_CHUNK;
        assert!(per.is_power_of_two() && per * 8 <= CHUNK_BYTES && per * 16 > CHUNK_BYTES);
        for n in [0, 1, 2, 3, 5, per - 1, per, per + 1, 3 * per + 7] {
            let mut list = Chunked::default();
            (0..n as u64).for_each(|i| list.push(i));
            assert_eq!(list.len(), n);
            assert!(list.iter().copied().eq(0..n as u64));
            assert!((0..n).all(|i| list.get(i) == Some(&(i as u64))));
            assert_eq!(list.get(n), None);
            let mut roomy = Chunked::with_capacity(per * 2);
            (0..n as u64).for_each(|i| roomy.push(i));
            assert!(
                (0..n)
                    .step_by(97)
                    .all(|i| roomy.get(i) == Some(&(i as u64)))
            );
            for at in [0, 1, per - 1, per, per + 1, n / 2, n.saturating_sub(1), n] {
                let found = |l: &Chunked<u64>| l.partition_point(|&i| i < at as u64);
                assert_eq!(found(&list), at.min(n), "first of {n} items not below {at}");
                assert_eq!(found(&roomy), at.min(n), "the same in a list given room");
            }
            let items = list.into_vec();
            assert!(items.iter().copied().eq(0..n as u64), "{n} items in order");
            // Exact room however few: a mapping of 2 entries kept the room of 4 it grew to.
            assert_eq!(items.capacity(), n, "exact room for {n} items");
        }
    }

    #[test]
    fn room_given_first_is_used_before_any_chunk() {
        let per = Chunked::<u8>::PER_CHUNK;
        let mut list = Chunked::with_capacity(per * 3);
        (0..per * 3).for_each(|i| list.push(i as u8));
        assert!(list.full.is_empty());
        list.push(0);
        assert_eq!((list.full.len(), list.last.len()), (1, 1));
    }

    #[test]
    fn items_larger_than_a_chunk_are_a_chunk_each() {
        assert_eq!(Chunked::<[u8; CHUNK_BYTES * 2]>::PER_CHUNK, 1);
        assert_eq!(Chunked::<()>::PER_CHUNK, CHUNK_BYTES.next_power_of_two());
    }
}
