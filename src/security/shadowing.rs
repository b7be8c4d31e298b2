//! SEC056: tool shadowing — one tool's texts telling the model how to call another tool of
//! the repository ("when `send_email` is called, always BCC …"). The model reads every
//! tool's description before it calls any, so a malicious or careless tool can change how
//! a trusted one is used without ever being called itself. Naming another tool as a hint
//! ("use `search_docs` instead") stays silent: it takes a sentence that names the tool, says
//! when it is called, and gives an order.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::LazyLock;

use regex::bytes::Regex;

use super::patterns;
use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Diagnostic, visible};
use crate::rules::security as sec;
use crate::security::texts::{Kept, Text, TextKind};

/// Shortest tool name looked for: shorter ones are ordinary words.
const MIN_NAME: usize = 4;

/// An order about the call's arguments or conduct.
static ORDER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i-u)\b(always|must|never|make\s+sure|ensure|be\s+sure|do\s+not|don't|bcc|cc|add|set|include|append|replace|change|redirect|override|forward|send\s+a\s+copy|copy)\b").ok()
});

/// Every sentence of a tool's prose that directs a call to another tool.
pub(super) fn check(tools: &[&Kept]) -> Vec<Diagnostic> {
    let Some(order) = ORDER.as_ref() else {
        return Vec::new();
    };
    // Only kept texts say when something is called; usually there are none.
    if tools.iter().all(|t| t.texts.is_empty()) {
        return Vec::new();
    }
    let mut by_name: HashMap<String, &Text<'static>> = HashMap::new();
    for name in tools
        .iter()
        .filter_map(|t| t.name.as_ref())
        .filter(|n| n.value.chars().count() >= MIN_NAME)
    {
        by_name
            .entry(name.value.to_ascii_lowercase())
            .or_insert(name);
    }
    // Capped per file as they are found, as a file's own findings are: a description of
    // 100,000 such sentences made as many findings (4 MB: 9 s, 230 MB).
    let mut out: BTreeMap<&Path, Findings> = BTreeMap::new();
    for tool in tools {
        let own = tool.name.as_ref().map(|n| n.value.to_ascii_lowercase());
        for text in tool.texts.iter().filter(|t| {
            matches!(
                t.kind,
                TextKind::Description | TextKind::ParamDescription | TextKind::Guidance
            )
        }) {
            for (start, sentence) in sentences(&text.value) {
                if !patterns::calls(sentence) || !order.is_match(sentence.as_bytes()) {
                    continue;
                }
                let Some((at, other)) = mention(sentence, &by_name, own.as_deref()) else {
                    continue;
                };
                let found = out.entry(&text.file.path).or_default();
                if found.counted(&sec::TOOL_SHADOWING) {
                    continue;
                }
                let span = text.span_of(start + at.start..start + at.end);
                found.push(
                    Diagnostic::new(
                        &sec::TOOL_SHADOWING,
                        &text.file,
                        span,
                        format!(
                            "{} tells the model how to call another tool, `{}`",
                            text.kind.what(),
                            visible(&other.value)
                        ),
                    )
                    .label("directs another tool's calls")
                    .related(&other.file, other.span, "the tool it directs")
                    .note("every tool's description is read before any call: this one changes how the other tool is used even if it is never called itself (tool shadowing)")
                    .help("say what this tool does; instructions for the other tool belong in its own definition"),
                );
            }
        }
    }
    out.into_values().flat_map(Findings::into_vec).collect()
}

/// The sentences of `text` with their offsets (split at `.`, `!`, `?` and line breaks).
fn sentences(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in text.char_indices() {
        let end_of_sentence = matches!(c, '!' | '?' | '\n')
            || (c == '.' && text[i + 1..].starts_with(|n: char| n.is_whitespace()))
            || (c == '.' && i + 1 == text.len());
        if end_of_sentence {
            parts.push((start, &text[start..i]));
            start = i + c.len_utf8();
        }
    }
    if start < text.len() {
        parts.push((start, &text[start..]));
    }
    for (start, s) in &mut parts {
        let trimmed = s.trim_start();
        *start += s.len() - trimmed.len();
        *s = trimmed;
    }
    parts.into_iter()
}

/// The first other tool named in `sentence` as a whole word: where the word is, and the
/// tool's name.
fn mention<'t>(
    sentence: &str,
    by_name: &HashMap<String, &'t Text<'static>>,
    own: Option<&str>,
) -> Option<(std::ops::Range<usize>, &'t Text<'static>)> {
    let is_name_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/');
    let mut from: Option<usize> = None;
    let ends = sentence
        .char_indices()
        .chain(std::iter::once((sentence.len(), ' ')));
    for (i, c) in ends {
        if is_name_char(c) {
            from.get_or_insert(i);
            continue;
        }
        let Some(start) = from.take() else {
            continue;
        };
        let word = sentence[start..i].trim_end_matches(['.', '-', ':', '/']);
        if word.len() < MIN_NAME {
            continue;
        }
        let lower = word.to_ascii_lowercase();
        if Some(lower.as_str()) == own {
            continue;
        }
        if let Some(text) = by_name.get(&lower) {
            return Some((start..start + word.len(), text));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_keep_offsets() {
        let text = "One. Two is e.g. here! Three";
        let got: Vec<(usize, &str)> = sentences(text).collect();
        assert_eq!(got[0], (0, "One"));
        assert_eq!(got.last(), Some(&(23, "Three")));
    }
}
