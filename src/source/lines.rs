//! Lines of a file: where each starts, and the line and column of a byte offset.

use std::ops::Range;
use std::sync::OnceLock;

use super::Position;

/// Where lines start and what it takes to count columns, for offset → line/column conversion.
/// Only some line starts are kept ([`Block`]): a file of millions of short lines took five
/// bytes a line here, and every file with a finding keeps its index until the report (forty
/// `SKILL.md` of a million lines each: 190 MiB of index beside 80 MB of text).
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// The start of line 1 (after a BOM), then one every [`BLOCK_LINES`] lines or sooner.
    blocks: Vec<Block>,
    /// How many lines the text has.
    lines: usize,
    /// On lines longer than [`MARK_EVERY`], every [`MARK_EVERY`] bytes or so: how many
    /// characters come before that place on its line, so that a column is counted from the
    /// nearest one (a minified JSON file with one Cyrillic letter took a count of the whole
    /// line for each finding: 20,000 look-alike names, 22 s).
    marks: Vec<Mark>,
    /// Per [`CR_CHUNK`] bytes, when the text holds a `\r` not followed by `\n`: such line ends
    /// count for the Language Server Protocol (and old Mac files), which toolc's own lines
    /// (split at `\n`, as compilers do) are not. Empty when there is none.
    lone_cr: Vec<CrChunk>,
    /// Per line, once asked for ([`LineIndex::nested_under`]): the nearest line above it that
    /// is not blank and is indented less (for a blank line: the nearest line that is not
    /// blank), or [`NO_LINE`]. Searched line by line for each finding, a key under a list of
    /// millions of lines took a walk of the whole list each.
    up: OnceLock<Box<[u32]>>,
}

/// A kept line start: the 0-based line and its byte offset. The next one is kept at most
/// [`BLOCK_LINES`] lines later, and at the first line that starts [`BLOCK_BYTES`] or more
/// bytes after it: every line of a block but its last lies within those bytes, so a line's
/// start is found by reading at most that many.
#[derive(Debug, Clone, Copy)]
struct Block {
    line: u32,
    start: u32,
}

/// Lines of a block at most.
const BLOCK_LINES: u32 = 32;

/// Bytes within which a block's line starts lie.
const BLOCK_BYTES: usize = 1024;

/// Bytes of text a [`CrChunk`] covers.
const CR_CHUNK: usize = 1024;

/// The lone `\r`s before a chunk of [`CR_CHUNK`] bytes: how many, and the offset of the last.
#[derive(Debug, Clone, Copy)]
struct CrChunk {
    before: u32,
    last: u32,
}

/// No line (in [`LineIndex::up`]).
const NO_LINE: u32 = u32::MAX;

/// Bytes of indentation of `line`: all of it when it is blank.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Bytes of a long line between two [`Mark`]s.
const MARK_EVERY: usize = 1024;

/// A place on a long line, and its columns.
#[derive(Debug, Clone, Copy)]
struct Mark {
    /// Its byte offset (a character boundary).
    offset: u32,
    /// Characters before it on its line.
    chars: u32,
    /// UTF-16 units before it on its line.
    units: u32,
}

/// An offset in 32 bits: files are read up to 64 MiB.
fn at(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

/// The [`Mark`]s of the line of `text` from `start` to `end`.
fn marks_of(text: &str, start: usize, end: usize, marks: &mut Vec<Mark>) {
    let (mut chars, mut units, mut next) = (0, 0, start + MARK_EVERY);
    for (i, c) in text.get(start..end).unwrap_or_default().char_indices() {
        if start + i >= next {
            marks.push(Mark {
                offset: at(start + i),
                chars: at(chars),
                units: at(units),
            });
            next = start + i + MARK_EVERY;
        }
        chars += 1;
        units += c.len_utf16();
    }
}

/// True when the byte at `i` is a `\r` that no `\n` follows.
fn is_lone_cr(bytes: &[u8], i: usize) -> bool {
    bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) != Some(&b'\n')
}

/// The [`CrChunk`]s of `bytes` (and one for its end), or none when it holds no lone `\r`.
fn cr_chunks(bytes: &[u8]) -> Vec<CrChunk> {
    // Most texts have no `\r` at all: one fast search says so.
    if !bytes.contains(&b'\r') {
        return Vec::new();
    }
    let mut chunks = Vec::with_capacity(bytes.len() / CR_CHUNK + 2);
    let (mut before, mut last) = (0, 0);
    for (n, chunk) in bytes.chunks(CR_CHUNK).enumerate() {
        chunks.push(CrChunk { before, last });
        let from = n * CR_CHUNK;
        for i in (from..from + chunk.len()).filter(|&i| is_lone_cr(bytes, i)) {
            (before, last) = (before + 1, at(i));
        }
    }
    chunks.push(CrChunk { before, last });
    if before == 0 {
        return Vec::new();
    }
    chunks
}

impl LineIndex {
    /// Index `text`; `bom_len` bytes at the start (a UTF-8 BOM) are not part of line 1's columns.
    pub fn new(text: &str, bom_len: usize) -> LineIndex {
        let mut blocks = vec![Block {
            line: 0,
            start: at(bom_len),
        }];
        let mut marks = Vec::new();
        let (mut line, mut line_start) = (0u32, bom_len);
        for (i, _) in text.match_indices('\n') {
            if i - line_start.min(i) > MARK_EVERY {
                marks_of(text, line_start, i, &mut marks);
            }
            line = line.saturating_add(1);
            line_start = i + 1;
            let last = blocks
                .last()
                .copied()
                .unwrap_or(Block { line: 0, start: 0 });
            if line - last.line >= BLOCK_LINES || line_start - last.start as usize >= BLOCK_BYTES {
                blocks.push(Block {
                    line,
                    start: at(line_start),
                });
            }
        }
        if text.len().saturating_sub(line_start) > MARK_EVERY {
            marks_of(text, line_start, text.len(), &mut marks);
        }
        blocks.shrink_to_fit();
        marks.shrink_to_fit();
        LineIndex {
            blocks,
            lines: line as usize + 1,
            marks,
            lone_cr: cr_chunks(text.as_bytes()),
            up: OnceLock::new(),
        }
    }

    /// The 0-based index of the line holding `offset`, and where that line starts (after a
    /// BOM, for the first): counted from the nearest kept start before it.
    fn locate(&self, text: &str, offset: usize) -> (usize, usize) {
        let n = self
            .blocks
            .partition_point(|b| b.start as usize <= offset)
            .saturating_sub(1);
        let Some(block) = self.blocks.get(n) else {
            return (0, 0);
        };
        let from = block.start as usize;
        let to = offset.min(from + BLOCK_BYTES).min(text.len());
        let (mut line, mut start) = (block.line as usize, from);
        for (i, _) in text
            .as_bytes()
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
        {
            (line, start) = (line + 1, from + i + 1);
        }
        (line, start)
    }

    /// Byte offset where the 0-based line `index` starts (after a BOM, for the first).
    fn start_of(&self, text: &str, index: usize) -> Option<usize> {
        if index >= self.lines {
            return None;
        }
        let n = self
            .blocks
            .partition_point(|b| b.line as usize <= index)
            .saturating_sub(1);
        let block = self.blocks.get(n)?;
        let from = block.start as usize;
        let skip = index.checked_sub(block.line as usize)?;
        if skip == 0 {
            return Some(from);
        }
        let within = text
            .as_bytes()
            .get(from..(from + BLOCK_BYTES).min(text.len()))?;
        let (i, _) = within
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(skip - 1)?;
        Some(from + i + 1)
    }

    /// The bytes of the 0-based line `index`, without its `\n`; the first line starts at
    /// the text's start (a BOM is part of it).
    fn bytes_of(&self, text: &str, index: usize) -> Range<usize> {
        let start = match index {
            0 => 0,
            _ => self.start_of(text, index).unwrap_or(text.len()),
        };
        let end = self
            .start_of(text, index + 1)
            .map_or(text.len(), |s| s.saturating_sub(1));
        start.min(text.len())..end.clamp(start.min(text.len()), text.len())
    }

    /// The bytes of the line of `text` holding `offset`, without its `\n` (the first line
    /// from the text's start, a BOM included).
    pub fn line_around(&self, text: &str, offset: usize) -> Range<usize> {
        self.bytes_of(text, self.locate(text, offset.min(text.len())).0)
    }

    /// The line the line holding `offset` is nested under: the nearest line above it that is
    /// not blank and is indented less (a YAML or pretty JSON line's key). `None` for a line
    /// that is not indented, or when no line above is indented less.
    pub fn nested_under(&self, text: &str, offset: usize) -> Option<Range<usize>> {
        let index = self.locate(text, offset.min(text.len())).0;
        let line = |i: usize| text.get(self.bytes_of(text, i)).unwrap_or("");
        // The line's own `\r` counts when it is blank, as its other whitespace does.
        let own = indent(line(index));
        if own == 0 {
            return None;
        }
        let up = self.up.get_or_init(|| ups(text));
        let mut at = *up.get(index)?;
        // A blank line's nearest line may be indented as much: each step up skips only lines
        // indented at least as much as the one it leaves.
        while at != NO_LINE && indent(line(at as usize)) >= own {
            at = *up.get(at as usize)?;
        }
        (at != NO_LINE).then(|| self.bytes_of(text, at as usize))
    }

    /// The Language Server Protocol's position of a byte offset in `text` (the text this
    /// index was built from): 0-based line and UTF-16 column, where `\n`, `\r\n` and a lone
    /// `\r` all end a line.
    pub fn lsp_position(&self, text: &str, offset: usize) -> (usize, usize) {
        let (p, line_start) = self.position_and_start(text, offset);
        let offset = offset.min(text.len());
        let Some(chunk) = self.lone_cr.get(offset / CR_CHUNK) else {
            return (p.line - 1, p.utf16_column - 1);
        };
        let bytes = text.as_bytes();
        let from = offset / CR_CHUNK * CR_CHUNK;
        let mut before = chunk.before as usize;
        let mut last = (chunk.before > 0).then_some(chunk.last as usize);
        for i in (from..offset).filter(|&i| is_lone_cr(bytes, i)) {
            (before, last) = (before + 1, Some(i));
        }
        // The nearest line end before the offset: a lone `\r` on this line, else its start.
        let column = match last {
            Some(cr) if cr >= line_start => {
                p.utf16_column - self.position(text, cr + 1).utf16_column
            }
            _ => p.utf16_column - 1,
        };
        (p.line - 1 + before, column)
    }

    /// Position of a byte offset in `text` (the text this index was built from).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        self.position_and_start(text, offset).0
    }

    /// [`LineIndex::position`], and where the offset's line starts (at most the offset).
    fn position_and_start(&self, text: &str, offset: usize) -> (Position, usize) {
        let offset = offset.min(text.len());
        let (line_idx, start) = self.locate(text, offset);
        let start = start.min(offset);
        let boundary = crate::text::floor_boundary(text, offset).max(start);
        // From the nearest mark of this line before the place, else from its start.
        let near = self
            .marks
            .partition_point(|m| m.offset as usize <= boundary)
            .checked_sub(1)
            .and_then(|i| self.marks.get(i))
            .filter(|m| m.offset as usize >= start);
        let (from, chars, units) = near.map_or((start, 0, 0), |m| {
            (m.offset as usize, m.chars as usize, m.units as usize)
        });
        let before = text.get(from..boundary).unwrap_or_default();
        let (column, utf16_column) = if before.is_ascii() {
            (1 + chars + before.len(), 1 + units + before.len())
        } else {
            before.chars().fold((1 + chars, 1 + units), |(c, u), ch| {
                (c + 1, u + ch.len_utf16())
            })
        };
        let position = Position {
            line: line_idx + 1,
            column,
            utf16_column,
            offset,
        };
        (position, start)
    }

    /// Byte offset where 1-based `line` starts, if the line exists.
    pub fn line_start(&self, text: &str, line: usize) -> Option<usize> {
        self.start_of(text, line.checked_sub(1)?)
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.lines
    }
}

/// [`LineIndex::up`] of every line of `text`, in one pass keeping the lines above that are
/// indented less than every line after them.
fn ups(text: &str) -> Box<[u32]> {
    let mut ups = Vec::new();
    let mut open: Vec<(usize, u32)> = Vec::new();
    let mut last_full = NO_LINE;
    for (i, line) in text.split('\n').enumerate() {
        let rest = line.trim_start();
        if rest.is_empty() {
            ups.push(last_full);
            continue;
        }
        let own = line.len() - rest.len();
        while open.last().is_some_and(|&(d, _)| d >= own) {
            open.pop();
        }
        ups.push(open.last().map_or(NO_LINE, |&(_, j)| j));
        let i = u32::try_from(i).unwrap_or(NO_LINE);
        open.push((own, i));
        last_full = i;
    }
    ups.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns of every place of `text`, counted from its line's start.
    fn counted(text: &str, offset: usize) -> (usize, usize, usize) {
        let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[start..offset];
        let line = text[..offset].matches('\n').count() + 1;
        (
            line,
            before.chars().count() + 1,
            before.encode_utf16().count() + 1,
        )
    }

    #[test]
    fn columns_on_long_lines_that_are_not_ascii_are_counted_from_marks() {
        // Lines longer than the marks' spacing, with characters of one to four bytes that
        // straddle where a mark would fall.
        let line: String = (0..6000)
            .map(|i| ["a", "é", "ж", "🔧", "\u{200b}"][i % 5])
            .collect();
        let text = format!("x\n{line}\n{line}{line}\nplain\n");
        let index = LineIndex::new(&text, 0);
        assert!(index.marks.len() > 4, "{}", index.marks.len());
        for (offset, _) in text.char_indices().step_by(7) {
            let p = index.position(&text, offset);
            assert_eq!(
                (p.line, p.column, p.utf16_column),
                counted(&text, offset),
                "{offset}"
            );
        }
    }

    /// Texts of every shape a kept line start must answer for: many short lines, long lines
    /// past a block and a mark, blank runs, multi-byte characters, lone `\r`s, a BOM.
    fn shapes() -> Vec<String> {
        // A fixed sequence (a linear congruential generator): the same texts every run.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let pieces = [
            "\n", "\n", "\r", "\r\n", "a", "bc", "é", "🔧", "  ", "\n\n\n",
        ];
        let mut texts = vec![String::new(), "\n".repeat(5000), "\r".repeat(9000)];
        for _ in 0..8 {
            let mut text = String::new();
            if next(3) == 0 {
                text.push('\u{feff}');
            }
            for _ in 0..next(600) {
                let piece = pieces[next(pieces.len() as u64) as usize];
                // Now and then a line longer than a block, or than a mark's spacing.
                let times = match next(40) {
                    0 => 2500,
                    1 => 700,
                    _ => 1,
                };
                text.push_str(&piece.repeat(if piece.contains(['\n', '\r']) {
                    1
                } else {
                    times
                }));
            }
            texts.push(text);
        }
        texts
    }

    #[test]
    fn the_index_answers_as_a_count_from_the_start_does() {
        for text in shapes() {
            let bom = usize::from(text.starts_with('\u{feff}')) * 3;
            let index = LineIndex::new(&text, bom);
            assert_eq!(index.line_count(), text.matches('\n').count() + 1);
            let mut starts = vec![bom];
            starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
            for (n, start) in starts.iter().enumerate() {
                assert_eq!(
                    index.line_start(&text, n + 1),
                    Some(*start),
                    "line {}",
                    n + 1
                );
            }
            assert_eq!(index.line_start(&text, starts.len() + 1), None);
            // Every place, counted in one walk from the start: line and columns (a BOM is
            // not part of line 1's), and the LSP's line and UTF-16 column.
            let (mut line, mut column, mut units) = (1, 1, 1);
            let (mut lsp_line, mut lsp_units) = (0, 0);
            let places = text.char_indices().chain([(text.len(), '\0')]);
            for (offset, c) in places {
                let p = index.position(&text, offset);
                assert_eq!(
                    (p.line, p.column, p.utf16_column),
                    (line, column, units),
                    "{offset}"
                );
                let around = index.line_around(&text, offset);
                let first = if line == 1 { 0 } else { starts[line - 1] };
                assert_eq!(around.start, first, "{offset}");
                assert!(
                    text[around.end..].chars().next().is_none_or(|c| c == '\n'),
                    "{offset}"
                );
                assert_eq!(
                    index.lsp_position(&text, offset),
                    (lsp_line, lsp_units),
                    "{offset}"
                );
                if c == '\n' {
                    (line, column, units) = (line + 1, 1, 1);
                } else if offset >= bom {
                    (column, units) = (column + 1, units + c.len_utf16());
                }
                if c == '\n' || (c == '\r' && !text[offset + 1..].starts_with('\n')) {
                    (lsp_line, lsp_units) = (lsp_line + 1, 0);
                } else if offset >= bom {
                    lsp_units += c.len_utf16();
                }
            }
        }
    }

    /// The line holding `at` and the line it is nested under, found by searching `text`
    /// itself: what the index must answer.
    fn searched(text: &str, at: usize) -> (&str, Option<&str>) {
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let own = indent(&text[start..end]);
        let parent = (own > 0)
            .then(|| {
                text[..start]
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty() && indent(l) < own)
            })
            .flatten();
        (&text[start..end], parent.map(str::trim_end))
    }

    #[test]
    fn the_line_a_line_is_nested_under_is_the_one_a_search_up_finds() {
        let texts = [
            "a:\n  b: 1\n  c:\n    d: 2\n\n    e: 3\n  f: 4\ng: 5\n",
            "\u{feff}  x: 1\n  y:\n      \n    z\n",
            "tools:\r\n  - name: a\r\n    bash: b\r\n  \r\n  - name: c\r\n",
            "{\n  \"a\": [\n    1,\n\t2\n  ]\n}",
            "  \n \n   x\n  \n y\n\n",
            "one line, no end",
            "",
        ];
        for text in texts {
            let index = LineIndex::new(text, usize::from(text.starts_with('\u{feff}')) * 3);
            for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let line = index.line_around(text, at);
                let parent = index.nested_under(text, at).map(|l| &text[l]);
                assert_eq!(
                    (&text[line], parent.map(str::trim_end)),
                    searched(text, at),
                    "{text:?} at {at}"
                );
            }
        }
    }
}
