//! Where a YAML parser error really is, and what to call it: the parser marks the place it
//! gave up, which is often not the mistake (the start of a scalar rather than its bad escape,
//! the column after a tab, the line after a quote that was never closed).

use granit_parser::{ErrorKind, ScanError};

use super::{Explain, SyntaxError, SyntaxErrorKind};
use crate::source::Span;

/// The syntax error of the parser's `err` in `text` (a slice of a file starting at `base`).
pub(super) fn scan_error(text: &str, base: usize, err: &ScanError) -> SyntaxError {
    let offset = crate::text::floor_boundary(
        text,
        err.marker().byte_offset().unwrap_or(0).min(text.len()),
    );
    let mut message = err.info();
    if message.is_empty() {
        message = "malformed YAML".to_string();
    }
    let mut related = None;
    let mut explain = None;
    let (kind, message, span) = match err.kind() {
        ErrorKind::RecursionLimitExceeded => (
            SyntaxErrorKind::TooDeep,
            "the document is nested deeper than the YAML parser allows".to_string(),
            token_span(text, offset),
        ),
        // The parser marks the start of the scalar or the column after the tab; the user
        // needs to see the tab itself.
        ErrorKind::TabInPlainScalar
        | ErrorKind::TabInBlockIndentation
        | ErrorKind::TabInIndentation
        | ErrorKind::TabNotAllowed => {
            let at = tab_near(text, offset).unwrap_or(offset);
            (
                SyntaxErrorKind::Yaml,
                "a tab is used for indentation; YAML indents with spaces only".to_string(),
                Span::new(at, at + usize::from(text[at..].starts_with('\t'))),
            )
        }
        // The parser marks the start of the scalar; point at the bad escape itself.
        ErrorKind::UnknownQuotedScalarEscape => {
            let span = bad_escape_after(text, offset).unwrap_or_else(|| token_span(text, offset));
            (SyntaxErrorKind::Yaml, lowercase_first(&message), span)
        }
        // The parser stops at the first line of the value that is not indented: mostly the
        // next key, after a quote that was never closed. The quote is the mistake.
        ErrorKind::InvalidQuotedScalarIndent if let Some(open) = opening_quote(text, offset) => {
            related = Some((
                token_span(text, offset).shifted(base),
                "read as part of the quoted value".to_string(),
            ));
            explain = Some(Explain {
                label: "this quote is not closed on its line",
                help: "close the quote at the end of the value; a quoted value that goes on over several lines indents each further line more than its key (or write it as a block scalar: `key: |`)",
            });
            (
                SyntaxErrorKind::Yaml,
                "a quoted value is not closed, so the lines after it are read into it".to_string(),
                Span::new(open, open + 1),
            )
        }
        // The parser stops at the next key after a `[` or `{` that was never closed (a value
        // such as `[draft] notes`): the bracket is the mistake.
        ErrorKind::InvalidColonPlacement
        | ErrorKind::ExpectedFlowMappingSeparator
        | ErrorKind::ExpectedFlowSequenceSeparator
            if let Some((open, bracket)) = opening_flow(text, offset) =>
        {
            let what = if bracket == '[' { "list" } else { "mapping" };
            related = Some((
                token_span(text, offset).shifted(base),
                format!("read as part of the `{bracket}…` {what}"),
            ));
            explain = Some(Explain {
                label: "this bracket is not closed on its line",
                help: "close it at the end of the value; if the bracket is part of the text, quote the value (`description: \"[draft] notes\"`)",
            });
            (
                SyntaxErrorKind::Yaml,
                format!(
                    "a `{bracket}` {what} is not closed, so the lines after it are read into it"
                ),
                Span::new(open, open + 1),
            )
        }
        _ => (
            SyntaxErrorKind::Yaml,
            lowercase_first(&message),
            token_span(text, offset),
        ),
    };
    SyntaxError {
        kind,
        message,
        span: span.shifted(base),
        related,
        explain,
    }
}

/// The quote that opens the value the unindented line at `offset` was read into: the last
/// quote on the lines above that starts a value (after `key:`, `- `, or at the line's
/// indentation) and is not closed on its own line.
fn opening_quote(text: &str, offset: usize) -> Option<usize> {
    let above = &text[..text[..offset].rfind('\n')?];
    above.lines().rev().take(LINES_BACK).find_map(|line| {
        let start = line.as_ptr() as usize - text.as_ptr() as usize;
        value_quote(line).map(|i| start + i)
    })
}

/// The `[` or `{` that opens the value the line at `offset` was read into, and which: on
/// the nearest line above that opens a flow value (after `key:` or `- `) and does not close
/// it, when the marked line is indented no deeper than that line (the next key, not a
/// continuation of the list).
fn opening_flow(text: &str, offset: usize) -> Option<(usize, char)> {
    let line_start = text[..offset].rfind('\n')? + 1;
    let marked = &text[line_start..];
    let marked_indent = marked.len() - marked.trim_start_matches(' ').len();
    let above = &text[..line_start - 1];
    above.lines().rev().take(LINES_BACK).find_map(|line| {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        if body.trim().is_empty() || body.starts_with('#') {
            return None;
        }
        let start = line.as_ptr() as usize - text.as_ptr() as usize;
        let found = flow_open(line).map(|(i, c)| (start + i, c));
        // A line that is not the opener ends the search: the value is above no further.
        Some(found.filter(|_| marked_indent <= indent))
    })?
}

/// The byte of `line` where a flow value (`[…]`, `{…}`) opens and is left open at the end of
/// the line, with its bracket.
fn flow_open(line: &str) -> Option<(usize, char)> {
    let body = line.trim_start();
    let item = body.strip_prefix("- ").map(str::trim_start);
    let value = match (item, find_colon(item.unwrap_or(body))) {
        // An item that is itself a flow value (`- {a: b`).
        (Some(item), _) if item.starts_with(['[', '{']) => item,
        (_, Some(colon)) => item.unwrap_or(body)[colon + 1..].trim_start(),
        (Some(item), None) => item,
        (None, None) => return None,
    };
    let bracket = value.chars().next().filter(|c| matches!(c, '[' | '{'))?;
    let at = line.len() - value.len();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for c in value.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, '#') => break,
            _ => {}
        }
    }
    (depth > 0).then_some((at, bracket))
}

#[cfg(test)]
mod flow_tests {
    use super::*;

    #[test]
    fn an_unclosed_bracket_of_a_value_is_found() {
        assert_eq!(flow_open("description: [draft notes"), Some((13, '[')));
        assert_eq!(flow_open("  - {a: b"), Some((4, '{')));
        assert_eq!(flow_open("tags: [a, \"]\", b]"), None);
        assert_eq!(flow_open("tags: [a] # [b"), None);
        assert_eq!(flow_open("  b]"), None);
        let text = "name: t\ntags: [a,\n  b]\nx: y\n";
        // The nearest line above decides: a closed list is not blamed.
        assert_eq!(opening_flow(text, text.find("x:").unwrap_or(0) + 1), None);
        let text = "name: t\ndescription: [draft\nbash: ls\n";
        assert_eq!(
            opening_flow(text, text.find("bash").unwrap_or(0) + 4),
            Some((21, '['))
        );
    }
}

/// How many lines above an unindented line its unclosed quote is looked for.
const LINES_BACK: usize = 200;

/// The byte of `line` where a quoted value opens and is not closed on the line.
fn value_quote(line: &str) -> Option<usize> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    let body = body.strip_prefix("- ").map_or(body, str::trim_start);
    let value = match find_colon(body) {
        Some(colon) => body[colon + 1..].trim_start(),
        None => body,
    };
    let at = line.len() - value.len();
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let closed = match quote {
        '"' => closes_double(&value[1..]),
        _ => value[1..].replace("''", "").contains('\''),
    };
    (!closed && at >= indent).then_some(at)
}

/// The `:` that ends a plain key at the start of `body` (`key: value`, `key:` at the end).
fn find_colon(body: &str) -> Option<usize> {
    if body.starts_with(['"', '\'']) {
        return None;
    }
    body.char_indices()
        .find(|(i, c)| *c == ':' && body[i + 1..].chars().next().is_none_or(char::is_whitespace))
        .map(|(i, _)| i)
}

/// True when a `"` that is not escaped closes the double-quoted text `rest`.
fn closes_double(rest: &str) -> bool {
    let mut escaped = false;
    for c in rest.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return true,
            _ => escaped = false,
        }
    }
    false
}

/// The offending tab for a tab error at `offset`: in the indentation of the marked line, or
/// the first tab after the mark.
fn tab_near(text: &str, offset: usize) -> Option<usize> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..offset];
    if let Some(i) = indent.find('\t')
        && indent[..i].chars().all(|c| c == ' ')
    {
        return Some(line_start + i);
    }
    text[offset..].find('\t').map(|i| offset + i)
}

/// The first backslash escape after `offset` (on the same line) that YAML's double-quoted
/// scalars do not define, as a two-character span.
fn bad_escape_after(text: &str, offset: usize) -> Option<Span> {
    const VALID: &str = "0abt\tnvfre \"/\\N_LPxuU";
    let line = &text[offset..text[offset..].find('\n').map_or(text.len(), |i| offset + i)];
    let mut chars = line.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            let (_, next) = chars.next()?;
            if !VALID.contains(next) {
                return Some(Span::new(offset + i, offset + i + 1 + next.len_utf8()));
            }
        }
    }
    None
}

/// The span of the token at `offset`: up to the next whitespace, at least one character.
pub(super) fn token_span(text: &str, offset: usize) -> Span {
    let rest = &text[offset..];
    let len = rest
        .char_indices()
        .find(|(_, c)| c.is_whitespace())
        .map_or(rest.len(), |(i, _)| i);
    let len = if len == 0 {
        rest.chars().next().map_or(0, char::len_utf8)
    } else {
        len
    };
    let len = if rest.starts_with(['\n', '\r']) {
        0
    } else {
        len
    };
    Span::new(offset, offset + len)
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::yaml;

    /// The text at the error's span and at its related span.
    fn marks(text: &str) -> (String, String, String) {
        let parsed = yaml::parse(text, 0);
        let err = parsed.errors.first().expect("an error");
        let related = err.related.as_ref().expect("a related place");
        (
            err.message.clone(),
            text[err.span.start..err.span.end].to_string(),
            text[related.0.start..related.0.end].to_string(),
        )
    }

    #[test]
    fn an_unclosed_quote_is_the_mistake_not_the_next_key() {
        let (message, at, related) = marks("name: x\ndescription: \"open\ncommand: ls\n");
        assert_eq!(
            message,
            "a quoted value is not closed, so the lines after it are read into it"
        );
        assert_eq!((at.as_str(), related.as_str()), ("\"", "command:"));
        // The quote is found past an escaped quote, and past a doubled one in single quotes.
        let text = "a: 1\nb: \"say \\\" more\nc: 2\n";
        let err = &yaml::parse(text, 0).errors[0];
        assert_eq!(err.span.start, text.find("\"say").expect("quote"));
        let text = "a: 1\nb: 'it''s\nc: 2\n";
        let err = &yaml::parse(text, 0).errors[0];
        assert_eq!(err.span.start, text.find("'it").expect("quote"));
    }

    #[test]
    fn an_unclosed_bracket_is_the_mistake_not_the_next_key() {
        let (message, at, related) = marks("name: x\ndescription: [draft notes\nbash: ls\n");
        assert_eq!(
            message,
            "a `[` list is not closed, so the lines after it are read into it"
        );
        assert_eq!((at.as_str(), related.as_str()), ("[", ":"));
        let (message, at, _) = marks("name: x\ndescription: {a: b\nbash: ls\n");
        assert!(message.starts_with("a `{` mapping"), "{message}");
        assert_eq!(at, "{");
    }

    #[test]
    fn a_closed_value_above_is_not_taken_for_the_opening_quote() {
        let text = "a: \"done\"\nb: \"open\nc: 2\n";
        let err = &yaml::parse(text, 0).errors[0];
        assert_eq!(err.span.start, text.find("\"open").expect("quote"));
        assert!(super::value_quote("a: \"done\"").is_none());
        assert!(super::value_quote("- 'x''y'").is_none());
        assert_eq!(super::value_quote("  - \"x"), Some(4));
    }
}
