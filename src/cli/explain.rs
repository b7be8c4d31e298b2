//! `toolc explain RULE`: the rule's page as a person reads it. The front matter (which the
//! documentation build and the page tests read: the emitting files, how the example runs) is
//! replaced by one header line: code, name, level, formats, since.

use std::process::ExitCode;

use super::{print, usage_error};
use crate::rules;

/// Run `toolc explain`.
pub(super) fn run(query: &str) -> ExitCode {
    let Some(rule) = rules::lookup(query) else {
        let hint = crate::analysis::names::did_you_mean(
            query,
            rules::all().iter().flat_map(|r| [r.code, r.name]),
        );
        let extra = hint
            .map(|h| format!("; did you mean `{h}`?"))
            .unwrap_or_default();
        return usage_error(&format!("no rule `{query}`{extra} (see `toolc rules`)"));
    };
    match rules::page(rule) {
        Some(page) => print(&for_humans(page)),
        None => usage_error(&format!("rule {} has no documentation page", rule.code)),
    }
}

/// `page` with its front matter turned into a header line.
pub(super) fn for_humans(page: &str) -> String {
    let Some(rest) = page.strip_prefix("---\n") else {
        return page.to_string();
    };
    let Some((front, body)) = rest.split_once("\n---\n") else {
        return page.to_string();
    };
    let field = |key: &str| {
        front.lines().find_map(|l| {
            l.strip_prefix(key)
                .and_then(|v| v.strip_prefix(':'))
                .map(str::trim)
        })
    };
    let mut header = Vec::new();
    for key in ["code", "name", "severity"] {
        if let Some(v) = field(key) {
            header.push(v.to_string());
        }
    }
    if let Some(formats) = field("formats") {
        let list = formats.trim_start_matches('[').trim_end_matches(']').trim();
        header.push(if list == "all" {
            "every format".to_string()
        } else {
            format!("formats: {list}")
        });
    }
    if let Some(since) = field("since") {
        header.push(format!("since {since}"));
    }
    format!(
        "{}\n\n{}",
        header.join(" · "),
        body.trim_start_matches('\n')
    )
}

#[cfg(test)]
mod tests {
    use super::for_humans;

    #[test]
    fn the_front_matter_becomes_one_line() {
        let page = "---\ncode: X001\nname: a-rule\nseverity: error\nformats: [tool-md, cycod-tool]\nsince: 0.1.0\nsource: src/x.rs\nexample: lock\n---\n\n# a-rule (X001)\n\nText.\n";
        assert_eq!(
            for_humans(page),
            "X001 · a-rule · error · formats: tool-md, cycod-tool · since 0.1.0\n\n# a-rule (X001)\n\nText.\n"
        );
        assert_eq!(for_humans("# no front matter\n"), "# no front matter\n");
    }
}
