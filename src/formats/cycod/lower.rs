//! One tool file: the closed schema, names, what runs, steps, parameters, templates,
//! platforms and shells, security tags and timeouts.

use std::sync::Arc;

use super::{NameRef, Tool, ToolName};
use crate::diagnostics::{Applicability, Diagnostic};
use crate::formats::fields::{Lowerer, ShapeRules, join_path, replace_exact};
use crate::rules::cycod as rules;
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind, Number};

/// The shape rules of cycod tool files.
static SHAPE: ShapeRules = ShapeRules {
    missing: &rules::MISSING_TOOL_NAME,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_PLATFORM,
    length: &rules::WRONG_FIELD_TYPE,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// What cycod does with a file that has an unknown key.
pub(super) const REJECTED: &str =
    "cycod's loader rejects a tool file with a key its model does not have: the tool is not loaded";

/// Command options in the order the runtime picks them when several are set.
const COMMANDS: &[&str] = &[
    "run", "bash", "cmd", "pwsh", "python", "script", "tool", "mcp",
];
/// Options that hold a script or process line (the rest, `tool` and `mcp`, hold names).
pub(super) const SCRIPTS: &[&str] = &["run", "bash", "cmd", "pwsh", "python", "script"];
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
pub(super) fn scalar_text<'n>(file: &'n SourceFile, node: &'n Node) -> Option<&'n str> {
    match &node.kind {
        NodeKind::String(s) => Some(s),
        NodeKind::Number(_) | NodeKind::Bool(_) => Some(file.slice(node.span)),
        NodeKind::Null => Some(""),
        NodeKind::Seq(_) | NodeKind::Map(_) => None,
    }
}

/// A parameter of the definition being checked.
pub(super) struct Param<'n> {
    /// The name (the mapping key).
    pub(super) name: &'n str,
    /// Where the name is written.
    pub(super) key_span: Span,
    /// Whether any scanned value references it.
    pub(super) used: bool,
}

/// A step's name (given, or `step{n}`) and where to point for it.
pub(super) struct StepName {
    pub(super) name: String,
    pub(super) span: Span,
}

/// A command option that is set.
pub(super) struct Command<'n> {
    pub(super) key: &'static str,
    pub(super) key_span: Span,
    pub(super) node: &'n Node,
    /// The value; empty counts as not set (the runtime skips empty commands).
    pub(super) text: &'n str,
}

/// The tool itself or one of its steps.
pub(super) struct Level<'n> {
    /// Where to point when the level lacks something.
    pub(super) anchor: Span,
    pub(super) commands: Vec<Command<'n>>,
    pub(super) shell: Option<&'n Node>,
}

impl Level<'_> {
    pub(super) fn set(&self) -> impl Iterator<Item = &Command<'_>> {
        self.commands.iter().filter(|c| !c.text.trim().is_empty())
    }
}

/// A value scanned for `{…}` references, and which step it belongs to.
pub(super) struct Field<'n> {
    pub(super) node: &'n Node,
    pub(super) step: Option<usize>,
}

/// The checks of one file: its diagnostics so far, and what the cross-file pass will need.
pub(super) struct Cx<'a> {
    /// Shape helpers and the diagnostics collected.
    pub(super) lw: Lowerer<'a>,
    /// Names and references gathered for resolve.
    pub(super) tool: Tool,
}

impl<'a> Cx<'a> {
    pub(super) fn file(&self) -> &'a Arc<SourceFile> {
        self.lw.file
    }

    pub(super) fn push(&mut self, d: Diagnostic) {
        self.lw.push(d);
    }

    pub(super) fn diag(
        &self,
        rule: &'static crate::rules::Rule,
        span: Span,
        msg: String,
    ) -> Diagnostic {
        self.lw.diag(rule, span, msg)
    }

    /// A scalar that cycod reads as a string; lists and mappings are a type error.
    pub(super) fn string<'n>(&mut self, node: &'n Node, path: &str) -> Option<&'n str>
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
                    })
                    .maybe_fix(stem.and_then(|s| {
                        replace_exact(self.file(), e.value.span, "", s, Applicability::Unsafe)
                    }));
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
                    ))
                    .maybe_fix(replace_exact(
                        self.file(),
                        e.value.span,
                        value,
                        stem,
                        Applicability::Unsafe,
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
