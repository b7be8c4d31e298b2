//! Name registries: names defined twice within one scope (a `.dojops/` project, a
//! `.cycod/tools` folder, a manifest, the whole repository). The scope is part of the key,
//! so the caller says exactly where a name must be unique.

use std::hash::{Hash, Hasher};

/// A later definition of a name that an earlier one already holds in the same scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Duplicate {
    /// Index of the first definition.
    pub first: usize,
    /// Index of the later one.
    pub again: usize,
}

/// The duplicates among `entries` (scope, name), by index, in input order: each later
/// definition is paired with the first one of its scope and name. Entries without a name
/// (`None`) take part in nothing.
pub(crate) fn duplicates<S, N>(entries: impl IntoIterator<Item = Option<(S, N)>>) -> Vec<Duplicate>
where
    S: Ord + Hash,
    N: Ord + Hash,
{
    let keys: Vec<Option<(S, N)>> = entries.into_iter().collect();
    duplicates_by(keys.len(), |i| keys.get(i)?.as_ref())
}

/// A name as a key that ignores ASCII case (HTTP header names), compared and hashed without
/// a lower-case copy: a sort of 400,000 names compares each many times.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CaseFolded<'a>(pub &'a str);

impl CaseFolded<'_> {
    fn bytes(self) -> impl Iterator<Item = u8> {
        self.0.bytes().map(|b| b.to_ascii_lowercase())
    }
}

impl PartialEq for CaseFolded<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for CaseFolded<'_> {}

impl PartialOrd for CaseFolded<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CaseFolded<'_> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.bytes().cmp(other.bytes())
    }
}

impl Hash for CaseFolded<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // A piece at a time through a small buffer: names equal ignoring case are as long,
        // so they are cut alike and hash alike.
        let mut buffer = [0u8; 64];
        for piece in self.0.as_bytes().chunks(buffer.len()) {
            let folded = &mut buffer[..piece.len()];
            folded.copy_from_slice(piece);
            folded.make_ascii_lowercase();
            state.write(folded);
        }
        state.write_u8(0xff);
    }
}

/// [`duplicates`] among `count` entries whose keys `key` gives by index: a long list (a
/// manifest of millions of tools) need not be copied to be looked through.
pub(crate) fn duplicates_by<K: Ord + Hash>(
    count: usize,
    key: impl Fn(usize) -> Option<K>,
) -> Vec<Duplicate> {
    let Ok(count) = u32::try_from(count) else {
        return by_key(count, key);
    };
    // Sorted, not hashed into a table: a table of every name with room to spare took about
    // 60 bytes a name, the most of a manifest of millions of tiny tools while it loaded.
    // Sorted by a hash of the key before the key itself: comparing names read them from all
    // over the file (half a second for 1.8 million), two numbers read nothing. A hash and an
    // index packed in one `u64`, in room of every entry at once.
    let mut hashed: Vec<u64> = Vec::with_capacity(count as usize);
    hashed.extend((0..count).filter_map(|i| {
        let key = key(i as usize)?;
        let mut hasher = xxhash_rust::xxh3::Xxh3Default::new();
        key.hash(&mut hasher);
        // The high half of the hash, the index below it: sorted by hash, then index.
        Some((hasher.finish() & !u64::from(u32::MAX)) | u64::from(i))
    }));
    hashed.sort_unstable();
    let index = |packed: &u64| (packed & u64::from(u32::MAX)) as usize;
    let mut out = Vec::new();
    let mut run = Vec::new();
    for same_hash in hashed.chunk_by(|a, b| a >> 32 == b >> 32) {
        if let [_, _, ..] = same_hash {
            // Keys that share a hash, most often one key defined again: told apart by the
            // key itself, in index order.
            run.clear();
            run.extend(same_hash.iter().map(index));
            out.extend(duplicates_in(&mut run, &key));
        }
    }
    out.sort_unstable_by_key(|d| d.again);
    out
}

/// [`duplicates_by`] comparing the keys themselves, for more entries than a `u32` counts.
fn by_key<K: Ord>(count: usize, key: impl Fn(usize) -> Option<K>) -> Vec<Duplicate> {
    let mut named: Vec<usize> = (0..count).filter(|&i| key(i).is_some()).collect();
    let mut out: Vec<Duplicate> = duplicates_in(&mut named, &key).collect();
    out.sort_unstable_by_key(|d| d.again);
    out
}

/// The duplicates among the entries `indices` names (each with a key), unordered.
fn duplicates_in<K: Ord>(
    indices: &mut [usize],
    key: &impl Fn(usize) -> Option<K>,
) -> impl Iterator<Item = Duplicate> {
    // By key, then index: each run's head is its first definition.
    indices.sort_unstable_by(|&a, &b| key(a).cmp(&key(b)).then(a.cmp(&b)));
    indices
        .chunk_by(|&a, &b| key(a) == key(b))
        .filter_map(|run| run.split_first())
        .flat_map(|(&first, again)| again.iter().map(move |&again| Duplicate { first, again }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_definitions_pair_with_the_first_of_their_scope() {
        let entries = [
            Some(("a", "x")),
            Some(("b", "x")),
            Some(("a", "x")),
            None,
            Some(("a", "x")),
            Some(("a", "y")),
        ];
        assert_eq!(
            duplicates(entries),
            [
                Duplicate { first: 0, again: 2 },
                Duplicate { first: 0, again: 4 }
            ]
        );
    }

    #[test]
    fn names_folded_to_one_case_are_one_name() {
        let names = ["Authorization", "X-Key", "AUTHORIZATION", "x-key", "x-kez"];
        let found = duplicates_by(names.len(), |i| names.get(i).map(|n| CaseFolded(n)));
        assert_eq!(
            found,
            [
                Duplicate { first: 0, again: 2 },
                Duplicate { first: 1, again: 3 }
            ]
        );
        let long = "a".repeat(100);
        let hash = |n: &str| {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            CaseFolded(n).hash(&mut hasher);
            hasher.finish()
        };
        assert_eq!(hash(&long), hash(&long.to_ascii_uppercase()));
        assert_ne!(hash(&long), hash(&"a".repeat(99)));
    }

    #[test]
    fn one_scope_for_the_whole_repository() {
        let names = ["send", "fetch", "send"].map(|n| Some(((), n)));
        assert_eq!(duplicates(names), [Duplicate { first: 0, again: 2 }]);
    }

    /// A key whose every value hashes the same: only the key itself tells them apart.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    struct Colliding<'a>(&'a str);

    impl Hash for Colliding<'_> {
        fn hash<H: Hasher>(&self, _: &mut H) {}
    }

    #[test]
    fn keys_that_share_a_hash_are_told_apart() {
        let names = ["b", "a", "b", "c", "a", "b"];
        let found = duplicates_by(names.len(), |i| names.get(i).map(|n| Colliding(n)));
        assert_eq!(
            found,
            [
                Duplicate { first: 0, again: 2 },
                Duplicate { first: 1, again: 4 },
                Duplicate { first: 0, again: 5 }
            ]
        );
    }

    #[test]
    fn hashed_and_compared_keys_find_the_same_duplicates() {
        // Names drawn from a few hundred, some entries without one.
        let keys: Vec<Option<String>> = (0u64..5_000)
            .map(|i| {
                let mixed = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                (mixed % 7 != 0).then(|| format!("tool-{}", mixed % 300))
            })
            .collect();
        let key = |i: usize| keys.get(i)?.as_deref();
        let hashed = duplicates_by(keys.len(), key);
        assert!(hashed.len() > 3_000, "most entries repeat a name");
        assert_eq!(hashed, by_key(keys.len(), key));
    }
}
