//! Candidates claimed once each: for a key, the first free one at the wanted place, else the
//! first free one. Pairing the tools of two sides (the lock and the tree, two revisions)
//! looked through every candidate of a name for each tool, which took time in the square of
//! the number of tools that share a name; each queue here passes a taken candidate once.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::Hash;

/// Candidate indices in their order, and how many at the front are known to be taken. The
/// count is a `Cell` so that a claim needs only a shared borrow of the index, which lets its
/// key borrow from a value that lives shorter than the index.
#[derive(Default)]
struct Queue {
    items: Vec<usize>,
    next: Cell<usize>,
}

impl Queue {
    fn first_free(&self, taken: &[bool]) -> Option<usize> {
        loop {
            let i = *self.items.get(self.next.get())?;
            if !taken.get(i).copied().unwrap_or(true) {
                return Some(i);
            }
            self.next.set(self.next.get() + 1);
        }
    }
}

/// The candidates of one side, by key and by key and place.
pub(crate) struct Claims<K, P> {
    by_key: HashMap<K, Queue>,
    by_place: HashMap<(K, P), Queue>,
}

impl<K: Hash + Eq + Clone, P: Hash + Eq> Claims<K, P> {
    /// Index `candidates` (index, key, place), in the order given.
    pub(crate) fn new(candidates: impl IntoIterator<Item = (usize, K, P)>) -> Self {
        let mut by_key: HashMap<K, Queue> = HashMap::new();
        let mut by_place: HashMap<(K, P), Queue> = HashMap::new();
        for (i, key, place) in candidates {
            by_key.entry(key.clone()).or_default().items.push(i);
            by_place.entry((key, place)).or_default().items.push(i);
        }
        Claims { by_key, by_place }
    }

    /// A candidate for each of `wants` (key and place), in order, each marked `taken`: first
    /// every one there is at its own place, then the first free one of its key for the rest.
    /// Claimed one want at a time, a tool moved away took the candidate of one that had not
    /// moved, and both were then compared with the other's (two false changes).
    pub(crate) fn pair(
        &self,
        wants: impl IntoIterator<Item = (K, P)>,
        taken: &mut [bool],
    ) -> Vec<Option<usize>> {
        let mut found: Vec<Option<usize>> = Vec::new();
        let mut keys = Vec::new();
        for (key, place) in wants {
            let at_place = self
                .by_place
                .get(&(key.clone(), place))
                .and_then(|q| q.first_free(taken));
            found.push(at_place.inspect(|&i| mark(taken, i)));
            keys.push(key);
        }
        for (slot, key) in found.iter_mut().zip(keys) {
            if slot.is_none() {
                *slot = self
                    .by_key
                    .get(&key)
                    .and_then(|q| q.first_free(taken))
                    .inspect(|&i| mark(taken, i));
            }
        }
        found
    }
}

fn mark(taken: &mut [bool], i: usize) {
    if let Some(slot) = taken.get_mut(i) {
        *slot = true;
    }
}

#[cfg(test)]
mod tests {
    use super::Claims;

    #[test]
    fn the_same_place_first_then_the_first_free_and_each_once() {
        let claims = Claims::new([(0, "a", "x"), (1, "a", "y"), (2, "a", "y"), (3, "b", "x")]);
        let mut taken = vec![false; 4];
        let wants = vec![("a", "y"), ("a", "z"), ("a", "x"), ("a", "y"), ("c", "x")];
        let found = claims.pair(wants, &mut taken);
        // The second `y` is at its place too; `z` is at none, and none of `a` is left.
        assert_eq!(found, [Some(1), None, Some(0), Some(2), None]);
        assert_eq!(taken, [true, true, true, false]);
    }

    #[test]
    fn one_at_its_place_is_paired_there_whatever_comes_first() {
        let claims = Claims::new([(0, "a", "x"), (1, "a", "y")]);
        let mut taken = vec![false; 2];
        // `y` moved to `w` and comes first: it takes what `x` leaves, not `x`'s.
        let found = claims.pair(vec![("a", "w"), ("a", "x")], &mut taken);
        assert_eq!(found, [Some(1), Some(0)]);
    }

    #[test]
    fn a_candidate_taken_elsewhere_is_passed() {
        let claims = Claims::new([(0, "a", "x"), (1, "a", "x")]);
        let mut taken = vec![true, false];
        assert_eq!(
            claims.pair(vec![("a", "x"), ("a", "w")], &mut taken),
            [Some(1), None]
        );
    }
}
