//! `toolc clean`: remove the repository's cache.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::config::Config;

#[derive(Args)]
pub(super) struct CleanArgs {
    /// A path in the repository (default: `.`); its configuration says where the root is
    path: Option<PathBuf>,
    /// Use this configuration file instead of searching for `toolc.toml`
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// Remove `.toolc_cache/` at the root of the repository `args.path` is in.
pub(super) fn run(args: &CleanArgs) -> ExitCode {
    let Ok(cwd) = std::env::current_dir() else {
        return super::usage_error("cannot determine the working directory");
    };
    let paths: Vec<PathBuf> = args.path.iter().cloned().collect();
    if let Err(message) = crate::fs::boundary::check_named(&paths, &cwd) {
        return super::usage_error(&message);
    }
    // A configuration that does not parse still says where the repository is.
    let root = match Config::discover_for(&cwd, &paths, args.config.as_deref()) {
        Ok(config) => crate::cache::root_for(&config, &cwd),
        Err(_) => crate::fs::project::repository_of(&cwd),
    };
    match crate::cache::clean(&root) {
        Ok(Some(dir)) => {
            let shown = crate::fs::display_path(&dir, &cwd);
            eprintln!("removed {}", crate::diagnostics::visible(&shown));
            ExitCode::SUCCESS
        }
        Ok(None) => {
            let shown = crate::fs::display_path(&root.join(crate::cache::DIR), &cwd);
            eprintln!("no cache at {}", crate::diagnostics::visible(&shown));
            ExitCode::SUCCESS
        }
        Err(e) => super::usage_error(&format!("cannot remove the cache: {e}")),
    }
}
