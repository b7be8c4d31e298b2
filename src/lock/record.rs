//! What `toolc.lock` and `toolc diff` record of the definitions that are not tools: an Agent
//! Skill (`skill.rs`) and an MCP server, whether an entry of a client configuration or a
//! published `server.json` (`server.rs`). Each is a name and a set of fields, every field with
//! its place in the file, so a change is reported where it was made.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use super::{Entry, canonical, short};
use crate::formats::FileResult;
use crate::fs::FileSystem;
use crate::source::{FormatId, SourceFile, Span};

/// What a lock entry or a diff's change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A tool (any format's, lowered into the IR).
    Tool,
    /// An Agent Skill (`SKILL.md` and its folder).
    Skill,
    /// An MCP server: an entry of a client configuration, or a `server.json`.
    Server,
}

impl Kind {
    /// The lock's table for it (`[[tool]]`, `[[skill]]`, `[[server]]`).
    pub fn table(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Skill => "skill",
            Kind::Server => "server",
        }
    }

    /// How messages name it.
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Skill => "skill",
            Kind::Server => "MCP server",
        }
    }
}

/// One recorded field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    /// What is compared: the value as written (JSON), or a hash for a body or a file.
    pub value: Value,
    /// Where it is written in the record's file.
    pub span: Span,
    /// A text the model reads (a description, a skill's instructions).
    pub text: bool,
}

/// A skill or server as the lock and the diff see it.
#[derive(Debug, Clone)]
pub(crate) struct Record<'a> {
    /// Skill or server.
    pub kind: Kind,
    /// The file that defines it.
    pub file: &'a Arc<SourceFile>,
    /// Its name: a skill's `name` (else its folder's), a server's key or `name`.
    pub name: String,
    /// Where the name is written.
    pub name_span: Span,
    /// Its fields by key (`description`, `instructions`, `files/scripts/run.py`, `command`,
    /// `package`, `env`, `packages/npm:@acme/weather`).
    pub fields: BTreeMap<String, Field>,
}

impl Record<'_> {
    /// The fields' values as one JSON object (what the full hash is of).
    fn values(&self) -> Value {
        Value::Object(
            self.fields
                .iter()
                .map(|(k, f)| (k.clone(), f.value.clone()))
                .collect(),
        )
    }

    /// SHA-256 of everything but the name: equal for a record and the same one renamed.
    pub(crate) fn identity(&self) -> String {
        canonical::sha256(&self.values())
    }

    /// The lock entry; `root` is the lock's folder.
    pub(crate) fn entry(&self, root: &Path) -> Entry {
        let mut all = self.values();
        if let Value::Object(map) = &mut all {
            map.insert("name".into(), Value::String(self.name.clone()));
        }
        let mut parts = BTreeMap::new();
        let mut texts = BTreeMap::new();
        for (key, field) in &self.fields {
            let to = if field.text { &mut texts } else { &mut parts };
            to.insert(key.clone(), short(&field.value));
        }
        let rel = self.file.path.strip_prefix(root).unwrap_or(&self.file.path);
        Entry {
            kind: self.kind,
            format: self.file.format.as_str().to_string(),
            path: rel.to_string_lossy().replace('\\', "/"),
            name: self.name.clone(),
            sha256: canonical::sha256(&all),
            parts,
            texts,
        }
    }

    /// Where field `key` is written, else the name.
    pub(crate) fn site(&self, key: &str) -> Span {
        self.fields.get(key).map_or(self.name_span, |f| f.span)
    }
}

/// Every skill and server of `results`, sorted by file then name; `fs` reads skill folders.
pub(crate) fn records<'a>(results: &'a [FileResult], fs: &dyn FileSystem) -> Vec<Record<'a>> {
    let mut out = Vec::new();
    for r in results {
        match r.file.format {
            FormatId::AgentSkill => out.extend(super::skill::record(&r.file, fs)),
            FormatId::McpConfig => out.extend(super::server::client_config(&r.file)),
            FormatId::McpServer => out.extend(super::server::server_json(&r.file)),
            _ => {}
        }
    }
    out.sort_by(|a, b| (&a.file.path, &a.name).cmp(&(&b.file.path, &b.name)));
    out
}

/// A field holding `value` at `span`.
pub(crate) fn field(value: Value, span: Span, text: bool) -> Field {
    Field { value, span, text }
}

/// `sha256:` and the hex SHA-256 of `bytes`: how a body or a file is recorded.
pub(crate) fn digest(bytes: &[u8]) -> Value {
    Value::String(format!("sha256:{}", crate::text::sha256_hex(bytes)))
}

/// How messages name field `key` of the `kind` called `name` ("the command of MCP server
/// `weather`", "file `scripts/run.py` of skill `review`").
pub(crate) fn describe(kind: Kind, key: &str, name: &str) -> String {
    let owner = format!("{} `{name}`", kind.noun());
    let (first, rest) = key.split_once('/').unwrap_or((key, ""));
    match (first, rest) {
        ("files", rel) => format!("file `{rel}` of {owner}"),
        ("front-matter" | "settings", k) => format!("`{k}` of {owner}"),
        ("packages", id) => match id.rsplit_once('/') {
            Some((id, "run")) => format!("how package `{id}` of {owner} runs"),
            Some((id, "env")) => {
                format!("the environment variables of package `{id}` of {owner}")
            }
            _ => format!("package `{id}` of {owner}"),
        },
        ("remotes", id) => format!("remote `{id}` of {owner}"),
        ("allowed-tools", _) => format!("the allowed tools of {owner}"),
        ("args", _) => format!("the arguments of {owner}"),
        ("type", _) => format!("the transport of {owner}"),
        ("cwd", _) => format!("the working folder of {owner}"),
        ("env", _) => format!("the environment variable names of {owner}"),
        ("headers", _) => format!("the header names of {owner}"),
        (k, _) => format!("the {k} of {owner}"),
    }
}
