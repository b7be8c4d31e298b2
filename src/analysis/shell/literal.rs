//! Shell syntax in a command line that is run without a shell: split on whitespace and handed
//! to the program word for word (Node's `execFileSync`, Go's `exec.Command`). Every operator,
//! quote, expansion and glob then reaches the program as a literal argument.

use super::{OpKind, operators, words};

/// What a shell would have done with a piece of a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShellMeaning {
    /// An operator (`|`, `||`, `;`, `>`, `2>&1`, `$(`…).
    Operator(OpKind),
    /// A quote, which a shell removes and which keeps words together.
    Quote,
    /// A variable or home-folder expansion (`$HOME`, `${X}`, `~/`).
    Expansion,
    /// A file-name pattern a shell expands (`*.yml`, `file?.txt`).
    Glob,
}

impl ShellMeaning {
    /// What it is, for a message (`redirection`, `a glob`).
    pub(crate) fn what(self) -> &'static str {
        match self {
            ShellMeaning::Operator(op) => op.what(),
            ShellMeaning::Quote => "quoting",
            ShellMeaning::Expansion => "variable expansion",
            ShellMeaning::Glob => "a glob",
        }
    }
}

/// A piece of shell syntax, on its exact characters.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ShellSyntax {
    /// Byte offset of its first character.
    pub start: usize,
    /// Its characters (`2>&1`, `*.yml`, `$HOME`).
    pub text: String,
    /// What a shell would do with it.
    pub meaning: ShellMeaning,
}

/// Every piece of shell syntax in `line`, in order, that a program run without a shell would
/// receive as literal text: operators on their characters, the first quote of a word, an
/// expansion, and a word (not a `-flag`, not a URL) holding `*` or `?`.
pub(crate) fn shell_syntax(line: &str) -> Vec<ShellSyntax> {
    let mut out: Vec<ShellSyntax> = operators(line)
        .into_iter()
        .map(|op| {
            // `2>&1`: the descriptor a duplication names is part of what the program receives.
            let mut end = op.end;
            if op.text.ends_with('&') {
                end += line[end..]
                    .find(|c: char| !(c.is_ascii_digit() || c == '-'))
                    .unwrap_or(line.len() - end);
            }
            piece(
                op.start,
                &line[op.start..end],
                ShellMeaning::Operator(op.kind),
            )
        })
        .collect();
    for (at, word) in words(line) {
        if let Some(q) = word.find(['"', '\'']) {
            out.push(piece(at + q, &word[q..=q], ShellMeaning::Quote));
        }
        if let Some(e) = expansion(word) {
            out.push(piece(at + e.0, e.1, ShellMeaning::Expansion));
        }
        if !word.starts_with('-') && !word.contains("://") && word.contains(['*', '?']) {
            out.push(piece(at, word, ShellMeaning::Glob));
        }
    }
    // An operator's characters are not a word's glob or quote too.
    out.sort_by_key(|s| s.start);
    out.dedup_by(|later, first| later.start < first.start + first.text.len());
    out
}

fn piece(start: usize, text: &str, meaning: ShellMeaning) -> ShellSyntax {
    ShellSyntax {
        start,
        text: text.to_string(),
        meaning,
    }
}

/// The first expansion in `word`, with its offset: `~` or `~/…` at its start, `$NAME`, `$1`
/// or `${…}` anywhere (`$(` is an operator).
fn expansion(word: &str) -> Option<(usize, &str)> {
    if word == "~" || word.starts_with("~/") {
        return Some((0, "~"));
    }
    let b = word.as_bytes();
    let at = (0..b.len()).find(|&i| {
        b[i] == b'$'
            && b.get(i + 1)
                .is_some_and(|c| *c == b'{' || *c == b'_' || c.is_ascii_alphanumeric())
    })?;
    let end = if b.get(at + 1) == Some(&b'{') {
        word[at..].find('}').map_or(word.len(), |e| at + e + 1)
    } else {
        at + 1
            + word[at + 1..]
                .find(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
                .unwrap_or(word.len() - at - 1)
    };
    Some((at, &word[at..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(line: &str) -> Vec<(usize, String, ShellMeaning)> {
        shell_syntax(line)
            .into_iter()
            .map(|s| (s.start, s.text, s.meaning))
            .collect()
    }

    #[test]
    fn operators_globs_and_quotes_in_order() {
        let line = "actionlint .github/workflows/*.yml 2>&1 || true";
        assert_eq!(
            found(line),
            [
                (11, ".github/workflows/*.yml".into(), ShellMeaning::Glob),
                (35, "2>&1".into(), ShellMeaning::Operator(OpKind::Redirect)),
                (40, "||".into(), ShellMeaning::Operator(OpKind::Chain)),
            ]
        );
        assert_eq!(
            found("yamllint -d '{extends: relaxed}' $HOME/x ~/y ${A}b"),
            [
                (12, "'".into(), ShellMeaning::Quote),
                (31, "'".into(), ShellMeaning::Quote),
                (33, "$HOME".into(), ShellMeaning::Expansion),
                (41, "~".into(), ShellMeaning::Expansion),
                (45, "${A}".into(), ShellMeaning::Expansion),
            ]
        );
    }

    #[test]
    fn plain_commands_and_placeholders_are_not_shell_syntax() {
        for line in [
            "kubectl apply --dry-run=client -f {entryFile}",
            "terraform init -backend=false -input=false",
            "helm lint .",
            "checkov --framework=*.tf -d https://x.example/a?b=1",
        ] {
            assert_eq!(found(line), [], "{line}");
        }
    }
}
