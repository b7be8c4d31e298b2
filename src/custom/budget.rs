//! What the custom rules may read of one file. A rule's `given` is the repository's to write,
//! and a path like `$..*..*..*` selects each node of a document once for every pair of
//! nodes above it: 392 bytes of nested lists made 419,150 findings and 2.4 GB of memory.
//! The rules of a file therefore read within one budget of nodes, shared by the file's
//! subjects (a `tools.json` is thousands of subjects: a budget per subject would be
//! multiplied by them) and by the rules, taken in their order: every node the walk enters,
//! every node the JSONPath engine is estimated to read ([`super::cost`]), every node a
//! function reads whole, and one for each rule's turn on a subject. Past it a rule stops on
//! that file, and says so (TLC008, `custom-rule-not-fully-checked`).

use std::cell::Cell;

/// Nodes all the custom rules of a file may read together, however small the file: a
/// repository writes its rules and files both, and 3,000 rules that each read a small
/// tool's few nodes, over 2,000 tools, took 13 s; one rule reading a nested list of 500
/// bytes a million times, in each of 400 skills, 8 s. This much is about what loading a
/// small file costs.
pub(crate) const SHARED_BASE: u64 = 10_000;

/// Nodes all the custom rules of a file may read together per byte of its first
/// [`SHARED_FIRST`] bytes, beyond [`SHARED_BASE`]. Ten rules a team might write (two of them
/// `$..*`, three more with `..`) read at most half a node a byte of any file of the public
/// repositories toolc is measured on, and within [`SHARED_BASE`] on all but the largest:
/// two a byte is four times that. A repository chooses the size of its files, so a rate
/// per byte is what its rules cost beyond the check whatever the size: at 16 a byte, 48
/// rules of `$..*` over 20 files of 1 MB took 13.7 s where the check alone took 1.4 s
/// (2.7 s now).
pub(crate) const SHARED_PER_BYTE: u64 = 2;

/// The bytes of a file that bring [`SHARED_PER_BYTE`] nodes each; each byte past them
/// brings [`SHARED_PER_BYTE_PAST`].
pub(crate) const SHARED_FIRST: u64 = 1 << 20;

/// Nodes all the custom rules of a file may read together per byte of it past its first
/// [`SHARED_FIRST`]. Reading a node takes about what checking a byte does (40 to 70 ns):
/// at 64 a byte, eight rules of `$..*` over a `tools.json` of 60 MB took 13.4 s where the
/// check alone took 5.1. At one a byte the rules of a large file take at most about as
/// long as its check, and one rule of `$..*` (three reads a node: the descent, the step,
/// the function) reads a file of tools to its end, whose nodes take more than three bytes
/// each (`"x",`); over a list of millions of `1,` it stops two thirds of the way.
pub(crate) const SHARED_PER_BYTE_PAST: u64 = 1;

/// Bytes of JSON a rule may build at once of any file, however small, beyond which it has
/// [`JSON_PER_BYTE`] of its file: the JSONPath engine reads a subject's JSON, and a value a
/// function compares or validates whole is made JSON, and such JSON takes 16 to 60 times
/// the bytes of a text of small values (a filter over a `tools.json` of 10 MB built 250 MB;
/// nodes alone do not say it).
pub(crate) const JSON_BASE: u64 = 32 << 20;

/// Bytes of JSON a rule may build at once per byte of its file, beyond [`JSON_BASE`].
pub(crate) const JSON_PER_BYTE: u64 = 1;

/// The bytes of JSON a rule may build at once of a file of `bytes` bytes.
pub(crate) fn json_cap(bytes: u64) -> u64 {
    JSON_BASE.saturating_add(bytes.saturating_mul(JSON_PER_BYTE))
}

/// Why a rule stopped on a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The rules of the file read all they may read together, or all but `left`, less
    /// than this rule would read next.
    Spent {
        /// All they may read.
        total: u64,
        /// What this rule read of it.
        read: u64,
        /// What was left of it.
        left: u64,
    },
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
}

/// What all the custom rules may still read of one file, and all they could.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Shared {
    left: u64,
    total: u64,
    /// The bytes it was made of (the file's, and the other files its subjects read).
    bytes: u64,
}

impl Shared {
    /// The share of a file of `bytes` bytes.
    pub(crate) fn for_file(bytes: usize) -> Shared {
        let mut shared = Shared {
            left: SHARED_BASE,
            total: SHARED_BASE,
            bytes: 0,
        };
        shared.grow(bytes);
        shared
    }

    /// `bytes` more bytes' worth: a subject read another file.
    pub(crate) fn grow(&mut self, bytes: usize) {
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        let first = bytes.min(SHARED_FIRST.saturating_sub(self.bytes));
        self.bytes = self.bytes.saturating_add(bytes);
        let more = first
            .saturating_mul(SHARED_PER_BYTE)
            .saturating_add((bytes - first).saturating_mul(SHARED_PER_BYTE_PAST));
        self.left = self.left.saturating_add(more);
        self.total = self.total.saturating_add(more);
    }

    /// The bytes it was made of: the file's, and those of the other files its subjects read.
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// True once the rules read all of it.
    pub(crate) fn spent(&self) -> bool {
        self.left == 0
    }
}

/// One rule's reading of one file: what it may still read of the file's share while it
/// reads a subject, what it read of the file, the JSON it may make at once. Shared by the
/// walk and the function calls it makes (hence cells: both hold it while the walk runs).
#[derive(Debug)]
pub(crate) struct Budget {
    /// What the share had left when the subject's reading began.
    start: Cell<u64>,
    left: Cell<u64>,
    /// The share's total, for the stop it makes.
    total: Cell<u64>,
    /// What the rule read of the file before this subject.
    read: Cell<u64>,
    /// Bytes of JSON it may build at once.
    json_cap: Cell<u64>,
    stop: Cell<Option<Stop>>,
}

impl Budget {
    /// A budget of `total` nodes (a share of that much, read by this rule alone).
    pub(crate) fn new(total: u64) -> Budget {
        Budget {
            start: Cell::new(total),
            left: Cell::new(total),
            total: Cell::new(total),
            read: Cell::new(0),
            json_cap: Cell::new(JSON_BASE),
            stop: Cell::new(None),
        }
    }

    /// A rule's reading of a file of `bytes` bytes: it reads within the file's share
    /// ([`Budget::within`]) and makes JSON within [`json_cap`].
    pub(crate) fn for_file(bytes: u64) -> Budget {
        let budget = Budget::new(0);
        budget.json_cap.set(json_cap(bytes));
        budget
    }

    /// Read one subject within what the file's rules may still read together, `shared`,
    /// then take from it what was read, and one more for the subject itself (a rule that
    /// reads nothing still costs its turn).
    pub(crate) fn within<T>(&self, shared: &mut Shared, read: impl FnOnce(&Budget) -> T) -> T {
        self.start.set(shared.left);
        self.left.set(shared.left);
        self.total.set(shared.total);
        let out = read(self);
        let read = shared.left.saturating_sub(self.left.get());
        self.read.set(self.read.get().saturating_add(read));
        self.start.set(self.left.get());
        shared.left = shared.left.saturating_sub(read.saturating_add(1));
        out
    }

    /// Stop before reading anything: the file's rules read all they may read together.
    pub(crate) fn stop_shared(&self, shared: &Shared) {
        if self.stop.get().is_none() {
            self.stop.set(Some(Stop::Spent {
                total: shared.total,
                read: self.read.get(),
                left: shared.left,
            }));
        }
    }

    /// The stop of a budget that ran out: the share read but for what is left, this much
    /// of it by this rule.
    fn out(&self) -> Stop {
        let now = self.start.get().saturating_sub(self.left.get());
        Stop::Spent {
            total: self.total.get(),
            read: self.read.get().saturating_add(now),
            left: self.left.get(),
        }
    }

    /// Allow `bytes` more bytes' worth of JSON: a subject read another file (a tool's
    /// schema in its own file), whose values an honest rule reads too. Nothing once
    /// stopped.
    pub(crate) fn grow(&self, bytes: usize) {
        if self.stop.get().is_none() {
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
            self.stop.set(Some(Stop::Json {
                cap: self.json_cap.get(),
            }));
        }
    }

    /// Read `n` nodes: false when fewer were left, and from then on nothing more is read.
    /// A stop takes nothing: the share loses only what was read, and the other rules read
    /// on in what is left.
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
                self.stop.set(Some(self.out()));
                false
            }
        }
    }

    /// Run the engine only when its `estimate` fits in what is left (and take it): false,
    /// and stopped, when it does not.
    pub(crate) fn take_estimate(&self, estimate: u64) -> bool {
        let left = self.left.get();
        if self.stop.get().is_none() && estimate > left {
            self.stop.set(Some(Stop::Engine { estimate, left }));
        }
        self.take(estimate)
    }

    /// What is left to read: nothing once stopped.
    pub(crate) fn left(&self) -> u64 {
        match self.stop.get() {
            Some(_) => 0,
            None => self.left.get(),
        }
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
        assert_eq!(
            budget.stopped(),
            Some(Stop::Spent {
                total: 10,
                read: 10,
                left: 0
            })
        );
        // Stopped stays stopped, whatever is asked, and has nothing left.
        assert!(!budget.take(0));
        assert_eq!(budget.left(), 0);

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

    /// The rules of a file read within one share, a rule's turn on a subject costing one
    /// node even when it reads none; a rule that stops takes from it only what it read.
    #[test]
    fn the_rules_of_a_file_read_within_one_share() {
        let mut shared = Shared::for_file(0);
        assert_eq!(shared.left, SHARED_BASE);
        let first = Budget::for_file(0);
        assert!(first.within(&mut shared, |b| b.take(SHARED_BASE - 100)));
        assert_eq!(shared.left, 99);
        // A rule that needs more than is left stops there, having read nothing of it.
        let greedy = Budget::for_file(0);
        assert!(!greedy.within(&mut shared, |b| b.take(500)));
        assert_eq!(
            greedy.stopped(),
            Some(Stop::Spent {
                total: SHARED_BASE,
                read: 0,
                left: 99
            })
        );
        assert_eq!(shared.left, 98);
        // The engine's estimate past what is left stops it alone, too.
        let engine = Budget::for_file(0);
        assert!(!engine.within(&mut shared, |b| b.take_estimate(99)));
        assert!(matches!(engine.stopped(), Some(Stop::Engine { .. })));
        assert_eq!(shared.left, 97);
        // Another reads the rest, over two subjects: the stop counts both.
        let last = Budget::for_file(0);
        assert!(last.within(&mut shared, |b| b.take(40)));
        assert!(!last.within(&mut shared, |b| b.take(60)));
        assert_eq!(
            last.stopped(),
            Some(Stop::Spent {
                total: SHARED_BASE,
                read: 40,
                left: 56
            })
        );
        assert!(!last.within(&mut shared, |b| b.take(15)));
        // A rule whose turn comes after the share is spent is stopped before it reads.
        let mut spent = Shared::for_file(0);
        let all = Budget::for_file(0);
        assert!(all.within(&mut spent, |b| b.take(SHARED_BASE - 1)));
        assert!(spent.spent());
        let after = Budget::for_file(0);
        after.stop_shared(&spent);
        assert_eq!(
            after.stopped(),
            Some(Stop::Spent {
                total: SHARED_BASE,
                read: 0,
                left: 0
            })
        );
    }

    #[test]
    fn a_large_file_has_more() {
        assert_eq!(Shared::for_file(0).left, SHARED_BASE);
        assert_eq!(
            Shared::for_file(1000).left,
            SHARED_BASE + 1000 * SHARED_PER_BYTE
        );
        // Past the first MiB, a byte brings less: the rules of a large file take about as
        // long as its check.
        let mib: u64 = 1 << 20;
        assert_eq!(
            Shared::for_file(3 << 20).total,
            SHARED_BASE + mib * SHARED_PER_BYTE + 2 * mib * SHARED_PER_BYTE_PAST
        );
        assert_eq!(Shared::for_file(usize::MAX).left, u64::MAX);
        // A schema read from another file adds its bytes' worth, past the first MiB of both
        // as one.
        let mut shared = Shared::for_file(0);
        shared.grow(5);
        assert_eq!(shared.total, SHARED_BASE + 5 * SHARED_PER_BYTE);
        let mut shared = Shared::for_file((1 << 20) - 10);
        shared.grow(30);
        let first = mib * SHARED_PER_BYTE;
        assert_eq!(
            shared.total,
            SHARED_BASE + first + 20 * SHARED_PER_BYTE_PAST
        );
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
