//! `toolc server`: the language server on stdin/stdout (the editor starts it).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

/// Arguments of `toolc server`.
#[derive(Args)]
pub(super) struct ServerArgs {
    /// Use this configuration file instead of searching for `toolc.toml`
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Speak the protocol on stdin/stdout (the default and only transport; accepted because
    /// editor clients pass it)
    #[arg(long)]
    stdio: bool,
}

/// Serve until the client says `exit`: 0 after `shutdown`, 1 otherwise.
pub(super) fn run(args: ServerArgs) -> ExitCode {
    let _ = args.stdio;
    let Ok(cwd) = std::env::current_dir() else {
        return super::usage_error("cannot determine the working directory");
    };
    // Named on the command line: a committed link out of the repository is not followed.
    let config = match args
        .config
        .map(|c| crate::fs::boundary::named(&c, &cwd).map_err(|e| (c, e)))
    {
        Some(Ok(named)) => Some(named.path().to_path_buf()),
        Some(Err((c, e))) => {
            return super::usage_error(&format!("--config {} is {e}", c.display()));
        }
        None => None,
    };
    let options = crate::server::Options {
        config,
        fallback_root: cwd,
    };
    match crate::server::run_stdio(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // stdout belongs to the protocol: problems go to stderr, which editors log.
            eprintln!("toolc server: {e}");
            ExitCode::from(1)
        }
    }
}
