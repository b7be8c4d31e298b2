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

/// What is wrong with part of the value, by byte offsets into it. Its message is made only
/// for the problems that are shown: a value of a million bad entries held a message each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Problem {
    /// Start of the offending text.
    pub start: usize,
    /// End of the offending text.
    pub end: usize,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Unmatched,
    Comma,
    Unclosed,
    NoName,
    NotName,
    EmptyPattern,
    AfterClose,
}

impl Problem {
    /// What is wrong, in `value` (the value it was found in).
    pub(super) fn message(&self, value: &str) -> String {
        let entry = value.get(self.start..self.end).unwrap_or_default();
        match self.kind {
            Kind::Unmatched => "`)` closes no `(`".into(),
            Kind::Comma => "entries of `allowed-tools` are separated by spaces, not commas".into(),
            Kind::Unclosed => {
                "`(` is never closed: the rest of the value is read as its pattern".into()
            }
            Kind::NoName => format!("`{entry}` has a pattern but no tool name"),
            Kind::NotName => {
                let name = entry.split_once('(').map_or(entry, |(name, _)| name);
                format!("`{name}` is not a tool name (letters, digits, `_`, `-`, `.`, `:`, `*`)")
            }
            Kind::EmptyPattern => format!("`{entry}` has an empty pattern"),
            Kind::AfterClose => format!("`{entry}` has text after its closing parenthesis"),
        }
    }

    /// True for the commas between entries (one problem, fixed by a rewrite of the value).
    pub(super) fn is_comma(&self) -> bool {
        self.kind == Kind::Comma
    }

    /// Short text under it.
    pub(super) fn label(&self) -> &'static str {
        match self.kind {
            Kind::Unmatched => "unmatched parenthesis",
            Kind::Comma => "comma",
            Kind::Unclosed => "unclosed parenthesis",
            Kind::NoName => "no tool name",
            Kind::NotName => "not a tool name",
            Kind::EmptyPattern => "empty pattern",
            Kind::AfterClose => "text after `)`",
        }
    }
}

/// What is wrong with the entries of `value`, in order. Commas between entries are one
/// problem (the first comma), since a fix replaces them all.
pub(super) fn parse(value: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    scan(value, &mut problems, |_| {});
    // An entry's problem is found where it ends, after the parentheses inside it.
    problems.sort_by_key(|p| p.start);
    problems
}

/// The entries of `value`.
#[cfg(test)]
pub(super) fn entries(value: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    scan(value, &mut Vec::new(), |e| entries.push(e));
    entries
}

/// Read `value`: each entry to `entry` as it ends, each problem into `problems`.
fn scan(value: &str, problems: &mut Vec<Problem>, mut entry: impl FnMut(Entry)) {
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let mut open_at = 0;
    let mut comma_reported = false;
    let problem = |start, end, kind| Problem { start, end, kind };
    let mut ended = |start: usize, end: usize, problems: &mut Vec<Problem>| {
        if let Some(kind) = entry_problem(&value[start..end]) {
            problems.push(problem(start, end, kind));
        }
        entry(Entry { start, end });
    };
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
                problems.push(problem(i, i + 1, Kind::Unmatched));
                start.get_or_insert(i);
            }
            ')' => {
                depth -= 1;
            }
            ',' if depth == 0 => {
                if !comma_reported {
                    comma_reported = true;
                    problems.push(problem(i, i + 1, Kind::Comma));
                }
                if let Some(s) = start.take() {
                    ended(s, i, problems);
                }
            }
            c if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    ended(s, i, problems);
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if depth > 0 {
        problems.push(problem(open_at, open_at + 1, Kind::Unclosed));
    }
    if let Some(s) = start {
        ended(s, value.len(), problems);
    }
}

/// What is wrong with one entry.
fn entry_problem(entry: &str) -> Option<Kind> {
    if entry.contains(')') && !entry.contains('(') {
        return None; // Reported as an unmatched parenthesis.
    }
    let (name, rest) = entry.split_once('(').unwrap_or((entry, ""));
    if name.is_empty() {
        return Some(Kind::NoName);
    }
    if !is_tool_name(name) {
        return Some(Kind::NotName);
    }
    if entry.contains('(') {
        // `rest` is `pattern)` plus whatever follows the closing parenthesis.
        let close = rest.rfind(')')?; // None: reported as an unclosed parenthesis.
        if rest[..close].trim().is_empty() {
            return Some(Kind::EmptyPattern);
        }
        if close + 1 < rest.len() {
            return Some(Kind::AfterClose);
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

    fn entries_of(value: &str) -> Vec<&str> {
        entries(value)
            .iter()
            .map(|e| &value[e.start..e.end])
            .collect()
    }

    fn problems(value: &str) -> Vec<(&str, &'static str)> {
        parse(value)
            .iter()
            .map(|p| (&value[p.start..p.end], p.label()))
            .collect()
    }

    #[test]
    fn spaces_inside_a_pattern_do_not_split_entries() {
        let v = "Bash(git diff *) Read  mcp__github__create_issue WebFetch(domain:x.com)";
        assert_eq!(
            entries_of(v),
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
        let messages: Vec<String> = ["Read)", "(x)", "Re/ad(x)", "Bash()", "Bash(x)y"]
            .iter()
            .map(|v| parse(v)[0].message(v))
            .collect();
        assert_eq!(
            messages,
            [
                "`)` closes no `(`",
                "`(x)` has a pattern but no tool name",
                "`Re/ad` is not a tool name (letters, digits, `_`, `-`, `.`, `:`, `*`)",
                "`Bash()` has an empty pattern",
                "`Bash(x)y` has text after its closing parenthesis",
            ]
        );
    }
}
