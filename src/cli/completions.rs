//! `toolc completions SHELL`: a completion script for the shell, generated from the same
//! argument definitions the binary parses, so it never falls behind.

use std::process::ExitCode;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

/// `toolc completions` arguments.
#[derive(Args)]
pub(super) struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish
    shell: Shell,
}

/// Print the completion script for `args.shell` on stdout.
pub(super) fn run(args: &CompletionsArgs) -> ExitCode {
    let mut command = super::Cli::command();
    clap_complete::generate(args.shell, &mut command, "toolc", &mut std::io::stdout());
    ExitCode::SUCCESS
}
