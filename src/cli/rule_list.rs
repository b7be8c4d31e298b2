//! `toolc rules`: the rule list, filtered by family, name or format, as text that fits the
//! terminal, JSON, or the whole reference as Markdown.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{print, usage_error};
use crate::rules::{self, Rule};
use crate::source::FormatId;

/// `toolc rules` prints a list, not diagnostics.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ListFormat {
    Human,
    Json,
    /// The whole rule reference (index and every page) as one Markdown document
    Markdown,
}

/// `toolc rules` arguments.
#[derive(Args)]
pub(super) struct RulesArgs {
    /// Only these rules: codes, names or code prefixes (a family: `SEC`, `DOJ`), as `--select`
    /// takes them
    selectors: Vec<String>,
    /// Only the rules that check files of this format (e.g. `cycod-tool`), with the rules of
    /// every format
    #[arg(long = "for", value_name = "FORMAT")]
    for_format: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    format: ListFormat,
}

/// Run `toolc rules`.
pub(super) fn run(args: &RulesArgs) -> ExitCode {
    if let Some(s) = args.selectors.iter().find(|s| !rules::selector_is_known(s)) {
        return usage_error(&rules::unknown_selector(s));
    }
    if let Some(f) = &args.for_format
        && FormatId::from_config_name(f).is_none()
    {
        return usage_error(&format!(
            "`{f}` is not a format; known formats: {}",
            FormatId::CONFIGURABLE.join(", ")
        ));
    }
    let listed: Vec<&'static Rule> = rules::all()
        .into_iter()
        .filter(|r| {
            args.selectors.is_empty()
                || args.selectors.iter().any(|s| rules::selector_matches(s, r))
        })
        .filter(|r| {
            args.for_format
                .as_ref()
                .is_none_or(|f| r.formats.is_empty() || r.formats.contains(&f.as_str()))
        })
        .collect();
    match args.format {
        ListFormat::Markdown => print(&rules::reference_markdown()),
        ListFormat::Json => {
            let list: Vec<_> = listed
                .iter()
                .map(|r| serde_json::json!({"code": r.code, "name": r.name, "severity": r.severity.as_str(), "preview": r.preview, "formats": r.formats, "summary": r.summary}))
                .collect();
            let mut text = serde_json::to_string_pretty(&list).unwrap_or_default();
            text.push('\n');
            print(&text)
        }
        ListFormat::Human => {
            let stdout = console::Term::stdout();
            let width = std::io::stdout()
                .is_terminal()
                .then(|| stdout.size_checked().map(|(_, w)| usize::from(w)))
                .flatten();
            // With `--for`, what toolc knows of the runtimes that load that format.
            let known = args
                .for_format
                .as_deref()
                .map(crate::runtimes::history_text)
                .unwrap_or_default();
            print(&format!("{}{known}", human(&listed, width)))
        }
    }
}

/// One rule a line: code, name, severity, then the summary and the formats it checks,
/// wrapped under itself at `width` (a terminal's); unwrapped for a pipe, so each rule stays
/// one line for `grep`.
fn human(listed: &[&Rule], width: Option<usize>) -> String {
    let name_width = listed.iter().map(|r| r.name.len()).max().unwrap_or(0);
    // Custom codes may have four or five letters: the column is as wide as the longest.
    let code_width = listed.iter().map(|r| r.code.len()).max().unwrap_or(0);
    let indent = code_width + 2 + name_width + 2 + 7 + 2;
    let mut text = String::new();
    for r in listed {
        let formats = if r.formats.is_empty() {
            "all formats".to_string()
        } else {
            r.formats.join(", ")
        };
        let preview = if r.preview { " (preview)" } else { "" };
        let summary = format!("{} ({formats}){preview}", r.summary);
        text.push_str(&format!(
            "{:<code_width$}  {:<name_width$}  {:<7}  ",
            r.code,
            r.name,
            r.severity.as_str()
        ));
        // Too narrow a column to be worth wrapping into: one long line instead.
        let room = width.map(|w| w.saturating_sub(indent)).filter(|&w| w >= 20);
        match room {
            Some(room) => {
                for (i, line) in wrap(&summary, room).iter().enumerate() {
                    if i > 0 {
                        text.push_str(&" ".repeat(indent));
                    }
                    text.push_str(line);
                    text.push('\n');
                }
            }
            None => {
                text.push_str(&summary);
                text.push('\n');
            }
        }
    }
    text
}

/// `text` in lines of at most `width` characters, broken at spaces (a longer word stands
/// alone on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_fit_the_width_and_continue_under_the_summary() {
        let all = rules::all();
        let text = human(&all, Some(100));
        for line in text.lines() {
            assert!(line.chars().count() <= 100, "{line}");
        }
        let unwrapped = human(&all, None);
        assert_eq!(unwrapped.lines().count(), all.len());
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh x", 3), ["abcdefgh", "x"]);
    }
}
