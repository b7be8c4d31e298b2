//! Lines of a file: where each starts, and the line and column of a byte offset.

use std::ops::Range;
use std::sync::OnceLock;

use super::Position;

/// Byte offsets of line starts, for offset → line/column conversion.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// In 32 bits (files are read up to 64 MiB) and of exactly their number: a file of
    /// millions of short lines took 16 bytes a line here, grown by doubling.
    starts: Vec<u32>,
    /// Per line: true when it is all ASCII, so a column is a subtraction, not a count. Without
    /// it, many diagnostics on one long line (minified JSON) cost quadratic time.
    ascii: Vec<bool>,
    /// On lines that are not all ASCII, every [`MARK_EVERY`] bytes or so: how many characters
    /// come before that place on its line, so that a column is counted from the nearest one
    /// (a minified JSON file with one Cyrillic letter took a count of the whole line for each
    /// finding: 20,000 look-alike names, 22 s).
    marks: Vec<Mark>,
    /// Offsets of the `\r`s not followed by `\n`: line ends for the Language Server Protocol
    /// (and old Mac files), which toolc's own lines (split at `\n`, as compilers do) are not.
    lone_cr: Vec<usize>,
    /// Per line, once asked for ([`LineIndex::nested_under`]): the nearest line above it that
    /// is not blank and is indented less (for a blank line: the nearest line that is not
    /// blank), or [`NO_LINE`]. Searched line by line for each finding, a key under a list of
    /// millions of lines took a walk of the whole list each.
    up: OnceLock<Box<[u32]>>,
}

/// No line (in [`LineIndex::up`]).
const NO_LINE: u32 = u32::MAX;

/// Bytes of indentation of `line`: all of it when it is blank.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Bytes of a line that is not all ASCII between two [`Mark`]s.
const MARK_EVERY: usize = 4096;

/// A place on a line that is not all ASCII, and its columns.
#[derive(Debug, Clone, Copy)]
struct Mark {
    /// Its byte offset (a character boundary).
    offset: u32,
    /// Characters before it on its line.
    chars: u32,
    /// UTF-16 units before it on its line.
    units: u32,
}

/// The [`Mark`]s of the line of `text` from `start` to `end`.
fn marks_of(text: &str, start: usize, end: usize, marks: &mut Vec<Mark>) {
    let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
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

impl LineIndex {
    /// Index `text`; `bom_len` bytes at the start (a UTF-8 BOM) are not part of line 1's columns.
    pub fn new(text: &str, bom_len: usize) -> LineIndex {
        let at = |offset: usize| u32::try_from(offset).unwrap_or(u32::MAX);
        let mut starts = Vec::with_capacity(1 + text.bytes().filter(|b| *b == b'\n').count());
        starts.push(at(bom_len));
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| at(i + 1)),
        );
        let mut marks = Vec::new();
        let ascii = (0..starts.len())
            .map(|i| {
                let start = starts[i] as usize;
                let end = starts.get(i + 1).map_or(text.len(), |e| *e as usize);
                let ascii = text.as_bytes().get(start..end).is_none_or(<[u8]>::is_ascii);
                if !ascii && end - start > MARK_EVERY {
                    marks_of(text, start, end, &mut marks);
                }
                ascii
            })
            .collect();
        let bytes = text.as_bytes();
        // Most texts have no `\r` at all: one fast search says so.
        let lone_cr = if bytes.contains(&b'\r') {
            (0..bytes.len())
                .filter(|&i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
                .collect()
        } else {
            Vec::new()
        };
        marks.shrink_to_fit();
        LineIndex {
            starts,
            ascii,
            marks,
            lone_cr,
            up: OnceLock::new(),
        }
    }

    /// The 0-based index of the line holding `offset`.
    fn index_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s as usize <= offset)
            .saturating_sub(1)
    }

    /// The bytes of the 0-based line `index`, without its `\n`; the first line starts at
    /// the text's start (a BOM is part of it).
    fn bytes_of(&self, text: &str, index: usize) -> Range<usize> {
        let start = match index {
            0 => 0,
            _ => self.starts.get(index).map_or(text.len(), |s| *s as usize),
        };
        let end = self
            .starts
            .get(index + 1)
            .map_or(text.len(), |s| (*s as usize).saturating_sub(1));
        start.min(text.len())..end.clamp(start.min(text.len()), text.len())
    }

    /// The bytes of the line of `text` holding `offset`, without its `\n` (the first line
    /// from the text's start, a BOM included).
    pub fn line_around(&self, text: &str, offset: usize) -> Range<usize> {
        self.bytes_of(text, self.index_of(offset.min(text.len())))
    }

    /// The line the line holding `offset` is nested under: the nearest line above it that is
    /// not blank and is indented less (a YAML or pretty JSON line's key). `None` for a line
    /// that is not indented, or when no line above is indented less.
    pub fn nested_under(&self, text: &str, offset: usize) -> Option<Range<usize>> {
        let index = self.index_of(offset.min(text.len()));
        let line = |i: usize| text.get(self.bytes_of(text, i)).unwrap_or("");
        // The line's own `\r` counts when it is blank, as its other whitespace does.
        let own = indent(line(index));
        if own == 0 {
            return None;
        }
        let up = self.up.get_or_init(|| self.ups(text));
        let mut at = *up.get(index)?;
        // A blank line's nearest line may be indented as much: each step up skips only lines
        // indented at least as much as the one it leaves.
        while at != NO_LINE && indent(line(at as usize)) >= own {
            at = *up.get(at as usize)?;
        }
        (at != NO_LINE).then(|| self.bytes_of(text, at as usize))
    }

    /// [`LineIndex::up`] of every line, in one pass keeping the lines above that are
    /// indented less than every line after them.
    fn ups(&self, text: &str) -> Box<[u32]> {
        let mut ups = Vec::with_capacity(self.starts.len());
        let mut open: Vec<(usize, u32)> = Vec::new();
        let mut last_full = NO_LINE;
        for i in 0..self.starts.len() {
            let line = text.get(self.bytes_of(text, i)).unwrap_or("");
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

    /// The Language Server Protocol's position of a byte offset in `text` (the text this
    /// index was built from): 0-based line and UTF-16 column, where `\n`, `\r\n` and a lone
    /// `\r` all end a line.
    pub fn lsp_position(&self, text: &str, offset: usize) -> (usize, usize) {
        let p = self.position(text, offset);
        if self.lone_cr.is_empty() {
            return (p.line - 1, p.utf16_column - 1);
        }
        let offset = offset.min(text.len());
        let before = self.lone_cr.partition_point(|&cr| cr < offset);
        let line_start = self.starts[p.line - 1] as usize;
        // The nearest line end before the offset: a lone `\r` on this line, else its start.
        let start = match before.checked_sub(1).map(|i| self.lone_cr[i]) {
            Some(cr) if cr >= line_start => cr + 1,
            _ => line_start,
        };
        let end = crate::text::floor_boundary(text, offset).max(start);
        let column = text.get(start..end).map_or(0, |t| t.encode_utf16().count());
        (p.line - 1 + before, column)
    }

    /// Position of a byte offset in `text` (the text this index was built from).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line_idx = self
            .starts
            .partition_point(|&s| s as usize <= offset)
            .saturating_sub(1);
        let start = (self.starts[line_idx] as usize).min(offset);
        let mut boundary = offset;
        while boundary > start && !text.is_char_boundary(boundary) {
            boundary -= 1;
        }
        let (column, utf16_column) = if self.ascii.get(line_idx).copied().unwrap_or(false) {
            (boundary - start + 1, boundary - start + 1)
        } else {
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
            text.get(from..boundary)
                .unwrap_or_default()
                .chars()
                .fold((1 + chars, 1 + units), |(c, u), ch| {
                    (c + 1, u + ch.len_utf16())
                })
        };
        Position {
            line: line_idx + 1,
            column,
            utf16_column,
            offset,
        }
    }

    /// Byte offset where 1-based `line` starts, if the line exists.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line.checked_sub(1)?).map(|s| *s as usize)
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
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
