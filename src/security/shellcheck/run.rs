//! Running ShellCheck on a repository's scripts with limits: its parser is super-linear on
//! some inputs (6 KB of `[` keeps it busy for minutes, 160 KB of script takes 50 s and
//! 1.6 GB), and a hostile repository chooses the scripts. So each script is at most
//! [`MAX_SCRIPT_BYTES`], each batch at most [`BATCH_BYTES`], each process has a memory limit
//! (Linux), is killed with its process group when it runs over, and dies with toolc; and
//! each script has its own time ([`time_for`]), watched inside its batch's process
//! ([`watch`]). The script a process was stopped on is the one at fault (`SHC004` says so);
//! the batch's others run again in a new process. After [`MAX_STALLS`] such scripts in a
//! run, nothing more is handed to ShellCheck.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{Comment, as_variables};

mod watch;

use watch::{Handed, Ran};

/// Scripts longer than this are not handed to ShellCheck (a real embedded script is a few
/// lines; a longer one belongs in a file of its own).
pub(super) const MAX_SCRIPT_BYTES: usize = 16 * 1024;

/// Scripts per ShellCheck process.
const BATCH: usize = 200;

/// Bytes of script per ShellCheck process.
const BATCH_BYTES: usize = 64 * 1024;

/// Scripts ShellCheck may be stopped on in one run before no more are handed to it: each
/// costs its own time and its batch's others run again.
pub(super) const MAX_STALLS: usize = 2;

/// How long ShellCheck may take over all the scripts of a run, from the first process to the
/// last: each script's own time keeps one script from stalling a run, this keeps many
/// scripts that each take ShellCheck just under theirs (1,300 `[` take it a second) from
/// stalling it one after another (30 such scripts took 30 s). A run of 2,000 honest scripts
/// takes about 2 s on two cores: 6 s there and beyond, 12 s on one core, where the batches
/// run one after another.
pub(super) fn run_time() -> Duration {
    if rayon::current_num_threads() >= 2 {
        Duration::from_secs(6)
    } else {
        Duration::from_secs(12)
    }
}

/// How long a process over a batch may take as a whole when ShellCheck does not say how far
/// it got (a batch of 200 scripts takes about a second): well within [`run_time`], so that
/// the script at fault can still be found, one process a script, after a stop.
const BATCH_TIME: Duration = Duration::from_secs(3);

/// The memory one ShellCheck process may take (`RLIMIT_DATA`: GHC's runtime reserves a large
/// address space it never uses, which an address-space limit would refuse). Batches of 64 KiB
/// of real scripts took at most 55 MB; 16 KB of different `$vN` words take ShellCheck 2.9 GB
/// and 12 s.
pub(super) const MEMORY_BYTES: u64 = 256 * 1024 * 1024;

/// How long ShellCheck may take over one script of `bytes`: 1.5 s, and 30 µs a byte (64 KiB
/// of a repository's real scripts took ShellCheck 2 s in all on a busy machine; a script of
/// 6 KB gets 1.7 s, one of 16 KiB 2 s).
pub(super) fn time_for(bytes: usize) -> Duration {
    let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
    Duration::from_millis(1500) + Duration::from_micros(bytes.saturating_mul(30))
}

/// What ShellCheck said of one script.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Its findings.
    Checked(Vec<Comment>),
    /// It ran over its time or memory, or broke, on this script: stopped.
    Stopped,
    /// Not run: ShellCheck had been stopped on [`MAX_STALLS`] scripts of this run already.
    Unstarted,
    /// Not run, or not finished: the run's [`run_time`] was spent.
    Late,
}

/// Each script's outcome, in order; `None` when ShellCheck cannot be run at all.
pub(super) fn run_all(scripts: &[&str]) -> Option<Vec<Outcome>> {
    let dir = private_dir()?;
    let batches = batches(scripts);
    let stalls = AtomicUsize::new(0);
    let deadline = Instant::now() + run_time();
    let result: Option<Vec<Vec<Outcome>>> = batches
        .par_iter()
        .enumerate()
        .map(|(n, range)| run_batch(&dir.0, n, &scripts[range.clone()], (&stalls, deadline)))
        .collect();
    Some(result?.into_iter().flatten().collect())
}

/// The scripts split into batches of at most [`BATCH`] scripts and [`BATCH_BYTES`] bytes.
fn batches(scripts: &[&str]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, s) in scripts.iter().enumerate() {
        if i > start && (i - start >= BATCH || bytes + s.len() > BATCH_BYTES) {
            out.push(start..i);
            (start, bytes) = (i, 0);
        }
        bytes += s.len();
    }
    if start < scripts.len() {
        out.push(start..scripts.len());
    }
    out
}

/// One batch: one process; when it is stopped on a script, that script is stopped and the
/// rest run again in a new process; when it cannot say on which, one process per script.
/// Nothing is started once `stalls` (scripts of this run ShellCheck was stopped on) reaches
/// [`MAX_STALLS`], nor past the run's `deadline` (a process running then is stopped).
fn run_batch(
    dir: &Path,
    batch: usize,
    scripts: &[&str],
    (stalls, deadline): (&AtomicUsize, Instant),
) -> Option<Vec<Outcome>> {
    let stalled = || stalls.load(Ordering::Relaxed) >= MAX_STALLS;
    if Instant::now() >= deadline {
        return Some(scripts.iter().map(|_| Outcome::Late).collect());
    }
    let stop = || {
        stalls.fetch_add(1, Ordering::Relaxed);
        Outcome::Stopped
    };
    if stalled() {
        return Some(scripts.iter().map(|_| Outcome::Unstarted).collect());
    }
    let files = write_scripts(dir, &format!("b{batch}"), scripts)?;
    let handed = |i: usize| Handed {
        name: &files[i],
        limit: time_for(scripts[i].len()),
    };
    let mut outcomes: Vec<Option<Outcome>> = scripts.iter().map(|_| None).collect();
    let mut left: Vec<usize> = (0..scripts.len()).collect();
    for round in 0.. {
        if left.is_empty() || stalled() {
            break;
        }
        if Instant::now() >= deadline {
            for &i in &left {
                outcomes[i] = Some(Outcome::Late);
            }
            break;
        }
        let these: Vec<Handed<'_>> = left.iter().map(|&i| handed(i)).collect();
        match watch::run(
            dir,
            &these,
            &format!("b{batch}r{round}m"),
            (BATCH_TIME, deadline),
        ) {
            Ran::Checked(comments) => {
                for (&i, c) in left.iter().zip(comments) {
                    outcomes[i] = Some(Outcome::Checked(c));
                }
                break;
            }
            Ran::CannotRun => return None,
            Ran::Late => {
                for &i in &left {
                    outcomes[i] = Some(Outcome::Late);
                }
                break;
            }
            Ran::Stopped { at: Some(k) } => {
                let i = left.remove(k);
                outcomes[i] = Some(stop());
            }
            Ran::Stopped { at: None } => {
                let alone: Vec<(usize, Outcome)> = left
                    .par_iter()
                    .map(|&i| {
                        if stalled() {
                            return Some((i, Outcome::Unstarted));
                        }
                        if Instant::now() >= deadline {
                            return Some((i, Outcome::Late));
                        }
                        let one = handed(i);
                        let marker = format!("b{batch}s{i}m");
                        let alone = std::slice::from_ref(&one);
                        let outcome = match watch::run(dir, alone, &marker, (one.limit, deadline)) {
                            Ran::Checked(mut c) => Outcome::Checked(c.pop().unwrap_or_default()),
                            Ran::Stopped { .. } => stop(),
                            Ran::Late => Outcome::Late,
                            Ran::CannotRun => return None,
                        };
                        Some((i, outcome))
                    })
                    .collect::<Option<_>>()?;
                for (i, o) in alone {
                    outcomes[i] = Some(o);
                }
                break;
            }
        }
    }
    Some(
        outcomes
            .into_iter()
            .map(|o| o.unwrap_or(Outcome::Unstarted))
            .collect(),
    )
}

/// Write each script to its own new file in `dir`; their names.
fn write_scripts(dir: &Path, prefix: &str, scripts: &[&str]) -> Option<Vec<String>> {
    let mut files = Vec::with_capacity(scripts.len());
    for (i, script) in scripts.iter().enumerate() {
        let name = format!("{prefix}-{i}.sh");
        let path = dir.join(&name);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .ok()?;
        std::io::Write::write_all(&mut f, as_variables(script).as_bytes()).ok()?;
        files.push(name);
    }
    Some(files)
}

/// A folder only this process writes in, removed when dropped.
pub(super) struct PrivateDir(pub PathBuf);

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What private folders start with; then the process id.
const DIR_PREFIX: &str = "toolc-shellcheck-";

/// A new folder under the temporary directory, created here (never an existing one, so a
/// planted link cannot redirect the scripts), readable by this user only. The first one a
/// process makes also removes those left by processes that no longer run (a killed server).
pub(super) fn private_dir() -> Option<PrivateDir> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let base = std::env::temp_dir();
    SWEPT.call_once(|| sweep(&base));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for attempt in 0..16 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = base.join(format!(
            "{DIR_PREFIX}{}-{nanos:x}-{n}-{attempt}",
            std::process::id()
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        if builder.create(&path).is_ok() {
            return Some(PrivateDir(path));
        }
    }
    None
}

/// Remove the private folders in `base` of processes that no longer run (Linux: `/proc`
/// says), when they are this user's; links are never followed.
fn sweep(base: &Path) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(entries) = std::fs::read_dir(base) else {
            return;
        };
        let me = rustix::process::getuid().as_raw();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|n| n.strip_prefix(DIR_PREFIX))
                .and_then(|rest| rest.split('-').next())
                .and_then(|pid| pid.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
                continue;
            };
            let gone = !Path::new("/proc").join(pid.to_string()).exists();
            if gone && meta.is_dir() && meta.uid() == me {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = base;
}
