//! Commands that no tool definition should run: what is downloaded or decoded piped into an
//! interpreter, reverse shells, recursive deletion of the root or home folder, world-writable
//! permissions and privilege escalation; and what a script does across its statements:
//! secrets read and sent out (`exfil`), text decoded or downloaded and run later (`later`),
//! something made to run again later (`persist`), code installed from outside the package
//! index (`outside`). Python and JavaScript are read lightly for the calls that matter
//! (`script`).
//!
//! Pipelines and substitutions are read line by line on the text (so a command inside a
//! quoted `bash -c "…"` counts); deletion, permissions and privileges on the simple commands
//! of [`each_simple_command`], so quotes and escapes are resolved first; what flows between
//! statements on [`super::statements`].

mod clone;
mod exfil;
mod later;
mod mounts;
mod outside;
mod persist;
mod pipes;
mod prose;
mod pwsh;
mod script;
mod services;
mod shells;
mod simple;
mod stdin;
mod unit;
mod vocab;

use super::lex::{Dialect, each_simple_command};
use super::{OpKind, ops, program_name, words};

pub(crate) use pipes::runs_its_input;
use pipes::{INLINE_DECODERS, INLINE_RUNNERS, may_decode_inline, pipelines};
pub(crate) use prose::{Prose, negated};
pub(crate) use script::{Language, script_dangers};
pub(crate) use vocab::suspicious_host;

/// Programs that fetch from the network.
const FETCHERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
];

/// Programs that run the text they are given.
const RUNNERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "ash",
    "fish",
    "python",
    "python3",
    "perl",
    "ruby",
    "node",
    "php",
    "iex",
    "invoke-expression",
    "pwsh",
    "powershell",
    "cmd",
    "eval",
    "source",
    ".",
];

/// Dangers found in one script at most: past that it says enough, and a hostile line of a
/// million pipelines costs no million findings.
pub(crate) const MAX_DANGERS: usize = 64;

/// Words that only prefix the program they run.
const PREFIXES: &[&str] = &[
    "sudo", "doas", "env", "command", "exec", "nohup", "time", "busybox", "setsid",
];

/// What makes a command dangerous.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DangerKind {
    /// A download run by an interpreter (`curl … | sh`).
    DownloadExecute,
    /// Decoded or unpacked text run by an interpreter (`base64 -d | sh`).
    DecodeExecute,
    /// A shell connected to a remote host (`nc -e`, `/dev/tcp/`).
    ReverseShell,
    /// Recursive deletion of the root or home folder.
    RemoveRoot,
    /// Permissions that let every user write.
    WorldWritable,
    /// A command run with root privileges.
    Privileged,
    /// Privileges kept for later: a `sudoers` entry, a set-user-id bit.
    PrivilegeKept,
    /// Permissions changed recursively on the root, a system or the home folder.
    RecursivePermissions,
    /// A secret read and sent to the network (the related place is the read).
    Exfiltration,
    /// Data sent somewhere no service lives, or spelled into a DNS name (one half of an
    /// exfiltration).
    SendsData,
    /// A credential store read (one half of an exfiltration).
    ReadsCredentials,
    /// A file or piped data uploaded beyond the local network: nothing alone, but the
    /// definition should say it sends data.
    Uploads,
    /// Code installed from a URL, another index or an unpinned git source.
    UntrustedInstall,
    /// A repository cloned into the working folder, where the user keeps it, and its own
    /// setup run: a development checkout as READMEs describe it, unpinned but in view.
    CheckoutInstall,
    /// Something made to run again later (cron, start-up files, launchd, systemd,
    /// `authorized_keys`).
    Persistence,
    /// A service or agent of the project's own (its unit or plist copied from the checkout)
    /// installed to run again later: persistence as a service's own setup does it.
    ServiceInstall,
    /// Where the reading of what flows between commands stopped: a script of more
    /// statements or words than are read (what follows may hide any of the above).
    NotRead,
}

/// A dangerous command found in a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Danger {
    /// Byte offset where it starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// What it is.
    pub kind: DangerKind,
    /// The command, shortened for a message (`curl … | sh`).
    pub what: String,
    /// A second place the finding is made of (the secret read by an exfiltration, the
    /// download run later).
    pub related: Option<Related>,
}

/// The other place of a danger made of two.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Related {
    /// Byte offset where it starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// What happens there, for a label.
    pub what: String,
}

/// Programs the checks of single commands look at: a script naming none of them is not
/// split into commands at all.
const WATCHED: &[&str] = &[
    "rm",
    "rd",
    "rmdir",
    "remove-item",
    "del",
    "chmod",
    "chown",
    "chgrp",
    "busybox",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "powershell",
    "powershell.exe",
    "pwsh",
    "pwsh.exe",
    // `cmd /c "schtasks /create …"`: the script it is handed is read.
    "cmd",
    "cmd.exe",
    "sudo",
    "doas",
    "pkexec",
    "su",
    "chroot",
    "unshare",
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "ash",
    "python",
    "python3",
    "node",
    "nodejs",
    "deno",
    "bun",
    "docker",
    "podman",
    "nerdctl",
];

/// Every dangerous command of `script`, run as `dialect`, in order.
pub(crate) fn dangers(script: &str, dialect: Dialect) -> Vec<Danger> {
    shell_dangers(script, dialect, true).0
}

/// How much of `script` [`dangers`] reads for what flows between its statements: all of it,
/// or up to the end of the line where its first 4,096 statements end. A caller that looks
/// only for such flows may cut the script there.
pub(crate) fn flow_extent(script: &str) -> usize {
    unit::Unit::extent(script)
}

/// What a script reads that is secret and what it sends, left unjudged.
type Facts = (Vec<exfil::Source>, Vec<exfil::Sink>);

/// [`dangers`]; with `judge` false, the secrets read and data sent are returned rather than
/// judged, for a script in another language that hands this one on.
fn shell_dangers(script: &str, dialect: Dialect, judge: bool) -> (Vec<Danger>, Facts) {
    let mut out = Vec::new();
    if dialect != Dialect::Process {
        lines(script, &mut out);
    }
    let watched = words(script).any(|(_, w)| {
        let p = program_name(w);
        WATCHED.iter().any(|x| x.eq_ignore_ascii_case(p))
    });
    if watched {
        each_simple_command(script, dialect, |command| {
            simple::check(script, &command, &mut out);
        });
    }
    let mut facts = Facts::default();
    if dialect != Dialect::Process {
        let unit = unit::Unit::of(script);
        not_read(script, &unit, &mut out);
        let (sources, sinks) = exfil::facts(script, &unit);
        if judge {
            exfil::judge(script, &sources, &sinks, true, &mut out);
            // Only at the top: a here-document inside a script's string is rare, and each
            // reading would start over.
            stdin::check(script, &unit, &mut out);
        } else {
            facts = (sources, sinks);
        }
        later::check(script, &unit, &mut out);
        persist::check(script, &unit, &mut out);
        outside::check(&unit, &mut out);
        clone::check(&unit, &mut out);
    } else {
        // An argument vector has no flow to follow, but installs what it names
        // (`uvx --from git+https://…`).
        let unit = unit::Unit::of(script);
        not_read(script, &unit, &mut out);
        outside::check(&unit, &mut out);
    }
    (finish(script, out), facts)
}

/// Where the reading of `script` for what flows between its commands stopped, if it did:
/// on the first word left unread. Kept even when the script's dangers are already as many
/// as are kept, since it says that more may be hidden.
fn not_read(script: &str, unit: &unit::Unit, out: &mut Vec<Danger>) {
    let Some(at) = unit.unread else {
        return;
    };
    let rest = script.get(at..).unwrap_or("");
    let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
    out.push(Danger {
        start: at,
        end: at + word,
        kind: DangerKind::NotRead,
        what: String::new(),
        related: None,
    });
}

/// The dangerous commands written as text in source that is not a shell (Python): shell
/// strings it hands on (`"curl … | sh"`), `/dev/tcp`, a socket wired to a process. Other
/// languages are now read as [`Language::Other`] scripts; the tests keep this narrower view.
#[cfg(test)]
pub(crate) fn text_dangers(source: &str) -> Vec<Danger> {
    let mut out = Vec::new();
    lines(source, &mut out);
    finish(source, out)
}

/// A cheap test that `line` may run a download through an interpreter: it has a pipe or a
/// substitution, and names a program that fetches. [`downloads_run`] says for certain.
pub(crate) fn may_run_download(line: &str) -> bool {
    if !(line.contains('|') || line.contains("<(") || line.contains("$(") || line.contains('`')) {
        return false;
    }
    let lower = line.to_ascii_lowercase();
    FETCHERS.iter().any(|f| lower.contains(f))
}

/// The downloads run by an interpreter in one line of text (`curl … | sh`,
/// `bash <(wget …)`): the one test of download-and-execute, for scripts, package
/// installation and instructions alike.
fn downloads_run(line: &str) -> Vec<Danger> {
    let mut out = Vec::new();
    pipelines(line, 0, &mut out);
    substitutions(line, 0, &mut out);
    let mut out = finish(line, out);
    out.retain(|d| d.kind == DangerKind::DownloadExecute);
    out
}

/// The downloads run by an interpreter that one line of prose (Markdown instructions) tells
/// its reader to run: in each code span, or in the whole line when it has none (a line of a
/// fenced block), from the first fetcher or interpreter it names, as a command in prose
/// starts mid-sentence.
pub(crate) fn downloads_in_prose(line: &str) -> Vec<Danger> {
    if !may_run_download(line) {
        return Vec::new();
    }
    let mut segments: Vec<(usize, &str)> = Vec::new();
    if line.contains('`') {
        let mut at = 0;
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 1 {
                segments.push((at, piece));
            }
            at += piece.len() + 1;
        }
    } else {
        segments.push((0, line));
    }
    let mut out = Vec::new();
    for (base, segment) in segments {
        if out.len() >= MAX_DANGERS {
            break;
        }
        let starts = [
            words(segment).find(|(_, w)| names_one_of(w, FETCHERS)),
            words(segment).find(|(_, w)| {
                names_one_of(w, RUNNERS) && !names_one_of(w, &[".", "source", "eval"])
            }),
        ];
        for (start, _) in starts.into_iter().flatten() {
            for mut d in downloads_run(&segment[start..]) {
                d.start += base + start;
                d.end += base + start;
                if out.len() < MAX_DANGERS {
                    out.push(d);
                }
            }
        }
    }
    finish("", out)
}

fn finish(script: &str, mut out: Vec<Danger>) -> Vec<Danger> {
    shells::socket_shells(script, &mut out);
    // `sudo tee /etc/sudoers.d/x`: privileges kept for later say more than `sudo` alone.
    let kept: Vec<(usize, usize)> = out
        .iter()
        .filter(|d| d.kind == DangerKind::PrivilegeKept)
        .map(|d| (d.start, d.end))
        .collect();
    out.retain(|d| {
        d.kind != DangerKind::Privileged || !kept.iter().any(|(s, e)| d.start < *e && *s < d.end)
    });
    // A reverse shell's connection says more than the data it sends.
    let shells: Vec<(usize, usize)> = out
        .iter()
        .filter(|d| d.kind == DangerKind::ReverseShell)
        .map(|d| (d.start, d.end))
        .collect();
    // Line ends found once: counting them from the start for each pair of findings read the
    // script again up to 64 × 64 times.
    if !shells.is_empty() {
        let ends: Vec<usize> = script.match_indices('\n').map(|(i, _)| i).collect();
        let lines_of = |a: usize| ends.partition_point(|&e| e < a);
        out.retain(|d| {
            d.kind != DangerKind::SendsData
                || !shells
                    .iter()
                    .any(|(s, _)| lines_of(*s) == lines_of(d.start))
        });
    }
    out.sort_by_key(|d| (d.start, d.end));
    out.dedup_by(|a, b| a.kind == b.kind && a.start < b.end && b.start < a.end);
    out
}

pub(crate) fn push(out: &mut Vec<Danger>, start: usize, end: usize, kind: DangerKind, what: &str) {
    if out.len() >= MAX_DANGERS {
        return;
    }
    out.push(Danger {
        start,
        end: end.max(start),
        kind,
        what: what.to_string(),
        related: None,
    });
}

/// Whether the program of `word` is one of `programs` (in lower case): [`program`] without
/// making it, for a test run on every word.
fn names_one_of(word: &str, programs: &[&str]) -> bool {
    let p = program_name(word);
    programs.iter().any(|x| x.eq_ignore_ascii_case(p))
}

/// The lower-case program of a word (`/usr/bin/curl` → `curl`).
pub(crate) fn program(word: &str) -> String {
    program_name(word).to_ascii_lowercase()
}

/// Text checks, line by line: pipelines, substitutions, encoded commands, `/dev/tcp`.
fn lines(script: &str, out: &mut Vec<Danger>) {
    let mut at = 0;
    let mut decoded = pwsh::Decoded::default();
    for line in script.split_inclusive('\n') {
        let base = at;
        at += line.len();
        decoded.step(line, base, out);
        let trimmed = line.trim_start();
        let remark = trimmed
            .get(..4)
            .is_some_and(|r| r.eq_ignore_ascii_case("rem "));
        if trimmed.starts_with('#') || remark {
            continue;
        }
        let line = line.trim_end_matches(['\n', '\r']);
        let before = out.len();
        pipelines(line, base, out);
        substitutions(line, base, out);
        // A download run inside a quoted script (`pwsh -c "irm … | iex"`): read from the
        // fetcher on, as prose is.
        if out.len() == before {
            for mut d in downloads_in_prose(line) {
                d.start += base;
                d.end += base;
                if out.len() < MAX_DANGERS {
                    out.push(d);
                }
            }
        }
        // `$(printf '\x63\x75…')` as a command: what the substitution prints is run.
        let command = trimmed.trim_start_matches("eval ").trim_start();
        if (command.starts_with("$(") || command.starts_with('`')) && later::decodes(command) {
            let at = base + (line.len() - line.trim_start().len());
            push(
                out,
                at,
                base + line.len(),
                DangerKind::DecodeExecute,
                "decoded text run as a command",
            );
        }
        for dev in ["/dev/tcp/", "/dev/udp/"] {
            if let Some(i) = line.find(dev)
                && !port_probe(line, i)
            {
                push(
                    out,
                    base + i,
                    base + i + dev.len(),
                    DangerKind::ReverseShell,
                    dev,
                );
            }
        }
        // Decoded and run in one line of another language: Python, Perl, Ruby, PHP.
        if may_decode_inline(line)
            && let Some((i, w)) = INLINE_DECODERS
                .iter()
                .find_map(|w| line.find(w).map(|i| (i, *w)))
            && INLINE_RUNNERS.iter().any(|r| line.contains(r))
        {
            push(
                out,
                base + i,
                base + i + w.len(),
                DangerKind::DecodeExecute,
                "decoded text run",
            );
        }
    }
}

/// True when the `/dev/tcp` at `at` of `line` only tests that a port answers
/// (`echo > /dev/tcp/h/22`, `</dev/tcp/h/22`, `: > /dev/tcp/…`): nothing is sent and no
/// shell is wired to the socket (`-i`, `>&`, `<>`, `0>&1`).
fn port_probe(line: &str, at: usize) -> bool {
    let wired = [
        " -i", "<>", "0>&1", "0<&1", ">&/dev", ">& /dev", "&>/dev", "&> /dev",
    ]
    .iter()
    .any(|m| line.contains(m));
    let before = line[..at]
        .trim_end()
        .trim_end_matches(['<', '>'])
        .trim_end();
    let command = before
        .rsplit(['\'', '"', ';', '(', '|', '&', '{'])
        .next()
        .unwrap_or("")
        .trim();
    let empty = [
        "",
        "echo",
        ":",
        "true",
        "echo -n",
        "printf ''",
        "cat < /dev/null",
        "cat </dev/null",
    ];
    !wired && empty.contains(&command)
}

/// Programs whose output a substitution may decode into what a shell runs.
const DECODERS: &[&str] = &[
    "base64", "xxd", "openssl", "printf", "echo", "uudecode", "tr", "certutil",
];

/// `bash -c "$(curl …)"`, `sh <(wget …)`, `eval "$(echo … | base64 -d)"`, `iex (iwr …)`.
fn substitutions(line: &str, base: usize, out: &mut Vec<Danger>) {
    if !line.contains(['(', '`']) {
        return;
    }
    let program_in = |w: &str| program(w.trim_start_matches(['"', '\'', '(', '$', '<', '`']));
    let opens =
        |p: &str| p.contains("$(") || p.contains("<(") || p.contains('`') || p.ends_with('(');
    // Whether a word up to the runner opens a group, and whether one after it starts with
    // `(`: carried along, as looking back over every word for each took time in the square
    // of a line's words (40,000 words: 5 s). The words are read as they come, not held: a
    // line of two million held 50 times its length.
    let mut group_before = false;
    let mut runner = None;
    for (i, (at, w)) in words(line).enumerate() {
        group_before |= opens(w);
        if RUNNERS.contains(&program_in(w).as_str()) && !w.starts_with(['$', '<', '(']) {
            runner = Some((i, at, w));
            break;
        }
    }
    let Some((runner, r_at, r)) = runner else {
        return;
    };
    let mut paren_since_runner = false;
    // Whether the rest of the line may still decode (see below).
    let (mut decoder_ahead, mut dash_d_ahead) = (true, true);
    for (at, w) in words(line).skip(runner + 1) {
        let l = program_in(w);
        // `iex (New-Object Net.WebClient).DownloadString(…)`: a group opened after the
        // runner holds what it runs.
        let opened =
            w.starts_with(['$', '<', '(', '`', '"', '\'']) || group_before || paren_since_runner;
        group_before |= opens(w);
        paren_since_runner |= w.starts_with('(');
        if !opened {
            continue;
        }
        // The word as written: a URL after `DownloadString(` has slashes a program name
        // would be cut at.
        let fetches = w.to_ascii_lowercase().contains("downloadstring");
        let kind = if FETCHERS.contains(&l.as_str()) || fetches {
            DangerKind::DownloadExecute
        } else if DECODERS.contains(&l.as_str()) && decoder_ahead && later::decodes(&line[at..])
            || l.starts_with("base64") && dash_d_ahead && line[at..].contains(" -d")
        {
            DangerKind::DecodeExecute
        } else {
            // What the rest of the line lacks, the rest from a later word lacks too: each
            // such word read the rest of the line again (40,000 `echo`: 9 s).
            if l.starts_with("base64") {
                dash_d_ahead = false;
            }
            decoder_ahead &= !DECODERS.contains(&l.as_str());
            continue;
        };
        let source = if fetches && !FETCHERS.contains(&l.as_str()) {
            "DownloadString"
        } else {
            l.as_str()
        };
        push(
            out,
            base + r_at,
            base + at + w.len(),
            kind,
            &format!("{} run on {source}", program(r)),
        );
        return;
    }
}

#[cfg(test)]
mod later_tests;
#[cfg(test)]
mod tests;
