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

    /// The first candidate of `key` not yet `taken`, at `place` if one is there; marked taken.
    pub(crate) fn claim(&self, key: K, place: P, taken: &mut [bool]) -> Option<usize> {
        let at_place = self
            .by_place
            .get(&(key.clone(), place))
            .and_then(|q| q.first_free(taken));
        let found = at_place.or_else(|| self.by_key.get(&key)?.first_free(taken))?;
        if let Some(slot) = taken.get_mut(found) {
            *slot = true;
        }
        Some(found)
    }
}

#[cfg(test)]
mod tests {
    use super::Claims;

    #[test]
    fn the_same_place_first_then_the_first_free_and_each_once() {
        let claims = Claims::new([(0, "a", "x"), (1, "a", "y"), (2, "a", "y"), (3, "b", "x")]);
        let mut taken = vec![false; 4];
        assert_eq!(claims.claim("a", "y", &mut taken), Some(1));
        assert_eq!(claims.claim("a", "z", &mut taken), Some(0));
        assert_eq!(claims.claim("a", "x", &mut taken), Some(2));
        assert_eq!(claims.claim("a", "y", &mut taken), None);
        assert_eq!(claims.claim("c", "x", &mut taken), None);
        assert_eq!(taken, [true, true, true, false]);
    }

    #[test]
    fn a_candidate_taken_elsewhere_is_passed() {
        let claims = Claims::new([(0, "a", "x"), (1, "a", "x")]);
        let mut taken = vec![true, false];
        assert_eq!(claims.claim("a", "x", &mut taken), Some(1));
        assert_eq!(claims.claim("a", "w", &mut taken), None);
    }
}
