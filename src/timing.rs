//! Where a run's wall time goes, on stderr under `TOOLC_DEBUG_TIMES` (for measuring; silent
//! otherwise): each mark prints the time since the previous one.

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
            "toolc: time: {label:<12} {:>7.2} ms",
            (now - then).as_secs_f64() * 1e3
        );
    }
    *last = Some(now);
}
