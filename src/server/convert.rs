//! Between toolc's byte spans and paths and the protocol's UTF-16 positions and `file:` URIs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types as lsp;

use crate::diagnostics::{Applicability, Diagnostic, Fix};
use crate::formats::outline::{Symbol, SymbolKind};
use crate::rules::{self, Severity};
use crate::source::{SourceFile, Span};

/// Bytes that stand for themselves in the path of a `file:` URI; every other byte is
/// percent-encoded.
fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
}

/// The `file:` URI of an absolute path.
pub(super) fn uri_of(path: &Path) -> Option<lsp::Uri> {
    let text = path.to_str()?;
    let text = if cfg!(windows) {
        text.replace('\\', "/")
    } else {
        text.to_string()
    };
    let mut out = String::from("file://");
    // A Windows path (`C:/x`) gets the slash a URI path starts with.
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if unreserved(b) || b == b':' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    lsp::Uri::from_str(&out).ok()
}

/// The path a `file:` URI names (`None` for other schemes, or a path that is not UTF-8).
pub(super) fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path`: only the local host (empty or `localhost`) is a local path.
    let path = match rest.strip_prefix("localhost") {
        Some(p) if p.starts_with('/') => p,
        _ if rest.starts_with('/') => rest,
        _ => return None,
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = percent_decode(path)?;
    // `/C:/x` is the Windows path `C:/x`.
    let bytes = decoded.as_bytes();
    let windows = bytes.len() >= 3 && bytes[2] == b':' && bytes[1].is_ascii_alphabetic();
    if cfg!(windows) && windows {
        return Some(PathBuf::from(&decoded[1..]));
    }
    Some(PathBuf::from(decoded))
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The protocol position of byte `offset` in `file`: 0-based line, UTF-16 column.
pub(super) fn position(file: &SourceFile, offset: usize) -> lsp::Position {
    let (line, column) = file.lines().lsp_position(&file.text, offset);
    lsp::Position::new(to_u32(line), to_u32(column))
}

/// The protocol range of `span` in `file`.
pub(super) fn range(file: &SourceFile, span: Span) -> lsp::Range {
    lsp::Range::new(position(file, span.start), position(file, span.end))
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The byte offset of a protocol position in `text`. A column past the end of its line is
/// the end of the line; a line past the end is the end of the text. A leading byte-order
/// mark is not part of line 0's columns (as for [`SourceFile::position`]).
pub(super) fn offset(text: &str, at: lsp::Position) -> usize {
    // Lines end at `\n`, `\r\n` or a lone `\r`, as the protocol counts them.
    let line_end = |t: &str| t.find(['\n', '\r']);
    let mut start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    for _ in 0..at.line {
        let rest = text.get(start..).unwrap_or("");
        match line_end(rest) {
            Some(i) if rest[i..].starts_with("\r\n") => start += i + 2,
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line = text.get(start..).unwrap_or("");
    let line = &line[..line_end(line).unwrap_or(line.len())];
    let mut units = 0;
    for (i, ch) in line.char_indices() {
        if units >= at.character as usize {
            return start + i;
        }
        units += ch.len_utf16();
    }
    start + line.len()
}

/// `text` with the protocol's `changes` applied in order (a range replaced, or everything).
/// The text is held as a rope while they are: a ranged change costs about the logarithm of
/// its length, where copying the text for each change took 80 s for 16,000 one-letter edits
/// of an 8 MB document in one message.
pub(super) fn apply_changes(
    text: String,
    changes: &[lsp::TextDocumentContentChangeEvent],
) -> String {
    // What came before the last change of the whole text does not matter.
    let (text, ranged) = match changes.iter().rposition(|c| c.range.is_none()) {
        Some(i) => (changes[i].text.clone(), &changes[i + 1..]),
        None => (text, changes),
    };
    if ranged.is_empty() {
        return text;
    }
    let mut rope = ropey::Rope::from_str(&text);
    drop(text);
    for c in ranged {
        let Some(r) = c.range else { continue };
        let start = char_at(&rope, r.start);
        let end = char_at(&rope, r.end).max(start);
        rope.remove(start..end);
        rope.insert(start, &c.text);
    }
    rope.to_string()
}

/// The char index of a protocol position in `rope`, as [`offset`] finds its byte offset in
/// a text: a column past the end of its line is the end of the line, a line past the end is
/// the end of the text, a column inside a surrogate pair is the character after it, and a
/// leading byte-order mark is not part of line 0's columns.
fn char_at(rope: &ropey::Rope, at: lsp::Position) -> usize {
    let line = at.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    let chars = rope.line(line);
    // Without its line end: `\n`, `\r\n` or a lone `\r` (the rope counts the same ends).
    let mut len = chars.len_chars();
    for end in ['\n', '\r'] {
        if len > 0 && chars.char(len - 1) == end {
            len -= 1;
        }
    }
    let bom = usize::from(line == 0 && len > 0 && chars.char(0) == '\u{feff}');
    let target = rope
        .char_to_utf16_cu(start + bom)
        .saturating_add(at.character as usize);
    if target >= rope.char_to_utf16_cu(start + len) {
        return start + len;
    }
    let c = rope.utf16_cu_to_char(target);
    if rope.char_to_utf16_cu(c) < target {
        c + 1
    } else {
        c
    }
}

/// The protocol severity of a toolc severity.
fn severity(s: Severity) -> lsp::DiagnosticSeverity {
    match s {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    }
}

/// A toolc diagnostic as the protocol publishes it: the message with its help, the rule's
/// code linking to its page, related places as related information.
pub(super) fn diagnostic(d: &Diagnostic) -> lsp::Diagnostic {
    // An editor's panes and logs are output too: credentials are masked as in every renderer.
    let d = &*crate::output::masked::masked_one(d);
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(uri_of(&r.file.path)?, range(&r.file, r.span)),
                message: r.message.clone(),
            })
        })
        .collect();
    let unused = std::ptr::eq(d.rule, &rules::syntax::UNUSED_SUPPRESSION);
    lsp::Diagnostic {
        range: range(&d.file, d.span),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.rule.code.to_string())),
        code_description: lsp::Uri::from_str(&rules::page_url(d.rule))
            .ok()
            .map(|href| lsp::CodeDescription { href }),
        source: Some("toolc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        // Editors grey out an unused suppression, as they do unused code.
        tags: unused.then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        data: None,
    }
}

/// The edits of `fix` (in `file`) as protocol text edits.
pub(super) fn text_edits(file: &SourceFile, fix: &Fix) -> Vec<lsp::TextEdit> {
    fix.edits
        .iter()
        .map(|e| lsp::TextEdit::new(range(file, e.span), e.replacement.clone()))
        .collect()
}

/// A quick fix that applies `fix` of `d`.
pub(super) fn quick_fix(d: &Diagnostic, fix: &Fix) -> Option<lsp::CodeAction> {
    let uri = uri_of(&d.file.path)?;
    let edit = lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(uri, text_edits(&d.file, fix))])),
        ..lsp::WorkspaceEdit::default()
    };
    let safe = fix.applicability == Applicability::Safe;
    let title = if safe {
        format!("{} ({})", fix.message, d.rule.code)
    } else {
        format!(
            "{} ({}, review it: may change meaning)",
            fix.message, d.rule.code
        )
    };
    Some(lsp::CodeAction {
        title,
        kind: Some(lsp::CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic(d)]),
        edit: Some(edit),
        command: None,
        is_preferred: Some(safe),
        disabled: None,
        data: None,
    })
}

/// An outline symbol of `file` as a protocol document symbol.
/// `s` and its children as the protocol has them, while `left` (symbols the answer may
/// still hold) lasts: an outline of 60,000 parameters was built whole as a JSON tree (336 MB
/// for a 3.8 MB document), and no editor shows that many.
pub(super) fn document_symbol(
    file: &SourceFile,
    s: &Symbol,
    left: &mut usize,
) -> Option<lsp::DocumentSymbol> {
    *left = left.checked_sub(1)?;
    let kind = match s.kind {
        SymbolKind::Tool | SymbolKind::Skill => lsp::SymbolKind::FUNCTION,
        SymbolKind::Agent => lsp::SymbolKind::CLASS,
        SymbolKind::Parameter => lsp::SymbolKind::FIELD,
    };
    let children: Vec<lsp::DocumentSymbol> = s
        .children
        .iter()
        .map_while(|c| document_symbol(file, c, left))
        .collect();
    #[allow(deprecated)] // `deprecated` has no default; `tags` replaces it.
    Some(lsp::DocumentSymbol {
        name: s.name.clone(),
        detail: s.detail.clone(),
        kind,
        tags: None,
        deprecated: None,
        range: range(file, s.span),
        selection_range: range(file, s.name_span),
        children: (!children.is_empty()).then_some(children),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;

    fn file(text: &str) -> std::sync::Arc<SourceFile> {
        SourceFile::new(
            PathBuf::from("/r/a.tool.md"),
            "a.tool.md".into(),
            FormatId::ToolMd,
            text.into(),
        )
    }

    #[test]
    fn positions_count_utf16_units_both_ways() {
        let text = "a: é🔧x\nb: y\n";
        let f = file(text);
        let x = text.find('x').unwrap_or_default();
        let p = position(&f, x);
        assert_eq!((p.line, p.character), (0, 6));
        assert_eq!(offset(text, p), x);
        assert_eq!(
            offset(text, lsp::Position::new(1, 3)),
            text.find('y').unwrap_or(0)
        );
        // Past the end of a line is its end; past the last line is the end of the text.
        assert_eq!(offset(text, lsp::Position::new(1, 99)), text.len() - 1);
        assert_eq!(offset(text, lsp::Position::new(9, 0)), text.len());
    }

    /// Found by fuzzing: the protocol ends lines at `\r\n` and at a lone `\r` too; with
    /// lone-CR line ends every range landed on line 0.
    #[test]
    fn every_line_end_of_the_protocol_counts_both_ways() {
        for (text, x_line) in [
            ("a: 1\rb: 2\rc: x\r", 2),
            ("a: 1\r\nb: 2\r\nc: x\r\n", 2),
            ("a: 1\rb: é\nc: 🔧\r\nd: x\n", 3),
        ] {
            let f = file(text);
            let x = text.find('x').unwrap_or_default();
            let p = position(&f, x);
            assert_eq!((p.line, p.character), (x_line, 3), "{text:?}");
            assert_eq!(offset(text, p), x, "{text:?}");
        }
        let text = "a\rb: é🔧y";
        let y = text.find('y').unwrap_or_default();
        let p = position(&file(text), y);
        assert_eq!((p.line, p.character), (1, 6));
        assert_eq!(offset(text, p), y);
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        let text = "\u{feff}ab";
        let f = file(text);
        assert_eq!(position(&f, 4).character, 1);
        assert_eq!(offset(text, lsp::Position::new(0, 1)), 4);
    }

    #[test]
    fn uris_round_trip_with_escapes() {
        let path = Path::new("/work/my tools/ü#1.tool.md");
        let uri = uri_of(path).expect("uri");
        assert_eq!(uri.as_str(), "file:///work/my%20tools/%C3%BC%231.tool.md");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
        let other = lsp::Uri::from_str("untitled:Untitled-1").expect("uri");
        assert_eq!(path_of(&other), None);
    }

    #[test]
    fn a_ranged_change_replaces_its_range() {
        let change = lsp::TextDocumentContentChangeEvent {
            range: Some(lsp::Range::new(
                lsp::Position::new(0, 3),
                lsp::Position::new(0, 5),
            )),
            range_length: None,
            text: "Z".into(),
        };
        assert_eq!(apply_changes("é🔧ab\n".into(), &[change]), "é🔧Z\n");
    }

    /// The rope finds every position where [`offset`] finds it in the text: line ends of
    /// each kind, a byte-order mark, characters of two UTF-16 units, columns and lines past
    /// the end. Applied one after another, the changes give what replacing byte ranges does.
    #[test]
    fn changes_land_where_offsets_say() {
        let texts = [
            "ab\ncd\r\nef\rgh",
            "\u{feff}é🔧x\r\n\r\n🔧\n",
            "",
            "one line",
            "\n\r\r\n\n",
        ];
        for text in texts {
            let mut expected = text.to_string();
            let mut changes = Vec::new();
            for line in 0..7 {
                for character in 0..6 {
                    let at = lsp::Position::new(line, character);
                    let to = lsp::Position::new(line, character + 1);
                    let change = lsp::TextDocumentContentChangeEvent {
                        range: Some(lsp::Range::new(at, to)),
                        range_length: None,
                        text: format!("<{line}.{character}>"),
                    };
                    let start = offset(&expected, at);
                    let end = offset(&expected, to).max(start);
                    expected.replace_range(start..end, &change.text);
                    changes.push(change);
                    let applied = apply_changes(text.to_string(), &changes);
                    assert_eq!(applied, expected, "{text:?} after {line}:{character}");
                }
            }
        }
    }
}
