//! The first few of many items by a key, found in any order: a check that finds its
//! findings in two passes sorts them by place before the rule's cap keeps the first 200 of
//! them, and held every one to sort (a skill's front matter of 2.4 million flow mappings
//! held a finding for each, 80 MiB).

/// The `keep` items of least key among those pushed (the first pushed of equal keys), and
/// how many others there were. Sorted and cut whenever it holds twice `keep`, so it never
/// holds more, and costs `n log keep` for `n` items.
pub(crate) struct Least<T, K: Ord> {
    items: Vec<T>,
    keep: usize,
    dropped: usize,
    key: fn(&T) -> K,
}

impl<T, K: Ord> Least<T, K> {
    /// Room for the `keep` least items by `key`.
    pub(crate) fn new(keep: usize, key: fn(&T) -> K) -> Least<T, K> {
        Least {
            items: Vec::new(),
            keep,
            dropped: 0,
            key,
        }
    }

    /// One more item.
    pub(crate) fn push(&mut self, item: T) {
        if self.items.len() >= self.keep.max(1) * 2 {
            self.cut();
        }
        self.items.push(item);
    }

    /// Sorted, stably (a later item of an equal key stays after), and cut to `keep`.
    fn cut(&mut self) {
        self.items.sort_by_key(self.key);
        if self.items.len() > self.keep {
            self.dropped += self.items.len() - self.keep;
            self.items.truncate(self.keep);
        }
    }

    /// The items kept, least first, and how many others there were.
    pub(crate) fn finish(mut self) -> (Vec<T>, usize) {
        self.cut();
        (self.items, self.dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_are_kept_in_order_and_the_rest_counted() {
        // (items, kept, distinct keys): few distinct keys among many items, so that a cut
        // of dozens of equal keys shows whether the first pushed stay.
        for (n, keep, distinct) in [
            (0, 3, 1),
            (2, 3, 2),
            (3, 3, 2),
            (7, 3, 4),
            (1000, 3, 501),
            (1000, 0, 501),
            (50, 1, 26),
            (5000, 25, 7),
            (5000, 201, 7),
        ] {
            // Keys in a scrambled order; the item says when it was pushed.
            let all: Vec<(u32, usize)> =
                (0..n).map(|i| ((i as u32 * 7919) % distinct, i)).collect();
            let mut least = Least::new(keep, |&(k, _): &(u32, usize)| k);
            all.iter().for_each(|&item| least.push(item));
            let (kept, dropped) = least.finish();
            let mut sorted = all.clone();
            sorted.sort_by_key(|&(k, _)| k);
            sorted.truncate(keep);
            assert_eq!(
                kept, sorted,
                "{keep} least of {n}, the first pushed of equal keys"
            );
            assert_eq!(dropped, n - kept.len());
        }
    }
}
