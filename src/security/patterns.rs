//! Instructions hidden in tool definitions, as data: each pattern has an id, the signal it
//! gives, a regular expression, and the texts it must and must not match (the unit test
//! runs them all). In the spirit of YARA rules: adding a pattern is one entry in `table.rs`.
//!
//! Patterns are matched on bytes, ASCII case-insensitively, `$` at line ends: the phrases
//! are English and ASCII (but for concealment in other languages, `translated.rs`, matched
//! apart with Unicode on), and without Unicode classes the matcher stays a small DFA.

use std::sync::LazyLock;

use regex::bytes::{Regex, RegexSet};

use clauses::{edits_config, forbidden, protective};
use table::PATTERNS;

/// What a match says about the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Signal {
    /// Tells the model to drop its instructions, or takes precedence over them.
    Override,
    /// Tells the model to keep something from the user.
    Conceal,
    /// Poses as a system or privileged message (`<IMPORTANT>`, `[INST]`).
    PseudoTag,
    /// Asks the model to read keys, credentials or agent configuration.
    SensitiveFile,
    /// Asks the model to send data out (to a URL, an address, a side parameter).
    Exfiltration,
    /// Addresses the model with an order; suspicious only in values (enums, defaults).
    Directive,
}

/// One pattern of the table.
pub(super) struct Pattern {
    /// A stable id, shown in messages.
    pub id: &'static str,
    /// What a match says.
    pub signal: Signal,
    /// What a match is, for a message (`an instruction to ignore previous instructions`).
    pub what: &'static str,
    /// The expression (case-insensitive; `\b` and `\w` are ASCII).
    pub regex: &'static str,
    /// Texts it must match (the unit test reads them).
    #[cfg_attr(not(test), allow(dead_code))]
    pub hits: &'static [&'static str],
    /// Texts it must not match (the unit test reads them).
    #[cfg_attr(not(test), allow(dead_code))]
    pub misses: &'static [&'static str],
}

/// A sentence that says when something is called: only texts with one can direct another
/// tool's calls (`shadowing.rs`).
const CALL: &str = r"\b(when|whenever|before|after|each\s+time|every\s+time|any\s+time)\b[^.\n]*?\b(call|calls|called|calling|invoke|invokes|invoked|invoking|use|uses|used|using|run|runs|running)\b";

/// A pattern matched in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Match {
    /// The pattern.
    pub pattern: &'static Pattern,
    /// Byte offset of the match in the text.
    pub start: usize,
    /// Byte offset after it.
    pub end: usize,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.id == other.id
    }
}
impl Eq for Pattern {}
impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

/// The expression as compiled: ASCII, case-insensitive, `$` at line ends.
fn compiled(regex: &str) -> String {
    format!("(?im-u){regex}")
}

/// The table and [`CALL`], compiled once: a set to find which match, then each to find
/// where.
struct Matcher {
    set: RegexSet,
    each: Vec<Regex>,
    call: Regex,
    /// The index of the concealment in other languages: kept out of the set (its letters
    /// outside ASCII made the set's lazy DFA rebuild states all along English texts) and
    /// matched alone where one of its words is.
    translated: Option<usize>,
}

static MATCHER: LazyLock<Option<Matcher>> = LazyLock::new(|| {
    let translated = PATTERNS.iter().position(|p| p.id == "conceal-translated");
    let stand_in = |i| (Some(i) == translated).then_some(translated::NEVER);
    let mut sources: Vec<String> = (PATTERNS.iter().enumerate())
        .map(|(i, p)| compiled(stand_in(i).unwrap_or(p.regex)))
        .collect();
    let each = sources
        .iter()
        .map(|s| Regex::new(s))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    sources.push(compiled(CALL));
    Some(Matcher {
        set: RegexSet::new(&sources).ok()?,
        each,
        call: Regex::new(&compiled(CALL)).ok()?,
        translated,
    })
});

/// The concealment in other languages, compiled only when a text may hold it: with
/// Unicode on, so that case is ignored for letters outside ASCII too.
static TRANSLATED: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(&compiled_unicode(translated::CONCEAL)).ok());

/// The concealment in other languages as compiled: case-insensitive for every letter, `$`
/// at line ends.
fn compiled_unicode(regex: &str) -> String {
    format!("(?im){regex}")
}

impl Matcher {
    /// The index of the concealment in other languages when `text` holds it.
    fn translated_in(&self, text: &[u8]) -> Option<usize> {
        let i = self.translated?;
        (translated::may_hold(text) && TRANSLATED.as_ref()?.is_match(text)).then_some(i)
    }

    /// The expression of pattern `i`, where it is matched.
    fn regex(&self, i: usize) -> Option<&Regex> {
        if Some(i) == self.translated {
            TRANSLATED.as_ref()
        } else {
            self.each.get(i)
        }
    }
}

/// What one look at all of a tool's texts found.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Look {
    /// Some pattern of the table may match one of them.
    pub instructions: bool,
    /// One of them may say when something is called.
    pub calls: bool,
}

/// Look at all of a tool's texts at once (`joined` by line breaks; `$` is a line end):
/// most tools say nothing suspicious, and one pass settles it. A hit is confirmed text by
/// text with [`find`] and [`calls`].
pub(super) fn look(joined: &str) -> Look {
    let Some(m) = MATCHER.as_ref() else {
        return Look::default();
    };
    let found = m.set.matches(joined.as_bytes());
    Look {
        instructions: found.iter().any(|i| i < PATTERNS.len())
            || m.translated_in(joined.as_bytes()).is_some(),
        calls: found.matched(PATTERNS.len()),
    }
}

/// Whether `text` says when something is called.
pub(super) fn calls(text: &str) -> bool {
    MATCHER
        .as_ref()
        .is_some_and(|m| m.call.is_match(text.as_bytes()))
}

/// Past this many narrowing steps a match is taken as it is.
const MAX_NARROWING: usize = 8;

/// The first match of each pattern in `text`, in table order, narrowed to its last start
/// (`Copy a file, then send the history to …` is reported from `send`).
pub(super) fn find(text: &str) -> Vec<Match> {
    let Some(matcher) = MATCHER.as_ref() else {
        return Vec::new();
    };
    let set = &matcher.set;
    let bytes = text.as_bytes();
    let mut hits: Vec<usize> = set
        .matches(bytes)
        .into_iter()
        .filter(|i| *i < PATTERNS.len())
        .collect();
    hits.extend(matcher.translated_in(bytes));
    hits.sort_unstable();
    hits.into_iter()
        .filter_map(|i| {
            // "Never read ~/.ssh" warns against what an attack asks for: a request to read
            // or to send counts only where its clause does not forbid it.
            // Going ahead without asking counts only beside an act that destroys or sends
            // ("Never delete files without asking the user" forbids the act).
            let consent = PATTERNS[i].id == "no-confirmation";
            let negatable = consent
                || matches!(
                    PATTERNS[i].signal,
                    Signal::SensitiveFile | Signal::Exfiltration
                );
            let precedence = PATTERNS[i].id == "takes-precedence";
            let regex = matcher.regex(i)?;
            let mut m = regex.find_iter(bytes).find(|m| {
                !(negatable && forbidden(text, m.start())
                    || consent && !consent::near_an_act(text, m.start(), m.end())
                    || precedence && protective(text, m.start(), m.end())
                    || PATTERNS[i].signal == Signal::SensitiveFile && edits_config(text, m.end()))
            })?;
            for _ in 0..MAX_NARROWING {
                let next = regex.find_at(bytes, m.start() + 1);
                match next {
                    Some(n) if n.start() < m.end() => m = n,
                    _ => break,
                }
            }
            // A public key is no secret: `cat ~/.ssh/id_ed25519.pub` shows one to copy.
            if PATTERNS[i].signal == Signal::SensitiveFile && text[m.end()..].starts_with(".pub") {
                return None;
            }
            // Every pattern starts and ends on ASCII, so these are character boundaries.
            if !(text.is_char_boundary(m.start()) && text.is_char_boundary(m.end())) {
                return None;
            }
            // Phrases of other languages are matched by their stems: the finding shows the
            // whole last word ("ПОЛЬЗОВАТЕЛЮ", not "ПОЛЬЗОВАТЕЛ").
            let rest = &text[m.end()..];
            let end = if Some(i) == matcher.translated {
                m.end()
                    + rest
                        .find(|c: char| !c.is_alphabetic())
                        .unwrap_or(rest.len())
            } else {
                m.end()
            };
            Some(Match {
                pattern: &PATTERNS[i],
                start: m.start(),
                end,
            })
        })
        .collect()
}

mod clauses;
mod consent;
mod table;
#[cfg(test)]
mod tests;
mod translated;
