//! A run that checks nothing fails: a mistyped path, an empty folder or a file no format
//! reads must not show green in CI.

use std::path::PathBuf;

use clap::Args;

use crate::pipeline::Report;

/// The `--allow-empty` option of `toolc check`.
#[derive(Args)]
pub(super) struct EmptyArgs {
    /// Exit 0 when no tool definition is found (the pre-commit hook passes it: a commit may
    /// touch none); without it such a run is an error (exit 2)
    #[arg(long)]
    allow_empty: bool,
}

/// The error to print when `report` read no definition and that is not allowed (two
/// lines; the paths in it shown, not obeyed).
pub(super) fn refusal(args: &EmptyArgs, paths: &[PathBuf], report: &Report) -> Option<String> {
    if args.allow_empty || !report.files.is_empty() {
        return None;
    }
    let place = if paths.is_empty() {
        "in `.`".to_string()
    } else {
        let names: Vec<String> = paths
            .iter()
            .map(|p| format!("`{}`", crate::diagnostics::visible_path(p)))
            .collect();
        format!("in {}", names.join(", "))
    };
    // Files at format paths that were left alone explain an empty run better than the list.
    let not_claimed = match report.summary.not_claimed {
        0 => String::new(),
        1 => " (1 file at a format path was not claimed: its content is another tool's)".into(),
        n => format!(
            " ({n} files at format paths were not claimed: their content is another tool's)"
        ),
    };
    Some(format!(
        "no tool definition found {place}{not_claimed}: nothing was checked\n\
         help: toolc reads `.dojops/tools/<name>/tool.yaml`, `*.dops`, `tools.json`, `*.tool.md`, \
         `*.agent.md`, `.cycod/tools/*.yaml`, `TR-*.md`, `SKILL.md`, `server.json` and MCP client \
         configs such as `.mcp.json` (docs/formats/); check the path, or \
         pass `--allow-empty` when a run with nothing to check is fine"
    ))
}
