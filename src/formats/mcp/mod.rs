//! MCP (Model Context Protocol) files: `server.json`, the server metadata the MCP Registry
//! publishes (https://github.com/modelcontextprotocol/registry, `docs/reference/server-json/`;
//! docs/formats/mcp-server.md), and the client configurations that start or reach servers
//! (`.mcp.json` for Claude Code, `.vscode/mcp.json` for VS Code, `.cursor/mcp.json` for
//! Cursor, …; docs/formats/mcp-config.md).
//!
//! `server.json` is checked as `mcp-publisher validate` and the official registry do, but
//! all at once and at the token: the published schema's rules (`server`, `packages`,
//! `inputs`), the registry's semantic checks and its publishing rules. A configuration is
//! checked as its client reads it (`client`): the key it lists servers under, a command or
//! a URL per server (`servers`), the `${…}` references it expands (`refs`), and what a
//! shared file should never hold: literal credentials, unpinned packages, plaintext URLs.
//!
//! Both names are common (`server.json` especially), so a file is claimed only when its
//! content has the format's shape (`claims`); any other file at these paths is not ours and
//! gets no finding. Neither holds tools: `build` leaves them out.
//!
//! A `tools.json` holding a server's `tools/list` result is an MCP tool list
//! (`tools_list`; docs/formats/mcp-tools.md): its tools are read like any format's.

mod claims;
use crate::runtimes::mcp_clients as client;
mod config;
mod inputs;
mod keys;
mod local;
mod packages;
mod refs;
mod scripts;
mod secrets;
mod server;
mod servers;
mod templates;
mod texts;
mod tools_list;
mod transport;
mod versions;

use std::path::Path;
use std::sync::Arc;

use super::fields::ShapeRules;
use crate::diagnostics::Diagnostic;
use crate::formats::format::{FileResult, Format, syntax_diagnostics};
use crate::formats::item::{Item, ItemCodec};
use crate::fs::FileSystem;
use crate::ir::Sink;
use crate::rules::mcp as rules;
use crate::security::texts::FileTexts;
use crate::source::{FormatId, SourceFile};
use crate::syntax::json;

static SHAPE: ShapeRules = ShapeRules {
    missing: &rules::MISSING_REQUIRED_FIELD,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_VALUE,
    length: &rules::FIELD_LENGTH,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// Names of client configuration files.
const CONFIG_NAMES: &[&str] = &[".mcp.json", "mcp.json", "claude_desktop_config.json"];

/// MCP server metadata and client configurations.
pub(crate) struct Mcp;

impl Format for Mcp {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[
            (FormatId::McpServer, &["**/server.json"]),
            (
                FormatId::McpConfig,
                &[
                    "**/.mcp.json",
                    "**/mcp.json",
                    "**/claude_desktop_config.json",
                ],
            ),
            // agentcli's manifests share the name: each claims its own by content.
            (FormatId::McpTools, &["**/tools.json"]),
        ]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        let name = path.file_name()?.to_str()?;
        if name == "server.json" {
            Some(FormatId::McpServer)
        } else {
            CONFIG_NAMES.contains(&name).then_some(FormatId::McpConfig)
        }
    }

    fn claims(&self, format: FormatId, text: &str) -> bool {
        match format {
            FormatId::McpTools => tools_list::is_tool_list(text),
            _ => claims::claims(format == FormatId::McpServer, text),
        }
    }

    fn cache(&self) -> Option<ItemCodec> {
        Some(ItemCodec::new(encode, decode))
    }

    fn load(
        &self,
        file: Arc<SourceFile>,
        fs: &dyn FileSystem,
        passes: crate::security::Passes,
    ) -> FileResult {
        match file.format {
            FormatId::McpTools => tools_list::load(file, passes),
            _ => load(file, fs, passes),
        }
    }

    fn resolve(&self, _results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        // Each file is its own scope: a server's name, inputs and variables live in it.
        Vec::new()
    }

    fn tool_count(&self, r: &FileResult) -> usize {
        r.item
            .get::<tools_list::ToolList>()
            .map_or(0, |l| l.tools.len())
    }

    fn lower<'a>(
        &self,
        results: &'a [FileResult],
        takes: &dyn Fn(&FileResult) -> bool,
        out: &mut dyn Sink<'a>,
    ) {
        // Server metadata and client configurations describe servers: only tool lists
        // hold tools.
        tools_list::lower(results, takes, out);
    }

    fn texts<'r>(&self, r: &'r FileResult) -> Option<&'r FileTexts> {
        r.item
            .get::<server::ServerJson>()
            .map(|s| &s.texts)
            .or_else(|| r.item.get::<config::ClientConfig>().map(|c| &c.texts))
            .or_else(|| r.item.get::<tools_list::ToolList>().map(|l| &l.texts))
    }
}

/// A lowered file as the cache keeps it: any of the three kinds of item.
#[derive(serde::Deserialize)]
enum Cached {
    Server(server::ServerJson),
    Config(config::ClientConfig),
    Tools(tools_list::ToolList),
}

/// [`Cached`], written from the item it borrows.
#[derive(serde::Serialize)]
enum CachedRef<'a> {
    Server(&'a server::ServerJson),
    Config(&'a config::ClientConfig),
    Tools(&'a tools_list::ToolList),
}

fn encode(item: &Item) -> Option<Vec<u8>> {
    let cached = if let Some(s) = item.get::<server::ServerJson>() {
        CachedRef::Server(s)
    } else if let Some(c) = item.get::<config::ClientConfig>() {
        CachedRef::Config(c)
    } else {
        CachedRef::Tools(item.get::<tools_list::ToolList>()?)
    };
    postcard::to_allocvec(&cached).ok()
}

fn decode(bytes: &[u8]) -> Option<Item> {
    Some(match postcard::from_bytes::<Cached>(bytes).ok()? {
        Cached::Server(s) => Item::new(s),
        Cached::Config(c) => Item::new(c),
        Cached::Tools(t) => Item::new(t),
    })
}

/// Parse and check one file (claimed already: [`Format::claims`]).
pub(crate) fn load(
    file: Arc<SourceFile>,
    fs: &dyn FileSystem,
    passes: crate::security::Passes,
) -> FileResult {
    let server = file.format == FormatId::McpServer;
    let client = client::Client::of(&file.path);
    let parsed = if !server && client.reads_comments() {
        json::parse_jsonc(file.body(), file.bom_len)
    } else {
        json::parse(file.body(), file.bom_len)
    };
    let mut diagnostics = syntax_diagnostics(&file, &parsed);
    let mut companions = Vec::new();
    let item = match &parsed.root {
        Some(root) if server => {
            let (mut item, diags) = server::check(&file, root);
            diagnostics.extend(diags);
            item.texts = FileTexts::check(passes, texts::server(&file, root));
            Item::new(item)
        }
        Some(root) => {
            let (mut item, diags) = config::check(&file, root, client);
            diagnostics.extend(diags);
            let scripts = scripts::started(&file, texts::servers(root), fs);
            diagnostics.extend(scripts.not_read);
            item.texts = FileTexts::check(passes, texts::config(&file, root, &scripts.started));
            companions.extend(scripts.started.into_iter().map(|s| s.file));
            Item::new(item)
        }
        None => Item::none(),
    };
    let note = if server {
        keys::REFUSED.to_string()
    } else {
        format!("{} fails to load this server", client.name())
    };
    for d in &mut diagnostics {
        if d.notes.is_empty() && d.rule.rejects_file {
            d.notes.push(note.clone().into());
        }
    }
    FileResult {
        file,
        companions,
        diagnostics,
        item,
        trees: parsed.root.map(|root| {
            Box::new(crate::formats::format::Trees {
                root: Some(root),
                companions: Vec::new(),
            })
        }),
        custom_matched: Vec::new(),
    }
}
