//! The security pass: one set of `SEC` checks over what every format's files give the model
//! to read and what they run ([`crate::formats::texts`]), plus the lines of every file for
//! hidden characters and secrets. A tool's name, description and schema are instructions to
//! the model, so they are checked like code: hidden characters, look-alike names, poisoned
//! instructions, shadowing, secrets, dangerous commands and credentials sent in clear text.
//!
//! [`check_texts`] runs while a format loads a file (its texts borrow the syntax tree);
//! [`check_file`] adds the scans of the file's lines; [`resolve`] compares the tools of the
//! whole repository (look-alike names, shadowing).

mod commands;
mod hidden;
mod instructions;
mod names;
mod patterns;
mod schema;
mod secrets;
mod shadowing;
pub mod shellcheck;
mod transport;

use crate::diagnostics::Diagnostic;
use crate::formats::texts::{FileTexts, Shell, Text, TextKind, ToolTexts};
use crate::formats::{FileResult, Format, format_of};

/// Check the texts of one file's tools, and keep what the cross-file checks read: each
/// tool's name, and the texts that could direct another tool's calls.
pub fn check_texts(tools: Vec<ToolTexts<'_>>) -> FileTexts {
    let mut out = FileTexts::default();
    let mut joined = String::new();
    for tool in &tools {
        hidden::check_texts(tool, &mut out.covered, &mut out.findings);
        names::mixed_scripts(tool, &mut out.findings);
        joined.clear();
        for t in tool
            .all()
            .filter(|t| t.kind.is_schema_value() || instructions::is_prose(t.kind))
        {
            joined.push_str(&t.value);
            joined.push('\n');
        }
        let look = patterns::look(&joined);
        instructions::check(tool, look.instructions, &mut out.findings);
        commands::check(tool, &mut out.findings);
        transport::check(tool, &mut out.findings);
        // Built afresh rather than collected in place: a collected `Vec` would keep the
        // capacity of every text the tool had, for each file, for the whole run.
        out.kept.push(kept(tool, look.calls));
        out.scripts.extend(
            tool.texts
                .iter()
                .filter(|t| t.kind == TextKind::Command(Shell::Posix))
                .map(|t| t.clone().into_owned()),
        );
    }
    out
}

/// What the cross-file checks read of a tool: its name, and the prose that says when
/// something is called (only such a sentence can direct another tool's calls); `calls`
/// says whether one look at all its texts saw such a sentence.
fn kept(tool: &ToolTexts<'_>, calls: bool) -> ToolTexts<'static> {
    let texts = tool
        .texts
        .iter()
        .filter(|t| {
            calls
                && matches!(
                    t.kind,
                    TextKind::Description | TextKind::ParamDescription | TextKind::Guidance
                )
                && patterns::calls(&t.value)
        })
        .map(|t| t.clone().into_owned())
        .collect();
    ToolTexts {
        name: tool.name.clone().map(Text::into_owned),
        callable: tool.callable,
        texts,
        credentials: tool.credentials,
    }
}

/// The findings on one file read as `format`: those on its texts, then the scans of its
/// lines (and its companions').
pub fn check_file(format: &dyn Format, r: &FileResult) -> Vec<Diagnostic> {
    let texts = format.texts(r);
    let mut out: Vec<Diagnostic> = texts.map_or_else(Vec::new, |t| t.findings.clone());
    let covered = texts.map_or(&[][..], |t| &t.covered);
    for file in std::iter::once(&r.file).chain(&r.companions) {
        hidden::check_file(file, covered, &mut out);
        secrets::check(file, &mut out);
    }
    out
}

/// The findings that compare the tools of the whole repository.
pub fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    let files: Vec<&FileTexts> = results
        .iter()
        .filter_map(|r| format_of(r.file.format)?.texts(r))
        .collect();
    let tools: Vec<&ToolTexts<'static>> = files.iter().flat_map(|t| &t.kept).collect();
    let mut out = names::confusables(&tools);
    out.extend(shadowing::check(&tools));
    let scripts: Vec<&Text<'static>> = files.iter().flat_map(|t| &t.scripts).collect();
    out.extend(shellcheck::check(&scripts));
    out
}
