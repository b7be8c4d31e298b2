//! What a custom rule may read of one file. A rule's `given` is the repository's to write,
//! and a path like `$..*..*..*` selects each node of a document once for every pair of
//! nodes above it: 392 bytes of nested lists made 419,150 findings and 2.4 GB of memory.
//! Each rule therefore has a budget of nodes per file, shared by the file's subjects (a
//! `tools.json` is thousands of subjects: a budget per subject would be multiplied by
//! them): every node the walk enters, every node the JSONPath engine is estimated to read
//! ([`super::cost`]), every node a function reads whole. Past it the rule stops on that file,
//! and says so (TLC008, `custom-rule-not-fully-checked`).

use std::cell::Cell;

/// Nodes a rule may read in any file, however small: the worst case, on a small file, is
/// this many steps of the walk (about 0.1 s). An honest rule reads a node once or twice
/// (`$..description` enters each node once); the recipes of docs/custom-rules.md and the
/// rules of `benches/custom-rules.toml` read at most a few hundred nodes in any file of
/// their tests, and a large file has its own allowance ([`PER_BYTE`]).
pub(crate) const BASE: u64 = 1_000_000;

/// Nodes a rule may read per byte of the file, beyond [`BASE`]: a node takes at least two
/// bytes (`1,`), so `$..*`, which enters a node and selects it, reads a file of any size to
/// its end, while a path that reads each node many times stops in time proportional to the
/// file, as its parsing is.
pub(crate) const PER_BYTE: u64 = 4;

/// Why a rule stopped on a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The walk and the functions read all the budget (this many nodes).
    Spent(u64),
    /// The JSONPath engine would read about `estimate` nodes, more than the `left`.
    Engine {
        /// Its estimate.
        estimate: u64,
        /// What was left of the budget.
        left: u64,
    },
}

/// The nodes a rule may still read in one file. Shared by the walk and the function calls
/// it makes (hence cells: both hold it while the walk runs).
#[derive(Debug)]
pub(crate) struct Budget {
    /// All it may read, grown by the other files its subjects read.
    total: Cell<u64>,
    left: Cell<u64>,
    stop: Cell<Option<Stop>>,
}

impl Budget {
    /// A budget of `total` nodes.
    pub(crate) fn new(total: u64) -> Budget {
        Budget {
            total: Cell::new(total),
            left: Cell::new(total),
            stop: Cell::new(None),
        }
    }

    /// The budget of a rule on a file of `bytes` bytes.
    pub(crate) fn for_file(bytes: usize) -> Budget {
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        Budget::new(BASE.saturating_add(bytes.saturating_mul(PER_BYTE)))
    }

    /// Allow `bytes` more bytes' worth: a subject read another file (a tool's schema in
    /// its own file), whose nodes an honest rule reads too. Nothing once stopped.
    pub(crate) fn grow(&self, bytes: usize) {
        if self.stop.get().is_none() {
            let more = u64::try_from(bytes)
                .unwrap_or(u64::MAX)
                .saturating_mul(PER_BYTE);
            self.left.set(self.left.get().saturating_add(more));
            self.total.set(self.total.get().saturating_add(more));
        }
    }

    /// Read `n` nodes: false when fewer were left, and from then on nothing more is read.
    pub(crate) fn take(&self, n: u64) -> bool {
        if self.stop.get().is_some() {
            return false;
        }
        match self.left.get().checked_sub(n) {
            Some(left) => {
                self.left.set(left);
                true
            }
            None => {
                self.left.set(0);
                self.stop.set(Some(Stop::Spent(self.total.get())));
                false
            }
        }
    }

    /// Run the engine only when its `estimate` fits in what is left (and take it): false,
    /// and stopped, when it does not.
    pub(crate) fn take_estimate(&self, estimate: u64) -> bool {
        let left = self.left.get();
        if self.stop.get().is_none() && estimate > left {
            self.left.set(0);
            self.stop.set(Some(Stop::Engine { estimate, left }));
        }
        self.take(estimate)
    }

    /// What was left.
    pub(crate) fn left(&self) -> u64 {
        self.left.get()
    }

    /// Why the rule stopped, if it did.
    pub(crate) fn stopped(&self) -> Option<Stop> {
        self.stop.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_stops_once_and_says_why() {
        let budget = Budget::new(10);
        assert!(budget.take(4) && budget.take(6));
        assert_eq!(budget.stopped(), None);
        assert!(!budget.take(1));
        assert_eq!(budget.stopped(), Some(Stop::Spent(10)));
        // Stopped stays stopped, whatever is asked.
        assert!(!budget.take(0));

        let engine = Budget::new(100);
        assert!(engine.take_estimate(60));
        assert!(!engine.take_estimate(50));
        assert_eq!(
            engine.stopped(),
            Some(Stop::Engine {
                estimate: 50,
                left: 40
            })
        );
        assert!(!engine.take(1));
    }

    #[test]
    fn a_large_file_has_more() {
        assert_eq!(Budget::for_file(0).left(), BASE);
        assert_eq!(Budget::for_file(1000).left(), BASE + 4000);
        assert_eq!(Budget::for_file(usize::MAX).left(), u64::MAX);
        // A schema read from another file adds its bytes' worth, said in the stop.
        let budget = Budget::new(10);
        budget.grow(5);
        assert!(budget.take(30) && !budget.take(1));
        assert_eq!(budget.stopped(), Some(Stop::Spent(30)));
        budget.grow(5);
        assert_eq!(budget.left(), 0);
    }
}
