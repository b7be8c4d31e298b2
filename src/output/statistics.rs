//! `--statistics`: how many diagnostics each rule produced, most frequent first.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::diagnostics::Diagnostic;
use crate::rules::Rule;

/// One rule's count.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RuleCount {
    /// The rule's code.
    pub code: &'static str,
    /// The rule's name.
    pub name: &'static str,
    /// The severity its diagnostics had (the highest, if configured differently per path).
    pub severity: &'static str,
    /// Number of diagnostics.
    pub count: usize,
}

/// Counts per rule: most frequent first, then by code.
pub(crate) fn count(diagnostics: &[Diagnostic]) -> Vec<RuleCount> {
    let mut by_rule: HashMap<&'static str, (&'static Rule, crate::rules::Severity, usize)> =
        HashMap::new();
    for d in diagnostics {
        let entry = by_rule
            .entry(d.rule.code)
            .or_insert((d.rule, d.severity, 0));
        entry.1 = entry.1.max(d.severity);
        entry.2 += 1;
    }
    let mut counts: Vec<RuleCount> = by_rule
        .into_values()
        .map(|(rule, severity, count)| RuleCount {
            code: rule.code,
            name: rule.name,
            severity: severity.as_str(),
            count,
        })
        .collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    counts
}

/// The table: count, code, name, severity; one rule a line.
pub(crate) fn render_human(diagnostics: &[Diagnostic]) -> String {
    let counts = count(diagnostics);
    let count_width = counts.first().map_or(1, |c| c.count.to_string().len());
    let name_width = counts.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let code_width = counts.iter().map(|c| c.code.len()).max().unwrap_or(0);
    let mut out = String::new();
    for c in &counts {
        let _ = writeln!(
            out,
            "{:>count_width$}  {:<code_width$}  {:<name_width$}  {}",
            c.count, c.code, c.name, c.severity
        );
    }
    let skipped = crate::security::shellcheck::skipped();
    if skipped > 0 {
        let _ = writeln!(
            out,
            "ShellCheck did not run (not on PATH, or TOOLC_SHELLCHECK is empty): {skipped} embedded shell script(s) were not checked (SHC001–SHC003)"
        );
    }
    out
}

/// The counts as a JSON array of `{code, name, severity, count}`.
pub(crate) fn render_json(diagnostics: &[Diagnostic]) -> String {
    let mut text = serde_json::to_string_pretty(&count(diagnostics))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}
