//! `toolc lock`: write `toolc.lock`; the work is in `crate::lock`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::usage_error;
use crate::config::{Config, ConfigError};
use crate::diagnostics::Summary;
use crate::output::human;

/// `toolc lock` arguments.
#[derive(Args)]
pub(super) struct LockArgs {
    /// Use this configuration file instead of searching for `toolc.toml`
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Print nothing
    #[arg(short, long)]
    quiet: bool,
}

/// Run `toolc lock`: every tool of the repository, locked as it is now.
pub(super) fn run(args: LockArgs) -> ExitCode {
    let Ok(cwd) = std::env::current_dir() else {
        return usage_error("cannot determine the working directory");
    };
    let config = match Config::discover(&cwd, args.config.as_deref()) {
        Ok(c) => c,
        Err(ConfigError::Invalid(diags)) => {
            let summary = Summary::count(1, 0, &diags);
            eprint!("{}", human::render(&diags, &summary, false, true));
            return usage_error("invalid configuration; nothing was locked");
        }
        Err(e @ ConfigError::Io { .. }) => return usage_error(&e.to_string()),
    };
    match crate::lock::lock(&config) {
        Ok(written) => {
            if !args.quiet {
                let path = crate::fs::display_path(&written.path, &cwd);
                let path = crate::diagnostics::visible(&path);
                let counts = format!(
                    "{} tool(s), {} skill(s), {} MCP server(s)",
                    written.tools, written.skills, written.servers
                );
                if written.changed {
                    eprintln!("wrote {path} ({counts})");
                } else {
                    eprintln!("{path} is up to date ({counts})");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(&format!(
            "cannot write {}: {e}",
            crate::lock::root(&config)
                .join(crate::lock::FILE_NAME)
                .display()
        )),
    }
}
