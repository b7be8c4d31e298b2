//! Name registries: names defined twice within one scope (a `.dojops/` project, a
//! `.cycod/tools` folder, a manifest, the whole repository). The scope is part of the key,
//! so the caller says exactly where a name must be unique.

use std::collections::HashMap;
use std::hash::Hash;

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
    S: Eq + Hash,
    N: Eq + Hash,
{
    let entries = entries.into_iter();
    // Room for every entry at once: grown by doubling, the table and the one it was
    // moving to were both held (1.5 times the room) for a list of many names.
    let mut first: HashMap<(S, N), usize> = HashMap::with_capacity(entries.size_hint().0);
    let mut out = Vec::new();
    for (i, entry) in entries.enumerate() {
        let Some(key) = entry else { continue };
        match first.get(&key) {
            Some(&f) => out.push(Duplicate { first: f, again: i }),
            None => {
                first.insert(key, i);
            }
        }
    }
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
