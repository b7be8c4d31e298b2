//! String literals of Python and JavaScript, read without a parser: enough to find the
//! command a call is given and the paths a line names.

/// A string literal at the start of `s`: its text (as written, between the quotes) and how
/// many bytes precede the text (prefix and quote).
pub(super) fn literal(s: &str) -> Option<(&str, usize)> {
    let prefix = s
        .bytes()
        .take_while(|b| matches!(b, b'f' | b'r' | b'b' | b'u' | b'F' | b'R' | b'B' | b'U'))
        .count()
        .min(2);
    let q = *s.as_bytes().get(prefix)?;
    if !matches!(q, b'"' | b'\'' | b'`') {
        return None;
    }
    let triple = s
        .get(prefix..prefix + 3)
        .is_some_and(|t| t.bytes().all(|b| b == q));
    let open = prefix + if triple { 3 } else { 1 };
    let bytes = s.as_bytes();
    let mut i = open;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        if bytes[i] == q && (!triple || s.get(i..i + 3).is_some_and(|t| t.bytes().all(|b| b == q)))
        {
            return s.get(open..i).map(|t| (t, open));
        }
        i += 1;
    }
    None
}

/// The elements of a list's inside, split at top-level commas.
pub(super) fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<u8> = None;
    let mut from = 0;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match (quote, b[i]) {
            (Some(_), b'\\') => i += 1,
            (Some(q), c) if c == q => quote = None,
            (None, b'"' | b'\'' | b'`') => quote = Some(b[i]),
            (None, b'(' | b'[' | b'{') => depth += 1,
            (None, b')' | b']' | b'}') => depth -= 1,
            (None, b',') if depth == 0 => {
                out.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&s[from.min(s.len())..]);
    out
}

/// The largest character boundary of `s` at most `n`.
pub(super) fn floor(s: &str, n: usize) -> usize {
    let mut n = n.min(s.len());
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    n
}

/// The string literals of one line of code.
pub(super) struct Literals {
    /// Their texts joined by `/` (`".aws", "credentials"` read as the path they build).
    pub joined: String,
    /// The line without them: the code.
    pub code: String,
    /// Offsets in the line of the first literal's start and the last one's end.
    pub span: (usize, usize),
}

pub(super) fn literals(line: &str) -> Literals {
    let mut out = Literals {
        joined: String::new(),
        code: String::new(),
        span: (0, 0),
    };
    let mut first = None;
    let mut rest = line;
    let mut offset = 0;
    while let Some(q) = rest.find(['"', '\'', '`']) {
        let Some((text, skip)) = literal(&rest[q..]) else {
            break;
        };
        out.code.push_str(&rest[..q]);
        first.get_or_insert(offset + q);
        if !out.joined.is_empty() {
            out.joined.push('/');
        }
        out.joined.push_str(text);
        let consumed = (q + skip + text.len() + 1).min(rest.len());
        offset += consumed;
        rest = &rest[consumed..];
    }
    out.code.push_str(rest);
    out.span = (first.unwrap_or(0), offset);
    out
}
