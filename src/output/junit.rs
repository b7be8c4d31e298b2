//! `--format junit`: JUnit XML for CI systems that show test reports. One `testsuite` per
//! source format, one `testcase` per file checked (passing files too, so the counts mean
//! something), one `failure` per diagnostic in that file.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// Render the report of `files` (every file checked) and their `diagnostics`.
pub(crate) fn render(
    files: &[Arc<SourceFile>],
    diagnostics: &[Diagnostic],
    suppressed: &[Diagnostic],
    baselined: &[Diagnostic],
) -> String {
    // format → path → diagnostics; files without findings are passing test cases. A
    // diagnostic in a file that was not in the list (the configuration) gets its own case.
    let mut suites: BTreeMap<&str, BTreeMap<&str, Vec<&Diagnostic>>> = BTreeMap::new();
    for f in files {
        suites
            .entry(f.format.as_str())
            .or_default()
            .entry(f.display())
            .or_default();
    }
    let format_of: HashMap<&Path, &str> = files
        .iter()
        .map(|f| (f.path.as_path(), f.format.as_str()))
        .collect();
    for d in diagnostics {
        let format = format_of
            .get(d.file.path.as_path())
            .copied()
            .unwrap_or(d.file.format.as_str());
        suites
            .entry(format)
            .or_default()
            .entry(d.file.display())
            .or_default()
            .push(d);
    }

    // What was hidden, per suite: a suite's properties say how many of its findings the
    // baseline and suppression comments kept out of its failures.
    let mut hidden: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let suite_of = |d: &Diagnostic| {
        format_of
            .get(d.file.path.as_path())
            .copied()
            .unwrap_or(d.file.format.as_str())
    };
    // A line standing for findings past the cap hides as many as it counts.
    for d in suppressed {
        hidden.entry(suite_of(d)).or_default().0 += d.omitted.max(1);
    }
    for d in baselined {
        hidden.entry(suite_of(d)).or_default().1 += d.omitted.max(1);
    }
    for format in hidden.keys() {
        suites.entry(format).or_default();
    }
    let tests: usize = suites.values().map(BTreeMap::len).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"toolc\" tests=\"{tests}\" failures=\"{}\" errors=\"0\">",
        diagnostics.len()
    );
    for (format, cases) in &suites {
        let failures: usize = cases.values().map(Vec::len).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
            escape(format),
            cases.len()
        );
        if let Some((by_comments, by_baseline)) = hidden.get(format) {
            let _ = writeln!(
                out,
                "    <properties>\n      <property name=\"toolc.suppressed\" value=\"{by_comments}\"/>\n      <property name=\"toolc.baselined\" value=\"{by_baseline}\"/>\n    </properties>"
            );
        }
        for (path, diags) in cases {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\"",
                escape(path),
                escape(format),
                escape(path)
            );
            if diags.is_empty() {
                out.push_str("/>\n");
                continue;
            }
            out.push_str(">\n");
            for d in diags {
                // Masked a finding at a time: one that quotes a credential copied them all.
                let d = &*super::masked::masked_one(d);
                let start = d.file.position(d.span.start);
                let mut body = format!(
                    "{}:{}:{}: {}[{}] {}",
                    d.file.display(),
                    start.line,
                    start.column,
                    d.severity,
                    d.rule.code,
                    d.message
                );
                for r in &d.related {
                    let p = r.file.position(r.span.start);
                    let _ = write!(
                        body,
                        "\n  {}:{}:{}: {}",
                        r.file.display(),
                        p.line,
                        p.column,
                        r.message
                    );
                }
                if let Some(help) = &d.help {
                    let _ = write!(body, "\nhelp: {help}");
                }
                let _ = writeln!(
                    out,
                    "      <failure type=\"{} {}\" message=\"{}\">{}</failure>",
                    escape(d.rule.code),
                    escape(d.rule.name),
                    escape(&format!("{}: {}", d.severity, d.message)),
                    escape(&body)
                );
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Escape text for an XML attribute or element. Characters XML 1.0 cannot carry at all (most
/// control characters), even as references, become U+FFFD; line ends are written as
/// references so attribute values keep them. C1 controls, line separators, invisible and
/// bidirectional characters are spelt out (`\u{202e}`), as in every other output: a test
/// report shown as a web page would obey them.
pub(crate) fn escape(text: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || matches!(c, '\u{FFFE}' | '\u{FFFF}') => out.push('\u{FFFD}'),
            c if crate::diagnostics::shown(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            escape("a<b>&\"c'\n\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&apos;&#10;\u{FFFD}"
        );
        assert_eq!(
            escape("a\u{202e}b\u{2028}c\u{85}d\u{200b}e"),
            "a\\u{202e}b\\u{2028}c\\u{85}d\\u{200b}e"
        );
    }
}
