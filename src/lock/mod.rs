//! `toolc.lock`: what every tool's definition was when it was last reviewed. `toolc lock`
//! writes it ([`write`]); `toolc check --locked` (or `[lock] required = true`) reports each
//! tool that no longer matches it, at the part that changed (`drift.rs`).
//!
//! Per tool the lock keeps its format, file, name and the SHA-256 of its canonical definition
//! (`canonical.rs`: the IR without provenance, keys sorted, so whitespace and key order do not
//! count), and, to say *what* changed, a short hash of each part (schemas without their texts,
//! how it runs, risk, version, tags) and of each text the model reads (descriptions, titles,
//! guidance). The full hash decides whether a tool drifted; the short ones only locate it.
//!
//! Agent Skills and MCP servers (client configuration entries and `server.json`) are locked
//! the same way, each field of theirs a part or a text (`record.rs`, `skill.rs`,
//! `server.rs`), and checked by `drift_records.rs`.

pub(crate) mod canonical;
pub(crate) mod claims;
mod drift;
mod drift_records;
mod file;
pub(crate) mod record;
pub(crate) mod server;
mod skill;
mod spool;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::config::Config;
use crate::ir::Lowered;

pub(crate) use drift::drift;
pub(crate) use file::FILE_NAME;

/// Hex digits kept of a part's or text's hash: enough to tell versions apart; the definition's
/// full hash is what guards against a change.
const SHORT: usize = 16;

/// One tool, skill or server as the lock records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Tool, skill or server: the lock's table.
    pub kind: record::Kind,
    /// Format id.
    pub format: String,
    /// The file, relative to the lock's folder, with `/`.
    pub path: String,
    /// The tool's name.
    pub name: String,
    /// SHA-256 of the canonical definition.
    pub sha256: String,
    /// Short hash of each part, by part name.
    pub parts: BTreeMap<String, String>,
    /// Short hash of each model-visible text, by where it is (`description`,
    /// `input_schema/properties/q/description`, `guidance/use_when/0`).
    pub texts: BTreeMap<String, String>,
}

/// The folder `toolc.lock` lives in: the configuration's, else the repository's top folder
/// (the nearest with `.git`), else the working directory; where bundle paths are relative to.
pub(crate) fn root(config: &Config) -> PathBuf {
    config.project_root()
}

fn short(value: &Value) -> String {
    let mut hash = canonical::sha256(value);
    hash.truncate(SHORT);
    hash
}

/// The texts of a schema (`description` and `title` strings at any depth) moved out into
/// `texts` under `prefix`; what is left is the schema's structure.
fn split_texts(value: &mut Value, prefix: &str, texts: &mut BTreeMap<String, String>) {
    match value {
        Value::Object(map) => {
            for key in ["description", "title"] {
                if let Some(Value::String(_)) = map.get(key)
                    && let Some(text) = map.remove(key)
                {
                    texts.insert(format!("{prefix}/{key}"), short(&text));
                }
            }
            for (k, v) in map.iter_mut() {
                split_texts(v, &format!("{prefix}/{k}"), texts);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                split_texts(v, &format!("{prefix}/{i}"), texts);
            }
        }
        _ => {}
    }
}

/// The lock entry of a lowered tool; `root` is the lock's folder.
pub(crate) fn entry(tool: &Lowered<'_>, root: &Path) -> Entry {
    entry_at(tool, entry_path(tool, root))
}

/// The lock entry of a lowered tool whose [`entry_path`] is `path`.
pub(crate) fn entry_at(tool: &Lowered<'_>, path: String) -> Entry {
    let definition = canonical::definition(&tool.tool);
    let mut parts = BTreeMap::new();
    let mut texts = BTreeMap::new();
    if let Value::Object(map) = definition.clone() {
        for (key, mut value) in map {
            match key.as_str() {
                "name" => {}
                "description" | "title" => {
                    if value.as_str().is_some_and(|s| !s.is_empty()) {
                        texts.insert(key, short(&value));
                    }
                }
                // Every guidance item is a text (below).
                "guidance" => {}
                // One part per setting, so a changed timeout is named.
                "settings" => {
                    if let Value::Object(settings) = value {
                        for (k, v) in settings {
                            parts.insert(format!("settings/{k}"), short(&v));
                        }
                    }
                }
                "input_schema" | "output_schema" => {
                    split_texts(&mut value, &key, &mut texts);
                    parts.insert(key, short(&value));
                }
                _ => {
                    parts.insert(key, short(&value));
                }
            }
        }
    }
    if let Some(g) = &tool.tool.guidance {
        for (list, items) in [
            ("use_when", &g.use_when),
            ("avoid_when", &g.avoid_when),
            ("side_effects", &g.side_effects),
        ] {
            for (i, item) in items.iter().enumerate() {
                texts.insert(
                    format!("guidance/{list}/{i}"),
                    short(&Value::String(item.clone())),
                );
            }
        }
    }
    Entry {
        kind: record::Kind::Tool,
        format: tool.tool.provenance.format.to_string(),
        path,
        name: tool.tool.name.clone(),
        sha256: canonical::sha256(&definition),
        parts,
        texts,
    }
}

/// The path a lock entry names `tool`'s file by, relative to `root`, the lock's folder.
pub(crate) fn entry_path(tool: &Lowered<'_>, root: &Path) -> String {
    let rel = tool.file.path.strip_prefix(root).unwrap_or(&tool.file.path);
    rel.to_string_lossy().replace('\\', "/")
}

/// What `toolc lock` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The lock file.
    pub path: PathBuf,
    /// How many tools it lists.
    pub tools: usize,
    /// How many Agent Skills it lists.
    pub skills: usize,
    /// How many MCP servers it lists.
    pub servers: usize,
    /// False when the file already said exactly this.
    pub changed: bool,
}

/// Lock every tool of the repository `cwd` is in (see [`root`]), as it is now.
pub(crate) fn lock(config: &Config) -> std::io::Result<Written> {
    // The records are parsed again after the load.
    crate::memory::give_back_at_once();
    let root = root(config);
    // The whole repository is locked, wherever toolc runs from.
    let options = crate::pipeline::CheckOptions {
        cwd: root.clone(),
        // A lock reports no finding: selecting only its own rules leaves out every pass
        // that looks for them (secrets, schemas, the texts' security rules).
        select: vec!["LCK".into()],
        ..crate::pipeline::CheckOptions::default()
    };
    let fs = crate::fs::Overlay::new(Box::new(crate::fs::Confined::for_paths(&[], &root)));
    let loaded = crate::pipeline::load_definitions(&options, config, &fs, record::made_from_text);
    // Through the boundary: never a lock file linked out of the repository, read or written.
    let at = crate::fs::Repository::of(&root)
        .configured(Path::new(FILE_NAME), &root)
        .map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!("{FILE_NAME} is {e}"),
            )
        })?;
    // Each entry is made as its tool or server is read, never a list of all of them.
    // A lock `check --locked` would refuse to read is not written.
    let limit = u32::try_from(crate::fs::MAX_READ_BYTES).unwrap_or(u32::MAX);
    // The scratch file goes beside the lock, never through a link (as the lock itself).
    let folder = at.refuse_links().ok().and(at.path().parent());
    let mut spool = spool::Spool::new(&root, folder, limit);
    crate::formats::lower_each(&loaded.results, &|_| true, &mut spool.tools());
    record::each_record(&loaded.results, &fs, &mut |r| {
        spool.add(&r.entry(&root), None)
    });
    let (tools, skills, servers) = (
        spool.count(record::Kind::Tool),
        spool.count(record::Kind::Skill),
        spool.count(record::Kind::Server),
    );
    let changed = spool.finish(&at)?;
    Ok(Written {
        path: at.path().to_path_buf(),
        tools,
        skills,
        servers,
        changed,
    })
}
