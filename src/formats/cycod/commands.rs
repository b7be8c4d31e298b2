//! What runs: the command options and settings of the tool and of each step, the steps
//! themselves, and which command wins when several are set.

use std::borrow::Cow;

use compact_str::{CompactString, format_compact};

use super::lower::{
    Command, Cx, Field, Level, REJECTED, Runs, SCRIPTS, StepName, StepNames, first_key,
};
use crate::formats::fields::join_path;
use crate::rules::cycod as rules;
use crate::source::Span;
use crate::syntax::{Node, NodeKind, Number};

pub(super) use crate::runtimes::cycod::COMMANDS;
/// Settings every level (the tool, each step) may have besides its command.
pub(super) const LEVEL_KEYS: &[&str] = &[
    "shell",
    "arguments",
    "input",
    "timeout",
    "working-directory",
    "environment",
];
/// Timeouts below this cannot let any real process finish.
const SHORT_TIMEOUT_MS: i64 = 100;

/// Where the steps are, and the keys a step may have.
struct StepsAt<'s> {
    path: &'s str,
    keys: &'s [&'static str],
}

fn step_keys() -> Vec<&'static str> {
    std::iter::once("name")
        .chain(COMMANDS.iter().copied())
        .chain(LEVEL_KEYS.iter().copied())
        .collect()
}

impl<'a> Cx<'a> {
    /// The command options and settings of the tool or of one step.
    pub(super) fn level<'n>(
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
            // Only a value with a brace can hold a `{…}` reference: a tool of millions of
            // steps held a field for each.
            if SCRIPTS.contains(key) && text.contains('{') {
                fields.push(Field {
                    node: Cow::Borrowed(&e.value),
                    step,
                });
            }
            commands.push(Command {
                key,
                key_span: e.key_span(),
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
                && self
                    .string(&e.value, &join_path(&path, key))
                    .is_some_and(|t| t.contains('{'))
            {
                fields.push(Field {
                    node: Cow::Borrowed(&e.value),
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
            self.tool
                .tool_references
                .push(c.text.trim(), c.node.span(), &join_path(&path, "tool"));
        }
        Level {
            anchor,
            // Room for the one or two a level has, not the four a push makes: a tool of
            // many steps holds a level for each.
            commands: commands.into_boxed_slice(),
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
        let Some(entries) = node.entries() else {
            if node.kind != NodeKind::Null {
                self.lw
                    .wrong_type(node, path, "a mapping of variable names to values");
            }
            return;
        };
        // An entry at a time: a long mapping is held packed.
        for e in entries.scan() {
            // References inside a misshapen value still count, so one mistake does not
            // also make its parameters look unused.
            match &e {
                Cow::Borrowed(e) => collect_strings(&e.value, step, fields),
                Cow::Owned(e) => {
                    let mut found = Vec::new();
                    collect_strings(&e.value, step, &mut found);
                    fields.extend(found.into_iter().map(Field::owned));
                }
            }
            if !matches!(e.value.kind, NodeKind::Seq(_) | NodeKind::Map(_)) {
                continue;
            }
            let vpath = join_path(path, &e.key);
            let mut d = self
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    e.key_span(),
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
        let text = self.file().slice(node.span()).to_string();
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
                        node.span(),
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
                .diag(&rules::INVALID_TIMEOUT, node.span(), message)
                .label("not a valid timeout")
                .note(format!("cycod reads `timeout` as an integer number of milliseconds and rejects the file otherwise; the default is {}", crate::runtimes::cycod::DEFAULT_TIMEOUT_MS))
                .help("write a positive whole number, e.g. `timeout: 60000`");
            self.push(d);
        }
    }

    /// `steps`: each step's shape, name and command.
    pub(super) fn steps<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        fields: &mut Vec<Field<'n>>,
        runs: &mut Runs<'_>,
    ) -> (usize, StepNames)
    where
        'a: 'n,
    {
        let Some(e) = node.get("steps") else {
            return (0, StepNames::default());
        };
        let spath = join_path(path, "steps");
        let Some(items) = e.value.as_list() else {
            if e.value.kind != NodeKind::Null {
                self.lw.wrong_type(&e.value, &spath, "a list of steps");
            }
            return (0, StepNames::default());
        };
        let keys = step_keys();
        let mut levels = 0;
        // Exact room: grown by doubling, a tool of many steps held up to twice their room.
        let mut names: Vec<StepName> = Vec::with_capacity(items.len());
        // Which names are written (the rest are `step{n}`), for CYC008's message.
        let mut written_names: Vec<bool> = Vec::with_capacity(items.len());
        let at = StepsAt {
            path: &spath,
            keys: &keys,
        };
        // A long list of steps is packed: each is built for its checks and let go, and the
        // values the references read once every step is checked are kept as copies.
        for (i, item) in items.scan().enumerate() {
            let (name, written, level) = match item {
                Cow::Borrowed(item) => self.step(item, i, &at, fields, runs),
                Cow::Owned(item) => {
                    let mut own = Vec::new();
                    let step = self.step(&item, i, &at, &mut own, runs);
                    fields.extend(own.into_iter().map(Field::owned));
                    step
                }
            };
            names.push(name);
            written_names.push(written);
            levels += usize::from(level);
        }
        let names = StepNames::new(names);
        self.duplicate_steps(&names, &written_names);
        (levels, names)
    }

    /// One step (the `i`th): its shape, name and command. Returns its name, whether the
    /// name is written, and whether it is a mapping (a level that runs).
    fn step<'m>(
        &mut self,
        item: &'m Node,
        i: usize,
        at: &StepsAt<'_>,
        fields: &mut Vec<Field<'m>>,
        runs: &mut Runs<'_>,
    ) -> (StepName, bool, bool)
    where
        'a: 'm,
    {
        let ipath = format!("{}[{i}]", at.path);
        let anchor = first_key(item);
        let Some(map) = self.lw.as_map(item, item.span(), &ipath) else {
            let name = StepName {
                name: format_compact!("step{}", i + 1),
                span: item.span(),
            };
            return (name, false, false);
        };
        self.lw.unknown_keys(map, at.keys, REJECTED);
        let written = item.get("name").and_then(|n| {
            self.string(&n.value, &join_path(&ipath, "name"))
                .filter(|s| !s.trim().is_empty())
                .map(|s| (CompactString::from(s.trim()), n.value.span()))
        });
        let is_written = written.is_some();
        let (name, span) = written.unwrap_or_else(|| (format_compact!("step{}", i + 1), anchor));
        let level = self.level(item, anchor, ipath, Some(i), fields);
        self.step_command(&level, &name);
        self.conflicting_shell(&level);
        self.runs(&level, runs);
        (StepName { name, span }, is_written, true)
    }

    /// CYC008: each step whose name an earlier step has, in step order (found in the
    /// steps' name order: a table of every name was most of a tool of millions of steps'
    /// peak; before it, each name was compared with every earlier one).
    fn duplicate_steps(&mut self, steps: &StepNames, written: &[bool]) {
        let names = &steps.list;
        for (i, first) in steps.repeated() {
            let (Some(step), Some(first)) = (names.get(i as usize), names.get(first as usize))
            else {
                continue;
            };
            let name = &step.name;
            let message = if written.get(i as usize).copied().unwrap_or(false) {
                format!("a step named `{name}` is already defined in this tool")
            } else {
                format!(
                    "step {} has no name, so it is called `{name}`, a name an earlier step already has",
                    i + 1
                )
            };
            let d = self
                .diag(&rules::DUPLICATE_STEP_NAME, step.span, message)
                .label("duplicate step name")
                .related(self.file(), first.span, "first defined here")
                .note("cycod rejects a tool whose steps share a name: `{step.output}` could not tell them apart")
                .help("give each step its own `name`");
            self.push(d);
        }
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
    pub(super) fn what_runs(&mut self, top: &Level<'_>, has_steps: bool, node: &Node, path: &str) {
        let set: Vec<&Command<'_>> = top.set().collect();
        let steps_entry = node.get("steps");
        if set.is_empty() && !has_steps {
            let (span, why) = if let Some(c) = top.commands.first() {
                (c.key_span, format!("`{}` is empty", c.key))
            } else if let Some(s) = steps_entry {
                (s.key_span(), "`steps` is empty".to_string())
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
            (true, _) => ("steps", steps_entry.map_or(top.anchor, |e| e.key_span())),
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
            NodeKind::String(s) if s.contains('{') => fields.push(Field {
                node: Cow::Borrowed(n),
                step,
            }),
            NodeKind::Seq(items) => stack.extend(items.iter().rev()),
            NodeKind::Map(entries) => stack.extend(entries.iter().rev().map(|e| &e.value)),
            _ => {}
        }
    }
}
