//! Text from a repository made safe to print: a file may hold any character, and a
//! newline, escape sequence or bell in a name or message must not reach the terminal or a
//! CI log as a control (a `\n::error …::` line is a workflow command on GitHub's runner; an
//! OSC sequence retitles the terminal). Invisible and bidirectional characters are spelled
//! out too, so a hidden character shows where a diagnostic points at it.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::text::hidden_kind;

/// `text` with every control character shown instead of obeyed: `\n`, `\r` and `\t` as
/// those escapes, other C0 controls and DEL as their Unicode control pictures (`␛`, `␇`),
/// C1 controls, the line and paragraph separators, invisible and bidirectional characters as
/// `\u{9b}`.
pub(crate) fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(shown) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{7f}' => out.push('\u{2421}'),
            c if (c as u32) < 0x20 => {
                out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'));
            }
            c if shown(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`visible`] of a path as it is displayed: a path named on the command line, in a
/// configuration or in a repository may hold any character too.
pub(crate) fn visible_path(path: &std::path::Path) -> String {
    visible(&path.display().to_string()).into_owned()
}

/// Whether `c` is shown spelt out rather than written as it is: a control, a line or
/// paragraph separator, an invisible or bidirectional character.
pub(crate) fn shown(c: char) -> bool {
    // U+2028 and U+2029 are no controls, but Unicode's line breaking makes each a forced
    // break, as U+0085 (a C1 control) is: a log viewer or editor that follows it would show
    // one finding as two lines.
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || hidden_kind(c).is_some()
}

#[cfg(test)]
mod tests {
    use super::visible;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(
            visible("tool `a-b` ✓ é"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn controls_are_shown_not_obeyed() {
        assert_eq!(visible("a\nb\r\tc"), "a\\nb\\r\\tc");
        assert_eq!(visible("x\u{1b}]0;PWNED\u{7}y"), "x␛]0;PWNED␇y");
        assert_eq!(visible("\0\u{7f}"), "␀␡");
        assert_eq!(visible("\u{9b}2J"), "\\u{9b}2J");
        assert!(!visible("\n::error file=x::y").contains('\n'));
        assert_eq!(visible("a\u{202e}b\u{e0041}"), "a\\u{202e}b\\u{e0041}");
    }

    #[test]
    fn line_and_paragraph_separators_are_shown_as_the_next_line_control_is() {
        assert_eq!(
            visible("a\u{85}b\u{2028}c\u{2029}d"),
            "a\\u{85}b\\u{2028}c\\u{2029}d"
        );
    }
}
