//! A diff's findings as a report: configured (`[rules]`, `[[overrides]]`, `--select`,
//! `--ignore`), checked for a missing major bump, suppressed by `# toolc: ignore` comments in
//! the working tree's files, scoped to the paths asked about, sorted, capped per rule and
//! file as `check`'s are, and counted.
//!
//! A suppression of a `BRK` rule that matches nothing is not reported: whether it matches
//! depends on what the working tree is compared with, and after the change is merged it
//! matches nothing by design.

use std::collections::HashMap;
use std::sync::Arc;

use super::{DiffOptions, Finding, Pair, ToolChange, version};
use crate::config::Setting;
use crate::config::tree::ConfigTree;
use crate::diagnostics::cap::{MAX_PER_RULE, cap_per_file};
use crate::diagnostics::{Diagnostic, Summary};
use crate::formats::FileResult;
use crate::pipeline::Report;
use crate::rules::{self, Rule, Severity};
use crate::scope::Scope;
use crate::source::SourceFile;
use crate::suppress::{self, Suppression};

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

/// Configure, check versions, suppress, scope and count the findings; `changes` gets each
/// tool's counts.
pub(super) fn assemble(
    inputs: Inputs<'_>,
    findings: Vec<Finding>,
    agents: Vec<Diagnostic>,
    pairs: &[(usize, Pair<'_>)],
    changes: &mut [ToolChange],
) -> Report {
    let mut configured: Vec<Finding> = findings
        .into_iter()
        .chain(agents.into_iter().map(|d| Finding {
            tool: usize::MAX,
            home: d.file.path.clone(),
            diagnostic: d,
        }))
        .filter_map(|mut f| {
            f.diagnostic.severity = inputs.severity(f.diagnostic.rule, &f.home)?;
            Some(f)
        })
        .collect();
    // The version check counts the breaking changes as configured, suppressed or not: a
    // suppression accepts a break, it does not make it compatible.
    // Grouped once: a change of every tool of a large file has as many findings as pairs.
    let mut breaking_of: HashMap<usize, Vec<&Diagnostic>> = HashMap::new();
    for f in configured
        .iter()
        .filter(|f| f.diagnostic.severity == Severity::Error)
    {
        breaking_of.entry(f.tool).or_default().push(&f.diagnostic);
    }
    let mut versions = Vec::new();
    for (tool, pair) in pairs {
        let breaking = breaking_of.get(tool).map_or(&[][..], Vec::as_slice);
        if let Some(mut d) = version::check(pair, breaking) {
            let home = d.file.path.clone();
            if let Some(severity) = inputs.severity(d.rule, &home) {
                d.severity = severity;
                versions.push(Finding {
                    tool: *tool,
                    home,
                    diagnostic: d,
                });
            }
        }
    }
    configured.extend(versions);

    let sources: Vec<&Arc<SourceFile>> = inputs
        .results
        .iter()
        .flat_map(|r| std::iter::once(&r.file).chain(&r.companions))
        .collect();
    // Keyed by the file itself: an old file has the same path as its new version.
    let suppressions: HashMap<*const SourceFile, Vec<Suppression>> = sources
        .iter()
        .map(|f| (Arc::as_ptr(f), suppress::scan(f)))
        .filter(|(_, s)| !s.is_empty())
        .collect();
    let mut found = Vec::new();
    for f in configured {
        if !(inputs.scope.reports_on(&f.home) || inputs.scope.reports(&f.diagnostic)) {
            continue;
        }
        if let Some(change) = changes.get_mut(f.tool) {
            let slot = match f.diagnostic.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Info => 2,
            };
            change.findings[slot] += 1;
            change.breaking |= slot == 0;
        }
        found.push(f.diagnostic);
    }
    // Capped as `check` caps a file's findings, after each tool's are counted: a change to
    // every tool of a large file shows 200 of each rule and a line for the rest.
    found.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let (suppressed, diagnostics): (Vec<Diagnostic>, Vec<Diagnostic>) =
        cap_per_file(found, MAX_PER_RULE)
            .into_iter()
            .partition(|d| {
                let line = d.file.position(d.span.start).line;
                suppressions
                    .get(&Arc::as_ptr(&d.file))
                    .is_some_and(|list| list.iter().any(|s| s.covers(d.rule, line)))
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
