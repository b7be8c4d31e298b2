//! `toolc build`: the canonical IR of a checked repository, rendered for each target provider
//! (one module per target) and written atomically. See docs/bundles.md.

pub(crate) mod agents;
pub(crate) mod anthropic;
pub(crate) mod canonical;
mod compare;
pub(crate) mod compat;
mod compile;
pub(crate) mod gemini;
pub(crate) mod mcp;
pub(crate) mod openai;
mod targets;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::Config;

use crate::fs::RepoPath;
pub(crate) use compile::{Compiled, Selection, compile};

/// A provider (or toolc's own bundle) that `build` writes a file for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// OpenAI Chat Completions `tools`.
    OpenAi,
    /// Anthropic Messages `tools`.
    Anthropic,
    /// MCP `tools/list` result.
    Mcp,
    /// Gemini `functionDeclarations`.
    Gemini,
    /// toolc's canonical bundle (`toolc.bundle.json`).
    Bundle,
}

impl Target {
    /// Every target, in output order.
    pub const ALL: [Target; 5] = [
        Target::OpenAi,
        Target::Anthropic,
        Target::Mcp,
        Target::Gemini,
        Target::Bundle,
    ];

    /// The name used on the command line and in `toolc.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::OpenAi => "openai",
            Target::Anthropic => "anthropic",
            Target::Mcp => "mcp",
            Target::Gemini => "gemini",
            Target::Bundle => "bundle",
        }
    }

    /// Parse a target name.
    pub fn parse(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// Parse target names given on the command line: sorted, each once, or a message naming
    /// the first unknown one.
    pub fn parse_list(names: &[String]) -> Result<Vec<Target>, String> {
        if let Some(bad) = names.iter().find(|n| Target::parse(n).is_none()) {
            return Err(format!(
                "`{bad}` is not a build target; known targets: {}",
                crate::config::BUILD_TARGETS.join(", ")
            ));
        }
        Ok(parse_targets(names))
    }

    /// The provider's name for messages (`OpenAI`, …).
    pub fn provider(self) -> &'static str {
        match self {
            Target::OpenAi => "OpenAI",
            Target::Anthropic => "Anthropic",
            Target::Mcp => "MCP",
            Target::Gemini => "Gemini",
            Target::Bundle => "toolc",
        }
    }

    /// The file written for this target, in the output folder.
    pub fn file_name(self) -> &'static str {
        match self {
            Target::OpenAi => "openai.tools.json",
            Target::Anthropic => "anthropic.tools.json",
            Target::Mcp => "mcp.tools.json",
            Target::Gemini => "gemini.tools.json",
            Target::Bundle => "toolc.bundle.json",
        }
    }
}

/// The targets `toolc build` writes when none are named: `[build] targets` (unknown names were
/// already reported by the config loader), else every target.
pub(crate) fn configured_targets(config: &Config) -> Vec<Target> {
    match &config.build_targets {
        Some(names) => parse_targets(names),
        None => Target::ALL.to_vec(),
    }
}

/// The targets `toolc check` runs the CMP rules for: `[build] targets`, else none (a
/// repository that does not say it builds bundles is not held to any provider's limits).
pub(crate) fn checked_targets(config: &Config) -> Vec<Target> {
    config
        .build_targets
        .as_deref()
        .map(parse_targets)
        .unwrap_or_default()
}

/// Known target names as targets, sorted, each once.
pub(crate) fn parse_targets(names: &[String]) -> Vec<Target> {
    let mut targets: Vec<Target> = names.iter().filter_map(|n| Target::parse(n)).collect();
    targets.sort();
    targets.dedup();
    targets
}

/// One output file: its path relative to the output folder, and what it holds, made only
/// when it is compared or written (a build held every target's bytes at once: five copies
/// of a manifest of many tools).
pub(crate) struct Output<'c> {
    /// Relative path (`openai.tools.json`, `agents/support.json`).
    pub path: PathBuf,
    /// What makes its bytes.
    make: Make<'c>,
}

/// What an [`Output`] holds.
enum Make<'c> {
    /// A target's tool list.
    Target(&'c Compiled, Target),
    /// An agent's file.
    Agent(&'c agents::AgentBundle),
}

/// Write the content of every output to its writer, each list of tools from one pass over
/// the bundled tools. A writer that fails stops only its own output. Each output's outcome,
/// in order.
fn write_each(outs: Vec<(&Output<'_>, &mut dyn Write)>) -> Vec<std::io::Result<()>> {
    let mut results: Vec<Option<std::io::Result<()>>> = Vec::new();
    let mut lists = Vec::new();
    let mut compiled = None;
    for (i, (o, out)) in outs.into_iter().enumerate() {
        results.push(None);
        match o.make {
            Make::Target(c, target) => {
                compiled = Some(c);
                lists.push((i, target, out));
            }
            Make::Agent(agent) => results[i] = Some(write_json(out, agent)),
        }
    }
    if let Some(compiled) = compiled {
        let (places, outs): (Vec<usize>, Vec<(Target, &mut dyn Write)>) =
            lists.into_iter().map(|(i, t, out)| (i, (t, out))).unzip();
        for (i, written) in places.into_iter().zip(targets::write(compiled, outs)) {
            results[i] = Some(written);
        }
    }
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(std::io::Error::other("not written"))))
        .collect()
}

/// The empty list a target's file is made around: its entries are written into it as they
/// are made (`targets.rs`), never all at once.
pub(crate) struct NoTools;

impl Serialize for NoTools {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(std::iter::empty::<()>())
    }
}

/// Write `value` to `out` as pretty JSON with a trailing newline: every output's byte form.
pub(crate) fn write_json<T: Serialize>(out: &mut dyn Write, value: &T) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")
}

/// Every file a build for `targets` writes. Agent files are written with any target: they
/// refer to tools by canonical name, whatever the provider.
pub(crate) fn outputs<'c>(compiled: &'c Compiled, targets: &[Target]) -> Vec<Output<'c>> {
    let mut out = Vec::new();
    for target in Target::ALL.into_iter().filter(|t| targets.contains(t)) {
        out.push(Output {
            path: PathBuf::from(target.file_name()),
            make: Make::Target(compiled, target),
        });
    }
    for agent in &compiled.agents {
        out.push(Output {
            path: Path::new("agents").join(format!("{}.json", agent.agent_id)),
            make: Make::Agent(agent),
        });
    }
    out
}

/// Write `outputs` under `dir`: every file first to a temporary file beside it, then, once
/// all are written, each renamed into place, so a failed build (a full disk, a permission)
/// replaces nothing. Agent files of agents that no longer exist are removed, since nothing
/// else would ever remove them. Returns the removed paths, relative to `dir`.
pub(crate) fn write_all(
    out: &RepoPath,
    outputs: &[Output<'_>],
    agent_ids: &BTreeSet<String>,
) -> std::io::Result<Vec<PathBuf>> {
    // Nothing is written or deleted through a link: a committed `dist` or `dist/agents` link
    // must not make a build write, or delete, outside the output folder.
    out.refuse_links()?;
    let dir = out.path();
    refuse_links(dir, outputs)?;
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let written = batches(outputs)
        .iter()
        .try_for_each(|batch| write_batch(dir, batch, &mut staged));
    crate::timing::mark("write");
    if let Err(e) = written {
        for (tmp, _) in &staged {
            let _ = std::fs::remove_file(tmp);
        }
        return Err(e);
    }
    replace_all(&staged)?;
    let removed = gone_agent_files(dir, agent_ids);
    for rel in &removed {
        std::fs::remove_file(dir.join(rel))?;
    }
    Ok(removed)
}

/// The outputs in the groups they are made in: the lists of tools together (each made in one
/// pass over the bundled tools), every agent file alone, so only a few files are ever open
/// at once however many agents there are.
fn batches<'o, 'c>(outputs: &'o [Output<'c>]) -> Vec<Vec<&'o Output<'c>>> {
    let (lists, agents): (Vec<&Output<'c>>, Vec<&Output<'c>>) = outputs
        .iter()
        .partition(|o| matches!(o.make, Make::Target(..)));
    std::iter::once(lists)
        .filter(|l| !l.is_empty())
        .chain(agents.into_iter().map(|a| vec![a]))
        .collect()
}

/// Write one batch of outputs under `dir`, each to a temporary file beside its place, and
/// add those finished to `staged` (temporary path, final path).
fn write_batch(
    dir: &Path,
    batch: &[&Output<'_>],
    staged: &mut Vec<(PathBuf, PathBuf)>,
) -> std::io::Result<()> {
    let mut files = Vec::new();
    for o in batch {
        let path = dir.join(&o.path);
        let parent = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent)?;
        let name = o
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("bundle");
        files.push((crate::fs::boundary::Staged::new(parent, name)?, path));
    }
    let mut writers: Vec<std::io::BufWriter<&mut std::fs::File>> = files
        .iter_mut()
        .map(|(f, _)| std::io::BufWriter::new(f.file()))
        .collect();
    let written = write_each(
        batch
            .iter()
            .zip(writers.iter_mut())
            .map(|(o, w)| (*o, w as &mut dyn Write))
            .collect(),
    );
    for (w, result) in writers.iter_mut().zip(written) {
        result.and_then(|()| w.flush())?;
    }
    drop(writers);
    // A failure here drops the files not finished, which removes them.
    for (file, path) in files {
        staged.push((file.finish_unsynced()?, path));
    }
    Ok(())
}

/// An error when `dir`, a folder an output goes into, or an output file is a symbolic link.
fn refuse_links(dir: &Path, outputs: &[Output<'_>]) -> std::io::Result<()> {
    let is_link = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    let mut checked: BTreeSet<PathBuf> = BTreeSet::new();
    // `agents/` too: stale agent files are deleted from it even when no agent is written.
    let mut candidates = vec![dir.to_path_buf(), dir.join("agents")];
    for o in outputs {
        let mut at = dir.to_path_buf();
        for part in o.path.components() {
            at.push(part);
            candidates.push(at.clone());
        }
    }
    for p in candidates {
        if checked.insert(p.clone()) && is_link(&p) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "{} is a symbolic link; toolc never writes or deletes through one",
                    p.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Move every staged file into place, or none: each file it replaces is set aside first, and a
/// failure part-way puts every one back, so the previous bundle stays complete.
fn replace_all(staged: &[(PathBuf, PathBuf)]) -> std::io::Result<()> {
    let mut done: Vec<(&PathBuf, Option<PathBuf>)> = Vec::new();
    let mut failure = None;
    for (tmp, path) in staged {
        let backup = if path.exists() {
            let backup = tmp.with_extension("old");
            if let Err(e) = std::fs::rename(path, &backup) {
                failure = Some(e);
                break;
            }
            Some(backup)
        } else {
            None
        };
        if let Err(e) = std::fs::rename(tmp, path) {
            if let Some(b) = &backup {
                let _ = std::fs::rename(b, path);
            }
            failure = Some(e);
            break;
        }
        done.push((path, backup));
    }
    match failure {
        None => {
            for (_, backup) in done {
                if let Some(b) = backup {
                    let _ = std::fs::remove_file(b);
                }
            }
            Ok(())
        }
        Some(e) => {
            for (path, backup) in done.into_iter().rev() {
                match backup {
                    Some(b) => {
                        let _ = std::fs::rename(b, path);
                    }
                    None => {
                        let _ = std::fs::remove_file(path);
                    }
                }
            }
            for (tmp, _) in staged {
                let _ = std::fs::remove_file(tmp);
            }
            Err(e)
        }
    }
}

/// `agents/*.json` files under `dir` of agents no agent file of the repository has any more
/// (removed, or given another id). An agent that still exists keeps its file even when this
/// build leaves it out (a named file or folder builds alone).
fn gone_agent_files(dir: &Path, agent_ids: &BTreeSet<String>) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir.join("agents")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| Path::new("agents").join(e.file_name()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| {
            p.file_stem()
                .and_then(|s| s.to_str())
                .is_none_or(|id| !agent_ids.contains(id))
        })
        .collect();
    out.sort();
    out
}

/// What `build --check` finds out of date under `dir`.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Staleness {
    /// Files a build would write that are missing or differ.
    pub differ: Vec<PathBuf>,
    /// Agent files a build would remove.
    pub extra: Vec<PathBuf>,
}

impl Staleness {
    /// True when the folder holds exactly what a build would write.
    pub(crate) fn is_current(&self) -> bool {
        self.differ.is_empty() && self.extra.is_empty()
    }
}

/// Compare `dir` with `outputs` (for `build --check`).
pub(crate) fn stale(
    out: &RepoPath,
    outputs: &[Output<'_>],
    agent_ids: &BTreeSet<String>,
) -> Staleness {
    // What is behind a link is not read, not even to compare: it is not the bundle.
    let open = |rel: &Path| {
        let file = out.join(rel)?;
        file.refuse_links().ok()?;
        file.open().ok()
    };
    let agents_linked = out
        .join(Path::new("agents"))
        .is_none_or(|a| a.refuse_links().is_err());
    // A missing file is compared with nothing, and differs. One batch open at a time.
    let mut differ = Vec::new();
    for batch in batches(outputs) {
        let mut holds: Vec<Option<compare::Holds>> = batch
            .iter()
            .map(|o| open(&o.path).map(compare::Holds::new))
            .collect();
        let mut nothing: Vec<std::io::Sink> = batch.iter().map(|_| std::io::sink()).collect();
        let written = write_each(
            batch
                .iter()
                .zip(holds.iter_mut().zip(nothing.iter_mut()))
                .map(|(o, (h, none))| match h {
                    Some(h) => (*o, h as &mut dyn Write),
                    None => (*o, none as &mut dyn Write),
                })
                .collect(),
        );
        for ((o, w), h) in batch.iter().zip(written).zip(holds) {
            if !(w.is_ok() && h.is_some_and(compare::Holds::held_whole)) {
                differ.push(o.path.clone());
            }
        }
    }
    Staleness {
        differ,
        extra: if agents_linked {
            Vec::new()
        } else {
            gone_agent_files(out.path(), agent_ids)
        },
    }
}

/// A place in a JSON Schema that a target cannot take, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SchemaProblem {
    /// JSON pointer (RFC 6901) to the keyword or subschema, from the schema's root.
    pub pointer: String,
    /// The diagnostic belongs on the key of the last pointer step (an unsupported keyword),
    /// not on its value (a bad value).
    pub on_key: bool,
    /// What is wrong.
    pub message: String,
    /// A few words under the offending token.
    pub label: String,
    /// What to write instead.
    pub help: String,
}

impl SchemaProblem {
    /// A keyword that should not be there (reported on its key).
    pub(crate) fn key(pointer: &str, message: impl Into<String>, help: impl Into<String>) -> Self {
        SchemaProblem {
            pointer: pointer.to_string(),
            on_key: true,
            message: message.into(),
            label: "not supported".into(),
            help: help.into(),
        }
    }

    /// A value that is wrong (reported on the value).
    pub(crate) fn value(
        pointer: &str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        SchemaProblem {
            pointer: pointer.to_string(),
            on_key: false,
            message: message.into(),
            label: "not supported".into(),
            help: help.into(),
        }
    }

    /// Set the label under the offending token.
    pub(crate) fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
}

/// The problems found in a schema: the first few kept, all counted. A generated schema can
/// hold one per property, and each kept one becomes a finding placed in the source: placing
/// all of 20,000 took 90 s.
pub(crate) struct SchemaProblems {
    kept: Vec<SchemaProblem>,
    keep: usize,
    total: usize,
}

impl SchemaProblems {
    /// None yet; the first `keep` found are kept.
    pub(crate) fn keeping(keep: usize) -> Self {
        SchemaProblems {
            kept: Vec::new(),
            keep,
            total: 0,
        }
    }

    /// One more problem.
    pub(crate) fn push(&mut self, problem: SchemaProblem) {
        self.total += 1;
        if self.kept.len() < self.keep {
            self.kept.push(problem);
        }
    }

    /// The problems kept, in the order found.
    pub(crate) fn kept(&self) -> &[SchemaProblem] {
        &self.kept
    }

    /// How many were found, kept or not.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// Whether none was found.
    pub(crate) fn is_empty(&self) -> bool {
        self.total == 0
    }
}

/// A JSON-pointer token (RFC 6901).
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
