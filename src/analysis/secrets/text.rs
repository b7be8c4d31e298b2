//! Credentials in a whole text: the lines worth scanning found in one pass, and the text
//! with its credentials masked for display.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::{Around, Secret, SecretKind, scan};

/// Words without which no line holds a credential besides a token of a known format
/// (whose prefixes come first, from [`super::formats::prefixes`]): URLs, HTTP clients'
/// user options, and the parts of secret-like names and credential headers in the three
/// ways names are cased (`key`, `Key`, `KEY`). Few enough for a SIMD search (Teddy) of
/// every file.
const NAME_WORDS: &[&str] = &[
    "://",
    "-u ",
    "-U ",
    "-user",
    "pass",
    "Pass",
    "PASS",
    "pwd",
    "Pwd",
    "PWD",
    "token",
    "Token",
    "TOKEN",
    "secret",
    "Secret",
    "SECRET",
    "key",
    "Key",
    "KEY",
    "credential",
    "Credential",
    "CREDENTIAL",
    "auth",
    "Auth",
    "AUTH",
    "sudo",
    "sshpass",
];

/// The triggers, as one automaton, and how many of them are format prefixes: a file is
/// searched once, and only lines with a trigger are scanned (for formats only when a
/// prefix is on the line).
struct Triggers {
    automaton: AhoCorasick,
    formats: usize,
}

static TRIGGER: LazyLock<Option<Triggers>> = LazyLock::new(|| {
    let prefixes: Vec<&str> = super::formats::prefixes().collect();
    let formats = prefixes.len();
    // Leftmost matching is what lets the automaton use its SIMD prefilter.
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostFirst)
        .build(prefixes.into_iter().chain(NAME_WORDS.iter().copied()))
        .ok()?;
    Some(Triggers { automaton, formats })
});

/// Every credential in `text` (reported or only masked: see [`Secret::reported`]), with
/// offsets into it, line by line; lines without a trigger word are skipped without a look.
pub(crate) fn scan_text(text: &str) -> Vec<Secret> {
    let mut out = Vec::new();
    let Some(Triggers {
        automaton: trigger,
        formats,
    }) = TRIGGER.as_ref()
    else {
        return out;
    };
    let mut from = 0;
    while from < text.len() {
        let Some(m) = trigger.find(&text[from..]) else {
            break;
        };
        let at = from + m.start();
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = text[start..end]
            .strip_suffix('\r')
            .unwrap_or(&text[start..end]);
        let has_format = trigger
            .find_iter(line)
            .any(|m| m.pattern().as_usize() < *formats);
        let after = text.get(end + 1..).unwrap_or("");
        let around = Around {
            before: &text[..start],
            after,
            after_at: end + 1 - start,
        };
        for mut s in scan(line, around, has_format) {
            s.start += start;
            s.end += start;
            s.masked_end += start;
            out.push(s);
        }
        from = end + 1;
    }
    out
}

/// `text` with every credential it holds masked with `*` past its first characters, the
/// byte length unchanged (so offsets into it still hold): what a snippet may show.
pub(crate) fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    let mut out: Option<String> = None;
    for hit in scan_text(text) {
        let keep = match hit.kind {
            SecretKind::Token { prefix_len, .. } => prefix_len + 2,
            SecretKind::Unread => 0,
            _ => 2,
        };
        // A key block's body runs over lines: its line breaks and indents stay.
        let end = Some(hit.masked_end.clamp(hit.end, text.len()))
            .filter(|e| text.is_char_boundary(*e))
            .unwrap_or(hit.end);
        let Some(secret) = text.get(hit.start..end) else {
            continue;
        };
        let masked: String = secret
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i < keep || c.is_whitespace() {
                    c.to_string()
                } else {
                    "*".repeat(c.len_utf8())
                }
            })
            .collect();
        out.get_or_insert_with(|| text.to_string())
            .replace_range(hit.start..end, &masked);
    }
    out.map_or(std::borrow::Cow::Borrowed(text), std::borrow::Cow::Owned)
}
