//! Limits for the git processes a diff runs, as for ShellCheck: the repository chooses what
//! git reads (its history, its packs, its configuration), so every call has a time limit, a
//! memory limit (Linux), a cap on what it may print, runs in a process group of its own and
//! dies with toolc. A call that runs over is killed with everything it started, and its error
//! says which limit stopped it.

use crate::fs::child;
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one plumbing call may take (`rev-parse`, `merge-base`, `ls-tree`): each takes
/// milliseconds on a repository of a hundred thousand commits.
pub(super) const CALL_TIME: Duration = Duration::from_secs(20);

/// How long `git cat-file` may take over one blob (at most the 64 MiB read cap).
pub(super) const READ_TIME: Duration = Duration::from_secs(20);

/// The memory one git process may take (`RLIMIT_DATA`: the packs git maps to read are not
/// counted, what it allocates is).
const MEMORY_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// What a plumbing call may print: a tree listing of half a million files is about 60 MB.
pub(super) const MAX_OUTPUT_BYTES: u64 = 256 * 1024 * 1024;

/// What git's error output is read for: its first line.
const MAX_STDERR_BYTES: u64 = 64 * 1024;

/// How a limited call ended.
pub(super) enum Ran {
    /// It exited by itself.
    Exited {
        /// True on exit status 0.
        success: bool,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    /// It was killed: it ran over its time, printed more than it may, or died by a signal
    /// (the memory limit).
    Stopped(String),
}

/// Why the first call of this process that was stopped was: every call after it fails at
/// once, so that a repository that stalls git costs one time limit, not one per call.
static STOPPED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Run `command` to its end within [`CALL_TIME`] and [`MAX_OUTPUT_BYTES`].
pub(super) fn run(command: Command) -> std::io::Result<Ran> {
    if let Some(why) = STOPPED.get() {
        return Ok(Ran::Stopped(format!("not run: an earlier git call {why}")));
    }
    let ran = run_once(command)?;
    if let Ran::Stopped(why) = &ran {
        let _ = STOPPED.set(why.clone());
    }
    Ok(ran)
}

fn run_once(mut command: Command) -> std::io::Result<Ran> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    confine(&mut command);
    let mut child = command.spawn()?;
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    // Read as it comes, so a full pipe never stalls the child while the clock runs.
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(o) = stdout {
            let _ = o.take(MAX_OUTPUT_BYTES + 1).read_to_end(&mut bytes);
        }
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(e) = stderr {
            let _ = e.take(MAX_STDERR_BYTES).read_to_end(&mut bytes);
        }
        bytes
    });
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    let ended = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if started.elapsed() >= CALL_TIME => {
                break Err(format!(
                    "it ran over its {} s limit and was stopped",
                    CALL_TIME.as_secs()
                ));
            }
            Ok(None) if out.is_finished() => {
                // Its output reached the cap (or it closed it early): wait a moment for it.
                match child.wait_timeout_soon() {
                    Some(status) => break Ok(status),
                    None => {
                        break Err(format!(
                            "it printed more than {} MiB and was stopped",
                            MAX_OUTPUT_BYTES >> 20
                        ));
                    }
                }
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => break Err(format!("it could not be watched ({e}) and was stopped")),
        }
    };
    if ended.is_err() {
        child::stop(&mut child);
    }
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let status = match ended {
        Ok(status) => status,
        Err(why) => return Ok(Ran::Stopped(why)),
    };
    if stdout.len() as u64 > MAX_OUTPUT_BYTES {
        return Ok(Ran::Stopped(format!(
            "it printed more than {} MiB and was stopped",
            MAX_OUTPUT_BYTES >> 20
        )));
    }
    if status.code().is_none() {
        return Ok(Ran::Stopped(
            "it was killed by a signal (its memory limit, or another process)".to_string(),
        ));
    }
    Ok(Ran::Exited {
        success: status.success(),
        stdout,
        stderr,
    })
}

/// Waiting a little for a child that closed its output.
trait WaitSoon {
    fn wait_timeout_soon(&mut self) -> Option<std::process::ExitStatus>;
}

impl WaitSoon for Child {
    fn wait_timeout_soon(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(status)) = self.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

/// Start the child confined (see [`child::confine`]).
pub(super) fn confine(command: &mut Command) {
    child::confine(command, MEMORY_BYTES);
}

/// Kills a long-lived child (`git cat-file --batch`) whose current read runs over
/// [`READ_TIME`]: the read then ends at the closed pipe, and says why.
pub(super) struct Watchdog {
    state: Arc<Mutex<Watch>>,
    done: Arc<AtomicBool>,
}

struct Watch {
    /// When the read in progress started.
    since: Option<Instant>,
    /// Set once the child was killed for running over.
    fired: bool,
}

impl Watchdog {
    /// Watch the child with process id `id`.
    pub(super) fn start(id: u32) -> Watchdog {
        let state = Arc::new(Mutex::new(Watch {
            since: None,
            fired: false,
        }));
        let done = Arc::new(AtomicBool::new(false));
        let (watched, finished) = (Arc::clone(&state), Arc::clone(&done));
        std::thread::spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                let mut w = watched.lock().unwrap_or_else(|e| e.into_inner());
                if w.since.is_some_and(|s| s.elapsed() >= READ_TIME) && !w.fired {
                    w.fired = true;
                    child::kill_group(id);
                }
            }
        });
        Watchdog { state, done }
    }

    fn watch(&self) -> std::sync::MutexGuard<'_, Watch> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A read starts now.
    pub(super) fn begin(&self) {
        self.watch().since = Some(Instant::now());
    }

    /// The read ended; why the child was stopped, if it was.
    pub(super) fn end(&self) -> Option<String> {
        let mut w = self.watch();
        w.since = None;
        w.fired.then(|| {
            format!(
                "it ran over its {} s limit for one file and was stopped",
                READ_TIME.as_secs()
            )
        })
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}
