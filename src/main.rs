//! The `toolc` binary: the command line lives in the library (`toolc::cli`).

// mimalloc: a check is millions of small allocations on every core, and glibc's per-thread
// arenas spent as much time in the kernel (growing, trimming and faulting in their heaps) as
// the check itself on a large repository's first run.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Before anything allocates: how arenas are committed is decided when the first is made,
// which is before `main` (std's own start-up runs from `.init_array.00099`).
// Not in the unit tests, which read the defaults.
#[cfg(all(target_os = "linux", not(test)))]
#[used]
#[unsafe(link_section = ".init_array.00098")]
static TUNE: extern "C" fn() = toolc::memory::tune;

fn main() -> std::process::ExitCode {
    #[cfg(not(target_os = "linux"))]
    toolc::memory::tune();
    toolc::cli::main()
}
