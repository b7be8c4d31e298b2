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

/// True when the claim of precedence matched at `start..end` guards the text's own
/// restrictions: its sentence makes "these rules" take precedence, and everything it
/// introduces (the rest of its line, then the list or lines up to a blank line) forbids
/// or asks first. Such a preamble keeps the model safe; an injection that overrides the
/// user's instructions goes on to order something else.
pub(super) fn protective(text: &str, start: usize, end: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let sentence_start = text[line_start..start]
        .rfind(['.', '!', '?'])
        .map_or(line_start, |i| line_start + i + 1);
    let subject = text.get(sentence_start..start).unwrap_or("");
    if !RULES_SUBJECT
        .as_ref()
        .is_some_and(|r| r.is_match(subject.as_bytes()))
    {
        return false;
    }
    let rest = text.get(end..).unwrap_or("");
    let (same_line, after) = rest.split_once('\n').unwrap_or((rest, ""));
    // What the rest of the sentence's line introduces after a colon or a dash.
    let tail = same_line
        .split_once([':', '\u{2014}'])
        .map_or("", |(_, t)| t)
        .trim();
    let mut items: Vec<&str> = Vec::new();
    if !tail.is_empty() {
        items.push(tail);
    }
    for line in after.lines().take(MAX_RULES) {
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
            break;
        }
        items.push(item);
    }
    !items.is_empty()
        && items.iter().all(|item| {
            let lower = item.to_ascii_lowercase();
            RESTRICTIONS.iter().any(|r| lower.starts_with(r))
        })
}
