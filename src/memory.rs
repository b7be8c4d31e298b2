//! How the allocator gives freed memory back to the system. mimalloc's options are set
//! before anything allocates (the binary calls [`tune`] first): freed memory goes back after
//! a short delay, and once a large file is read, at once.
//!
//! Measured (docs/performance.md, "Freed memory given back after 10 ms"): given back at once,
//! every run paid the kernel for unmapping freed pages and faulting them in again, 11 % of the
//! CPU of a check of 10,000 tools; kept for a few milliseconds, a file dense with tiny values
//! peaked far higher (a YAML list of 4 million tags at 10× its size instead of 7×), because
//! the parse frees and allocates faster than the delay lets memory go.

mod chunked;
pub(crate) mod exact;
mod least;

pub(crate) use chunked::Chunked;
pub(crate) use least::Least;

use std::os::raw::c_long;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};

/// mimalloc's option numbers (`mi_option_e` of the pinned version; a test checks them).
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long freed memory is kept for reuse on an ordinary run, in milliseconds.
const SHORT_DELAY: c_long = 10;

/// How long freed memory is kept while a long Markdown body is read a piece at a time, in
/// milliseconds: long enough for the next piece's tree to reuse the last one's pages; a
/// second (mimalloc's default) also held what the checks freed meanwhile, 100 MiB more at
/// the peak of 2 million links (docs/performance.md, "Dense files, ninth pass (time)").
const PIECES_DELAY: c_long = 50;

/// The delay to go back to when no long body is being read: [`SHORT_DELAY`], or 0 once a
/// large file is read.
static BASE_DELAY: AtomicIsize = AtomicIsize::new(SHORT_DELAY as isize);

/// Whether [`tune`] was called: only then does a [`KeepFreed`] change the delay (the unit
/// tests, which read long bodies in parallel, leave mimalloc's options alone).
static TUNED: AtomicBool = AtomicBool::new(false);

/// How many [`KeepFreed`] are alive, in all threads.
static KEEPERS: AtomicUsize = AtomicUsize::new(0);

/// A file at least this large makes memory the limit of the run, not the CPU.
pub(crate) const LARGE_FILE: u64 = 4 << 20;

/// mimalloc's options for toolc: memory given back after [`SHORT_DELAY`] and committed as it
/// is used (with its defaults, freed memory kept for a second and arenas committed whole, a
/// 100,000-tool repository's first run peaked a tenth higher). Called before anything
/// allocates: how arenas are committed is decided when the first is made.
pub extern "C" fn tune() {
    TUNED.store(true, Ordering::SeqCst);
    options();
}

/// Sets the options of [`tune`].
fn options() {
    // SAFETY: setting an option is a plain store.
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, SHORT_DELAY);
        libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
    }
}

/// A file of at least [`LARGE_FILE`] bytes is being read: from now on freed memory goes back
/// at once, so that what a dense file's parse frees is not held beside what it builds.
pub(crate) fn large_file() {
    give_back_at_once();
}

/// From now on freed memory goes back at once, whatever the size of the files: for a run
/// that parses what it loaded again on another thread (`toolc lock` its servers' records,
/// `toolc diff` the pairs it compares). What a loading thread frees stays its own, waiting
/// for the delay while the thread waits for work, beside the second parse: the lock of an
/// `.mcp.json` of 60,000 one-line servers (1.5 MB) held its tree twice, 10.4 times the
/// file's size instead of 9.1.
pub(crate) fn give_back_at_once() {
    BASE_DELAY.store(0, Ordering::SeqCst);
    if KEEPERS.load(Ordering::SeqCst) == 0 || !TUNED.load(Ordering::SeqCst) {
        set_delay(0);
    }
}

/// While one is alive, freed memory is kept for [`PIECES_DELAY`] before it goes back. Each
/// piece of a long Markdown body is parsed by pulldown-cmark into a tree of its own, grown by
/// doubling and freed at the piece's end: given back at once, the next piece faulted the
/// same megabytes in again (2 million page faults, 4 s of system time, for a body of 2
/// million links read five times over). Kept, the next piece's tree reuses them.
///
/// The delay is global: two threads that start and end such walks at once may leave the
/// other's walk with the shorter delay for a while, which costs time, never a finding.
pub(crate) struct KeepFreed(());

impl KeepFreed {
    /// Keep freed memory until this is dropped (and the last other one with it).
    pub(crate) fn new() -> KeepFreed {
        if KEEPERS.fetch_add(1, Ordering::SeqCst) == 0 && TUNED.load(Ordering::SeqCst) {
            set_delay(PIECES_DELAY);
        }
        KeepFreed(())
    }
}

impl Drop for KeepFreed {
    fn drop(&mut self) {
        if KEEPERS.fetch_sub(1, Ordering::SeqCst) == 1 && TUNED.load(Ordering::SeqCst) {
            set_delay(BASE_DELAY.load(Ordering::SeqCst) as c_long);
        }
    }
}

fn set_delay(delay: c_long) {
    // SAFETY: setting an option is a plain store; a racing reader sees the old or the new
    // delay, either of which is valid.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, delay) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_numbers_are_the_linked_mimallocs_and_a_large_file_gives_memory_back_at_once() {
        // Their defaults in the pinned version (purge delay 1,000 ms; eager arena commit 2,
        // "on systems that overcommit"): a version that renumbers its options fails here,
        // not silently. The unit tests do not call `tune`.
        // SAFETY: reading an option is a plain load.
        let get = |option| unsafe { libmimalloc_sys::mi_option_get(option) };
        assert_eq!((get(PURGE_DELAY), get(ARENA_EAGER_COMMIT)), (1000, 2));
        options();
        assert_eq!(
            (get(PURGE_DELAY), get(ARENA_EAGER_COMMIT)),
            (SHORT_DELAY, 0)
        );
        large_file();
        assert_eq!(get(PURGE_DELAY), 0);
    }
}
