//! SEC040–SEC045: dangerous commands in everything a definition runs (cycod `run`, scripts
//! and steps, agentcli `command`, DojOps verification, MCP server commands, a skill's
//! scripts), found by the shared shell analyser ([`crate::analysis::shell::dangers`]); and
//! SEC040 in the prose an agent follows (a skill's instructions), line by line.

use crate::analysis::shell::{DangerKind, Dialect, dangers, downloads_in_prose, text_dangers};
use crate::diagnostics::{Diagnostic, visible};
use crate::formats::texts::{Shell, Text, TextKind, ToolTexts};
use crate::rules::{Rule, security as sec};

/// A script that does this many dangerous things says enough with these.
const MAX_PER_COMMAND: usize = 20;

/// Every dangerous command in what `tool` runs.
pub fn check(tool: &ToolTexts, out: &mut Vec<Diagnostic>) {
    for text in &tool.texts {
        let TextKind::Command(shell) = text.kind else {
            if text.kind == TextKind::Instructions {
                told_to_download(text, out);
            }
            continue;
        };
        let found = match shell {
            Shell::Posix => dangers(&text.value, Dialect::Posix),
            Shell::Cmd => dangers(&text.value, Dialect::Cmd),
            Shell::Pwsh => dangers(&text.value, Dialect::Pwsh),
            Shell::Process => dangers(&text.value, Dialect::Process),
            // Other languages: only what their lines say in shell terms.
            Shell::Python | Shell::Source => text_dangers(&text.value),
        };
        for d in found.into_iter().take(MAX_PER_COMMAND) {
            let (rule, label, note, help) = words(d.kind);
            out.push(
                Diagnostic::new(
                    rule,
                    &text.file,
                    text.span_of(d.start..d.end),
                    format!(
                        "{} {}: `{}`",
                        text.kind.what(),
                        rule_phrase(d.kind),
                        visible(&d.what)
                    ),
                )
                .label(label)
                .note(note)
                .help(help),
            );
        }
    }
}

/// SEC040 in instructions an agent follows: a line telling it to run a download. Only that
/// danger: prose may well name `sudo` or `rm -rf /` to warn against them.
fn told_to_download(text: &Text<'_>, out: &mut Vec<Diagnostic>) {
    let mut at = 0;
    let mut found = 0;
    let mut fence = Fence::default();
    for line in text.value.split_inclusive('\n') {
        let base = at;
        at += line.len();
        if fence.step(line) {
            continue;
        }
        for d in downloads_in_prose(line) {
            if found == MAX_PER_COMMAND {
                return;
            }
            found += 1;
            let (rule, _, note, help) = words(d.kind);
            let mut finding = Diagnostic::new(
                rule,
                &text.file,
                text.span_of(base + d.start..base + d.end),
                format!(
                    "the instructions in `{}` tell the agent to run a download: `{}`",
                    visible(&file_name(&text.file)),
                    visible(&d.what)
                ),
            )
            .label("download run by an interpreter")
            .note(format!(
                "an agent follows these instructions as written: {note}"
            ))
            .help(help);
            // Instructions often send the reader to a vendor's own installer: likely unsafe,
            // not a certain attack (a command the definition runs itself stays an error).
            finding.severity = crate::rules::Severity::Warning;
            out.push(finding);
        }
    }
}

/// Languages whose fenced blocks are the content of a file, not commands the reader runs: a
/// `RUN curl … | sh` line shows how a Dockerfile is written.
const FILE_CONTENT_LANGUAGES: &[&str] = &[
    "dockerfile",
    "containerfile",
    "docker",
    "json",
    "jsonc",
    "yaml",
    "yml",
    "toml",
    "ini",
    "xml",
    "html",
    "css",
    "markdown",
    "md",
    "diff",
];

/// Where a line of Markdown is with respect to fenced code blocks.
#[derive(Default)]
struct Fence {
    /// The opening run (``` or ~~~ and its length) and whether the block is a file's content.
    open: Option<(char, usize, bool)>,
}

impl Fence {
    /// Read `line`; true when it is a fence line or inside a block of file content.
    fn step(&mut self, line: &str) -> bool {
        let t = line.trim_start_matches(' ');
        let ch = t.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = ch.map_or(0, |c| t.len() - t.trim_start_matches(c).len());
        match (self.open, ch) {
            (Some((c, n, _)), Some(d)) if c == d && run >= n && t[run..].trim().is_empty() => {
                self.open = None;
                true
            }
            (Some((_, _, content)), _) => content,
            (None, Some(c)) if run >= 3 => {
                let info = t[run..]
                    .trim()
                    .split(|x: char| x.is_whitespace() || x == '{')
                    .next();
                let content = info.is_some_and(|w| {
                    FILE_CONTENT_LANGUAGES
                        .iter()
                        .any(|l| w.eq_ignore_ascii_case(l))
                });
                self.open = Some((c, run, content));
                true
            }
            (None, _) => false,
        }
    }
}

/// The name of the file a text is in (`SKILL.md`), as a message shows it.
fn file_name(file: &crate::source::SourceFile) -> String {
    file.path.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// What the command does, for the message.
fn rule_phrase(kind: DangerKind) -> &'static str {
    match kind {
        DangerKind::DownloadExecute => "runs what it downloads",
        DangerKind::DecodeExecute => "runs what it decodes",
        DangerKind::ReverseShell => "opens a shell to a remote host",
        DangerKind::RemoveRoot => "deletes the root or home folder",
        DangerKind::WorldWritable => "makes files writable by every user",
        DangerKind::Privileged => "runs with root privileges",
    }
}

/// The rule, label, note and help of a kind of danger.
fn words(kind: DangerKind) -> (&'static Rule, &'static str, &'static str, &'static str) {
    match kind {
        DangerKind::DownloadExecute => (
            &sec::DOWNLOAD_AND_EXECUTE,
            "download run by an interpreter",
            "whoever controls the URL (or the network on the way) runs code with the tool's permissions, and nothing in the repository shows what",
            "download to a file, check its checksum or signature, then run that file; better, install a pinned version with a package manager",
        ),
        DangerKind::DecodeExecute => (
            &sec::DECODE_AND_EXECUTE,
            "decoded text run",
            "encoding hides from reviewers what runs: this is how malicious commands are smuggled past review",
            "write the command itself, in clear",
        ),
        DangerKind::ReverseShell => (
            &sec::REVERSE_SHELL,
            "reverse shell",
            "this hands a shell on the machine running the tool to whoever listens at the other end",
            "remove it: no tool needs to connect a shell to the network",
        ),
        DangerKind::RemoveRoot => (
            &sec::DESTRUCTIVE_COMMAND,
            "deletes everything",
            "a recursive delete of the root or home folder destroys the user's files (and the system, with privileges)",
            "delete only the paths the tool created, named explicitly",
        ),
        DangerKind::WorldWritable => (
            &sec::WORLD_WRITABLE,
            "writable by everyone",
            "any user or process on the machine can then change these files, including scripts that run later",
            "grant only what is needed, e.g. `chmod 755` for programs and `chmod 644` for data",
        ),
        DangerKind::Privileged => (
            &sec::PRIVILEGE_ESCALATION,
            "root privileges",
            "a tool the model can call should not run as root: a mistaken or injected argument then reaches the whole system",
            "run without privileges; if the tool needs them, grant a narrower permission outside the tool",
        ),
    }
}
