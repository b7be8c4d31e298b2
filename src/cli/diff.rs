//! `toolc diff`: argument handling for the breaking-change report; the work is in
//! `crate::change`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::rule_args::{RuleArgs, stdout_color};
use super::{parse_targets, usage_error};
use crate::change::{self, DiffOptions};
use crate::config::{Config, ConfigError};
use crate::diagnostics::Summary;
use crate::output::{OutputFormat, human};
use crate::rules::Severity;

/// How `toolc diff` prints.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum DiffFormat {
    Human,
    Json,
    /// GitHub Actions annotations
    Github,
    /// SARIF 2.1.0
    Sarif,
    /// JUnit XML
    Junit,
    /// A Markdown table (with `--stat`), for a pull-request comment or job summary
    Markdown,
}

impl DiffFormat {
    fn output(self) -> Option<OutputFormat> {
        match self {
            DiffFormat::Human => Some(OutputFormat::Human),
            DiffFormat::Json => Some(OutputFormat::Json),
            DiffFormat::Github => Some(OutputFormat::Github),
            DiffFormat::Sarif => Some(OutputFormat::Sarif),
            DiffFormat::Junit => Some(OutputFormat::Junit),
            DiffFormat::Markdown => None,
        }
    }
}

/// `toolc diff` arguments.
#[derive(Args)]
pub(super) struct DiffArgs {
    /// Files or directories to report on (default: `.`)
    paths: Vec<PathBuf>,
    /// What to compare with: a git revision (branch, tag, commit, `HEAD~1`, `REF...`) or a
    /// folder written as a path (`./old`, `../v1`); default: the merge base with the default
    /// branch, else `HEAD`
    #[arg(long, value_name = "REF|DIR")]
    against: Option<String>,
    /// Print one line per changed tool (added, removed, changed; breaking or not) instead of
    /// the findings
    #[arg(long)]
    stat: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    format: DiffFormat,
    /// Also write FORMAT to PATH (repeatable), e.g. `sarif:toolc.sarif`; `markdown:PATH`
    /// writes the `--stat` table
    #[arg(long, value_name = "FORMAT:PATH")]
    output_format: Vec<String>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Never colour the output
    #[arg(long)]
    no_color: bool,
    /// Print findings only: no summary line
    #[arg(short, long)]
    quiet: bool,
}

/// Run `toolc diff`.
pub(super) fn run(args: DiffArgs) -> ExitCode {
    let Ok(cwd) = std::env::current_dir() else {
        return usage_error("cannot determine the working directory");
    };
    if args.format == DiffFormat::Markdown && !args.stat {
        return usage_error("`--format markdown` prints the `--stat` table: add `--stat`");
    }
    if args.stat
        && !matches!(
            args.format,
            DiffFormat::Human | DiffFormat::Json | DiffFormat::Markdown
        )
    {
        return usage_error(
            "`--stat` prints a table (`human`, `markdown`) or JSON; write other formats with `--output-format FORMAT:PATH`",
        );
    }
    let (markdown_paths, others): (Vec<String>, Vec<String>) = args
        .output_format
        .iter()
        .cloned()
        .partition(|v| v.starts_with("markdown:"));
    let targets = match parse_targets(&others) {
        Ok(t) => t,
        Err(message) => return usage_error(&message),
    };
    // Before the configuration is looked for from them: a named link out of the repository
    // must not lead to a `toolc.toml` outside it either.
    if let Err(message) = crate::fs::boundary::check_named(&args.paths, &cwd) {
        return usage_error(&message);
    }
    let config = match Config::discover_for(&cwd, &args.paths, args.rules.config.as_deref()) {
        Ok(c) => c,
        Err(ConfigError::Invalid(diags)) => {
            let summary = Summary::count(1, 0, &diags);
            eprint!("{}", human::render(&diags, &summary, false, true));
            return usage_error("invalid configuration; nothing was compared");
        }
        Err(e @ ConfigError::Io { .. }) => return usage_error(&e.to_string()),
    };
    // After the configuration is read, as `check` does: `--select ORG` may name its custom
    // rules.
    if let Some(message) = args.rules.unknown_selector() {
        return usage_error(&message);
    }
    let options = DiffOptions {
        paths: args.paths,
        cwd: cwd.clone(),
        against: args.against,
        select: args.rules.select,
        ignore: args.rules.ignore,
        preview: args.rules.preview,
        // Only `--stat` and its Markdown list each tool.
        summary_only: !args.stat && markdown_paths.is_empty(),
    };
    let outcome = match change::diff(&options, &config) {
        Ok(o) => o,
        Err(e) => return usage_error(&e.to_string()),
    };
    let color = stdout_color(args.no_color);
    match (args.stat, args.format.output()) {
        (true, _) => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let stat = match args.format {
                DiffFormat::Json => change::output::json,
                DiffFormat::Markdown => change::output::markdown,
                _ => change::output::human,
            };
            // A closed pipe (`toolc diff --stat | head`) is not an error worth a panic.
            let _ = stat(&outcome, &mut out).and_then(|()| out.flush());
        }
        (false, Some(format)) => {
            // Written as it is made, as `check`'s findings are.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            // A closed pipe (`toolc diff | head`) is not an error worth a panic.
            let _ = crate::output::write(
                format,
                &super::findings(&outcome.report),
                &cwd,
                color,
                args.quiet,
                &mut out,
            );
            if format == OutputFormat::Human && !args.quiet {
                let _ = writeln!(out, "Compared with {}.", outcome.base);
            }
            let _ = out.flush();
        }
        (false, None) => {}
    }
    for (format, path) in &targets {
        let written = crate::fs::write_output_with(path, &cwd, |out| {
            crate::output::write(
                *format,
                &super::findings(&outcome.report),
                &cwd,
                false,
                false,
                out,
            )
        });
        if let Err(e) = written {
            return usage_error(&format!("cannot write {}: {e}", path.display()));
        }
    }
    for value in &markdown_paths {
        let path = value.trim_start_matches("markdown:");
        if path.is_empty() {
            return usage_error(&format!(
                "`--output-format {value}`: expected markdown:PATH"
            ));
        }
        let written = crate::fs::write_output_with(Path::new(path), &cwd, |out| {
            change::output::markdown(&outcome, out)
        });
        if let Err(e) = written {
            return usage_error(&format!("cannot write {path}: {e}"));
        }
    }
    let threshold = if args.rules.deny_warnings {
        Severity::Warning
    } else {
        Severity::Error
    };
    if outcome.report.fails_at(threshold) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
