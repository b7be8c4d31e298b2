//! Rules a team writes without code: `[[custom-rules]]` in `toolc.toml`. Each is compiled
//! once, when the configuration is read ([`rule`]: a broken rule is a configuration error);
//! a check then runs them over every tool (toolc's format-neutral view, [`subject`]) or every
//! file's own tree, selecting nodes with an RFC 9535 JSONPath and applying the `then`
//! functions ([`function`]) to them. A finding is an ordinary diagnostic of a rule the
//! registry knows (`crate::rules::custom`), so selecting, severities, suppressions and every
//! output format treat it like any other.

pub(crate) mod budget;
pub(crate) mod cost;
pub(crate) mod error;
pub(crate) mod function;
pub(crate) mod given;
pub(crate) mod page;
pub(crate) mod parts;
pub(crate) mod preview;
pub(crate) mod reach;
pub(crate) mod rule;
pub(crate) mod rule_regex;
pub(crate) mod subject;
pub(crate) mod val;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

pub(crate) use rule::{CustomRules, RawRule, compile};

use crate::config::tree::ConfigTree;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::ir::{Lowered, Sink};
use crate::rules::syntax::CUSTOM_RULE_NOT_FULLY_CHECKED;
use crate::source::{FormatId, SourceFile};
use crate::syntax::Node;
use crate::text::grouped;
use budget::{Budget, Shared, Stop};
use function::Reads;
use given::Step;
use parts::{Part, Then};
use rule::{CustomRule, Plan};
use subject::Subject;
use val::{JSON_ENTRY, JSON_MAP, Val};

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

/// The longest message or label of a custom rule's finding, in bytes: a `{field}` is the
/// repository's value, and a path that selects a node many times would repeat a long one
/// in each finding.
pub(crate) const TEXT_MAX: usize = 1_000;

/// `text` cut at [`TEXT_MAX`] bytes (at a character), with `…` when cut.
fn cut(mut text: String) -> String {
    if text.len() <= TEXT_MAX {
        return text;
    }
    let mut at = TEXT_MAX;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    text.push('…');
    text
}

/// The start of `s`, at most `room` bytes (at a character).
fn start_of(s: &str, room: usize) -> &str {
    let mut at = room.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    &s[..at]
}

/// The message with the node's fields put in: a string as it is, another value as JSON,
/// a missing one as nothing; cut at [`TEXT_MAX`], and no more of a value made than that.
fn render(message: &[Part], node: Val<'_>) -> String {
    let mut out = String::new();
    for part in message {
        // A little past the end: what is cut then gets its `…`.
        let room = (TEXT_MAX + 4).saturating_sub(out.len());
        if room == 0 {
            break;
        }
        match part {
            Part::Text(t) => out.push_str(start_of(t, room)),
            Part::Field(path) => {
                if let Some(v) = value_at(node, path) {
                    match v.as_str() {
                        Some(s) => out.push_str(start_of(s, room)),
                        None => out.push_str(&preview::json_start(v, room).0),
                    }
                }
            }
        }
    }
    cut(out)
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

/// Why the first `then` of `rule` that fails on `node` fails, and the value it looked at;
/// none when all hold, or when `budget` stopped before the reason was made.
fn failing<'r, 'v>(
    rule: &'r CustomRule,
    node: Val<'v>,
    budget: &Budget,
) -> Option<(&'r Then, Option<Val<'v>>, String)> {
    for then in &rule.thens {
        let target = match &then.field {
            None => Some(node),
            Some(path) => value_at(node, path),
        };
        // A schema of the value's own level is checked on that level (`pay`), its reason
        // on the whole value; one that reads the value whole was paid for whole.
        if let Some(v) = target
            && let Reads::Level(_) = then.function.reads(v)
        {
            if then.function.holds(target) {
                continue;
            }
            if !budget.builds(v.json_bytes_within(budget.json_cap())) {
                return None;
            }
        }
        if let Some(reason) = then
            .function
            .fails(target, &What(then.field_text.as_deref()))
        {
            return Some((then, target, reason));
        }
    }
    None
}

/// True when every `then` of `rule` holds of `node` (no reason made).
fn passes(rule: &CustomRule, node: Val<'_>) -> bool {
    rule.thens.iter().all(|then| {
        let target = match &then.field {
            None => Some(node),
            Some(path) => value_at(node, path),
        };
        then.function.holds(target)
    })
}

/// Take from `budget` what checking `node` reads: the node, and what the functions read
/// of their values beyond it (a value compared or validated whole is all its nodes).
fn pay(rule: &CustomRule, node: Val<'_>, budget: &Budget) -> bool {
    let mut cost: u64 = 1;
    for then in &rule.thens {
        let target = match &then.field {
            None => Some(node),
            Some(path) => value_at(node, path),
        };
        let Some(target) = target else {
            continue;
        };
        cost = cost.saturating_add(then.function.weight());
        cost = cost.saturating_add(match then.function.reads(target) {
            Reads::Node => 0,
            Reads::Level(n) => {
                // Its level is made JSON: each entry with a `null`.
                let n = u64::try_from(n).unwrap_or(u64::MAX);
                if !budget.builds(JSON_MAP.saturating_add(n.saturating_mul(JSON_ENTRY))) {
                    return false;
                }
                n
            }
            Reads::Whole => {
                if !budget.builds(target.json_bytes_within(budget.json_cap())) {
                    return false;
                }
                target.size_within(budget.left())
            }
        });
    }
    budget.take(cost)
}

/// Check `node`, which `given` selected (at `at`): a finding when it fails, only counted
/// once the file has its fill of the rule's findings; true when the budget is spent.
fn judge(
    rule: &CustomRule,
    subject: &Subject<'_>,
    node: Val<'_>,
    at: &dyn Fn() -> Vec<Step>,
    budget: &Budget,
    found: &mut Findings,
) -> bool {
    if !pay(rule, node, budget) {
        return true;
    }
    if found.is_full(rule.rule) {
        if !passes(rule, node) {
            found.count(rule.rule);
        }
        return false;
    }
    let Some((then, target, reason)) = failing(rule, node, budget) else {
        return budget.stopped().is_some();
    };
    // A schema's reason validated the value again, errors and all.
    if let (function::Function::Schema(_), Some(v)) = (&then.function, target)
        && !budget.take(v.size_within(budget.left()))
    {
        return true;
    }
    let mut steps = at();
    if let Some(path) = &then.field {
        steps.extend(lookup(node, path).1);
    }
    let place = subject.place(&steps, target.is_none());
    found.push(
        Diagnostic::new(
            rule.rule,
            place.file,
            place.span,
            render(&rule.message, node),
        )
        .label(cut(reason))
        .help(format!(
            "a rule of this repository's `toolc.toml`: `toolc explain {}` says what it asks",
            rule.rule.code
        )),
    );
    false
}

/// The findings of `rule` on `subject` into `found`: at most one per node `given` selects
/// (the first `then` that fails says why), as far as `budget` goes. True when `given`
/// selected a node (or may have: the budget stopped it before it knew).
fn evaluate(
    rule: &CustomRule,
    subject: &Subject<'_>,
    budget: &Budget,
    found: &mut Findings,
) -> bool {
    if subject.too_large(rule.given.needs_json()) {
        budget.refuse_json();
        return true;
    }
    let (root, json) = (subject.root(), subject.json());
    // `$` (most rules) selects the subject itself: no walk at all.
    if rule.given.is_root() {
        judge(rule, subject, root, &Vec::new, budget, found);
        return true;
    }
    let selected = rule.given.select(
        root,
        json,
        budget,
        &mut |node| pay(rule, node, budget) && passes(rule, node),
        &mut |node, at| judge(rule, subject, node, &|| at.steps(), budget, found),
    );
    selected || budget.stopped().is_some()
}

/// What a TLC008 message says before the custom rule's code, and after it.
const STOPPED: &str = "custom rule ";
const STOPPED_WHY: &str = " was not fully checked in this file: ";

/// The custom rule a TLC008 finding (of rule `code`, saying `message`: a finding's or a
/// baseline entry's) says stopped; none for another rule's.
pub(crate) fn stopped_rule(code: &str, message: &str) -> Option<&'static crate::rules::Rule> {
    if code != CUSTOM_RULE_NOT_FULLY_CHECKED.code {
        return None;
    }
    let (stopped, _) = message.strip_prefix(STOPPED)?.split_once(STOPPED_WHY)?;
    crate::rules::lookup(stopped)
}

/// The finding that says `rule` stopped on `subject`'s file, and why, at the subject's
/// start (a file's first key, a tool's name).
fn not_fully_checked(rule: &CustomRule, subject: &Subject<'_>, stop: Stop) -> Diagnostic {
    let place = subject.place(&[], true);
    let why = match stop {
        Stop::Spent {
            total,
            read: 0,
            left: 0,
        } => format!(
            "the other custom rules read the {} nodes they may read of it together before its turn",
            grouped(total)
        ),
        Stop::Spent {
            total,
            read,
            left: 0,
        } => format!(
            "the custom rules read the {} nodes they may read of it together ({} of them by this rule)",
            grouped(total),
            grouped(read)
        ),
        Stop::Spent { total, read, left } => format!(
            "it would read more of it than the {} nodes left of the {} the custom rules may read of it together ({} read by this rule)",
            grouped(left),
            grouped(total),
            grouped(read)
        ),
        Stop::Engine { estimate, left } => format!(
            "its `given` would have the JSONPath engine read about {} nodes, more than the {} the custom rules may still read of this file",
            grouped(estimate),
            grouped(left)
        ),
        Stop::Json { cap } => format!(
            "it would make more JSON of it at once than the {} a rule may make of this file",
            mebibytes(cap)
        ),
    };
    let d = Diagnostic::new(
        &CUSTOM_RULE_NOT_FULLY_CHECKED,
        place.file,
        place.span,
        format!("{STOPPED}{}{STOPPED_WHY}{why}", rule.rule.code),
    )
    .label("not fully checked by this rule");
    if let Stop::Json { .. } = stop {
        return d
            .note(format!(
                "a rule may make {} of JSON of a file at once, and {} byte more per byte of it: the JSONPath engine (a `given` with filters, slices or unions) reads its subject as JSON, and `enumeration` and `schema` compare lists and maps as JSON",
                mebibytes(budget::JSON_BASE),
                budget::JSON_PER_BYTE
            ))
            .help("a `given` of names, indexes, `*` and `..` only is read where it is, without JSON; or check smaller values (a `field` below the list)");
    }
    let may = format!(
        "all the custom rules of a file may read {} nodes of it together, {} more per byte of its first {} MiB and {} per byte past that, each node and each rule's turn on a subject counted",
        grouped(budget::SHARED_BASE),
        budget::SHARED_PER_BYTE,
        budget::SHARED_FIRST >> 20,
        budget::SHARED_PER_BYTE_PAST
    );
    // The path is the repository's text: cut like a message.
    if cost::rereads(&rule.given_at.text) {
        return d.note(cut(format!(
            "{may}; `given = \"{}\"` selects the nodes below each node again for every node above it (several descendant segments `..`, or wildcards over them)",
            rule.given_at.text
        )))
        .help("select each node once: one descendant segment (`$..*`, `$..description`), or a narrower `given` (`$.parameters..description`)");
    }
    if let Stop::Spent {
        read: 0, left: 0, ..
    } = stop
    {
        return d.note(may).help("run fewer custom rules on such files (`formats`, `subject`), or narrower ones: a `given` that selects each node once (one `..`) and only what the rule checks (`$.parameters..description`)");
    }
    d.note(cut(format!(
        "{may}; `given = \"{}\"` and what its `then` reads of each node it selects read more of this file than that",
        rule.given_at.text
    )))
    .help("narrow the `given` to what the rule checks (`$.parameters..description`), or run fewer custom rules on such files (`formats`, `subject`)")
}

/// `bytes` in MiB, as a message says it.
fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
}

/// The fingerprint of the custom rules that read `file` (a path of format `format`): what a
/// cached result of it must have been checked under.
pub(crate) fn fingerprint(configs: &ConfigTree, file: &Path, format: FormatId) -> u64 {
    configs.for_path(file).custom.plan(format).fingerprint
}

/// What the custom rules found in one file.
#[derive(Default)]
pub(crate) struct Checked {
    /// Their findings, capped per rule as they are found: past a file's first 200 of a
    /// rule, a finding is a count.
    pub found: Findings,
    /// The codes of the rules whose `given` selected something in it.
    pub matched: Vec<&'static str>,
    /// What all the rules may still read of the file together.
    shared: Shared,
    /// Each rule's budget on the file, by code, shared by its subjects. Looked up, as
    /// `matched` is through `seen`, for each rule on each subject: a list took the rules
    /// squared for each file (9,000 rules over 200 files: 26 s).
    budgets: HashMap<&'static str, Budget>,
    /// The codes in `matched`.
    seen: HashSet<&'static str>,
}

impl Checked {
    /// The JSON a rule may make of one subject of the file at once.
    fn json_cap(&self) -> u64 {
        budget::json_cap(self.shared.bytes())
    }

    /// A subject of the file reads `other` too (a tool's schema in its own file): each
    /// rule may read that much more.
    fn reads_also(&mut self, other: &SourceFile) {
        let bytes = other.text.len();
        self.shared.grow(bytes);
        self.budgets.values().for_each(|b| b.grow(bytes));
    }

    /// True when none of `rules` will read another subject of the file: each stopped, or
    /// all they may read together read. What is left of them is a `TLC008` each, placed at
    /// the subject's start.
    fn done_with(&self, rules: &[Arc<CustomRule>]) -> bool {
        self.shared.spent()
            || rules.iter().all(|rule| {
                self.budgets
                    .get(rule.rule.code)
                    .is_some_and(|b| b.stopped().is_some())
            })
    }

    fn run(&mut self, rule: &CustomRule, subject: &Subject<'_>) {
        let code = rule.rule.code;
        let bytes = self.shared.bytes();
        let budget = self
            .budgets
            .entry(code)
            .or_insert_with(|| Budget::for_file(bytes));
        // Stopped on an earlier subject of the file, and said so there.
        if budget.stopped().is_some() {
            return;
        }
        if self.shared.spent() {
            budget.stop_shared(&self.shared);
            // Thousands of rules may stop on each file: past the cap, each is a count.
            if !self.found.counted(&CUSTOM_RULE_NOT_FULLY_CHECKED)
                && let Some(stop) = budget.stopped()
            {
                self.found.push(not_fully_checked(rule, subject, stop));
            }
            return;
        }
        let found = &mut self.found;
        let selected = budget.within(&mut self.shared, |budget| {
            evaluate(rule, subject, budget, found)
        });
        if let Some(stop) = budget.stopped() {
            self.found.push(not_fully_checked(rule, subject, stop));
        }
        if selected && self.seen.insert(code) {
            self.matched.push(code);
        }
    }
}

/// The findings of the custom rules of `file`'s configuration on it: its tree (`kept`, the
/// one its load parsed, else parsed now) and the tools `lower` gives of it, lowered only when
/// a rule reads tools, and each checked as it is lowered (a list of 300,000 tools held
/// lowered took 36 times its file). Each subject's JSON is built only as far as its rules
/// read.
pub(crate) fn check_one<'a>(
    configs: &ConfigTree,
    file: &'a Arc<SourceFile>,
    kept: Option<Node>,
    lower: &dyn Fn(&mut dyn Sink<'a>),
) -> Checked {
    let mut checked = Checked {
        shared: Shared::for_file(file.text.len()),
        ..Checked::default()
    };
    let plan = configs.for_path(&file.path).custom.plan(file.format);
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
            let cap = checked.json_cap();
            let view = subject::of_skill(file, tree.clone(), &plan.tool_reach, cap);
            on_tools.iter().for_each(|rule| checked.run(rule, &view));
        }
        if !on_file.is_empty() {
            let cap = checked.json_cap();
            let whole = subject::of_file(file, tree, &plan.file_reach, cap);
            on_file.iter().for_each(|rule| checked.run(rule, &whole));
        }
    }
    if !skill && !on_tools.is_empty() {
        lower(&mut OnTools {
            configs,
            file,
            plan: &plan,
            checked: &mut checked,
        });
    }
    checked
}

/// Runs the tool rules on each tool as it is lowered, then lets it go.
struct OnTools<'c> {
    configs: &'c ConfigTree,
    file: &'c SourceFile,
    plan: &'c Plan,
    checked: &'c mut Checked,
}

impl<'a> Sink<'a> for OnTools<'_> {
    fn tool(&mut self, lowered: Lowered<'a>) {
        // A tool may be defined in a file other than the result's own.
        let elsewhere;
        let plan: &Plan = if lowered.file.path == self.file.path {
            self.plan
        } else {
            elsewhere = self
                .configs
                .for_path(&lowered.file.path)
                .custom
                .plan(lowered.file.format);
            &elsewhere
        };
        // What the tool reads from other files is read by its rules too.
        let others = [
            Some(lowered.file),
            lowered.schema.map(|s| s.0),
            lowered.output.map(|o| o.0),
        ];
        for (i, other) in others.iter().enumerate() {
            if let Some(other) = other
                && other.path != self.file.path
                && !others[..i]
                    .iter()
                    .any(|o| o.is_some_and(|o| o.path == other.path))
            {
                self.checked.reads_also(other);
            }
        }
        let cap = self.checked.json_cap();
        // Once the rules stopped on the file, each later tool is only where a stop is said:
        // no view of it is made (a filter at the root made the JSON of each of 1.7 million
        // tools after its rule stopped, 4 s).
        let nothing = reach::Reach::default();
        let reach = match self.checked.done_with(&plan.on_tools) {
            true => &nothing,
            false => &plan.tool_reach,
        };
        let view = subject::of_tool(lowered, reach, cap);
        plan.on_tools
            .iter()
            .for_each(|rule| self.checked.run(rule, &view));
    }
}

#[cfg(test)]
mod tests;
