//! Every mistake of a `toolc.toml` at once. The typed reader stops at its first error (an
//! unknown key, a wrong type); to report the next one too, the entry it pointed at is blanked
//! (its line, or the whole table for a table header: spaces of the same length, so every
//! offset stays) and the text is read again, up to [`MAX_ERRORS`] times.

use std::ops::Range;

use serde::de::DeserializeOwned;

/// Errors reported for one file at most.
const MAX_ERRORS: usize = 20;

/// One error: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ReadError {
    /// Bytes of the text.
    pub span: Range<usize>,
    /// The reader's message.
    pub message: String,
}

/// `text` read as `T` once every mistake was blanked, and the mistakes. `None` when the text
/// is not TOML (only that error is known then) or a mistake could not be blanked out.
pub(super) fn read<T: DeserializeOwned>(text: &str) -> (Option<T>, Vec<ReadError>) {
    let error = |e: toml::de::Error| ReadError {
        span: e.span().unwrap_or(0..0),
        message: e.message().trim().to_string(),
    };
    // A syntax error: the rest of the file cannot be read reliably.
    if let Err(e) = text.parse::<toml::Table>() {
        return (None, vec![error(e)]);
    }
    let mut errors = Vec::new();
    let mut current = text.to_string();
    loop {
        match toml::from_str::<T>(&current) {
            // Read once its mistakes were blanked: its other settings are checked too.
            Ok(value) => return (Some(value), errors),
            Err(e) => {
                let e = error(e);
                let blanked = blank(&current, &e.span);
                errors.push(e);
                match blanked {
                    Some(next) if next != current && errors.len() < MAX_ERRORS => current = next,
                    _ => return (None, errors),
                }
            }
        }
    }
}

/// `text` with the entry at `span` blanked: its lines, or, when it is a table header, the
/// header and the table's lines up to the next header. `None` when there is nothing to blank.
fn blank(text: &str, span: &Range<usize>) -> Option<String> {
    let start = text
        .get(..span.start.min(text.len()))?
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |i| from + i);
    let mut end = line_end(span.end.max(start).min(text.len()));
    if text[start..].trim_start().starts_with('[') {
        // The table's own lines go with its header.
        let mut at = end;
        while at < text.len() {
            let next = at + 1;
            if next >= text.len() || text[next..].trim_start().starts_with('[') {
                break;
            }
            at = line_end(next);
            end = at;
        }
    }
    if start >= end {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..start]);
    for c in text[start..end].chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    out.push_str(&text[end..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Raw {
        #[serde(default)]
        a: Option<u32>,
        #[serde(default)]
        t: Option<Inner>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        #[serde(default)]
        x: Option<bool>,
    }

    #[test]
    fn every_mistake_is_reported_with_its_place() {
        let text = "a = \"one\"\nbogus = 1\n[t]\nx = 3\n[tt]\ny = 1\n";
        let (_, errors) = read::<Raw>(text);
        let places: Vec<&str> = errors.iter().map(|e| &text[e.span.clone()]).collect();
        assert_eq!(places.len(), 4, "{errors:#?}");
        assert!(places.contains(&"\"one\""), "{places:?}");
        assert!(places.contains(&"bogus"), "{places:?}");
        assert!(places.contains(&"3"), "{places:?}");
        assert!(places.iter().any(|p| p.contains("tt")), "{places:?}");
        let (value, errors) = read::<Raw>("a = 1\n[t]\nx = true\n");
        let value = value.expect("read");
        assert!(errors.is_empty());
        assert_eq!(value.a, Some(1));
        assert_eq!(value.t.and_then(|t| t.x), Some(true));
        let (_, errors) = read::<Raw>("a = \n");
        assert_eq!(errors.len(), 1);
        // Multi-byte text keeps every offset.
        let (_, errors) = read::<Raw>("\"é\" = 1\na = \"ü\"\n");
        assert_eq!(errors.len(), 2, "{errors:#?}");
    }
}
