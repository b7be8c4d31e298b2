//! cycod custom tools (`.cycod/tools/*.yaml`): the Custom Tools Specification of
//! [cycod](https://github.com/robch/cycod).
//!
//! cycod's loader rejects a tool file whose YAML has a key its model does not have, so the
//! schema here is closed. The name scope is one `.cycod/tools` folder (local, user and
//! global scopes are each such a folder); files added by `[formats.cycod-tool] include`
//! patterns play the part of the runtime's `--load-tools` folders.

mod lower;
mod params;
mod platforms;
mod references;
mod resolve;
mod security;
pub mod template;
pub mod writes;

use std::sync::Arc;

use super::{FileResult, Item, syntax_diagnostics};
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};
use crate::syntax::yaml;

/// A lowered cycod tool: what the cross-file checks need.
#[derive(Debug, Default)]
pub struct Tool {
    /// The name the tool is registered under (`name`, else the file stem).
    pub name: Option<ToolName>,
    /// Other tools this one names: `uses.tool(s)`, a step's or the tool's `tool:`.
    pub tool_references: Vec<NameRef>,
    /// MCP servers named by `uses.mcp(s)`.
    pub mcp_references: Vec<NameRef>,
    /// Names of the tools defined inline under `with.tools`.
    pub inline_tools: Vec<String>,
    /// Names of the MCP servers defined inline under `with.mcps`.
    pub inline_mcps: Vec<String>,
    /// The file's tree, kept for the bundle lowering (`crate::ir`).
    pub doc: Option<crate::syntax::Node>,
}

/// The name a tool answers to, and where it comes from.
#[derive(Debug, Clone)]
pub struct ToolName {
    /// The name.
    pub value: String,
    /// The `name` value, or the first key of the file when the name is the file stem.
    pub span: Span,
    /// True when written as `name:`; false when taken from the file name.
    pub explicit: bool,
}

/// A name written in a tool that must resolve to another definition.
#[derive(Debug, Clone)]
pub struct NameRef {
    /// The name as written.
    pub name: String,
    /// Where it is written.
    pub span: Span,
    /// The key that holds it (`uses.tools`, `steps[1].tool`), for messages.
    pub key: String,
}

/// Parse, lower, validate and lint one tool file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
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
        return FileResult {
            file,
            companions: Vec::new(),
            diagnostics,
            item: Item::None,
        };
    };
    let (mut tool, found) = lower::check_file(&file, &root);
    tool.doc = Some(root);
    diagnostics.extend(found);
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics,
        item: Item::Cycod(tool),
    }
}

/// Cross-file checks per `.cycod/tools` scope: duplicate names, `uses`/`tool:` references,
/// reference cycles and MCP names.
pub fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    resolve::resolve(results)
}
