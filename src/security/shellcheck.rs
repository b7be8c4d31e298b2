//! SHC001–SHC003: the shell scripts definitions embed (cycod `bash` and steps, DojOps
//! verification commands, agentcli `sh -c`), checked by ShellCheck as actionlint checks
//! `run:` — when `shellcheck` is on `PATH` (or named by the `TOOLC_SHELLCHECK` environment
//! variable; a repository's own files never choose the program that runs). Without it
//! nothing is reported, and `--statistics` says how many scripts were skipped.
//!
//! Parameter templates (`{NAME}`, `{RAW:NAME}`: cycod fills them in before the shell runs)
//! are handed to ShellCheck as variables of the same length (`$_NAME`), so their braces are
//! not read as shell syntax, and ShellCheck's findings on them are dropped: the runtime, not
//! the script, decides how they are quoted.
//!
//! Scripts are written to a private temporary folder and checked in batches, one
//! ShellCheck process per batch; each distinct script is checked once per process, so an
//! editor's re-check only runs ShellCheck on what changed, and the content cache keeps what
//! it said between runs ([`said`], [`remember`]) for the same ShellCheck. Its positions (line, and column
//! counted in characters) are mapped back through the text's scalar to the exact bytes in
//! the definition.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::diagnostics::Diagnostic;
use crate::rules::shellcheck as shc;
use crate::security::texts::Text;
use crate::source::{Digest, Span};

/// Distinct scripts remembered (about 100 bytes each, most without findings); past this only
/// the scripts of the check at hand stay.
const MAX_CACHED: usize = 200_000;

/// Findings per script are capped: a pathological script says enough with these.
const MAX_PER_SCRIPT: usize = 50;

/// Scripts left unchecked by the last run because ShellCheck could not be run.
static SKIPPED: AtomicUsize = AtomicUsize::new(0);

/// Whether the last run left scripts because its time for ShellCheck was spent: its
/// cross-file findings depend on the machine's load then, and are not kept by the cache.
static LATE: AtomicBool = AtomicBool::new(false);

/// How long a script left by a run's time is not handed to ShellCheck again by the process.
const LATE_FOR: Duration = Duration::from_secs(60);

/// What ShellCheck said of the scripts this process has seen.
static CACHE: LazyLock<Mutex<Memory>> = LazyLock::new(|| Mutex::new(Memory::default()));

#[derive(Default)]
struct Memory {
    /// Findings per script, by the SHA-256 of its text.
    by_digest: HashMap<Digest, Arc<Vec<Comment>>>,
    /// The scripts this process checked; none when it checked none (its cross-file findings
    /// were the last run's).
    used: Option<HashSet<Digest>>,
    /// The scripts ShellCheck was stopped on (time or memory): not run again by this process
    /// (an editor re-checks on every change), and not kept across runs.
    stopped: HashSet<Digest>,
    /// The scripts left when a run's time for ShellCheck was spent, and when: not handed
    /// again by this process for [`LATE_FOR`], or an editor would spend that time again at
    /// every change (an honest script left on a busy machine is tried again after it).
    late: HashMap<Digest, Instant>,
}

impl Memory {
    /// True when the script was left by a run's time less than [`LATE_FOR`] ago.
    fn is_late(&self, digest: &Digest) -> bool {
        self.late
            .get(digest)
            .is_some_and(|at| at.elapsed() < LATE_FOR)
    }
}

/// What ShellCheck said of scripts, kept by the content cache between runs.
#[derive(Serialize, Deserialize, Default)]
pub(crate) struct Said {
    /// The ShellCheck that said it ([`identity`]).
    program: Vec<u8>,
    scripts: Vec<(Digest, Vec<Comment>)>,
}

/// One finding of ShellCheck's `json1` output.
#[derive(Debug, Clone, Deserialize, Serialize)]
struct Comment {
    file: String,
    line: usize,
    #[serde(rename = "endLine")]
    end_line: usize,
    column: usize,
    #[serde(rename = "endColumn")]
    end_column: usize,
    level: String,
    code: u32,
    message: String,
}

mod budget;
mod run;
mod scripts;

pub(crate) use scripts::Scripts;

#[derive(Deserialize)]
struct Output {
    comments: Vec<Comment>,
}

/// Whether the last run left scripts because its time for ShellCheck was spent.
pub(crate) fn ran_late() -> bool {
    LATE.load(Ordering::Relaxed)
}

/// How many scripts the last run could not check because ShellCheck could not be run.
pub(crate) fn skipped() -> usize {
    SKIPPED.load(Ordering::Relaxed)
}

/// Say that the last run left `n` scripts unchecked: a run whose cross-file findings are the
/// last run's (the cache) says what that run said.
pub(crate) fn restore_skipped(n: usize) {
    SKIPPED.store(n, Ordering::Relaxed);
}

/// ShellCheck's findings on every script of `files`, as diagnostics, and an `SHC004` for
/// each script it was not run on (too long) or was stopped on (time, memory). Each distinct
/// script is read (digest, run) once; its findings are given at each place it is written.
/// The scripts of `others` (files the run does not report on) are not run, but what
/// ShellCheck said of them stays remembered for the next run.
pub(crate) fn check(files: &[&Scripts], others: &[&Scripts]) -> Vec<Diagnostic> {
    LATE.store(false, Ordering::Relaxed);
    let kept = || {
        others
            .iter()
            .flat_map(|s| budget::handed(s.texts()))
            .flatten()
    };
    let places: usize = files.iter().map(|s| s.len()).sum();
    if places == 0 {
        SKIPPED.store(0, Ordering::Relaxed);
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        cache.used.get_or_insert_with(HashSet::new).extend(kept());
        return Vec::new();
    }
    // Whether ShellCheck is there at all is asked first: without it, no script is said to
    // have been skipped for its length.
    if program().is_none() {
        SKIPPED.store(places, Ordering::Relaxed);
        return Vec::new();
    }
    // Each file's distinct scripts' digests (none for one not handed over).
    let digests: Vec<Vec<Option<Digest>>> =
        files.iter().map(|s| budget::handed(s.texts())).collect();
    let each = || {
        files.iter().zip(&digests).flat_map(|(s, d)| {
            s.places()
                .iter()
                .filter_map(move |p| Some((s.at(p)?, *d.get(p.text as usize)?)))
        })
    };
    let long = |t: &Text<'_>| t.value.len() > run::MAX_SCRIPT_BYTES;
    let mut out: Vec<Diagnostic> = each()
        .filter(|(t, d)| d.is_none() && long(t))
        .map(|(t, _)| not_run(&t, Why::TooLong))
        .collect();
    // One finding for the scripts of a file past its budget, at the first of them.
    for (text, n) in files.iter().filter_map(|s| s.over()) {
        out.push(not_run(text, Why::OverBudget(n)));
    }
    // In the files' order (by path), each distinct script once.
    let mut missing: Vec<(&Digest, &str)> = {
        let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let mut seen = HashSet::new();
        files
            .iter()
            .zip(&digests)
            .flat_map(|(s, d)| d.iter().zip(s.texts()))
            .filter_map(|(d, t)| Some((d.as_ref()?, &*t.value)))
            .filter(|(d, _)| {
                !cache.by_digest.contains_key(*d)
                    && !cache.stopped.contains(*d)
                    && !cache.is_late(d)
            })
            .filter(|(d, _)| seen.insert(**d))
            .collect()
    };
    let past_run = budget::past_the_run(&mut missing);
    out.extend(one_for_the_run(files, &digests, &past_run, Why::PastRun));
    missing.sort_unstable();
    let mut unstarted: HashSet<Digest> = HashSet::new();
    if !missing.is_empty() {
        let texts: Vec<&str> = missing.iter().map(|(_, t)| *t).collect();
        let Some(found) = run::run_all(&texts) else {
            SKIPPED.store(places, Ordering::Relaxed);
            return out;
        };
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if cache.by_digest.len() + found.len() > MAX_CACHED {
            // Past the bound, only the scripts of this check stay (with the new ones).
            let now: HashSet<&Digest> = digests.iter().flatten().flatten().collect();
            cache.by_digest.retain(|d, _| now.contains(d));
            let Memory {
                by_digest, used, ..
            } = &mut *cache;
            if let Some(used) = used {
                used.retain(|d| by_digest.contains_key(d));
            }
        }
        for ((digest, _), outcome) in missing.iter().zip(found) {
            match outcome {
                run::Outcome::Checked(mut comments) => {
                    // The temporary file a finding came from means nothing once it is gone.
                    comments.iter_mut().for_each(|c| c.file.clear());
                    cache.by_digest.insert(**digest, Arc::new(comments));
                }
                run::Outcome::Stopped => {
                    cache.stopped.insert(**digest);
                }
                // Not known: asked again by the next run.
                run::Outcome::Unstarted => {
                    unstarted.insert(**digest);
                }
                // Not known either: the run's time for ShellCheck was spent first.
                run::Outcome::Late => {
                    cache.late.insert(**digest, Instant::now());
                }
            }
        }
    }
    SKIPPED.store(0, Ordering::Relaxed);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .used
        .get_or_insert_with(HashSet::new)
        .extend(digests.iter().flatten().flatten().copied().chain(kept()));
    for (text, digest) in each() {
        let Some(digest) = digest else { continue };
        if cache.stopped.contains(&digest) {
            out.push(not_run(&text, Why::Stopped));
            continue;
        }
        if unstarted.contains(&digest) {
            out.push(not_run(&text, Why::Unstarted));
            continue;
        }
        let comments = cache.by_digest.get(&digest).map(|c| c.as_slice());
        let comments = comments.unwrap_or_default();
        if comments.is_empty() {
            continue;
        }
        let templates = templates(&text.value);
        for c in comments
            .iter()
            .filter(|c| {
                let start = offset(&text.value, c.line, c.column);
                let end = offset(&text.value, c.end_line, c.end_column).max(start + 1);
                !templates.iter().any(|t| t.start < end && start < t.end)
            })
            .take(MAX_PER_SCRIPT)
        {
            out.push(diagnostic(&text, c));
        }
    }
    let late: HashSet<Digest> = digests
        .iter()
        .flatten()
        .flatten()
        .filter(|d| cache.is_late(d))
        .copied()
        .collect();
    LATE.store(!late.is_empty(), Ordering::Relaxed);
    out.extend(one_for_the_run(files, &digests, &late, Why::Late));
    out
}

/// The one `SHC004` of a run for the scripts of `cut` (past its budget, or past its time),
/// at the first of them: a finding in each file left was 48,000 findings (and 25 MB) on a
/// repository of 50,000 one-script tools. Its notes name the first files left.
fn one_for_the_run(
    files: &[&Scripts],
    digests: &[Vec<Option<Digest>>],
    cut: &HashSet<Digest>,
    why: fn(usize, usize) -> Why,
) -> Option<Diagnostic> {
    const NAMED: usize = 3;
    let (mut first, mut scripts, mut files_left) = (None, 0, 0);
    let mut named: Vec<String> = Vec::new();
    for (s, d) in files.iter().zip(digests) {
        let cut = |i: usize| {
            d.get(i)
                .and_then(Option::as_ref)
                .is_some_and(|x| cut.contains(x))
        };
        let Some(text) = s.first_of(cut) else {
            continue;
        };
        scripts += (0..d.len()).filter(|&i| cut(i)).count();
        files_left += 1;
        if named.len() < NAMED {
            named.push(text.file.display().to_string());
        }
        first.get_or_insert(text);
    }
    let mut names = named.join(", ");
    if files_left > NAMED {
        names.push_str(&format!(" and {} more", files_left - NAMED));
    }
    let d = not_run(&first?, why(scripts, files_left));
    Some(d.note(format!("the files left: {names}")))
}

/// Why ShellCheck said nothing of a script.
#[derive(Debug, Clone, Copy)]
enum Why {
    /// It is longer than toolc hands ShellCheck.
    TooLong,
    /// ShellCheck ran over its time or memory on it, and was stopped.
    Stopped,
    /// It and this many distinct scripts of its file in all came past the file's budget.
    OverBudget(usize),
    /// ShellCheck had been stopped on enough scripts of the run that no more were handed.
    Unstarted,
    /// It and this many distinct scripts in all, of this many files, came past the run's
    /// budget.
    PastRun(usize, usize),
    /// It and this many distinct scripts in all, of this many files, were left when the
    /// run's time for ShellCheck was spent.
    Late(usize, usize),
}

/// The `SHC004` finding of a script ShellCheck said nothing of, on the script's first line.
fn not_run(text: &Text<'_>, why: Why) -> Diagnostic {
    let first_line = text.value.find('\n').unwrap_or(text.value.len());
    let span = text.span_of(0..first_line.min(text.value.len()));
    const ONE_LONG: &str =
        "move a long script into a file of its own, where ShellCheck and reviewers read it";
    const ONE_FILE: &str =
        "move the scripts into files of their own, where ShellCheck and reviewers read them";
    let (message, help) = match why {
        Why::TooLong => (
            format!(
                "this script was not checked by ShellCheck: it is {} bytes, and toolc hands ShellCheck scripts of at most {} KiB",
                text.value.len(),
                run::MAX_SCRIPT_BYTES / 1024
            ),
            ONE_LONG,
        ),
        Why::Stopped => (
            format!(
                "this script was not checked by ShellCheck: ShellCheck ran over its limits on it ({:.1} s, {} MiB) and was stopped",
                run::time_for(text.value.len()).as_secs_f64(),
                run::MEMORY_BYTES >> 20
            ),
            // Short scripts stall ShellCheck too (thousands of `[`): its length is not the cause.
            "read this script yourself, and simplify it or move it into a file of its own: ShellCheck could not finish it",
        ),
        Why::Unstarted => (
            format!(
                "this script was not checked by ShellCheck: ShellCheck was stopped on {} scripts of this run, and no more were handed to it",
                run::MAX_STALLS
            ),
            "fix or move the scripts ShellCheck was stopped on (their own SHC004 says which); then it reads the rest",
        ),
        Why::OverBudget(n) => (
            format!(
                "{n} scripts of this file, from this one on, were not checked by ShellCheck: toolc hands ShellCheck at most {} distinct scripts ({} KiB) of one file",
                budget::MAX_FILE_SCRIPTS,
                budget::MAX_FILE_BYTES / 1024
            ),
            ONE_FILE,
        ),
        Why::Late(n, files) => (
            format!(
                "{n} scripts of {files} {}, from this one on, were not checked by ShellCheck: toolc gives ShellCheck {} s of a run, and they were spent before it finished these",
                if files == 1 { "file" } else { "files" },
                run::run_time().as_secs()
            ),
            "check fewer files at a time (`toolc check PATH`: ShellCheck reads the scripts of the files named), and simplify the scripts ShellCheck takes long over (`shellcheck FILE` shows how long)",
        ),
        Why::PastRun(n, files) => (
            format!(
                "{n} scripts of {files} {}, from this one on, were not checked by ShellCheck: toolc hands ShellCheck at most {} distinct scripts ({} KiB) in one run, all taken by the scripts before these",
                if files == 1 { "file" } else { "files" },
                budget::MAX_RUN_SCRIPTS,
                budget::MAX_RUN_BYTES / 1024
            ),
            "check fewer files at a time (`toolc check PATH`: ShellCheck reads the scripts of the files named), or move the scripts into files of their own, where ShellCheck and reviewers read them",
        ),
    };
    Diagnostic::new(&shc::SHELLCHECK_SKIPPED, &text.file, span, message)
        .label("not checked")
        .note("what ShellCheck would have said of it is not known")
        .help(help)
}

fn diagnostic(text: &Text<'_>, c: &Comment) -> Diagnostic {
    let rule = match c.level.as_str() {
        "error" => &shc::SHELLCHECK_ERROR,
        "warning" => &shc::SHELLCHECK_WARNING,
        _ => &shc::SHELLCHECK_INFO,
    };
    let start = offset(&text.value, c.line, c.column);
    let end = offset(&text.value, c.end_line, c.end_column).max(start);
    let span: Span = text.span_of(start..end);
    Diagnostic::new(
        rule,
        &text.file,
        span,
        format!("SC{}: {}", c.code, c.message),
    )
    .label(format!("SC{}", c.code))
    .note(format!(
        "found by ShellCheck in an embedded script; https://www.shellcheck.net/wiki/SC{}",
        c.code
    ))
}

/// Where `script` has parameter templates: `{NAME}` or `{RAW:NAME}` (not `${…}`).
fn templates(script: &str) -> Vec<std::ops::Range<usize>> {
    let b = script.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' && (i == 0 || b[i - 1] != b'$') {
            let len = b[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':'))
                .count();
            let first = b
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
            if len > 0 && first && b.get(i + 1 + len) == Some(&b'}') {
                out.push(i..i + len + 2);
                i += len + 2;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// `script` with each template replaced by a variable of the same length (`{NAME}` →
/// `$_NAME`), so positions do not move.
fn as_variables(script: &str) -> String {
    let mut out = script.to_string();
    for t in templates(script) {
        let inner: String = script[t.start + 1..t.end - 1]
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        out.replace_range(t, &format!("$_{inner}"));
    }
    out
}

/// The byte offset of ShellCheck's 1-based `line` and `column` (counted in characters)
/// in `script`, clamped to the script.
fn offset(script: &str, line: usize, column: usize) -> usize {
    let mut at = 0;
    for (i, l) in script.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let col = l
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
            return at + col;
        }
        at += l.len();
    }
    script.len()
}

/// What ShellCheck said in this process, to keep, written as [`Said`] reads it back: of the
/// scripts it checked, or (when it checked none) of all it was told about. Written straight
/// from memory when the cache is saved (at 100,000 tools a copy would be megabytes at the
/// moment a first run peaks).
pub(crate) struct SaidNow;

impl Serialize for SaidNow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeSeq, SerializeStruct};
        struct Scripts<'a>(&'a Memory);
        impl Serialize for Scripts<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let Memory {
                    by_digest, used, ..
                } = self.0;
                let kept = || {
                    by_digest
                        .iter()
                        .filter(|(d, _)| used.as_ref().is_none_or(|used| used.contains(*d)))
                };
                let mut seq = s.serialize_seq(Some(kept().count()))?;
                for (digest, comments) in kept() {
                    seq.serialize_element(&(digest, comments.as_ref()))?;
                }
                seq.end()
            }
        }
        let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let mut said = s.serialize_struct("Said", 2)?;
        said.serialize_field("program", &identity())?;
        said.serialize_field("scripts", &Scripts(&cache))?;
        said.end()
    }
}

/// A run with a cache starts: what it keeps is what it checks from now on.
pub(crate) fn start_run() {
    CACHE.lock().unwrap_or_else(|e| e.into_inner()).used = None;
}

/// Take what an earlier run's ShellCheck said, when it is the one this run would start (up to
/// the bound on what a process remembers).
pub(crate) fn remember(said: Said) {
    if said.scripts.is_empty() || said.program != identity() {
        return;
    }
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let room = MAX_CACHED.saturating_sub(cache.by_digest.len());
    for (digest, comments) in said.scripts.into_iter().take(room) {
        cache
            .by_digest
            .entry(digest)
            .or_insert_with(|| Arc::new(comments));
    }
}

/// What identifies the ShellCheck a run would use: `TOOLC_SHELLCHECK` (off and not found
/// differ in what `--statistics` says), then the program found, with its metadata.
pub(crate) fn identity() -> Vec<u8> {
    let mut out = format!("{:?}", std::env::var_os("TOOLC_SHELLCHECK")).into_bytes();
    let Some(program) = located() else {
        return out;
    };
    out.extend(program.to_string_lossy().as_bytes());
    if let Ok(m) = std::fs::metadata(&program) {
        // Another ShellCheck installed at the same path has another size or time.
        let modified = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        out.extend(format!(" {} {}", m.len(), modified.as_nanos()).as_bytes());
    }
    out
}

/// The ShellCheck to run: `TOOLC_SHELLCHECK` when set (empty turns the check off), else
/// `shellcheck` from `PATH`.
fn program() -> Option<std::ffi::OsString> {
    match std::env::var_os("TOOLC_SHELLCHECK") {
        Some(p) if p.is_empty() => None,
        Some(p) => Some(p),
        None => Some("shellcheck".into()),
    }
}

/// The ShellCheck a run would start, as [`program`] names it and `PATH` finds it (a name
/// with a folder part is taken as it is); `None` when it is off or not found.
pub(crate) fn located() -> Option<PathBuf> {
    let name = program()?;
    if Path::new(&name).components().count() > 1 {
        return Some(PathBuf::from(name));
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(&name))
        .find(|p| p.is_file())
}

#[cfg(test)]
#[path = "shellcheck_tests.rs"]
mod tests;
