//! Link reference definitions across the pieces of a body. A body is parsed a piece at a
//! time (`super::pieces`), and pulldown-cmark resolves a reference link only against the
//! definitions of its own piece: a `SKILL.md` of 3,000 links `[x][refN]` to missing files,
//! defined at its end, got no finding for any of them. The definitions of every piece are
//! gathered first, and a link its own piece does not define is resolved against them.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use compact_str::CompactString;
use pulldown_cmark::{BrokenLink, CowStr, Options, Parser};

use super::{dest_in, pieces};
use crate::source::Span;

/// The most definitions kept: sixteen bytes each (a definition is at least five bytes of
/// its file, `[a]:b`).
const MAX_KEPT: usize = 1_000_000;

/// Every piece's definitions, by label (lowercase, as pulldown-cmark matches them): the first
/// of a label wins, as CommonMark has it, for a link whose own piece does not define the
/// label (one that does is resolved by pulldown-cmark, against its own). Each is held as a
/// keyed hash of its label and the place of its destination, read from the file when asked
/// for: a label and a destination held as strings in a map took forty times the file of a
/// body of nothing but `[N]:b` lines.
pub(super) struct Definitions<'t> {
    /// The file the places are in.
    text: &'t str,
    hasher: RandomState,
    /// Sorted by label hash; one per label, the first.
    kept: Box<[Kept]>,
    /// The destinations not written as they read (escaped), by where they start: few.
    unescaped: HashMap<u32, CompactString>,
}

/// A definition: its label's hash and where its destination is written.
#[derive(Clone, Copy)]
struct Kept {
    label: u64,
    start: u32,
    end: u32,
}

impl<'t> Definitions<'t> {
    /// The definitions of `body` (which starts at `body_start` of `text`), when it is parsed
    /// in more than one piece; none otherwise (its one piece defines them all).
    pub(super) fn of(text: &'t str, body: &str, body_start: usize) -> Definitions<'t> {
        let mut all = Definitions {
            text,
            hasher: RandomState::new(),
            kept: Box::default(),
            unescaped: HashMap::new(),
        };
        let mut split = pieces(body).peekable();
        let first = split.next();
        if split.peek().is_none() {
            return all;
        }
        let mut kept = Vec::new();
        for (at, piece) in first.into_iter().chain(split) {
            let parser = Parser::new_ext(piece, Options::empty());
            for (label, def) in parser.reference_definitions().iter() {
                if kept.len() >= MAX_KEPT {
                    break;
                }
                let span = dest_in(piece, def.span.clone(), &def.dest)
                    .unwrap_or_else(|| Span::new(def.span.start, def.span.end))
                    .shifted(body_start + at);
                let (Ok(start), Ok(end)) = (u32::try_from(span.start), u32::try_from(span.end))
                else {
                    continue;
                };
                if text.get(span.start..span.end) != Some(&*def.dest) {
                    all.unescaped.insert(start, CompactString::from(&*def.dest));
                }
                let label = all.hasher.hash_one(label.to_lowercase());
                kept.push(Kept { label, start, end });
            }
        }
        // Stable: the first definition of a label stays first among its own.
        kept.sort_by_key(|k| k.label);
        kept.dedup_by_key(|k| k.label);
        all.kept = kept.into_boxed_slice();
        all
    }

    /// Where the destination of `label` (lowercase) is written, if any piece defines it.
    pub(super) fn get(&self, label: &str) -> Option<Span> {
        self.find(label)
            .map(|k| Span::new(k.start as usize, k.end as usize))
    }

    fn find(&self, label: &str) -> Option<Kept> {
        let label = self.hasher.hash_one(label);
        let i = self.kept.binary_search_by_key(&label, |k| k.label).ok()?;
        self.kept.get(i).copied()
    }

    /// What pulldown-cmark calls for a reference its piece does not define: the destination
    /// another piece gives it.
    pub(super) fn resolve<'input>(
        &self,
        link: BrokenLink<'input>,
    ) -> Option<(CowStr<'input>, CowStr<'input>)> {
        if self.kept.is_empty() {
            return None;
        }
        let kept = self.find(&link.reference.to_lowercase())?;
        let dest = match self.unescaped.get(&kept.start) {
            Some(dest) => dest.to_string(),
            None => self
                .text
                .get(kept.start as usize..kept.end as usize)?
                .to_string(),
        };
        Some((CowStr::from(dest), CowStr::Borrowed("")))
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
