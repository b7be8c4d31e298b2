//! `toolc check --baseline FILE` and `--write-baseline [FILE]`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::baseline::DEFAULT_FILE_NAME;
use crate::config::Config;
use crate::fs::RepoPath;
use crate::fs::boundary::named;
use crate::fs::display_path;
use crate::pipeline::Report;

/// The baseline options of `toolc check`.
#[derive(Args)]
pub(super) struct BaselineArgs {
    /// Hide the findings recorded in this baseline (instead of `[baseline] path` of toolc.toml)
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every current finding as the baseline and exit 0 (FILE: the baseline in use, else
    /// `toolc-baseline.json`); entries of files and rules this run does not check are kept
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    write_baseline: Option<Option<PathBuf>>,
}

/// What the run does with the baseline.
pub(super) enum Mode {
    /// Check, hiding what the configured baseline (if any) records.
    Check,
    /// Check without a baseline, then record the findings in this file.
    Write(Target),
}

/// Where `--write-baseline` writes, and whether later runs will read it unasked.
pub(super) struct Target {
    path: RepoPath,
    configured: bool,
}

/// Point `config` at the baseline to use, and say whether this run writes one.
pub(super) fn configure(
    args: &BaselineArgs,
    cwd: &Path,
    config: &mut Config,
    stdin: bool,
) -> Result<Mode, String> {
    if let Some(path) = &args.baseline {
        // Missing is fine when this run is the one that writes it.
        if args.write_baseline.is_none() && !cwd.join(path).is_file() {
            return Err(format!(
                "--baseline {}: no such file (write it with `toolc check --write-baseline {0}`)",
                path.display()
            ));
        }
        let named =
            named(path, cwd).map_err(|e| format!("--baseline {} is {e}", path.display()))?;
        config.baseline = Some(named);
    }
    let Some(target) = &args.write_baseline else {
        return Ok(Mode::Check);
    };
    if stdin {
        return Err("`--write-baseline` records a whole run, not a buffer on stdin".into());
    }
    let path = match target {
        Some(path) => {
            named(path, cwd).map_err(|e| format!("--write-baseline {} is {e}", path.display()))?
        }
        None => match &config.baseline {
            Some(configured) => configured.clone(),
            None => named(Path::new(DEFAULT_FILE_NAME), cwd)
                .map_err(|e| format!("{DEFAULT_FILE_NAME} is {e}"))?,
        },
    };
    let configured = args.baseline.is_none() && config.baseline.as_ref() == Some(&path);
    if path.path().is_dir() {
        return Err(format!(
            "--write-baseline {}: a folder; name the file, e.g. `--write-baseline={DEFAULT_FILE_NAME}` (a path to check goes before the option)",
            display_path(path.path(), cwd)
        ));
    }
    // Recorded against no baseline: every finding of today goes in.
    config.baseline = None;
    Ok(Mode::Write(Target { path, configured }))
}

/// Record `report`'s findings in `target` and say so on stderr.
pub(super) fn write(
    target: &Target,
    options: &crate::pipeline::CheckOptions,
    config: &Config,
    report: &Report,
) -> ExitCode {
    match crate::pipeline::write_baseline(&target.path, options, config, report) {
        Ok(written) => {
            let kept = if written.kept > 0 {
                format!(
                    ", kept {} of files or rules this run did not check",
                    written.kept
                )
            } else {
                String::new()
            };
            let shown = display_path(target.path.path(), &options.cwd);
            let shown = crate::diagnostics::visible(&shown);
            let next = if target.configured {
                "`toolc check` now reports only new findings".to_string()
            } else {
                format!(
                    "to report only new findings, run `toolc check --baseline {shown}` or set `[baseline] path` in toolc.toml"
                )
            };
            eprintln!(
                "toolc: recorded {} in {shown}{kept}; {next}",
                plural(written.recorded, "finding"),
            );
            ExitCode::SUCCESS
        }
        Err(message) => super::usage_error(&message),
    }
}

/// The lines after the human summary when the baseline or suppression comments hid
/// findings, or each file shows fewer of a rule than usual.
pub(super) fn note(report: &Report, config: &Config, cwd: &Path) -> Option<String> {
    let baseline = config
        .baseline
        .as_ref()
        .map(|b| display_path(b.path(), cwd));
    let lines: Vec<String> = [
        report.summary.hidden_line_naming(baseline.as_deref()),
        report.summary.fewer_shown_line(),
    ]
    .into_iter()
    .flatten()
    .map(|line| format!("{}\n", crate::diagnostics::visible(&line)))
    .collect();
    (!lines.is_empty()).then(|| lines.concat())
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
