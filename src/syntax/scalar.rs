//! Where a part of a parsed string is written: a YAML or JSON scalar's value differs from
//! its source by quotes, escapes (`\u202e`, `''`), block headers, indentation and line
//! folding, so an offset into the value is mapped back by walking both side by side.
//!
//! The walk is a greedy alignment: each value character is matched to the next source
//! character that is it (or an escape that decodes to it); everything else in the source
//! (quotes, indentation, a folded line break) is skipped. It never fails: past the end of
//! what it can align, the whole scalar stands for the part.

use std::ops::Range;

/// How far apart (in bytes of the value) a long scalar's walk leaves [`Marks`].
pub(crate) const MARK_EVERY: usize = 4096;

/// What is known of one long scalar for mapping parts of it: how it is written, and where
/// the walks of it found bytes of its value in its source, every [`MARK_EVERY`] bytes (a
/// later walk starts at the last mark before the part it maps, not at the scalar's start).
/// A description of thousands of findings was compared whole with its source and walked
/// from its start for each (32,000 in 816 KB took 18 s). Kept by the caller, for as long as
/// it maps parts of the same scalar.
#[derive(Default)]
pub(crate) struct Marks {
    written: Option<Written>,
    walks: Vec<(usize, usize)>,
}

/// How a scalar's value is written in its source.
#[derive(Clone, Copy)]
enum Written {
    /// As it is.
    AsIs,
    /// Between quotes, without escapes.
    Quoted,
    /// Otherwise: walked.
    Walked,
}

impl Written {
    fn of(raw: &str, value: &str) -> Written {
        if raw == value {
            Written::AsIs
        } else if raw.len() >= 2
            && raw.is_char_boundary(1)
            && raw.get(1..raw.len() - 1) == Some(value)
        {
            Written::Quoted
        } else {
            Written::Walked
        }
    }
}

impl Marks {
    /// The last mark at or before value byte `at`.
    fn before(&self, at: usize) -> Option<(usize, usize)> {
        let i = self.walks.partition_point(|(m, _)| *m <= at);
        i.checked_sub(1).and_then(|i| self.walks.get(i).copied())
    }

    /// Keep the mark at `at`, a walk's place before value byte `at`, when it is past every
    /// mark held (a walk that started at an earlier mark passes those again).
    fn keep(&mut self, at: usize, src: usize) {
        if self.walks.last().is_none_or(|(m, _)| at > *m) {
            self.walks.push((at, src));
        }
    }
}

/// The bytes of `raw` (a scalar as written: its node's span in the file) that hold bytes
/// `range` of its parsed `value`. Exact for plain, quoted, escaped and block scalars; the
/// whole of `raw` when the two cannot be aligned.
pub(crate) fn source_range(raw: &str, value: &str, range: Range<usize>) -> Range<usize> {
    source_range_marked(raw, value, range, &mut Marks::default())
}

/// [`source_range`], the walk of a long value starting at the last of `marks` before
/// `range` and leaving more.
pub(crate) fn source_range_marked(
    raw: &str,
    value: &str,
    range: Range<usize>,
    marks: &mut Marks,
) -> Range<usize> {
    let whole = 0..raw.len();
    if range.start > range.end || range.end > value.len() {
        return whole;
    }
    let long = value.len() > MARK_EVERY;
    let written = if long {
        *marks.written.get_or_insert_with(|| Written::of(raw, value))
    } else {
        Written::of(raw, value)
    };
    match written {
        Written::AsIs => return range,
        Written::Quoted => return range.start + 1..range.end + 1,
        Written::Walked => {}
    }
    let escapes = raw.starts_with('"');
    let (walked_from, mut src) = long
        .then(|| marks.before(range.start))
        .flatten()
        .filter(|(at, _)| value.is_char_boundary(*at))
        .unwrap_or((0, body_start(raw)));
    let mut start = None;
    let mut last_end = src;
    let mut next_mark = (walked_from / MARK_EVERY + 1) * MARK_EVERY;
    for (i, c) in value[walked_from..].char_indices() {
        let at = walked_from + i;
        if long && at >= next_mark {
            marks.keep(at, src);
            next_mark = (at / MARK_EVERY + 1) * MARK_EVERY;
        }
        let Some((from, to)) = align(raw, &mut src, c, escapes) else {
            return whole;
        };
        if at == range.start {
            start = Some(from);
        }
        if at >= range.end {
            break;
        }
        last_end = to;
    }
    match start {
        Some(s) => s..last_end.max(s),
        // An empty range at the very end of the value.
        None if range.start == value.len() => last_end..last_end,
        None => whole,
    }
}

/// Where a scalar's characters start: after an opening quote, or after a block scalar's
/// header line.
fn body_start(raw: &str) -> usize {
    match raw.as_bytes().first() {
        Some(b'"' | b'\'') => 1,
        Some(b'|' | b'>') => raw.find('\n').map_or(raw.len(), |i| i + 1),
        _ => 0,
    }
}

/// Find `c` at or after `*src` in `raw`; returns its source bytes and moves past them.
fn align(raw: &str, src: &mut usize, c: char, escapes: bool) -> Option<(usize, usize)> {
    let bytes = raw.as_bytes();
    while *src < raw.len() {
        let at = *src;
        if escapes
            && bytes[at] == b'\\'
            && let Some((decoded, len)) = escape(&raw[at..])
        {
            *src = at + len;
            match decoded {
                Some(d) if d == c => return Some((at, at + len)),
                // A decoded character other than `c` cannot be skipped as decoration.
                Some(_) => return None,
                None => continue,
            }
        }
        let here = raw[at..].chars().next()?;
        *src = at + here.len_utf8();
        if here == c {
            return Some((at, *src));
        }
        // Folding turns a line break into a space (or drops it): the break stands for it.
        if (c == ' ' || c == '\n') && (here == '\n' || here == '\r') {
            return Some((at, *src));
        }
    }
    None
}

/// The character an escape at the start of `s` stands for (`None` for an escaped line break,
/// which stands for nothing), and the escape's length in bytes.
fn escape(s: &str) -> Option<(Option<char>, usize)> {
    let mut chars = s.chars();
    chars.next()?;
    let e = chars.next()?;
    let simple = match e {
        'n' => Some('\n'),
        't' | '\t' => Some('\t'),
        'r' => Some('\r'),
        '"' => Some('"'),
        '\\' => Some('\\'),
        '/' => Some('/'),
        '0' => Some('\0'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'e' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        ' ' => Some(' '),
        'N' => Some('\u{85}'),
        '_' => Some('\u{a0}'),
        'L' => Some('\u{2028}'),
        'P' => Some('\u{2029}'),
        _ => None,
    };
    if let Some(c) = simple {
        return Some((Some(c), 1 + e.len_utf8()));
    }
    let hex = |n: usize| -> Option<u32> {
        let digits = s.get(2..2 + n)?;
        u32::from_str_radix(digits, 16).ok()
    };
    match e {
        'x' => Some((char::from_u32(hex(2)?), 4)),
        'U' => Some((char::from_u32(hex(8)?), 10)),
        'u' => {
            let unit = hex(4)?;
            // A JSON surrogate pair is two escapes for one character.
            if (0xd800..0xdc00).contains(&unit)
                && s.get(6..8) == Some("\\u")
                && let Some(low) = s.get(8..12).and_then(|d| u32::from_str_radix(d, 16).ok())
                && (0xdc00..0xe000).contains(&low)
            {
                let c = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                return Some((char::from_u32(c), 12));
            }
            Some((char::from_u32(unit), 6))
        }
        '\n' => Some((None, 2)),
        '\r' => Some((None, if s.get(2..3) == Some("\n") { 3 } else { 2 })),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{Node, json, yaml};

    /// The scalar under `key` and its source.
    fn scalar<'t>(text: &'t str, root: &Node, key: &str) -> (&'t str, String) {
        let node = root.value(key).expect("key");
        (
            &text[node.span().start..node.span().end],
            node.as_str().expect("string").to_string(),
        )
    }

    /// The source text that bytes of `needle` (found in the value) map to.
    fn mapped(raw: &str, value: &str, needle: &str) -> String {
        let at = value.find(needle).expect("needle in value");
        raw[source_range(raw, value, at..at + needle.len())].to_string()
    }

    #[test]
    fn yaml_styles_map_back_to_their_characters() {
        let text = "a: plain \u{200b}x\nb: \"dq \\u202E y\"\nc: 'it''s \u{2066}z'\nd: |\n  line one\n  two \u{e0041}w\ne: >-\n  folded\n  more \u{feff}v\nf: plain\n  continued \u{200d}q\n";
        let root = yaml::parse(text, 0).root.expect("yaml");
        let (raw, value) = scalar(text, &root, "a");
        assert_eq!(mapped(raw, &value, "\u{200b}"), "\u{200b}");
        let (raw, value) = scalar(text, &root, "b");
        assert_eq!(mapped(raw, &value, "\u{202e}"), "\\u202E");
        assert_eq!(mapped(raw, &value, " y"), " y");
        let (raw, value) = scalar(text, &root, "c");
        assert_eq!(mapped(raw, &value, "\u{2066}z"), "\u{2066}z");
        assert_eq!(mapped(raw, &value, "'s"), "''s");
        let (raw, value) = scalar(text, &root, "d");
        assert_eq!(mapped(raw, &value, "\u{e0041}w"), "\u{e0041}w");
        assert_eq!(mapped(raw, &value, "two"), "two");
        let (raw, value) = scalar(text, &root, "e");
        assert_eq!(mapped(raw, &value, "\u{feff}"), "\u{feff}");
        assert_eq!(mapped(raw, &value, "more"), "more");
        let (raw, value) = scalar(text, &root, "f");
        assert_eq!(mapped(raw, &value, "\u{200d}q"), "\u{200d}q");
    }

    #[test]
    fn json_escapes_and_surrogates() {
        let text = r#"{"k": "a\u200bb \ud83d\ude00 \"q\" \\ \u202e!"}"#;
        let root = json::parse(text, 0).root.expect("json");
        let (raw, value) = scalar(text, &root, "k");
        assert_eq!(mapped(raw, &value, "\u{200b}"), "\\u200b");
        assert_eq!(mapped(raw, &value, "😀"), "\\ud83d\\ude00");
        assert_eq!(mapped(raw, &value, "\"q\""), "\\\"q\\\"");
        assert_eq!(mapped(raw, &value, "\u{202e}!"), "\\u202e!");
    }

    #[test]
    fn fast_paths_and_fallbacks() {
        assert_eq!(source_range("abc", "abc", 1..2), 1..2);
        assert_eq!(source_range("'abc'", "abc", 1..3), 2..4);
        // Out of range, or a value the source does not hold: the whole scalar.
        assert_eq!(source_range("abc", "abc", 2..9), 0..3);
        assert_eq!(source_range("\"x\"", "yz", 0..1), 0..3);
        assert_eq!(source_range("\"a\\tb\"", "a\tb", 3..3), 5..5);
    }
}
