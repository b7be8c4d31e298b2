//! Variable references inside strings: `${…}` as clients expand them in a configuration
//! (`${input:token}`, `${env:HOME}`, `${API_KEY:-none}`), and `{name}` as `server.json`
//! writes a variable the client fills in.

/// A reference in a string, by byte offsets into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reference<'s> {
    /// Offset of the `$` (or of `{` for a `server.json` variable).
    pub start: usize,
    /// Offset after the closing `}`.
    pub end: usize,
    /// What is between the braces.
    pub body: &'s str,
}

impl Reference<'_> {
    /// The reference as written.
    pub(super) fn text<'a>(&self, s: &'a str) -> &'a str {
        &s[self.start..self.end]
    }
}

/// The `${…}` references of `s`, outermost only (`${A:-${B}}` is one); an unclosed `${` ends
/// the scan.
pub(super) fn dollar_references(s: &str) -> Vec<Reference<'_>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = s[i..].find("${").map(|p| p + i) {
        let mut depth = 0usize;
        let mut close = None;
        for (j, c) in b.iter().enumerate().skip(at + 1) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        close = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { break };
        out.push(Reference {
            start: at,
            end: close + 1,
            body: &s[at + 2..close],
        });
        i = close + 1;
    }
    out
}

/// The `{name}` variables of `s` as `server.json` writes them (any text without braces
/// between `{` and `}`, as the registry reads them), leaving `${…}` alone.
pub(super) fn brace_variables(s: &str) -> Vec<Reference<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = s[i..].find('{').map(|p| p + i) {
        let Some(len) = s[at + 1..].find(['{', '}']) else {
            break;
        };
        let close = at + 1 + len;
        if s.as_bytes()[close] == b'}' && len > 0 && !s[..at].ends_with('$') {
            out.push(Reference {
                start: at,
                end: close + 1,
                body: &s[at + 1..close],
            });
        }
        i = close.max(at + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollar_references_nest_and_stop_at_an_unclosed_one() {
        let s = "a ${input:x} b ${A:-${B}} c ${unclosed";
        let found: Vec<&str> = dollar_references(s).iter().map(|r| r.body).collect();
        assert_eq!(found, ["input:x", "A:-${B}"]);
        assert_eq!(dollar_references("${x}")[0].text("${x}"), "${x}");
        assert!(dollar_references("$HOME {x}").is_empty());
    }

    #[test]
    fn brace_variables_skip_dollar_references() {
        let s = "https://{host}:{port}/mcp?a=${env:X}";
        let found: Vec<&str> = brace_variables(s).iter().map(|r| r.body).collect();
        assert_eq!(found, ["host", "port"]);
        assert!(brace_variables("{}").is_empty());
        assert!(brace_variables("{{a}").iter().all(|r| r.body == "a"));
    }
}
