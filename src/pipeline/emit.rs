//! What `build` adds to a check, emit: the bundles compiled from the files whose findings
//! allow it. The compatibility rules (CMP) of a check compile the same way, for the targets
//! it checks.

use std::collections::HashSet;
use std::path::PathBuf;

use super::CheckOptions;
use super::Loaded;
use crate::bundle::{self, Compiled, Target};
use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// The files with an error as configured and not suppressed (before the baseline): they
/// contribute nothing to the bundles, the check already says why.
pub(super) type ErrorFiles = HashSet<PathBuf>;

/// Compile the tools of `loaded` in the run's scope, leaving out `errors`, for `targets`.
fn compile(
    config: &Config,
    loaded: &Loaded,
    errors: &ErrorFiles,
    targets: &[Target],
) -> (Compiled, Vec<Diagnostic>) {
    let has_error = |f: &SourceFile| errors.contains(&f.path);
    let in_scope = |f: &SourceFile| loaded.scope.reports_on(&f.path);
    let root = config.project_root();
    let selection = bundle::Selection {
        has_error: &has_error,
        in_scope: &in_scope,
        root: &root,
    };
    bundle::compile(&loaded.results, &selection, targets)
}

/// The CMP findings of a check: what the targets it checks would not take (none when it
/// checks none).
pub(super) fn compatibility(
    options: &CheckOptions,
    config: &Config,
    loaded: &Loaded,
    errors: &ErrorFiles,
) -> Vec<Diagnostic> {
    let targets = super::checked_targets(options, config);
    if targets.is_empty() {
        return Vec::new();
    }
    compile(config, loaded, errors, &targets).1
}

/// The emit stage of `build`: the bundles of `loaded` (`errors` as the check found them).
pub(super) fn emit(config: &Config, loaded: &Loaded, errors: &ErrorFiles) -> Compiled {
    compile(config, loaded, errors, &[]).0
}
