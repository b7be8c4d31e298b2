//! agentcli `tools.json` manifests (the goagent project, https://github.com/hyperifyio/goagent;
//! docs/formats/agentcli-manifest.md).
//!
//! agentcli's loader stops at the first problem and refuses the whole manifest, so one bad
//! entry takes every tool with it. toolc reports all of them at once, each with the entry's
//! index and name the way the runtime words it (`tool[3] "fs_read": …`).

mod claim;
mod command;
mod entries;
mod env;
mod ir;
mod outline;
mod texts;

use serde::{Deserialize, Serialize};

use crate::syntax::Packed;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::formats::format::{FileResult, Format, syntax_diagnostics};
use crate::formats::item::Item;
use crate::formats::tree::{Strings, strings_of};
use crate::fs::FileSystem;
use crate::ir::Sink;
use crate::rules::agentcli as rules;
use crate::source::FormatId;
use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Node, NodeKind, Number, json};

/// Keys of a tool entry, as agentcli spells them.
const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "schema",
    "command",
    "timeoutSec",
    "envPassthrough",
];

/// What happens to the whole manifest when agentcli's loader meets a hard error.
const REFUSED: &str =
    "agentcli refuses to load the whole manifest on this error: none of its tools are available";

/// A lowered `tools.json`.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Manifest {
    /// The entries of `tools` that are JSON objects with a name, in order.
    pub tools: Vec<Tool>,
    /// Those without one: only where they are (agentcli refuses them; nothing is built from
    /// them, and a manifest of a million `{}` holds 12 bytes for each).
    pub unnamed: Vec<Unnamed>,
    /// What the model reads and what runs, for the security pass (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
    /// Every tool's name and argv, as [`crate::formats::tree::Strings`] writes them, one
    /// tool after another: a buffer of its own for each tool took 16 bytes in place and a
    /// heap block of at least 16 more, for a manifest of millions of tiny tools a third of
    /// what it keeps.
    words: Box<str>,
}

impl Manifest {
    /// Tool definitions in this manifest.
    pub(crate) fn tool_count(&self) -> usize {
        self.tools.len() + self.unnamed.len()
    }

    /// The name of `tool`, one of [`Manifest::tools`].
    pub(crate) fn name<'m>(&'m self, tool: &Tool) -> &'m str {
        strings_of(self.words_of(tool)).next().unwrap_or_default()
    }

    /// The `command` of `tool` when every element is a string (else nothing).
    pub(crate) fn command<'m>(&'m self, tool: &Tool) -> impl Iterator<Item = &'m str> {
        strings_of(self.words_of(tool)).skip(1)
    }

    fn words_of(&self, tool: &Tool) -> &str {
        let at = tool.words.start as usize;
        self.words
            .get(at..at.saturating_add(tool.words.len as usize))
            .unwrap_or_default()
    }
}

/// Where a tool's words are in its [`Manifest`]'s buffer.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct WordsAt {
    start: u32,
    len: u32,
}

/// One entry of `tools` with a non-empty string name, as far as it could be read. Lean (48
/// bytes, spans as [`Site`]s, its name and argv in its manifest's buffer, the rest boxed
/// apart): a manifest of a million tiny tools keeps one for each.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Tool {
    /// Position in the `tools` list.
    pub index: u32,
    /// Where the entry is written.
    pub span: Site,
    /// Where its `name` value is written.
    pub name_span: Site,
    /// Where its `command` is written.
    pub command_span: Site,
    /// Where in [`Manifest`]'s words its `name`, then its `command` (argv) when every
    /// element is a string, are written.
    words: WordsAt,
    /// What it sets besides its name and command, when it sets anything.
    details: Option<Box<Details>>,
}

/// What a tool entry sets besides its name and command.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct Details {
    /// Where its `description` value is written.
    pub description_span: Site,
    /// Where the first of `timeoutSec` and `envPassthrough` is written.
    pub settings_span: Site,
    /// `description`, when it is a string.
    pub description: Option<Box<str>>,
    /// `schema`, kept for the bundle lowering and the provider checks (`ir.rs`).
    pub schema: Option<Packed>,
    /// `timeoutSec` and `envPassthrough`: how the command runs besides its argv (boxed:
    /// most tools set neither).
    pub settings: Option<Box<crate::ir::Settings>>,
}

/// The details of a tool that sets nothing besides its name and command.
static NO_DETAILS: Details = Details {
    description_span: Site::NONE,
    settings_span: Site::NONE,
    description: None,
    schema: None,
    settings: None,
};

impl Details {
    /// Whether it holds nothing.
    fn is_empty(&self) -> bool {
        [self.description_span, self.settings_span]
            .iter()
            .all(|s| s.get().is_none())
            && self.description.is_none()
            && self.schema.is_none()
            && self.settings.is_none()
    }
}

/// An entry of `tools` that is an object without a usable name.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct Unnamed {
    /// Position in the `tools` list.
    pub index: u32,
    /// Where the entry is written.
    pub span: Site,
}

/// A span of a manifest, maybe absent, in eight bytes (a manifest is far below 4 GiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Site {
    start: u32,
    end: u32,
}

impl Site {
    /// No span.
    const NONE: Site = Site {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// `span`, or none when it is absent (or past what eight bytes hold).
    pub(crate) fn of(span: Option<Span>) -> Site {
        span.and_then(|s| {
            Some(Site {
                start: u32::try_from(s.start).ok().filter(|&v| v != u32::MAX)?,
                end: u32::try_from(s.end).ok()?,
            })
        })
        .unwrap_or(Site::NONE)
    }

    /// The span, when there is one.
    pub(crate) fn get(self) -> Option<Span> {
        (self != Site::NONE).then(|| Span::new(self.start as usize, self.end as usize))
    }
}

impl Tool {
    /// A tool of `name` at `index`, written at `span` (its name at `name_span`, its
    /// command, `argv`, at `command_span`), its words added to `words`.
    fn new(
        index: u32,
        sites: [Site; 3],
        words: &mut Strings,
        named: (&str, &Strings),
        details: Details,
    ) -> Tool {
        let [span, name_span, command_span] = sites;
        let start = words.byte_len();
        words.push(named.0);
        words.append(named.1);
        // A manifest is far below 4 GiB: its words too (a tool past it has none).
        let words = match (
            u32::try_from(start),
            u32::try_from(words.byte_len() - start),
        ) {
            (Ok(start), Ok(len)) => WordsAt { start, len },
            _ => WordsAt::default(),
        };
        Tool {
            index,
            span,
            name_span,
            command_span,
            words,
            details: (!details.is_empty()).then(|| Box::new(details)),
        }
    }

    /// What it sets besides its name and command.
    pub(crate) fn details(&self) -> &Details {
        self.details.as_deref().unwrap_or(&NO_DETAILS)
    }

    /// Where the entry is written.
    pub(crate) fn at(&self) -> Span {
        self.span.get().unwrap_or(Span::point(0))
    }

    /// Where its name is written, else the entry.
    pub(crate) fn name_at(&self) -> Span {
        self.name_span.get().unwrap_or(self.at())
    }
}

impl Default for Site {
    fn default() -> Site {
        Site::NONE
    }
}

/// Parse, lower, validate and lint one manifest; programs are looked for through `fs`,
/// the costly `passes` run.
pub(crate) fn load(
    file: Arc<SourceFile>,
    fs: &dyn FileSystem,
    passes: crate::security::Passes,
) -> FileResult {
    let mut cx = Cx {
        file: &file,
        fs,
        schema: passes.schema,
        diags: Findings::default(),
    };
    if file.bom_len > 0 {
        let d = cx
            .diag(
                &rules::BYTE_ORDER_MARK,
                Span::new(0, file.bom_len),
                "the manifest starts with a UTF-8 byte-order mark",
            )
            .label("byte-order mark")
            .note("agentcli's Go JSON decoder does not skip a BOM: it fails with `invalid character 'ï' looking for beginning of value` and loads no tool")
            .help("save the file as UTF-8 without a BOM");
        cx.push(d);
    }
    let parsed = json::parse(file.body(), file.bom_len);
    cx.diags.extend(
        syntax_diagnostics(&file, &parsed)
            .into_iter()
            .map(|d| d.note("agentcli cannot parse the manifest and loads no tool from it")),
    );
    let mut manifest = Manifest::default();
    if let Some(root) = &parsed.root {
        cx.manifest(root, &mut manifest);
        manifest.texts = texts::manifest(&file, root, passes);
    }
    let diagnostics = cx.diags.into_vec();
    let mut result = FileResult::new(file, diagnostics, Item::new(manifest));
    result.trees = crate::formats::format::Trees::of_root(parsed.root);
    result
}

/// agentcli `tools.json` manifests.
pub(crate) struct Agentcli;

impl Format for Agentcli {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[(FormatId::AgentcliManifest, &["**/tools.json"])]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        (path.file_name()? == "tools.json").then_some(FormatId::AgentcliManifest)
    }

    fn cache(&self) -> Option<crate::formats::item::ItemCodec> {
        Some(crate::formats::item::ItemCodec::of::<Manifest>())
    }

    fn claims(&self, _format: FormatId, text: &str) -> bool {
        claim::is_manifest(text)
    }

    fn load(
        &self,
        file: Arc<SourceFile>,
        fs: &dyn FileSystem,
        passes: crate::security::Passes,
    ) -> FileResult {
        load(file, fs, passes)
    }

    fn tool_count(&self, r: &FileResult) -> usize {
        r.item.get::<Manifest>().map_or(0, Manifest::tool_count)
    }

    fn lower<'a>(
        &self,
        results: &'a [FileResult],
        takes: &dyn Fn(&FileResult) -> bool,
        out: &mut dyn Sink<'a>,
    ) {
        ir::lower(results, takes, out);
    }

    fn outline(&self, r: &FileResult) -> crate::formats::outline::Outline {
        outline::outline(r)
    }

    fn texts<'r>(&self, r: &'r FileResult) -> Option<&'r crate::security::texts::FileTexts> {
        r.item.get::<Manifest>().map(|m| &m.texts)
    }

    fn texts_mut<'r>(
        &self,
        r: &'r mut FileResult,
    ) -> Option<&'r mut crate::security::texts::FileTexts> {
        r.item.get_mut::<Manifest>().map(|m| &mut m.texts)
    }
}

/// `tool[3] "fs_read"` (or `tool[3]` before a name is known), as agentcli writes it.
#[derive(Clone)]
struct Who {
    index: usize,
    name: Option<String>,
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(n) => write!(f, "tool[{}] {n:?}", self.index),
            None => write!(f, "tool[{}]", self.index),
        }
    }
}

struct Cx<'a> {
    file: &'a Arc<SourceFile>,
    fs: &'a dyn FileSystem,
    /// Whether schemas are validated (the `SCH` rules run).
    schema: bool,
    diags: Findings,
}

impl Cx<'_> {
    fn diag(
        &self,
        rule: &'static crate::rules::Rule,
        span: Span,
        msg: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(rule, self.file, span, msg)
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The opening brace of a mapping: where a missing key is reported.
    fn brace(node: &Node) -> Span {
        Span::new(
            node.span().start,
            (node.span().start + 1).min(node.span().end),
        )
    }

    fn wrong_type(&mut self, node: &Node, what: String, expected: &str, help: Option<String>) {
        // Past the rule's first findings in the file, counted without being built.
        if self.diags.counted(&rules::WRONG_FIELD_TYPE) {
            return;
        }
        let d = self
            .diag(
                &rules::WRONG_FIELD_TYPE,
                node.span(),
                format!("{what} must be {expected}, found {}", json_type(node)),
            )
            .label(format!("expected {expected}"))
            .note("agentcli's JSON decoder rejects the manifest: none of its tools are available")
            .maybe_help(help);
        self.push(d);
    }
}

/// The entry agentcli decodes into `key`: Go matches keys case-insensitively and the last
/// matching key wins.
fn field<'n>(node: &'n Node, key: &str) -> Option<&'n Entry> {
    node.as_map()?
        .iter()
        .rev()
        .find(|e| e.key.eq_ignore_ascii_case(key))
}

fn json_type(node: &Node) -> &'static str {
    match &node.kind {
        NodeKind::Null => "null",
        NodeKind::Bool(_) => "a boolean",
        NodeKind::Number(Number::Int(_)) => "an integer",
        NodeKind::Number(Number::Float(_)) => "a number",
        NodeKind::String(_) => "a string",
        NodeKind::Seq(_) => "an array",
        NodeKind::Map(_) => "an object",
    }
}
