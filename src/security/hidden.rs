//! SEC060/SEC061: invisible and bidirectional characters in what the model reads. In a name,
//! id, enum value or command every one counts (an error); in prose the ones real writing
//! needs (emoji joiners, direction marks in right-to-left text) stay silent (a warning
//! otherwise). Characters written as escapes (`\u202e` in JSON) are found in the decoded
//! texts; the file's own lines are scanned too, for the places no text covers (comments,
//! keys of formats without texts).

use std::sync::Arc;

use crate::analysis::unicode::{
    Hidden, HiddenKind, char_name, code_point, hidden_scan, hidden_scan_where,
};
use crate::diagnostics::cap::{self, Findings};
use crate::diagnostics::{Diagnostic, visible};
use crate::rules::security as sec;
use crate::security::texts::{Covered, CoveredFiles, Text};
use crate::source::{SourceFile, Span};

/// How much of a hidden message is shown.
const MAX_SHOWN: usize = 80;

/// Hidden characters in each of `texts` (a tool's); each one's place goes into `covered`.
pub(super) fn check_texts<'t>(
    texts: impl IntoIterator<Item = &'t Text<'t>>,
    covered: &mut Covered,
    out: &mut Findings,
) {
    for text in texts {
        let strict = text.kind.is_identifier() || text.kind.runs();
        let scan = hidden_scan(&text.value, strict);
        for h in scan.found {
            let span = text.span_of(h.start..h.end);
            covered.add(&text.file, span.start);
            out.push(diagnostic(text, &h, span, strict));
        }
        // Past the first hundred of a text, one line stands for the rest and counts them: a
        // description of thousands of hidden characters was reported as a hundred.
        if let Some((first, more)) = scan.past {
            let span = text.span_of(first.start..first.end);
            covered.add_rest(
                &text.file,
                Span::new(span.start, text.span.end.max(span.end)),
            );
            out.push(cap::summary(diagnostic(text, &first, span, strict), more));
        }
    }
}

/// Hidden characters in the lines of `file` that no text reported or counted: past the first
/// hundred, one line stands for the rest and counts them (a file of thousands in its comments
/// was reported as a hundred, and one written after them, where no text is, never).
pub(super) fn check_file(
    file: &Arc<SourceFile>,
    covered: &CoveredFiles,
    out: &mut Vec<Diagnostic>,
) {
    let body = &file.text[file.bom_len..];
    if body.is_ascii() {
        return;
    }
    let covered = covered.in_file(file);
    let scan = hidden_scan_where(body, false, |h| !covered.holds(file.bom_len + h.start));
    let found = |h: &Hidden| {
        let span = Span::new(file.bom_len + h.start, file.bom_len + h.end);
        let message = format!("the file {}", describe(h));
        finish(
            Diagnostic::new(&sec::HIDDEN_CHARACTER, file, span, message),
            h,
        )
    };
    out.extend(scan.found.iter().map(found));
    if let Some((first, more)) = scan.past {
        out.push(cap::summary(found(&first), more));
    }
}

fn diagnostic(text: &Text<'_>, h: &Hidden, span: Span, strict: bool) -> Diagnostic {
    let rule = if strict {
        &sec::HIDDEN_CHARACTER_IN_NAME
    } else {
        &sec::HIDDEN_CHARACTER
    };
    let message = format!("{} {}", text.kind.what(), describe(h));
    let d = Diagnostic::new(rule, &text.file, span, message);
    let d = if text.kind.runs() {
        d.note("what runs is not what a reviewer reads: the shell sees the hidden character")
    } else if strict {
        d.note("a name with an invisible character is a different name that looks the same: the model and the runtime see it, reviewers do not")
    } else {
        d
    };
    finish(d, h)
}

/// `holds U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control`, or for tags, what they
/// spell.
fn describe(h: &Hidden) -> String {
    let name = char_name(h.ch).map_or(String::new(), |n| format!(" {n}"));
    match (&h.spelled, h.kind) {
        (Some(spelled), HiddenKind::Tag) => {
            let mut shown: String = spelled.chars().take(MAX_SHOWN).collect();
            if spelled.chars().count() > MAX_SHOWN {
                shown.push('…');
            }
            let count = h.end.saturating_sub(h.start) / 4;
            if shown.is_empty() {
                format!("hides {count} Unicode tag character(s)")
            } else {
                format!(
                    "hides {count} Unicode tag character(s) that spell \"{}\"",
                    visible(&shown)
                )
            }
        }
        _ => format!("holds {}{name}, {}", code_point(h.ch), h.kind.what()),
    }
}

fn finish(d: Diagnostic, h: &Hidden) -> Diagnostic {
    let (label, note) = match h.kind {
        HiddenKind::Bidi => (
            "bidirectional control",
            "it reorders how the text is shown, so reviewers read something other than what the model gets (Trojan Source, CVE-2021-42574)",
        ),
        HiddenKind::Tag => (
            "invisible text",
            "tag characters show as nothing, yet models read them as ASCII: a hidden message (ASCII smuggling)",
        ),
        HiddenKind::Selector => (
            "variation selector",
            "a variation selector outside an emoji shows as nothing and can carry hidden bytes",
        ),
        HiddenKind::ZeroWidth | HiddenKind::Format => (
            "invisible character",
            "it shows as nothing but is part of the text the model reads",
        ),
    };
    d.label(label)
        .note(note)
        .help("delete it; if the text needs it, write the text without it")
}
