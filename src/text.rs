//! Byte offsets into text a repository wrote, kept on character boundaries. Slicing user text
//! at an offset that is not on one panics; an offset computed as "one past the match" is off
//! one whenever the matched character is more than a byte (U+00A0, U+2028, U+3000, ...).
//! Also hex digests, and which characters show nothing (every output shows them escaped; the security pass
//! reports them).

/// `at` (clamped to the text), moved back to the start of the character it falls in.
pub(crate) fn floor_boundary(text: &str, at: usize) -> usize {
    let mut i = at.min(text.len());
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `at` (clamped to the text), moved on to the end of the character it falls in.
pub(crate) fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut i = at.min(text.len());
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The offset just past the character that starts at (or covers) `at`: where the text after
/// a matched character begins, whatever its length in bytes.
pub(crate) fn after_char(text: &str, at: usize) -> usize {
    let start = floor_boundary(text, at);
    text.get(start..)
        .and_then(|rest| rest.chars().next())
        .map_or(start, |c| start + c.len_utf8())
}

/// Where words that start at places given in order end: the first character `ends` accepts
/// at or after a place, found once for all the places before it. Words that run together
/// (`http://http://…`) all end where the first blank after them is, and looking for it again
/// from each was quadratic.
pub(crate) struct WordEnds<F> {
    ends: F,
    last: Option<usize>,
}

impl<F: Fn(char) -> bool> WordEnds<F> {
    /// Ends found by `ends`.
    pub(crate) fn new(ends: F) -> WordEnds<F> {
        WordEnds { ends, last: None }
    }

    /// The end of the word of `text` that starts at `at` (the end of `text` when nothing
    /// ends it); `at` is at or after the place asked before.
    pub(crate) fn of(&mut self, text: &str, at: usize) -> usize {
        match self.last {
            Some(end) if end >= at => end,
            _ => {
                let end = text
                    .get(at..)
                    .and_then(|rest| rest.find(&self.ends))
                    .map_or(text.len(), |n| at + n);
                self.last = Some(end);
                end
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_run_together_end_where_the_first_blank_after_them_is() {
        let text = "a http://b http://c\"d e";
        let mut ends = WordEnds::new(|c: char| c.is_whitespace() || c == '"');
        assert_eq!(ends.of(text, 2), 10);
        assert_eq!(ends.of(text, 11), 19);
        // A place before the end found last shares it; one past it looks again.
        assert_eq!(ends.of(text, 15), 19);
        assert_eq!(ends.of(text, 20), 21);
        assert_eq!(ends.of(text, 22), text.len());
    }

    #[test]
    fn digests_are_lowercase_hex() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
    }

    #[test]
    fn words_are_found_as_written_or_in_any_case() {
        static AS_WRITTEN: AnyOf = AnyOf::new(&["upload", "at boot"]);
        static ANY_CASE: AnyOf = AnyOf::any_case(&["upload", "at boot"]);
        assert!(AS_WRITTEN.in_text("it uploads files"));
        assert!(!AS_WRITTEN.in_text("Uploads files; runs AT BOOT"));
        assert!(ANY_CASE.in_text("Uploads files"));
        assert!(ANY_CASE.in_text("runs AT BOOT"));
        assert!(!ANY_CASE.in_text("reads files at login"));
    }

    #[test]
    fn offsets_stay_on_character_boundaries() {
        let text = "a\u{3000}b\u{2028}";
        assert_eq!(after_char(text, 1), 4);
        assert_eq!(after_char(text, 2), 4);
        assert_eq!(after_char(text, 5), 8);
        assert_eq!(after_char(text, 8), 8);
        assert_eq!(floor_boundary(text, 3), 1);
        assert_eq!(ceil_boundary(text, 3), 4);
        assert_eq!(ceil_boundary(text, 99), text.len());
        for at in 0..=text.len() + 1 {
            assert!(text.get(after_char(text, at)..).is_some());
        }
    }
}

/// A fixed list of words, any of which a text is asked whether it holds: one pass over the
/// text, where `contains` for each word in turn set up a search per word per text (a few
/// percent of a file of a million texts). The search is built on first use.
pub(crate) struct AnyOf {
    words: &'static [&'static str],
    /// Whether ASCII letters match in either case (the words are written in lower case).
    any_case: bool,
    search: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>>,
}

impl AnyOf {
    /// Any of `words`, as written.
    pub(crate) const fn new(words: &'static [&'static str]) -> AnyOf {
        AnyOf {
            words,
            any_case: false,
            search: std::sync::OnceLock::new(),
        }
    }

    /// Any of `words` (lower case) in any case: no lower-case copy of each text searched.
    pub(crate) const fn any_case(words: &'static [&'static str]) -> AnyOf {
        AnyOf {
            words,
            any_case: true,
            search: std::sync::OnceLock::new(),
        }
    }

    /// True when `text` holds one of the words.
    pub(crate) fn in_text(&self, text: &str) -> bool {
        let search = self.search.get_or_init(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(self.any_case)
                .build(self.words)
                .ok()
        });
        match search {
            Some(search) => search.is_match(text),
            None if self.any_case => {
                let lower = text.to_ascii_lowercase();
                self.words.iter().any(|w| lower.contains(w))
            }
            None => self.words.iter().any(|w| text.contains(w)),
        }
    }
}

/// `n` with its thousands apart: `1,000,000`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// SHA-256 of `bytes`, in lowercase hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex(&sha2::Sha256::digest(bytes))
}

/// Lowercase hex of a digest.
pub(crate) fn hex(digest: &[u8]) -> String {
    // By table, not `write!`: every lowered tool's provenance names two digests.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(digest.len() * 2);
    for b in digest {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

/// What kind of hidden character a character is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HiddenKind {
    /// An embedding, override or isolate control (U+202A–202E, U+2066–2069): reorders what
    /// is shown.
    Bidi,
    /// A zero-width character (U+200B–200D, U+2060, U+FEFF).
    ZeroWidth,
    /// A Unicode tag character (U+E0000–E007F).
    Tag,
    /// A variation selector of the supplement (U+E0100–E01EF), which can carry bytes.
    Selector,
    /// Another invisible format character (general category `Cf`).
    Format,
}

impl HiddenKind {
    /// What it is, for a message.
    pub(crate) fn what(self) -> &'static str {
        match self {
            HiddenKind::Bidi => "a bidirectional control",
            HiddenKind::ZeroWidth => "a zero-width character",
            HiddenKind::Tag => "a Unicode tag character",
            HiddenKind::Selector => "a variation selector",
            HiddenKind::Format => "an invisible format character",
        }
    }
}

/// The kind of hidden character `c` is, if it is one.
pub(crate) fn hidden_kind(c: char) -> Option<HiddenKind> {
    match c {
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => Some(HiddenKind::Bidi),
        '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' => Some(HiddenKind::ZeroWidth),
        '\u{e0000}'..='\u{e007f}' => Some(HiddenKind::Tag),
        '\u{e0100}'..='\u{e01ef}' => Some(HiddenKind::Selector),
        // Hangul fillers render as nothing but are letters, so no category finds them.
        '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}' => Some(HiddenKind::Format),
        c if c.is_ascii() => None,
        c if unicode_general_category::get_general_category(c)
            == unicode_general_category::GeneralCategory::Format =>
        {
            Some(HiddenKind::Format)
        }
        _ => None,
    }
}
