//! The security pass: one set of `SEC` checks over what every format's files give the model
//! to read and what they run ([`crate::formats::texts`]), plus the lines of every file for
//! hidden characters and secrets. A tool's name, description and schema are instructions to
//! the model, so they are checked like code: hidden characters, look-alike names, poisoned
//! instructions, shadowing, secrets, dangerous commands and credentials sent in clear text.
//!
//! [`check_file`] runs on each file as it is loaded; [`resolve`] compares the tools of the
//! whole repository (look-alike names, shadowing).

mod commands;
mod hidden;
mod instructions;
mod names;
mod patterns;
mod schema;
mod secrets;
mod shadowing;
mod transport;

use crate::diagnostics::Diagnostic;
use crate::formats::texts::ToolTexts;
use crate::formats::{FileResult, Format, format_of};

/// The findings on one file, read as `format`.
pub fn check_file(format: &dyn Format, r: &FileResult) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut covered = hidden::Covered::default();
    for tool in format.texts(r) {
        hidden::check_texts(tool, &mut covered, &mut out);
        names::mixed_scripts(tool, &mut out);
        instructions::check(tool, &mut out);
        commands::check(tool, &mut out);
        transport::check(tool, &mut out);
    }
    for file in std::iter::once(&r.file).chain(&r.companions) {
        hidden::check_file(file, &covered, &mut out);
        secrets::check(file, &mut out);
    }
    out
}

/// The findings that compare the tools of the whole repository.
pub fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    let tools: Vec<&ToolTexts> = results
        .iter()
        .flat_map(|r| format_of(r.file.format).map_or(&[][..], |f| f.texts(r)))
        .collect();
    let mut out = names::confusables(&tools);
    out.extend(shadowing::check(&tools));
    out
}
