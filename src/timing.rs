//! Where a run's wall time and memory go, on stderr under `TOOLC_DEBUG_TIMES` (for
//! measuring; silent otherwise): each mark prints the time since the previous one, and on
//! Linux the resident memory now and at its peak so far.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

static LAST: Mutex<Option<Instant>> = Mutex::new(None);

fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("TOOLC_DEBUG_TIMES").is_some())
}

/// The phase `label` ends now.
pub(crate) fn mark(label: &str) {
    if !on() {
        return;
    }
    let now = Instant::now();
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(then) = *last {
        eprintln!(
            "toolc: time: {label:<12} {:>7.2} ms{}",
            (now - then).as_secs_f64() * 1e3,
            memory()
        );
    }
    *last = Some(now);
}

/// The resident memory and its peak, from `/proc/self/status` (empty where there is none).
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| -> Option<f64> {
        let kib: f64 = status
            .lines()
            .find_map(|l| l.strip_prefix(name))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some(kib / 1024.0)
    };
    match (field("VmRSS:"), field("VmHWM:")) {
        (Some(rss), Some(peak)) => format!("  rss {rss:>7.1} MiB  peak {peak:>7.1} MiB"),
        _ => String::new(),
    }
}
