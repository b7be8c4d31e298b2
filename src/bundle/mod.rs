//! `toolc build`: the canonical IR of a checked repository, rendered for each target provider
//! (one module per target) and written atomically. See docs/bundles.md.

pub mod agents;
pub mod anthropic;
pub mod canonical;
pub mod gemini;
pub mod mcp;
pub mod openai;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::formats::FileResult;
use crate::ir::{self, LeftOut, Tool};

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

/// The targets `[build] targets` configures (unknown names were already reported by the
/// config loader), or every target.
pub fn configured_targets(config: &Config) -> Vec<Target> {
    match &config.build_targets {
        Some(names) => {
            let mut targets: Vec<Target> = names.iter().filter_map(|n| Target::parse(n)).collect();
            targets.sort();
            targets.dedup();
            targets
        }
        None => Target::ALL.to_vec(),
    }
}

/// Everything a build writes, computed during the check.
#[derive(Debug, Clone, Default)]
pub struct Compiled {
    /// Every bundled tool, sorted by name then path.
    pub tools: Vec<Tool>,
    /// Every agent with an id, sorted by id.
    pub agents: Vec<agents::AgentBundle>,
    /// Tools left out of the bundles, and why.
    pub left_out: Vec<LeftOut>,
}

/// Lower every tool of `results` and assemble the agents; the diagnostics are the
/// provider-compatibility findings for the configured targets (none yet: the CMP rules are
/// not in, and `build` refuses what a target cannot take, see [`problems`]). Files with an
/// error of their own contribute nothing: the check already says why.
pub fn compile(results: &[FileResult], _config: &Config) -> (Compiled, Vec<Diagnostic>) {
    let (lowered, left_out) = ir::lower_all(results);
    let diagnostics = Vec::new();
    let tools: Vec<Tool> = lowered.into_iter().map(|l| l.tool).collect();
    let agents = agents::compile(results, &tools);
    (
        Compiled {
            tools,
            agents,
            left_out,
        },
        diagnostics,
    )
}

/// One output file: its path relative to the output folder, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Relative path (`openai.tools.json`, `agents/support.json`).
    pub path: PathBuf,
    /// The file's content.
    pub bytes: Vec<u8>,
}

/// Pretty JSON with a trailing newline: every output's byte form.
pub fn to_json_bytes<T: Serialize>(value: &T) -> Vec<u8> {
    // Serializing plain data to a Vec cannot fail; an empty file would be caught by --check.
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Every file a build for `targets` writes. Agent files are written with any target: they
/// refer to tools by canonical name, whatever the provider.
pub fn render(compiled: &Compiled, targets: &[Target]) -> Vec<Output> {
    let mut out = Vec::new();
    for target in Target::ALL.into_iter().filter(|t| targets.contains(t)) {
        let bytes = match target {
            Target::OpenAi => openai::render(&compiled.tools),
            Target::Anthropic => anthropic::render(&compiled.tools),
            Target::Mcp => mcp::render(&compiled.tools),
            Target::Gemini => gemini::render(&compiled.tools),
            Target::Bundle => canonical::render(&compiled.tools, &compiled.left_out),
        };
        out.push(Output {
            path: PathBuf::from(target.file_name()),
            bytes,
        });
    }
    for agent in &compiled.agents {
        out.push(Output {
            path: Path::new("agents").join(format!("{}.json", agent.agent_id)),
            bytes: to_json_bytes(agent),
        });
    }
    out
}

/// Write `outputs` under `dir`, each through a temporary file in the same folder and a
/// rename, so a reader (or a failed build) never sees a half-written bundle.
pub fn write_all(dir: &Path, outputs: &[Output]) -> std::io::Result<()> {
    for o in outputs {
        let path = dir.join(&o.path);
        let parent = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent)?;
        let name = o
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("bundle");
        let tmp = parent.join(format!(".{name}.toolc-tmp-{}", std::process::id()));
        let written = std::fs::write(&tmp, &o.bytes).and_then(|()| std::fs::rename(&tmp, &path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written?;
    }
    Ok(())
}

/// The outputs whose file under `dir` is missing or differs (for `build --check`).
pub fn stale(dir: &Path, outputs: &[Output]) -> Vec<PathBuf> {
    outputs
        .iter()
        .filter(|o| std::fs::read(dir.join(&o.path)).ok().as_deref() != Some(&o.bytes[..]))
        .map(|o| o.path.clone())
        .collect()
}

/// Why `targets` cannot take some tool: a name the provider rejects, a root schema that is
/// not an object, a schema outside Gemini's subset, one name twice. `build` writes nothing
/// when there is one: a provider refuses the whole request, and nothing is dropped silently.
pub fn problems(compiled: &Compiled, targets: &[Target]) -> Vec<String> {
    let mut out = Vec::new();
    let providers: Vec<Target> = targets
        .iter()
        .copied()
        .filter(|t| *t != Target::Bundle)
        .collect();
    for t in &compiled.tools {
        let at = &t.provenance.path;
        for p in &providers {
            if let Some(rule) = name_rule(*p, &t.name) {
                out.push(format!(
                    "{at}: tool name `{}` is rejected by {} (must match {rule})",
                    t.name,
                    p.provider()
                ));
            }
        }
        if !providers.is_empty()
            && t.input_schema
                .get("type")
                .and_then(serde_json::Value::as_str)
                != Some("object")
        {
            out.push(format!(
                "{at}: the input schema of `{}` is not `type: object` at its root, which every provider requires",
                t.name
            ));
        }
        if providers.contains(&Target::Gemini)
            && let Err(found) = gemini::convert(&t.input_schema)
        {
            for g in found {
                let pointer = if g.pointer.is_empty() {
                    "/"
                } else {
                    &g.pointer
                };
                out.push(format!(
                    "{at}: Gemini cannot take the input schema of `{}`: {} (at `{pointer}`)",
                    t.name, g.message
                ));
            }
        }
    }
    let mut seen: std::collections::BTreeMap<&str, &str> = std::collections::BTreeMap::new();
    for t in &compiled.tools {
        if let Some(first) = seen.insert(&t.name, &t.provenance.path) {
            out.push(format!(
                "{}: a tool named `{}` is already in the bundle (from {first})",
                t.provenance.path, t.name
            ));
        }
    }
    out
}

/// The pattern `target` requires of a tool name, when `name` does not meet it.
pub fn name_rule(target: Target, name: &str) -> Option<&'static str> {
    let len = name.chars().count();
    let ok = match target {
        Target::OpenAi | Target::Anthropic => {
            (1..=64).contains(&len)
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        }
        Target::Gemini => {
            (1..=64).contains(&len)
                && name
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
        }
        Target::Mcp => {
            (1..=128).contains(&len)
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        }
        Target::Bundle => true,
    };
    (!ok).then_some(match target {
        Target::OpenAi | Target::Anthropic => "^[a-zA-Z0-9_-]{1,64}$",
        Target::Gemini => "a letter or `_`, then letters, digits, `_`, `.`, `:` or `-`, at most 64",
        Target::Mcp => "^[A-Za-z0-9_.-]{1,128}$",
        Target::Bundle => "",
    })
}
