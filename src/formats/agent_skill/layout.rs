//! Where each part of a Markdown file of a skill sits, as CommonMark reads it: code spans,
//! code blocks (with their info word and the line that introduces them) and the headings
//! above each place. A path is judged by where it is written: a command in a shell block is
//! run, a path in an output template or under "What to never include" is not a reference.

use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};

use crate::memory::Chunked;
use crate::source::Span;
use crate::syntax::markdown::{Fence, events, fence_at};

/// Bytes of a heading's title, or of the line that introduces a block, that are judged.
const MAX_TITLE: usize = 256;

/// A code span or code block: 24 bytes, a block's words held by the layout (a body of a
/// million code spans held 72 bytes for each 4-byte span, and one of 600,000 fenced blocks
/// a box and a string for each).
#[derive(Debug, Clone)]
pub(super) struct Code {
    /// From the opening backticks or fence to the closing ones (or the end of the block).
    pub span: Span,
    /// A block's words, by their place in [`Layout`]'s list.
    block: Option<u32>,
}

/// Where a code block's words are in [`Layout`]'s lists of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlockWords {
    /// The block's info word, lower case (`bash`), empty when there is none.
    info: Word,
    /// The last line with text before the block (`Bad:`), lower case.
    intro: Word,
}

/// Where a string is in a [`Words`].
type Word = (u32, u32);

/// Strings one after another in one `String`: a string equal to the last one added is not
/// added again, and has its place.
#[derive(Debug, Default)]
struct Words {
    text: String,
    last: Word,
}

impl Words {
    /// The place of `word`, added unless it is the last one; none past `u32::MAX` bytes.
    fn add(&mut self, word: &str) -> Option<Word> {
        if self.get(self.last) != word {
            let from = u32::try_from(self.text.len()).ok()?;
            self.text.push_str(word);
            self.last = (from, u32::try_from(self.text.len()).ok()?);
        }
        Some(self.last)
    }

    fn get(&self, (from, to): Word) -> &str {
        self.text.get(from as usize..to as usize).unwrap_or("")
    }
}

impl Code {
    /// True for a block (fenced or indented) rather than a span inside a line.
    pub(super) fn is_block(&self) -> bool {
        self.block.is_some()
    }
}

/// The code and headings of one Markdown file.
#[derive(Debug, Default)]
pub(super) struct Layout {
    /// Code spans and blocks, in order, none inside another.
    codes: Vec<Code>,
    /// Where the headings' verdict changes: from each start on, whether the place is under
    /// headings that set what follows aside (see [`Reader`]'s `aside`), until the next.
    /// Each heading kept its chain of titles: one long title above thousands of headings
    /// was copied into each (350 KB took 4.4 GB).
    headings: Vec<(usize, bool)>,
    /// The fenced code blocks, as [`crate::syntax::markdown::blocks`] finds them (SKL022
    /// reads those of `SKILL.md` from this parse rather than parse the body again).
    pub fences: Vec<Fence>,
    /// The words of the code blocks; a block with the same words as the one before it has
    /// no entry of its own.
    blocks: Vec<BlockWords>,
    /// The blocks' info words and introducing lines.
    infos: Words,
    intros: Words,
}

/// A [`Layout`] as it is read, one event of the body at a time.
pub(super) struct Reader<'t> {
    text: &'t str,
    body_start: usize,
    out: Layout,
    /// (level, title) of the headings the current place is under, each title at most
    /// [`MAX_TITLE`] bytes.
    stack: Vec<(usize, String)>,
    /// Whether a chain of titles (`steps / never do this`, lower case) sets what is under
    /// it aside.
    aside: fn(&str) -> bool,
    /// The code block being read: where it starts, its info word.
    block: Option<(usize, String)>,
    /// The codes so far, grown by chunks (a body of millions of spans doubled its list by
    /// copying).
    codes: Chunked<Code>,
    /// The headings so far, as [`Layout`] holds them, grown by chunks.
    headings: Chunked<(usize, bool)>,
    /// The verdict of the last heading kept.
    last_aside: bool,
    /// The fences so far, grown by chunks.
    fences: Chunked<Fence>,
}

impl<'t> Reader<'t> {
    /// Take in one event, at `range` of the body.
    pub(super) fn feed(&mut self, event: &Event<'_>, range: std::ops::Range<usize>) {
        let text = self.text;
        let start = self.body_start + range.start;
        let end = self.body_start + range.end;
        match event {
            Event::Code(_) if self.block.is_none() => self.codes.push(Code {
                span: Span::new(start, end),
                block: None,
            }),
            Event::Start(Tag::CodeBlock(kind)) => {
                if let CodeBlockKind::Fenced(_) = kind {
                    let body = text.get(self.body_start..).unwrap_or("");
                    let fence = fence_at(text, body, self.body_start, range.clone());
                    self.fences.push(fence);
                }
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
                        .next()
                        .unwrap_or("")
                        .to_lowercase(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.block = Some((start, info));
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((from, info)) = self.block.take() {
                    let block = self.out.block_words(&info, &intro(text, from));
                    self.codes.push(Code {
                        span: Span::new(from, end.max(from)),
                        block,
                    });
                }
            }
            Event::Start(Tag::Heading { level, .. }) => {
                let level = *level as usize;
                let stack = &mut self.stack;
                while stack.last().is_some_and(|(l, _)| *l >= level) {
                    stack.pop();
                }
                let title = text
                    .get(start..end)
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['#', '=', '-'])
                    .trim();
                // A real title is a few words: a longer one is judged by its start, so that
                // each heading costs at most six of them.
                let title = &title[..crate::text::floor_boundary(title, MAX_TITLE)];
                stack.push((level, title.to_lowercase()));
                let chain: Vec<&str> = stack.iter().map(|(_, t)| t.as_str()).collect();
                let chain = chain.join(" / ");
                // A heading with no title under none keeps none: the same as no entry.
                let aside = (self.aside)(&chain);
                if !chain.is_empty() && aside != self.last_aside {
                    self.headings.push((start, aside));
                    self.last_aside = aside;
                }
            }
            _ => {}
        }
    }

    /// The layout read.
    pub(super) fn finish(mut self) -> Layout {
        self.out.codes = self.codes.into_vec();
        self.out.headings = self.headings.into_vec();
        self.out.fences = self.fences.into_vec();
        self.out
    }
}

impl Layout {
    /// Read the Markdown of `text` from `body_start`, judging headings by `aside`.
    pub(super) fn read(text: &str, body_start: usize, aside: fn(&str) -> bool) -> Layout {
        let body = text.get(body_start..).unwrap_or("");
        let mut reader = Layout::reader(text, body_start, aside);
        for (event, range) in events(body) {
            reader.feed(&event, range);
        }
        reader.finish()
    }

    /// A reader of the Markdown of `text` from `body_start`, fed the body's events by the
    /// caller (who reads them for something else too); `aside` judges each chain of titles.
    pub(super) fn reader(text: &str, body_start: usize, aside: fn(&str) -> bool) -> Reader<'_> {
        Reader {
            text,
            body_start,
            out: Layout::default(),
            stack: Vec::new(),
            aside,
            last_aside: false,
            block: None,
            codes: Chunked::default(),
            headings: Chunked::default(),
            fences: Chunked::default(),
        }
    }

    /// The place of a block's words `info` and `intro` (added unless they are the last
    /// block's); none past `u32::MAX` bytes of words.
    fn block_words(&mut self, info: &str, intro: &str) -> Option<u32> {
        let words = BlockWords {
            info: self.infos.add(info)?,
            intro: self.intros.add(intro)?,
        };
        if self.blocks.last() != Some(&words) {
            self.blocks.push(words);
        }
        u32::try_from(self.blocks.len() - 1).ok()
    }

    fn block(&self, code: &Code) -> Option<&BlockWords> {
        self.blocks.get(code.block? as usize)
    }

    /// The info word of block `code`, lower case (`bash`); empty for a span or a block
    /// without one.
    pub(super) fn info(&self, code: &Code) -> &str {
        self.block(code).map_or("", |b| self.infos.get(b.info))
    }

    /// The last line with text before block `code`, lower case; empty for a span.
    pub(super) fn intro(&self, code: &Code) -> &str {
        self.block(code).map_or("", |b| self.intros.get(b.intro))
    }

    /// The code spans and blocks, in order.
    pub(super) fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// The code span or block `offset` is in.
    pub(super) fn code_at(&self, offset: usize) -> Option<&Code> {
        let i = self.codes.partition_point(|c| c.span.start <= offset);
        let code = self.codes.get(i.checked_sub(1)?)?;
        (offset < code.span.end).then_some(code)
    }

    /// Whether the headings `offset` is under set it aside (`steps / what to never include`).
    pub(super) fn aside_at(&self, offset: usize) -> bool {
        let i = self.headings.partition_point(|(at, _)| *at <= offset);
        i.checked_sub(1)
            .and_then(|i| self.headings.get(i))
            .is_some_and(|(_, aside)| *aside)
    }
}

/// The last line with text before the line at `at`, lower case: its last [`MAX_TITLE`]
/// bytes, which say what the block is ("Never run this:"). Every path in the block reads
/// it, and a line of a megabyte before a block made each path read a megabyte.
fn intro(text: &str, at: usize) -> String {
    let before = text.get(..at).unwrap_or("");
    let before = before.get(..before.rfind('\n').unwrap_or(0)).unwrap_or("");
    let line = before
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let from = crate::text::ceil_boundary(line, line.len().saturating_sub(MAX_TITLE));
    line[from..].to_lowercase()
}

/// Where each line of a text starts, to find the line of an offset in logarithmic time. In
/// 32 bits (files are read up to 64 MiB) and of exactly their number: a body of millions of
/// short lines took 16 bytes a line here, grown by doubling (6.7 times the file).
pub(super) struct Lines {
    starts: Vec<u32>,
    len: usize,
}

impl Lines {
    /// The line starts of `text`.
    pub(super) fn new(text: &str) -> Lines {
        let at = |offset: usize| u32::try_from(offset).unwrap_or(u32::MAX);
        let mut starts = Vec::with_capacity(1 + text.bytes().filter(|b| *b == b'\n').count());
        starts.push(0);
        starts.extend(text.match_indices('\n').map(|(i, _)| at(i + 1)));
        Lines {
            starts,
            len: text.len(),
        }
    }

    /// The line holding `offset` in `text` (the text `self` was made of), without its break.
    pub(super) fn at(&self, text: &str, offset: usize) -> Span {
        let i = self
            .starts
            .partition_point(|s| *s as usize <= offset)
            .max(1)
            - 1;
        let start = self.starts.get(i).map_or(0, |s| *s as usize);
        let end = self
            .starts
            .get(i + 1)
            .map_or(self.len, |next| (*next as usize).saturating_sub(1));
        let end = if text.get(..end).is_some_and(|t| t.ends_with('\r')) {
            end - 1
        } else {
            end
        };
        Span::new(start, end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_and_headings_by_place() {
        let text = "# Steps\nRun `a.sh` now.\n## Never do this\n\nBad:\n```bash\nrm -rf x\n```\n";
        let layout = Layout::read(text, 0, |chain| chain.contains("never"));
        let at = |s: &str| text.find(s).unwrap_or(0);
        assert!(
            layout
                .code_at(at("a.sh"))
                .is_some_and(|c| !c.is_block() && layout.info(c).is_empty())
        );
        assert!(layout.code_at(at("now")).is_none());
        let block = layout.code_at(at("rm -rf"));
        assert!(block.is_some_and(|c| c.is_block()
            && layout.info(c) == "bash"
            && layout.intro(c) == "bad:"));
        // Blocks with the same words share them; others keep their own.
        let blocks = "```sh\na\n```\n\n```sh\nb\n```\n\n```sh\nc\n```\n\n```\nd\n```\n";
        let shared = Layout::read(blocks, 0, |_| false);
        assert_eq!(shared.blocks.len(), 3);
        let words: Vec<(&str, &str)> = shared
            .codes()
            .iter()
            .map(|c| (shared.info(c), shared.intro(c)))
            .collect();
        let fence = "```";
        assert_eq!(
            words,
            [("sh", ""), ("sh", fence), ("sh", fence), ("", fence)]
        );
        assert!(!layout.aside_at(at("a.sh")));
        assert!(layout.aside_at(at("rm -rf")));
        assert!(!layout.aside_at(0));
        // Only where the verdict changes is kept; an empty title changes nothing.
        let nested = "intro\n# A\n## B\nx\n## B\ny\n# C\nz\n#\nw\n# a / b\nv\n";
        let repeated = Layout::read(nested, 0, |chain| chain == "a / b");
        assert_eq!(repeated.headings.len(), 3);
        assert!(!repeated.aside_at(0));
        let place = |s: &str| nested.find(s).unwrap_or(0);
        assert!(repeated.aside_at(place("x")) && repeated.aside_at(place("y")));
        assert!(!repeated.aside_at(place("z")) && !repeated.aside_at(place("w")));
        assert!(repeated.aside_at(place("v")));
        // A long title is judged by its start.
        let long = format!(
            "# {}never\nx\n# {}never\ny\n",
            "a ".repeat(200),
            "a ".repeat(10)
        );
        let cut = Layout::read(&long, 0, |chain| chain.contains("never"));
        assert!(!cut.aside_at(long.find('x').unwrap_or(0)));
        assert!(cut.aside_at(long.find('y').unwrap_or(0)));
        let lines = Lines::new(text);
        let line = lines.at(text, at("now"));
        assert_eq!(&text[line.start..line.end], "Run `a.sh` now.");
        let crlf = "a\r\nbc\r\n";
        let line = Lines::new(crlf).at(crlf, 4);
        assert_eq!(&crlf[line.start..line.end], "bc");
    }
}
