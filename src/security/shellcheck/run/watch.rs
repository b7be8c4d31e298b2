//! One ShellCheck process over a batch of scripts, watched script by script. ShellCheck
//! reads its files in order and says at once on its standard error when one does not exist;
//! so a path that never exists ("marker") is handed before the first script and after each,
//! and the markers it has named say how far it got. A script may take its own time
//! ([`super::time_for`]) from the moment the marker before it is named; when it runs over,
//! the process is stopped and that script, and only that one, is the one at fault. A
//! ShellCheck that names no marker is held to the batch's time as a whole.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::super::{Comment, Output, program};
use super::MEMORY_BYTES;

/// ShellCheck's output read at most: past this it is not JSON worth reading.
const MAX_OUTPUT_BYTES: u64 = 64 * 1024 * 1024;

/// What one process said.
pub(super) enum Ran {
    /// The comments of each file, in order.
    Checked(Vec<Vec<Comment>>),
    /// It could not be started (not installed): nothing can be checked.
    CannotRun,
    /// It ran over, was killed, or its output was not JSON: `at` is the script it was on,
    /// when the markers said (`None`: they said nothing, or it had finished every script).
    Stopped { at: Option<usize> },
    /// The run's time for ShellCheck was spent before it finished: stopped, and no script
    /// of it is at fault.
    Late,
}

/// One script handed to a process: its file's name in the folder and how long ShellCheck may
/// take over it.
pub(super) struct Handed<'a> {
    pub name: &'a str,
    pub limit: Duration,
}

/// One ShellCheck process, in `dir`, over `scripts` (files there), each watched through
/// markers named `{marker}{n}`; `unmarked` is the time the whole process may take while no
/// marker has been named, and nothing runs past the run's `deadline`. Names are short and
/// relative: ShellCheck writes a marker's line a character at a time.
pub(super) fn run(
    dir: &Path,
    scripts: &[Handed<'_>],
    marker: &str,
    (unmarked, deadline): (Duration, Instant),
) -> Ran {
    let Some(program) = program() else {
        return Ran::CannotRun;
    };
    let mut command = Command::new(program);
    command
        .current_dir(dir)
        .args(["--format=json1", "--shell=bash", "--norc", "--"]);
    command.arg(format!("{marker}0"));
    for (n, script) in scripts.iter().enumerate() {
        command.arg(script.name).arg(format!("{marker}{}", n + 1));
    }
    // ShellCheck writes its standard error a character at a time: into a file, read at each
    // look, rather than a pipe that wakes a reader for every character.
    let err_path = dir.join(format!("{marker}.err"));
    let err = std::fs::OpenOptions::new()
        .append(true)
        .create_new(true)
        .open(&err_path);
    let (Ok(err), Ok(file)) = (err, File::open(&err_path)) else {
        return Ran::CannotRun;
    };
    let mut markers = Markers {
        file,
        prefix: marker.as_bytes().to_vec(),
        line: Vec::new(),
        read: 0,
    };
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(err);
    crate::fs::child::confine(&mut command, MEMORY_BYTES);
    let Ok(mut child) = command.spawn() else {
        return Ran::CannotRun;
    };
    let stdout = child.stdout.take();
    // Read as it comes, so a full pipe never stalls the child while the clock runs.
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(out) = stdout {
            let _ = out.take(MAX_OUTPUT_BYTES).read_to_end(&mut bytes);
        }
        bytes
    });
    // Scripts finished, once a marker was named; and since when the next one runs.
    let mut done: Option<usize> = None;
    let mut since = Instant::now();
    let mut pause = Duration::from_millis(1);
    let mut late = false;
    let finished = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code().is_some(),
            Err(_) => break false,
            Ok(None) => {}
        }
        if let Some(n) = markers.look().filter(|&n| done.is_none_or(|d| n > d)) {
            (done, since) = (Some(n), Instant::now());
        }
        let limit = match done {
            None => unmarked,
            Some(n) => scripts.get(n).map_or(unmarked, |s| s.limit),
        };
        let Some(left) = limit.checked_sub(since.elapsed()).filter(|d| !d.is_zero()) else {
            break false;
        };
        let Some(until_deadline) = deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
        else {
            late = true;
            break false;
        };
        std::thread::sleep(pause.min(left).min(until_deadline));
        pause = (pause * 2).min(MAX_PAUSE);
    };
    if !finished {
        crate::fs::child::stop(&mut child);
    }
    let stdout = reader.join().unwrap_or_default();
    let done = done.max(markers.look());
    let _ = std::fs::remove_file(&err_path);
    let at = done.filter(|&n| n < scripts.len());
    if late {
        return Ran::Late;
    }
    if !finished {
        return Ran::Stopped { at };
    }
    let Ok(parsed) = serde_json::from_slice::<Output>(&stdout) else {
        return Ran::Stopped { at };
    };
    let index: HashMap<String, usize> = scripts
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.to_owned(), i))
        .collect();
    let mut out = vec![Vec::new(); scripts.len()];
    for c in parsed.comments {
        if let Some(i) = index.get(&c.file) {
            out[*i].push(c);
        }
    }
    Ran::Checked(out)
}

/// How long the watch waits at most between two looks at the process.
const MAX_PAUSE: Duration = Duration::from_millis(20);

/// ShellCheck's standard error, read as it grows, for the markers it names.
struct Markers {
    file: File,
    /// The markers' common beginning; the number follows.
    prefix: Vec<u8>,
    /// The line read so far.
    line: Vec<u8>,
    /// Bytes read in all.
    read: u64,
}

impl Markers {
    /// The highest marker named since the last look.
    fn look(&mut self) -> Option<usize> {
        let mut named = None;
        let mut buf = [0u8; 8192];
        while self.read < MAX_OUTPUT_BYTES {
            let n = match self.file.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            self.read += n as u64;
            for &b in &buf[..n] {
                if b == b'\n' {
                    named = named.max(self.marker());
                    self.line.clear();
                } else if self.line.len() < MAX_LINE {
                    self.line.push(b);
                }
            }
        }
        named
    }

    /// The number of the marker the line read names, if it names one.
    fn marker(&self) -> Option<usize> {
        let p = &self.prefix;
        let at = self.line.windows(p.len()).position(|w| w == p.as_slice())?;
        let digits = &self.line[at + p.len()..];
        let end = digits
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(digits.len());
        std::str::from_utf8(&digits[..end]).ok()?.parse().ok()
    }
}

/// The part of a line of ShellCheck's standard error kept (a marker's line is a few hundred
/// bytes).
const MAX_LINE: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markers_shellcheck_names_are_read_as_its_standard_error_grows() {
        let dir = std::env::temp_dir().join(format!("toolc-watch-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("mkdir");
        let err = dir.join("err");
        let named = |n: usize| {
            format!(
                "b0r0m{n}: b0r0m{n}: openBinaryFile: does not exist (No such file or directory)\n"
            )
        };
        std::fs::write(&err, named(0) + "b0-0.sh: some other complaint\n").expect("write");
        let mut markers = Markers {
            file: File::open(&err).expect("open"),
            prefix: b"b0r0m".to_vec(),
            line: Vec::new(),
            read: 0,
        };
        assert_eq!(markers.look(), Some(0));
        assert_eq!(markers.look(), None, "nothing new");
        // A line is read whole even when it comes in two parts; the highest marker counts.
        let more = named(1) + &named(12);
        let (first, second) = more.split_at(more.len() - 9);
        let append = |text: &str| {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&err)
                .expect("open");
            std::io::Write::write_all(&mut f, text.as_bytes()).expect("append");
        };
        append(first);
        assert_eq!(markers.look(), Some(1));
        append(second);
        assert_eq!(markers.look(), Some(12));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
