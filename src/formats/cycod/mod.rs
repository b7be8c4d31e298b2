//! cycod custom tools (`.cycod/tools/*.yaml`): the Custom Tools Specification of
//! [cycod](https://github.com/robch/cycod).
//!
//! cycod's loader rejects a tool file whose YAML has a key its model does not have, so the
//! schema here is closed. The name scope is one `.cycod/tools` folder (local, user and
//! global scopes are each such a folder); files added by `[formats.cycod-tool] include`
//! patterns play the part of the runtime's `--load-tools` folders.

mod commands;
pub(crate) mod doc;
mod ir;
mod lower;
mod mcp_json;
mod names;
mod outline;
mod params;
mod platforms;
mod references;
mod resolve;
mod security;
pub(crate) mod template;
mod texts;
mod uses;
pub(crate) mod writes;

pub(crate) use names::{NameRef, NameRefs};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::formats::format::{FileResult, Format, syntax_diagnostics};
use crate::formats::item::Item;
use crate::fs::FileSystem;
use crate::ir::Sink;
use crate::source::FormatId;
use crate::source::{SourceFile, Span};
use crate::syntax::yaml;
use std::path::Path;

/// A lowered cycod tool: what the cross-file checks need.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Tool {
    /// The name the tool is registered under (`name`, else the file stem).
    pub name: Option<ToolName>,
    /// Other tools this one names: `uses.tool(s)`, a step's or the tool's `tool:`.
    pub tool_references: NameRefs,
    /// MCP servers named by `uses.mcp(s)`.
    pub mcp_references: NameRefs,
    /// Names of the tools defined inline under `with.tools`.
    pub inline_tools: Vec<String>,
    /// Names of the MCP servers defined inline under `with.mcps`.
    pub inline_mcps: Vec<String>,
    /// What the bundle lowering needs of the file (`ir.rs`).
    pub doc: Option<doc::ToolDoc>,
    /// What the model reads and what runs, for the security pass (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
}

/// The name a tool answers to, and where it comes from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ToolName {
    /// The name.
    pub value: String,
    /// The `name` value, or the first key of the file when the name is the file stem.
    pub span: Span,
    /// True when written as `name:`; false when taken from the file name.
    pub explicit: bool,
}

/// Parse, lower, validate and lint one tool file.
pub(crate) fn load(file: Arc<SourceFile>, passes: crate::security::Passes) -> FileResult {
    let parsed = yaml::parse(file.body(), file.bom_len);
    let mut diagnostics = syntax_diagnostics(&file, &parsed);
    let Some(root) = parsed.root else {
        if parsed.errors.is_empty() {
            diagnostics.push(
                Diagnostic::new(
                    &crate::rules::syntax::EMPTY_FILE,
                    &file,
                    Span::point(file.bom_len),
                    "the tool file holds only comments",
                )
                .note("cycod finds no tool definition in it")
                .help("write the tool definition, or delete the file"),
            );
        }
        return FileResult::new(file, diagnostics, Item::none());
    };
    let (mut tool, found) = lower::check_file(&file, &root);
    let stem = tool
        .name
        .as_ref()
        .filter(|n| !n.explicit)
        .map(|n| n.value.clone());
    // The texts before the document: both are a few words a step, and the texts are let go
    // once checked (a tool of millions of steps held both with its tree).
    tool.texts = crate::security::texts::FileTexts::check(
        passes,
        texts::tool(&file, &root, stem.as_deref()),
    );
    tool.doc = Some(doc::ToolDoc::lower(&root));
    diagnostics.extend(found);
    let mut result = FileResult::new(file, diagnostics, Item::new(tool));
    result.trees = Some(Box::new(crate::formats::format::Trees {
        root: Some(root),
        companions: Vec::new(),
    }));
    result
}

/// cycod custom tools.
pub(crate) struct Cycod;

impl Format for Cycod {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[(
            FormatId::CycodTool,
            &["**/.cycod/tools/*.yaml", "**/.cycod/tools/*.yml"],
        )]
    }

    fn by_name(&self, _path: &Path) -> Option<FormatId> {
        // A `.yaml` file says nothing of its format outside a `.cycod/tools` folder.
        None
    }

    fn cache(&self) -> Option<crate::formats::item::ItemCodec> {
        Some(crate::formats::item::ItemCodec::of::<Tool>())
    }

    fn load(
        &self,
        file: Arc<SourceFile>,
        _fs: &dyn FileSystem,
        passes: crate::security::Passes,
    ) -> FileResult {
        load(file, passes)
    }

    fn resolve(&self, results: &[FileResult], fs: &dyn FileSystem) -> Vec<Diagnostic> {
        resolve(results, fs)
    }

    fn tool_count(&self, _r: &FileResult) -> usize {
        // One file, one tool, even when it could not be read.
        1
    }

    fn lower<'a>(
        &self,
        results: &'a [FileResult],
        takes: &dyn Fn(&FileResult) -> bool,
        out: &mut dyn Sink<'a>,
    ) {
        ir::lower(results, takes, out);
    }

    fn texts<'r>(&self, r: &'r FileResult) -> Option<&'r crate::security::texts::FileTexts> {
        r.item.get::<Tool>().map(|t| &t.texts)
    }

    fn texts_mut<'r>(
        &self,
        r: &'r mut FileResult,
    ) -> Option<&'r mut crate::security::texts::FileTexts> {
        r.item.get_mut::<Tool>().map(|t| &mut t.texts)
    }

    fn outline(&self, r: &FileResult) -> crate::formats::outline::Outline {
        outline::outline(r)
    }
}

/// Cross-file checks per `.cycod/tools` scope: duplicate names, `uses`/`tool:` references,
/// reference cycles and MCP names.
/// An `mcp/mcp.json` next to a tools folder is read through `fs`.
pub(crate) fn resolve(results: &[FileResult], fs: &dyn FileSystem) -> Vec<Diagnostic> {
    resolve::resolve(results, fs)
}
