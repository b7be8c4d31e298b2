//! A cap on the findings of one rule in one file, so a generated or hostile file with a
//! million findings cannot bury the output (or make it take minutes to render).

use std::collections::HashMap;

use super::Diagnostic;

/// Findings of one rule shown per file; past that a single line says how many more there are.
pub const MAX_PER_RULE: usize = 200;

/// At most `max` diagnostics of each rule, then one saying how many were left out: a
/// generated or hostile file with a million findings must not bury the output (or make it
/// take minutes to render).
pub fn cap_per_rule(diags: Vec<Diagnostic>, max: usize) -> Vec<Diagnostic> {
    let mut seen: HashMap<&'static str, usize> = HashMap::new();
    for d in &diags {
        *seen.entry(d.rule.code).or_default() += 1;
    }
    if seen.values().all(|n| *n <= max) {
        return diags;
    }
    let mut kept: HashMap<&'static str, usize> = HashMap::new();
    let mut out = Vec::new();
    for d in diags {
        let count = kept.entry(d.rule.code).or_default();
        *count += 1;
        if *count <= max {
            out.push(d);
        } else if *count == max + 1 {
            let more = seen.get(d.rule.code).copied().unwrap_or(0) - max;
            out.push(Diagnostic {
                message: format!("{more} more findings of this rule in this file are not shown"),
                label: Some("and more from here on".into()),
                related: Vec::new(),
                notes: Vec::new(),
                help: Some("fix the ones above and run toolc again".into()),
                fix: None,
                ..d
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FormatId, SourceFile, Span};

    #[test]
    fn past_the_cap_one_line_says_how_many_more() {
        let file = SourceFile::new(
            "tools.json".into(),
            "tools.json".into(),
            FormatId::AgentcliManifest,
            "{}".into(),
        );
        let rule = &crate::rules::security::HOST_PATH_ACCESS;
        let other = &crate::rules::security::EMBEDDED_SECRET;
        let mut diags: Vec<Diagnostic> = (0..5)
            .map(|i| Diagnostic::new(rule, &file, Span::point(0), format!("finding {i}")))
            .collect();
        diags.push(Diagnostic::new(other, &file, Span::point(0), "other"));
        let capped = cap_per_rule(diags, 3);
        let messages: Vec<&str> = capped.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "finding 0",
                "finding 1",
                "finding 2",
                "2 more findings of this rule in this file are not shown",
                "other"
            ]
        );
    }
}
