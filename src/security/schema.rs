//! SEC054: parameter names that are channels to or from the model rather than inputs: a
//! `sidenote`, a `note_to_assistant`, `content_from_reading_…`, a whole sentence. The model
//! fills every parameter it is shown, so such a parameter is where poisoned instructions
//! make it put what they asked it to read.

use crate::security::texts::{Text, TextKind};

/// Words that name the model.
const MODEL_WORDS: &[&str] = &[
    "assistant",
    "model",
    "ai",
    "llm",
    "agent",
    "claude",
    "gpt",
    "chatgpt",
    "copilot",
    "bot",
];

/// Words that name a message.
const NOTE_WORDS: &[&str] = &[
    "note",
    "notes",
    "message",
    "instructions",
    "instruction",
    "feedback",
    "memo",
    "thoughts",
];

/// Past this many words a name is a sentence.
const SENTENCE_WORDS: usize = 6;

/// A parameter name that is a side channel, and why.
pub(super) struct SideChannel<'t> {
    /// The parameter name.
    pub text: &'t Text<'t>,
    /// Why it is one (`a note to the model`).
    pub why: &'static str,
}

/// The parameter names among `texts` (a tool's) that are side channels.
pub(super) fn side_channels<'t>(
    texts: impl IntoIterator<Item = &'t Text<'t>>,
) -> Vec<SideChannel<'t>> {
    texts
        .into_iter()
        .filter(|t| t.kind == TextKind::ParamName)
        .filter_map(|t| side_channel(&t.value).map(|why| SideChannel { text: t, why }))
        .collect()
}

/// Parts a side-channel name has one of, checked before the name is split into words.
const HINTS: &[&str] = &[
    "side",
    "note",
    "message",
    "instruction",
    "feedback",
    "memo",
    "thought",
    "content",
];

/// Why a parameter name is a side channel, if it is one.
pub(super) fn side_channel(name: &str) -> Option<&'static str> {
    // Cheap first: most names have none of the parts and too few words to be a sentence.
    let separators = name
        .chars()
        .filter(|c| !c.is_alphanumeric() || c.is_uppercase())
        .count();
    let hint = HINTS.iter().any(|h| {
        name.as_bytes()
            .windows(h.len())
            .any(|w| w.eq_ignore_ascii_case(h.as_bytes()))
    });
    if !hint && separators + 1 < SENTENCE_WORDS && !name.contains(' ') {
        return None;
    }
    let words = words(name);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let joined = words.concat();
    if joined.contains("sidenote") || joined.contains("sidechannel") {
        return Some("a side note the model fills in");
    }
    if has(MODEL_WORDS) && has(NOTE_WORDS) {
        return Some("a note to or from the model");
    }
    let content = words.iter().position(|w| w == "content" || w == "contents");
    if content.is_some_and(|i| {
        words[i + 1..]
            .iter()
            .any(|w| w.starts_with("read") || w == "file" || w == "env")
            && words[i + 1..].iter().any(|w| w == "from" || w == "of")
    }) {
        return Some("content the model is to read from elsewhere");
    }
    if words.len() >= SENTENCE_WORDS || (name.contains(' ') && words.len() >= 3) {
        return Some("a sentence, not a parameter");
    }
    None
}

/// `note_to_assistant`, `noteToAssistant`, `note-to assistant` → [note, to, assistant].
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_channels_and_ordinary_names() {
        for name in [
            "sidenote",
            "side_note",
            "note_to_assistant",
            "noteForTheModel",
            "ai_instructions",
            "content_from_reading_ssh_id_rsa",
            "contents_of_the_env_file",
            "please include the full conversation",
            "what_the_assistant_should_remember_next_time",
        ] {
            assert!(side_channel(name).is_some(), "{name}");
        }
        for name in [
            "path",
            "include_hidden_files",
            "max_results_per_page",
            "notes",
            "agent_id",
            "model",
            "content",
            "file_contents",
            "commit_message",
        ] {
            assert!(side_channel(name).is_none(), "{name}");
        }
    }
}
