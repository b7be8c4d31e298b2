//! Candidates claimed once each: for a key, the first free one at the wanted place, else the
//! first free one. Pairing the tools of two sides (the lock and the tree, two revisions)
//! looked through every candidate of a name for each tool, which took time in the square of
//! the number of tools that share a name; each run of candidates here passes a taken one once.

use std::cell::Cell;

/// The candidates of one side, sorted by key and by key and place. Sorted lists of
/// positions rather than a map of queues: a queue and its map entry took about 300 bytes
/// a candidate, which for 300,000 tools was more than the file they came from.
pub(crate) struct Claims<K, P> {
    /// The candidates (index, key, place), in the order given.
    candidates: Vec<(usize, K, P)>,
    /// Their positions, sorted by key and place (then as given).
    by_place: Vec<u32>,
    /// Their positions, sorted by key (then as given).
    by_key: Vec<u32>,
    /// At the first of each run of equal keys and places (of `by_place`), and of equal keys
    /// (of `by_key`): how many at its front are known to be taken. A `Cell`, so that a claim
    /// needs only a shared borrow of the index, which lets its key borrow from a value that
    /// lives shorter than the index.
    skip: Vec<(Cell<u32>, Cell<u32>)>,
}

impl<K: Ord, P: Ord> Claims<K, P> {
    /// Index `candidates` (index, key, place), in the order given.
    pub(crate) fn new(candidates: impl IntoIterator<Item = (usize, K, P)>) -> Self {
        let candidates: Vec<(usize, K, P)> = candidates.into_iter().collect();
        let mut by_place: Vec<u32> = (0..candidates.len() as u32).collect();
        let mut by_key = by_place.clone();
        let of = |p: &u32| &candidates[*p as usize];
        by_place.sort_by(|a, b| (&of(a).1, &of(a).2, a).cmp(&(&of(b).1, &of(b).2, b)));
        by_key.sort_by(|a, b| (&of(a).1, a).cmp(&(&of(b).1, b)));
        let skip = (0..candidates.len()).map(|_| Default::default()).collect();
        Claims {
            candidates,
            by_place,
            by_key,
            skip,
        }
    }

    /// Whether there is no candidate.
    pub(crate) fn is_empty(&self) -> bool {
        self.candidates.is_empty()
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
        let wants = wants.into_iter();
        // Room for every want at once, and the keys kept only of those not at their place:
        // grown by doubling, the answers and every key took 80 bytes a want.
        let mut found: Vec<Option<usize>> = Vec::with_capacity(wants.size_hint().0);
        let mut elsewhere = Vec::new();
        for (key, place) in wants {
            let at_place = self.first_free(
                &self.by_place,
                |c| (&c.1, &c.2).cmp(&(&key, &place)),
                |s| &s.0,
                taken,
            );
            if at_place.is_none() {
                elsewhere.push((found.len(), key));
            }
            found.push(at_place.inspect(|&i| mark(taken, i)));
        }
        for (want, key) in elsewhere {
            found[want] = self
                .first_free(&self.by_key, |c| c.1.cmp(&key), |s| &s.1, taken)
                .inspect(|&i| mark(taken, i));
        }
        found
    }

    /// The first candidate not `taken` of the run of `order` that `compare` finds equal,
    /// passing for good those at its front found taken.
    fn first_free(
        &self,
        order: &[u32],
        compare: impl Fn(&(usize, K, P)) -> std::cmp::Ordering,
        skip: impl Fn(&(Cell<u32>, Cell<u32>)) -> &Cell<u32>,
        taken: &[bool],
    ) -> Option<usize> {
        let of = |p: u32| &self.candidates[p as usize];
        let start = order.partition_point(|&p| compare(of(p)).is_lt());
        let passed = skip(self.skip.get(start)?);
        loop {
            let &p = order.get(start + passed.get() as usize)?;
            let candidate = of(p);
            if !compare(candidate).is_eq() {
                return None;
            }
            if !taken.get(candidate.0).copied().unwrap_or(true) {
                return Some(candidate.0);
            }
            passed.set(passed.get() + 1);
        }
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
