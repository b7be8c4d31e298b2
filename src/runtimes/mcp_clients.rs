//! MCP clients: which client reads a configuration file, known from its path, and what that
//! client reads: the key that lists servers, the keys of a server, the transport types and the
//! variable syntax it expands. Facts from each client's public configuration reference; the
//! clients update themselves, so toolc follows their current documentation, not a release.

use super::{Dated, Unversioned};

/// The MCP clients, as toolc knows them.
pub(crate) static KNOWLEDGE: Unversioned = Unversioned {
    name: "MCP clients",
    as_of: "their current documentation",
    read_from: "the configuration references of Claude Code (`.mcp.json`), VS Code (`.vscode/mcp.json`), Cursor (`.cursor/mcp.json`) and Claude Desktop (`claude_desktop_config.json`), and for files of no known client the keys Cline, Windsurf and Gemini CLI document",
    formats: &["mcp-config"],
    changes: &[Dated {
        when: "current",
        what: "VS Code lists servers under `servers` and reads `inputs`; Claude Code, Cursor and Claude Desktop use `mcpServers`; Claude Desktop starts local servers only (a `url` server is ignored)",
    }],
};

use std::path::Path;

/// The client a configuration file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Client {
    /// `.mcp.json` at a project root: Claude Code's project scope (GitHub Copilot's CLI
    /// reads the same file).
    ClaudeCode,
    /// `.vscode/mcp.json`: VS Code.
    VsCode,
    /// `.cursor/mcp.json`: Cursor.
    Cursor,
    /// `claude_desktop_config.json`: Claude Desktop.
    ClaudeDesktop,
    /// Any other `mcp.json`: the shape most clients share, read leniently.
    Unknown,
}

/// How a client expands `${…}` in the strings of a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expansion {
    /// `${VAR}` and `${VAR:-default}` from the environment (Claude Code).
    Shell,
    /// Editor variables: `${env:VAR}`, `${workspaceFolder}`, … and, with `inputs`,
    /// `${input:id}` (VS Code, Cursor).
    Editor {
        /// Whether `${input:id}` names an entry of `inputs`.
        inputs: bool,
        /// The predefined variables it knows.
        predefined: &'static [&'static str],
    },
    /// Not documented, or none: references are not checked.
    Unchecked,
}

/// Keys of a server every client reads.
const COMMON_SERVER_KEYS: &[&str] = &["type", "command", "args", "env", "url", "headers"];

/// Claude Code (`.mcp.json`), with the keys GitHub Copilot's CLI reads from the same file.
const CLAUDE_CODE_KEYS: &[&str] = &[
    "type",
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "headersHelper",
    "oauth",
    "tools",
];

/// VS Code (`.vscode/mcp.json`); `gallery` and `version` are written by its server gallery.
const VS_CODE_KEYS: &[&str] = &[
    "type",
    "command",
    "args",
    "env",
    "envFile",
    "cwd",
    "url",
    "headers",
    "dev",
    "sandboxEnabled",
    "sandbox",
    "gallery",
    "version",
];

/// Cursor (`.cursor/mcp.json`).
const CURSOR_KEYS: &[&str] = &[
    "type", "command", "args", "env", "envFile", "url", "headers", "auth",
];

/// Every key some client documents, for files whose client is not known: Claude Code,
/// VS Code, Cursor, Cline (`disabled`, `autoApprove`, `alwaysAllow`, `timeout`,
/// `transportType`), Windsurf (`serverUrl`) and Gemini CLI (`httpUrl`, `trust`,
/// `includeTools`, `excludeTools`, `description`).
const ANY_CLIENT_KEYS: &[&str] = &[
    "type",
    "command",
    "args",
    "env",
    "envFile",
    "cwd",
    "url",
    "headers",
    "headersHelper",
    "oauth",
    "auth",
    "tools",
    "dev",
    "sandboxEnabled",
    "sandbox",
    "gallery",
    "version",
    "disabled",
    "autoApprove",
    "alwaysAllow",
    "timeout",
    "transportType",
    "serverUrl",
    "httpUrl",
    "trust",
    "includeTools",
    "excludeTools",
    "description",
];

/// VS Code's predefined variables (its variables reference), usable in `mcp.json`.
const VS_CODE_VARIABLES: &[&str] = &[
    "userHome",
    "workspaceFolder",
    "workspaceFolderBasename",
    "file",
    "fileWorkspaceFolder",
    "relativeFile",
    "relativeFileDirname",
    "fileBasename",
    "fileBasenameNoExtension",
    "fileExtname",
    "fileDirname",
    "fileDirnameBasename",
    "cwd",
    "lineNumber",
    "columnNumber",
    "selectedText",
    "execPath",
    "defaultBuildTask",
    "pathSeparator",
    "/",
];

/// Cursor's interpolated variables.
const CURSOR_VARIABLES: &[&str] = &[
    "userHome",
    "workspaceFolder",
    "workspaceFolderBasename",
    "pathSeparator",
    "/",
];

impl Client {
    /// The client that reads the file at `path`.
    pub(crate) fn of(path: &Path) -> Client {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let parent = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .unwrap_or("");
        match (parent, name) {
            (_, ".mcp.json") => Client::ClaudeCode,
            (".vscode", "mcp.json") => Client::VsCode,
            (".cursor", "mcp.json") => Client::Cursor,
            (_, "claude_desktop_config.json") => Client::ClaudeDesktop,
            _ => Client::Unknown,
        }
    }

    /// The client's name, for messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Client::ClaudeCode => "Claude Code",
            Client::VsCode => "VS Code",
            Client::Cursor => "Cursor",
            Client::ClaudeDesktop => "Claude Desktop",
            Client::Unknown => "an MCP client",
        }
    }

    /// The key the client reads servers from (`None`: either `mcpServers` or `servers`).
    pub(crate) fn servers_key(self) -> Option<&'static str> {
        match self {
            Client::VsCode => Some("servers"),
            Client::ClaudeCode | Client::Cursor | Client::ClaudeDesktop => Some("mcpServers"),
            Client::Unknown => None,
        }
    }

    /// Top-level keys the client reads besides its servers key (`None`: the file holds
    /// other settings too, so other keys are not reported).
    pub(crate) fn other_top_keys(self) -> Option<&'static [&'static str]> {
        match self {
            Client::VsCode => Some(&["inputs"]),
            Client::ClaudeCode | Client::Cursor => Some(&[]),
            Client::ClaudeDesktop | Client::Unknown => None,
        }
    }

    /// Whether the client reads comments and trailing commas (JSON with comments).
    pub(crate) fn reads_comments(self) -> bool {
        matches!(self, Client::VsCode | Client::Cursor | Client::Unknown)
    }

    /// The keys of a server the client reads.
    pub(crate) fn server_keys(self) -> &'static [&'static str] {
        match self {
            Client::ClaudeCode => CLAUDE_CODE_KEYS,
            Client::VsCode => VS_CODE_KEYS,
            Client::Cursor => CURSOR_KEYS,
            Client::ClaudeDesktop => COMMON_SERVER_KEYS,
            Client::Unknown => ANY_CLIENT_KEYS,
        }
    }

    /// The transport types the client accepts in `type` (`None`: not checked).
    pub(crate) fn transport_types(self) -> Option<&'static [&'static str]> {
        match self {
            Client::ClaudeCode => Some(&["stdio", "local", "http", "sse"]),
            Client::VsCode => Some(&["stdio", "http", "sse"]),
            Client::Cursor | Client::ClaudeDesktop | Client::Unknown => None,
        }
    }

    /// How the client expands `${…}`.
    pub(crate) fn expansion(self) -> Expansion {
        match self {
            Client::ClaudeCode => Expansion::Shell,
            Client::VsCode => Expansion::Editor {
                inputs: true,
                predefined: VS_CODE_VARIABLES,
            },
            Client::Cursor => Expansion::Editor {
                inputs: false,
                predefined: CURSOR_VARIABLES,
            },
            Client::ClaudeDesktop | Client::Unknown => Expansion::Unchecked,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_by_path() {
        assert_eq!(Client::of(Path::new("/r/.mcp.json")), Client::ClaudeCode);
        assert_eq!(Client::of(Path::new("/r/.vscode/mcp.json")), Client::VsCode);
        assert_eq!(Client::of(Path::new("/r/.cursor/mcp.json")), Client::Cursor);
        assert_eq!(Client::of(Path::new("/r/mcp.json")), Client::Unknown);
        assert_eq!(
            Client::of(Path::new("/r/claude_desktop_config.json")),
            Client::ClaudeDesktop
        );
    }
}
