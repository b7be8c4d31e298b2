//! Name registries: names defined twice within one scope (a `.dojops/` project, a
//! `.cycod/tools` folder, a manifest, the whole repository). The scope is part of the key,
//! so the caller says exactly where a name must be unique.

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
    S: Ord,
    N: Ord,
{
    let keys: Vec<Option<(S, N)>> = entries.into_iter().collect();
    duplicates_by(keys.len(), |i| keys.get(i)?.as_ref())
}

/// [`duplicates`] among `count` entries whose keys `key` gives by index: a long list (a
/// manifest of millions of tools) need not be copied to be looked through.
pub(crate) fn duplicates_by<K: Ord>(
    count: usize,
    key: impl Fn(usize) -> Option<K>,
) -> Vec<Duplicate> {
    // Sorted, not hashed: a table of every name with room to spare took about 60 bytes a
    // name, the most of a manifest of millions of tiny tools while it loaded.
    // In room of every entry at once (a list grown by doubling holds up to twice that).
    let mut named: Vec<usize> = Vec::with_capacity(count);
    named.extend((0..count).filter(|&i| key(i).is_some()));
    // By key, then index: each run's head is its first definition.
    named.sort_unstable_by(|&a, &b| key(a).cmp(&key(b)).then(a.cmp(&b)));
    let mut out = Vec::new();
    for run in named.chunk_by(|&a, &b| key(a) == key(b)) {
        if let Some((&first, again)) = run.split_first() {
            out.extend(again.iter().map(|&again| Duplicate { first, again }));
        }
    }
    out.sort_unstable_by_key(|d| d.again);
    out
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
    fn one_scope_for_the_whole_repository() {
        let names = ["send", "fetch", "send"].map(|n| Some(((), n)));
        assert_eq!(duplicates(names), [Duplicate { first: 0, again: 2 }]);
    }
}
