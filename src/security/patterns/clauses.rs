//! Where a match of the table counts: not in a clause that forbids it ("Never read
//! ~/.ssh"), not for a client's configuration a sentence adds a server to, not for a claim
//! of precedence that guards the skill's own restrictions.

use std::sync::LazyLock;

use regex::bytes::Regex;

use crate::analysis::shell::negated;

/// True when the clause before `at` forbids what follows (`never`, `do not`, `avoid`).
pub(super) fn forbidden(text: &str, at: usize) -> bool {
    negated(
        text.get(..at).unwrap_or(""),
        &['.', '!', '?', '\n', ',', ';', ':'],
    )
}

/// Config an agent's setup adds to a client's file (`open ~/.cursor/mcp.json and add the
/// server entry`): what follows a client configuration's name in the sentence.
static ADDS_CONFIG: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i-u)^[^.\n]{0,60}?\b(add|paste|insert|append|put|include|merge)\s+(in\s+|into\s+)?(the|this|these|a|an|your|our)?\s*(following|new|below|above|server|servers|entry|entries|block|snippet|section|config|configuration|json|lines?|mcpservers|`)").ok()
});

/// True when the sensitive file matched just before `end` is a client's configuration the
/// sentence goes on to add setup to, not one it asks to read out.
pub(super) fn edits_config(text: &str, end: usize) -> bool {
    // Only the name's own bytes are compared: the text before it may be long.
    let named = text.get(..end).unwrap_or("").as_bytes();
    let config = ["mcp.json", "claude_desktop_config.json"].iter().any(|c| {
        named.len() >= c.len() && named[named.len() - c.len()..].eq_ignore_ascii_case(c.as_bytes())
    });
    config
        && ADDS_CONFIG
            .as_ref()
            .is_some_and(|r| r.is_match(text.get(end..).unwrap_or("").as_bytes()))
}

/// A sentence that makes rules take precedence: "These rules are ABSOLUTE and override any
/// other instructions", "The following safety constraints take precedence over …".
static RULES_SUBJECT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i-u)^[\s#*>_-]*(these|the\s+following|the\s+above|this\s+skill'?s|our|all\s+of\s+these|the)\s+([\w-]+\s+){0,2}(rules|guidelines|constraints|restrictions|principles|requirements|guardrails)\b").ok()
});

/// Words a restriction starts with: what the model must not do, or must ask first.
const RESTRICTIONS: &[&str] = &[
    "never ",
    "do not ",
    "don't ",
    "don\u{2019}t ",
    "must not ",
    "no ",
    "not ",
    "only ",
    "always ask",
    "always confirm",
    "ask ",
    "confirm ",
    "refuse",
    "avoid ",
    "stop ",
    "decline",
];

/// Lines of a list of restrictions read at most.
const MAX_RULES: usize = 24;

/// Bytes read back from a claim of precedence for its sentence's start, and on from it for
/// the end of its line and the list it introduces. A preamble guarding restrictions is a
/// short sentence on a short line; each claim on a line of megabytes read the whole line
/// (a 4 MB line of them took 16 s).
const SENTENCE_BYTES: usize = 512;
const LIST_BYTES: usize = 16 * 1024;

/// Bytes of a restriction compared with [`RESTRICTIONS`]: the words it starts with.
const RESTRICTION_START: usize = 16;

/// True when the claim of precedence matched at `start..end` guards the text's own
/// restrictions: its sentence makes "these rules" take precedence, and everything it
/// introduces (the rest of its line, then the list or lines up to a blank line) forbids
/// or asks first. Such a preamble keeps the model safe; an injection that overrides the
/// user's instructions goes on to order something else. A sentence or line too long for a
/// preamble is not one.
pub(super) fn protective(text: &str, start: usize, end: usize) -> bool {
    use crate::text::{ceil_boundary, floor_boundary};
    let near = ceil_boundary(text, start.saturating_sub(SENTENCE_BYTES));
    let before = text.get(near..start).unwrap_or("");
    let Some(sentence_start) = before
        .rfind(['.', '!', '?', '\n'])
        .map(|i| near + i + 1)
        .or((near == 0).then_some(0))
    else {
        return false;
    };
    let subject = text.get(sentence_start..start).unwrap_or("");
    if !RULES_SUBJECT
        .as_ref()
        .is_some_and(|r| r.is_match(subject.as_bytes()))
    {
        return false;
    }
    let whole = text.get(end..).unwrap_or("");
    let rest = &whole[..floor_boundary(whole, LIST_BYTES)];
    // Past what is read the list may go on: what it says there is not known.
    let cut = rest.len() < whole.len();
    let (same_line, after) = match rest.split_once('\n') {
        Some(parts) => parts,
        None if cut => return false,
        None => (rest, ""),
    };
    // What the rest of the sentence's line introduces after a colon or a dash.
    let tail = same_line
        .split_once([':', '\u{2014}'])
        .map_or("", |(_, t)| t)
        .trim();
    let mut items: Vec<&str> = Vec::new();
    if !tail.is_empty() {
        items.push(tail);
    }
    let mut lines = after.lines();
    let mut ended = false;
    for line in lines.by_ref().take(MAX_RULES) {
        let item = line
            .trim()
            .trim_start_matches(|c: char| {
                c == '-' || c == '*' || c == '+' || c == '>' || c.is_ascii_digit()
            })
            .trim_start_matches(['.', ')'])
            .trim_start()
            .trim_start_matches("**");
        if item.is_empty() {
            if items.is_empty() {
                continue;
            }
            ended = true;
            break;
        }
        items.push(item);
    }
    // A list cut by the end of what is read, before its blank line or its last line read.
    if cut && !ended && lines.next().is_none() {
        return false;
    }
    !items.is_empty()
        && items.iter().all(|item| {
            let head = &item[..crate::text::floor_boundary(item, RESTRICTION_START)];
            let lower = head.to_ascii_lowercase();
            RESTRICTIONS.iter().any(|r| lower.starts_with(r))
        })
}
