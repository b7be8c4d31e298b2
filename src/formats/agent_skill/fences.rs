//! SKL022: a code fence of `SKILL.md` opened and never closed. Everything after it is code to
//! a Markdown reader, and the agent reading the file may take the instructions that follow
//! for part of the example.

use std::collections::BTreeMap;

use super::{Cx, rules};
use crate::source::Span;
use crate::syntax::markdown::{Fence, lines_in};
use crate::syntax::pieces::{PIECE, pieces};

impl Cx<'_> {
    /// SKL022 on the first of `fences` (those of the body from `body_start`) that no later
    /// line closes.
    pub(super) fn fences(&mut self, body_start: usize, fences: &[Fence]) {
        let text = self.file.text.as_str();
        // Read once, when a block first ends early: scanning on from every such block made
        // a body of many made quadratic.
        let mut closers: Option<Closers> = None;
        // A block taken as closed further on: the line that closes it is read as opening a
        // block of its own, which is not one.
        let mut closed_on: Option<Open> = None;
        let mut cuts: Option<Vec<usize>> = None;
        let mut unclosed: Option<(usize, Option<usize>, Open)> = None;
        for (i, fence) in fences.iter().enumerate() {
            let Some(open) = opening(text, fence.span.start) else {
                continue;
            };
            let mut lines = lines_in(text, fence.span);
            let (first, first_line) = lines.next().unwrap_or((fence.span, ""));
            if closed_on.take().is_some_and(|o| o.closed_by(first_line)) {
                // Past a block of megabytes cut to be parsed, the parser reads each fence
                // the wrong way round: the rest is paired line by line.
                unclosed = unpaired(text, first.end).map(|(at, open)| (at, None, open));
                break;
            }
            if lines.last().is_some_and(|(_, l)| open.closed_by(l)) {
                continue;
            }
            // Closed further on at another indentation (inside a list item, say), or past
            // where a block of megabytes was cut to be parsed: the block ends early for the
            // parser, but the agent reading the text sees it closed.
            let closed_later = closers
                .get_or_insert_with(|| Closers::of(text, body_start))
                .close_after(open, fence.span.start);
            if !closed_later {
                unclosed = Some((fence.span.start, Some(i), open));
                break;
            }
            // Only a block cut to be parsed: one that ends with its list item or quote does
            // end there, and the fence line after it opens a block.
            let cuts = cuts.get_or_insert_with(|| piece_ends(text, body_start));
            closed_on = ends_at_cut(text, cuts, fence.span.end).then_some(open);
        }
        let Some((at, i, open)) = unclosed else {
            return;
        };
        let line = line_of(text, at);
        // The usual cause: a block before it holds a fence of its own (a ```python inside a
        // ```markdown template), whose closing line closed the outer block, so the line
        // meant to close that one opens this block instead.
        let inner = i
            .and_then(|i| i.checked_sub(1))
            .and_then(|p| fences.get(p))
            .and_then(|outer| {
                let mark = opening(text, outer.span.start)?;
                lines_in(text, outer.span)
                    .skip(1)
                    .find(|(_, l)| mark.opened_by(l))
                    .map(|(span, _)| (mark, line_of(text, outer.span.start), span))
            });
        let mut d = self
            .diag(
                &rules::UNCLOSED_CODE_FENCE,
                line,
                format!("the code block opened on this line with {} is never closed", open.said()),
            )
            .label("opened here, never closed")
            .note("everything after this line is code to a Markdown reader, and the agent may read the instructions that follow as part of the example");
        d = match inner {
            Some((outer, outer_line, inner_line)) => d
                .related(self.file, outer_line, "this block holds a fence of its own")
                .related(self.file, inner_line, "whose closing line closes the outer block")
                .help(format!(
                    "open and close the outer block with a longer fence ({}) so the fence inside it does not close it",
                    outer.longer().said()
                )),
            None => d.help(format!("close the block with a line of {} where its code ends", open.said())),
        };
        self.push(d);
    }
}

/// The line at `at`, without its break.
fn line_of(text: &str, at: usize) -> Span {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let end = if text[..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    Span::new(at, end.max(at))
}

/// The fence a code block opens with.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// `` ` `` or `~`.
    mark: char,
    /// How many.
    run: usize,
}

impl Open {
    /// A fence one mark longer.
    fn longer(self) -> Open {
        Open {
            run: self.run + 1,
            ..self
        }
    }

    /// The fence in words (`3 backticks`), for a message that quotes code in backticks.
    fn said(self) -> String {
        let mark = if self.mark == '`' {
            "backticks"
        } else {
            "tildes"
        };
        format!("{} {mark}", self.run)
    }

    /// True when `line` opens a block inside one opened with this fence: the same mark, as
    /// many or more, and an info string after (which a closing line cannot have).
    fn opened_by(self, line: &str) -> bool {
        let rest = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
        let run = rest.len() - rest.trim_start_matches(self.mark).len();
        run >= self.run && !rest[run..].trim().is_empty()
    }

    /// True when `line` closes a block opened with this fence: the same mark, at least as
    /// many, and nothing after (quote markers and indentation before are allowed).
    fn closed_by(self, line: &str) -> bool {
        let rest = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
        let run = rest.len() - rest.trim_start_matches(self.mark).len();
        run >= self.run && rest[run..].trim().is_empty()
    }
}

/// The lines of a text that could close a block, by mark and length: where the last of
/// each starts.
struct Closers {
    /// For backticks, then tildes: each length's last closing line.
    last: [BTreeMap<usize, usize>; 2],
}

impl Closers {
    /// The closing lines of `text` from `from` on.
    fn of(text: &str, from: usize) -> Closers {
        let mut last = [BTreeMap::new(), BTreeMap::new()];
        for (span, line) in lines_in(text, Span::new(from, text.len())) {
            let rest = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
            for (slot, mark) in last.iter_mut().zip(MARKS) {
                let run = rest.len() - rest.trim_start_matches(mark).len();
                if run >= 3 && rest[run..].trim().is_empty() {
                    slot.insert(run, span.start);
                }
            }
        }
        Closers { last }
    }

    /// True when a line starting after `at` closes a block opened with `open`.
    fn close_after(&self, open: Open, at: usize) -> bool {
        let slot = MARKS.iter().position(|m| *m == open.mark);
        slot.and_then(|i| self.last.get(i))
            .is_some_and(|runs| runs.range(open.run..).any(|(_, start)| *start > at))
    }
}

/// Where the body from `body_start` was cut into pieces to be parsed, but its end.
fn piece_ends(text: &str, body_start: usize) -> Vec<usize> {
    let body = text.get(body_start..).unwrap_or("");
    if body.len() <= PIECE {
        return Vec::new();
    }
    let mut ends: Vec<usize> = pieces(body)
        .map(|(at, piece)| body_start + at + piece.len())
        .collect();
    ends.pop();
    ends
}

/// Whether a code block whose text ends at `end` (its line breaks after left out) ended
/// where the body was cut, one of `cuts` (in order).
fn ends_at_cut(text: &str, cuts: &[usize], end: usize) -> bool {
    let after = text.get(end..).unwrap_or("");
    let breaks = after.len() - after.trim_start_matches(['\n', '\r']).len();
    let i = cuts.partition_point(|&c| c < end);
    cuts.get(i).is_some_and(|&c| c <= end + breaks)
}

/// The first fence of `text` from `from` on that no later line closes, pairing each fence
/// line with the next that can close it.
fn unpaired(text: &str, from: usize) -> Option<(usize, Open)> {
    let mut open: Option<(usize, Open)> = None;
    for (span, line) in lines_in(text, Span::new(from, text.len())) {
        match open {
            Some((_, o)) if o.closed_by(line) => open = None,
            Some(_) => {}
            None => open = opening(text, span.start).map(|o| (span.start, o)),
        }
    }
    open
}

/// The marks a fence is made of.
const MARKS: [char; 2] = ['`', '~'];

/// The fence of the block starting at `at` (its first line).
fn opening(text: &str, at: usize) -> Option<Open> {
    let line = text.get(at..)?.lines().next()?;
    let rest = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
    let mark = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = rest.len() - rest.trim_start_matches(mark).len();
    (run >= 3).then_some(Open { mark, run })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_and_what_closes_them() {
        let open = opening("```bash\n", 0);
        assert!(open.is_some_and(|o| o.mark == '`' && o.run == 3));
        let Some(open) = open else { return };
        assert!(open.closed_by("```") && open.closed_by("  > ````  "));
        assert!(!open.closed_by("```bash") && !open.closed_by("~~~") && !open.closed_by("``"));
        assert!(open.opened_by("  ```python") && !open.opened_by("```"));
        assert_eq!(open.said(), "3 backticks");
        assert_eq!(open.longer().said(), "4 backticks");
        assert!(opening("  ~~~~\n", 0).is_some_and(|o| o.mark == '~' && o.run == 4));
        assert!(opening("text\n", 0).is_none());
    }
}
