//! The `toolc` binary: the command line lives in the library (`toolc::cli`).

// mimalloc: a check is millions of small allocations on every core, and glibc's per-thread
// arenas spent as much time in the kernel (growing, trimming and faulting in their heaps) as
// the check itself on a large repository's first run.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's option numbers (`mi_option_e` of the pinned version; a test checks them).
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc's options for toolc: memory given back at once and committed as it is used.
/// With its defaults (freed memory kept for a second, arenas committed whole) a
/// 100,000-tool repository's first run peaked a tenth higher.
#[cfg_attr(all(target_os = "linux", test), allow(dead_code))]
extern "C" fn tune() {
    // SAFETY: setting an option is a plain store, made before any allocation.
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
        libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
    }
}

// Before anything allocates: how arenas are committed is decided when the first is made,
// which is before `main` (std's own start-up runs from `.init_array.00099`).
// Not in the unit tests, which read the defaults.
#[cfg(all(target_os = "linux", not(test)))]
#[used]
#[unsafe(link_section = ".init_array.00098")]
static TUNE: extern "C" fn() = tune;

fn main() -> std::process::ExitCode {
    #[cfg(not(target_os = "linux"))]
    tune();
    toolc::cli::main()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_numbers_are_the_linked_mimallocs() {
        // Their defaults in the pinned version (purge delay 1,000 ms; eager arena commit 2,
        // "on systems that overcommit"): a version that renumbers its options fails here,
        // not silently.
        // SAFETY: reading an option is a plain load.
        let (delay, eager) = unsafe {
            (
                libmimalloc_sys::mi_option_get(PURGE_DELAY),
                libmimalloc_sys::mi_option_get(ARENA_EAGER_COMMIT),
            )
        };
        assert_eq!((delay, eager), (1000, 2));
    }
}
