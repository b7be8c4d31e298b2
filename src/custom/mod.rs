//! Rules a team writes without code: `[[custom-rules]]` in `toolc.toml`. Each is compiled
//! once, when the configuration is read ([`rule`]: a broken rule is a configuration error);
//! a check then runs them over every tool (toolc's format-neutral view, [`subject`]) or every
//! file's own tree, selecting nodes with an RFC 9535 JSONPath and applying the `then`
//! functions ([`function`]) to them. A finding is an ordinary diagnostic of a rule the
//! registry knows (`crate::rules::custom`), so selecting, severities, suppressions and every
//! output format treat it like any other.

pub(crate) mod error;
pub(crate) mod function;
pub(crate) mod given;
pub(crate) mod page;
pub(crate) mod parts;
pub(crate) mod reach;
pub(crate) mod rule;
pub(crate) mod subject;
pub(crate) mod val;

use std::path::Path;
use std::sync::Arc;

pub(crate) use rule::{CustomRules, RawRule, compile};

use crate::config::tree::ConfigTree;
use crate::diagnostics::Diagnostic;
use crate::ir::Lowered;
use crate::source::{FormatId, SourceFile};
use crate::syntax::Node;
use given::Step;
use parts::{Part, Then};
use rule::CustomRule;
use subject::Subject;
use val::Val;

/// The value at `path` in `node`: the value (or `None`), and the steps to the deepest value
/// found along the way.
fn lookup<'v>(node: Val<'v>, path: &[String]) -> (Option<Val<'v>>, Vec<Step>) {
    let mut at = node;
    let mut steps = Vec::new();
    for key in path {
        match at.get(key) {
            Some(next) => {
                at = next;
                steps.push(Step::Key(key.clone()));
            }
            None => return (None, steps),
        }
    }
    (Some(at), steps)
}

/// The message with the node's fields put in: a string as it is, another value as JSON,
/// a missing one as nothing.
fn render(message: &[Part], node: Val<'_>) -> String {
    let mut out = String::new();
    for part in message {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Field(path) => {
                if let Some(v) = value_at(node, path) {
                    match v.as_str() {
                        Some(s) => out.push_str(s),
                        None => out.push_str(&v.to_json().to_string()),
                    }
                }
            }
        }
    }
    out
}

/// How a reason names the value a `then` looks at: `` `field` ``, or "the value".
struct What<'a>(Option<&'a str>);

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(field) => write!(f, "`{field}`"),
            None => f.write_str("the value"),
        }
    }
}

/// The value at `path` in `node`, without the steps: what a node that passes needs.
fn value_at<'v>(node: Val<'v>, path: &[String]) -> Option<Val<'v>> {
    path.iter().try_fold(node, |at, key| at.get(key))
}

/// Why the first `then` of `rule` that fails on `node` fails, and the value it looked at.
fn failing<'r, 'v>(
    rule: &'r CustomRule,
    node: Val<'v>,
) -> Option<(&'r Then, Option<Val<'v>>, String)> {
    rule.thens.iter().find_map(|then| {
        let target = match &then.field {
            None => Some(node),
            Some(path) => value_at(node, path),
        };
        let reason = then
            .function
            .fails(target, &What(then.field_text.as_deref()))?;
        Some((then, target, reason))
    })
}

/// The findings of `rule` on `subject`: at most one per node `given` selects (the first
/// `then` that fails says why). The nodes are first found without their places: most
/// subjects pass, and a place costs allocations on every node; only a subject where one
/// fails is walked again with them. True when `given` selected a node.
fn evaluate(rule: &CustomRule, subject: &Subject<'_>, out: &mut Vec<Diagnostic>) -> bool {
    let (root, json) = (subject.root(), subject.json());
    // `$` (most rules) selects the subject itself: no walk at all.
    let fails = if rule.given.is_root() {
        failing(rule, root).is_some()
    } else {
        let seen = rule
            .given
            .visit(root, json, |node| failing(rule, node).is_some());
        if !seen.selected {
            return false;
        }
        seen.stopped
    };
    if !fails {
        return true;
    }
    for (node, mut steps) in rule.given.located(root, json) {
        let Some((then, target, reason)) = failing(rule, node) else {
            continue;
        };
        if let Some(path) = &then.field {
            steps.extend(lookup(node, path).1);
        }
        let place = subject.place(&steps, target.is_none());
        out.push(
            Diagnostic::new(
                rule.rule,
                place.file,
                place.span,
                render(&rule.message, node),
            )
            .label(reason)
            .help(format!(
                "a rule of this repository's `toolc.toml`: `toolc explain {}` says what it asks",
                rule.rule.code
            )),
        );
    }
    true
}

/// The fingerprint of the custom rules that read `file` (a path of format `format`): what a
/// cached result of it must have been checked under.
pub(crate) fn fingerprint(configs: &ConfigTree, file: &Path, format: FormatId) -> u64 {
    configs.for_path(file).custom.plan(format).fingerprint
}

/// What the custom rules found in one file.
#[derive(Default)]
pub(crate) struct Checked {
    /// Their findings.
    pub found: Vec<Diagnostic>,
    /// The codes of the rules whose `given` selected something in it.
    pub matched: Vec<&'static str>,
}

impl Checked {
    fn run(&mut self, rule: &CustomRule, subject: &Subject<'_>) {
        // A rule's code is one string for the run: the same rule is found by its address.
        let code = rule.rule.code;
        if evaluate(rule, subject, &mut self.found)
            && !self.matched.iter().any(|m| std::ptr::eq(*m, code))
        {
            self.matched.push(code);
        }
    }
}

/// The findings of the custom rules of `file`'s configuration on it: its tree (`kept`, the
/// one its load parsed, else parsed now) and the tools `lower` gives of it, lowered only when
/// a rule reads tools. Each subject's JSON is built only as far as its rules read.
pub(crate) fn check_one<'a>(
    configs: &ConfigTree,
    file: &'a Arc<SourceFile>,
    kept: Option<Node>,
    lower: &dyn Fn() -> Vec<Lowered<'a>>,
) -> Checked {
    let plan_of = |file: &SourceFile| configs.for_path(&file.path).custom.plan(file.format);
    let mut checked = Checked::default();
    let plan = plan_of(file);
    let (on_file, on_tools) = (&plan.on_file, &plan.on_tools);
    if on_file.is_empty() && on_tools.is_empty() {
        return checked;
    }
    let skill = file.format == FormatId::AgentSkill;
    let tree = if !on_file.is_empty() || (skill && !on_tools.is_empty()) {
        kept.or_else(|| subject::file_tree(file))
    } else {
        None
    };
    if let Some(tree) = tree {
        if skill && !on_tools.is_empty() {
            let view = subject::of_skill(file, tree.clone(), &plan.tool_reach);
            on_tools.iter().for_each(|rule| checked.run(rule, &view));
        }
        if !on_file.is_empty() {
            let whole = subject::of_file(file, tree, &plan.file_reach);
            on_file.iter().for_each(|rule| checked.run(rule, &whole));
        }
    }
    if !skill && !on_tools.is_empty() {
        for lowered in lower() {
            // A tool may be defined in a file other than the result's own.
            let elsewhere;
            let plan = if lowered.file.path == file.path {
                &plan
            } else {
                elsewhere = plan_of(lowered.file);
                &elsewhere
            };
            let view = subject::of_tool(lowered, &plan.tool_reach);
            plan.on_tools
                .iter()
                .for_each(|rule| checked.run(rule, &view));
        }
    }
    checked
}

#[cfg(test)]
mod tests;
