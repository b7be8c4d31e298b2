//! One tool file: the closed schema, the walk over a definition (the file's own, or an inline
//! one) that calls each concern's checks, and the name it registers. What runs is in
//! `commands.rs`, `uses`/`with` in `uses.rs`, parameters, templates, platforms and security
//! tags in their own files.

use std::sync::Arc;

use super::commands::{COMMANDS, LEVEL_KEYS};
use super::security::SECURITY_TAGS;
use super::{Tool, ToolName};
use crate::analysis::names::NameOrder;
use crate::diagnostics::{Applicability, Diagnostic};
use crate::formats::fields::{Lowerer, ShapeRules, join_path, replace_exact};
use crate::rules::cycod as rules;
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind};

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

/// Options that hold a script or process line (the rest, `tool` and `mcp`, hold names).
pub(super) const SCRIPTS: &[&str] = &["run", "bash", "cmd", "pwsh", "python", "script"];
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

fn tool_keys() -> Vec<&'static str> {
    TOOL_ONLY_KEYS
        .iter()
        .chain(COMMANDS)
        .chain(LEVEL_KEYS)
        .copied()
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
    cx.tool.tool_references.shrink();
    cx.tool.mcp_references.shrink();
    (cx.tool, cx.lw.diags.into_vec())
}

/// The first key of a mapping (where to point for something missing at the top), else the
/// start of the node.
pub(super) fn first_key(node: &Node) -> Span {
    node.as_map()
        .and_then(|entries| entries.first())
        .map_or(Span::point(node.span().start), |e| e.key_span())
}

/// The text of a scalar as cycod's YAML reader turns it into a string.
pub(super) fn scalar_text<'n>(file: &'n SourceFile, node: &'n Node) -> Option<&'n str> {
    match &node.kind {
        NodeKind::String(s) => Some(s),
        NodeKind::Number(_) | NodeKind::Bool(_) => Some(file.slice(node.span())),
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
    /// Held in place up to 24 bytes: a tool may have millions of steps.
    pub(super) name: compact_str::CompactString,
    pub(super) span: Span,
}

/// The steps' names, and their places in name order: a name is looked up, not searched for
/// among every step (a tool of many steps referring to each other was quadratic).
#[derive(Default)]
pub(super) struct StepNames {
    /// Each step's name, in step order.
    pub(super) list: Vec<StepName>,
    /// The steps in name order.
    by_name: NameOrder,
}

impl StepNames {
    /// The steps' `names`, in step order.
    pub(super) fn new(list: Vec<StepName>) -> StepNames {
        let by_name = NameOrder::new(list.len(), |i| {
            list.get(i as usize).map_or("", |s| s.name.as_str())
        });
        StepNames { list, by_name }
    }

    /// The name of step `i`.
    fn name(&self, i: u32) -> &str {
        self.list.get(i as usize).map_or("", |s| s.name.as_str())
    }

    /// The first step named `name`.
    pub(super) fn first(&self, name: &str) -> Option<usize> {
        self.by_name.first(name, |i| self.name(i))
    }

    /// The steps of each name after its first: (the step, the first of its name), in step
    /// order.
    pub(super) fn repeated(&self) -> Vec<(u32, u32)> {
        let mut again: Vec<(u32, u32)> = Vec::new();
        for group in self
            .by_name
            .sorted()
            .chunk_by(|a, b| self.name(*a) == self.name(*b))
        {
            if let [first, rest @ ..] = group {
                again.extend(rest.iter().map(|i| (*i, *first)));
            }
        }
        again.sort_unstable();
        again
    }

    /// How many distinct names.
    pub(super) fn distinct(&self) -> usize {
        self.by_name
            .sorted()
            .chunk_by(|a, b| self.name(*a) == self.name(*b))
            .count()
    }
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
    pub(super) commands: Box<[Command<'n>]>,
    pub(super) shell: Option<&'n Node>,
}

impl Level<'_> {
    pub(super) fn set(&self) -> impl Iterator<Item = &Command<'_>> {
        self.commands.iter().filter(|c| !c.text.trim().is_empty())
    }
}

/// What the checks of the command that runs at each level read, and what they found.
pub(super) struct Runs<'p> {
    /// The valid platforms and the list's span, when `platforms` is set.
    pub(super) platforms: Option<&'p (Vec<&'static str>, Span)>,
    /// Where the tool is tagged `read`, its only security tag: its commands are read for
    /// writes (SEC022).
    pub(super) read: Option<Span>,
    /// A write was reported (once a tool).
    pub(super) wrote: bool,
    /// A command that runs is a script.
    pub(super) script: bool,
}

impl Cx<'_> {
    /// The checks of the command that runs at `level` (its first one set): CYC018, SEC022.
    pub(super) fn runs(&mut self, level: &Level<'_>, runs: &mut Runs<'_>) {
        let Some(c) = level.set().next() else {
            return;
        };
        runs.script |= SCRIPTS.contains(&c.key);
        self.windows_only(level, c, runs.platforms);
        if let Some(read) = runs.read
            && !runs.wrote
        {
            runs.wrote = self.read_tool_writes(read, level, c);
        }
    }
}

/// A value scanned for `{…}` references, and which step it belongs to.
pub(super) struct Field<'n> {
    /// Borrowed from the tree; a copy when its step was built from a packed list.
    pub(super) node: std::borrow::Cow<'n, Node>,
    pub(super) step: Option<usize>,
}

impl Field<'_> {
    /// The same field, its value a copy (its step is let go before the references are read).
    pub(super) fn owned<'b>(self) -> Field<'b> {
        Field {
            node: std::borrow::Cow::Owned(self.node.into_owned()),
            step: self.step,
        }
    }
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
    pub(super) fn definition<'n>(
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
        // The first of each security tag is all SEC021 and SEC022 read (a file may have
        // millions of tags).
        let mut tags: Vec<(&str, Span)> = Vec::new();
        if let Some(e) = node.get("tags") {
            self.lw
                .str_items(&e.value, &join_path(path, "tags"), false, |t, span| {
                    if SECURITY_TAGS.contains(&t) && !tags.iter().any(|(seen, _)| *seen == t) {
                        tags.push((t, span));
                    }
                });
        }
        self.uses(node, path);
        self.with(node, path);

        let mut fields = Vec::new();
        let top = self.level(node, anchor, path.to_string(), None, &mut fields);
        self.conflicting_shell(&top);
        let read = match stem {
            Some(_) => self.security_tags(node, anchor, &tags),
            None => None,
        };
        let mut runs = Runs {
            platforms: platforms.as_ref(),
            read,
            wrote: false,
            script: false,
        };
        // Each step is checked as it is read, and let go: a tool of millions of steps held
        // a level for each.
        let (steps, step_names) = self.steps(node, path, &mut fields, &mut runs);
        let has_steps = steps > 0;
        self.what_runs(&top, has_steps, node, path);

        self.references(&fields, &mut params, &step_names);
        // What actually runs: the first command of each step, else the tool's first one
        // (commands are collected in precedence order).
        if !has_steps {
            self.runs(&top, &mut runs);
        }
        // A tool that only delegates (`tool:`, `mcp:`) may pass its parameters on by name.
        if runs.script {
            self.unused(&params);
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
                        e.value.span().join(e.key_span()),
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
                        replace_exact(self.file(), e.value.span(), "", s, Applicability::Unsafe)
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
                        e.value.span(),
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
                        e.value.span(),
                        value,
                        stem,
                        Applicability::Unsafe,
                    ));
                self.push(d);
                Some(ToolName {
                    value: value.to_string(),
                    span: e.value.span(),
                    explicit: true,
                })
            }
            (Some(value), _) => Some(ToolName {
                value: value.to_string(),
                span: entry.map_or(anchor, |e| e.value.span()),
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
}
