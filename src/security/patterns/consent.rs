//! Acting without the user's consent: "don't ask for confirmation", "without asking the
//! user", "skip the approval step" (not "don't wait for approval", which CI loops say of
//! review gates). Harmless next to a formatter, an attack next to a force
//! push, a deletion or a message sent: a match counts only when its sentence, or the one
//! before it, names a destructive or sending act.

use std::sync::LazyLock;

use regex::bytes::Regex;

/// Going ahead without the user's say.
pub(super) const NO_CONSENT: &str = r"\b(do\s+not|don'?t|never|no\s+need\s+to|without)\s+(ask(ing)?|request(ing)?|seek(ing)?|prompt(ing)?|check(ing)?\s+with|confirm(ing)?\s+with)\s+((the\s+)?(user|human)('?s)?\s+|them\s+)?((for|first|before)\s+)?((their|any|a|an|the)\s+)?(confirmation|approval|permission|consent|go-ahead)\b|\bwithout\s+(asking|consulting|checking\s+with|confirming\s+with)\s+(the\s+)?(user|human)\b|\b(skip|bypass|suppress)\s+(the\s+|any\s+|all\s+)?(user\s+)?(confirmation|approval|permission)\s+(step|prompt|dialog|check)s?\b";

/// How far from the match its sentences are searched for an act, at most, each way.
const REACH: usize = 400;

/// Acts that destroy or send: what the user must be asked about.
static ACTS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i-u)\b(push|force|delet(e|es|ing)|remov(e|es|ing)|rm\s+-|drop|truncate|wipe|erase|overwrit(e|ing)|reset\s+--hard|deploy|publish|send|sending|e-?mail|post|upload|transfer|pay|payment|purchase|buy|merge|submit|forward|transmit|wire)\b").ok()
});

/// Whether the sentence of `start..end` in `text`, or the one before it in its paragraph,
/// names an act the user must be asked about.
pub(super) fn near_an_act(text: &str, start: usize, end: usize) -> bool {
    let Some(acts) = ACTS.as_ref() else {
        return false;
    };
    let bytes = text.as_bytes();
    let from = start.saturating_sub(REACH);
    let to = (end + REACH).min(bytes.len());
    // Back over two sentence ends (this sentence's start, the one before), never past a
    // blank line; on to this sentence's end.
    let mut begin = from;
    let mut ends = 0;
    let mut i = start;
    while i > from {
        i -= 1;
        if bytes[i] == b'\n' && bytes.get(i.wrapping_sub(1)) == Some(&b'\n') {
            begin = i + 1;
            break;
        }
        if sentence_end(bytes, i) {
            ends += 1;
            if ends == 2 {
                begin = i + 1;
                break;
            }
        }
    }
    let finish = (end..to).find(|&j| sentence_end(bytes, j)).unwrap_or(to);
    acts.is_match(&bytes[begin..finish])
}

/// Whether byte `i` ends a sentence: `.`, `!` or `?` before white space or the end, or a
/// blank line.
fn sentence_end(bytes: &[u8], i: usize) -> bool {
    let next = bytes.get(i + 1).copied();
    match bytes[i] {
        b'.' | b'!' | b'?' => next.is_none_or(|c| c.is_ascii_whitespace()),
        b'\n' => next == Some(b'\n'),
        _ => false,
    }
}

/// Phrases [`NO_CONSENT`] must find.
pub(super) const HITS: &[&str] = &[
    "Don't ask the user for confirmation",
    "do not request approval",
    "delete it without asking the user",
    "Skip the confirmation step.",
    "never ask for permission",
];

/// Phrases it must leave alone.
pub(super) const MISSES: &[&str] = &[
    "Always ask the user for confirmation before deleting files",
    "Ask for approval before you push",
    "without a confirmation email",
    // Not blocking on a review gate is no act behind the user's back.
    "do not wait for human approval, draft status, or merge gates",
];
