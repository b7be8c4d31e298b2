//! Inline suppression comments: `# toolc: ignore CODE[, CODE] -- reason` (YAML, Markdown front
//! matter) or `<!-- toolc: ignore CODE -- reason -->` (Markdown body).
//!
//! A comment alone on its line covers that line and the next; a comment after content covers
//! its own line only.

use compact_str::CompactString;

use crate::rules::{self, Rule};
use crate::source::{SourceFile, Span};

/// One code named in a suppression comment.
#[derive(Debug, Clone)]
pub struct SuppressedCode {
    /// The code or name as written (held inline: a file of 400,000 comments held a heap
    /// string for each).
    pub text: CompactString,
    /// Where it is written.
    pub span: Span,
    /// The rule it names, if any.
    pub rule: Option<&'static Rule>,
}

impl SuppressedCode {
    /// Whether this code covers a diagnostic of `rule`: it names the rule, or its kind
    /// (`unknown-key` covers that kind of problem in every format, as in `--ignore`).
    pub fn covers(&self, rule: &Rule) -> bool {
        self.rule
            .is_some_and(|r| std::ptr::eq(r, rule) || crate::rules::kind(rule.name) == self.text)
    }
}

/// One suppression comment.
#[derive(Debug, Clone)]
pub struct Suppression {
    /// First line covered (1-based).
    pub first_line: usize,
    /// Last line covered (1-based).
    pub last_line: usize,
    /// The codes it names, in exact room (a list grown one by one held room for four).
    pub codes: Box<[SuppressedCode]>,
}

impl Suppression {
    /// Whether this comment covers `line`.
    pub fn covers_line(&self, line: usize) -> bool {
        (self.first_line..=self.last_line).contains(&line)
    }

    /// Whether this comment covers a diagnostic of `rule` starting on `line`.
    pub fn covers(&self, rule: &Rule, line: usize) -> bool {
        self.covers_line(line) && self.codes.iter().any(|c| c.covers(rule))
    }
}

const MARKER: &str = "toolc:";

/// Find every suppression comment in `file`.
pub(crate) fn scan(file: &SourceFile) -> Vec<Suppression> {
    let text = file.text.as_str();
    if !text.contains(MARKER) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut line_start = 0;
    for (idx, line) in text.split('\n').enumerate() {
        // A line with a lone CR in it is several lines to an editor (and to YAML) but one to
        // toolc's line numbers: a comment there would cover them all, so it covers nothing.
        let lone_cr = line.strip_suffix('\r').unwrap_or(line).contains('\r');
        if !lone_cr && let Some(s) = parse_line(line, line_start, idx + 1) {
            out.push(s);
        }
        line_start += line.len() + 1;
    }
    out
}

fn parse_line(line: &str, line_start: usize, line_no: usize) -> Option<Suppression> {
    // `toolc:` may also occur in a value before the comment (`a: "toolc: x" # toolc: ignore`).
    line.match_indices(MARKER)
        .find_map(|(at, _)| parse_at(line, at, line_start, line_no))
}

fn parse_at(line: &str, at: usize, line_start: usize, line_no: usize) -> Option<Suppression> {
    let before = line[..at].trim_end();
    let comment_start = if before.ends_with("<!--") {
        before.len() - 4
    } else if before.ends_with('#') {
        before.len() - 1
    } else {
        return None;
    };
    let rest = &line[at + MARKER.len()..];
    let after_ws = rest.trim_start();
    let directive = after_ws.strip_prefix("ignore")?;
    if directive.starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    let offset = line_start + at + MARKER.len() + (rest.len() - after_ws.len()) + "ignore".len();
    // `-->` starts with `--`, so the first `--` ends the list either way. Looking for `-->`
    // too read the rest of the line for each marker (80,000 on a line: 8.5 s).
    let end = directive.find("--").unwrap_or(directive.len());
    let list = &directive[..end];
    let mut codes = Vec::new();
    for piece in list.split(|c: char| c == ',' || c.is_whitespace()) {
        if !piece.is_empty() {
            // Separators may be multi-byte whitespace: take the piece's real offset in `list`.
            let start = offset + (piece.as_ptr() as usize - list.as_ptr() as usize);
            codes.push(SuppressedCode {
                text: piece.into(),
                span: Span::new(start, start + piece.len()),
                rule: rules::lookup(piece),
            });
        }
    }
    if codes.is_empty() {
        return None;
    }
    let alone = line[..comment_start].trim().is_empty();
    Some(Suppression {
        first_line: line_no,
        last_line: if alone { line_no + 1 } else { line_no },
        codes: codes.into_boxed_slice(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;

    #[test]
    fn parses_codes_and_coverage() {
        let text = "a: 1 # toolc: ignore DOJ003, unknown-key -- legacy\n# toolc: ignore SEC001\nb: 2\nc: 'toolc: ignore X'\n";
        let file = SourceFile::new("f".into(), "f".into(), FormatId::DojopsTool, text.into());
        let s = scan(&file);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].first_line, s[0].last_line), (1, 1));
        assert_eq!(s[0].codes.len(), 2);
        assert_eq!(
            &text[s[0].codes[0].span.start..s[0].codes[0].span.end],
            "DOJ003"
        );
        assert_eq!(s[0].codes[1].rule.map(|r| r.code), Some("DOJ007"));
        assert_eq!((s[1].first_line, s[1].last_line), (2, 3));
    }

    /// In a file of lone-CR line ends, toolc's line 1 is the whole file: a comment there
    /// would hide a rule's findings everywhere in it.
    #[test]
    fn a_comment_on_a_line_of_lone_crs_covers_nothing() {
        let text = "a: 1\r# toolc: ignore SEC012 -- x\rb: 2\r";
        let file = SourceFile::new("f".into(), "f".into(), FormatId::CycodTool, text.into());
        assert!(scan(&file).is_empty());
        // CRLF line ends are line ends as before.
        let text = "a: 1\r\n# toolc: ignore SEC012 -- x\r\nb: 2\r\n";
        let file = SourceFile::new("f".into(), "f".into(), FormatId::CycodTool, text.into());
        assert_eq!(scan(&file).len(), 1);
    }

    #[test]
    fn marker_in_a_value_and_wide_separators() {
        let text = "a: \"toolc: x\" # toolc: ignore\u{3000}DOJ003,\u{3000}SEC001\n";
        let file = SourceFile::new("f".into(), "f".into(), FormatId::DojopsTool, text.into());
        let s = scan(&file);
        assert_eq!(s.len(), 1);
        let spans: Vec<&str> = s[0].codes.iter().map(|c| file.slice(c.span)).collect();
        assert_eq!(spans, ["DOJ003", "SEC001"]);
    }
}
