//! Paths named on the command line (or with `--stdin-filename`) that `[discovery] exclude` or
//! `--exclude` keep out: toolc never reads them, and says so instead of "no tool definition
//! found". As ruff does for an excluded file it is asked about (`--force-exclude`), this is a
//! warning and not an error: the run exits 0 when nothing else was named.

use std::path::{Path, PathBuf};

use crate::config::Config;

/// Which of `paths` (relative to `cwd` or absolute) the configuration excludes.
pub(super) fn named(config: &Config, cwd: &Path, paths: &[PathBuf]) -> Vec<PathBuf> {
    paths
        .iter()
        .filter(|p| config.excludes(&crate::discover::normalize(&cwd.join(p))))
        .cloned()
        .collect()
}

/// The warning for an excluded path.
pub(super) fn warning(path: &Path) -> String {
    format!(
        "warning: `{}` is excluded (`[discovery] exclude` in toolc.toml, or `--exclude`): it was not checked",
        crate::diagnostics::visible_path(path)
    )
}
