//! One module per source format: each lowers a file's syntax tree into its typed AST,
//! validates and lints it, and contributes to the cross-file resolve step.

pub mod agentcli;
pub mod cycod;
pub mod dojops;
pub mod fields;
pub mod tool_md;
pub mod tool_request;

use std::path::Path;
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::fs::FileSystem;
use crate::rules::syntax as syn;
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::{Parsed, SyntaxErrorKind};

pub use crate::fs::MAX_READ_BYTES;

/// What one file contributed: its source, diagnostics, and the typed item for resolve.
#[derive(Debug)]
pub struct FileResult {
    /// The file itself.
    pub file: Arc<SourceFile>,
    /// Other files this one pulled in (DojOps schema files), for suppressions and counts.
    pub companions: Vec<Arc<SourceFile>>,
    /// Diagnostics found in this file (and its companions).
    pub diagnostics: Vec<Diagnostic>,
    /// The typed item, when the file could be lowered.
    pub item: Item,
}

/// A lowered file, by format family.
#[derive(Debug)]
pub enum Item {
    /// Nothing usable (unreadable, unparsable).
    None,
    /// A DojOps tool, skill or policy.
    Dojops(dojops::Item),
    /// An agentcli `tools.json` manifest.
    Agentcli(agentcli::Manifest),
    /// A `*.tool.md` tool or `*.agent.md` agent.
    ToolMd(tool_md::Item),
    /// A cycod custom tool.
    Cycod(cycod::Tool),
    /// A `TR-*.md` tool execution request.
    ToolRequest(tool_request::Request),
}

impl FileResult {
    /// Number of tool definitions this file holds.
    pub fn tool_count(&self) -> usize {
        match &self.item {
            Item::Dojops(item) => item.tool_count(),
            Item::Agentcli(m) => m.tool_count(),
            Item::ToolMd(item) => item.tool_count(),
            Item::Cycod(_) => 1,
            Item::ToolRequest(_) => 0,
            Item::None => usize::from(matches!(
                self.file.format,
                FormatId::DojopsTool
                    | FormatId::DojopsDops
                    | FormatId::ToolMd
                    | FormatId::CycodTool
            )),
        }
    }
}

/// Read (from the disk), parse and lower one discovered file.
pub fn load(path: &Path, display: String, format: FormatId) -> FileResult {
    load_with(&crate::fs::Disk, path, display, format)
}

/// Read through `fs`, parse and lower one discovered file.
pub fn load_with(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    format: FormatId,
) -> FileResult {
    let (file, fatal) = read_source(fs, path, display, format);
    load_source(fs, file, fatal, format)
}

fn load_source(
    fs: &dyn FileSystem,
    file: Arc<SourceFile>,
    fatal: Option<Diagnostic>,
    format: FormatId,
) -> FileResult {
    if let Some(d) = fatal {
        return FileResult {
            file,
            companions: Vec::new(),
            diagnostics: vec![d],
            item: Item::None,
        };
    }
    match format {
        FormatId::DojopsTool | FormatId::DojopsDops | FormatId::DojopsPolicy => {
            dojops::load(file, fs)
        }
        FormatId::AgentcliManifest => agentcli::load(file, fs),
        FormatId::ToolMd | FormatId::AgentMd => tool_md::load(file),
        FormatId::CycodTool => cycod::load(file),
        FormatId::ToolRequest => tool_request::load(file),
        FormatId::DojopsSchema | FormatId::Config => FileResult {
            file,
            companions: Vec::new(),
            diagnostics: Vec::new(),
            item: Item::None,
        },
    }
}

/// Every cross-file diagnostic, per family, reading companion files from the disk.
pub fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    resolve_with(&crate::fs::Disk, results)
}

/// Every cross-file diagnostic, per family, reading companion files through `fs`.
pub fn resolve_with(fs: &dyn FileSystem, results: &[FileResult]) -> Vec<Diagnostic> {
    let mut out = dojops::resolve(results);
    out.extend(agentcli::resolve(results));
    out.extend(tool_md::resolve(results));
    out.extend(cycod::resolve(results, fs));
    out.extend(tool_request::resolve(results));
    out
}

/// Read a file as text through `fs`. Returns the source (lossily decoded if needed) and,
/// when the file cannot be checked at all, the one diagnostic that says why.
pub fn read_source(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    format: FormatId,
) -> (Arc<SourceFile>, Option<Diagnostic>) {
    match fs.read(path) {
        Ok(bytes) => decode(path, display, format, bytes),
        Err(e) => {
            let file = SourceFile::new(path.to_path_buf(), display, format, String::new());
            let d = Diagnostic::new(&syn::UNREADABLE_FILE, &file, Span::point(0), e.to_string());
            (file, Some(d))
        }
    }
}

/// Turn bytes into a source file, diagnosing binary, non-UTF-8 and empty content.
pub fn decode(
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
    let (text, utf8_error) = match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
        }
    };
    let file = SourceFile::new(path.to_path_buf(), display, format, text);
    let fatal = if let Some(at) = utf8_error {
        let span = Span::new(
            at,
            at + file.text[at..].chars().next().map_or(0, char::len_utf8),
        );
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
pub fn syntax_diagnostics(file: &Arc<SourceFile>, parsed: &Parsed) -> Vec<Diagnostic> {
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
            let mut d = Diagnostic::new(rule, file, e.span, e.message.clone());
            if let Some((span, msg)) = &e.related {
                d = d.related(file, *span, msg.clone());
            }
            if e.kind == SyntaxErrorKind::DuplicateKey {
                d = d
                    .label("duplicate key")
                    .help("remove one of the two keys; parsers disagree on which one wins");
            }
            if e.kind == SyntaxErrorKind::Yaml && d.help.is_none() {
                d = d.maybe_help(yaml_hint(&e.message).map(str::to_string));
            }
            d
        })
        .collect()
}

/// The usual cause of a YAML parser message, said as a fix.
fn yaml_hint(message: &str) -> Option<&'static str> {
    if message.contains("mapping values are not allowed") {
        Some(
            "`: ` inside an unquoted value starts a new mapping: quote the whole value, or write it as a block scalar (`key: |` and the value indented on the next lines)",
        )
    } else if message.contains("unknown escape character") {
        Some(
            "inside double quotes only YAML escapes such as `\\n`, `\\\"` and `\\\\` are allowed: use single quotes or a block scalar for shell text",
        )
    } else if message.contains("tab") {
        Some("YAML does not allow tabs for indentation: indent with spaces")
    } else {
        None
    }
}
