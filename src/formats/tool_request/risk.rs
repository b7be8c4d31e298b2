//! The `## Risk Assessment` section: its four `Label: value` lines (TRQ020).

use super::{Cx, Meta, rules};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::edits::replace_text;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::source::Span;
use crate::syntax::markdown::lines_in;
use crate::syntax::sections::Section;

impl Cx<'_> {
    /// TRQ020: the four lines of the risk assessment.
    pub(super) fn risk(&mut self, s: &Section, meta: &Meta) {
        let fields = risk_fields(self.text(), s.content);
        let get = |label: &str| fields.iter().find(|f| f.label == label);
        let checks: [(&str, Option<&[&str]>); 4] = [
            ("risk level", Some(&["low", "medium", "high"])),
            ("justification", None),
            (
                "data sensitivity",
                Some(&["public", "internal", "confidential"]),
            ),
            ("network rationale", None),
        ];
        for (label, allowed) in checks {
            let title = title_case(label);
            let Some(f) = get(label) else {
                let d = self
                    .diag(
                        &rules::INCOMPLETE_RISK_ASSESSMENT,
                        s.heading,
                        format!("the risk assessment has no `{title}:` line"),
                    )
                    .label(format!("no `{title}:` in this section"))
                    .help(match allowed {
                        Some(values) => format!("add `{title}: {}`", values.join("|")),
                        None => format!("add `{title}: <short text>`"),
                    });
                self.push(d);
                continue;
            };
            let value = self.file.slice(f.value).to_string();
            match allowed {
                Some(values) => {
                    let word = value
                        .split(|c: char| {
                            c.is_whitespace() || matches!(c, '(' | ',' | '.' | ';' | '—' | '-')
                        })
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    if value.contains('|') || !values.contains(&word.as_str()) {
                        let shown = if value.is_empty() {
                            "nothing".to_string()
                        } else {
                            format!("`{value}`")
                        };
                        let hint = did_you_mean(&word, values.iter().copied());
                        let span = if f.value.is_empty() { f.line } else { f.value };
                        let d = self
                            .diag(
                                &rules::INCOMPLETE_RISK_ASSESSMENT,
                                span,
                                format!(
                                    "`{title}` must be one of {}, found {shown}",
                                    values
                                        .iter()
                                        .map(|v| format!("`{v}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            )
                            .label("not an allowed value")
                            .did_you_mean_or(
                                hint.filter(|_| !value.contains('|')).and_then(|h| {
                                    // The first word is the level; what follows it stays.
                                    let at = Span::new(f.value.start, f.value.start + word.len());
                                    let current = value.get(..word.len())?;
                                    let fix = replace_text(
                                        self.file,
                                        at,
                                        current,
                                        h,
                                        Applicability::Unsafe,
                                    );
                                    DidYouMean::fixed_by(h, fix)
                                }),
                                format!("choose one: `{title}: {}`", values.join("`, `")),
                            );
                        self.push(d);
                    }
                }
                None if label == "network rationale" => {
                    let needs_reason = meta.network.as_ref().is_some_and(|(n, _)| n == "allowlist");
                    let lower = value.trim().trim_end_matches('.').to_ascii_lowercase();
                    let says_nothing = lower.is_empty()
                        || matches!(
                            lower.as_str(),
                            "none"
                                | "n/a"
                                | "na"
                                | "-"
                                | "no"
                                | "not needed"
                                | "none needed"
                                | "tbd"
                                | "todo"
                        );
                    if needs_reason && says_nothing {
                        let span = if f.value.is_empty() { f.line } else { f.value };
                        let mut d = self
                            .diag(&rules::INCOMPLETE_RISK_ASSESSMENT, span, "`Network rationale` must say why network access is needed (`network: allowlist`)")
                            .label("no reason given")
                            .help("say which hosts the run reaches and why, or set `network: none`");
                        if let Some((_, nspan)) = &meta.network {
                            d = d.related(self.file, *nspan, "network access requested here");
                        }
                        self.push(d);
                    }
                }
                None => {
                    if value.trim().is_empty() {
                        let d = self
                            .diag(
                                &rules::INCOMPLETE_RISK_ASSESSMENT,
                                f.line,
                                format!("`{title}:` is empty"),
                            )
                            .label("no text after the colon")
                            .help(format!(
                                "say in a sentence why this run is safe: `{title}: …`"
                            ));
                        self.push(d);
                    }
                }
            }
        }
    }
}

/// One `Label: value` line of the risk assessment.
struct RiskField {
    /// The label, lower-case (`risk level`).
    label: String,
    line: Span,
    value: Span,
}

fn risk_fields(text: &str, region: Span) -> Vec<RiskField> {
    let mut out = Vec::new();
    for (span, line) in lines_in(text, region) {
        let mut rest = line.trim_start();
        for marker in ["- ", "* ", "+ "] {
            if let Some(r) = rest.strip_prefix(marker) {
                rest = r.trim_start();
            }
        }
        let rest = rest.trim_start_matches(['*', '_']);
        let Some(colon) = rest.find(':') else {
            continue;
        };
        let label = rest[..colon]
            .trim()
            .trim_end_matches(['*', '_'])
            .trim()
            .to_ascii_lowercase();
        let after = &rest[colon + 1..];
        let after = after.trim_start_matches(['*', '_']);
        let value = after.trim();
        let value_start = line.len() - after.len() + (after.len() - after.trim_start().len());
        let value_end = value_start + value.trim_end_matches(['*', '_']).len();
        out.push(RiskField {
            label,
            line: span,
            value: span.sub(value_start.min(line.len()), value_end.min(line.len())),
        });
    }
    out
}

fn title_case(label: &str) -> String {
    let mut chars = label.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}
