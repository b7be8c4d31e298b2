//! Source files, byte spans and the line index that turns spans into line/column.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::fs::FileSystem;
use crate::suppress::Suppression;

pub(crate) mod file_ref;
mod lines;
pub(crate) mod quick;
mod text;

pub(crate) use lines::LineIndex;
use text::{Decoded, Origin, Replacements};
pub(crate) use text::{Digest, Text, sha256};

/// A half-open byte range `[start, end)` into a [`SourceFile`]'s text.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (swapped if given backwards).
    pub fn new(start: usize, end: usize) -> Span {
        if end < start {
            Span {
                start: end,
                end: start,
            }
        } else {
            Span { start, end }
        }
    }

    /// An empty span at `offset`.
    pub fn point(offset: usize) -> Span {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// This span moved right by `base` bytes.
    pub fn shifted(self, base: usize) -> Span {
        Span {
            start: self.start + base,
            end: self.end + base,
        }
    }

    /// The span covering both `self` and `other`.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// A sub-span given relative to this span's start.
    pub fn sub(self, rel_start: usize, rel_end: usize) -> Span {
        Span::new(self.start + rel_start, self.start + rel_end)
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// True when the span covers no bytes.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// A 1-based line/column position (columns count Unicode scalar values, and UTF-16 code
/// units for editors) plus its byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in Unicode scalar values.
    pub column: usize,
    /// 1-based column in UTF-16 code units, as the Language Server Protocol counts them
    /// (its 0-based `character` is this minus one).
    pub utf16_column: usize,
    /// 0-based byte offset.
    pub offset: usize,
}

/// Identifies which format a discovered file is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FormatId {
    /// DojOps `tool.yaml` (spec 1) or legacy `plugin.yaml`.
    DojopsTool,
    /// A JSON Schema file named by a DojOps `tool.yaml`.
    DojopsSchema,
    /// DojOps `.dops` v2 skill.
    DojopsDops,
    /// DojOps `.dojops/policy.yaml`.
    DojopsPolicy,
    /// agentcli `tools.json` manifest.
    AgentcliManifest,
    /// `*.tool.md` tool specification.
    ToolMd,
    /// `*.agent.md` agent referencing tools.
    AgentMd,
    /// cycod custom tool (`.cycod/tools/*.yaml`).
    CycodTool,
    /// `TR-*.md` tool execution request.
    ToolRequest,
    /// MCP Registry `server.json` (server metadata).
    McpServer,
    /// MCP client configuration (`.mcp.json`, `.vscode/mcp.json`, `.cursor/mcp.json`, …).
    McpConfig,
    /// MCP tool list (`tools.json` holding a server's `tools/list` result).
    McpTools,
    /// `SKILL.md` of an Agent Skill.
    AgentSkill,
    /// The `toolc.toml` configuration itself.
    Config,
}

impl FormatId {
    /// The id used in output (`format` field of JSON diagnostics).
    pub fn as_str(self) -> &'static str {
        match self {
            FormatId::DojopsTool | FormatId::DojopsSchema => "dojops-tool",
            FormatId::DojopsDops => "dojops-dops",
            FormatId::DojopsPolicy => "dojops-policy",
            FormatId::AgentcliManifest => "agentcli-manifest",
            FormatId::ToolMd => "tool-md",
            FormatId::AgentMd => "agent-md",
            FormatId::CycodTool => "cycod-tool",
            FormatId::ToolRequest => "tool-request",
            FormatId::McpServer => "mcp-server",
            FormatId::McpConfig => "mcp-config",
            FormatId::McpTools => "mcp-tools",
            FormatId::AgentSkill => "agent-skill",
            FormatId::Config => "toolc-config",
        }
    }

    /// Parse a format id as written in `toolc.toml`.
    pub fn from_config_name(name: &str) -> Option<FormatId> {
        match name {
            "dojops-tool" => Some(FormatId::DojopsTool),
            "dojops-dops" => Some(FormatId::DojopsDops),
            "dojops-policy" => Some(FormatId::DojopsPolicy),
            "agentcli-manifest" => Some(FormatId::AgentcliManifest),
            "tool-md" => Some(FormatId::ToolMd),
            "agent-md" => Some(FormatId::AgentMd),
            "cycod-tool" => Some(FormatId::CycodTool),
            "tool-request" => Some(FormatId::ToolRequest),
            "mcp-server" => Some(FormatId::McpServer),
            "mcp-config" => Some(FormatId::McpConfig),
            "mcp-tools" => Some(FormatId::McpTools),
            "agent-skill" => Some(FormatId::AgentSkill),
            _ => None,
        }
    }

    /// Every format a user can name in configuration.
    pub const CONFIGURABLE: &'static [&'static str] = &[
        "dojops-tool",
        "dojops-dops",
        "dojops-policy",
        "agentcli-manifest",
        "tool-md",
        "agent-md",
        "cycod-tool",
        "tool-request",
        "mcp-server",
        "mcp-config",
        "mcp-tools",
        "agent-skill",
    ];
}

/// One file's bytes as text, its display path and line index; shared by every diagnostic on it.
#[derive(Debug)]
pub struct SourceFile {
    /// Path as found on disk (the display path may be read from its end: never changed
    /// once made).
    pub path: PathBuf,
    /// Path shown to users (see [`SourceFile::display`]), when it is not the end of `path`.
    display_own: Option<Box<str>>,
    /// Where the path shown to users starts in `path`, when it is its end.
    display_at: u32,
    /// Format this file is read as.
    pub format: FormatId,
    /// Text of the file (lossily decoded when it is not valid UTF-8); read again from disk on
    /// first use when the file came from the cache or its text was let go (see [`Text`]).
    pub text: Text,
    /// Length of a leading UTF-8 byte-order mark (0 or 3).
    pub bom_len: usize,
    // Boxed: most files never need them, and a repository has many files.
    lines: OnceLock<Box<LineIndex>>,
    digest: OnceLock<Digest>,
    suppressions: OnceLock<Arc<[Suppression]>>,
}

/// The path shown to users as `SourceFile` keeps it: where it starts in `path` when it is
/// the end of it (a file under the working directory: most of them), else its own text. A
/// large repository has hundreds of thousands of files.
fn display_parts(path: &Path, display: String) -> (Option<Box<str>>, u32) {
    if let Some(full) = path.to_str()
        && let Some(at) = full.len().checked_sub(display.len())
        && full.ends_with(display.as_str())
        && (at == 0 || full[..at].ends_with('/'))
        && let Ok(at) = u32::try_from(at)
    {
        return (None, at);
    }
    (Some(display.into_boxed_str()), 0)
}

impl SourceFile {
    /// Path shown to users: relative to the working directory, `/`-separated.
    pub fn display(&self) -> &str {
        match &self.display_own {
            Some(own) => own,
            None => self
                .path
                .to_str()
                .and_then(|p| p.get(self.display_at as usize..))
                .unwrap_or_default(),
        }
    }

    /// Build a source file from already decoded text.
    pub fn new(path: PathBuf, display: String, format: FormatId, text: String) -> Arc<SourceFile> {
        SourceFile::of_decoded(
            path,
            display,
            format,
            Decoded {
                text,
                replaced: Replacements::default(),
            },
        )
    }

    fn of_decoded(
        path: PathBuf,
        display: String,
        format: FormatId,
        decoded: Decoded,
    ) -> Arc<SourceFile> {
        let bom_len = if decoded.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let (display_own, display_at) = display_parts(&path, display);
        Arc::new(SourceFile {
            path,
            display_own,
            display_at,
            format,
            text: Text::held(decoded),
            bom_len,
            lines: OnceLock::new(),
            digest: OnceLock::new(),
            suppressions: OnceLock::new(),
        })
    }

    /// Build a source file from the bytes as stored: each invalid UTF-8 sequence becomes one
    /// U+FFFD, and the offset of the first one is returned with the file. The file knows the
    /// digest of its bytes.
    pub fn from_bytes(
        path: PathBuf,
        display: String,
        format: FormatId,
        bytes: Vec<u8>,
    ) -> (Arc<SourceFile>, Option<usize>) {
        let digest = sha256(&bytes);
        let (decoded, first_invalid) = Decoded::of(bytes);
        let file = SourceFile::of_decoded(path, display, format, decoded);
        file.set_digest(digest);
        (file, first_invalid)
    }

    /// A file whose bytes hashed to `digest` and hold `suppressions`, its text read through
    /// `fs` only when needed.
    pub fn unread(
        path: PathBuf,
        display: String,
        format: FormatId,
        bom_len: usize,
        digest: Digest,
        suppressions: Arc<[Suppression]>,
        fs: &Arc<dyn FileSystem>,
    ) -> Arc<SourceFile> {
        // The text, when read back, is read from this file's path and checked against its
        // digest: the file refers to itself rather than holding them twice.
        let (display_own, display_at) = display_parts(&path, display);
        Arc::new_cyclic(|owner| SourceFile {
            text: Text {
                cell: OnceLock::new(),
                origin: OnceLock::from(Origin {
                    owner: owner.clone(),
                    fs: Arc::clone(fs),
                }),
            },
            path,
            display_own,
            display_at,
            format,
            bom_len,
            lines: OnceLock::new(),
            digest: OnceLock::from(digest),
            suppressions: OnceLock::from(suppressions),
        })
    }

    /// Note that the file's bytes hash to `digest` (known when it was read).
    pub fn set_digest(&self, digest: Digest) {
        let _ = self.digest.set(digest);
    }

    /// SHA-256 of the file's bytes (of its text, for a file that was never on disk).
    pub fn digest(&self) -> Digest {
        *self.digest.get_or_init(|| sha256(self.text.as_bytes()))
    }

    /// Let the text go when it can be read back from `self.path` through `fs` (the file is
    /// there with these bytes) and nothing else holds this file; it is read again if ever
    /// needed.
    pub fn release_text(file: &mut Arc<SourceFile>, fs: &Arc<dyn FileSystem>) {
        let Some(this) = Arc::get_mut(file) else {
            return;
        };
        if this.digest.get().is_none() {
            return;
        }
        // What is read from the text later is read now, while it is here.
        this.suppressions();
        this.text.cell = OnceLock::new();
        this.lines = OnceLock::new();
        if this.text.origin.get().is_none() {
            let owner = Arc::downgrade(file);
            let _ = file.text.origin.set(Origin {
                owner,
                fs: Arc::clone(fs),
            });
        }
    }

    /// The same file without its text (read back from `self.path` through `fs` if ever
    /// needed): for a file others hold too (an item's texts name it), which
    /// [`SourceFile::release_text`] cannot change in place. None when its digest is unknown.
    pub fn without_text(&self, fs: &Arc<dyn FileSystem>) -> Option<Arc<SourceFile>> {
        let digest = *self.digest.get()?;
        Some(SourceFile::unread(
            self.path.clone(),
            self.display().to_string(),
            self.format,
            self.bom_len,
            digest,
            self.shared_suppressions(),
            fs,
        ))
    }

    /// The suppression comments in the file.
    pub fn suppressions(&self) -> &[Suppression] {
        self.shared()
    }

    /// [`SourceFile::suppressions`], shared rather than copied (a file released of its text
    /// keeps them, and a run marks which were used apart from them).
    pub(crate) fn shared_suppressions(&self) -> Arc<[Suppression]> {
        Arc::clone(self.shared())
    }

    fn shared(&self) -> &Arc<[Suppression]> {
        self.suppressions
            .get_or_init(|| crate::suppress::scan(self).into())
    }

    /// Line/column of a byte offset into `text`; the position's `offset` is the byte offset
    /// in the file as stored (they differ after a byte that is not UTF-8).
    pub fn position(&self, offset: usize) -> Position {
        let mut position = self.lines().position(&self.text, offset);
        position.offset = self.stored_offset(position.offset);
        position
    }

    /// The offset in the stored file of `offset` in the decoded text. Inside a U+FFFD, the
    /// start maps to the start of the bytes it replaced and any later offset to their end.
    pub fn stored_offset(&self, offset: usize) -> usize {
        self.text.decoded().replaced.stored_offset(offset)
    }

    /// The line index.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| {
            Box::new(LineIndex::new(
                &self.text,
                self.bom_len.min(self.text.len()),
            ))
        })
    }

    /// The text a span covers (empty when the span is out of range or not on char boundaries).
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// The text after the BOM.
    pub fn body(&self) -> &str {
        self.text.get(self.bom_len..).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_display_path_is_shared_with_the_path_only_when_it_ends_it() {
        let shown = |path: &str, display: &str| {
            let file = SourceFile::new(path.into(), display.into(), FormatId::ToolMd, "".into());
            (file.display().to_string(), file.display_own.is_none())
        };
        // (path, display, shared): a suffix that does not start at a folder boundary, or a
        // display path outside the path, is kept apart.
        let cases = [
            ("/r/tools/a.tool.md", "tools/a.tool.md", true),
            ("tools/a.tool.md", "tools/a.tool.md", true),
            ("/r/xtools/a.tool.md", "tools/a.tool.md", false),
            ("/r/a.tool.md", "../r/a.tool.md", false),
            ("/r/a.tool.md", "<stdin>", false),
        ];
        for (path, display, shared) in cases {
            assert_eq!(
                shown(path, display),
                (display.to_string(), shared),
                "{path}"
            );
        }
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs_twice() {
        // `é` is one UTF-16 unit, the emoji two: an editor puts the cursor after both at 4.
        let file = SourceFile::new(
            PathBuf::from("a.md"),
            "a.md".into(),
            FormatId::ToolMd,
            "x: é🔧!\n".into(),
        );
        let at = file.text.find('!').unwrap_or_default();
        let p = file.position(at);
        assert_eq!((p.line, p.column, p.utf16_column), (1, 6, 7));
        let ascii = file.position(1);
        assert_eq!((ascii.column, ascii.utf16_column), (2, 2));
    }

    #[test]
    fn offsets_after_invalid_bytes_are_offsets_in_the_stored_file() {
        // One bad byte (3 bytes of U+FFFD in the text), then a truncated 3-byte sequence (two
        // stored bytes, one U+FFFD), then the last byte of the file is bad.
        let bytes = b"a\xffb\xe2\x82c\xfe";
        let (file, first) =
            SourceFile::from_bytes("f".into(), "f".into(), FormatId::DojopsTool, bytes.to_vec());
        assert_eq!(first, Some(1));
        assert_eq!(file.text, "a\u{fffd}b\u{fffd}c\u{fffd}");
        let b = file.text.find('b').unwrap_or_default();
        let c = file.text.find('c').unwrap_or_default();
        assert_eq!(file.position(b).offset, 2);
        assert_eq!(file.position(c).offset, 5);
        // The end of the last replacement is the end of the file, never past it.
        assert_eq!(file.position(file.text.len()).offset, bytes.len());
        assert_eq!(file.stored_offset(c + 1), 6);
        assert_eq!(file.stored_offset(c + 2), bytes.len());
    }
}
