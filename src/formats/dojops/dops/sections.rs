//! The body: DOJ020 on the `## Prompt` and `## Keywords` sections DojOps requires.

use std::sync::Arc;

use crate::analysis::names::did_you_mean;
use crate::diagnostics::Diagnostic;
use crate::rules::dojops as doj;
use crate::source::{SourceFile, Span};
use crate::syntax::front_matter::FrontMatter;
use crate::syntax::markdown::near_heading;
use crate::syntax::sections::h2_sections;

/// The body sections DojOps requires, with what goes in each.
const REQUIRED_SECTIONS: &[(&str, &str)] = &[
    (
        "Prompt",
        "the system prompt of the skill, e.g. `You are a Terraform expert. …`",
    ),
    (
        "Keywords",
        "comma-separated words that select this skill, e.g. `terraform, hcl, iac`",
    ),
];

/// Section titles DojOps reads besides the required ones (never near-misses of them).
const OTHER_SECTIONS: &[&str] = &["update prompt", "examples", "constraints"];

/// DOJ020: `## Prompt` and `## Keywords` must exist and not be blank.
pub(super) fn check_sections(file: &Arc<SourceFile>, fm: &FrontMatter) -> Vec<Diagnostic> {
    let closing = Span::new(fm.yaml.end, (fm.yaml.end + 3).min(fm.body_start));
    let mut out = Vec::new();
    for (title, what) in REQUIRED_SECTIONS {
        // DojOps keeps the last of two sections with one title.
        let found = h2_sections(&file.text, fm.body_start)
            .filter(|s| s.title.eq_ignore_ascii_case(title))
            .last();
        let note =
            format!("DojOps refuses to load a skill without a non-empty `## {title}` section");
        let d = match found {
            Some(s) if file.slice(s.content).trim().is_empty() => Diagnostic::new(
                &doj::MISSING_DOPS_SECTION,
                file,
                s.heading,
                format!("the `## {title}` section is empty"),
            )
            .label("nothing under this heading")
            .note(note)
            .help(format!("write {what} under `## {title}`")),
            Some(_) => continue,
            None => match near_miss_heading(file, fm.body_start, title) {
                Some(heading) => Diagnostic::new(
                    &doj::MISSING_DOPS_SECTION,
                    file,
                    heading,
                    format!("the body has no `## {title}` section"),
                )
                .label(format!("not read as `## {title}`"))
                .note(note)
                .help(format!("make this heading exactly `## {title}`")),
                None => Diagnostic::new(
                    &doj::MISSING_DOPS_SECTION,
                    file,
                    closing,
                    format!("the body has no `## {title}` section"),
                )
                .label(format!("no `## {title}` after the front matter"))
                .note(note)
                .help(format!("add a `## {title}` heading followed by {what}")),
            },
        };
        out.push(d);
    }
    out
}

/// A heading that was probably meant as `## {title}`: the right words at the wrong level
/// (`# Prompt`, `##Prompt`), or a misspelt `##` title (`## Keyword`).
fn near_miss_heading(file: &SourceFile, body_start: usize, title: &str) -> Option<Span> {
    if let Some(heading) = near_heading(&file.text, body_start, title) {
        return Some(heading);
    }
    h2_sections(&file.text, body_start)
        .filter(|s| {
            let lower = s.title.to_ascii_lowercase();
            !OTHER_SECTIONS.contains(&lower.as_str())
                && !REQUIRED_SECTIONS
                    .iter()
                    .any(|(t, _)| t.eq_ignore_ascii_case(&lower))
        })
        .find(|s| did_you_mean(s.title, [title]).is_some())
        .map(|s| s.heading)
}
