//! Byte offsets into text a repository wrote, kept on character boundaries. Slicing user text
//! at an offset that is not on one panics; an offset computed as "one past the match" is off
//! one whenever the matched character is more than a byte (U+00A0, U+2028, U+3000, ...).

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

#[cfg(test)]
mod tests {
    use super::*;

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
