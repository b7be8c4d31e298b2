//! A Markdown body's sections, each from a heading to the next one of its level, read one at
//! a time: a body of nothing but headings is never held as a list of them (a `.dops` of
//! three million `## a` lines took 17 times its size, a `TR-*.md` 22).

use super::markdown::{lines, next_line};
use crate::source::Span;

/// A section of a Markdown body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Section<'a> {
    /// The heading text, trimmed (`Prompt` for `## Prompt`), borrowed from the file.
    pub title: &'a str,
    /// The whole heading line.
    pub heading: Span,
    /// The content up to the next heading of the same level, or the end.
    pub content: Span,
}

/// The sections of `text` whose headings are `heads` (each heading line and its title, in
/// order): each runs from the line after its heading to the next heading's line.
pub(crate) fn of_headings<'a>(
    text: &'a str,
    heads: impl Iterator<Item = (Span, &'a str)>,
) -> impl Iterator<Item = Section<'a>> {
    let mut heads = heads.peekable();
    std::iter::from_fn(move || {
        let (heading, title) = heads.next()?;
        let end = heads.peek().map_or(text.len(), |(next, _)| next.start);
        Some(Section {
            title,
            heading,
            content: Span::new(next_line(text, heading.end).min(end), end),
        })
    })
}

/// The `## ` sections of the body starting at `body_start`, split on lines that begin with
/// `## ` the way DojOps splits them (code fences are not special to it either).
pub(crate) fn h2_sections(text: &str, body_start: usize) -> impl Iterator<Item = Section<'_>> {
    let heads = lines(text, body_start).filter_map(move |(line, _)| {
        let title = text[line.start..line.end].strip_prefix("## ")?;
        Some((line, title.trim()))
    });
    of_headings(text, heads)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::front_matter::split_front_matter;

    #[test]
    fn sections_after_the_front_matter() {
        let text = "\u{feff}---\r\na: 1\r\n---\r\n## Prompt\r\nhi\r\n## Two\r\n";
        let fm = split_front_matter(text, 3).unwrap();
        let sections: Vec<Section> = h2_sections(text, fm.body_start).collect();
        assert_eq!(sections[0].title, "Prompt");
        assert_eq!(
            &text[sections[0].content.start..sections[0].content.end],
            "hi\r\n"
        );
        assert_eq!(sections[1].title, "Two");
        assert_eq!(sections[1].content, Span::new(text.len(), text.len()));
    }

    #[test]
    fn a_section_runs_to_the_next_heading_and_the_last_to_the_end() {
        let text = "## A\n## B\nb\n## C";
        let found: Vec<(&str, &str)> = h2_sections(text, 0)
            .map(|s| (s.title, &text[s.content.start..s.content.end]))
            .collect();
        assert_eq!(found, [("A", ""), ("B", "b\n"), ("C", "")]);
    }
}
