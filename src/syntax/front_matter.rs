//! YAML front matter of a Markdown file: an exact splitter (offsets in the whole file).

use super::markdown::lines;
use crate::source::Span;

/// Where the front matter of a file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FrontMatter {
    /// The opening `---` line (without its line break).
    pub open: Span,
    /// The YAML between the fences.
    pub yaml: Span,
    /// Byte offset where the Markdown body starts (after the closing fence's line).
    pub body_start: usize,
}

/// Why a file has no usable front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FrontMatterError {
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

fn is_fence(line: &str) -> bool {
    line.trim_end() == "---"
}

/// Split the front matter off `text`, whose content starts at `start` (after a BOM).
pub(crate) fn split_front_matter(
    text: &str,
    start: usize,
) -> Result<FrontMatter, FrontMatterError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_offsets_are_in_the_whole_file() {
        let text = "\u{feff}---\r\na: 1\r\n---\r\n## Prompt\r\nhi\r\n";
        let fm = split_front_matter(text, 3).unwrap();
        assert_eq!(&text[fm.yaml.start..fm.yaml.end], "a: 1\r\n");
        assert_eq!(&text[fm.body_start..fm.body_start + 9], "## Prompt");
    }

    /// A file whose lines end in a lone CR (classic Mac OS) has its front matter: the
    /// reference validator and every reader with universal newlines load it.
    #[test]
    fn a_lone_cr_ends_a_line() {
        let text = "---\rname: a\r---\r# A\rText.\r";
        let fm = split_front_matter(text, 0).unwrap();
        assert_eq!(&text[fm.open.start..fm.open.end], "---");
        assert_eq!(&text[fm.yaml.start..fm.yaml.end], "name: a\r");
        assert_eq!(&text[fm.body_start..], "# A\rText.\r");
        // Mixed ends: CRLF is one line end, not two.
        let text = "---\r\na: 1\r---\n\r\nbody";
        let fm = split_front_matter(text, 0).unwrap();
        assert_eq!(&text[fm.yaml.start..fm.yaml.end], "a: 1\r");
        assert_eq!(&text[fm.body_start..], "\r\nbody");
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
