//! One module per source format: each lowers a file's syntax tree into its typed AST,
//! validates and lints it, and contributes to the cross-file resolve step.

pub mod agent_skill;
pub mod agentcli;
pub mod cycod;
pub mod dojops;
pub mod fields;
mod item;
pub mod mcp;
pub mod outline;
mod release;
pub mod texts;
pub mod tool_md;
pub mod tool_request;
pub mod tree;
pub(crate) mod yaml_words;

use std::path::Path;
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::{MAX_PER_RULE, cap_per_rule};
use crate::discover::Claim;
use crate::fs::FileSystem;
use crate::ir::Lowering;
use crate::rules::syntax as syn;
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::{Parsed, SyntaxErrorKind};

pub use crate::fs::MAX_READ_BYTES;
pub use item::{Item, ItemCodec};

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

/// One source format (or family of formats that share a name scope): how its files are
/// found, checked one by one, checked together, and lowered into the IR.
pub trait Format: Sync {
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

    /// Parse, lower, validate and lint one file, reading companion files through `fs`.
    fn load(&self, file: Arc<SourceFile>, fs: &dyn FileSystem) -> FileResult;

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
    /// the runtime would leave out; none unless the format defines tools.
    fn lower<'a>(
        &self,
        _results: &'a [FileResult],
        _takes: &dyn Fn(&FileResult) -> bool,
    ) -> Lowering<'a> {
        Lowering::default()
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
}

/// Every format, in the order paths are classified. Adding a format is one line here.
pub static REGISTRY: &[&dyn Format] = &[
    &dojops::Dojops,
    &agentcli::Agentcli,
    &tool_md::ToolMd,
    &cycod::Cycod,
    &tool_request::ToolRequest,
    &mcp::Mcp,
    &agent_skill::AgentSkill,
];

/// The implementation that reads `format`, if any (schema files and configuration are read
/// only as companions).
pub fn format_of(format: FormatId) -> Option<&'static dyn Format> {
    REGISTRY
        .iter()
        .copied()
        .find(|f| f.patterns().iter().any(|(id, _)| *id == format))
}

impl FileResult {
    /// A file checked on its own, with no companion files.
    pub fn new(file: Arc<SourceFile>, diagnostics: Vec<Diagnostic>, item: Item) -> FileResult {
        FileResult {
            file,
            companions: Vec::new(),
            diagnostics,
            item,
        }
    }

    /// Number of tool definitions this file holds.
    pub fn tool_count(&self) -> usize {
        self.item
            .stored_tool_count()
            .unwrap_or_else(|| format_of(self.file.format).map_or(0, |f| f.tool_count(self)))
    }

    /// The definitions and references an editor navigates in this file.
    pub fn outline(&self) -> outline::Outline {
        format_of(self.file.format)
            .map(|f| f.outline(self))
            .unwrap_or_default()
    }
}

/// Every bundled tool of the files `takes` accepts (sorted by name, then path), and the ones
/// left out (sorted by name). A file with an error is not compiled, so `takes` should refuse
/// it. Provenance paths are relative to `root`, the repository root, so a bundle is the same
/// whichever folder it is built from.
pub fn lower_all<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    root: &Path,
) -> Lowering<'a> {
    let mut all = Lowering::default();
    for format in REGISTRY {
        let Lowering {
            tools,
            left_out,
            skills,
        } = format.lower(results, takes);
        all.tools.extend(tools);
        all.left_out.extend(left_out);
        all.skills.extend(skills);
    }
    for lowered in &mut all.tools {
        lowered.tool.provenance.path = crate::discover::display_path(&lowered.file.path, root);
    }
    all.tools.sort_by(|a, b| {
        (
            &a.tool.name,
            &a.tool.provenance.path,
            a.tool.provenance.index,
        )
            .cmp(&(
                &b.tool.name,
                &b.tool.provenance.path,
                b.tool.provenance.index,
            ))
    });
    all.left_out
        .sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    all.skills
        .sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    all
}

/// Read through `fs`, parse and lower one discovered file, unless `claim` leaves it to the
/// content and the content is not in the shape of `format` ([`Format::claims`]): then `None`,
/// and the file is not toolc's to report.
pub fn load_claimed(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    format: FormatId,
    claim: Claim,
) -> Option<FileResult> {
    load_judged(fs, path, display, format, claim).ok()
}

/// [`load_claimed`], with the file read when it is not claimed (what the cache keeps of it).
pub fn load_judged(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    format: FormatId,
    claim: Claim,
) -> Result<FileResult, Arc<SourceFile>> {
    let read = fs.read(path);
    // A file too large to read cannot show whether it has the format's shape: it is claimed,
    // so the refusal is reported rather than the file skipped without a word.
    let unjudged = matches!(read, Err(crate::fs::ReadError::TooLarge(_)));
    let (file, fatal) = source_of(read, path, display, format);
    if claim == Claim::ByContent
        && !unjudged
        && format_of(format).is_some_and(|f| !f.claims(format, file.body()))
    {
        return Err(file);
    }
    Ok(load_source(fs, file, fatal, format))
}

fn load_source(
    fs: &dyn FileSystem,
    file: Arc<SourceFile>,
    fatal: Option<Diagnostic>,
    format: FormatId,
) -> FileResult {
    if let Some(d) = fatal {
        return FileResult::new(file, vec![d], Item::none());
    }
    match format_of(format) {
        // Every format's findings are capped per rule and file, whatever the format does
        // itself: a generated or hostile file must not bury the output or exhaust memory.
        Some(reader) => {
            let mut result = reader.load(file, fs);
            let found = crate::security::check_file(reader, &result);
            let mut diagnostics = std::mem::take(&mut result.diagnostics);
            diagnostics.extend(found);
            result.diagnostics = cap_per_rule(diagnostics, MAX_PER_RULE);
            result
        }
        // Schema files and configuration are read only as companions of a definition.
        None => FileResult::new(file, Vec::new(), Item::none()),
    }
}

/// Every cross-file diagnostic, per family, reading companion files through `fs`.
pub fn resolve_with(fs: &dyn FileSystem, results: &[FileResult]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = REGISTRY
        .iter()
        .flat_map(|f| f.resolve(results, fs))
        .collect();
    out.extend(crate::security::resolve(results));
    out
}

/// A file as text, from a read made through a [`FileSystem`]: the source (lossily decoded if
/// needed) and, when the file cannot be checked at all, the one diagnostic that says why.
pub fn source_of(
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
    let (file, utf8_error) = SourceFile::from_bytes(path.to_path_buf(), display, format, &bytes);
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
            // YAML parser text becomes toolc's words, with the usual cause as the help.
            let phrase = (e.kind == SyntaxErrorKind::Yaml).then(|| yaml_words::phrase(&e.message));
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
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::discover::Classifier;

    /// Every definition format is read by exactly one registered format; schema files and
    /// the configuration only as companions.
    #[test]
    fn each_format_id_has_one_home() {
        let ids = [
            FormatId::DojopsTool,
            FormatId::DojopsDops,
            FormatId::DojopsPolicy,
            FormatId::AgentcliManifest,
            FormatId::ToolMd,
            FormatId::AgentMd,
            FormatId::CycodTool,
            FormatId::ToolRequest,
            FormatId::McpServer,
            FormatId::McpConfig,
            FormatId::AgentSkill,
        ];
        for id in ids {
            let homes = REGISTRY
                .iter()
                .filter(|f| f.patterns().iter().any(|(i, _)| *i == id))
                .count();
            assert_eq!(homes, 1, "{id:?}");
        }
        assert!(format_of(FormatId::DojopsSchema).is_none());
        assert!(format_of(FormatId::Config).is_none());
    }

    /// The registry's patterns and names classify paths as users expect.
    #[test]
    fn paths_classify_by_pattern_then_by_name() {
        let classifier = Classifier::new(&Config::default());
        let cases = [
            ("/r/.dojops/tools/x/tool.yaml", Some(FormatId::DojopsTool)),
            ("/r/.dojops/policy.yaml", Some(FormatId::DojopsPolicy)),
            ("/r/skills/a.dops", Some(FormatId::DojopsDops)),
            ("/r/tools.json", Some(FormatId::AgentcliManifest)),
            ("/r/TR-1.tool.md", Some(FormatId::ToolMd)),
            ("/r/a.agent.md", Some(FormatId::AgentMd)),
            ("/r/.cycod/tools/a.yml", Some(FormatId::CycodTool)),
            ("/r/TR-20250101-000000Z-x.md", Some(FormatId::ToolRequest)),
            ("/r/server.json", Some(FormatId::McpServer)),
            ("/r/.mcp.json", Some(FormatId::McpConfig)),
            ("/r/.vscode/mcp.json", Some(FormatId::McpConfig)),
            ("/r/.claude/skills/pdf/SKILL.md", Some(FormatId::AgentSkill)),
            ("/r/notes.md", None),
        ];
        for (path, want) in cases {
            assert_eq!(classifier.classify(Path::new(path)), want, "{path}");
        }
        // Outside the patterns only a file named explicitly is recognised, by its name.
        let tool = Path::new("/r/elsewhere/tool.yaml");
        assert_eq!(classifier.classify(tool), None);
        assert_eq!(
            classifier.classify_explicit(tool),
            Some(FormatId::DojopsTool)
        );
        let cycod = Path::new("/r/elsewhere/a.yaml");
        assert_eq!(classifier.classify_explicit(cycod), None);
    }

    /// The pre-commit hook passes every file a format reads by its built-in patterns: its
    /// `files` expression is written by hand, so this holds it to the registry.
    #[test]
    fn the_pre_commit_hook_sees_every_pattern() {
        let hooks = include_str!("../../.pre-commit-hooks.yaml");
        let block = hooks
            .split("- id: toolc-check")
            .nth(1)
            .and_then(|h| h.split("files: |").nth(1))
            .and_then(|f| f.split("\n  require_serial").next())
            .expect("the toolc-check hook has a `files` block");
        // pre-commit reads it as a Python regular expression in verbose mode, as `regex` does.
        let files = regex::Regex::new(block.trim()).expect("a regex");
        for format in REGISTRY {
            for (id, patterns) in format.patterns() {
                for pattern in *patterns {
                    // A path the pattern matches, one and two folders deep.
                    let path = pattern.replace("**/", "").replace('*', "x");
                    for p in [path.clone(), format!("a/b/{path}")] {
                        assert!(
                            files.is_match(&p),
                            "{id:?}: the hook skips `{p}` ({pattern})"
                        );
                    }
                }
            }
        }
        // A skill's other files change the skill too.
        assert!(files.is_match(".claude/skills/pdf/scripts/extract.py"));
    }
}
