//! The paths a file of a skill names, each with how it is named: a Markdown link, a path in
//! code or in prose, a word of a program. Around a path in Markdown, the text says whether
//! the agent is sent there ("see", "run", a shell command), or not: what never to do, an
//! example ("e.g."), an output template, a file to create.

use crate::source::Span;
use crate::syntax::markdown::{Fence, links_and};

use super::commands::{self, Role, Roles};
use super::layout::{Code, Layout, Lines};

/// How a path is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// A Markdown link or image.
    Link,
    /// In a code span or code block.
    Code,
    /// In running text.
    Prose,
    /// A word of a program (a script, a module): what it imports or opens.
    Program,
}

/// How the text runs a file it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Run {
    /// Not as a command.
    Not,
    /// As the program of a command: `literal` when the command is written to be run as it
    /// is (`scripts/x.sh --fast` in a shell block, `./scripts/x.py`), not when the text
    /// only says to run it ("Run scripts/x.py"), leaving the agent to choose how.
    Direct { literal: bool },
    /// As an argument of the program named (`python scripts/x.py`).
    Through(String),
}

/// One path named in a file of the skill.
#[derive(Debug, Clone)]
pub(super) struct Reference {
    /// The path as written (a link's fragment and query kept, `./` dropped).
    pub written: String,
    /// Where it is written.
    pub span: Span,
    /// How it is written.
    pub form: Form,
    /// Written where the agent is not sent there: what never to do, an example, an output
    /// template, a file the agent is to create.
    pub aside: bool,
    /// Prose that sends the agent there: "see", "read", "run" just before it.
    pub cue: bool,
    /// How a command runs it.
    pub run: Run,
}

/// Words in a line that say the agent must not do what follows.
const TOLD_NOT: &[&str] = &[
    "never",
    "don't",
    "dont",
    "do not",
    "must not",
    "should not",
    "shouldn't",
    "avoid",
    "not allowed",
    "forbidden",
    "bad:",
    "bad example",
    "wrong",
    "incorrect",
    "anti-pattern",
    "antipattern",
    "❌",
    "✗",
    "🚫",
];

/// Words in a line that make a path an example rather than a file of the skill.
const EXAMPLE: &[&str] = &["e.g.", "e.g,", "eg.", "for example", "for instance"];

/// Words of a heading above a path that make it part of an output template.
const TEMPLATE_HEADINGS: &[&str] = &["output", "template", "report format", "response format"];

/// Verbs that send the agent to a path just after them.
const SEND: &[&str] = &[
    "see", "read", "open", "load", "consult", "check", "follow", "refer", "run", "execute",
    "invoke", "call", "launch", "start", "use",
];

/// Verbs that run the program just after them.
const RUN: &[&str] = &["run", "execute", "invoke", "call", "launch", "start"];

/// Verbs that make the file just after them.
const CREATE: &[&str] = &[
    "create",
    "creates",
    "creating",
    "write",
    "writes",
    "writing",
    "save",
    "saves",
    "saving",
    "generate",
    "generates",
    "generating",
    "produce",
    "produces",
    "emit",
    "emits",
    "add",
    "adds",
    "adding",
    "new",
];

/// Code block info words of shell sessions.
const SHELL_INFO: &[&str] = &[
    "bash",
    "sh",
    "shell",
    "console",
    "zsh",
    "fish",
    "terminal",
    "shell-session",
    "shellsession",
    "ksh",
    "cmd",
];

/// Bytes before a path read for what the line says about it: enough for a sentence, and a
/// bound on the work for a path on a very long line.
const WINDOW: usize = 240;

/// Longest command line read for the role of a path in it.
const MAX_COMMAND: usize = 2_000;

/// Code block info words of documents shown as they should be written.
const DOCUMENT_INFO: &[&str] = &["markdown", "md", "mdx"];

/// The links and path-like words of a Markdown file whose body starts at `body_start` (the
/// front matter is read for words too: `license: see LICENSE.txt`), the links first. With
/// `fences`, its fenced code blocks are moved there. At most `limit` links are listed: past
/// them, the span of the first link left out comes first, and words from there on are left
/// out too (a body of millions of links held each until the last was read).
pub(super) fn in_markdown<'t>(
    text: &'t str,
    body_start: usize,
    fences: Option<&mut Vec<Fence>>,
    limit: usize,
) -> (Option<Span>, impl Iterator<Item = Reference> + use<'t>) {
    // One parse of the body for its layout, its links and its fences.
    let mut reader = Layout::reader(text, body_start, headings_aside);
    let found = links_and(text, body_start, limit, |event, range| {
        reader.feed(event, range)
    });
    let mut layout = reader.finish();
    if let Some(fences) = fences {
        *fences = std::mem::take(&mut layout.fences);
    }
    let lines = Lines::new(text);
    let cut = found.cut;
    // Reference-style links point at their definitions, which come later: their places are
    // sorted apart so each word is looked up once. Inline links are in order already, and
    // their own list is looked in (a body of millions of links held a copy of each place).
    let links = found.list;
    let in_order = links.iter().is_sorted_by_key(|l| l.span.start);
    let mut taken: Vec<Span> = if in_order {
        Vec::new()
    } else {
        links.iter().map(|l| l.span).collect()
    };
    taken.sort_by_key(|s| s.start);
    // Made one at a time as the caller reads them: a body of 600,000 paths or images held
    // a 72-byte reference for each in a list grown by doubling.
    let mut next = 0;
    let mut words =
        words(text).take_while(move |(span, _)| cut.is_none_or(|c| span.start < c.start));
    let mut roles = Roles::default();
    let references = std::iter::from_fn(move || {
        if let Some(l) = links.get(next) {
            next += 1;
            let line = lines.at(text, l.span.start);
            let line = window(text, line.start, l.span.start).to_lowercase();
            return Some(Reference {
                written: l.dest.to_string(),
                span: l.span,
                form: Form::Link,
                // A heading such as "Avoid barrel imports" titles a rule: only the line counts.
                aside: told_not(&line),
                cue: true,
                run: Run::Not,
            });
        }
        loop {
            let (span, word) = words.next()?;
            let before = if in_order {
                let i = links.partition_point(|l| l.span.start <= span.start);
                i.checked_sub(1).and_then(|i| links.get(i)).map(|l| l.span)
            } else {
                let i = taken.partition_point(|s| s.start <= span.start);
                i.checked_sub(1).and_then(|i| taken.get(i)).copied()
            };
            if before.is_some_and(|s| span.start < s.end) {
                continue;
            }
            // `./canvas-fonts` names a folder (or file) without a `/` or an extension of
            // its own.
            let dot_slash = text
                .get(span.start.saturating_sub(2)..span.start)
                .is_some_and(|p| p == "./");
            if !might_be_path(word) && !is_module(word) && !dot_slash {
                continue;
            }
            return Some(mention(text, &layout, &lines, &mut roles, span, word));
        }
    });
    (cut, references)
}

/// The path-like words of a program (a script, a module): every one is only a hint of what
/// the program opens or imports.
pub(super) fn in_program(text: &str) -> Vec<Reference> {
    words(text)
        .map(|(span, word)| {
            // `from .base import x`, `from ..util import y`: a module beside the program.
            let relative = word.trim_start_matches('.');
            if relative.len() < word.len() && is_identifier(relative) {
                let at = span.start + word.len() - relative.len();
                (Span::new(at, span.end), relative)
            } else {
                (span, word)
            }
        })
        .filter(|(_, w)| might_be_path(w) || is_identifier(w))
        .map(|(span, word)| Reference {
            written: word.to_string(),
            span,
            form: Form::Program,
            aside: false,
            cue: false,
            run: Run::Not,
        })
        .collect()
}

/// A path named in the text of a Markdown file, judged by its place.
fn mention<'t>(
    text: &'t str,
    layout: &Layout,
    lines: &Lines,
    roles: &mut Roles<'t>,
    span: Span,
    word: &str,
) -> Reference {
    let line = lines.at(text, span.start);
    let before = window(text, line.start, span.start);
    let lower_before = before.to_lowercase();
    let dot_slash = text
        .get(span.start.saturating_sub(2)..span.start)
        .is_some_and(|p| p == "./");
    let code = layout.code_at(span.start);
    let mut aside = told_not(clause(&lower_before))
        || EXAMPLE.iter().any(|e| lower_before.contains(e))
        || layout.aside_at(span.start)
        || ends_with_any(&lower_before, CREATE);
    let cue = code.is_none() && ends_with_any(&lower_before, SEND);
    let run = match code {
        None => prose_run(&lower_before, dot_slash),
        Some(code) => {
            if code.is_block()
                && (told_not(layout.intro(code)) || DOCUMENT_INFO.contains(&layout.info(code)))
            {
                aside = true;
            }
            let (command, at) = command_of(text, code, line, span.start);
            let role = if command.len() <= MAX_COMMAND {
                roles.role(command, at)
            } else {
                None
            };
            if role == Some(Role::Output) {
                aside = true;
            }
            code_run(
                code,
                layout.info(code),
                role,
                command,
                dot_slash,
                &lower_before,
            )
        }
    };
    Reference {
        written: word.to_string(),
        span,
        form: if code.is_some() {
            Form::Code
        } else {
            Form::Prose
        },
        aside,
        cue,
        run,
    }
}

/// The command line a path in `code` is on, and the path's offset in it: the line of a
/// block, or the text of a span between its backticks.
fn command_of<'t>(text: &'t str, code: &Code, line: Span, at: usize) -> (&'t str, usize) {
    if code.is_block() {
        return (
            text.get(line.start..line.end).unwrap_or(""),
            at - line.start,
        );
    }
    let inner = text.get(code.span.start..code.span.end).unwrap_or("");
    let ticks = inner.len() - inner.trim_start_matches('`').len();
    let start = code.span.start + ticks;
    let end = code.span.end.saturating_sub(ticks).max(start);
    (text.get(start..end).unwrap_or(""), at.saturating_sub(start))
}

/// How a command in code runs a path whose role in it is `role`.
fn code_run(
    code: &Code,
    info: &str,
    role: Option<Role>,
    command: &str,
    dot_slash: bool,
    before: &str,
) -> Run {
    // Whether the command has more than one word: counting them all, for each path on a
    // line of thousands, read the line again for each (480 KB: 19 s).
    let more_words = command.split_whitespace().nth(1).is_some();
    match role {
        Some(Role::Program) if code.is_block() => {
            // A path alone on a line of a plain block is named, not run (a listing of
            // files); a block in another language is not a command line.
            let shell = SHELL_INFO.contains(&info);
            let bare = info.is_empty();
            if shell || (bare && (dot_slash || more_words)) {
                Run::Direct { literal: true }
            } else {
                Run::Not
            }
        }
        Some(Role::Program) => {
            // A path alone in backticks is named (a table of scripts), unless the text
            // before says to run it.
            if more_words {
                Run::Direct { literal: true }
            } else if ends_with_any(before, RUN) {
                Run::Direct { literal: dot_slash }
            } else {
                Run::Not
            }
        }
        Some(Role::Argument(program)) => Run::Through(program),
        _ => Run::Not,
    }
}

/// How prose runs a path that `before` (lower case) leads to: "Run scripts/x.py" runs it,
/// "run python scripts/x.py" runs it through Python.
fn prose_run(before: &str, dot_slash: bool) -> Run {
    let words: Vec<&str> = before
        .split(|c: char| c.is_whitespace() || c == '`')
        .filter(|w| !w.is_empty())
        .collect();
    let last = words.last().copied().unwrap_or("");
    if commands::interpreter(last).is_some() && words.len() > 1 {
        return Run::Through(last.to_string());
    }
    if ends_with_any(before, RUN) {
        Run::Direct { literal: dot_slash }
    } else {
        Run::Not
    }
}

/// True when one of the last three words of `before` is one of `verbs`.
fn ends_with_any(before: &str, verbs: &[&str]) -> bool {
    before
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .rev()
        .take(3)
        .any(|w| verbs.contains(&w))
}

/// The clause `before` ends in: after the last `;` or end of sentence (an "e.g." is not one).
fn clause(before: &str) -> &str {
    let mut cut = 0;
    for (i, c) in before.char_indices() {
        let sentence_end = matches!(c, '.' | '!' | '?')
            && before[i + c.len_utf8()..].starts_with(' ')
            && !before[..i].ends_with("e.g")
            && !before[..i].ends_with("i.e");
        if c == ';' || sentence_end {
            cut = i + c.len_utf8();
        }
    }
    &before[cut..]
}

/// True when `text` (lower case) tells the agent not to do something.
/// Whether the headings a place is under (`steps / never do this`) set the paths there aside:
/// they say not to, or they show an output or a template.
fn headings_aside(chain: &str) -> bool {
    told_not(chain) || TEMPLATE_HEADINGS.iter().any(|t| chain.contains(t))
}

fn told_not(text: &str) -> bool {
    // One pass says whether any of the words is there at all (most texts have none); setting
    // up a search per word for each of two million links was a seventh of their check.
    static ANY: crate::text::AnyOf = crate::text::AnyOf::new(TOLD_NOT);
    if !ANY.in_text(text) {
        return false;
    }
    TOLD_NOT.iter().any(|t| {
        text.match_indices(t).any(|(i, _)| {
            // Whole words only: `bad:` but not `badge`, `never` but not `nevertheless`.
            let before = text[..i].chars().next_back();
            let after = text[i + t.len()..].chars().next();
            before.is_none_or(|c| !c.is_alphanumeric())
                && (after.is_none_or(|c| !c.is_alphanumeric()) || !t.is_ascii())
        })
    })
}

/// The text from `line_start` to `at`, at most [`WINDOW`] bytes of it (from a character
/// boundary).
fn window(text: &str, line_start: usize, at: usize) -> &str {
    let mut from = line_start.max(at.saturating_sub(WINDOW));
    while from < at && !text.is_char_boundary(from) {
        from += 1;
    }
    text.get(from..at).unwrap_or("")
}

/// True when `word` may name a file: it has a `/` or a file extension.
pub(super) fn might_be_path(word: &str) -> bool {
    if word.contains("://") || word.starts_with(['#', '@', '-']) {
        return false;
    }
    let name = word.rsplit('/').next().unwrap_or(word);
    word.contains('/') || has_extension(name)
}

/// True when the file name `name` ends in an extension (`run.py`, not `.env` or `v1.`).
pub(super) fn has_extension(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// A dotted module name (`core.gif_builder`), which names `core/gif_builder.py`; not an
/// abbreviation such as `e.g`.
fn is_module(word: &str) -> bool {
    word.contains('.') && is_identifier(word) && word.split('.').all(|p| p.len() >= 2)
}

/// A name a program may import (`helpers`, `core.gif_builder`).
fn is_identifier(word: &str) -> bool {
    word.len() >= 3
        && word.split('.').all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        })
}

/// Words of `text` that could be paths, split on white space, quotes, brackets and Markdown
/// emphasis, with trailing sentence punctuation and a leading `./` dropped. Placeholders
/// (`{baseDir}/x`, `<skill-dir>/x`) stay in the word.
pub(super) fn words(text: &str) -> impl Iterator<Item = (Span, &str)> + '_ {
    let is_break = |c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '`' | '\'' | '"' | '(' | ')' | '[' | ']' | ',' | ';' | '|' | '*' | '='
            )
    };
    let mut start: Option<usize> = None;
    let mut chars = text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')));
    std::iter::from_fn(move || {
        for (i, c) in chars.by_ref() {
            match (is_break(c), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    start = None;
                    let mut w = text[s..i].trim_end_matches(['.', ':', '!', '?']);
                    // `<https://x>` and `(see <x>)`: brackets only when they do not pair.
                    if w.ends_with('>') && !w.contains('<') {
                        w = &w[..w.len() - 1];
                    }
                    let mut lead = 0;
                    if w.starts_with('<') && !w.contains('>') {
                        lead = 1;
                    }
                    let rest = &w[lead..];
                    let mut unled = rest;
                    while let Some(r) = unled.strip_prefix("./") {
                        unled = r;
                    }
                    lead += rest.len() - unled.len();
                    let w = &w[lead..];
                    if !w.is_empty() {
                        return Some((Span::new(s + lead, s + lead + w.len()), w));
                    }
                }
                _ => {}
            }
        }
        None
    })
}

#[cfg(test)]
#[path = "mentions_tests.rs"]
mod tests;
