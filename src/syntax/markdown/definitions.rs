//! Link reference definitions across the pieces of a body. A body is parsed a piece at a
//! time (`super::pieces`), and pulldown-cmark resolves a reference link only against the
//! definitions of its own piece: a `SKILL.md` of 3,000 links `[x][refN]` to missing files,
//! defined at its end, got no finding for any of them. The definitions of every piece are
//! gathered first, and a link its own piece does not define is resolved against them.

use std::collections::HashMap;

use compact_str::CompactString;
use pulldown_cmark::{BrokenLink, CowStr, Options, Parser};

use super::{dest_in, pieces};
use crate::source::Span;

/// The most definitions kept: each takes about 64 bytes here, and is at least five of its
/// file (`[a]:b`), so a body of nothing else stays within its size ten times over.
const MAX_KEPT: usize = 1_000_000;

/// Every piece's definitions, by label (lowercase, as pulldown-cmark matches them): the first
/// of a label wins, as CommonMark has it, for a link whose own piece does not define the
/// label (one that does is resolved by pulldown-cmark, against its own).
#[derive(Default)]
pub(super) struct Definitions(HashMap<CompactString, Definition>);

/// Where a definition sends, and where its destination is written in the file.
pub(super) struct Definition {
    dest: CompactString,
    /// The destination's place in the file.
    pub span: Span,
}

impl Definitions {
    /// The definitions of `body` (which starts at `body_start` of its file), when it is
    /// parsed in more than one piece; none otherwise (its one piece defines them all).
    pub(super) fn of(body: &str, body_start: usize) -> Definitions {
        let mut all = HashMap::new();
        let mut split = pieces(body).peekable();
        let first = split.next();
        if split.peek().is_none() {
            return Definitions(all);
        }
        for (at, piece) in first.into_iter().chain(split) {
            let parser = Parser::new_ext(piece, Options::empty());
            for (label, def) in parser.reference_definitions().iter() {
                if all.len() >= MAX_KEPT {
                    break;
                }
                let span = dest_in(piece, def.span.clone(), &def.dest)
                    .unwrap_or_else(|| Span::new(def.span.start, def.span.end))
                    .shifted(body_start + at);
                all.entry(CompactString::from(label.to_lowercase()))
                    .or_insert(Definition {
                        dest: CompactString::from(&*def.dest),
                        span,
                    });
            }
        }
        Definitions(all)
    }

    /// The definition of `label` (lowercase), if any piece has one.
    pub(super) fn get(&self, label: &str) -> Option<&Definition> {
        self.0.get(label)
    }

    /// What pulldown-cmark calls for a reference its piece does not define: the destination
    /// another piece gives it.
    pub(super) fn resolve<'input>(
        &self,
        link: BrokenLink<'input>,
    ) -> Option<(CowStr<'input>, CowStr<'input>)> {
        if self.0.is_empty() {
            return None;
        }
        let def = self.get(&link.reference.to_lowercase())?;
        Some((CowStr::from(def.dest.to_string()), CowStr::Borrowed("")))
    }
}

#[cfg(test)]
mod tests {
    use super::super::links_and;

    #[test]
    fn a_reference_finds_its_definition_in_another_piece() {
        let n = 3_000;
        let uses: Vec<String> = (0..n).map(|i| format!("[x][ref{i}]")).collect();
        let defs: Vec<String> = (0..n).map(|i| format!("[Ref{i}]: r/{i}.md")).collect();
        let text = format!("# S\n\nSee {}\n\n{}\n", uses.join(" "), defs.join("\n"));
        let links = links_and(&text, 0, usize::MAX, |_, _| {});
        let found: Vec<(String, &str)> = links
            .list
            .iter()
            .map(|l| (l.dest.to_string(), &text[l.span.start..l.span.end]))
            .collect();
        // All but a link a cut inside the line of links passes through (the line is cut
        // where a piece must end, and no place in it starts a word that cannot start a
        // block: every word is a `[`).
        assert!(found.len() >= n - 2, "{}", found.len());
        for (dest, written) in &found {
            assert_eq!(dest, written);
        }
        assert!(found.iter().any(|(d, _)| d == "r/0.md"));
        assert!(found.iter().any(|(d, _)| d == &format!("r/{}.md", n - 1)));
        // A label no piece defines stays text.
        let text = format!("{text}\nAnd [y][nowhere] too.\n");
        assert_eq!(
            links_and(&text, 0, usize::MAX, |_, _| {}).list.len(),
            found.len()
        );
    }
}
