//! A diff's findings as a report: configured (`[rules]`, `[[overrides]]`, `--select`,
//! `--ignore`), checked for a missing major bump, suppressed by `# toolc: ignore` comments in
//! the working tree's files, scoped to the paths asked about, sorted, capped per rule and
//! file as `check`'s are, and counted.
//!
//! A suppression of a `BRK` rule that matches nothing is not reported: whether it matches
//! depends on what the working tree is compared with, and after the change is merged it
//! matches nothing by design.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::list::FindingCounts;
use super::{DiffOptions, Finding, Pair, version};
use crate::config::Setting;
use crate::config::tree::ConfigTree;
use crate::diagnostics::first::First;
use crate::diagnostics::{Diagnostic, Summary};
use crate::formats::FileResult;
use crate::pipeline::Report;
use crate::rules::{self, Rule, Severity};
use crate::scope::Scope;
use crate::source::{SourceFile, Span};

/// What the report is assembled against.
pub(super) struct Inputs<'a> {
    /// The diff's options (select, ignore).
    pub options: &'a DiffOptions,
    /// The configuration of each file (the nearest `toolc.toml` above it).
    pub configs: &'a ConfigTree,
    /// What is reported on.
    pub scope: &'a Scope,
    /// The working tree's files.
    pub results: &'a [FileResult],
    /// How many tools the working tree has.
    pub tools: usize,
}

impl Inputs<'_> {
    /// The severity of `rule` on a file at `path`, or `None` when it is off.
    fn severity(&self, rule: &Rule, path: &std::path::Path) -> Option<Severity> {
        let selected = self.options.select.is_empty()
            || self
                .options
                .select
                .iter()
                .any(|s| rules::selector_matches(s, rule));
        let ignored = self
            .options
            .ignore
            .iter()
            .any(|s| rules::selector_matches(s, rule));
        let config = self.configs.for_path(path);
        if !selected
            || ignored
            || !crate::pipeline::preview_runs(
                self.options.preview,
                &self.options.select,
                config,
                rule,
                path,
            )
        {
            return None;
        }
        match config.setting(rule, path) {
            Setting::Off => None,
            Setting::Level(s) => Some(s),
        }
    }
}

/// The findings of a diff as they are found: configured, checked for a missing major bump,
/// scoped, counted on their tool's change, and capped per rule and file as `check` caps
/// them (a change to every one of 300,000 tools built a finding for each and held them all).
pub(super) struct Collector<'i> {
    inputs: Inputs<'i>,
    /// The first findings of each file and rule, by path, then code.
    kept: HashMap<std::path::PathBuf, HashMap<&'static str, First>>,
}

impl<'i> Collector<'i> {
    /// An empty collector for a report against `inputs`.
    pub(super) fn new(inputs: Inputs<'i>) -> Self {
        Collector {
            inputs,
            kept: HashMap::new(),
        }
    }

    /// Whether a finding of `rule` at `span` of the file at `path` would be shown, not only
    /// counted: one the rule's first findings of the file leave out.
    pub(super) fn shows(&self, rule: &Rule, path: &std::path::Path, span: Span) -> bool {
        let first = self
            .kept
            .get(path)
            .and_then(|by_rule| by_rule.get(rule.code));
        first.is_none_or(|f| f.wants(span))
    }

    /// Add the findings of one tool (`pair`, when both versions are there, for the version
    /// check); `counts` gets them counted at their change's index (when changes are listed).
    pub(super) fn add(
        &mut self,
        found: Vec<Finding>,
        pair: Option<(usize, &Pair<'_>)>,
        counts: &mut [FindingCounts],
    ) {
        let mut configured: Vec<Finding> = found
            .into_iter()
            .filter_map(|mut f| {
                f.diagnostic.severity = self.inputs.severity(f.diagnostic.rule, &f.home)?;
                Some(f)
            })
            .collect();
        // The version check counts the breaking changes as configured, suppressed or not: a
        // suppression accepts a break, it does not make it compatible.
        if let Some((tool, pair)) = pair {
            let breaking: Vec<&Diagnostic> = configured
                .iter()
                .filter(|f| f.diagnostic.severity == Severity::Error)
                .map(|f| &f.diagnostic)
                .collect();
            if let Some(mut d) = version::check(pair, &breaking) {
                let home = d.file.path.clone();
                if let Some(severity) = self.inputs.severity(d.rule, &home) {
                    d.severity = severity;
                    configured.push(Finding {
                        tool,
                        home,
                        diagnostic: d,
                    });
                }
            }
        }
        for f in configured {
            if !(self.inputs.scope.reports_on(&f.home) || self.inputs.scope.reports(&f.diagnostic))
            {
                continue;
            }
            if let Some(change) = counts.get_mut(f.tool) {
                let slot = match f.diagnostic.severity {
                    Severity::Error => 0,
                    Severity::Warning => 1,
                    Severity::Info => 2,
                };
                change[slot] = change[slot].saturating_add(1);
            }
            let d = f.diagnostic;
            // The path is copied once a file, not once a finding.
            if !self.kept.contains_key(&d.file.path) {
                self.kept.insert(d.file.path.clone(), HashMap::new());
            }
            if let Some(by_rule) = self.kept.get_mut(&d.file.path) {
                by_rule.entry(d.rule.code).or_default().push(d);
            }
        }
    }

    /// The report: what was kept, sorted, and split by the suppression comments of the
    /// working tree's files.
    pub(super) fn report(self) -> Report {
        let inputs = self.inputs;
        let mut found: Vec<Diagnostic> = self
            .kept
            .into_values()
            .flat_map(HashMap::into_values)
            .flat_map(First::into_vec)
            .collect();
        found.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        // Known by the file itself: an old file has the same path as its new version, and
        // only the working tree's comments suppress.
        let sources: HashSet<*const SourceFile> = inputs
            .results
            .iter()
            .flat_map(|r| std::iter::once(&r.file).chain(&r.companions))
            .map(Arc::as_ptr)
            .collect();
        // The comments each file kept when it let its text go: a file without a finding is
        // not read back for them.
        let (suppressed, diagnostics): (Vec<Diagnostic>, Vec<Diagnostic>) =
            found.into_iter().partition(|d| {
                sources.contains(&Arc::as_ptr(&d.file)) && {
                    let line = d.file.position(d.span.start).line;
                    d.file.suppressions().iter().any(|s| s.covers(d.rule, line))
                }
            });
        let mut files: Vec<Arc<SourceFile>> = inputs
            .results
            .iter()
            .filter(|r| inputs.scope.reports_on(&r.file.path))
            .map(|r| Arc::clone(&r.file))
            .collect();
        files.sort_by(|a, b| a.display().cmp(b.display()));
        let summary = Summary::count(files.len(), inputs.tools, &diagnostics);
        Report {
            diagnostics,
            suppressed,
            // A diff compares two versions: no baseline of today's findings applies to it.
            baselined: Vec::new(),
            summary,
            files,
        }
    }
}
