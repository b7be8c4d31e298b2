//! The flags `check` and `diff` share: which configuration and rules, and when to fail.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;

use crate::rules;

/// Configuration file, rule selection and the warning threshold.
#[derive(Args)]
pub(super) struct RuleArgs {
    /// Use this configuration file instead of searching for `toolc.toml`
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Only run these rules (codes, names or code prefixes; comma-separated or repeated)
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Vec<String>,
    /// Never run these rules (codes, names or code prefixes)
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,
    /// Exit 1 on warnings too
    #[arg(long)]
    pub deny_warnings: bool,
    /// Run preview rules too (heuristics not yet proven precise; `preview = true` in toolc.toml)
    #[arg(long)]
    pub preview: bool,
}

impl RuleArgs {
    /// The usage error for the first `--select`/`--ignore` value that names no rule.
    pub(super) fn unknown_selector(&self) -> Option<String> {
        let selector = self
            .select
            .iter()
            .chain(&self.ignore)
            .find(|s| !rules::selector_is_known(s))?;
        Some(format!(
            "{} (see `toolc rules`)",
            rules::unknown_selector(selector)
        ))
    }
}

/// Whether to colour what goes to stdout: never with `--no-color` or `NO_COLOR`, and only
/// on a terminal.
pub(super) fn stdout_color(no_color: bool) -> bool {
    !no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}
