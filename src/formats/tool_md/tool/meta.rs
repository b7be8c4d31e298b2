//! `meta`: name, description (two to five sentences), owner, tags and `last_updated`.

use super::CLOSED_NOTE;
use crate::formats::fields::{Lowerer, MapRef};
use crate::rules::tool_md as rules;

const META_KEYS: &[&str] = &["name", "description", "owner", "tags", "last_updated"];

/// `meta`; returns whether `meta.last_updated` is present.
pub(super) fn meta(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> bool {
    let Some(m) = lw
        .required(map, "meta")
        .and_then(|e| lw.as_map(&e.value, e.key_span(), "meta"))
    else {
        return false;
    };
    lw.unknown_keys(m, META_KEYS, CLOSED_NOTE);
    lw.required_str(m, "name", 1, usize::MAX);
    if let Some((description, span)) = lw.required_str(m, "description", 1, usize::MAX)
        && !description.trim().is_empty()
    {
        let n = sentence_count(description);
        if !(2..=5).contains(&n) {
            let d = lw
                .diag(
                    &rules::DESCRIPTION_SENTENCE_COUNT,
                    span,
                    format!(
                        "`meta.description` has {n} sentence{}; the spec asks for two to five",
                        if n == 1 { "" } else { "s" }
                    ),
                )
                .label(if n < 2 { "too short" } else { "too long" })
                .note("the model reads this description to decide when to call the tool")
                .help(if n < 2 {
                    "say what the tool does, then when to use it and when not to"
                } else {
                    "keep what the tool does and when to use it; move details to `use_guidance` or the `# Notes` section"
                });
            lw.push(d);
        }
    }
    lw.required_str(m, "owner", 1, usize::MAX);
    if let Some(e) = m.node.get("tags") {
        lw.str_items(&e.value, "meta.tags", true, |_, _| {});
    }
    let Some(e) = m.node.get("last_updated") else {
        return false;
    };
    if let Some((date, span)) = lw.str_value(&e.value, "meta.last_updated", 0, usize::MAX)
        && !is_iso_date(date)
    {
        let d = lw
            .diag(
                &rules::INVALID_DATE,
                span,
                format!(
                    "`meta.last_updated` must be an ISO 8601 date (`YYYY-MM-DD`), found `{date}`"
                ),
            )
            .label("not a `YYYY-MM-DD` date")
            .note("tooling that sorts or ages tools by this date cannot read it")
            .help("write the date as `\"2025-04-01\"`");
        lw.push(d);
    }
    true
}

/// `YYYY-MM-DD` with a real month and day (the shape checked here, the calendar by jiff).
fn is_iso_date(s: &str) -> bool {
    let shape = s.len() == 10
        && s.bytes().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    shape && s.parse::<jiff::civil::Date>().is_ok()
}

/// Sentences in `text`: runs ended by `.`, `!` or `?` before whitespace or the end, where
/// the word before a `.` is not an abbreviation such as `e.g.`.
pub(super) fn sentence_count(text: &str) -> usize {
    const ABBREVIATIONS: &[&str] = &[
        "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "mr", "mrs", "ms", "dr", "no", "st",
    ];
    let mut count = 0;
    let mut pending = false;
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | '!' | '?') {
            let next = text.get(i + c.len_utf8()..).and_then(|t| t.chars().next());
            if !pending || !next.is_none_or(char::is_whitespace) {
                continue;
            }
            // Past the separator, whatever its length: U+00A0 and U+3000 are spaces too.
            let before = text.get(..i).unwrap_or("");
            let word_start = before
                .rfind(|w: char| w.is_whitespace() || w == '(')
                .map_or(0, |j| crate::text::after_char(before, j));
            let word = before.get(word_start..).unwrap_or("").to_lowercase();
            if c == '.' && ABBREVIATIONS.contains(&word.as_str()) {
                continue;
            }
            count += 1;
            pending = false;
        } else if !c.is_whitespace() {
            pending = true;
        }
    }
    count + usize::from(pending)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences() {
        assert_eq!(sentence_count("One."), 1);
        assert_eq!(sentence_count("One. Two! Three?"), 3);
        assert_eq!(sentence_count("Use it, e.g. for search. Or not"), 2);
        assert_eq!(sentence_count("Scores 0.0–1.0 apply. Fine."), 2);
        assert_eq!(sentence_count("Wait... then go."), 2);
        // Found by fuzzing: a multi-byte space before a sentence's last word.
        for space in ['\u{a0}', '\u{2028}', '\u{3000}', '\u{85}'] {
            assert_eq!(
                sentence_count(&format!("Use it{space}now. Or{space}e.g. not")),
                2
            );
        }
    }

    #[test]
    fn dates() {
        assert!(is_iso_date("2024-02-29"));
        assert!(!is_iso_date("2023-02-29"));
        assert!(!is_iso_date("2025-4-01"));
    }
}
