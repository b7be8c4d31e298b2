//! Running ShellCheck on a repository's scripts with limits: its parser is super-linear on
//! some inputs (6 KB of `[` keeps it busy for minutes, 160 KB of script takes 50 s and
//! 1.6 GB), and a hostile repository chooses the scripts. So each script is at most
//! [`MAX_SCRIPT_BYTES`], each batch at most [`BATCH_BYTES`], each process has a time limit
//! and (Linux) a memory limit, is killed with its process group when it runs over, and dies
//! with toolc. A batch that runs over or breaks is run again one script at a time, so only
//! the script at fault goes unchecked, and a finding (`SHC004`) says so; after
//! [`MAX_STALLS`] such scripts in a run, nothing more is handed to ShellCheck.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{Comment, Output, as_variables, program};

/// Scripts longer than this are not handed to ShellCheck (a real embedded script is a few
/// lines; a longer one belongs in a file of its own).
pub(super) const MAX_SCRIPT_BYTES: usize = 16 * 1024;

/// Scripts per ShellCheck process.
const BATCH: usize = 200;

/// Bytes of script per ShellCheck process.
const BATCH_BYTES: usize = 64 * 1024;

/// Scripts ShellCheck may be stopped on in one run before no more are handed to it: a
/// repository of many scripts that each stall its parser cost a batch's time and each
/// script's own, one after another.
pub(super) const MAX_STALLS: usize = 2;

/// How long one process over a batch may take (a batch of 200 scripts takes about a second;
/// a stand-in or a busy machine, several).
const BATCH_TIME: Duration = Duration::from_secs(8);

/// How long one process over a single script of `bytes` may take, once its batch ran over:
/// 1.5 s, and 30 µs a byte (64 KiB of a repository's real scripts took ShellCheck 2 s on a
/// busy machine; a script of 6 KB gets 1.7 s, one of 16 KiB 2 s). A script that stalls the
/// parser costs its batch's 8 s and its own 1.7 s, where a fixed 4 s made it 12 s.
pub(super) fn time_for(bytes: usize) -> Duration {
    let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
    Duration::from_millis(1500) + Duration::from_micros(bytes.saturating_mul(30))
}

/// The memory one ShellCheck process may take (`RLIMIT_DATA`: GHC's runtime reserves a large
/// address space it never uses, which an address-space limit would refuse).
const MEMORY_BYTES: u64 = 1024 * 1024 * 1024;

/// ShellCheck's output read at most: past this it is not JSON worth reading.
const MAX_OUTPUT_BYTES: u64 = 64 * 1024 * 1024;

/// What ShellCheck said of one script.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Its findings.
    Checked(Vec<Comment>),
    /// It ran over its time or memory, or broke, on this script alone: stopped.
    Stopped,
    /// Not run: ShellCheck had been stopped on [`MAX_STALLS`] scripts of this run already.
    Unstarted,
}

/// Why a process gave no answer.
enum Failure {
    /// It could not be started (not installed): nothing can be checked.
    CannotRun,
    /// It ran over its time, was killed, or its output was not JSON.
    Stopped,
}

/// Each script's outcome, in order; `None` when ShellCheck cannot be run at all.
pub(super) fn run_all(scripts: &[&str]) -> Option<Vec<Outcome>> {
    let dir = private_dir()?;
    let batches = batches(scripts);
    let stalls = AtomicUsize::new(0);
    let result: Option<Vec<Vec<Outcome>>> = batches
        .par_iter()
        .enumerate()
        .map(|(n, range)| run_batch(&dir.0, n, &scripts[range.clone()], &stalls))
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

/// One batch: one process; when it fails, one process per script. Nothing is started once
/// `stalls` (scripts of this run ShellCheck was stopped on) reaches [`MAX_STALLS`].
fn run_batch(
    dir: &Path,
    batch: usize,
    scripts: &[&str],
    stalls: &AtomicUsize,
) -> Option<Vec<Outcome>> {
    let stalled = || stalls.load(Ordering::Relaxed) >= MAX_STALLS;
    if stalled() {
        return Some(scripts.iter().map(|_| Outcome::Unstarted).collect());
    }
    let files = write_scripts(dir, &format!("b{batch}"), scripts)?;
    match run_one(&files, BATCH_TIME) {
        Ok(comments) => Some(comments.into_iter().map(Outcome::Checked).collect()),
        Err(Failure::CannotRun) => None,
        Err(Failure::Stopped) => scripts
            .par_iter()
            .zip(&files)
            .map(|(script, file)| {
                if stalled() {
                    return Some(Outcome::Unstarted);
                }
                match run_one(std::slice::from_ref(file), time_for(script.len())) {
                    Ok(mut one) => Some(Outcome::Checked(one.pop().unwrap_or_default())),
                    Err(Failure::Stopped) => {
                        stalls.fetch_add(1, Ordering::Relaxed);
                        Some(Outcome::Stopped)
                    }
                    Err(Failure::CannotRun) => None,
                }
            })
            .collect(),
    }
}

/// Write each script to its own new file in `dir`; their paths.
fn write_scripts(dir: &Path, prefix: &str, scripts: &[&str]) -> Option<Vec<PathBuf>> {
    let mut files = Vec::with_capacity(scripts.len());
    for (i, script) in scripts.iter().enumerate() {
        let path = dir.join(format!("{prefix}-{i}.sh"));
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .ok()?;
        std::io::Write::write_all(&mut f, as_variables(script).as_bytes()).ok()?;
        files.push(path);
    }
    Some(files)
}

/// One ShellCheck process over `files`, within `limit`: the comments of each file.
fn run_one(files: &[PathBuf], limit: Duration) -> Result<Vec<Vec<Comment>>, Failure> {
    let program = program().ok_or(Failure::CannotRun)?;
    let mut command = Command::new(program);
    command
        .args(["--format=json1", "--shell=bash", "--norc", "--"])
        .args(files)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    crate::fs::child::confine(&mut command, MEMORY_BYTES);
    let mut child = command.spawn().map_err(|_| Failure::CannotRun)?;
    let stdout = child.stdout.take();
    // Read as it comes, so a full pipe never stalls the child while the clock runs.
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(out) = stdout {
            let _ = out.take(MAX_OUTPUT_BYTES).read_to_end(&mut bytes);
        }
        bytes
    });
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    let finished = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code().is_some(),
            Ok(None) if started.elapsed() >= limit => break false,
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(_) => break false,
        }
    };
    if !finished {
        crate::fs::child::stop(&mut child);
    }
    let stdout = reader.join().unwrap_or_default();
    if !finished {
        return Err(Failure::Stopped);
    }
    let parsed: Output = serde_json::from_slice(&stdout).map_err(|_| Failure::Stopped)?;
    let index: HashMap<String, usize> = files
        .iter()
        .enumerate()
        .map(|(i, p)| (p.to_string_lossy().into_owned(), i))
        .collect();
    let mut out = vec![Vec::new(); files.len()];
    for c in parsed.comments {
        if let Some(i) = index.get(&c.file) {
            out[*i].push(c);
        }
    }
    Ok(out)
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
