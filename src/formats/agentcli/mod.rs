//! agentcli `tools.json` manifests (the goagent project, https://github.com/hyperifyio/goagent;
//! docs/formats/agentcli-manifest.md).
//!
//! agentcli's loader stops at the first problem and refuses the whole manifest, so one bad
//! entry takes every tool with it. toolc reports all of them at once, each with the entry's
//! index and name the way the runtime words it (`tool[3] "fs_read": …`).

mod ir;
mod texts;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::fields::span_in_value;
use super::{FileResult, Format, Item, syntax_diagnostics};
use crate::analysis::names::did_you_mean;
use crate::analysis::paths::{base_name, clean, climbing_dotdot, is_absolute_anywhere};
use crate::analysis::registry;
use crate::analysis::secrets::secret_name;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::{MAX_PER_RULE, cap_per_rule};
use crate::formats::fields::rename_key;
use crate::fs::FileSystem;
use crate::ir::Lowering;
use crate::rules::agentcli as rules;
use crate::rules::security;
use crate::schema::{SchemaOptions, check_schema};
use crate::source::FormatId;
use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Node, NodeKind, Number, json};

/// Keys of a tool entry, as agentcli spells them.
const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "schema",
    "command",
    "timeoutSec",
    "envPassthrough",
];

/// The prefix every relative program must have once cleaned.
const BIN_PREFIX: &str = "./tools/bin/";

/// What happens to the whole manifest when agentcli's loader meets a hard error.
const REFUSED: &str =
    "agentcli refuses to load the whole manifest on this error: none of its tools are available";

/// A lowered `tools.json`.
#[derive(Debug, Default)]
pub struct Manifest {
    /// The entries of `tools` that are JSON objects, in order.
    pub tools: Vec<Tool>,
    /// What the model reads and what runs, for the security pass (`texts.rs`).
    pub texts: crate::formats::texts::FileTexts,
}

impl Manifest {
    /// Tool definitions in this manifest.
    pub fn tool_count(&self) -> usize {
        self.tools.len()
    }
}

/// One entry of `tools`, as far as it could be read.
#[derive(Debug, Default, Clone)]
pub struct Tool {
    /// Position in the `tools` list.
    pub index: usize,
    /// `name`, when it is a non-empty string.
    pub name: Option<String>,
    /// `description`, when it is a string.
    pub description: Option<String>,
    /// `command` (argv), when every element is a string.
    pub command: Vec<String>,
    /// Where the entry is written.
    pub span: Span,
    /// Where its `name` value is written.
    pub name_span: Option<Span>,
    /// Where its `description` value is written.
    pub description_span: Option<Span>,
    /// `schema`, kept for the bundle lowering and the provider checks (`ir.rs`).
    pub schema: Option<Node>,
}

/// Parse, lower, validate and lint one manifest; programs are looked for through `fs`.
pub fn load(file: Arc<SourceFile>, fs: &dyn FileSystem) -> FileResult {
    let mut cx = Cx {
        file: &file,
        fs,
        diags: Vec::new(),
    };
    if file.bom_len > 0 {
        let d = cx
            .diag(
                &rules::BYTE_ORDER_MARK,
                Span::new(0, file.bom_len),
                "the manifest starts with a UTF-8 byte-order mark",
            )
            .label("byte-order mark")
            .note("agentcli's Go JSON decoder does not skip a BOM: it fails with `invalid character 'ï' looking for beginning of value` and loads no tool")
            .help("save the file as UTF-8 without a BOM");
        cx.push(d);
    }
    let parsed = json::parse(file.body(), file.bom_len);
    cx.diags.extend(
        syntax_diagnostics(&file, &parsed)
            .into_iter()
            .map(|d| d.note("agentcli cannot parse the manifest and loads no tool from it")),
    );
    let mut manifest = Manifest::default();
    if let Some(root) = &parsed.root {
        cx.manifest(root, &mut manifest);
        manifest.texts = crate::formats::texts::FileTexts::check(texts::manifest(&file, root));
    }
    FileResult {
        companions: Vec::new(),
        diagnostics: cap_per_rule(cx.diags, MAX_PER_RULE),
        item: Item::new(manifest),
        file,
    }
}

/// agentcli `tools.json` manifests.
pub struct Agentcli;

impl Format for Agentcli {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[(FormatId::AgentcliManifest, &["**/tools.json"])]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        (path.file_name()? == "tools.json").then_some(FormatId::AgentcliManifest)
    }

    fn load(&self, file: Arc<SourceFile>, fs: &dyn FileSystem) -> FileResult {
        load(file, fs)
    }

    fn resolve(&self, results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        resolve(results)
    }

    fn tool_count(&self, r: &FileResult) -> usize {
        r.item.get::<Manifest>().map_or(0, Manifest::tool_count)
    }

    fn lower<'a>(
        &self,
        results: &'a [FileResult],
        takes: &dyn Fn(&FileResult) -> bool,
    ) -> Lowering<'a> {
        ir::lower(results, takes)
    }

    fn texts<'r>(&self, r: &'r FileResult) -> Option<&'r crate::formats::texts::FileTexts> {
        r.item.get::<Manifest>().map(|m| &m.texts)
    }
}

/// Cross-file checks: none, a manifest is its own name scope.
pub fn resolve(_results: &[crate::formats::FileResult]) -> Vec<Diagnostic> {
    Vec::new()
}

/// `tool[3] "fs_read"` (or `tool[3]` before a name is known), as agentcli writes it.
#[derive(Clone)]
struct Who {
    index: usize,
    name: Option<String>,
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(n) => write!(f, "tool[{}] {n:?}", self.index),
            None => write!(f, "tool[{}]", self.index),
        }
    }
}

/// A relative program that passed the path checks, to be looked for next to the manifest.
struct Program {
    who: Who,
    /// The cleaned path (`./tools/bin/NAME`).
    path: String,
    span: Span,
}

/// An `envPassthrough` entry agentcli rewrites: trimmed or upper-cased, or a repeat.
struct Rewritten<'n> {
    index: usize,
    node: &'n Node,
    /// The name agentcli reads.
    norm: String,
    /// The earlier entry it repeats (index and span), if it is a repeat.
    first: Option<(usize, Span)>,
}

struct Cx<'a> {
    file: &'a Arc<SourceFile>,
    fs: &'a dyn FileSystem,
    diags: Vec<Diagnostic>,
}

impl Cx<'_> {
    fn diag(
        &self,
        rule: &'static crate::rules::Rule,
        span: Span,
        msg: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(rule, self.file, span, msg)
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The opening brace of a mapping: where a missing key is reported.
    fn brace(node: &Node) -> Span {
        Span::new(node.span.start, (node.span.start + 1).min(node.span.end))
    }

    fn wrong_type(&mut self, node: &Node, what: String, expected: &str, help: Option<String>) {
        let d = self
            .diag(
                &rules::WRONG_FIELD_TYPE,
                node.span,
                format!("{what} must be {expected}, found {}", json_type(node)),
            )
            .label(format!("expected {expected}"))
            .note("agentcli's JSON decoder rejects the manifest: none of its tools are available")
            .maybe_help(help);
        self.push(d);
    }

    fn manifest(&mut self, root: &Node, manifest: &mut Manifest) {
        let Some(entries) = root.as_map() else {
            let d = self
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    root.span,
                    format!(
                        "the manifest must be a JSON object `{{\"tools\": [...]}}`, found {}",
                        json_type(root)
                    ),
                )
                .label("expected an object")
                .note(REFUSED)
                .help("wrap the tool list: `{\"tools\": [ ... ]}`");
            self.push(d);
            return;
        };
        self.unknown_keys(entries, &["tools"], None);
        let Some(tools) = field(root, "tools") else {
            let misspelt = entries
                .iter()
                .find(|e| did_you_mean(&e.key, ["tools"]).is_some());
            let mut d = self
                .diag(
                    &rules::MISSING_REQUIRED_FIELD,
                    Self::brace(root),
                    "required field `tools` is missing",
                )
                .label("this object lacks `tools`")
                .note("agentcli reads tools from `tools` only: this manifest offers the model no tool");
            d = match misspelt {
                Some(e) => d
                    .related(
                        self.file,
                        e.key_span,
                        format!("`{}` looks like a misspelling of `tools`", e.key),
                    )
                    .help(format!("rename `{}` to `tools`", e.key)),
                None => d.help("list the tools under `\"tools\": [ ... ]`"),
            };
            self.push(d);
            return;
        };
        let Some(items) = tools.value.as_seq() else {
            self.wrong_type(
                &tools.value,
                "`tools`".into(),
                "a list of tool objects",
                None,
            );
            return;
        };
        let mut names: Vec<(usize, &str, Span)> = Vec::new();
        let mut programs = Vec::new();
        for (index, node) in items.iter().enumerate() {
            let who = Who { index, name: None };
            if node.as_map().is_none() {
                self.wrong_type(node, format!("{who}"), "a JSON object", None);
                continue;
            }
            let mut tool = self.tool(node, index, &mut names, &mut programs);
            tool.span = node.span;
            tool.name_span = node.value("name").map(|n| n.span);
            tool.description_span = node.value("description").map(|n| n.span);
            tool.schema = node.value("schema").cloned();
            manifest.tools.push(tool);
        }
        self.duplicate_names(&names);
        self.programs(&programs, tools.key_span);
    }

    /// ACL003: the scope of a tool name is its manifest.
    fn duplicate_names(&mut self, names: &[(usize, &str, Span)]) {
        for dup in registry::duplicates(names.iter().map(|(_, n, _)| Some(((), *n)))) {
            let (first, _, first_span) = names[dup.first];
            let (index, name, span) = names[dup.again];
            let who = Who {
                index,
                name: Some(name.to_string()),
            };
            let d = self
                .diag(
                    &rules::DUPLICATE_TOOL_NAME,
                    span,
                    format!("{who}: duplicate name"),
                )
                .label("already used")
                .related(
                    self.file,
                    first_span,
                    format!("first defined here, as tool[{first}]"),
                )
                .note(REFUSED)
                .help("give each tool its own name; the model calls tools by name");
            self.push(d);
        }
    }

    fn tool<'n>(
        &mut self,
        node: &'n Node,
        index: usize,
        names: &mut Vec<(usize, &'n str, Span)>,
        programs: &mut Vec<Program>,
    ) -> Tool {
        let mut who = Who { index, name: None };
        let mut tool = Tool {
            index,
            ..Tool::default()
        };
        let name = field(node, "name");
        match name.map(|e| &e.value) {
            Some(Node {
                kind: NodeKind::String(s),
                span,
            }) if !s.is_empty() => {
                who.name = Some(s.clone());
                tool.name = Some(s.clone());
                names.push((index, s.as_str(), *span));
            }
            Some(
                v @ Node {
                    kind: NodeKind::String(_),
                    ..
                },
            ) => {
                let d = self
                    .diag(
                        &rules::MISSING_REQUIRED_FIELD,
                        v.span,
                        format!("{who}: name is required (it is empty)"),
                    )
                    .label("empty name")
                    .note(REFUSED)
                    .help("name the tool: the model calls it by this name");
                self.push(d);
            }
            Some(v) if !matches!(v.kind, NodeKind::Null) => {
                self.wrong_type(v, format!("{who}: `name`"), "a string", None);
            }
            _ => {
                let d = self
                    .diag(
                        &rules::MISSING_REQUIRED_FIELD,
                        Self::brace(node),
                        format!("{who}: name is required"),
                    )
                    .label("this tool has no `name`")
                    .note(REFUSED)
                    .help("add `\"name\": \"...\"`: the model calls the tool by this name");
                self.push(d);
            }
        }
        if let Some(entries) = node.as_map() {
            self.unknown_keys(entries, TOOL_KEYS, Some(&who));
        }
        self.description(node, &who, &mut tool);
        self.command(node, &who, &mut tool, programs);
        self.timeout(node, &who);
        self.env(node, &who);
        self.schema(node, &who);
        tool
    }

    fn description(&mut self, node: &Node, who: &Who, tool: &mut Tool) {
        let entry = field(node, "description");
        let (span, label) = match entry.map(|e| &e.value) {
            Some(Node {
                kind: NodeKind::String(s),
                ..
            }) if !s.trim().is_empty() => {
                tool.description = Some(s.clone());
                return;
            }
            Some(
                v @ Node {
                    kind: NodeKind::String(_),
                    ..
                },
            ) => (v.span, "empty description"),
            Some(
                v @ Node {
                    kind: NodeKind::Null,
                    ..
                },
            ) => (v.span, "no description"),
            Some(v) => {
                self.wrong_type(v, format!("{who}: `description`"), "a string", None);
                return;
            }
            None => (
                field(node, "name").map_or(Self::brace(node), |e| e.key_span),
                "no `description`",
            ),
        };
        let d = self
            .diag(&rules::MISSING_DESCRIPTION, span, format!("{who}: the tool has no description"))
            .label(label)
            .note("the model picks tools by their description: without one it has only the name to guess from")
            .help("add `\"description\": \"...\"` saying what the tool does and when to use it");
        self.push(d);
    }

    fn command(&mut self, node: &Node, who: &Who, tool: &mut Tool, programs: &mut Vec<Program>) {
        let Some(entry) =
            field(node, "command").filter(|e| !matches!(e.value.kind, NodeKind::Null))
        else {
            let d = self
                .diag(&rules::MISSING_REQUIRED_FIELD, Self::brace(node), format!("{who}: command is required"))
                .label("this tool has no `command`")
                .note(REFUSED)
                .help("add `\"command\": [\"./tools/bin/NAME\"]`: the program agentcli runs for this tool");
            self.push(d);
            return;
        };
        let items = match &entry.value.kind {
            NodeKind::Seq(items) => items,
            NodeKind::String(s) => {
                let argv: Vec<String> = s.split_whitespace().map(|w| format!("{w:?}")).collect();
                let help = (!argv.is_empty())
                    .then(|| format!("write it as an argv list: `[{}]`", argv.join(", ")));
                self.wrong_type(
                    &entry.value,
                    format!("{who}: `command`"),
                    "a list of strings (program, then arguments)",
                    help,
                );
                return;
            }
            _ => {
                self.wrong_type(
                    &entry.value,
                    format!("{who}: `command`"),
                    "a list of strings (program, then arguments)",
                    None,
                );
                return;
            }
        };
        if items.is_empty() {
            let d = self
                .diag(
                    &rules::EMPTY_COMMAND,
                    entry.value.span,
                    format!("{who}: command must have at least the program name"),
                )
                .label("empty argv")
                .note(REFUSED)
                .help("put the program first: `[\"./tools/bin/NAME\"]`");
            self.push(d);
            return;
        }
        let mut all_strings = true;
        for (j, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(s) => tool.command.push(s.to_string()),
                None => {
                    all_strings = false;
                    self.wrong_type(item, format!("{who}: `command[{j}]`"), "a string", None);
                }
            }
        }
        if !all_strings {
            tool.command.clear();
        }
        if let Some(program) = items.first().filter(|p| p.as_str().is_some())
            && let Some(path) = self.program(program, who)
        {
            programs.push(Program {
                who: who.clone(),
                path,
                span: program.span,
            });
        }
    }

    /// The checks agentcli makes on `command[0]`; the cleaned relative path when it passes.
    fn program(&mut self, node: &Node, who: &Who) -> Option<String> {
        let original = node.as_str()?;
        if is_absolute_anywhere(original) {
            return None;
        }
        let raw = original.replace('\\', "/");
        let mut norm = clean(&raw);
        if norm.starts_with("tools/") || norm == "tools" {
            norm = format!("./{norm}");
        }
        if norm.starts_with("../") || norm == ".." {
            let span = climbing_dotdot(&raw, 0)
                .map_or(node.span, |at| span_in_value(self.file, node, at, ".."));
            let d = self
                .diag(
                    &rules::COMMAND_ESCAPES_TOOLS_BIN,
                    span,
                    format!("{who}: command[0] must not start with `..` or escape tools/bin (got {original:?})"),
                )
                .label("climbs out of the manifest's folder")
                .note(REFUSED)
                .help(format!("install the program as `{BIN_PREFIX}{}` next to tools.json and name it that way", base_name(&norm).unwrap_or("NAME")));
            self.push(d);
            return None;
        }
        if raw.starts_with(BIN_PREFIX) || raw == "./tools/bin" {
            if !norm.starts_with(BIN_PREFIX) {
                let span = climbing_dotdot(&raw, 2)
                    .map_or(node.span, |at| span_in_value(self.file, node, at, ".."));
                let d = self
                    .diag(
                        &rules::COMMAND_ESCAPES_TOOLS_BIN,
                        span,
                        format!("{who}: command[0] escapes ./tools/bin after normalization (got {original:?} -> {norm:?})"),
                    )
                    .label(format!("cleaned to `{norm}`"))
                    .note(REFUSED)
                    .help("name a program inside `./tools/bin/`, without `..`");
                self.push(d);
                return None;
            }
        } else if !norm.starts_with(BIN_PREFIX) {
            let d = self
                .diag(
                    &rules::COMMAND_OUTSIDE_TOOLS_BIN,
                    node.span,
                    format!("{who}: relative command[0] must start with ./tools/bin/ (got {original:?})"),
                )
                .label("not under ./tools/bin/")
                .note(REFUSED)
                .note("agentcli runs only programs from `tools/bin/` next to the manifest, or absolute paths")
                .help(format!(
                    "put the program in `tools/bin/` next to tools.json and write `\"{BIN_PREFIX}{}\"`",
                    base_name(&norm).unwrap_or("NAME")
                ));
            self.push(d);
            return None;
        }
        Some(norm)
    }

    /// ACL011: relative programs that are not next to the manifest (one summary when none is).
    fn programs(&mut self, programs: &[Program], tools_key: Span) {
        let dir = self.file.path.parent().unwrap_or(Path::new(""));
        let missing: Vec<&Program> = programs
            .iter()
            .filter(|p| {
                let rel = p.path.trim_start_matches("./");
                !self.fs.is_file(&dir.join(rel))
            })
            .collect();
        let bin_dir = sibling_display(&self.file.display, "tools/bin/");
        if missing.len() >= 2 && missing.len() == programs.len() {
            let mut d = self
                .diag(
                    &rules::MISSING_TOOL_PROGRAM,
                    tools_key,
                    format!("none of the {} programs under `./tools/bin/` exists next to this manifest", missing.len()),
                )
                .label(format!("`{bin_dir}` holds none of them"))
                .note("agentcli resolves `./tools/bin/NAME` against the manifest's folder: until the programs are there, every tool call fails");
            for p in missing.iter().take(3) {
                d = d.related(
                    self.file,
                    p.span,
                    format!("{}: `{}` is missing", p.who, p.path),
                );
            }
            let d = d.help("build or install the programs into that folder; if they are built later (a `make` step), turn this rule off for the path in toolc.toml");
            self.push(d);
            return;
        }
        for p in missing {
            let d = self
                .diag(
                    &rules::MISSING_TOOL_PROGRAM,
                    p.span,
                    format!("{}: `{}` does not exist next to this manifest", p.who, p.path),
                )
                .label(format!("no such file in `{bin_dir}`"))
                .note("agentcli resolves `./tools/bin/NAME` against the manifest's folder: every call of this tool fails until the program is there")
                .help("build or install the program there, or fix the path");
            self.push(d);
        }
    }

    fn timeout(&mut self, node: &Node, who: &Who) {
        let Some(entry) = field(node, "timeoutSec") else {
            return;
        };
        let v = &entry.value;
        let problem = match &v.kind {
            NodeKind::Null => return,
            NodeKind::Number(Number::Int(n)) if *n > 0 => return,
            NodeKind::Number(Number::Int(_)) => "must be a positive number of seconds",
            NodeKind::Number(Number::Float(_)) => "must be a whole number of seconds",
            NodeKind::String(s) => {
                let help = s
                    .trim()
                    .parse::<i64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .map(|n| format!("write it without quotes: `\"timeoutSec\": {n}`"));
                self.wrong_type(v, format!("{who}: `timeoutSec`"), "an integer", help);
                return;
            }
            _ => {
                self.wrong_type(v, format!("{who}: `timeoutSec`"), "an integer", None);
                return;
            }
        };
        let text = self.file.slice(v.span).to_string();
        let note = if matches!(v.kind, NodeKind::Number(Number::Float(_))) {
            "agentcli decodes `timeoutSec` into an integer: a fraction makes the decoder reject the whole manifest"
        } else {
            "agentcli treats zero as unset (the CLI's `-timeout` applies) and has no meaning for a negative timeout: either way not the limit written here"
        };
        let d = self
            .diag(&rules::INVALID_TIMEOUT, v.span, format!("{who}: timeoutSec {problem}, found `{text}`"))
            .label("not a positive integer")
            .note(note)
            .help("write a whole number of seconds, such as `\"timeoutSec\": 30`, or leave it out for the CLI's `-timeout`");
        self.push(d);
    }

    fn env(&mut self, node: &Node, who: &Who) {
        let Some(entry) = field(node, "envPassthrough") else {
            return;
        };
        let items = match &entry.value.kind {
            NodeKind::Null => return,
            NodeKind::Seq(items) => items,
            _ => {
                self.wrong_type(
                    &entry.value,
                    format!("{who}: `envPassthrough`"),
                    "a list of environment variable names",
                    None,
                );
                return;
            }
        };
        // What agentcli ends up with: trimmed, upper-cased, first occurrence kept.
        let mut kept: Vec<String> = Vec::new();
        let mut first_of: HashMap<String, (usize, Span)> = HashMap::new();
        let mut changed: Vec<Rewritten<'_>> = Vec::new();
        for (j, item) in items.iter().enumerate() {
            let Some(raw) = item.as_str() else {
                self.wrong_type(
                    item,
                    format!("{who}: `envPassthrough[{j}]`"),
                    "a string",
                    None,
                );
                continue;
            };
            let norm = raw.trim().to_uppercase();
            if !is_env_name(&norm) {
                let bad = norm
                    .char_indices()
                    .find(|(i, c)| {
                        !(c.is_ascii_uppercase() || *c == '_' || (*i > 0 && c.is_ascii_digit()))
                    })
                    .map(|(_, c)| c);
                let label = match bad {
                    Some(c) if norm.starts_with(c) && c.is_ascii_digit() => {
                        "starts with a digit".to_string()
                    }
                    Some(c) => format!("`{c}` is not allowed"),
                    None => "empty name".to_string(),
                };
                let fixed: String = norm
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                let help = if !fixed.is_empty() && is_env_name(&fixed) {
                    format!("did you mean `{fixed}`?")
                } else {
                    "use letters, digits and `_`, not starting with a digit".to_string()
                };
                let d = self
                    .diag(
                        &rules::INVALID_ENV_NAME,
                        item.span,
                        format!("{who}: envPassthrough[{j}]: invalid name {raw:?} (must match [A-Z_][A-Z0-9_]*)"),
                    )
                    .label(label)
                    .note(REFUSED)
                    .help(help);
                self.push(d);
                continue;
            }
            let first = first_of.get(&norm).copied();
            if first.is_none() {
                self.credential(item, who, &norm);
            }
            if first.is_some() || norm != raw {
                changed.push(Rewritten {
                    index: j,
                    node: item,
                    norm: norm.clone(),
                    first,
                });
            }
            if first.is_none() {
                first_of.insert(norm.clone(), (j, item.span));
                kept.push(norm);
            }
        }
        if changed.is_empty() {
            return;
        }
        let list = kept
            .iter()
            .map(|k| format!("{k:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        for Rewritten {
            index: j,
            node: item,
            norm,
            first,
        } in changed
        {
            let raw = item.as_str().unwrap_or_default();
            let d = match first {
                Some((i, span)) => self
                    .diag(
                        &rules::ENV_NAME_NORMALIZED,
                        item.span,
                        format!("{who}: envPassthrough[{j}] {raw:?} duplicates envPassthrough[{i}] once normalised to {norm:?}"),
                    )
                    .label("dropped as a duplicate")
                    .related(self.file, span, format!("kept from envPassthrough[{i}]")),
                None => self
                    .diag(
                        &rules::ENV_NAME_NORMALIZED,
                        item.span,
                        format!("{who}: envPassthrough[{j}] {raw:?} is passed as {norm:?}"),
                    )
                    .label(format!("read as `{norm}`")),
            };
            let d = d
                .note(format!(
                    "agentcli trims and upper-cases names and drops repeats: it passes [{list}]"
                ))
                .help(format!(
                    "write the list as agentcli reads it: `\"envPassthrough\": [{list}]`"
                ));
            self.push(d);
        }
    }

    /// SEC010: a passed-through variable whose name says it holds a credential.
    fn credential(&mut self, item: &Node, who: &Who, norm: &str) {
        if secret_name(norm).is_none() {
            return;
        }
        let d = self
            .diag(
                &security::CREDENTIAL_PASSTHROUGH,
                item.span,
                format!("{who}: envPassthrough hands the tool `{norm}`, which looks like a credential"),
            )
            .label("credential passed to the tool")
            .note("the tool process can read and use its value (agentcli's audit log records only the name); allowed, but worth a reviewer's look")
            .help("pass it only to tools that need it; once reviewed, turn `SEC010` off for this file in toolc.toml (`[[overrides]]`)");
        self.push(d);
    }

    fn schema(&mut self, node: &Node, who: &Who) {
        let Some(entry) = field(node, "schema") else {
            return;
        };
        let schema = &entry.value;
        match &schema.kind {
            NodeKind::Null => return,
            NodeKind::Map(_) => {}
            _ => {
                self.wrong_type(
                    schema,
                    format!("{who}: `schema`"),
                    "a JSON Schema object",
                    None,
                );
                return;
            }
        }
        let prefix = format!("{who}: ");
        self.diags.extend(
            check_schema(self.file, schema, SchemaOptions::default())
                .into_iter()
                .map(|mut d| {
                    d.message.insert_str(0, &prefix);
                    d
                }),
        );
        let type_is_object = match schema.value("type").map(|t| &t.kind) {
            None => true,
            Some(NodeKind::String(t)) => t == "object",
            Some(NodeKind::Seq(ts)) => ts.iter().any(|t| t.as_str() == Some("object")),
            Some(_) => false,
        };
        if type_is_object && schema.get("additionalProperties").is_none() {
            let d = self
                .diag(
                    &rules::OPEN_PARAMETER_SCHEMA,
                    entry.key_span,
                    format!("{who}: the parameter schema does not set `additionalProperties: false`"),
                )
                .label("open to extra arguments")
                .note("the model may invent arguments the tool does not expect; agentcli hands them to the tool's stdin unchecked")
                .help("add `\"additionalProperties\": false` next to `\"properties\"`");
            self.push(d);
        }
    }

    /// ACL010: keys agentcli does not read as written.
    fn unknown_keys(&mut self, entries: &[Entry], known: &[&str], who: Option<&Who>) {
        let at = who.map_or("the manifest".to_string(), ToString::to_string);
        for e in entries.iter().filter(|e| !known.contains(&e.key.as_str())) {
            let d = match known.iter().find(|k| k.eq_ignore_ascii_case(&e.key)) {
                Some(k) => self
                    .diag(
                        &rules::UNKNOWN_KEY,
                        e.key_span,
                        format!("{at}: key `{}` is read as `{k}` only because agentcli's JSON decoder ignores case", e.key),
                    )
                    .label(format!("spelt differently from `{k}`"))
                    .note("Go's decoder matches keys case-insensitively; other readers of tools.json (and toolc's other checks) do not")
                    .help(format!("write it `{k}`"))
                    .fix(rename_key(self.file, e.key_span, k)),
                None => self
                    .diag(&rules::UNKNOWN_KEY, e.key_span, format!("{at}: unknown key `{}`", e.key))
                    .label("unknown key")
                    .note("agentcli ignores keys it does not know: whatever this sets has no effect")
                    .maybe_help(did_you_mean(&e.key, known.iter().copied()).map(|h| format!("did you mean `{h}`?")))
                    .maybe_fix(
                        did_you_mean(&e.key, known.iter().copied())
                            .filter(|h| !entries.iter().any(|x| x.key == *h))
                            .map(|h| rename_key(self.file, e.key_span, h)),
                    ),
            };
            self.push(d);
        }
    }
}

/// The entry agentcli decodes into `key`: Go matches keys case-insensitively and the last
/// matching key wins.
fn field<'n>(node: &'n Node, key: &str) -> Option<&'n Entry> {
    node.as_map()?
        .iter()
        .rev()
        .find(|e| e.key.eq_ignore_ascii_case(key))
}

fn json_type(node: &Node) -> &'static str {
    match &node.kind {
        NodeKind::Null => "null",
        NodeKind::Bool(_) => "a boolean",
        NodeKind::Number(Number::Int(_)) => "an integer",
        NodeKind::Number(Number::Float(_)) => "a number",
        NodeKind::String(_) => "a string",
        NodeKind::Seq(_) => "an array",
        NodeKind::Map(_) => "an object",
    }
}

/// `[A-Z_][A-Z0-9_]*`.
fn is_env_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Display path of `rel` next to the manifest.
fn sibling_display(manifest: &str, rel: &str) -> String {
    match manifest.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{rel}"),
        None => rel.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names() {
        assert!(is_env_name("OAI_API_KEY") && !is_env_name("1BAD") && !is_env_name(""));
    }
}
