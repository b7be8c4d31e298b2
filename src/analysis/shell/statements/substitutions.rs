//! Where the substitutions of a word are: `$(…)`, backticks and `<(…)`, balanced across
//! quotes and nested substitutions.

use super::MAX_DEPTH;

/// The offset just past the `close` that balances an `open` already read, scanning from
/// `from`; quotes inside are skipped. The end of the text when nothing balances.
pub(super) fn balanced(b: &[u8], from: usize, open: u8, close: u8, depth: usize) -> usize {
    let mut level = 1;
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\'' if open == b'(' => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    } else if b[i] == b'$' && b.get(i + 1) == Some(&b'(') && depth < MAX_DEPTH {
                        i = balanced(b, i + 2, b'(', b')', depth + 1) - 1;
                    }
                    i += 1;
                }
            }
            c if c == open => level += 1,
            c if c == close => {
                level -= 1;
                if level == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The command substitutions written in `text` (`$(…)` and backticks), each as the range
/// of its inside.
pub(in crate::analysis::shell) fn substitutions(text: &str) -> Vec<std::ops::Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'$' | b'<' | b'>' if b.get(i + 1) == Some(&b'(') => {
                let end = balanced(b, i + 2, b'(', b')', 0);
                let inner_end = if end > i + 2 && b.get(end - 1) == Some(&b')') {
                    end - 1
                } else {
                    end
                };
                out.push(i + 2..inner_end.max(i + 2));
                i = end;
            }
            b'`' => {
                let close = text[i + 1..].find('`').map_or(b.len(), |n| i + 1 + n);
                out.push(i + 1..close);
                i = close + 1;
            }
            _ => i += 1,
        }
    }
    out
}
