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

/// Nodes all the custom rules together may read in any file, however small, beyond which
/// each rule has what its file's size allows ([`SHARED_PER_BYTE`]): a repository writes its
/// rules and files both, and 3,000 rules that each read a small tool's few nodes, over
/// 2,000 tools, took 13 s; one rule reading a nested list of 500 bytes a million times, in
/// each of 400 skills, 8 s. This much is about what loading a small file costs.
pub(crate) const SHARED_BASE: u64 = 10_000;

/// Nodes all the custom rules together may read per byte of the file, beyond
/// [`SHARED_BASE`]: sixteen rules of `$..*` read any file to its end.
pub(crate) const SHARED_PER_BYTE: u64 = 64;

/// Bytes of JSON a rule may build at once of any file, however small, beyond which it has
/// [`JSON_PER_BYTE`] of its file: the JSONPath engine reads a subject's JSON, and a value a
/// function compares or validates whole is made JSON, and such JSON takes 16 to 60 times
/// the bytes of a text of small values (a filter over a `tools.json` of 10 MB built 250 MB;
/// nodes alone do not say it).
pub(crate) const JSON_BASE: u64 = 32 << 20;

/// Bytes of JSON a rule may build at once per byte of its file, beyond [`JSON_BASE`].
pub(crate) const JSON_PER_BYTE: u64 = 1;

/// The bytes of JSON a rule may build at once of a file of `bytes` bytes.
pub(crate) fn json_cap(bytes: usize) -> u64 {
    let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
    JSON_BASE.saturating_add(bytes.saturating_mul(JSON_PER_BYTE))
}

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
    /// Its JSON would take more than the `cap` a rule may build at once.
    Json {
        /// What a rule may build at once of this file.
        cap: u64,
    },
    /// The rules of the file read all they may read together.
    Shared {
        /// All they may read.
        total: u64,
        /// What this rule read of it.
        read: u64,
    },
}

/// What all the custom rules may still read of one file, and all they could.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Shared {
    left: u64,
    total: u64,
}

impl Shared {
    /// The share of a file of `bytes` bytes.
    pub(crate) fn for_file(bytes: usize) -> Shared {
        let mut shared = Shared {
            left: SHARED_BASE,
            total: SHARED_BASE,
        };
        shared.grow(bytes);
        shared
    }

    /// `bytes` more bytes' worth: a subject read another file.
    pub(crate) fn grow(&mut self, bytes: usize) {
        let more = u64::try_from(bytes)
            .unwrap_or(u64::MAX)
            .saturating_mul(SHARED_PER_BYTE);
        self.left = self.left.saturating_add(more);
        self.total = self.total.saturating_add(more);
    }

    /// True once the rules read all of it.
    pub(crate) fn spent(&self) -> bool {
        self.left == 0
    }
}

/// The nodes a rule may still read in one file. Shared by the walk and the function calls
/// it makes (hence cells: both hold it while the walk runs).
#[derive(Debug)]
pub(crate) struct Budget {
    /// All it may read, grown by the other files its subjects read.
    total: Cell<u64>,
    left: Cell<u64>,
    /// What the file's share keeps back of `left` while one subject is read.
    withheld: Cell<u64>,
    /// The share's total, for the stop it makes.
    shared: Cell<u64>,
    /// Bytes of JSON it may build at once.
    json_cap: Cell<u64>,
    stop: Cell<Option<Stop>>,
}

impl Budget {
    /// A budget of `total` nodes.
    pub(crate) fn new(total: u64) -> Budget {
        Budget {
            total: Cell::new(total),
            left: Cell::new(total),
            withheld: Cell::new(0),
            shared: Cell::new(0),
            json_cap: Cell::new(JSON_BASE),
            stop: Cell::new(None),
        }
    }

    /// Read one subject within what the file's rules may still read together, `shared`,
    /// then take from it what was read, and one more for the subject itself (a rule that
    /// reads nothing still costs its turn).
    pub(crate) fn within<T>(&self, shared: &mut Shared, read: impl FnOnce(&Budget) -> T) -> T {
        let own = self.left.get();
        let held = own.saturating_sub(shared.left);
        self.withheld.set(held);
        self.shared.set(shared.total);
        self.left.set(own - held);
        let out = read(self);
        let read = (own - held).saturating_sub(self.left.get());
        shared.left = shared.left.saturating_sub(read.saturating_add(1));
        if self.stop.get().is_none() {
            self.left.set(self.left.get().saturating_add(held));
        }
        self.withheld.set(0);
        out
    }

    /// Stop before reading anything: the file's rules read all they may read together.
    pub(crate) fn stop_shared(&self, shared: &Shared) {
        if self.stop.get().is_none() {
            let read = self.total.get().saturating_sub(self.left.get());
            self.left.set(0);
            self.stop.set(Some(Stop::Shared {
                total: shared.total,
                read,
            }));
        }
    }

    /// Why a budget that ran out stopped: its own end, or the file's share.
    fn out(&self) -> Stop {
        let withheld = self.withheld.get();
        match withheld {
            0 => Stop::Spent(self.total.get()),
            _ => Stop::Shared {
                total: self.shared.get(),
                read: self
                    .total
                    .get()
                    .saturating_sub(self.left.get().saturating_add(withheld)),
            },
        }
    }

    /// The budget of a rule on a file of `bytes` bytes.
    pub(crate) fn for_file(bytes: usize) -> Budget {
        let budget = Budget::new(
            BASE.saturating_add(
                u64::try_from(bytes)
                    .unwrap_or(u64::MAX)
                    .saturating_mul(PER_BYTE),
            ),
        );
        budget.json_cap.set(json_cap(bytes));
        budget
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
            let json = u64::try_from(bytes)
                .unwrap_or(u64::MAX)
                .saturating_mul(JSON_PER_BYTE);
            self.json_cap.set(self.json_cap.get().saturating_add(json));
        }
    }

    /// The bytes of JSON it may build at once.
    pub(crate) fn json_cap(&self) -> u64 {
        self.json_cap.get()
    }

    /// True when a JSON of about `bytes` may be built; else false, and stopped.
    pub(crate) fn builds(&self, bytes: u64) -> bool {
        if bytes > self.json_cap.get() {
            self.refuse_json();
        }
        self.stop.get().is_none()
    }

    /// Stop: a JSON was more than it may build at once.
    pub(crate) fn refuse_json(&self) {
        if self.stop.get().is_none() {
            self.left.set(0);
            self.stop.set(Some(Stop::Json {
                cap: self.json_cap.get(),
            }));
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
                let stop = self.out();
                self.left.set(0);
                self.stop.set(Some(stop));
                false
            }
        }
    }

    /// Run the engine only when its `estimate` fits in what is left (and take it): false,
    /// and stopped, when it does not.
    pub(crate) fn take_estimate(&self, estimate: u64) -> bool {
        let left = self.left.get();
        if self.stop.get().is_none() && estimate > left {
            // The share stopped it only when the rule's own budget had room.
            let withheld = self.withheld.get();
            let stop = if withheld > 0 && estimate <= left.saturating_add(withheld) {
                self.out()
            } else {
                Stop::Engine { estimate, left }
            };
            self.left.set(0);
            self.stop.set(Some(stop));
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

    /// The rules of a file read within one share: each as far as its own budget and what
    /// the others left, and a subject's turn costs one node even when it reads none.
    #[test]
    fn the_rules_of_a_file_read_within_one_share() {
        let mut shared = Shared::for_file(0);
        assert_eq!(shared.left, SHARED_BASE);
        let first = Budget::new(BASE);
        let read = first.within(&mut shared, |b| b.take(SHARED_BASE - 100));
        assert!(read);
        assert_eq!(shared.left, 99);
        // What the share held back is the rule's again once the subject is read.
        assert_eq!(first.left(), BASE - (SHARED_BASE - 100));
        let second = Budget::new(BASE);
        assert!(!second.within(&mut shared, |b| b.take(500)));
        assert_eq!(
            second.stopped(),
            Some(Stop::Shared {
                total: SHARED_BASE,
                read: 0
            })
        );
        assert!(shared.spent());
        // A rule whose turn comes after is stopped before it reads.
        let third = Budget::new(BASE);
        third.stop_shared(&shared);
        assert!(matches!(third.stopped(), Some(Stop::Shared { .. })));
        // Its own budget still stops a rule first when it is the smaller.
        let mut roomy = Shared::for_file(1_000_000);
        let small = Budget::new(10);
        assert!(!small.within(&mut roomy, |b| b.take(11)));
        assert_eq!(small.stopped(), Some(Stop::Spent(10)));
        // And the engine's estimate past the share is the share's stop.
        let mut little = Shared::for_file(0);
        let engine = Budget::new(BASE);
        assert!(!engine.within(&mut little, |b| b.take_estimate(SHARED_BASE + 1)));
        assert!(matches!(engine.stopped(), Some(Stop::Shared { .. })));
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

    #[test]
    fn json_is_made_within_its_cap_which_grows_with_the_file() {
        let budget = Budget::for_file(1000);
        assert_eq!(budget.json_cap(), JSON_BASE + 1000);
        budget.grow(24);
        assert_eq!(budget.json_cap(), JSON_BASE + 1024);
        assert!(budget.builds(JSON_BASE + 1024));
        assert_eq!(budget.stopped(), None);
        assert!(!budget.builds(JSON_BASE + 1025));
        assert_eq!(
            budget.stopped(),
            Some(Stop::Json {
                cap: JSON_BASE + 1024
            })
        );
        // Stopped, it reads nothing more.
        assert!(!budget.builds(1) && !budget.take(1));
    }
}
