//! Stage 6, baseline: the findings the baseline file records are hidden (kept for SARIF as
//! externally suppressed), and its own problems reported; and the baseline written from a
//! run's findings (`--write-baseline`).

use std::path::Path;

use super::judge::Enabled;
use super::{CheckOptions, Report};
use crate::baseline::{self, Written};
use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::fs::RepoPath;
use crate::rules::Rule;
use crate::scope::Scope;

/// Hide the findings of `diagnostics` that the configured baseline records, when the run
/// covers their file (in `scope`, and `only` when a buffer is reported on alone) and rule;
/// returns the hidden ones. The baseline's own problems join `diagnostics`, configured.
pub(super) fn apply(
    options: &CheckOptions,
    config: &Config,
    scope: &Scope,
    only: Option<&Path>,
    enabled: &Enabled<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let Some(path) = &config.baseline else {
        return Vec::new();
    };
    // An excluded file is not checked: its entries are kept, not called stale (fixed).
    let covers = |rule: &Rule, file: &Path| {
        scope.covers(file)
            && !config.excludes(file)
            && only.is_none_or(|o| o == file)
            && enabled(rule, file).is_some()
    };
    let applied = baseline::apply(path, &options.cwd, diagnostics, &covers);
    for mut d in applied.problems {
        if let Some(severity) = enabled(d.rule, &d.file.path) {
            d.configure(severity);
            diagnostics.push(d);
        }
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    applied.baselined
}

/// Write the baseline at `path` from the findings of `report`, a run of `options`: what it
/// covers is the run's scope and its enabled rules.
pub(crate) fn write_baseline(
    path: &RepoPath,
    options: &CheckOptions,
    config: &Config,
    report: &Report,
) -> Result<Written, String> {
    let scope = Scope::new(&options.paths, &options.cwd, config);
    let covers = |rule: &Rule, file: &Path| {
        scope.covers(file) && super::enabled(options, config, rule, file).is_some()
    };
    baseline::write(path, &report.diagnostics, &covers)
}
