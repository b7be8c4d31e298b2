//! `--format markdown`: a summary to post as a pull-request or merge-request comment (or a
//! job summary): the verdict, a table of rules, and the findings in a folded list.
//!
//! A comment has a size limit (65,536 characters on GitHub), so the list stops after
//! [`MAX_LISTED`] findings and says how many more there are; the counts are always complete.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::diagnostics::{Diagnostic, Summary, visible};
use crate::rules::{self, Severity};

/// Findings listed one by one; the rest are only counted.
pub(crate) const MAX_LISTED: usize = 100;

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Text for one table cell: on one line, control characters shown, nothing the repository
/// wrote rendered as a link, an image or HTML (see [`super::md_inline`]).
fn cell(text: &str) -> String {
    crate::diagnostics::md_inline::cell(text)
}

/// A path for a code span of a table cell: on one line, pipes escaped, no backtick.
fn code_cell(text: &str) -> String {
    visible(text).replace('|', "\\|").replace('`', "'")
}

/// Render the summary of `diagnostics`; hidden findings (baseline, suppression comments) are
/// only counted.
pub(crate) fn render(diagnostics: &[Diagnostic], summary: &Summary) -> String {
    let mut out = String::from("## toolc\n\n");
    let checked = format!(
        "{}, {}",
        plural(summary.files, "file"),
        plural(summary.tools, "tool")
    );
    if diagnostics.is_empty() {
        let _ = writeln!(out, "✅ No problems in {checked}.");
    } else {
        let mark = if summary.errors > 0 { "❌" } else { "⚠️" };
        let mut found = vec![
            plural(summary.errors, "error"),
            plural(summary.warnings, "warning"),
        ];
        if summary.infos > 0 {
            found.push(plural(summary.infos, "info"));
        }
        let _ = writeln!(out, "{mark} {} in {checked}.", found.join(", "));
    }
    for line in [summary.hidden_line(), summary.fewer_shown_line()]
        .into_iter()
        .flatten()
    {
        let _ = writeln!(out, "\n{line}");
    }
    if diagnostics.is_empty() {
        return out;
    }

    // Worst first, then the most frequent.
    let mut by_rule: BTreeMap<(Severity, &str), (usize, &Diagnostic)> = BTreeMap::new();
    for d in diagnostics {
        by_rule.entry((d.severity, d.rule.code)).or_insert((0, d)).0 += 1;
    }
    let mut rows: Vec<_> = by_rule.into_iter().collect();
    rows.sort_by(|((sa, ca), (na, _)), ((sb, cb), (nb, _))| {
        sb.cmp(sa).then(nb.cmp(na)).then(ca.cmp(cb))
    });
    out.push_str("\n| rule | name | severity | count |\n|---|---|---|---:|\n");
    for ((severity, code), (count, d)) in &rows {
        // A custom rule's name is the repository's text: `deadbeef` would link a commit.
        let _ = writeln!(
            out,
            "| [`{code}`]({}) | {} | {severity} | {count} |",
            rules::page_url(d.rule),
            cell(d.rule.name)
        );
    }

    let _ = write!(
        out,
        "\n<details><summary>{}</summary>\n\n| location | rule | message |\n|---|---|---|\n",
        plural(diagnostics.len(), "finding")
    );
    let mut listed: Vec<&Diagnostic> = diagnostics.iter().collect();
    listed.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(a.sort_key().cmp(&b.sort_key()))
    });
    for d in listed.iter().take(MAX_LISTED) {
        // Only what is listed shows a message, so only that is masked.
        let d = &*super::masked::masked_one(d);
        let at = d.file.position(d.span.start);
        let mut message = cell(&d.message);
        if let Some(help) = &d.help {
            let _ = write!(message, "<br>help: {}", cell(help));
        }
        let _ = writeln!(
            out,
            "| `{}:{}:{}` | {} `{}` | {message} |",
            code_cell(d.file.display()),
            at.line,
            at.column,
            d.severity,
            d.rule.code
        );
    }
    if diagnostics.len() > MAX_LISTED {
        let more = diagnostics.len() - MAX_LISTED;
        let noun = if more == 1 { "finding" } else { "findings" };
        let _ = writeln!(
            out,
            "\n…and {more} more {noun}: run `toolc check` for all of them."
        );
    }
    out.push_str("\n</details>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn toolc_own_rule_names_are_shown_as_they_are() {
        for rule in crate::rules::builtin() {
            assert_eq!(cell(rule.name), rule.name);
        }
        // A repository's own rule may be named like a commit.
        assert_eq!(cell("deadbeef"), "`deadbeef`");
    }
}
