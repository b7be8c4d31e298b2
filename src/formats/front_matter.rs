//! The one diagnostic for a Markdown file whose front matter is missing or never closed,
//! worded per format (the splitter is `syntax::front_matter`'s).

use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::rules::syntax as syn;
use crate::source::SourceFile;
use crate::syntax::front_matter::FrontMatterError;

/// How one format words a missing or unclosed front matter.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrontMatterWording<'a> {
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
pub(crate) fn front_matter_error(
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
        .note(wording.consequence.to_string())
        .help(wording.missing_help.to_string()),
        FrontMatterError::Unclosed { open } => Diagnostic::new(
            &syn::UNCLOSED_FRONT_MATTER,
            file,
            open,
            "the front matter is opened but never closed",
        )
        .label("opened here")
        .note(wording.consequence.to_string())
        .help(wording.unclosed_help.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    #[test]
    fn the_error_names_the_format() {
        let file = SourceFile::new(
            "x.dops".into(),
            "x.dops".into(),
            crate::source::FormatId::DojopsDops,
            "# hi\n".into(),
        );
        let Err(e) = crate::syntax::front_matter::split_front_matter(&file.text, 0) else {
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
}
