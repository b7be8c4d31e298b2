//! YAML front matter of a Markdown file: an exact splitter (offsets in the whole file), and
//! the one diagnostic for a file that has none or never closes it, worded per format.

use std::sync::Arc;

use super::markdown::lines;
use crate::diagnostics::Diagnostic;
use crate::rules::syntax as syn;
use crate::source::{SourceFile, Span};

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

/// How one format words a missing or unclosed front matter.
#[derive(Debug, Clone, Copy)]
pub struct FrontMatterWording<'a> {
    /// The kind of file, for the message (`a \`.dops\` file`).
    pub what: &'a str,
    /// What the runtime does with such a file (a note).
    pub consequence: &'a str,
    /// How to write the front matter when there is none.
    pub missing_help: &'a str,
    /// Where to close an unclosed front matter.
    pub unclosed_help: &'a str,
}

/// SYN010 (no opening `---`) or SYN011 (never closed), worded for the file's format.
pub fn front_matter_error(
    file: &Arc<SourceFile>,
    e: FrontMatterError,
    wording: &FrontMatterWording<'_>,
) -> Diagnostic {
    match e {
        FrontMatterError::Missing { first_line } => Diagnostic::new(
            &syn::MISSING_FRONT_MATTER,
            file,
            first_line,
            format!("{} must start with a `---` front-matter line", wording.what),
        )
        .label("expected `---`")
        .note(wording.consequence)
        .help(wording.missing_help),
        FrontMatterError::Unclosed { open } => Diagnostic::new(
            &syn::UNCLOSED_FRONT_MATTER,
            file,
            open,
            "the front matter is opened but never closed",
        )
        .label("opened here")
        .note(wording.consequence)
        .help(wording.unclosed_help),
    }
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

    #[test]
    fn the_error_names_the_format() {
        let file = SourceFile::new(
            "x.dops".into(),
            "x.dops".into(),
            crate::source::FormatId::DojopsDops,
            "# hi\n".into(),
        );
        let Err(e) = split_front_matter(&file.text, 0) else {
            panic!("a file without `---` has no front matter");
        };
        let wording = FrontMatterWording {
            what: "a `.dops` file",
            consequence: "DojOps refuses to load the file",
            missing_help: "put the front matter first",
            unclosed_help: "close it",
        };
        let d = front_matter_error(&file, e, &wording);
        assert_eq!(d.rule.code, "SYN010");
        assert_eq!(d.span, Span::new(0, 4));
        assert_eq!(
            d.message,
            "a `.dops` file must start with a `---` front-matter line"
        );
        assert_eq!(d.notes, ["DojOps refuses to load the file"]);
        assert_eq!(d.help.as_deref(), Some("put the front matter first"));
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
