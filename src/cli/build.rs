//! `toolc build`: argument handling for the bundle build; the work is in `crate::bundle`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::bundle::{self, Target};
use crate::config::{Config, ConfigError};
use crate::diagnostics::{Summary, visible, visible_path};
use crate::output::human;
use crate::pipeline::{CheckOptions, check_and_compile};
use crate::rules::Severity;

/// `toolc build` arguments.
#[derive(Args)]
pub(super) struct BuildArgs {
    /// Files or directories to build from (default: `.`)
    paths: Vec<PathBuf>,
    /// Folder to write the bundles to (default: `[build] out` in toolc.toml)
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Targets (comma-separated or repeated): openai, anthropic, mcp, gemini, bundle; default:
    /// `[build] targets` in toolc.toml, else all
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    target: Vec<String>,
    /// Write nothing; exit 1 when the bundles in DIR are not what a build would write now
    #[arg(long)]
    check: bool,
    /// Use this configuration file instead of searching for `toolc.toml`
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Never colour the output
    #[arg(long)]
    no_color: bool,
    /// Print diagnostics only: no summary line
    #[arg(short, long)]
    quiet: bool,
}

fn fail(message: &str) -> ExitCode {
    super::usage_error(message)
}

/// Run `toolc build`.
pub(super) fn run(args: BuildArgs) -> ExitCode {
    let Ok(cwd) = std::env::current_dir() else {
        return fail("cannot determine the working directory");
    };
    let color = super::rule_args::stdout_color(args.no_color);
    // Before the configuration is looked for from them: a named link out of the repository
    // must not lead to a `toolc.toml` outside it either.
    if let Err(message) = crate::fs::boundary::check_named(&args.paths, &cwd) {
        return fail(&message);
    }
    let config = match Config::discover_for(&cwd, &args.paths, args.config.as_deref()) {
        Ok(c) => c,
        Err(ConfigError::Invalid(diags)) => {
            let summary = Summary::count(1, 0, &diags);
            eprint!("{}", human::render(&diags, &summary, false, true));
            return fail("invalid configuration; nothing was built");
        }
        Err(e @ ConfigError::Io { .. }) => return fail(&e.to_string()),
    };
    // Messages name the folder as given, or relative to here when it comes from toolc.toml.
    let (out_dir, shown) = match (&args.out, &config.build_out) {
        // Named here: anywhere the user says, but never through a link out of a repository.
        (Some(out), _) => match crate::fs::boundary::named(out, &cwd) {
            Ok(dir) => (dir, out.clone()),
            Err(e) => return fail(&format!("--out {} is {e}", out.display())),
        },
        (None, Some(out)) => (
            out.clone(),
            PathBuf::from(crate::fs::display_path(out.path(), &cwd)),
        ),
        (None, None) => {
            return fail(
                "no output folder: pass `--out DIR`, or set `out` under `[build]` in toolc.toml",
            );
        }
    };
    let targets: Vec<Target> = if args.target.is_empty() {
        bundle::configured_targets(&config)
    } else {
        match Target::parse_list(&args.target) {
            Ok(t) => t,
            Err(message) => return fail(&message),
        }
    };
    let options = CheckOptions {
        paths: args.paths,
        cwd: cwd.clone(),
        // The CMP rules hold the tools to the targets being built.
        targets: Some(targets.clone()),
        ..CheckOptions::default()
    };
    let (report, compiled) = check_and_compile(&options, &config);
    // What the baseline and suppression comments hid is counted as in `check`'s summary,
    // also when nothing else is shown.
    let hidden = (!args.quiet)
        .then(|| super::baseline::note(&report, &config, &cwd))
        .flatten();
    if !report.diagnostics.is_empty() || hidden.is_some() {
        let mut text = if report.diagnostics.is_empty() {
            String::new()
        } else {
            human::render(&report.diagnostics, &report.summary, color, args.quiet)
        };
        text.push_str(hidden.as_deref().unwrap_or_default());
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
    if report.fails_at(Severity::Error) {
        let outcome = if args.check {
            format!("the bundles in {} were not compared", visible_path(&shown))
        } else {
            format!("nothing was written to {}", visible_path(&shown))
        };
        eprintln!("error: {} error(s) found; {outcome}", report.summary.errors);
        return ExitCode::from(1);
    }
    let outputs = bundle::outputs(&compiled, &targets);
    for l in &compiled.left_out {
        eprintln!(
            "note: `{}` ({}) is not bundled: {}",
            visible(&l.name),
            visible(&l.path),
            l.reason
        );
    }
    if args.check {
        let stale = bundle::stale(&out_dir, &outputs, &compiled.agent_ids);
        if stale.is_current() {
            if !args.quiet {
                eprintln!(
                    "{} bundle file(s) in {} are up to date",
                    outputs.len(),
                    visible_path(&shown)
                );
            }
            return ExitCode::SUCCESS;
        }
        for path in &stale.differ {
            eprintln!("out of date: {}", visible_path(&shown.join(path)));
        }
        for path in &stale.extra {
            eprintln!(
                "no longer built: {} (its agent is gone)",
                visible_path(&shown.join(path))
            );
        }
        eprintln!(
            "error: the bundles in {} are not what `toolc build` writes now; run it and commit the result",
            visible_path(&shown)
        );
        return ExitCode::from(1);
    }
    match bundle::write_all(&out_dir, &outputs, &compiled.agent_ids) {
        Ok(removed) => {
            for path in removed {
                eprintln!(
                    "removed {}: its agent is gone",
                    visible_path(&shown.join(path))
                );
            }
        }
        Err(e) => return fail(&format!("cannot write to {}: {e}", visible_path(&shown))),
    }
    if !args.quiet {
        eprintln!(
            "wrote {} file(s) to {} ({} tool(s), {} agent(s))",
            outputs.len(),
            visible_path(&shown),
            compiled.tool_count(),
            compiled.agents.len()
        );
    }
    ExitCode::SUCCESS
}
