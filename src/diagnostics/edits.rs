//! Structured fixes for values and keys written in YAML or JSON: the edit that writes a
//! name, key or value where the wrong one is, keeping the way it was quoted.

use super::{Applicability, Fix};
use crate::source::{SourceFile, Span};

/// A fix that writes the string `value` where the scalar at `span` is, keeping the scalar's
/// quotes, and quoting a plain value YAML would read as something other than a string.
pub(crate) fn replace_scalar(
    file: &SourceFile,
    span: Span,
    value: &str,
    applicability: Applicability,
) -> Fix {
    let source = file.slice(span);
    let replacement = match source.chars().next() {
        Some(q @ ('"' | '\'')) if source.len() >= 2 && source.ends_with(q) => {
            format!("{q}{value}{q}")
        }
        _ if needs_quotes(value) => format!("\"{value}\""),
        _ => value.to_string(),
    };
    Fix::replace(applicability, span, replacement).with_message(format!("replace with `{value}`"))
}

/// [`replace_scalar`] for the scalar `current` at `span`, or `None` when `span` does not hold
/// exactly that scalar (plain or quoted, no escapes): a fallback span (the whole value of a
/// folded or escaped string) is never overwritten.
pub(crate) fn replace_exact(
    file: &SourceFile,
    span: Span,
    current: &str,
    value: &str,
    applicability: Applicability,
) -> Option<Fix> {
    let source = file.slice(span);
    let inner = source
        .strip_prefix(['"', '\''])
        .and_then(|s| s.strip_suffix(['"', '\'']))
        .unwrap_or(source);
    (inner == current).then(|| replace_scalar(file, span, value, applicability))
}

/// A fix replacing the text at `span`, which must read `current`, with `replacement` as
/// written (a part of a string, such as a `{NAME}` template).
pub(crate) fn replace_text(
    file: &SourceFile,
    span: Span,
    current: &str,
    replacement: &str,
    applicability: Applicability,
) -> Option<Fix> {
    (file.slice(span) == current).then(|| Fix::replace(applicability, span, replacement))
}

/// True when YAML would not read `value`, written plain, as that string.
fn needs_quotes(value: &str) -> bool {
    value.is_empty()
        || value.parse::<f64>().is_ok()
        || matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off" | "y" | "n"
        )
        || value.starts_with(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '/'))
        || value.contains(": ")
        || value.contains(" #")
        || value.ends_with(':')
}

/// A fix that renames the key at `span` to `key` (keys are written plain or quoted alike).
pub(crate) fn rename_key(file: &SourceFile, span: Span, key: &str) -> Fix {
    replace_scalar(file, span, key, Applicability::Safe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;
    use std::sync::Arc;

    fn file(text: &str) -> Arc<SourceFile> {
        SourceFile::new(
            "t.yaml".into(),
            "t.yaml".into(),
            FormatId::DojopsTool,
            text.into(),
        )
    }

    #[test]
    fn quotes_are_kept_and_added_where_yaml_needs_them() {
        let f = file("a: \"Bad\"\nb: x\n");
        let fix = replace_scalar(&f, Span::new(3, 8), "good", Applicability::Safe);
        assert_eq!(fix.apply(&f.text).as_deref(), Some("a: \"good\"\nb: x\n"));
        let fix = replace_scalar(&f, Span::new(12, 13), "123", Applicability::Safe);
        assert_eq!(
            fix.apply(&f.text).as_deref(),
            Some("a: \"Bad\"\nb: \"123\"\n")
        );
        assert_eq!(fix.message, "replace with `123`");
    }

    #[test]
    fn exact_replacements_refuse_a_span_that_holds_other_text() {
        let f = file("p: \"{PATTRN}\"\n");
        assert!(
            replace_exact(&f, Span::new(3, 13), "{PATTRN}", "x", Applicability::Safe).is_some()
        );
        assert!(replace_exact(&f, Span::new(3, 13), "PATTRN", "x", Applicability::Safe).is_none());
        assert!(
            replace_text(
                &f,
                Span::new(4, 12),
                "{PATTRN}",
                "{PATTERN}",
                Applicability::Unsafe
            )
            .is_some()
        );
        assert!(
            replace_text(
                &f,
                Span::new(3, 12),
                "{PATTRN}",
                "{PATTERN}",
                Applicability::Unsafe
            )
            .is_none()
        );
    }
}
