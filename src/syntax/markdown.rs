//! Markdown bodies: sections, code fences, list items and near-miss headings, each with byte
//! spans in the whole file (the front matter before them is split off by
//! [`super::front_matter`]). Blocks are read with pulldown-cmark, so a heading-like line
//! inside a code block is not taken for a heading.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag};

use super::pieces::pieces;

mod definitions;
use super::sections::{self, Section};
use crate::memory::Chunked;
use crate::source::Span;
use definitions::Definitions;

/// Lines of `text` from `start`, each as (span without line break, offset after the break).
/// A line ends at LF, CRLF or a lone CR, as CommonMark's and YAML's lines do (and as a
/// runtime reading the file with universal newlines, Python's, sees them).
pub(crate) fn lines(text: &str, start: usize) -> impl Iterator<Item = (Span, usize)> + '_ {
    let mut pos = start;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let rest = &text[pos..];
        let (len, next) = match rest.find(['\n', '\r']) {
            Some(i) if rest[i..].starts_with("\r\n") => (i, pos + i + 2),
            Some(i) => (i, pos + i + 1),
            None => (rest.len(), text.len()),
        };
        let span = Span::new(pos, pos + len);
        pos = next;
        Some((span, next))
    })
}

/// A fenced code block of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fence {
    /// The info string's first word (`bash` in ```` ```bash ````), if any.
    pub info: Option<Span>,
    /// From the opening fence to the end of the closing fence (or of the file).
    pub span: Span,
}

/// Lines of `text` inside `region`, each as (span without line break, text). A region that
/// ends with a line break yields a last, empty line.
pub(crate) fn lines_in(text: &str, region: Span) -> impl Iterator<Item = (Span, &str)> + '_ {
    let region_text = text.get(region.start..region.end).unwrap_or("");
    let mut offset = region.start;
    region_text.split('\n').map(move |raw| {
        let start = offset;
        offset += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        (Span::new(start, start + line.len()), line)
    })
}

/// The content of a code block that opens `region` (a ```` ```json ```` around a document),
/// or `region` itself when it does not start with a fence.
pub(crate) fn inside_fence(text: &str, region: Span) -> Span {
    let raw = text.get(region.start..region.end).unwrap_or("");
    let trimmed_start = raw.len() - raw.trim_start().len();
    if !(raw.trim_start().starts_with("```") || raw.trim_start().starts_with("~~~")) {
        return region;
    }
    let after_open = raw[trimmed_start..]
        .find('\n')
        .map_or(raw.len(), |i| trimmed_start + i + 1);
    let close = raw[after_open..]
        .match_indices('\n')
        .map(|(i, _)| after_open + i + 1)
        .chain(std::iter::once(after_open))
        .find(|&i| {
            let l = raw[i..].trim_start_matches([' ']);
            l.starts_with("```") || l.starts_with("~~~")
        })
        .unwrap_or(raw.len());
    Span::new(
        region.start + after_open,
        region.start + close.max(after_open),
    )
}

/// What a CommonMark reading of a body finds: its fenced code blocks and the headings written
/// as `#`-lines at the start of a line, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Blocks {
    /// Fenced code blocks.
    pub fences: Vec<Fence>,
    /// Where each heading's line starts: its level is its count of `#`, and its line is
    /// read again when asked for (a level and a span each took 24 bytes a heading).
    headings: Vec<usize>,
}

impl Blocks {
    /// Each heading's level and whole line, in order.
    pub(crate) fn headings(&self, text: &str) -> impl Iterator<Item = (usize, Span)> + Clone {
        self.headings.iter().map(move |&start| {
            let line = line_at(text, start);
            let marker = &text[line.start..line.end];
            (marker.len() - marker.trim_start_matches('#').len(), line)
        })
    }

    /// The sections of heading `level`, one at a time: each from its `#`-line up to the next
    /// one of that level. Heading-like lines inside code blocks (a Python comment, say) are
    /// not headings, so they stay in the section they are in.
    pub(crate) fn sections<'a>(
        &self,
        text: &'a str,
        level: usize,
    ) -> impl Iterator<Item = Section<'a>> {
        let heads = self.headings(text).filter(move |(l, _)| *l == level);
        sections::of_headings(
            text,
            heads.map(move |(_, line)| (line, text[line.start + level + 1..line.end].trim())),
        )
    }
}

/// Read the body starting at `body_start` with pulldown-cmark: a `## ` line inside a code
/// block, an HTML block or a list item's indentation is not a heading.
pub(crate) fn blocks(text: &str, body_start: usize) -> Blocks {
    let body = text.get(body_start..).unwrap_or("");
    let mut out = Blocks {
        fences: Vec::new(),
        headings: Vec::new(),
    };
    for (event, range) in events(body) {
        let start = body_start + range.start;
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
                out.fences.push(fence_at(text, body, body_start, range));
            }
            Event::Start(Tag::Heading { level, .. }) => {
                let line = line_at(text, start);
                let level = level as usize;
                let marker = &text[line.start..line.end];
                let hashes = marker.len() - marker.trim_start_matches('#').len();
                // Only `## Title` as written at the start of a line: not setext, not indented.
                if hashes == level && marker[hashes..].starts_with(' ') {
                    out.headings.push(line.start);
                }
            }
            _ => {}
        }
    }
    out
}

/// The fenced code blocks of the body from `body_start`, as [`blocks`] finds them, one at a
/// time: a body of a million blocks is never held as a list of them.
pub(crate) fn each_fence(text: &str, body_start: usize) -> impl Iterator<Item = Fence> + '_ {
    let body = text.get(body_start..).unwrap_or("");
    // A fence is three backticks or tildes: a body with neither has none, and is not parsed
    // for them (a third of the time of a body of millions of lines).
    let fenced = body.contains("```") || body.contains("~~~");
    let events = fenced.then(|| events(body)).into_iter().flatten();
    events.filter_map(move |(event, range)| match event {
        Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
            Some(fence_at(text, body, body_start, range))
        }
        _ => None,
    })
}

/// pulldown-cmark's events of `body` with their ranges in it, read a piece at a time
/// ([`pieces`]): never the tree of a whole hostile body at once.
pub(crate) fn events(body: &str) -> impl Iterator<Item = (Event<'_>, Range<usize>)> {
    pieces(body).flat_map(|(at, piece)| {
        let parsed = Parser::new_ext(piece, Options::empty()).into_offset_iter();
        parsed.map(move |(event, range)| (event, range.start + at..range.end + at))
    })
}

/// The fence whose block is `range` of `body` (which starts at `body_start` of `text`).
pub(crate) fn fence_at(text: &str, body: &str, body_start: usize, range: Range<usize>) -> Fence {
    let start = body_start + range.start;
    let end = body_start + body[..range.end].trim_end_matches(['\n', '\r']).len();
    Fence {
        info: info_word(text, start),
        span: Span::new(start, end.max(start)),
    }
}

/// The whole line (without its break) that holds the byte at `at`. A lone `\r` ends a line
/// too, as in CommonMark: in a file of such line ends, each heading's line was the whole
/// file, and each section's title a copy of it (150 KB of headings took 4.5 GB).
fn line_at(text: &str, at: usize) -> Span {
    let start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
    Span::new(start, end.max(start))
}

/// Where the line after the one ending at `end` starts (past `\n`, `\r\n` or a lone `\r`).
pub(crate) fn next_line(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    let newline = if rest.starts_with("\r\n") {
        2
    } else {
        usize::from(rest.starts_with(['\n', '\r']))
    };
    end + newline
}

/// The first word of the info string on the opening fence line starting at `at`.
fn info_word(text: &str, at: usize) -> Option<Span> {
    let line = line_at(text, at);
    let rest = &text[at..line.end];
    let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = rest.len() - rest.trim_start_matches(ch).len();
    let after = &rest[run..];
    let lead = after.len() - after.trim_start().len();
    let word_len = after[lead..]
        .find(|c: char| c.is_whitespace() || matches!(c, '{' | ',' | '`'))
        .unwrap_or(after.len() - lead);
    let word_start = at + run + lead;
    (word_len > 0).then(|| Span::new(word_start, word_start + word_len))
}

/// A link or image of a Markdown body, as CommonMark reads it (not inside code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    /// The destination, as written (backslash escapes and `<…>` removed): held in place up
    /// to 24 bytes, as nearly every one is (a body of millions of links held a string each).
    pub dest: compact_str::CompactString,
    /// Where the destination is written: in the link itself, or in the `[label]: dest`
    /// definition a reference link uses; the whole link when it cannot be found.
    pub span: Span,
    /// An image (`![alt](dest)`) rather than a link.
    pub image: bool,
}

/// The links and images of a Markdown body, as [`links_and`] finds them.
pub(crate) struct Links {
    /// The first links, in order, up to the limit asked for: by chunks, never copied whole
    /// (a list moved into exact room held the chunks and the room at once).
    pub list: Chunked<Link>,
    /// The first link past the limit, when there was one: what starts there is not listed.
    pub cut: Option<Span>,
}

/// The links and images of the body starting at `body_start`, in order, the first `limit` of
/// them (autolinks and email links are left out: they are never paths), handing `each` every
/// event of the body on the way with its range in the body, as [`events`] reads them: a
/// caller that reads the body for more than its links parses it once.
pub(crate) fn links_and(
    text: &str,
    body_start: usize,
    limit: usize,
    mut each: impl FnMut(&Event<'_>, Range<usize>),
) -> Links {
    let body = text.get(body_start..).unwrap_or("");
    // Grown by chunks: a body of 600,000 images doubled its list of links by copying.
    let mut out = Chunked::default();
    let mut cut = None;
    // A piece at a time ([`pieces`]): a reference link finds its definition in its own
    // piece, else in the others'.
    let definitions = Definitions::of(text, body, body_start);
    for (at, piece) in pieces(body) {
        let mut found = |link: Link, whole: Span| {
            if out.len() < limit {
                out.push(link);
            } else {
                cut.get_or_insert(whole);
            }
        };
        links_in(piece, at, body_start, &definitions, &mut found, &mut each);
    }
    Links { list: out, cut }
}

/// [`links_and`] of `piece`, which starts at `at` of the body, which starts at `body_start` of
/// its file: each link is handed to `found` with the whole link's span.
fn links_in(
    piece: &str,
    at: usize,
    body_start: usize,
    definitions: &Definitions<'_>,
    found: &mut impl FnMut(Link, Span),
    each: &mut impl FnMut(&Event<'_>, Range<usize>),
) {
    let base = body_start + at;
    let elsewhere = |link| definitions.resolve(link);
    let parser = Parser::new_with_broken_link_callback(piece, Options::empty(), Some(elsewhere))
        .into_offset_iter();
    // Looked up by label for each reference link: a list searched from the start made a
    // piece of thousands of definitions and links quadratic.
    let defs: std::collections::HashMap<String, Span> = parser
        .reference_definitions()
        .iter()
        .map(|(label, def)| {
            let span = dest_in(piece, def.span.clone(), &def.dest)
                .unwrap_or_else(|| Span::new(def.span.start, def.span.end));
            (label.to_lowercase(), span.shifted(base))
        })
        .collect();
    for (event, range) in parser {
        each(&event, range.start + at..range.end + at);
        let (link_type, dest, id, image) = match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                id,
                ..
            }) => (link_type, dest_url, id, false),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                id,
                ..
            }) => (link_type, dest_url, id, true),
            _ => continue,
        };
        if matches!(link_type, LinkType::Autolink | LinkType::Email) {
            continue;
        }
        let whole = Span::new(range.start, range.end).shifted(base);
        let span = match link_type {
            LinkType::Inline => dest_in(piece, range, &dest).map(|s| s.shifted(base)),
            _ => {
                let label = id.to_lowercase();
                defs.get(&label)
                    .copied()
                    .or_else(|| definitions.get(&label))
            }
        };
        let link = Link {
            dest: compact_str::CompactString::from(&*dest),
            span: span.unwrap_or(whole),
            image,
        };
        found(link, whole);
    }
}

/// Where `dest` is written in `body[range]`: after the last `](` (an inline link) or the
/// label's `]:` (a definition), skipping `<`.
fn dest_in(body: &str, range: std::ops::Range<usize>, dest: &str) -> Option<Span> {
    let source = body.get(range.clone())?;
    let after = source
        .rfind("](")
        .map(|i| i + 2)
        .or_else(|| source.find("]:").map(|i| i + 2))?;
    let rest = &source[after..];
    let lead = rest.len() - rest.trim_start().trim_start_matches('<').len();
    let start = range.start + after + lead;
    let written = body.get(start..)?;
    written
        .starts_with(dest)
        .then(|| Span::new(start, start + dest.len()))
        .or_else(|| {
            // Escapes make the written form longer: take it up to the destination's end.
            let end = written
                .find(|c: char| c.is_whitespace() || c == '>' || c == ')')
                .unwrap_or(written.len());
            (end > 0).then(|| Span::new(start, start + end))
        })
}

/// Fenced code blocks of the body (```` ``` ```` or `~~~`), as CommonMark reads them; an
/// unclosed one runs to the end of its container.
#[cfg(test)]
pub(crate) fn fences(text: &str, body_start: usize) -> Vec<Fence> {
    blocks(text, body_start).fences
}

/// The sections of heading `level` of the body (see [`Blocks::sections`]).
#[cfg(test)]
pub(crate) fn body_sections(text: &str, body_start: usize, level: usize) -> Vec<Section<'_>> {
    blocks(text, body_start).sections(text, level).collect()
}

/// The first line that looks meant as the heading `## {title}` but is not one: another
/// level, a missing space, a trailing colon or another case.
pub(crate) fn near_heading(text: &str, body_start: usize, title: &str) -> Option<Span> {
    lines_in(text, Span::new(body_start, text.len())).find_map(|(span, line)| {
        let hashes = line.len() - line.trim_start_matches('#').len();
        (hashes > 0
            && !line.starts_with("## ")
            && line
                .trim_start_matches('#')
                .trim()
                .trim_end_matches(':')
                .eq_ignore_ascii_case(title))
        .then_some(span)
    })
}

/// Text spans of Markdown list items (`- `, `* `, `+ `, `1. `) in `region`.
pub(crate) fn list_items(text: &str, region: Span) -> Vec<Span> {
    let mut out = Vec::new();
    for (span, line) in lines_in(text, region) {
        let lead = line.len() - line.trim_start().len();
        let rest = &line[lead..];
        let marker = if rest.starts_with("- ") || rest.starts_with("* ") || rest.starts_with("+ ") {
            2
        } else {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let after = &rest[digits..];
            if digits > 0 && (after.starts_with(". ") || after.starts_with(") ")) {
                digits + 2
            } else {
                continue;
            }
        };
        let item = &rest[marker..];
        let pad = item.len() - item.trim_start().len();
        let start = lead + marker + pad;
        let end = lead + marker + item.trim_end().len();
        if end > start {
            out.push(span.sub(start, end));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fences of backticks and of tildes are found; a body whose backticks never make three
    /// in a row has none, however its spans are written.
    #[test]
    fn fences_of_either_kind_and_none_without_three_in_a_row() {
        let text = "x\n\n```sh\nls\n```\n\n~~~\npwd\n~~~\n";
        let found: Vec<&str> = each_fence(text, 0)
            .map(|f| &text[f.span.start..f.span.end])
            .collect();
        assert_eq!(found, ["```sh\nls\n```", "~~~\npwd\n~~~"]);
        assert_eq!(each_fence("a `` b `` c\n    indented\n", 0).count(), 0);
    }

    fn texts<'t>(text: &'t str, spans: &[Span]) -> Vec<&'t str> {
        spans.iter().map(|s| &text[s.start..s.end]).collect()
    }

    #[test]
    fn lines_keep_offsets_and_drop_carriage_returns() {
        let text = "ab\r\ncd\n";
        let found: Vec<(Span, &str)> = lines_in(text, Span::new(0, text.len())).collect();
        assert_eq!(
            found,
            [
                (Span::new(0, 2), "ab"),
                (Span::new(4, 6), "cd"),
                (Span::new(7, 7), "")
            ]
        );
    }

    #[test]
    fn fences_with_info_words_and_unclosed_ones() {
        let text =
            "x\n```bash {.x}\nls\n```\n    ```indented\n~~~~\n```\nstill open\n~~~~\n```py\n";
        let found = fences(text, 0);
        assert_eq!(found.len(), 3);
        let infos: Vec<Option<&str>> = found
            .iter()
            .map(|f| f.info.map(|i| &text[i.start..i.end]))
            .collect();
        assert_eq!(infos, [Some("bash"), None, Some("py")]);
        // A ``` line does not close a ~~~~ block.
        assert_eq!(
            &text[found[1].span.start..found[1].span.end],
            "~~~~\n```\nstill open\n~~~~"
        );
        // An unclosed block runs to the end of the file (its last line break left out).
        assert_eq!(found[2].span.end, text.len() - 1);
    }

    #[test]
    fn a_heading_inside_a_fence_continues_its_section() {
        let text = "## Code\n```python\n## a comment\n```\n## Risk\nlow\n";
        let found = body_sections(text, 0, 2);
        let titles: Vec<&str> = found.iter().map(|s| s.title).collect();
        assert_eq!(titles, ["Code", "Risk"]);
        assert_eq!(found[0].content.end, text.find("## Risk").unwrap_or(0));
        // The way DojOps reads the same body.
        assert_eq!(super::sections::h2_sections(text, 0).count(), 3);
        let h1 = "# A\n## a.1\n~~~\n# not\n~~~\n# B\n";
        let found = body_sections(h1, 0, 1);
        let titles: Vec<&str> = found.iter().map(|s| s.title).collect();
        assert_eq!(titles, ["A", "B"]);
    }

    #[test]
    fn headings_are_what_commonmark_reads() {
        let text = "## A\nSetext\n---\n   ## indented\n    ## code\n- item\n  ```\n## B ##\n";
        let found = body_sections(text, 0, 2);
        let titles: Vec<&str> = found.iter().map(|s| s.title).collect();
        // A setext or indented heading is not a `## ` line; a fence inside a list item ends
        // with the item, so `## B` after it is a heading.
        assert_eq!(titles, ["A", "B ##"]);
        assert_eq!(found[1].heading, Span::new(text.len() - 8, text.len() - 1));
        assert_eq!(found[1].content, Span::new(text.len(), text.len()));
    }

    #[test]
    fn links_point_at_their_destination() {
        let text = "---\n---\nSee [a](references/a.md \"t\") and ![img](<assets/x y.png>).\n\
                    `[not](code.md)` [ref][r] <https://x.example> [e](#top)\n\n[r]: scripts/run.sh\n";
        let found = links_and(text, 8, usize::MAX, |_, _| {});
        assert_eq!(found.cut, None);
        let dests: Vec<(&str, &str, bool)> = found
            .list
            .iter()
            .map(|l| (l.dest.as_str(), &text[l.span.start..l.span.end], l.image))
            .collect();
        assert_eq!(
            dests,
            [
                ("references/a.md", "references/a.md", false),
                ("assets/x y.png", "assets/x y.png", true),
                ("scripts/run.sh", "scripts/run.sh", false),
                ("#top", "#top", false),
            ]
        );
        // Past the limit a link is not listed, and the first one left out is where it stops.
        let first_two = links_and(text, 8, 2, |_, _| {});
        assert!(first_two.list.iter().eq(found.list.iter().take(2)));
        let cut = first_two.cut.map(|s| &text[s.start..s.end]);
        assert_eq!(cut, Some("[ref][r]"));
    }

    #[test]
    fn near_miss_headings() {
        let text = "# command\n##Risk Assessment:\n## Risk Assessment\n";
        assert_eq!(near_heading(text, 0, "Command"), Some(Span::new(0, 9)));
        assert_eq!(
            near_heading(text, 0, "Risk Assessment"),
            Some(Span::new(10, 28))
        );
        assert_eq!(near_heading(text, 0, "Code"), None);
    }

    #[test]
    fn list_item_texts() {
        let text = "- one\n  * two \n+ \n3. three\n4) four\nnot - a list\n5.five\n";
        assert_eq!(
            texts(text, &list_items(text, Span::new(0, text.len()))),
            ["one", "two", "three", "four"]
        );
    }

    #[test]
    fn the_inside_of_a_fenced_region() {
        let text = "\n```json\n{\"a\": 1}\n```\n";
        let inside = inside_fence(text, Span::new(0, text.len()));
        assert_eq!(&text[inside.start..inside.end], "{\"a\": 1}\n");
        let plain = Span::new(0, 3);
        assert_eq!(inside_fence("{} ", plain), plain);
    }
}
