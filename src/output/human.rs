//! Human output: rustc-style snippets (via `annotate-snippets`) and a summary line.

use std::fmt::Write as _;
use std::sync::Arc;

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};

use crate::diagnostics::{Diagnostic, Related, Summary, visible};
use crate::rules::Severity;
use crate::source::{SourceFile, Span};
use crate::text::{ceil_boundary, floor_boundary};

/// Lines longer than this are cropped around the span so a 5 MB line stays readable.
const MAX_SHOWN_LINE: usize = 400;
const CROP_CONTEXT: usize = 80;
/// Bytes masked for credentials on each side of a crop of a huge line: more than the longest
/// credential written on one line (a private key block with escaped newlines).
const REDACT_MARGIN: usize = 16 * 1024;
/// Bytes of a long line masked past a crop at once: the findings after it on the same line
/// reuse them (thousands of findings on a minified file masked 32 KB each: 13 s).
const MASK_AHEAD: usize = 1 << 20;
/// Bytes searched on each side of a span for the ends of its line.
const LINE_SEARCH: usize = 64 * 1024;
/// A related place shares the primary snippet only when both fit in this many bytes.
const MAX_SHARED_WINDOW: usize = 16 * 1024;
/// A span longer than this (a list of millions of items) is shown by its first line and a
/// note of the line it ends on: the renderer builds a record per line of its window, which
/// for a whole file took ten times the file's size, and the reader needs only its start.
const MAX_SHOWN_SPAN: usize = 64 * 1024;

/// The part of `span` a snippet marks, and the line it ends on when that is not all of it.
fn clipped(file: &SourceFile, span: Span) -> (Span, Option<usize>) {
    if span.len() <= MAX_SHOWN_SPAN {
        return (span, None);
    }
    let text = file.text.as_str();
    let start = floor_boundary(text, span.start);
    let ahead = ceil_boundary(text, start.saturating_add(MAX_SHOWN_LINE));
    let first_line_end = text
        .get(start..ahead)
        .and_then(|t| t.find(['\n', '\r']))
        .map_or(ahead, |i| start + i);
    let end_line = file.position(span.end).line;
    (Span::new(start, first_line_end.max(start)), Some(end_line))
}

/// Render diagnostics and the summary line.
pub(crate) fn render(
    diagnostics: &[Diagnostic],
    summary: &Summary,
    color: bool,
    quiet: bool,
) -> String {
    super::to_string(|out| write(diagnostics, summary, color, quiet, out))
}

/// [`render`], written to `out` a diagnostic at a time (the default output of a run of many
/// findings is far larger than its files).
pub(crate) fn write(
    diagnostics: &[Diagnostic],
    summary: &Summary,
    color: bool,
    quiet: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut masks = Masks::default();
    for d in diagnostics {
        let d = super::masked::masked_one(d);
        out.write_all(render_one(&renderer, &d, &mut masks).as_bytes())?;
        out.write_all(b"\n\n")?;
    }
    if !quiet {
        writeln!(out, "{}", summary_line(summary))?;
    }
    Ok(())
}

/// The closing summary line.
pub(crate) fn summary_line(s: &Summary) -> String {
    let files = plural(s.files, "file");
    let tools = plural(s.tools, "tool");
    if s.errors + s.warnings + s.infos == 0 {
        return format!("All checks passed: {files}, {tools}.");
    }
    let mut parts = Vec::new();
    if s.errors > 0 {
        parts.push(plural(s.errors, "error"));
    }
    if s.warnings > 0 {
        parts.push(plural(s.warnings, "warning"));
    }
    if s.infos > 0 {
        parts.push(plural(s.infos, "info"));
    }
    let mut line = format!("Found {} in {files} ({tools}).", join_and(&parts));
    let _ = write!(line, " Run `toolc explain CODE` to see a rule's page.");
    line
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A window of a file's text to show, and the line number it starts on.
struct Window<'a> {
    /// The lines as shown: C1 controls (which a terminal obeys) spelled out as `\u{9b}`.
    text: std::borrow::Cow<'a, str>,
    /// Where the file's text starts.
    start: usize,
    line: usize,
    /// For each spelled-out character: its end in the file's window, and how many bytes
    /// longer the shown text is from there on.
    shifts: Vec<(usize, usize)>,
}

impl Window<'_> {
    /// The offset in the shown text of `offset` in the file's window.
    fn shown(&self, offset: usize) -> usize {
        let i = self.shifts.partition_point(|(end, _)| *end <= offset);
        offset + i.checked_sub(1).map_or(0, |i| self.shifts[i].1)
    }
}

/// `raw` with C1 controls, the line and paragraph separators, invisible and bidirectional
/// characters spelled out (annotate-snippets shows C0 controls as symbols itself): a terminal
/// would otherwise hide or reorder what a diagnostic points at.
fn spell_out_c1(raw: &str) -> (std::borrow::Cow<'_, str>, Vec<(usize, usize)>) {
    // U+2028 and U+2029 break a line as U+0085 does, and `visible` shows them too.
    let is_c1 = |c: char| {
        ('\u{80}'..='\u{9f}').contains(&c)
            || matches!(c, '\u{2028}' | '\u{2029}')
            || crate::text::hidden_kind(c).is_some()
    };
    if !raw.chars().any(is_c1) {
        return (std::borrow::Cow::Borrowed(raw), Vec::new());
    }
    let mut text = String::with_capacity(raw.len() + 16);
    let mut shifts = Vec::new();
    for (at, c) in raw.char_indices() {
        if is_c1(c) {
            let shown = format!("\\u{{{:x}}}", c as u32);
            let extra = shifts.last().map_or(0, |(_, e)| *e) + shown.len() - c.len_utf8();
            text.push_str(&shown);
            shifts.push((at + c.len_utf8(), extra));
        } else {
            text.push(c);
        }
    }
    (std::borrow::Cow::Owned(text), shifts)
}

/// The text last masked for credentials, kept for the findings after it: they are sorted by
/// place, and many stand on one line.
#[derive(Default)]
struct Masks {
    last: Option<MaskedRegion>,
}

/// Part of a file as masked for credentials: offsets are those of the file's text (masking
/// keeps every character's length).
struct MaskedRegion {
    file: Arc<SourceFile>,
    from: usize,
    text: String,
}

impl Masks {
    /// `file`'s text from `from` to `to` masked, and where what is given starts: of a long
    /// line, up to [`MASK_AHEAD`] bytes more (never past `line_end`) are masked at once.
    /// What was masked is reused when it holds `from..to`: each edge of `from..to` is either
    /// the line's or [`REDACT_MARGIN`] away from what is shown, so no credential is cut by
    /// the region's edge.
    fn masked(
        &mut self,
        file: &Arc<SourceFile>,
        from: usize,
        to: usize,
        line_end: usize,
    ) -> (&str, usize) {
        let held = self.last.as_ref().is_some_and(|m| {
            Arc::ptr_eq(&m.file, file) && m.from <= from && to <= m.from + m.text.len()
        });
        if !held {
            let text = file.text.as_str();
            let until = ceil_boundary(text, to.max(from.saturating_add(MASK_AHEAD).min(line_end)));
            let region = text.get(from..until).unwrap_or_default();
            self.last = Some(MaskedRegion {
                file: Arc::clone(file),
                from,
                text: crate::analysis::secrets::redact(region).into_owned(),
            });
        }
        match &self.last {
            Some(m) => (&m.text, m.from),
            None => ("", from),
        }
    }
}

/// The lines covering `spans`, cropped when a line is huge.
fn window<'a>(file: &'a Arc<SourceFile>, spans: &[Span], masks: &mut Masks) -> Window<'a> {
    let text = file.text.as_str();
    let lo = floor_boundary(text, spans.iter().map(|s| s.start).min().unwrap_or(0));
    let hi = ceil_boundary(text, spans.iter().map(|s| s.end).max().unwrap_or(0));
    // The line's ends are looked for only so far: past that the line is huge and cropped
    // anyway, and a thousand findings on a 50 MB line must not scan it a thousand times.
    let back = floor_boundary(text, lo.saturating_sub(LINE_SEARCH));
    let line_start = match text[back..lo].rfind('\n') {
        Some(i) => back + i + 1,
        None if back <= file.bom_len => file.bom_len.min(lo),
        None => back,
    };
    let ahead = ceil_boundary(text, hi.saturating_add(LINE_SEARCH));
    let line_end = text[hi..ahead].find('\n').map_or(ahead, |i| hi + i);
    let line_end = if text[..line_end].ends_with('\r') {
        line_end - 1
    } else {
        line_end
    };
    let (start, end) = if line_end - line_start > MAX_SHOWN_LINE && hi - lo < MAX_SHOWN_LINE {
        (
            floor_boundary(text, lo.saturating_sub(CROP_CONTEXT).max(line_start)),
            ceil_boundary(text, (hi + CROP_CONTEXT).min(line_end)),
        )
    } else if line_end - line_start > MAX_SHOWN_LINE && !text[line_start..line_end].contains('\n') {
        // A long span on one huge line (a list of megabytes on one line) is shown by its
        // start: the renderer holds several times what it is handed.
        (
            floor_boundary(text, lo.saturating_sub(CROP_CONTEXT).max(line_start)),
            ceil_boundary(text, (lo + MAX_SHOWN_LINE).min(line_end)),
        )
    } else {
        (line_start, line_end.max(line_start))
    };
    // A credential in the file is never printed in full, whichever rule shows its line:
    // whole lines are masked (a crop could cut a token's prefix), with offsets unchanged; of
    // a huge line, a margin around the crop wider than any credential, so showing a
    // thousand findings on one line does not scan it a thousand times.
    let (from, to) = if line_end - line_start > MAX_SHOWN_LINE {
        (
            floor_boundary(text, start.saturating_sub(REDACT_MARGIN).max(line_start)),
            ceil_boundary(text, (end + REDACT_MARGIN).min(line_end)),
        )
    } else {
        (line_start, end.max(line_end))
    };
    let (redacted, at) = masks.masked(file, from, to, line_end);
    let shown_part = redacted
        .get(start.saturating_sub(at)..end.saturating_sub(at))
        .unwrap_or_default();
    let (shown, shifts) = spell_out_c1(shown_part);
    let shown = std::borrow::Cow::Owned(shown.into_owned());
    Window {
        text: shown,
        start,
        line: file.position(start).line,
        shifts,
    }
}

fn rel(span: Span, w: &Window<'_>) -> std::ops::Range<usize> {
    let s = w
        .shown(span.start.saturating_sub(w.start))
        .min(w.text.len());
    let e = w
        .shown(span.end.saturating_sub(w.start))
        .min(w.text.len())
        .max(s);
    floor_boundary(&w.text, s)..ceil_boundary(&w.text, e)
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

fn render_one(renderer: &Renderer, d: &Diagnostic, masks: &mut Masks) -> String {
    // Related places near the primary one share its snippet; others (another file, or far
    // along one huge line) get a snippet each, so no snippet grows to the size of the file.
    // Places far apart cannot share: told by their offsets first, since building the window
    // between them reads all that lies between (thousands of far places, the whole file each).
    let (span, runs_to) = clipped(&d.file, d.span);
    let related: Vec<(&Related, Span)> = d
        .related
        .iter()
        .map(|r| (r, clipped(&r.file, r.span).0))
        .collect();
    let (same_file, others): (Vec<_>, Vec<_>) = related.into_iter().partition(|(r, at)| {
        let lo = span.start.min(at.start);
        let hi = span.end.max(at.end);
        Arc::ptr_eq(&r.file, &d.file)
            && hi.saturating_sub(lo) <= MAX_SHARED_WINDOW
            && window(&d.file, &[span, *at], masks).text.len() <= MAX_SHARED_WINDOW
    });
    let mut spans = vec![span];
    spans.extend(same_file.iter().map(|(_, at)| *at));
    let w = window(&d.file, &spans, masks);
    let path = visible(d.file.display()).into_owned();
    let mut primary = AnnotationKind::Primary.span(rel(span, &w));
    let label = d.label.as_deref().map(visible);
    if let Some(label) = &label {
        primary = primary.label(label.as_ref());
    }
    let mut snippet = Snippet::source(w.text.as_ref())
        .line_start(w.line)
        .path(path)
        .annotation(primary);
    let same_labels: Vec<_> = same_file.iter().map(|(r, _)| visible(&r.message)).collect();
    for ((_, at), label) in same_file.iter().zip(&same_labels) {
        snippet = snippet.annotation(
            AnnotationKind::Context
                .span(rel(*at, &w))
                .label(label.as_ref()),
        );
    }
    let title = format!("{} [{}]", visible(&d.message), d.rule.name);
    let group = level(d.severity).primary_title(title).id(d.rule.code);
    // A finding on a file that is not read (a stray file beside a skill) has no line to
    // show: its path alone, above the places in other files that say why. (Alone, a path
    // would be drawn without a gutter: an empty file keeps its empty line 1.)
    let mut group = if w.text.is_empty() && same_file.is_empty() && !others.is_empty() {
        group.element(Origin::path(visible(d.file.display()).into_owned()))
    } else {
        group.element(snippet)
    };
    let windows: Vec<_> = others
        .iter()
        .map(|(r, at)| (window(&r.file, &[*at], masks), *r, *at, visible(&r.message)))
        .collect();
    for (w, r, at, label) in &windows {
        group = group.element(
            Snippet::source(w.text.as_ref())
                .line_start(w.line)
                .path(visible(r.file.display()).into_owned())
                .annotation(
                    AnnotationKind::Context
                        .span(rel(*at, w))
                        .label(label.as_ref()),
                ),
        );
    }
    let mut notes: Vec<_> = d.notes.iter().map(|n| visible(n)).collect();
    if let Some(line) = runs_to {
        notes.insert(
            0,
            std::borrow::Cow::Owned(format!("the marked value runs on to line {line}")),
        );
    }
    for note in &notes {
        group = group.element(Level::NOTE.message(note.as_ref()));
    }
    let help = d.help.as_deref().map(visible);
    if let Some(help) = &help {
        group = group.element(Level::HELP.message(help.as_ref()));
    }
    let report: &[Group<'_>] = &[group];
    let mut text = renderer.render(report);
    // A cropped window makes the renderer count columns from the crop, not the line start:
    // put the true column back into each snippet's `path:line:col` header, in order.
    let mut fixes = vec![header_fix(&d.file, &w, span)];
    fixes.extend(
        windows
            .iter()
            .map(|(w, r, at, _)| header_fix(&r.file, w, *at)),
    );
    let mut cursor = text.find('\n').unwrap_or(0);
    for (shown, actual) in fixes.into_iter().flatten() {
        if let Some(at) = text[cursor..].find(&shown).map(|i| cursor + i) {
            text.replace_range(at..at + shown.len(), &actual);
            cursor = at + actual.len();
        }
    }
    text
}

/// The header the renderer prints for a cropped window, and the one it should print.
fn header_fix(file: &SourceFile, w: &Window<'_>, span: Span) -> Option<(String, String)> {
    let pos = file.position(span.start);
    let line_start = file.lines().line_start(&file.text, pos.line)?;
    if w.start <= line_start {
        return None;
    }
    let shown = w
        .text
        .get(..w.shown(span.start.saturating_sub(w.start)))?
        .chars()
        .count()
        + 1;
    let header = |col: usize| format!("{}:{}:{col}", visible(file.display()), pos.line);
    Some((header(shown), header(pos.column)))
}

#[cfg(test)]
mod tests {
    use super::{MAX_SHOWN_LINE, Masks, spell_out_c1, window};
    use crate::source::{FormatId, SourceFile, Span};

    #[test]
    fn a_long_span_on_a_huge_line_is_shown_by_its_start() {
        let text = format!("{{\"a\": [{}]}}\n", "\"x\",".repeat(100_000));
        let file = SourceFile::new("t.json".into(), "t.json".into(), FormatId::ToolMd, text);
        let w = window(&file, &[Span::new(7, 300_000)], &mut Masks::default());
        assert!(w.text.len() <= MAX_SHOWN_LINE + 8, "{}", w.text.len());
        assert!(w.text.starts_with("{\"a\": [\"x\""), "{}", w.text);
    }

    #[test]
    fn a_snippet_shows_line_and_paragraph_separators_as_it_shows_next_line() {
        let (text, shifts) = spell_out_c1("a\u{85}b\u{2028}c\u{2029}d");
        assert_eq!(text, "a\\u{85}b\\u{2028}c\\u{2029}d");
        // Each is spelled out where it was: a column after it is counted past the escape.
        assert_eq!(shifts, vec![(3, 4), (7, 9), (11, 14)]);
    }
}
