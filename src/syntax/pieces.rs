//! A Markdown body cut into pieces that parse alone. pulldown-cmark builds the tree of all it
//! is given before the first event (a node or more for every block, link and code span), so
//! a body of millions of links took fifteen times its size; read a piece at a time, it takes
//! that of one piece. A body under [`PIECE`] is one piece: ordinary files parse exactly as
//! they did.

/// How many bytes a piece holds before it may end.
pub(crate) const PIECE: usize = 256 * 1024;

/// How many node-making characters ([`is_mark`]) a piece may hold, at least: pulldown-cmark
/// takes up to 430 bytes for each in its tree (a line of `[`), about 3.5 MiB for these.
const MARKS: usize = 8 * 1024;

/// A piece may hold a mark for every this many bytes of the body, if that is more than
/// [`MARKS`] (and at most eight times as many): its tree is then under seven times the
/// body's size (a real paragraph of links holds a mark every 13 bytes, prose one every 50 or
/// more, and only a body over [`PIECE`] is cut for any other reason).
const BYTES_PER_MARK: usize = 128;

/// How many lines outside a fence a piece may hold, at least: pulldown-cmark makes two nodes
/// of each line of a paragraph (its text and the line break), 64 bytes each, so a paragraph
/// of half a mebibyte of `a` lines took 50 MiB as one piece's tree.
const LINES: usize = 8 * 1024;

/// A piece may hold a line for every this many bytes of the body, if that is more than
/// [`LINES`] (and at most eight times as many): its tree is then about three times the
/// body's size. A body of shorter lines than this on average is cut for its lines where its
/// bytes would not cut it; what a cut changes is only what spans it (see [`pieces`]).
const BYTES_PER_LINE: usize = 64;

/// True for a character pulldown-cmark may make a node of, or open a container with (`#`
/// for a heading, `.` and `)` for an ordered list's item: a body of `# h` lines took 18
/// times its size, one of `1. a` 11, their pieces cut only for their bytes).
fn is_mark(b: u8) -> bool {
    matches!(
        b,
        b'[' | b']'
            | b'*'
            | b'_'
            | b'`'
            | b'<'
            | b'>'
            | b'!'
            | b'&'
            | b'\\'
            | b'-'
            | b'+'
            | b'#'
            | b'.'
            | b')'
    )
}

/// The pieces of `body`, each with its offset in `body`. A piece ends after a blank line
/// once it holds [`PIECE`] bytes, where the next line starts a block of its own: not inside
/// a fenced code block, and not indented (a list item's or an indented code block's next
/// paragraph); failing that, at any such line once it holds twice as much. What a cut can
/// change is only what spans it: an emphasis, code span or link across the cut (a reference
/// link whose definition is in another piece finds it there: `markdown/definitions.rs`). A piece also ends once it holds as many
/// characters that pulldown-cmark makes a node of (brackets, emphasis, code and quote marks)
/// as the body may ([`MARKS`], [`BYTES_PER_MARK`]): at a line that starts a block, else at
/// any line start outside a fence once it holds twice that, else inside the line (see
/// [`inside_line`]); a fenced line is never cut, and a fence only at a line's start once a
/// piece holds [`FENCED`] bytes. A single
/// line of two million `[` took 130 times its size. Outside a fence, a piece ends at any
/// line's start once it holds [`INDENTED`] bytes: an indented code block of a million lines
/// (a node each) took 35 times its size.
pub(crate) fn pieces(body: &str) -> Pieces<'_> {
    Pieces {
        body,
        at: 0,
        budget: Budget {
            marks: (body.len() / BYTES_PER_MARK).clamp(MARKS, 8 * MARKS),
            lines: (body.len() / BYTES_PER_LINE).clamp(LINES, 8 * LINES),
        },
        _keep: (body.len() > PIECE).then(crate::memory::KeepFreed::new),
    }
}

/// The iterator of [`pieces`].
pub(crate) struct Pieces<'a> {
    body: &'a str,
    at: usize,
    /// What a piece may hold.
    budget: Budget,
    /// A body of more than one piece keeps freed memory for the next piece's tree.
    _keep: Option<crate::memory::KeepFreed>,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let rest = self.body.get(self.at..).filter(|r| !r.is_empty())?;
        let start = self.at;
        let len = cut(rest, self.budget).unwrap_or(rest.len());
        self.at += len;
        Some((start, &rest[..len]))
    }
}

/// How many marks, and lines outside a fence, a piece may hold.
#[derive(Clone, Copy)]
struct Budget {
    marks: usize,
    lines: usize,
}

/// Where the first piece of `text` ends, if before its end: a piece holds at most `budget`
/// marks and lines.
fn cut(
    text: &str,
    Budget {
        marks: budget,
        lines,
    }: Budget,
) -> Option<usize> {
    if text.len() <= PIECE {
        let (held_marks, held_lines) = marks_and_lines(text);
        if held_marks <= budget && held_lines <= lines {
            return None;
        }
    }
    let mut held_lines = 0;
    let mut fence: Option<Fence> = None;
    let mut at = 0;
    let mut blank_before = false;
    let mut held = 0;
    // Inside a fenced line longer than a window: what follows is not a line's start, and
    // whether the line closes the fence is known at its end (nothing but spaces after the
    // marks).
    let mut continued = false;
    let mut closing = false;
    while let Some((line, whole)) = next_line(&text[at..]) {
        if continued {
            at += line.len();
            closing &= is_blank(line);
            if whole {
                if closing {
                    fence = None;
                }
                (continued, closing) = (false, false);
            }
            continue;
        }
        let starts_block = !line.starts_with([' ', '\t']) && !is_blank(line);
        // After a blank line; in a paragraph that never ends, at a line's start after twice
        // as much (what changes is only an emphasis or span across that line break).
        let enough = if blank_before { PIECE } else { 2 * PIECE };
        // A fence's code and its opening line's info string make no inline node.
        let counted = fence.is_none() && Fence::opened_by(line).is_none();
        // The line's marks, counted no further than decides the cut: a long line is read a
        // bounded way past each cut. Exact whenever the line joins the piece.
        let line_marks = if counted {
            marks_up_to(line, 2 * budget + 1)
        } else {
            0
        };
        let over = held + line_marks > budget || (counted && held_lines >= lines);
        let far_over = (held > 0 && held + line_marks > 2 * budget) || at >= INDENTED;
        if fence.is_none() && at > 0 && (((at >= enough || over) && starts_block) || far_over) {
            return Some(at);
        }
        // A fence this reading and pulldown-cmark's disagree on (one in an HTML block) must
        // not hold the rest of a body: past [`FENCED`], at a line's start even so.
        if fence.is_some() && at >= FENCED {
            return Some(at);
        }
        if line_marks > budget {
            // One line denser than a piece may be: cut after its last mark that fits.
            let fits = budget.saturating_sub(held).max(1);
            let after = mark_after(line, fits).unwrap_or(line.len());
            return Some(at + inside_line(&text[at..], after));
        }
        held += line_marks;
        held_lines += usize::from(counted);
        fence = match fence {
            // A line longer than a window closes it only if the rest is blank (see above).
            Some(open) if open.closed_by(line) => {
                closing = !whole;
                (!whole).then_some(open)
            }
            Some(open) => Some(open),
            // Only a whole line opens one: a backtick past the window makes it no fence.
            None if whole => Fence::opened_by(line),
            None => None,
        };
        // A line longer than [`LONG_LINE`] is taken a window at a time. Code makes no node:
        // a fence's line is read to its end, as the rest of the fence is (cut there, the
        // next piece read its code as text and its closing fence as an opening one). Any
        // other line ends the piece at the window's end, when its marks did not first (no
        // line a person writes is that long).
        if !whole {
            if fence.is_some() {
                at += line.len();
                continued = true;
                continue;
            }
            return Some(at + inside_line(&text[at..], line.len()));
        }
        blank_before = is_blank(line);
        at += line.len();
    }
    None
}

/// How many bytes a piece holds before it ends at any line's start outside a fence, indented
/// or not (an indented code block's next lines are an indented code block of their own, and
/// so is a list item's indented paragraph then).
const INDENTED: usize = 4 * PIECE;

/// How many bytes a piece holds before it ends at a line's start inside a fence too.
const FENCED: usize = 8 * PIECE;

/// How many bytes of a line are looked at before a piece may end inside it.
const LONG_LINE: usize = 4 * PIECE;

/// The first line of `text` with its line break, and `true`; or its first [`LONG_LINE`]
/// bytes (to a character's end) and `false` when it is longer: finding a line's end never
/// reads the whole rest of a body that is one line.
fn next_line(text: &str) -> Option<(&str, bool)> {
    if text.is_empty() {
        return None;
    }
    let mut end = LONG_LINE.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let window = &text[..end];
    Some(match window.find('\n') {
        Some(i) => (&window[..=i], true),
        None => (window, end == text.len()),
    })
}

/// How far back from a cut inside a line a better place is looked for.
const SEEK_BACK: usize = 1024;

/// Where a piece that must end inside the line `text` starts with ends: at `at`, or a little
/// before it, just before a character that cannot start a block, so that the next piece
/// reads on as the same paragraph (cut before `` ``` `` or four spaces, it read the rest of
/// the line as a code block). Never at the line's start.
fn inside_line(text: &str, at: usize) -> usize {
    let from = crate::text::ceil_boundary(text, at.saturating_sub(SEEK_BACK).max(1));
    text.get(from..)
        .into_iter()
        .flat_map(str::char_indices)
        .map(|(i, c)| (from + i, c))
        .take_while(|(i, _)| *i <= at)
        .filter(|(_, c)| !may_start_block(*c))
        .last()
        .map_or(at, |(i, _)| i)
}

/// True for a character a block may start with, at a line's start: indentation, a list's
/// number or bullet, a heading's `#`, a quote, a fence, a thematic break or setext
/// underline, HTML, a table's pipe, a link reference definition.
fn may_start_block(c: char) -> bool {
    c.is_whitespace() || c.is_ascii_digit() || "#>-+*_=`~<|[".contains(c)
}

/// How many marks `text` holds.
#[cfg(test)]
fn marks(text: &str) -> usize {
    text.bytes().filter(|b| is_mark(*b)).count()
}

/// How many marks and lines `text` holds, in one pass.
fn marks_and_lines(text: &str) -> (usize, usize) {
    let (marks, breaks) = text.bytes().fold((0, 0), |(m, n), b| {
        (m + usize::from(is_mark(b)), n + usize::from(b == b'\n'))
    });
    // As `str::lines` counts: a last line without its `\n` is a line too.
    (
        marks,
        breaks + usize::from(!text.is_empty() && !text.ends_with('\n')),
    )
}

/// How many marks `text` holds, counted up to `cap`.
fn marks_up_to(text: &str, cap: usize) -> usize {
    text.bytes().filter(|b| is_mark(*b)).take(cap).count()
}

/// Just after the `n`th mark of `line` (`n` from 1), if it holds that many.
fn mark_after(line: &str, n: usize) -> Option<usize> {
    let (i, _) = line
        .bytes()
        .enumerate()
        .filter(|(_, b)| is_mark(*b))
        .nth(n.checked_sub(1)?)?;
    Some(i + 1)
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// An open fenced code block: its character and how many of them opened it.
#[derive(Clone, Copy)]
struct Fence {
    mark: char,
    len: usize,
}

impl Fence {
    /// The fence `line` opens: up to three spaces, then three or more backticks or tildes.
    fn opened_by(line: &str) -> Option<Fence> {
        let text = unindented(line)?;
        let mark = text.chars().next().filter(|c| matches!(c, '`' | '~'))?;
        let len = text.len() - text.trim_start_matches(mark).len();
        let info = &text[len..];
        // A backtick fence's info string holds no backtick (else it is a code span).
        (len >= 3 && !(mark == '`' && info.contains('`'))).then_some(Fence { mark, len })
    }

    /// True when `line` closes this fence: as many marks or more, and nothing after them.
    fn closed_by(self, line: &str) -> bool {
        let Some(text) = unindented(line) else {
            return false;
        };
        let len = text.len() - text.trim_start_matches(self.mark).len();
        len >= self.len && text[len..].trim().is_empty()
    }
}

/// `line` without up to three spaces of indentation; `None` when it is indented more.
fn unindented(line: &str) -> Option<&str> {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    (spaces <= 3).then(|| &line[spaces..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts(body: &str) -> Vec<usize> {
        pieces(body).map(|(at, _)| at).collect()
    }

    #[test]
    fn a_short_body_is_one_piece() {
        assert_eq!(cuts("# T\n\nSee [a](a.md).\n"), [0]);
        assert_eq!(cuts(""), Vec::<usize>::new());
    }

    #[test]
    fn a_long_body_is_cut_after_a_blank_line_and_its_pieces_join_up() {
        let paragraph = "See [a](references/a.md) and `code`.\n\n";
        let body = paragraph.repeat(PIECE / paragraph.len() * 3);
        let parts: Vec<(usize, &str)> = pieces(&body).collect();
        assert!(parts.len() >= 3, "{}", parts.len());
        let mut next = 0;
        for (at, piece) in &parts {
            assert_eq!(*at, next);
            assert!(piece.starts_with("See ") && piece.ends_with("\n\n"));
            next += piece.len();
        }
        assert_eq!(next, body.len());
    }

    #[test]
    fn never_inside_a_fence_nor_before_an_indented_line() {
        // One fenced block with blank lines inside, longer than a piece: never cut.
        let inside = format!("```bash\n{}```\n", "echo hi\n\n".repeat(PIECE / 5));
        assert_eq!(cuts(&inside), [0]);
        // A tilde fence is closed only by tildes, and by as many.
        let tildes = format!(
            "~~~~\n{}```\n~~~\n{}",
            "x\n\n".repeat(PIECE),
            "y\n\n".repeat(10)
        );
        assert_eq!(cuts(&tildes), [0]);
        // A list whose items' paragraphs are indented: never cut before such a line.
        let list = format!("- item\n\n{}", "  more of the item\n\n".repeat(PIECE / 10));
        assert_eq!(cuts(&list), [0]);
        // Past four pieces' bytes, at a line's start even so: an indented code block.
        let code = "    a\n".repeat(INDENTED / 6 * 2);
        let parts = cuts(&code);
        assert!(
            parts.len() >= 2 && parts.iter().skip(1).all(|p| p % 6 == 0),
            "{parts:?}"
        );
    }

    #[test]
    fn headings_count_as_marks() {
        let body = "# h\n".repeat(PIECE / 4);
        let parts = cuts(&body);
        assert!(parts.len() > 2, "{parts:?}");
        assert!(parts.iter().all(|p| p % 4 == 0));
    }

    /// Lines make nodes too: a paragraph of short lines is cut at a line's start once a
    /// piece holds as many lines as the body may, well before its bytes would cut it.
    #[test]
    fn lines_count_as_marks_do() {
        let body = "a\n".repeat(100_000);
        let parts: Vec<(usize, &str)> = pieces(&body).collect();
        let budget = (body.len() / BYTES_PER_LINE).max(LINES);
        assert!(parts.len() >= 100_000 / budget, "{}", parts.len());
        for (at, piece) in &parts {
            assert_eq!(at % 2, 0, "at a line's start");
            assert!(piece.lines().count() <= budget, "{}", piece.lines().count());
        }
        // Prose of the same length is one piece: its lines are long.
        let prose = "A line of prose as a person writes it, some words long.\n".repeat(3_000);
        assert_eq!(cuts(&prose), [0]);
    }

    #[test]
    fn a_paragraph_that_never_ends_is_cut_at_a_line_start() {
        let body = "See [a](references/a.md).\n".repeat(PIECE / 2);
        let parts = cuts(&body);
        assert!(parts.len() >= 4, "{parts:?}");
        assert!(parts.iter().all(|at| body[*at..].starts_with("See ")));
        // Five marks a line (`[`, `]`, `)` and two `.`): each piece ends at the line where
        // its marks would run over.
        let line = marks("See [a](references/a.md).\n");
        assert_eq!(line, 5);
        let budget = body.len() / BYTES_PER_MARK;
        let held: Vec<usize> = pieces(&body).map(|(_, p)| marks(p)).collect();
        let full = &held[..held.len() - 1];
        assert!(
            full.iter().all(|m| *m <= budget && m + line > budget),
            "{held:?}"
        );
    }

    #[test]
    fn a_line_denser_than_a_piece_is_cut_inside_and_a_fence_is_not() {
        let line = "[".repeat(3 * MARKS);
        let parts: Vec<(usize, &str)> = pieces(&line).collect();
        assert_eq!(
            parts.len(),
            3,
            "{:?}",
            parts.iter().map(|p| p.0).collect::<Vec<_>>()
        );
        assert!(parts.iter().all(|(_, p)| marks(p) == MARKS));
        // A fence's opening line and code make no node: nothing to cut for them.
        let fence = format!(
            "```{}\n{}\n```\n",
            "[".repeat(3 * MARKS),
            "*".repeat(3 * MARKS)
        );
        assert_eq!(cuts(&fence), [0]);
        // A line longer than a window with no mark is cut at each window's end.
        let plain = "a".repeat(2 * LONG_LINE + 10);
        assert_eq!(cuts(&plain), [0, LONG_LINE, 2 * LONG_LINE]);
        // Dense lines are cut at a line start, before the line that would run over.
        let lines = format!("{}\n", "[".repeat(MARKS / 2 + 1)).repeat(4);
        let parts: Vec<&str> = pieces(&lines).map(|(_, p)| p).collect();
        assert_eq!(parts.len(), 4);
        assert!(parts.iter().all(|p| p.ends_with('\n')));
    }

    #[test]
    fn a_fence_that_closes_lets_the_cut_come_after_it() {
        let body = format!(
            "```\n{}```\n\n{}",
            "code\n\n".repeat(PIECE / 5),
            "Text.\n\n".repeat(100)
        );
        let parts = cuts(&body);
        assert_eq!(parts.len(), 2);
        assert!(body[parts[1]..].starts_with("Text."));
    }

    #[test]
    fn a_fenced_line_longer_than_a_window_is_read_to_its_end() {
        let fence = format!("```text\n{}\n```\n", "x".repeat(LONG_LINE + 10));
        let body = format!("{fence}\nText.\n");
        // Cut only after the fence closes, never inside its long line.
        let parts = cuts(&body);
        assert!(
            parts.iter().all(|p| *p == 0 || *p >= fence.len()),
            "{parts:?}"
        );
    }

    #[test]
    fn a_line_is_cut_before_a_character_that_cannot_start_a_block() {
        // The window's end falls on a fence: the cut comes before the `x` ahead of it.
        let line = format!("Run {}```\n", "x".repeat(LONG_LINE - 4));
        let parts = cuts(&line);
        assert_eq!(parts, [0, LONG_LINE - 1]);
        // At the window's end when that is a letter.
        let plain = format!("Run {}y\n", "x".repeat(LONG_LINE));
        assert_eq!(cuts(&plain), [0, LONG_LINE]);
        // Dense marks: after the last mark that fits, back to the last letter.
        let dense = "x[ ".repeat(3 * MARKS);
        let parts: Vec<&str> = pieces(&dense).map(|(_, p)| p).collect();
        assert!(parts.len() >= 3, "{}", parts.len());
        assert!(parts.iter().all(|p| p.starts_with('x')), "{parts:?}");
        assert!(parts.iter().all(|p| marks(p) <= MARKS));
    }

    #[test]
    fn a_fence_is_opened_and_closed_by_whole_lines_and_never_holds_a_body() {
        let links = "[a](b)\n".repeat(FENCED / 4);
        let bodies = [
            // Not a fence: a backtick in its info string, past the window.
            format!("```{}`x\n{links}", "a".repeat(LONG_LINE)),
            // Closed by a line of marks and a window of spaces.
            format!("```\ncode\n```{}\n{links}", " ".repeat(LONG_LINE)),
            // A fence pulldown-cmark reads as part of an HTML block.
            format!("<div>\n```\n{links}"),
        ];
        for body in &bodies {
            let longest = pieces(body).map(|(_, p)| p.len()).max().unwrap_or(0);
            assert!(longest <= FENCED + LONG_LINE, "{longest}");
        }
        // The closed fence lets the links be cut as any paragraph's lines are.
        assert!(cuts(&bodies[1]).len() > 4, "{:?}", cuts(&bodies[1]));
    }
}
