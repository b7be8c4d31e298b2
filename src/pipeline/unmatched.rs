//! TLC007: a custom rule whose `given` selected nothing in any file it read. Each loaded
//! file says which rules selected something in it (kept in the cache with its findings), so
//! a run from the cache warns exactly as a fresh one. And TLC008 only for a rule the run
//! shows.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::CheckOptions;
use crate::config::tree::ConfigTree;
use crate::custom::rule::{CustomRule, Plan};
use crate::diagnostics::Diagnostic;
use crate::formats::FileResult;
use crate::rules::syntax::CUSTOM_RULE_SELECTS_NOTHING;

/// What the run saw of one rule.
struct Seen {
    rule: Arc<CustomRule>,
    /// The files it read.
    read: usize,
    /// It selected something in one of them.
    matched: bool,
}

/// What the run saw of one plan: the files it was the plan of, and the codes of the rules
/// that selected something in one of them.
struct PlanSeen {
    plan: Arc<Plan>,
    read: usize,
    /// Looked up for each code of each file, and for each rule: a list took the files times
    /// the rules squared (9,000 rules over 200 files: 13 s).
    matched: HashSet<&'static str>,
}

/// True when `given` selects wherever something appears (a descendant `..`, a filter
/// `?`): a rule like "no `latest` image anywhere" selects nothing where there is none, and
/// that is no mistake.
fn conditional(given: &str) -> bool {
    given.contains("..") || given.contains('?')
}

/// One TLC007 warning, at its `given`, for each custom rule that read files among `results`
/// and selected nothing in any of them. A rule that read no file (no file of its formats)
/// is not reported: a shared rule set may name formats a repository does not have; nor is
/// one whose `given` is [`conditional`].
pub(super) fn selected_nothing(configs: &ConfigTree, results: &[FileResult]) -> Vec<Diagnostic> {
    if !configs.has_custom_rules() {
        return Vec::new();
    }
    // Files are counted by plan (one configuration's rules on one format) first: a
    // repository has a few plans and thousands of files.
    let mut by_plan: HashMap<*const Plan, PlanSeen> = HashMap::new();
    for r in results {
        let plan = configs.for_path(&r.file.path).custom.plan(r.file.format);
        let entry = by_plan
            .entry(Arc::as_ptr(&plan))
            .or_insert_with(|| PlanSeen {
                plan,
                read: 0,
                matched: HashSet::new(),
            });
        entry.read += 1;
        entry.matched.extend(r.custom_matched.iter().copied());
    }
    // By the rule itself: two configurations may declare different rules with one code.
    let mut seen: HashMap<*const CustomRule, Seen> = HashMap::new();
    for p in by_plan.values() {
        for rule in p.plan.on_file.iter().chain(&p.plan.on_tools) {
            let entry = seen.entry(Arc::as_ptr(rule)).or_insert_with(|| Seen {
                rule: Arc::clone(rule),
                read: 0,
                matched: false,
            });
            entry.read += p.read;
            entry.matched |= p.matched.contains(&rule.rule.code);
        }
    }
    let mut out: Vec<Diagnostic> = seen
        .into_values()
        .filter(|s| !s.matched && !conditional(&s.rule.given_at.text))
        .map(|Seen { rule, read, .. }| {
            let at = &rule.given_at;
            let files = if read == 1 { "file" } else { "files" };
            Diagnostic::new(
                &CUSTOM_RULE_SELECTS_NOTHING,
                &at.file,
                at.span,
                format!(
                    "custom rule {}: `given = \"{}\"` selected nothing in the {read} {files} it read",
                    rule.rule.code, at.text
                ),
            )
            .label("selects nothing")
            .note(format!(
                "with `subject = \"{}\"` the rule reads {}",
                rule.subject.as_str(),
                match rule.subject {
                    crate::custom::parts::SubjectKind::Tool => "toolc's view of each tool: `name`, `description`, `parameters`, `commands`, … (not the file's own keys)",
                    crate::custom::parts::SubjectKind::File => "each file's own tree (the front matter of a Markdown file), with its own keys",
                }
            ))
            .help("check the JSONPath against the subject (docs/custom-rules.md lists the fields of each), or its `formats`")
        })
        .collect();
    out.sort_by(|a, b| (&a.file.path, a.span.start).cmp(&(&b.file.path, b.span.start)));
    out
}

/// False for a TLC008 finding on a custom rule the run does not show on its file
/// (`--ignore`, `--select`, configured `off`): custom rules run whatever the selection (their
/// findings are kept in the cache for every run), and only what they found is dropped; that
/// such a rule stopped is no news either.
pub(super) fn stopped_rule_shown(
    options: &CheckOptions,
    configs: &ConfigTree,
    d: &Diagnostic,
) -> bool {
    crate::custom::stopped_rule(d.rule.code, &d.message).is_none_or(|rule| {
        super::enabled(options, configs.for_path(&d.file.path), rule, &d.file.path).is_some()
    })
}
