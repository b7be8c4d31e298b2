//! Where a run's wall time and memory go, on stderr under `TOOLC_DEBUG_TIMES` (for
//! measuring; silent otherwise): each mark prints the time since the previous one and since
//! the first, and on Linux the resident memory now and at its peak so far (not under
//! `TOOLC_DEBUG_TIMES=wall`: reading it stalls the other threads' page faults), and how many
//! files the repository facade has read.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The first mark and the last.
static MARKS: Mutex<Option<(Instant, Instant)>> = Mutex::new(None);

/// What to print: nothing, times, or times and memory.
#[derive(Clone, Copy, PartialEq)]
enum Show {
    Nothing,
    Wall,
    WallAndMemory,
}

fn show() -> Show {
    static SHOW: OnceLock<Show> = OnceLock::new();
    *SHOW.get_or_init(|| match std::env::var_os("TOOLC_DEBUG_TIMES") {
        None => Show::Nothing,
        Some(v) if v == "wall" => Show::Wall,
        Some(_) => Show::WallAndMemory,
    })
}

/// The phase `label` ends now.
pub(crate) fn mark(label: &str) {
    note(label, true);
}

/// Something another thread finished now (the time since the last mark is not the time it
/// took).
pub(crate) fn event(label: &str) {
    note(label, false);
}

fn note(label: &str, phase: bool) {
    let show = show();
    if show == Show::Nothing {
        return;
    }
    let now = Instant::now();
    let mut marks = MARKS.lock().unwrap_or_else(|e| e.into_inner());
    let Some((first, last)) = *marks else {
        *marks = Some((now, now));
        return;
    };
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let took = if phase {
        format!("{:>7.2} ms", ms(now - last))
    } else {
        "          ".to_string()
    };
    let memory = if show == Show::WallAndMemory {
        memory()
    } else {
        String::new()
    };
    eprintln!(
        "toolc: time: {label:<12} {took} at {:>7.2} ms  files read {:>6}{memory}",
        ms(now - first),
        crate::fs::files_read()
    );
    if phase {
        *marks = Some((first, now));
    }
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
