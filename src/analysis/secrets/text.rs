//! Credentials in a whole text: the lines worth scanning found in one pass, and the text
//! with its credentials masked for display.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::{Secret, SecretKind, scan};

/// Words without which no line holds a credential: token prefixes, URLs, key blocks, and
/// the parts of secret-like names and credential headers in the three ways names are cased
/// (`key`, `Key`, `KEY`). Few enough for a SIMD search (Teddy) of every file.
const TRIGGERS: &[&str] = &[
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xox",
    "hooks.slack.com",
    "sk-",
    "AKIA",
    "ASIA",
    "eyJ",
    "-----BEGIN",
    "://",
    "-u ",
    "--user",
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
];

/// The triggers before this index are of formats (tokens, keys, URLs); the rest are of
/// names, which only headers and assignments use.
const NAME_TRIGGERS: usize = 17;

/// The triggers, as one automaton: a file is searched once, and only lines with a trigger
/// are scanned.
static TRIGGER: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    // Leftmost matching is what lets the automaton use its SIMD prefilter.
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostFirst)
        .build(TRIGGERS)
        .ok()
});

/// Every credential in `text`, with offsets into it, line by line; lines without a trigger
/// word are skipped without a look.
pub fn scan_text(text: &str) -> Vec<Secret> {
    let mut out = Vec::new();
    let Some(trigger) = TRIGGER.as_ref() else {
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
        let formats = trigger
            .find_iter(line)
            .any(|m| m.pattern().as_usize() < NAME_TRIGGERS);
        for mut s in scan(line, formats) {
            s.start += start;
            s.end += start;
            out.push(s);
        }
        from = end + 1;
    }
    out
}

/// `text` with every credential it holds masked with `*` past its first characters, the
/// byte length unchanged (so offsets into it still hold): what a snippet may show.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    let mut out: Option<String> = None;
    for hit in scan_text(text) {
        let keep = match hit.kind {
            SecretKind::Token { prefix_len, .. } => prefix_len + 2,
            _ => 2,
        };
        let masked: String = text[hit.start..hit.end]
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i < keep {
                    c.to_string()
                } else {
                    "*".repeat(c.len_utf8())
                }
            })
            .collect();
        out.get_or_insert_with(|| text.to_string())
            .replace_range(hit.start..hit.end, &masked);
    }
    out.map_or(std::borrow::Cow::Borrowed(text), std::borrow::Cow::Owned)
}
