//! What `toolc.lock` and `toolc diff` record of the definitions that are not tools: an Agent
//! Skill (`skill.rs`) and an MCP server, whether an entry of a client configuration or a
//! published `server.json` (`server.rs`). Each is a name and a set of fields, every field with
//! its place in the file, so a change is reported where it was made.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use sha2::{Digest as _, Sha256};

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
    pub fields: Fields,
}

/// A record's fields, sorted by key: a list, not a `BTreeMap`, whose first node took 900
/// bytes for a server's one `command` (a configuration of many small servers held 38 times
/// its size in them). Made by [`Fields::insert`] in any order, then [`Fields::sorted`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Fields(Vec<(String, Field)>);

impl Fields {
    /// Add `key`; of a key added twice, the last counts.
    pub(crate) fn insert(&mut self, key: String, field: Field) {
        self.0.push((key, field));
    }

    /// The fields sorted by key, each key once (its last value).
    pub(crate) fn sorted(mut self) -> Fields {
        // Stable: of equal keys, the one added last stays last.
        self.0.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(String, Field)> = Vec::with_capacity(self.0.len());
        for (key, field) in self.0 {
            match out.last_mut() {
                Some(last) if last.0 == key => last.1 = field,
                _ => out.push((key, field)),
            }
        }
        Fields(out)
    }

    /// The field `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Field> {
        let at = self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()?;
        self.0.get(at).map(|(_, f)| f)
    }

    /// True when there is a field `key`.
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys, in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// Each key and field, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &Field)> {
        self.0.iter().map(|(k, f)| (k, f))
    }
}

impl Record<'_> {
    /// SHA-256 (hex) of the fields as one JSON object, with `name` among them when given,
    /// hashed as it is written: the fields are not copied into one JSON value first (a record
    /// of many fields was held twice more).
    fn hash(&self, name: Option<&str>) -> String {
        crate::text::hex(&self.digest(name))
    }

    /// [`Record::hash`], as bytes.
    fn digest(&self, name: Option<&str>) -> [u8; 32] {
        use crate::syntax::canonical::{self as json, Sink as _};
        let mut hash = Sha256::new();
        hash.put(b"{");
        let mut first = true;
        let mut member = |hash: &mut Sha256, key: &str, value: &Value| {
            if !first {
                hash.put(b",");
            }
            first = false;
            json::key(key, hash);
            json::write(value, hash);
        };
        // The fields are sorted by key, as canonical JSON's members are.
        let mut name = name.map(|n| Value::String(n.to_string()));
        for (key, field) in self.fields.iter() {
            if key.as_str() >= "name"
                && let Some(n) = name.take()
            {
                member(&mut hash, "name", &n);
                if key == "name" {
                    // The record's name stands in for a field of that name.
                    continue;
                }
            }
            member(&mut hash, key, &field.value);
        }
        if let Some(n) = name {
            member(&mut hash, "name", &n);
        }
        hash.put(b"}");
        hash.finalize().into()
    }

    /// SHA-256 of everything but the name: equal for a record and the same one renamed.
    pub(crate) fn identity(&self) -> [u8; 32] {
        self.digest(None)
    }

    /// The lock entry; `root` is the lock's folder.
    pub(crate) fn entry(&self, root: &Path) -> Entry {
        let mut parts = BTreeMap::new();
        let mut texts = BTreeMap::new();
        for (key, field) in self.fields.iter() {
            let to = if field.text { &mut texts } else { &mut parts };
            to.insert(key.clone(), short(&field.value));
        }
        let rel = self.file.path.strip_prefix(root).unwrap_or(&self.file.path);
        Entry {
            kind: self.kind,
            format: self.file.format.as_str().to_string(),
            path: rel.to_string_lossy().replace('\\', "/"),
            name: self.name.clone(),
            sha256: self.hash(Some(&self.name)),
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
    each_record(results, fs, &mut |r| out.push(r));
    // Through a list of places: a stable sort took room for half of 400,000 servers.
    crate::formats::sort_by_places(&mut out, |a, b| {
        (&a.file.path, &a.name).cmp(&(&b.file.path, &b.name))
    });
    out
}

/// Whether the records of a file of `format` are made from its text ([`each_record`] parses
/// it): a load for records keeps that text rather than let it go and read the file again.
pub(crate) fn made_from_text(format: FormatId) -> bool {
    matches!(format, FormatId::McpConfig | FormatId::McpServer)
}

/// Every skill and server of `results`, handed to `each` as it is made: file by file, a
/// file's servers in the order written.
pub(crate) fn each_record<'a>(
    results: impl IntoIterator<Item = &'a FileResult>,
    fs: &dyn FileSystem,
    each: &mut dyn FnMut(Record<'a>),
) {
    for r in results {
        let one = match r.file.format {
            FormatId::AgentSkill => super::skill::record(&r.file, fs),
            FormatId::McpConfig => {
                super::server::client_config(&r.file, each);
                None
            }
            FormatId::McpServer => super::server::server_json(&r.file),
            _ => None,
        };
        if let Some(record) = one {
            each(record);
        }
    }
}

/// A field holding `value` at `span`.
pub(crate) fn field(value: Value, span: Span, text: bool) -> Field {
    Field { value, span, text }
}

/// A list or mapping written in more bytes than this is recorded as the hash of its JSON.
const HELD_UP_TO: usize = 64 * 1024;

/// What a record holds of `node`: its JSON, or for a list or mapping of more than 64 KiB, the
/// [`canonical::node_digest`] of it (a server's list of a million `{}` was held as JSON, with
/// a copy for the record's hash: about 100 bytes for each 3 of the file).
pub(crate) fn recorded(node: &crate::syntax::Node) -> Value {
    let span = node.span();
    let large = span.end - span.start > HELD_UP_TO
        && (node.as_list().is_some() || node.entries().is_some());
    if large {
        canonical::node_digest(node)
    } else {
        node.to_json()
    }
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
        ("settings", "") => format!("the settings of {owner}"),
        ("front-matter" | "settings", k) => format!("`{k}` of {owner}"),
        ("packages", "") => format!("the packages of {owner}"),
        ("packages", id) => match id.rsplit_once('/') {
            Some((id, "run")) => format!("how package `{id}` of {owner} runs"),
            Some((id, "env")) => {
                format!("the environment variables of package `{id}` of {owner}")
            }
            _ => format!("package `{id}` of {owner}"),
        },
        ("remotes", "") => format!("the remotes of {owner}"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Fields added in any order read back sorted, a key added twice holding its last value.
    #[test]
    fn fields_are_sorted_and_the_last_of_a_key_counts() {
        let at = Span::point(0);
        let mut fields = Fields::default();
        for (key, value) in [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)] {
            fields.insert(key.to_string(), field(json!(value), at, false));
        }
        let fields = fields.sorted();
        let read: Vec<(&str, Value)> = fields
            .iter()
            .map(|(k, f)| (k.as_str(), f.value.clone()))
            .collect();
        assert_eq!(read, [("a", json!(5)), ("b", json!(3)), ("c", json!(4))]);
        assert_eq!(fields.get("b").map(|f| &f.value), Some(&json!(3)));
        assert!(fields.contains_key("c") && !fields.contains_key("d"));
    }

    /// The hashes, taken as the fields are written, are those of the fields as one JSON
    /// object: the record's name stands in for a field called `name` and sorts among them.
    #[test]
    fn records_hash_as_their_fields_in_one_object() {
        let file = SourceFile::new(
            "server.json".into(),
            "server.json".into(),
            FormatId::McpServer,
            String::new(),
        );
        let at = Span::point(0);
        for keys in [
            &["a", "name", "z"][..],
            &["a", "b"],
            &["o", "p/q"],
            &[],
            &["na", "name/x", "namf"],
        ] {
            let mut fields = Fields::default();
            for k in keys {
                fields.insert(k.to_string(), field(json!({"k": [k, 1]}), at, false));
            }
            let fields = fields.sorted();
            let record = Record {
                kind: Kind::Server,
                file: &file,
                name: "weather \"x\"".into(),
                name_span: at,
                fields,
            };
            let mut all: serde_json::Map<String, Value> = record
                .fields
                .iter()
                .map(|(k, f)| (k.clone(), f.value.clone()))
                .collect();
            assert_eq!(
                crate::text::hex(&record.identity()),
                canonical::sha256(&Value::Object(all.clone()))
            );
            all.insert("name".into(), json!(record.name));
            let entry = record.entry(Path::new(""));
            assert_eq!(
                entry.sha256,
                canonical::sha256(&Value::Object(all)),
                "{keys:?}"
            );
        }
    }
}
