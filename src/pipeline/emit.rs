//! What `build` adds to a check, emit: the bundles compiled from the files whose findings
//! allow it. The compatibility rules (CMP) of a check come from the same compilation, for
//! the targets it checks: a build compiles once.

use std::collections::HashSet;
use std::path::PathBuf;

use super::CheckOptions;
use super::Loaded;
use crate::bundle::{self, Compiled};
use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// The files with an error as configured and not suppressed (before the baseline): they
/// contribute nothing to the bundles, the check already says why.
pub(super) type ErrorFiles = HashSet<PathBuf>;

/// Compile the tools of `loaded` in the run's scope once, leaving out `errors`: the CMP
/// findings of the targets the check checks (none when it checks none), and the bundles
/// when `bundles` (the emit stage of `build`). Nothing is compiled when neither is asked.
pub(super) fn compile(
    options: &CheckOptions,
    config: &Config,
    loaded: &Loaded,
    errors: &ErrorFiles,
    bundles: bool,
) -> (Compiled, Vec<Diagnostic>) {
    let targets = super::checked_targets(options, config);
    if targets.is_empty() && !bundles {
        return (Compiled::default(), Vec::new());
    }
    let has_error = |f: &SourceFile| errors.contains(&f.path);
    let in_scope = |f: &SourceFile| loaded.scope.reports_on(&f.path);
    let root = config.project_root();
    let selection = bundle::Selection {
        has_error: &has_error,
        in_scope: &in_scope,
        root: &root,
    };
    let (compiled, findings) = bundle::compile(&loaded.results, &selection, &targets);
    match bundles {
        true => (compiled, findings),
        false => (Compiled::default(), findings),
    }
}
