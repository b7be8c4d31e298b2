//! Markdown bodies: the `## ` sections (the front matter before them is split off by
//! [`super::front_matter`]).

use crate::source::Span;

/// Lines of `text` from `start`, each as (span without line break, offset after the break).
pub(crate) fn lines(text: &str, start: usize) -> impl Iterator<Item = (Span, usize)> + '_ {
    let mut pos = start;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let rest = &text[pos..];
        let (len, next) = match rest.find('\n') {
            Some(i) => (i, pos + i + 1),
            None => (rest.len(), text.len()),
        };
        let line = &rest[..len];
        let trimmed = line.strip_suffix('\r').unwrap_or(line);
        let span = Span::new(pos, pos + trimmed.len());
        pos = next;
        Some((span, next))
    })
}

/// A `## ` section of a Markdown body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading text, trimmed (`Prompt` for `## Prompt`).
    pub title: String,
    /// The whole heading line.
    pub heading: Span,
    /// The content up to the next `## ` heading or the end.
    pub content: Span,
}

/// The `## ` sections of the body starting at `body_start`, split on lines that begin with
/// `## ` the way DojOps splits them (code fences are not special to it either).
pub fn h2_sections(text: &str, body_start: usize) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    for (line, next) in lines(text, body_start) {
        let s = &text[line.start..line.end];
        if let Some(title) = s.strip_prefix("## ") {
            if let Some(last) = sections.last_mut() {
                last.content.end = line.start;
            }
            sections.push(Section {
                title: title.trim().to_string(),
                heading: line,
                content: Span::new(next, text.len()),
            });
        }
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::front_matter::split_front_matter;

    #[test]
    fn sections_after_the_front_matter() {
        let text = "\u{feff}---\r\na: 1\r\n---\r\n## Prompt\r\nhi\r\n## Two\r\n";
        let fm = split_front_matter(text, 3).unwrap();
        let sections = h2_sections(text, fm.body_start);
        assert_eq!(sections[0].title, "Prompt");
        assert_eq!(
            &text[sections[0].content.start..sections[0].content.end],
            "hi\r\n"
        );
        assert_eq!(sections[1].title, "Two");
    }
}
