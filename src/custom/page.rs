//! The page `toolc explain` prints for a custom rule, built from the rule's own fields in the
//! shape of a built-in rule's page.

use super::function::Function;
use super::parts::{SubjectKind, Then};
use crate::rules::Severity;

/// What a custom rule's page says.
pub(crate) struct PageFacts<'a> {
    /// Code.
    pub code: &'a str,
    /// Name.
    pub name: &'a str,
    /// Severity.
    pub severity: Severity,
    /// What it reads.
    pub subject: SubjectKind,
    /// Format ids (none: every format).
    pub formats: &'a [String],
    /// `given`, as written (or its default).
    pub given: &'a str,
    /// The compiled `then`s.
    pub thens: &'a [Then],
    /// The message, as written.
    pub message: &'a str,
    /// The team's own words, when given.
    pub description: Option<&'a str>,
    /// The configuration file that declares it.
    pub declared_in: &'a str,
}

/// One `then` in words.
fn requirement(then: &Then) -> String {
    let what = then
        .field_text
        .as_ref()
        .map_or_else(|| "the node".to_string(), |f| format!("`{f}`"));
    let must = match &then.function {
        Function::Truthy => "is set (not false, 0, empty or null)".to_string(),
        Function::Falsy => "is absent, false, 0, empty or null".to_string(),
        Function::Defined => "is present".to_string(),
        Function::Undefined => "is absent".to_string(),
        Function::Pattern(re) => format!("matches `{}`", re.as_str()),
        Function::NotPattern(re) => format!("does not match `{}`", re.as_str()),
        Function::Enumeration(values) => format!(
            "is one of {}",
            values
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Function::Length { min, max } => match (min, max) {
            (Some(min), Some(max)) => format!("has a length from {min} to {max}"),
            (Some(min), None) => format!("has a length of at least {min}"),
            (None, Some(max)) => format!("has a length of at most {max}"),
            (None, None) => "has any length".to_string(),
        },
        Function::Casing(c) => format!("is written in {c:?} case").to_lowercase(),
        Function::Schema(_) => "is valid against the rule's JSON Schema".to_string(),
    };
    format!("- {what} {must}")
}

/// The page, Markdown with front matter like the built-in rules' pages.
pub(crate) fn render(f: &PageFacts<'_>) -> String {
    let formats = if f.formats.is_empty() {
        "all".to_string()
    } else {
        format!("[{}]", f.formats.join(", "))
    };
    let subject = match f.subject {
        SubjectKind::Tool => {
            "every tool as toolc sees it whatever its format (`name`, `description`, `parameters`, `commands`, `format`, `path`, …)"
        }
        SubjectKind::File => "every file's own tree, as JSON",
    };
    let mut page = format!(
        "---\ncode: {code}\nname: {name}\nseverity: {severity}\nformats: {formats}\nsource: {file}\n---\n\n# {code}: {name}\n\n",
        code = f.code,
        name = f.name,
        severity = f.severity,
        file = f.declared_in,
    );
    match f.description {
        Some(d) => page.push_str(d.trim()),
        None => page.push_str("A rule of this repository (no `description` was given)."),
    }
    page.push_str(&format!(
        "\n\n## What it checks\n\nDeclared in `{}` (`[[custom-rules]]`). It reads {subject}",
        f.declared_in
    ));
    if !f.formats.is_empty() {
        page.push_str(&format!(", in files of {}", f.formats.join(", ")));
    }
    page.push_str(&format!(
        "; in each, the nodes `{}` selects, of which every one of these must hold:\n\n",
        f.given
    ));
    for then in f.thens {
        page.push_str(&requirement(then));
        page.push('\n');
    }
    page.push_str(&format!(
        "\n## Message\n\n    {}\n\nSee docs/custom-rules.md on writing such rules.\n",
        f.message
    ));
    page
}
