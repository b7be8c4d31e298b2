//! Lines of a file: where each starts, and the line and column of a byte offset.

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
        }
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
}
