//! Markdown with YAML front matter: an exact splitter (offsets in the whole file) and the
//! `## ` sections of the body.

use crate::source::Span;

/// Where the front matter of a file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatter {
    /// The opening `---` line (without its line break).
    pub open: Span,
    /// The YAML between the fences.
    pub yaml: Span,
    /// Byte offset where the Markdown body starts (after the closing fence's line).
    pub body_start: usize,
}

/// Why a file has no usable front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontMatterError {
    /// The first line is not `---`.
    Missing {
        /// The first line, where `---` was expected.
        first_line: Span,
    },
    /// `---` opens a block that no later `---` line closes.
    Unclosed {
        /// The opening fence.
        open: Span,
    },
}

/// Lines of `text` from `start`, each as (span without line break, offset after the break).
fn lines(text: &str, start: usize) -> impl Iterator<Item = (Span, usize)> + '_ {
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

fn is_fence(line: &str) -> bool {
    line.trim_end() == "---"
}

/// Split the front matter off `text`, whose content starts at `start` (after a BOM).
pub fn split_front_matter(text: &str, start: usize) -> Result<FrontMatter, FrontMatterError> {
    let mut it = lines(text, start);
    let Some((open, yaml_start)) = it.next() else {
        return Err(FrontMatterError::Missing {
            first_line: Span::point(start),
        });
    };
    if !is_fence(&text[open.start..open.end]) {
        return Err(FrontMatterError::Missing { first_line: open });
    }
    for (line, next) in it {
        if is_fence(&text[line.start..line.end]) {
            return Ok(FrontMatter {
                open,
                yaml: Span::new(yaml_start, line.start),
                body_start: next,
            });
        }
    }
    Err(FrontMatterError::Unclosed { open })
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

    #[test]
    fn front_matter_offsets_are_in_the_whole_file() {
        let text = "\u{feff}---\r\na: 1\r\n---\r\n## Prompt\r\nhi\r\n";
        let fm = split_front_matter(text, 3).unwrap();
        assert_eq!(&text[fm.yaml.start..fm.yaml.end], "a: 1\r\n");
        assert_eq!(&text[fm.body_start..fm.body_start + 9], "## Prompt");
        let sections = h2_sections(text, fm.body_start);
        assert_eq!(sections[0].title, "Prompt");
    }

    #[test]
    fn missing_and_unclosed() {
        assert!(matches!(
            split_front_matter("# hi\n", 0),
            Err(FrontMatterError::Missing { .. })
        ));
        assert!(matches!(
            split_front_matter("---\na: 1\n", 0),
            Err(FrontMatterError::Unclosed { .. })
        ));
        assert!(matches!(
            split_front_matter("", 0),
            Err(FrontMatterError::Missing { .. })
        ));
    }
}
