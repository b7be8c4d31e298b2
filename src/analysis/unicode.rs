//! Characters that change what a text means without showing: bidirectional controls
//! (Trojan Source, CVE-2021-42574), zero-width and other invisible format characters, and
//! Unicode tag characters (ASCII smuggling: U+E0020–E007E spell ASCII no one sees and every
//! model reads). Classification uses the Unicode general category and script data of
//! maintained crates; only the few ranges the attacks use are named here.

use unicode_script::{Script, UnicodeScript};

/// Past this many hidden characters a text is reported no further.
pub(crate) const MAX_HIDDEN: usize = 100;

/// How much of what a run of tag characters spells is kept.
const MAX_SPELLED: usize = 200;

pub(crate) use crate::text::{HiddenKind, hidden_kind};

/// A hidden character found in a text (or a run of tag characters, which spell a word).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hidden {
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset after its last character.
    pub end: usize,
    /// The first character.
    pub ch: char,
    /// What it is.
    pub kind: HiddenKind,
    /// For a run of tag characters: the ASCII they spell.
    pub spelled: Option<String>,
}

/// What [`hidden_scan`] found: the first [`MAX_HIDDEN`] hidden characters, and past them the
/// next one and how many there are from it on (counted, never held).
#[derive(Debug, Default)]
pub(crate) struct HiddenScan {
    /// The first [`MAX_HIDDEN`].
    pub found: Vec<Hidden>,
    /// The first past them, and how many there are from it on.
    pub past: Option<(Hidden, usize)>,
}

impl HiddenScan {
    fn add_if(&mut self, keep: &mut impl FnMut(&Hidden) -> bool, h: Hidden) {
        if !keep(&h) {
            return;
        }
        if self.found.len() < MAX_HIDDEN {
            self.found.push(h);
        } else if let Some((_, n)) = &mut self.past {
            *n += 1;
        } else {
            self.past = Some((h, 1));
        }
    }
}

/// Every hidden character of `text`. In prose (`strict` false), the characters real
/// writing needs stay silent: a joiner inside an emoji sequence or between letters of a
/// script that joins, direction marks in right-to-left text, a script's own format
/// characters next to its letters, and the tag sequence of a subdivision flag (🏴 + tags).
/// A run of tag characters is one finding that spells what it hides. The first
/// [`MAX_HIDDEN`] are held; the text is read to its end and the rest counted, so a text of
/// thousands of hidden characters says how many it holds.
pub(crate) fn hidden_scan(text: &str, strict: bool) -> HiddenScan {
    hidden_scan_where(text, strict, |_| true)
}

/// [`hidden_scan`] of the hidden characters `keep` takes: those it leaves are neither held
/// nor counted (the scan of a file's lines skips what its texts reported).
pub(crate) fn hidden_scan_where(
    text: &str,
    strict: bool,
    mut keep: impl FnMut(&Hidden) -> bool,
) -> HiddenScan {
    let mut out = HiddenScan::default();
    // Every hidden character is outside ASCII, and most texts are ASCII.
    if text.is_ascii() {
        return out;
    }
    let mut rtl: Option<bool> = None;
    let mut prev: Option<char> = None;
    let mut it = text.char_indices().peekable();
    while let Some((at, c)) = it.next() {
        let Some(kind) = hidden_kind(c) else {
            prev = Some(c);
            continue;
        };
        if kind == HiddenKind::Tag {
            let flag = prev == Some('\u{1f3f4}');
            let mut spelled: String = tag_ascii(c).into_iter().collect();
            let mut end = at + c.len_utf8();
            while let Some((next_at, t)) = it.peek().copied() {
                if hidden_kind(t) != Some(HiddenKind::Tag) {
                    break;
                }
                it.next();
                end = next_at + t.len_utf8();
                if spelled.len() < MAX_SPELLED {
                    spelled.extend(tag_ascii(t));
                }
                prev = Some(t);
            }
            if strict || !flag {
                out.add_if(
                    &mut keep,
                    Hidden {
                        start: at,
                        end,
                        ch: c,
                        kind,
                        spelled: Some(spelled),
                    },
                );
            }
            continue;
        }
        let next = it.peek().map(|(_, n)| *n);
        let mut is_rtl_text = || *rtl.get_or_insert_with(|| text.chars().any(is_rtl));
        if strict || !needed_in_prose(c, kind, prev, next, &mut is_rtl_text) {
            out.add_if(
                &mut keep,
                Hidden {
                    start: at,
                    end: at + c.len_utf8(),
                    ch: c,
                    kind,
                    spelled: None,
                },
            );
        }
        prev = Some(c);
    }
    out
}

/// The ASCII character a tag character stands for (U+E0041 → `A`).
pub(crate) fn tag_ascii(c: char) -> Option<char> {
    let v = c as u32;
    (0xe0020..=0xe007e)
        .contains(&v)
        .then(|| char::from_u32(v - 0xe0000))
        .flatten()
}

/// Whether a format character is part of ordinary writing where it stands.
fn needed_in_prose(
    c: char,
    kind: HiddenKind,
    prev: Option<char>,
    next: Option<char>,
    rtl_text: &mut dyn FnMut() -> bool,
) -> bool {
    let letter_of_joining_script = |n: Option<char>| {
        n.is_some_and(|n| {
            n.is_alphabetic()
                && !matches!(
                    n.script(),
                    Script::Latin | Script::Common | Script::Inherited | Script::Unknown
                )
        })
    };
    match c {
        // ZWJ builds emoji sequences; ZWJ and ZWNJ shape Arabic, Persian and Indic words.
        '\u{200d}' => {
            (is_emoji(prev) && is_emoji(next))
                || (letter_of_joining_script(prev) && letter_of_joining_script(next))
        }
        '\u{200c}' => letter_of_joining_script(prev) && letter_of_joining_script(next),
        // Direction marks are how right-to-left text is written correctly.
        '\u{200e}' | '\u{200f}' | '\u{61c}' => rtl_text(),
        _ if kind == HiddenKind::Format => {
            // A script's own format characters (Arabic number signs) next to its letters.
            let script = c.script();
            !matches!(script, Script::Common | Script::Inherited | Script::Unknown)
                && [prev, next].iter().flatten().any(|n| n.script() == script)
        }
        _ => false,
    }
}

/// Emoji and the characters emoji sequences are made of (roughly Extended_Pictographic).
fn is_emoji(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        matches!(c as u32,
            0x1f000..=0x1faff | 0x2600..=0x27bf | 0x2300..=0x23ff | 0x2b00..=0x2bff | 0xfe0f)
    })
}

/// A letter of a right-to-left script.
fn is_rtl(c: char) -> bool {
    matches!(
        c.script(),
        Script::Arabic | Script::Hebrew | Script::Syriac | Script::Thaana | Script::Nko
    )
}

/// `U+202E`.
pub(crate) fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// The name of a hidden character the attacks use, when it has a well-known one.
pub(crate) fn char_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{202a}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202b}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202c}' => "POP DIRECTIONAL FORMATTING",
        '\u{202d}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202e}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{200b}' => "ZERO WIDTH SPACE",
        '\u{200c}' => "ZERO WIDTH NON-JOINER",
        '\u{200d}' => "ZERO WIDTH JOINER",
        '\u{2060}' => "WORD JOINER",
        '\u{feff}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{200e}' => "LEFT-TO-RIGHT MARK",
        '\u{200f}' => "RIGHT-TO-LEFT MARK",
        '\u{00ad}' => "SOFT HYPHEN",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, strict: bool) -> Vec<(char, HiddenKind)> {
        hidden_scan(text, strict)
            .found
            .into_iter()
            .map(|h| (h.ch, h.kind))
            .collect()
    }

    #[test]
    fn attack_characters_are_found() {
        assert_eq!(
            kinds("a\u{202e}b\u{2066}c", false),
            [
                ('\u{202e}', HiddenKind::Bidi),
                ('\u{2066}', HiddenKind::Bidi)
            ]
        );
        assert_eq!(
            kinds("x\u{200b}y\u{2060}z\u{feff}", false).len(),
            3,
            "zero-width characters"
        );
        assert_eq!(kinds("soft\u{ad}hyphen", false).len(), 1);
        assert_eq!(kinds("a\u{3164}", false).len(), 1);
    }

    #[test]
    fn tag_runs_spell_their_ascii() {
        let hidden: String = "ignore"
            .chars()
            .map(|c| char::from_u32(0xe0000 + c as u32).unwrap_or('?'))
            .collect();
        let text = format!("fine{hidden}!");
        let found = hidden_scan(&text, false).found;
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].spelled.as_deref(), Some("ignore"));
        assert_eq!((found[0].start, found[0].end), (4, 4 + 6 * 4));
    }

    #[test]
    fn writing_that_needs_format_characters_is_silent_in_prose() {
        // An emoji family, a Persian word with ZWNJ, Hebrew with a mark, the flag of Wales.
        for text in [
            "👨\u{200d}👩\u{200d}👧",
            "می\u{200c}خواهم",
            "שלום\u{200f} world",
            "🏴\u{e0067}\u{e0062}\u{e0077}\u{e006c}\u{e0073}\u{e007f}",
            "emoji ✨ and é, ü, 日本語",
        ] {
            assert!(kinds(text, false).is_empty(), "{text}");
        }
        // In a name every one of them counts.
        assert_eq!(kinds("👨\u{200d}👩", true).len(), 1);
        // A joiner between Latin letters is not writing.
        assert_eq!(kinds("se\u{200d}nd", false).len(), 1);
    }

    #[test]
    fn helpers() {
        assert_eq!(tag_ascii('\u{e0041}'), Some('A'));
        assert_eq!(tag_ascii('\u{e007f}'), None);
        assert_eq!(code_point('\u{202e}'), "U+202E");
        assert_eq!(char_name('\u{202e}'), Some("RIGHT-TO-LEFT OVERRIDE"));
    }
}
