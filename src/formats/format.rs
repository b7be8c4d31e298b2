//! What every format implements and hands back: the [`Format`] trait, a file's
//! [`FileResult`], and the shared steps of a load (reading bytes into a source file, parse
//! problems into diagnostics). The registry that lists the formats is `mod.rs`'s; a format
//! imports this file, never the registry.

use std::path::Path;
use std::sync::Arc;

use super::item::{Item, ItemCodec};
use super::{outline, yaml_words};
use crate::diagnostics::Diagnostic;
use crate::fs::FileSystem;
use crate::ir::Sink;
use crate::rules::syntax as syn;
use crate::security::{Passes, texts};
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::{Parsed, SyntaxErrorKind};

/// What one file contributed: its source, diagnostics, and the typed item for resolve.
#[derive(Debug)]
pub(crate) struct FileResult {
    /// The file itself.
    pub file: Arc<SourceFile>,
    /// Other files this one pulled in (DojOps schema files), for suppressions and counts.
    pub companions: Vec<Arc<SourceFile>>,
    /// Diagnostics found in this file (and its companions).
    pub diagnostics: Vec<Diagnostic>,
    /// The typed item, when the file could be lowered.
    pub item: Item,
    /// The trees the load parsed, for the custom rules run right after it: the load stage
    /// takes them (never kept past the file's load, nor cached).
    pub trees: Option<Box<Trees>>,
    /// The codes of the custom rules whose `given` selected something in it (kept in the
    /// cache: a run warns of a rule that selects nothing anywhere).
    pub custom_matched: Vec<&'static str>,
}

/// The syntax trees a format's load built and would otherwise drop: handed on so that the
/// custom rules (`crate::custom`) read a file without parsing it again.
#[derive(Debug, Default)]
pub(crate) struct Trees {
    /// The file's tree as a `subject = "file"` rule reads it (the whole YAML or JSON
    /// document; the front matter of a Markdown file).
    pub root: Option<crate::syntax::Node>,
    /// The trees of its companion files that the format parsed (DojOps schema files).
    pub companions: Vec<(Arc<SourceFile>, crate::syntax::Node)>,
}

impl Trees {
    /// The trees of a file whose load parsed only its own `root`.
    pub(crate) fn of_root(root: Option<crate::syntax::Node>) -> Option<Box<Trees>> {
        root.map(|root| {
            Box::new(Trees {
                root: Some(root),
                companions: Vec::new(),
            })
        })
    }
}

impl FileResult {
    /// The tree the load kept of `file` (one of the result's companions), if any.
    pub(crate) fn companion_tree(&self, file: &SourceFile) -> Option<&crate::syntax::Node> {
        let trees = self.trees.as_deref()?;
        trees
            .companions
            .iter()
            .find(|(f, _)| f.path == file.path)
            .map(|(_, n)| n)
    }
}

impl FileResult {
    /// A file checked on its own, with no companion files.
    pub(crate) fn new(
        file: Arc<SourceFile>,
        diagnostics: Vec<Diagnostic>,
        item: Item,
    ) -> FileResult {
        FileResult {
            file,
            companions: Vec::new(),
            diagnostics,
            item,
            trees: None,
            custom_matched: Vec::new(),
        }
    }
}

/// One source format (or family of formats that share a name scope): how its files are
/// found, checked one by one, checked together, and lowered into the IR.
pub(crate) trait Format: Sync {
    /// The formats this implementation reads, each with its built-in path patterns, in the
    /// order they are tried.
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])];

    /// The format of a file named explicitly (on the command line, an editor buffer) that no
    /// pattern matched, judged by its file name alone.
    fn by_name(&self, path: &Path) -> Option<FormatId>;

    /// Whether `text`, the content of a file found at one of this format's paths, has the
    /// shape `format` requires at its root: true when the file is this format's, false when it
    /// belongs to another tool that uses the same file name (it is then left alone, unreported).
    /// Asked only of files found by walking; a file named on the command line, given on stdin
    /// or matched by an `include` is always checked. By default every file is claimed: right
    /// for a format whose paths are its own (`.dojops/…`, `.cycod/tools/…`).
    fn claims(&self, _format: FormatId, _text: &str) -> bool {
        true
    }

    /// Parse, lower, validate and lint one file, reading companion files through `fs`, and
    /// running only the costly `passes` the run needs (schema validation among them).
    fn load(&self, file: Arc<SourceFile>, fs: &dyn FileSystem, passes: Passes) -> FileResult;

    /// Cross-file checks over this format's files among `results` (others are skipped);
    /// none unless the format has a name scope wider than one file.
    fn resolve(&self, _results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        Vec::new()
    }

    /// Number of tool definitions `r` (one of this format's files) holds; none unless the
    /// format defines tools.
    fn tool_count(&self, _r: &FileResult) -> usize {
        0
    }

    /// The tools of this format's files among `results` that `takes` accepts, and the ones
    /// the runtime would leave out, put into `out`; none unless the format defines tools.
    fn lower<'a>(
        &self,
        _results: &'a [FileResult],
        _takes: &dyn Fn(&FileResult) -> bool,
        _out: &mut dyn Sink<'a>,
    ) {
    }

    /// What an editor navigates in `r` (one of this format's files): the tools and
    /// parameters it defines, the names and files it references. None by default.
    fn outline(&self, _r: &FileResult) -> outline::Outline {
        outline::Outline::default()
    }

    /// How this format's items are cached ([`ItemCodec`]); none by default: the format's
    /// files are then loaded on every run.
    fn cache(&self) -> Option<ItemCodec> {
        None
    }

    /// What the model reads of `r` (one of this format's files) and what it runs, checked:
    /// names, descriptions, schema strings, prompts, guidance, commands, each with its exact
    /// span, go through the security pass (`crate::security`) the same way for every format.
    /// To take part, build a [`texts::ToolTexts`] per tool in `load` while the syntax tree is
    /// in hand, with [`texts::Collector`] (`schema` reads a JSON Schema, `scalar` a YAML or
    /// JSON string, `verbatim` a Markdown region), pass them to [`texts::FileTexts::check`],
    /// keep the result in the item, and return it here. The default, none, leaves only the
    /// checks that read a file's lines (hidden characters, secrets).
    fn texts<'r>(&self, _r: &'r FileResult) -> Option<&'r texts::FileTexts> {
        None
    }

    /// [`Format::texts`], to let go of.
    fn texts_mut<'r>(&self, _r: &'r mut FileResult) -> Option<&'r mut texts::FileTexts> {
        None
    }
}

/// A file as text, from a read made through a [`FileSystem`]: the source (lossily decoded if
/// needed) and, when the file cannot be checked at all, the one diagnostic that says why.
pub(crate) fn source_of(
    read: Result<Vec<u8>, crate::fs::ReadError>,
    path: &Path,
    display: String,
    format: FormatId,
) -> (Arc<SourceFile>, Option<Diagnostic>) {
    match read {
        Ok(bytes) => decode(path, display, format, bytes),
        Err(e) => {
            let file = SourceFile::new(path.to_path_buf(), display, format, String::new());
            let d = Diagnostic::new(&syn::UNREADABLE_FILE, &file, Span::point(0), e.to_string());
            (file, Some(d))
        }
    }
}

/// Turn bytes into a source file, diagnosing binary, non-UTF-8 and empty content.
pub(crate) fn decode(
    path: &Path,
    display: String,
    format: FormatId,
    bytes: Vec<u8>,
) -> (Arc<SourceFile>, Option<Diagnostic>) {
    let nul = bytes.iter().position(|b| *b == 0);
    if let Some(at) = nul {
        // Binary content is neither shown nor kept: the diagnostic names the offset instead.
        let file = SourceFile::new(path.to_path_buf(), display, format, String::new());
        let d = Diagnostic::new(
            &syn::BINARY_FILE,
            &file,
            Span::point(0),
            format!("the file contains a NUL byte at offset {at}: it looks binary, not like a tool definition"),
        )
        .help("check that the right file is committed under this name");
        return (file, Some(d));
    }
    let (file, utf8_error) = SourceFile::from_bytes(path.to_path_buf(), display, format, bytes);
    let fatal = if let Some(at) = utf8_error {
        // `at` is the stored offset, which is also where the first U+FFFD sits in the text.
        let span = Span::new(at, at + '\u{fffd}'.len_utf8());
        Some(
            Diagnostic::new(
                &syn::INVALID_UTF8,
                &file,
                span,
                format!("the file is not valid UTF-8 (first bad byte at offset {at})"),
            )
            .label("not UTF-8")
            .help("re-save the file as UTF-8"),
        )
    } else if file.body().trim().is_empty() && format != FormatId::DojopsPolicy {
        // Not for a policy: an empty one is DojOps's "no policy" (default-open), like no file.
        Some(
            Diagnostic::new(&syn::EMPTY_FILE, &file, Span::point(0), "the file is empty")
                .help("add the definition, or delete the file"),
        )
    } else {
        None
    };
    (file, fatal)
}

/// Turn parse problems into diagnostics.
pub(crate) fn syntax_diagnostics(file: &Arc<SourceFile>, parsed: &Parsed) -> Vec<Diagnostic> {
    // Repeated keys past those built were only counted: one line stands for them.
    let left_out = parsed.repeats_left_out.map(|(span, count)| {
        crate::diagnostics::cap::summary(
            Diagnostic::new(&syn::DUPLICATE_KEY, file, span, String::new()),
            count,
        )
    });
    parsed
        .errors
        .iter()
        .map(|e| {
            let rule = match e.kind {
                SyntaxErrorKind::Yaml => &syn::INVALID_YAML,
                SyntaxErrorKind::Json => &syn::INVALID_JSON,
                SyntaxErrorKind::DuplicateKey => &syn::DUPLICATE_KEY,
                SyntaxErrorKind::AliasLimit => &syn::ALIAS_EXPANSION_LIMIT,
                SyntaxErrorKind::TooDeep => &syn::NESTING_TOO_DEEP,
                SyntaxErrorKind::MultipleDocuments => &syn::MULTIPLE_DOCUMENTS,
            };
            // YAML parser text becomes toolc's words, with the usual cause as the help (an
            // error that explains itself is in toolc's words already).
            let phrase = (e.kind == SyntaxErrorKind::Yaml && e.explain.is_none())
                .then(|| yaml_words::phrase(&e.message));
            let message = phrase
                .as_ref()
                .map_or_else(|| e.message.clone(), |p| p.message.clone());
            let mut d = Diagnostic::new(rule, file, e.span, message);
            if let Some((span, msg)) = &e.related {
                d = d.related(file, *span, msg.clone());
            }
            if let Some(explain) = e.explain {
                d = d.label(explain.label).help(explain.help);
            }
            if e.kind == SyntaxErrorKind::DuplicateKey {
                d = d
                    .label("duplicate key")
                    .help("remove one of the two keys; parsers disagree on which one wins");
            }
            if let Some(p) = phrase
                && d.help.is_none()
            {
                d = d.help(p.help);
            }
            d
        })
        .chain(left_out)
        .collect()
}
