//! `--format github`: one GitHub Actions workflow command per diagnostic, which GitHub shows
//! as an annotation on the pull request's diff.
//!
//! `::error file=PATH,line=L,col=C,endLine=L2,endColumn=C2,title=toolc (CODE name)::message`

use std::fmt::Write as _;

use crate::diagnostics::{Diagnostic, Summary, visible};
use crate::rules::Severity;

/// Write every diagnostic as a workflow command, one per line and a command at a time (the
/// Action's default output), then a notice saying how many findings were hidden (baseline,
/// suppression comments), if any were.
pub(crate) fn write(
    diagnostics: &[Diagnostic],
    summary: &Summary,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut line = String::new();
    for d in diagnostics {
        line.clear();
        render_one(&mut line, &super::masked::masked_one(d));
        out.write_all(line.as_bytes())?;
    }
    if let Some(hidden) = summary.hidden_line() {
        writeln!(
            out,
            "::notice title={}::{}",
            escape_property("toolc (hidden findings)"),
            escape_data(&hidden)
        )?;
    }
    if let Some(fewer) = summary.fewer_shown_line() {
        writeln!(
            out,
            "::notice title={}::{}",
            escape_property("toolc (findings not shown)"),
            escape_data(&fewer)
        )?;
    }
    Ok(())
}

fn render_one(out: &mut String, d: &Diagnostic) {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let start = d.file.position(d.span.start);
    let end = d.file.position(d.span.end);
    let title = format!("toolc ({} {})", d.rule.code, d.rule.name);
    // The message is the annotation's body; the help goes on its own line under it, as in
    // the human output, so the fix is visible on the diff without opening the log.
    // Controls from the file are shown, not obeyed: only toolc's own line break survives.
    let mut message = visible(&d.message).into_owned();
    if let Some(help) = &d.help {
        let _ = write!(message, "\nhelp: {}", visible(help));
    }
    let _ = writeln!(
        out,
        "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        escape_property(&visible(d.file.display())),
        start.line,
        start.column,
        end.line,
        end.column,
        escape_property(&title),
        escape_data(&message),
    );
}

/// Escape a command's message: GitHub's runner decodes `%25`, `%0D` and `%0A`.
pub(crate) fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            _ => out.push(c),
        }
    }
    out
}

/// Escape a property value: as the message, plus `:` and `,`, which end a property.
pub(crate) fn escape_property(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
