//! `allowed-tools`: a space-separated list of entries, each a tool name (`Read`,
//! `mcp__github__create_issue`) optionally followed by a pattern in parentheses
//! (`Bash(git diff *)`), in which spaces do not separate entries.

/// One entry of the list, by byte offsets into the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    /// Start of the entry.
    pub start: usize,
    /// End of the entry.
    pub end: usize,
}

/// What is wrong with part of the value, by byte offsets into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Problem {
    /// Start of the offending text.
    pub start: usize,
    /// End of the offending text.
    pub end: usize,
    /// What is wrong.
    pub message: String,
    /// Short text under it.
    pub label: &'static str,
}

/// The entries of `value` and what is wrong with them. Commas between entries are one
/// problem (the first comma), since a fix replaces them all.
pub(super) fn parse(value: &str) -> (Vec<Entry>, Vec<Problem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let mut open_at = 0;
    let mut comma_reported = false;
    for (i, c) in value.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    open_at = i;
                }
                depth += 1;
                start.get_or_insert(i);
            }
            ')' if depth == 0 => {
                problems.push(Problem {
                    start: i,
                    end: i + 1,
                    message: "`)` closes no `(`".into(),
                    label: "unmatched parenthesis",
                });
                start.get_or_insert(i);
            }
            ')' => {
                depth -= 1;
            }
            ',' if depth == 0 => {
                if !comma_reported {
                    comma_reported = true;
                    problems.push(Problem {
                        start: i,
                        end: i + 1,
                        message: "entries of `allowed-tools` are separated by spaces, not commas"
                            .into(),
                        label: "comma",
                    });
                }
                if let Some(s) = start.take() {
                    entries.push(Entry { start: s, end: i });
                }
            }
            c if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    entries.push(Entry { start: s, end: i });
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if depth > 0 {
        problems.push(Problem {
            start: open_at,
            end: open_at + 1,
            message: "`(` is never closed: the rest of the value is read as its pattern".into(),
            label: "unclosed parenthesis",
        });
    }
    if let Some(s) = start {
        entries.push(Entry {
            start: s,
            end: value.len(),
        });
    }
    for e in &entries {
        if let Some(p) = entry_problem(&value[e.start..e.end]) {
            problems.push(Problem {
                start: e.start,
                end: e.end,
                ..p
            });
        }
    }
    problems.sort_by_key(|p| p.start);
    (entries, problems)
}

/// What is wrong with one entry (offsets left at zero for the caller to fill in).
fn entry_problem(entry: &str) -> Option<Problem> {
    let problem = |message: String, label| {
        Some(Problem {
            start: 0,
            end: 0,
            message,
            label,
        })
    };
    if entry.contains(')') && !entry.contains('(') {
        return None; // Reported as an unmatched parenthesis.
    }
    let (name, rest) = entry.split_once('(').unwrap_or((entry, ""));
    if name.is_empty() {
        return problem(
            format!("`{entry}` has a pattern but no tool name"),
            "no tool name",
        );
    }
    if !is_tool_name(name) {
        return problem(
            format!("`{name}` is not a tool name (letters, digits, `_`, `-`, `.`, `:`, `*`)"),
            "not a tool name",
        );
    }
    if entry.contains('(') {
        // `rest` is `pattern)` plus whatever follows the closing parenthesis.
        let Some(close) = rest.rfind(')') else {
            return None; // Reported as an unclosed parenthesis.
        };
        if rest[..close].trim().is_empty() {
            return problem(format!("`{entry}` has an empty pattern"), "empty pattern");
        }
        if close + 1 < rest.len() {
            return problem(
                format!("`{entry}` has text after its closing parenthesis"),
                "text after `)`",
            );
        }
    }
    None
}

/// `Read`, `WebFetch`, `mcp__server__tool`, `mcp__server__*`.
fn is_tool_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '*')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '*'))
}

/// `value` with every comma between entries replaced by a space (or dropped before one).
pub(super) fn without_commas(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut depth = 0usize;
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                if !chars.peek().is_some_and(|n| n.is_whitespace()) {
                    out.push(' ');
                }
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(value: &str) -> Vec<&str> {
        parse(value)
            .0
            .iter()
            .map(|e| &value[e.start..e.end])
            .collect()
    }

    fn problems(value: &str) -> Vec<(&str, &'static str)> {
        parse(value)
            .1
            .iter()
            .map(|p| (&value[p.start..p.end], p.label))
            .collect()
    }

    #[test]
    fn spaces_inside_a_pattern_do_not_split_entries() {
        let v = "Bash(git diff *) Read  mcp__github__create_issue WebFetch(domain:x.com)";
        assert_eq!(
            entries(v),
            [
                "Bash(git diff *)",
                "Read",
                "mcp__github__create_issue",
                "WebFetch(domain:x.com)"
            ]
        );
        assert!(problems(v).is_empty());
        assert!(problems("Bash(git:*) Bash(jq:*) Read").is_empty());
    }

    #[test]
    fn malformed_entries() {
        assert_eq!(problems("Read, Grep,Glob"), [(",", "comma")]);
        assert_eq!(without_commas("Read, Grep,Glob"), "Read Grep Glob");
        assert_eq!(without_commas("Bash(a,b), Read"), "Bash(a,b) Read");
        assert_eq!(problems("Bash(git:* Read"), [("(", "unclosed parenthesis")]);
        assert_eq!(problems("Read)"), [(")", "unmatched parenthesis")]);
        assert_eq!(problems("Bash()"), [("Bash()", "empty pattern")]);
        assert_eq!(problems("(x)"), [("(x)", "no tool name")]);
        assert_eq!(problems("Bash(x)y"), [("Bash(x)y", "text after `)`")]);
        assert_eq!(problems("Read/Write"), [("Read/Write", "not a tool name")]);
    }
}
