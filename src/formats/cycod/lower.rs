//! One tool file: the closed schema, names, what runs, steps, parameters, templates,
//! platforms and shells, security tags and timeouts.

use std::sync::Arc;

use super::template::{self, STEP_PROPERTIES, Target};
use super::writes::{self, Dialect};
use super::{NameRef, Tool, ToolName};
use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::formats::fields::{Lowerer, ShapeRules, join_path, span_in_value};
use crate::rules::cycod as rules;
use crate::rules::security;
use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Node, NodeKind, Number};

/// The shape rules of cycod tool files.
static SHAPE: ShapeRules = ShapeRules {
    missing: &rules::MISSING_TOOL_NAME,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_PLATFORM,
    length: &rules::WRONG_FIELD_TYPE,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// What cycod does with a file that has an unknown key.
const REJECTED: &str =
    "cycod's loader rejects a tool file with a key its model does not have: the tool is not loaded";

/// Command options in the order the runtime picks them when several are set.
const COMMANDS: &[&str] = &[
    "run", "bash", "cmd", "pwsh", "python", "script", "tool", "mcp",
];
/// Options that hold a script or process line (the rest, `tool` and `mcp`, hold names).
const SCRIPTS: &[&str] = &["run", "bash", "cmd", "pwsh", "python", "script"];
/// Settings every level (the tool, each step) may have besides its command.
const LEVEL_KEYS: &[&str] = &[
    "shell",
    "arguments",
    "input",
    "timeout",
    "working-directory",
    "environment",
];
const TOOL_ONLY_KEYS: &[&str] = &[
    "name",
    "description",
    "parameters",
    "platforms",
    "tags",
    "uses",
    "with",
    "steps",
];
const PARAMETER_KEYS: &[&str] = &["description", "type", "required", "default"];
const PARAMETER_TYPES: &[&str] = &["string", "number", "boolean", "array"];
const PLATFORMS: &[&str] = &["windows", "linux", "macos"];
const SECURITY_TAGS: &[&str] = &["read", "write", "run"];
const USES_KEYS: &[&str] = &[
    "config", "configs", "profile", "profiles", "mcp", "mcps", "tool", "tools",
];
const WITH_KEYS: &[&str] = &["config", "mcps", "tools"];
/// Timeouts below this cannot let any real process finish.
const SHORT_TIMEOUT_MS: i64 = 100;

fn tool_keys() -> Vec<&'static str> {
    TOOL_ONLY_KEYS
        .iter()
        .chain(COMMANDS)
        .chain(LEVEL_KEYS)
        .copied()
        .collect()
}

fn step_keys() -> Vec<&'static str> {
    std::iter::once("name")
        .chain(COMMANDS.iter().copied())
        .chain(LEVEL_KEYS.iter().copied())
        .collect()
}

/// Lower one file and run every per-file check on it.
pub(super) fn check_file(file: &Arc<SourceFile>, root: &Node) -> (Tool, Vec<Diagnostic>) {
    let stem = file
        .path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let mut cx = Cx {
        lw: Lowerer::new(file, &SHAPE),
        tool: Tool::default(),
    };
    let anchor = first_key(root);
    let name = cx.definition(root, anchor, "", Some(&stem));
    cx.tool.name = name;
    (cx.tool, cx.lw.diags)
}

/// The first key of a mapping (where to point for something missing at the top), else the
/// start of the node.
fn first_key(node: &Node) -> Span {
    node.as_map()
        .and_then(|entries| entries.first())
        .map_or(Span::point(node.span.start), |e| e.key_span)
}

/// The text of a scalar as cycod's YAML reader turns it into a string.
fn scalar_text<'n>(file: &'n SourceFile, node: &'n Node) -> Option<&'n str> {
    match &node.kind {
        NodeKind::String(s) => Some(s),
        NodeKind::Number(_) | NodeKind::Bool(_) => Some(file.slice(node.span)),
        NodeKind::Null => Some(""),
        NodeKind::Seq(_) | NodeKind::Map(_) => None,
    }
}

/// A parameter of the definition being checked.
struct Param<'n> {
    name: &'n str,
    key_span: Span,
    used: bool,
}

/// A step's name (given, or `step{n}`) and where to point for it.
struct StepName {
    name: String,
    span: Span,
}

/// A command option that is set.
struct Command<'n> {
    key: &'static str,
    key_span: Span,
    node: &'n Node,
    /// The value; empty counts as not set (the runtime skips empty commands).
    text: &'n str,
}

/// The tool itself or one of its steps.
struct Level<'n> {
    /// Where to point when the level lacks something.
    anchor: Span,
    commands: Vec<Command<'n>>,
    shell: Option<&'n Node>,
}

impl Level<'_> {
    fn set(&self) -> impl Iterator<Item = &Command<'_>> {
        self.commands.iter().filter(|c| !c.text.trim().is_empty())
    }
}

/// A value scanned for `{…}` references, and which step it belongs to.
struct Field<'n> {
    node: &'n Node,
    step: Option<usize>,
}

struct Cx<'a> {
    lw: Lowerer<'a>,
    tool: Tool,
}

impl<'a> Cx<'a> {
    fn file(&self) -> &'a Arc<SourceFile> {
        self.lw.file
    }

    fn push(&mut self, d: Diagnostic) {
        self.lw.push(d);
    }

    fn diag(&self, rule: &'static crate::rules::Rule, span: Span, msg: String) -> Diagnostic {
        self.lw.diag(rule, span, msg)
    }

    /// A scalar that cycod reads as a string; lists and mappings are a type error.
    fn string<'n>(&mut self, node: &'n Node, path: &str) -> Option<&'n str>
    where
        'a: 'n,
    {
        let text = scalar_text(self.file(), node);
        if text.is_none() {
            self.lw.wrong_type(node, path, "a string");
        }
        text
    }

    /// Check one tool definition (the file, or an inline `with.tools` entry); `stem` is the
    /// file stem for the file's own definition. Returns the name it registers.
    fn definition<'n>(
        &mut self,
        node: &'n Node,
        anchor: Span,
        path: &str,
        stem: Option<&str>,
    ) -> Option<ToolName>
    where
        'a: 'n,
    {
        let map = self.lw.as_map(node, anchor, path)?;
        let keys = tool_keys();
        self.lw.unknown_keys(map, &keys, REJECTED);
        let name = self.name(node, anchor, path, stem);
        if let Some(e) = node.get("description") {
            self.string(&e.value, &join_path(path, "description"));
        }
        let mut params = self.parameters(node, path);
        let platforms = self.platforms(node, path);
        let tags = node
            .get("tags")
            .map(|e| self.lw.str_list(&e.value, &join_path(path, "tags"), false))
            .unwrap_or_default();
        self.uses(node, path);
        self.with(node, path);

        let mut fields = Vec::new();
        let top = self.level(node, anchor, path.to_string(), None, &mut fields);
        let (levels, step_names) = self.steps(node, path, &mut fields);
        let has_steps = !levels.is_empty();
        self.what_runs(&top, has_steps, node, path);

        self.references(&fields, &mut params, &step_names);
        let all_levels: Vec<&Level<'_>> = std::iter::once(&top).chain(&levels).collect();
        // What actually runs: the first command of each step, else the tool's first one
        // (commands are collected in precedence order).
        let running: Vec<(&Level<'_>, &Command<'_>)> = if has_steps {
            levels
                .iter()
                .filter_map(|l| l.set().next().map(|c| (l, c)))
                .collect()
        } else {
            top.set().next().map(|c| (&top, c)).into_iter().collect()
        };
        // A tool that only delegates (`tool:`, `mcp:`) may pass its parameters on by name.
        if running.iter().any(|(_, c)| SCRIPTS.contains(&c.key)) {
            self.unused(&params);
        }
        self.shells(&all_levels, &running, platforms.as_ref());
        if stem.is_some() {
            self.security(node, anchor, &tags, &running);
        }
        name
    }

    /// The registered name; CYC003 and CYC022.
    fn name(
        &mut self,
        node: &Node,
        anchor: Span,
        path: &str,
        stem: Option<&str>,
    ) -> Option<ToolName> {
        let entry = node.get("name");
        let written = entry.and_then(|e| self.string(&e.value, &join_path(path, "name")));
        match (written.map(str::trim), stem) {
            (Some(""), _) => {
                let e = entry?;
                let d = self
                    .diag(
                        &rules::MISSING_TOOL_NAME,
                        e.value.span.join(e.key_span),
                        format!("`{}` is empty", join_path(path, "name")),
                    )
                    .label("empty name")
                    .note("cycod requires a tool name and rejects the definition without one")
                    .help(match stem {
                        Some(s) => {
                            format!("write `name: {s}`, or remove `name` to use the file name")
                        }
                        None => "give the tool a name".to_string(),
                    });
                self.push(d);
                None
            }
            (Some(_), Some(stem)) if written != Some(stem) => {
                let e = entry?;
                let value = written?;
                let d = self
                    .diag(
                        &rules::NAME_DIFFERS_FROM_FILE,
                        e.value.span,
                        format!("tool name `{value}` differs from its file name `{stem}`"),
                    )
                    .label("not the file name")
                    .note(format!(
                        "cycod registers the tool as `{value}`; `cycod tool run {stem}` and references to `{stem}` will not find it"
                    ))
                    .help(format!(
                        "rename the file to `{value}.yaml`, or write `name: {stem}`"
                    ));
                self.push(d);
                Some(ToolName {
                    value: value.to_string(),
                    span: e.value.span,
                    explicit: true,
                })
            }
            (Some(value), _) => Some(ToolName {
                value: value.to_string(),
                span: entry.map_or(anchor, |e| e.value.span),
                explicit: true,
            }),
            (None, Some(stem)) if entry.is_none() => Some(ToolName {
                value: stem.to_string(),
                span: anchor,
                explicit: false,
            }),
            (None, Some(_)) => None,
            (None, None) => {
                if entry.is_none() {
                    let d = self
                        .diag(
                            &rules::MISSING_TOOL_NAME,
                            anchor,
                            format!("inline tool `{path}` has no `name`"),
                        )
                        .label("no name")
                        .note(
                            "an inline tool has no file name to fall back on: nothing can call it",
                        )
                        .help("add `name: …` to the inline tool");
                    self.push(d);
                }
                None
            }
        }
    }

    /// `parameters`: CYC009, CYC010, CYC011 and the shape of each entry.
    fn parameters<'n>(&mut self, node: &'n Node, path: &str) -> Vec<Param<'n>> {
        let Some(e) = node.get("parameters") else {
            return Vec::new();
        };
        let params_path = join_path(path, "parameters");
        if matches!(e.value.kind, NodeKind::Null) {
            return Vec::new();
        }
        let Some(entries) = e.value.as_map() else {
            self.lw
                .wrong_type(&e.value, &params_path, "a mapping of parameter names");
            return Vec::new();
        };
        let mut out = Vec::new();
        for p in entries {
            out.push(Param {
                name: &p.key,
                key_span: p.key_span,
                used: false,
            });
            let ppath = join_path(&params_path, &p.key);
            let Some(map) = self.lw.as_map(&p.value, p.key_span, &ppath) else {
                continue;
            };
            self.lw.unknown_keys(map, PARAMETER_KEYS, REJECTED);
            if let Some(d) = p.value.get("description") {
                self.string(&d.value, &join_path(&ppath, "description"));
            }
            let ty = self.parameter_type(&p.value, &ppath);
            let required = self.required(&p.value, &ppath);
            let default = p
                .value
                .get("default")
                .filter(|d| d.value.kind != NodeKind::Null);
            if let (Some(ty), Some(d)) = (ty, default) {
                self.default_value(&p.key, &ty, d);
            }
            if let (Some(req), Some(d)) = (required, default) {
                let shown = self.file().slice(d.value.span).to_string();
                let diag = self
                    .diag(
                        &rules::REQUIRED_WITH_DEFAULT,
                        d.key_span,
                        format!("parameter `{}` is required, so its default `{shown}` is never used", p.key),
                    )
                    .label("never used")
                    .related(self.file(), req.key_span, "required here")
                    .note("cycod asks for a required parameter on every call; a default only applies to a parameter that may be left out")
                    .help("remove `required: true` to let the default apply, or remove the default");
                self.push(diag);
            }
        }
        out
    }

    /// The parameter's type, lowercased (cycod compares it case-insensitively); CYC009.
    fn parameter_type(&mut self, param: &Node, ppath: &str) -> Option<String> {
        let Some(e) = param.get("type") else {
            return Some("string".to_string());
        };
        let tpath = join_path(ppath, "type");
        let text = self.string(&e.value, &tpath)?;
        let lower = text.trim().to_ascii_lowercase();
        if PARAMETER_TYPES.contains(&lower.as_str()) {
            return Some(lower);
        }
        let hint = match lower.as_str() {
            "int" | "integer" | "float" | "double" | "decimal" => Some("number"),
            "bool" => Some("boolean"),
            "list" | "seq" | "sequence" => Some("array"),
            "str" | "text" => Some("string"),
            other => did_you_mean(other, PARAMETER_TYPES.iter().copied()),
        };
        let d = self
            .diag(
                &rules::INVALID_PARAMETER_TYPE,
                e.value.span,
                format!(
                    "`{tpath}` must be `string`, `number`, `boolean` or `array`, found `{text}`"
                ),
            )
            .label("not a cycod parameter type")
            .note("cycod rejects a tool with a parameter of any other type")
            .help(match hint {
                Some(h) => format!("did you mean `{h}`?"),
                None => "use `string` and parse the value in the command".to_string(),
            });
        self.push(d);
        None
    }

    /// `required`, when it is `true`; a non-boolean is CYC002.
    fn required<'n>(&mut self, param: &'n Node, ppath: &str) -> Option<&'n Entry> {
        let e = param.get("required")?;
        let value = match &e.value.kind {
            NodeKind::Bool(b) => Some(*b),
            NodeKind::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
            NodeKind::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
            NodeKind::Null => Some(false),
            _ => None,
        };
        match value {
            Some(true) => Some(e),
            Some(false) => None,
            None => {
                self.lw.wrong_type(
                    &e.value,
                    &join_path(ppath, "required"),
                    "a boolean (`true` or `false`)",
                );
                None
            }
        }
    }

    /// CYC010: the default must be a value of the parameter's type.
    fn default_value(&mut self, name: &str, ty: &str, d: &Entry) {
        let v = &d.value;
        let ok = match ty {
            "number" => match &v.kind {
                NodeKind::Number(Number::Int(_)) => true,
                NodeKind::Number(Number::Float(f)) => f.is_finite(),
                NodeKind::String(s) => s.trim().parse::<f64>().is_ok_and(f64::is_finite),
                _ => false,
            },
            "boolean" => match &v.kind {
                NodeKind::Bool(_) => true,
                NodeKind::Number(Number::Int(i)) => *i == 0 || *i == 1,
                NodeKind::String(s) => matches!(
                    s.trim().to_ascii_lowercase().as_str(),
                    "true" | "false" | "1" | "0" | "yes" | "no"
                ),
                _ => false,
            },
            "array" => matches!(v.kind, NodeKind::Seq(_)),
            _ => !matches!(v.kind, NodeKind::Seq(_) | NodeKind::Map(_)),
        };
        if ok {
            return;
        }
        let shown = match &v.kind {
            NodeKind::Seq(_) | NodeKind::Map(_) => v.type_name().to_string(),
            _ => format!("`{}`", self.file().slice(v.span)),
        };
        let expected = match ty {
            "number" => "a number",
            "boolean" => "`true` or `false`",
            "array" => "a list (`[a, b]`)",
            _ => "a single value",
        };
        let help = match (ty, &v.kind) {
            ("array", NodeKind::String(s)) => format!("write it as a YAML list: `default: [{s}]`"),
            ("array", _) => "write it as a YAML list: `default: [a, b]`".to_string(),
            _ => format!("give a default of type `{ty}`, or change `type`"),
        };
        let diag = self
            .diag(
                &rules::INVALID_PARAMETER_DEFAULT,
                v.span,
                format!(
                    "the default of `{name}` must be {expected} for `type: {ty}`, found {shown}"
                ),
            )
            .label(format!("not a valid `{ty}`"))
            .note("cycod rejects a tool whose parameter default does not fit its type")
            .help(help);
        self.push(diag);
    }

    /// `platforms`: CYC017. Returns the valid platforms and the list's span, if set.
    fn platforms(&mut self, node: &Node, path: &str) -> Option<(Vec<String>, Span)> {
        let e = node.get("platforms")?;
        let ppath = join_path(path, "platforms");
        let items = self.lw.str_list(&e.value, &ppath, false);
        e.value.as_seq()?;
        let mut valid = Vec::new();
        for (value, span) in items {
            if PLATFORMS.contains(&value) {
                valid.push(value.to_string());
                continue;
            }
            let lower = value.to_ascii_lowercase();
            let hint = match lower.as_str() {
                "win" | "win32" | "win64" | "windows" => Some("windows"),
                "osx" | "mac" | "darwin" | "macos" => Some("macos"),
                "unix" | "ubuntu" | "debian" | "linux" => Some("linux"),
                other => did_you_mean(other, PLATFORMS.iter().copied()),
            };
            let d = self
                .diag(
                    &rules::INVALID_PLATFORM,
                    span,
                    format!("platform `{value}` is not `windows`, `linux` or `macos`"),
                )
                .label("unknown platform")
                .note("cycod matches platforms by these exact names: the tool is never offered on a platform it cannot name")
                .help(match hint {
                    Some(h) => format!("did you mean `{h}`?"),
                    None => "use `windows`, `linux` or `macos`".to_string(),
                });
            self.push(d);
            if let Some(h) = hint {
                // Counted as meant, so shell checks do not pile a second finding on a typo.
                valid.push(h.to_string());
            }
        }
        Some((valid, e.value.span))
    }

    /// `uses`: shapes, and the tool and MCP names it refers to.
    fn uses(&mut self, node: &Node, path: &str) {
        let Some(e) = node.get("uses") else { return };
        let upath = join_path(path, "uses");
        let Some(map) = self.lw.as_map(&e.value, e.key_span, &upath) else {
            return;
        };
        self.lw.unknown_keys(map, USES_KEYS, REJECTED);
        for u in e.value.as_map().unwrap_or_default() {
            let key = join_path(&upath, &u.key);
            let names: Vec<(String, Span)> = match u.key.as_str() {
                "config" | "profile" | "mcp" | "tool" => self
                    .string(&u.value, &key)
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| (s.trim().to_string(), u.value.span))
                    .into_iter()
                    .collect(),
                "configs" | "profiles" | "mcps" | "tools" => self
                    .lw
                    .str_list(&u.value, &key, true)
                    .into_iter()
                    .map(|(s, span)| (s.to_string(), span))
                    .collect(),
                _ => Vec::new(),
            };
            let target = match u.key.as_str() {
                "tool" | "tools" => &mut self.tool.tool_references,
                "mcp" | "mcps" => &mut self.tool.mcp_references,
                _ => continue,
            };
            target.extend(names.into_iter().map(|(name, span)| NameRef {
                name,
                span,
                key: key.clone(),
            }));
        }
    }

    /// `with`: inline config, MCP servers and tools (each inline tool checked in full).
    fn with(&mut self, node: &Node, path: &str) {
        let Some(e) = node.get("with") else { return };
        let wpath = join_path(path, "with");
        let Some(map) = self.lw.as_map(&e.value, e.key_span, &wpath) else {
            return;
        };
        self.lw.unknown_keys(map, WITH_KEYS, REJECTED);
        if let Some(c) = e.value.get("config") {
            self.lw
                .as_map(&c.value, c.key_span, &join_path(&wpath, "config"));
        }
        if let Some(m) = e.value.get("mcps") {
            let mpath = join_path(&wpath, "mcps");
            match m.value.as_seq() {
                None => self
                    .lw
                    .wrong_type(&m.value, &mpath, "a list of MCP servers"),
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        let ipath = format!("{mpath}[{i}]");
                        if self.lw.as_map(item, item.span, &ipath).is_some()
                            && let Some(name) = item.value("name").and_then(Node::as_str)
                        {
                            self.tool.inline_mcps.push(name.to_string());
                        }
                    }
                }
            }
        }
        if let Some(t) = e.value.get("tools") {
            let tpath = join_path(&wpath, "tools");
            match t.value.as_seq() {
                None => self
                    .lw
                    .wrong_type(&t.value, &tpath, "a list of tool definitions"),
                Some(items) => {
                    let mut seen: Vec<ToolName> = Vec::new();
                    for (i, item) in items.iter().enumerate() {
                        let ipath = format!("{tpath}[{i}]");
                        let Some(name) = self.definition(item, item.span, &ipath, None) else {
                            continue;
                        };
                        if let Some(first) = seen.iter().find(|n| n.value == name.value) {
                            let d = self
                                .diag(
                                    &rules::DUPLICATE_TOOL_NAME,
                                    name.span,
                                    format!(
                                        "an inline tool named `{}` is already defined above",
                                        name.value
                                    ),
                                )
                                .label("duplicate name")
                                .related(self.file(), first.span, "first defined here")
                                .note("a reference to this name can only reach one of the two")
                                .help("rename one of them");
                            self.push(d);
                            continue;
                        }
                        self.tool.inline_tools.push(name.value.clone());
                        seen.push(name);
                    }
                }
            }
        }
    }

    /// The command options and settings of the tool or of one step.
    fn level<'n>(
        &mut self,
        node: &'n Node,
        anchor: Span,
        path: String,
        step: Option<usize>,
        fields: &mut Vec<Field<'n>>,
    ) -> Level<'n>
    where
        'a: 'n,
    {
        let mut commands = Vec::new();
        for key in COMMANDS {
            let Some(e) = node.get(key) else { continue };
            let Some(text) = self.string(&e.value, &join_path(&path, key)) else {
                continue;
            };
            if SCRIPTS.contains(key) {
                fields.push(Field {
                    node: &e.value,
                    step,
                });
            }
            commands.push(Command {
                key,
                key_span: e.key_span,
                node: &e.value,
                text,
            });
        }
        let shell = node.get("shell").and_then(|e| {
            self.string(&e.value, &join_path(&path, "shell"))
                .map(|_| &e.value)
        });
        for key in ["input", "working-directory"] {
            if let Some(e) = node.get(key)
                && self.string(&e.value, &join_path(&path, key)).is_some()
            {
                fields.push(Field {
                    node: &e.value,
                    step,
                });
            }
        }
        if let Some(e) = node.get("arguments") {
            let apath = join_path(&path, "arguments");
            match &e.value.kind {
                NodeKind::Map(_) => collect_strings(&e.value, step, fields),
                NodeKind::Null => {}
                _ => self
                    .lw
                    .wrong_type(&e.value, &apath, "a mapping of argument names to values"),
            }
        }
        if let Some(e) = node.get("environment") {
            self.environment(&e.value, &join_path(&path, "environment"), step, fields);
        }
        if let Some(e) = node.get("timeout") {
            self.timeout(&e.value, &join_path(&path, "timeout"));
        }
        // The single-step `tool:` names another tool; with `mcp:` beside it, it may name a
        // tool of that MCP server instead, which only the server knows.
        if node.get("mcp").is_none()
            && let Some(c) = commands
                .iter()
                .find(|c| c.key == "tool" && !c.text.trim().is_empty())
        {
            self.tool.tool_references.push(NameRef {
                name: c.text.trim().to_string(),
                span: c.node.span,
                key: join_path(&path, "tool"),
            });
        }
        Level {
            anchor,
            commands,
            shell,
        }
    }

    /// `environment`: a mapping of variable names to string values.
    fn environment<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        step: Option<usize>,
        fields: &mut Vec<Field<'n>>,
    ) {
        let Some(entries) = node.as_map() else {
            if node.kind != NodeKind::Null {
                self.lw
                    .wrong_type(node, path, "a mapping of variable names to values");
            }
            return;
        };
        for e in entries {
            // References inside a misshapen value still count, so one mistake does not
            // also make its parameters look unused.
            collect_strings(&e.value, step, fields);
            if !matches!(e.value.kind, NodeKind::Seq(_) | NodeKind::Map(_)) {
                continue;
            }
            let vpath = join_path(path, &e.key);
            let mut d = self
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    e.key_span,
                    format!(
                        "environment variable `{vpath}` must be a string, found {}",
                        e.value.type_name()
                    ),
                )
                .label(format!("holds {}, not a string", e.value.type_name()))
                .note("cycod reads `environment` as variable names mapped to strings and rejects the file otherwise");
            if let Some(inner) = e.value.as_map() {
                let names: Vec<&str> = inner.iter().map(|i| i.key.as_str()).take(3).collect();
                d = d.help(format!(
                    "`environment` has no nested sections: put the variables ({}) directly under `environment`",
                    names.join(", ")
                ));
            }
            self.push(d);
        }
    }

    /// CYC020, CYC021.
    fn timeout(&mut self, node: &Node, path: &str) {
        let text = self.file().slice(node.span).to_string();
        let value: Result<i64, &str> = match &node.kind {
            NodeKind::Number(Number::Int(i)) => Ok(*i),
            NodeKind::Number(Number::Float(_)) => Err("a fraction"),
            NodeKind::String(s) => s.trim().parse::<i64>().map_err(|_| "not a number"),
            NodeKind::Null => Err("empty"),
            _ => Err(node.type_name()),
        };
        let problem = match value {
            Ok(ms) if ms <= 0 => Some(format!(
                "`{path}` must be a positive number of milliseconds, found `{ms}`"
            )),
            Ok(ms) if ms > i64::from(i32::MAX) => Some(format!(
                "`{path}` is `{ms}` ms, beyond the largest timeout cycod can hold ({})",
                i32::MAX
            )),
            Ok(ms) if ms < SHORT_TIMEOUT_MS => {
                let d = self
                    .diag(
                        &rules::SHORT_TIMEOUT,
                        node.span,
                        format!("`{path}` is {ms} ms, too short for a process to start and finish"),
                    )
                    .label("milliseconds, not seconds")
                    .note("cycod stops the command when the timeout expires: with this value every run times out")
                    .help(format!("if you meant {ms} seconds, write `timeout: {}`", ms * 1000));
                self.push(d);
                None
            }
            Ok(_) => None,
            Err(why) => Some(format!(
                "`{path}` must be a whole number of milliseconds, found `{text}` ({why})"
            )),
        };
        if let Some(message) = problem {
            let d = self
                .diag(&rules::INVALID_TIMEOUT, node.span, message)
                .label("not a valid timeout")
                .note("cycod reads `timeout` as an integer number of milliseconds and rejects the file otherwise; the default is 60000")
                .help("write a positive whole number, e.g. `timeout: 60000`");
            self.push(d);
        }
    }

    /// `steps`: each step's shape, name and command.
    fn steps<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        fields: &mut Vec<Field<'n>>,
    ) -> (Vec<Level<'n>>, Vec<StepName>)
    where
        'a: 'n,
    {
        let Some(e) = node.get("steps") else {
            return (Vec::new(), Vec::new());
        };
        let spath = join_path(path, "steps");
        let Some(items) = e.value.as_seq() else {
            if e.value.kind != NodeKind::Null {
                self.lw.wrong_type(&e.value, &spath, "a list of steps");
            }
            return (Vec::new(), Vec::new());
        };
        let keys = step_keys();
        let mut levels = Vec::new();
        let mut names: Vec<StepName> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let ipath = format!("{spath}[{i}]");
            let anchor = first_key(item);
            let Some(map) = self.lw.as_map(item, item.span, &ipath) else {
                names.push(StepName {
                    name: format!("step{}", i + 1),
                    span: item.span,
                });
                continue;
            };
            self.lw.unknown_keys(map, &keys, REJECTED);
            let written = item.get("name").and_then(|n| {
                self.string(&n.value, &join_path(&ipath, "name"))
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| (s.trim().to_string(), n.value.span))
            });
            let explicit = written.is_some();
            let (name, span) = written.unwrap_or_else(|| (format!("step{}", i + 1), anchor));
            if let Some(first) = names.iter().find(|n| n.name == name) {
                let message = if explicit {
                    format!("a step named `{name}` is already defined in this tool")
                } else {
                    format!(
                        "step {} has no name, so it is called `{name}`, a name an earlier step already has",
                        i + 1
                    )
                };
                let d = self
                    .diag(&rules::DUPLICATE_STEP_NAME, span, message)
                    .label("duplicate step name")
                    .related(self.file(), first.span, "first defined here")
                    .note("cycod rejects a tool whose steps share a name: `{step.output}` could not tell them apart")
                    .help("give each step its own `name`");
                self.push(d);
            }
            names.push(StepName {
                name: name.clone(),
                span,
            });
            let level = self.level(item, anchor, ipath, Some(i), fields);
            self.step_command(&level, &name);
            levels.push(level);
        }
        (levels, names)
    }

    /// CYC005 and CYC007 for one step.
    fn step_command(&mut self, level: &Level<'_>, name: &str) {
        let set: Vec<&Command<'_>> = level.set().collect();
        match set.as_slice() {
            [] => {
                if level.commands.iter().any(|c| c.text.trim().is_empty())
                    || level.commands.is_empty()
                {
                    let (span, why) = match level.commands.first() {
                        Some(c) => (c.key_span, format!("`{}` is empty", c.key)),
                        None => (level.anchor, "it has no command option".to_string()),
                    };
                    let d = self
                        .diag(
                            &rules::MISSING_COMMAND,
                            span,
                            format!("step `{name}` has nothing to run: {why}"),
                        )
                        .label("no command")
                        .note("cycod rejects a tool with a step that has no command")
                        .help("give the step one of `run`, `bash`, `cmd`, `pwsh`, `python`, `script` or `tool`");
                    self.push(d);
                }
            }
            [_] => {}
            [first, rest @ ..] => {
                for c in rest {
                    let d = self
                        .diag(
                            &rules::STEP_MULTIPLE_COMMANDS,
                            c.key_span,
                            format!("step `{name}` sets both `{}` and `{}`", first.key, c.key),
                        )
                        .label("second command option")
                        .related(self.file(), first.key_span, "first command option")
                        .note("cycod rejects a tool with a step that has more than one command option")
                        .help("split it into two steps, one command each");
                    self.push(d);
                }
            }
        }
    }

    /// CYC005 and CYC006 for the tool level.
    fn what_runs(&mut self, top: &Level<'_>, has_steps: bool, node: &Node, path: &str) {
        let set: Vec<&Command<'_>> = top.set().collect();
        let steps_entry = node.get("steps");
        if set.is_empty() && !has_steps {
            let (span, why) = if let Some(c) = top.commands.first() {
                (c.key_span, format!("`{}` is empty", c.key))
            } else if let Some(s) = steps_entry {
                (s.key_span, "`steps` is empty".to_string())
            } else {
                (top.anchor, "it has none of `run`, `bash`, `cmd`, `pwsh`, `python`, `script`, `tool`, `mcp` or `steps`".to_string())
            };
            let who = if path.is_empty() {
                "this tool".to_string()
            } else {
                format!("inline tool `{path}`")
            };
            let d = self
                .diag(
                    &rules::MISSING_COMMAND,
                    span,
                    format!("{who} has nothing to run: {why}"),
                )
                .label("no command")
                .note("cycod rejects a tool without a command option or steps")
                .help("add the command, e.g. `bash: …`, or a `steps` list");
            self.push(d);
            return;
        }
        // Steps win over any single command: the runtime dispatches on them first.
        let (winner, winner_span) = match (has_steps, set.first()) {
            (true, _) => ("steps", steps_entry.map_or(top.anchor, |e| e.key_span)),
            (false, Some(c)) => (c.key, c.key_span),
            (false, None) => return,
        };
        for c in set.iter().filter(|c| c.key != winner) {
            let d = self
                .diag(
                    &rules::MULTIPLE_COMMANDS,
                    c.key_span,
                    format!("`{}` never runs: `{winner}` is also set and takes precedence", c.key),
                )
                .label("ignored")
                .related(self.file(), winner_span, "this is what runs")
                .note("cycod runs one command option, in the order steps, run, bash, cmd, pwsh, python, script, tool, mcp")
                .help(format!("remove `{}`, or move it into its own tool or step", c.key));
            self.push(d);
        }
    }

    /// CYC012-CYC016 and SEC020 over every scanned value; marks parameters used.
    fn references(&mut self, fields: &[Field<'_>], params: &mut [Param<'_>], steps: &[StepName]) {
        for field in fields {
            let Some(value) = field.node.as_str() else {
                continue;
            };
            for r in template::scan(value) {
                let span = span_in_value(self.file(), field.node, r.at, r.text);
                match r.target {
                    Target::Param { name, raw } => {
                        self.param_reference(name, raw, r.text, span, params, steps)
                    }
                    Target::Step { step, property } => {
                        self.step_reference(step, property, r.text, span, field.step, steps)
                    }
                }
            }
        }
    }

    fn param_reference(
        &mut self,
        name: &str,
        raw: bool,
        text: &str,
        span: Span,
        params: &mut [Param<'_>],
        steps: &[StepName],
    ) {
        if let Some(p) = params.iter_mut().find(|p| p.name == name) {
            p.used = true;
            if raw {
                let d = self
                    .diag(
                        &security::RAW_PARAMETER_REFERENCE,
                        span,
                        format!("`{text}` inserts `{name}` into the command without escaping"),
                    )
                    .label("not escaped")
                    .note("the value comes from the LLM or the caller: quotes, `;` or `$(…)` in it run as shell code")
                    .help(format!("write `{{{name}}}` so cycod escapes the value"));
                self.push(d);
            }
            return;
        }
        let suggestion =
            did_you_mean(name, params.iter().map(|p| p.name)).filter(|s| !is_compound_of(name, s));
        let is_step = steps.iter().any(|s| s.name == name);
        // Lowercase names with no close parameter are most likely jq shorthands (`{name}`)
        // or Python f-string fields, which cycod leaves alone.
        let looks_like_parameter = raw || !name.bytes().any(|b| b.is_ascii_lowercase());
        if !(looks_like_parameter || suggestion.is_some() || is_step) {
            return;
        }
        let mut d = self
            .diag(
                &rules::UNKNOWN_PARAMETER_REFERENCE,
                span,
                format!("`{text}` is not a parameter of this tool"),
            )
            .label("unknown parameter")
            .note("cycod substitutes only declared parameters: the braces reach the command as they are");
        if let Some(s) = suggestion {
            if let Some(p) = params.iter().find(|p| p.name == s) {
                d = d.related(self.file(), p.key_span, format!("did you mean `{s}`?"));
            }
            d = d.help(format!(
                "did you mean `{{{}{s}}}`?",
                if raw { "RAW:" } else { "" }
            ));
        } else if is_step {
            d = d.help(format!(
                "to use the step's output write `{{{name}.output}}`"
            ));
        } else {
            d = d.help(format!(
                "declare it under `parameters:` (`{name}: {{type: string, description: …}}`)"
            ));
        }
        self.push(d);
    }

    fn step_reference(
        &mut self,
        step: &str,
        property: &str,
        text: &str,
        span: Span,
        at: Option<usize>,
        steps: &[StepName],
    ) {
        let known_property = STEP_PROPERTIES.contains(&property);
        let Some(index) = steps.iter().position(|s| s.name == step) else {
            let suggestion = did_you_mean(step, steps.iter().map(|s| s.name.as_str()));
            if !known_property && suggestion.is_none() {
                // `{obj.attr}` in a Python f-string, say: not cycod's.
                return;
            }
            let mut d = self
                .diag(
                    &rules::UNKNOWN_STEP_REFERENCE,
                    span,
                    format!("`{text}` refers to a step `{step}` this tool does not have"),
                )
                .label("unknown step")
                .note("cycod only fills in outputs of the tool's own steps: the braces reach the command as they are");
            if let Some(s) = suggestion {
                if let Some(target) = steps.iter().find(|x| x.name == s) {
                    d = d.related(self.file(), target.span, format!("did you mean `{s}`?"));
                }
                d = d.help(format!("did you mean `{{{s}.{property}}}`?"));
            } else if steps.is_empty() {
                d = d.help("this tool has no `steps`; step outputs exist only in multi-step tools");
            } else {
                let mut list: Vec<&str> = Vec::new();
                for s in steps {
                    if !list.contains(&s.name.as_str()) {
                        list.push(&s.name);
                    }
                }
                d = d.help(format!("the steps are: {}", list.join(", ")));
            }
            self.push(d);
            return;
        };
        if !known_property {
            let hint = did_you_mean(property, STEP_PROPERTIES.iter().copied());
            let d = self
                .diag(
                    &rules::UNKNOWN_STEP_PROPERTY,
                    span,
                    format!("`{text}` reads `{property}`, which a step does not have"),
                )
                .label("unknown property")
                .note("a step has `output`, `stdout`, `stderr` and `exit-code`; anything else is left in the command as written")
                .help(match hint {
                    Some(h) => format!("did you mean `{{{step}.{h}}}`?"),
                    None => format!("use `{{{step}.output}}`, `.stdout`, `.stderr` or `.exit-code`"),
                });
            self.push(d);
            return;
        }
        let Some(current) = at else { return };
        if index < current {
            return;
        }
        let message = if index == current {
            format!("step `{step}` reads its own output with `{text}`")
        } else {
            format!("`{text}` reads the output of step `{step}`, which runs later")
        };
        let d = self
            .diag(&rules::FORWARD_STEP_REFERENCE, span, message)
            .label("not run yet")
            .related(self.file(), steps[index].span, "that step is defined here")
            .note("steps run in order: when this one runs, that output does not exist yet")
            .help("move the step that produces the output above this one");
        self.push(d);
    }

    /// CYC013.
    fn unused(&mut self, params: &[Param<'_>]) {
        for p in params.iter().filter(|p| !p.used) {
            let d = self
                .diag(
                    &rules::UNUSED_PARAMETER,
                    p.key_span,
                    format!("parameter `{}` is never referenced", p.name),
                )
                .label("unused")
                .note("cycod still asks the LLM for it, but its value reaches no command")
                .help(format!(
                    "reference it as `{{{}}}` in the command, `arguments`, `input` or `environment`, or remove it",
                    p.name
                ));
            self.push(d);
        }
    }

    /// CYC018 for the commands that run, CYC019 for every level.
    fn shells(
        &mut self,
        levels: &[&Level<'_>],
        running: &[(&Level<'_>, &Command<'_>)],
        platforms: Option<&(Vec<String>, Span)>,
    ) {
        let no_windows =
            platforms.filter(|(list, _)| !list.is_empty() && !list.iter().any(|p| p == "windows"));
        if let Some((_, platforms_span)) = no_windows {
            for (level, c) in running {
                let shell = self.shell_of(level);
                let (shown, span) = match (c.key, shell) {
                    ("cmd", _) => ("`cmd`", c.key_span),
                    ("script", Some((s, span))) if s == "cmd" => ("`cmd`", span),
                    ("script", Some((s, span))) if s == "powershell" => {
                        ("Windows PowerShell (`powershell`)", span)
                    }
                    _ => continue,
                };
                let d = self
                    .diag(
                        &rules::WINDOWS_ONLY_SHELL,
                        span,
                        format!("{shown} runs only on Windows, but `platforms` does not list `windows`"),
                    )
                    .label("Windows only")
                    .related(self.file(), *platforms_span, "platforms declared here")
                    .note("on the declared platforms cycod cannot start this shell: the command can never run")
                    .help("add `windows` to `platforms`, or write the command for `bash` or `pwsh`");
                self.push(d);
            }
        }
        for level in levels {
            let Some((shell_name, shell_span)) = self.shell_of(level) else {
                continue;
            };
            let Some(alias) = level
                .set()
                .find(|c| matches!(c.key, "bash" | "cmd" | "pwsh" | "python"))
            else {
                continue;
            };
            if shell_name == alias.key || shell_name == "default" || shell_name.is_empty() {
                continue;
            }
            let d = self
                .diag(
                    &rules::CONFLICTING_SHELL,
                    shell_span,
                    format!(
                        "`shell: {shell_name}` contradicts `{}:`, which already runs its script with {}",
                        alias.key, alias.key
                    ),
                )
                .label("another shell")
                .related(self.file(), alias.key_span, format!("`{}` fixes the shell", alias.key))
                .note(format!("`{}:` is short for `script:` with `shell: {}`: a script written for one shell fails in the other", alias.key, alias.key))
                .help(format!(
                    "remove `shell`, or write `script:` with `shell: {shell_name}` instead of `{}:`",
                    alias.key
                ));
            self.push(d);
        }
    }

    /// The level's `shell`, lowercased, and its span.
    fn shell_of(&self, level: &Level<'_>) -> Option<(String, Span)> {
        let s = level.shell?;
        scalar_text(self.file(), s).map(|t| (t.trim().to_ascii_lowercase(), s.span))
    }

    /// SEC021 and SEC022 for the file's own tool.
    fn security(
        &mut self,
        node: &Node,
        anchor: Span,
        tags: &[(&str, Span)],
        running: &[(&Level<'_>, &Command<'_>)],
    ) {
        let security: Vec<&(&str, Span)> = tags
            .iter()
            .filter(|(t, _)| SECURITY_TAGS.contains(t))
            .collect();
        if security.is_empty() {
            let tags_entry = node.get("tags");
            let span = tags_entry.map_or(anchor, |e| e.value.span);
            let d = self
                .diag(
                    &security::MISSING_SECURITY_TAG,
                    span,
                    "this tool has no `read`, `write` or `run` tag".to_string(),
                )
                .label(if tags_entry.is_some() { "no security tag" } else { "no `tags`" })
                .note("cycod treats an untagged tool as `run`, the highest risk: every call needs explicit approval and `--auto-approve tool:read` never covers it")
                .help(if tags_entry.is_some() {
                    "add the tag that matches what the tool does: `read`, `write` or `run`"
                } else {
                    "add `tags: [read]` (or `write`, `run`) to match what the tool does"
                });
            self.push(d);
            return;
        }
        let Some(read) = security.iter().find(|(t, _)| *t == "read") else {
            return;
        };
        if security.iter().any(|(t, _)| *t != "read") {
            return;
        }
        for (level, c) in running {
            let dialect = match (c.key, self.shell_of(level)) {
                ("run", _) => Dialect::Process,
                ("cmd", _) => Dialect::Cmd,
                ("pwsh", _) => Dialect::Pwsh,
                ("python", _) => Dialect::Python,
                ("script", Some((s, _))) if s == "cmd" => Dialect::Cmd,
                ("script", Some((s, _))) if s == "pwsh" || s == "powershell" => Dialect::Pwsh,
                ("script", Some((s, _))) if s == "python" => Dialect::Python,
                ("bash" | "script", _) => Dialect::Posix,
                _ => continue,
            };
            let Some(w) = writes::first_write(c.text, dialect) else {
                continue;
            };
            let needle = c.text.get(w.start..w.end).unwrap_or_default();
            let span = span_in_value(self.file(), c.node, w.start, needle);
            let d = self
                    .diag(
                        &security::READ_TOOL_WRITES,
                        span,
                        format!("this tool is tagged `read` but its command writes: {}", w.what),
                    )
                    .label("writes")
                    .related(self.file(), read.1, "tagged `read` here")
                    .note("`--auto-approve tool:read` lets a read tool run without asking: this one changes files or remote state unasked")
                    .help("tag it `write` (or `run`) instead of `read`, or remove the write");
            self.push(d);
            return;
        }
    }
}

/// True when one name is the other plus a `_`/`-` suffix (`REPO_DIR` and `REPO`): a
/// different name, not a misspelling.
fn is_compound_of(a: &str, b: &str) -> bool {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    long.strip_prefix(short)
        .is_some_and(|rest| rest.starts_with(['_', '-']))
}

/// Every string in `node` (recursively), as fields to scan.
fn collect_strings<'n>(node: &'n Node, step: Option<usize>, fields: &mut Vec<Field<'n>>) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match &n.kind {
            NodeKind::String(_) => fields.push(Field { node: n, step }),
            NodeKind::Seq(items) => stack.extend(items.iter().rev()),
            NodeKind::Map(entries) => stack.extend(entries.iter().rev().map(|e| &e.value)),
            _ => {}
        }
    }
}
