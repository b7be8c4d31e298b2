//! The `toolc` command line. Everything but argument handling lives in the library.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use toolc::config::{Config, ConfigError};
use toolc::diagnostics::{Summary, human, json};
use toolc::rules::{self, Severity};
use toolc::{CheckOptions, check};

#[derive(Parser)]
#[command(
    name = "toolc",
    version,
    about = "Compiler and linter for LLM tool definitions"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate and lint tool definitions (default path: `.`)
    Check(CheckArgs),
    /// List every rule: code, name, default severity, formats
    Rules(RulesArgs),
    /// Print a rule's documentation page
    Explain {
        /// A rule code (`DOJ003`) or name (`invalid-tool-name`)
        rule: String,
    },
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Human,
    Json,
}

#[derive(Args)]
struct CheckArgs {
    /// Files or directories to check
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Use this configuration file instead of searching for `toolc.toml`
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Only run these rules (codes, names or code prefixes; comma-separated or repeated)
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    select: Vec<String>,
    /// Never run these rules (codes, names or code prefixes)
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    ignore: Vec<String>,
    /// Exit 1 on warnings too
    #[arg(long)]
    deny_warnings: bool,
    /// Never colour the output
    #[arg(long)]
    no_color: bool,
    /// Print diagnostics only: no summary line
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Args)]
struct RulesArgs {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => run_check(args),
        Command::Rules(args) => run_rules(&args),
        Command::Explain { rule } => run_explain(&rule),
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn print(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    // A closed pipe (`toolc check | head`) is not an error worth a panic.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    ExitCode::SUCCESS
}

fn run_check(args: CheckArgs) -> ExitCode {
    let Ok(cwd) = std::env::current_dir() else {
        return usage_error("cannot determine the working directory");
    };
    for selector in args.select.iter().chain(&args.ignore) {
        if !rules::selector_is_known(selector) {
            return usage_error(&format!(
                "`{selector}` is not a rule code, rule name or code prefix (see `toolc rules`)"
            ));
        }
    }
    let color =
        !args.no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
    let config = match Config::discover(&cwd, args.config.as_deref()) {
        Ok(c) => c,
        Err(ConfigError::Invalid(diags)) => {
            let summary = Summary::count(1, 0, &diags);
            match args.format {
                Format::Json => print(&json::render(&diags, &summary)),
                Format::Human => {
                    eprint!(
                        "{}",
                        human::render(
                            &diags,
                            &summary,
                            color && std::io::stderr().is_terminal(),
                            true
                        )
                    );
                    eprintln!("error: invalid configuration; nothing was checked");
                    ExitCode::SUCCESS
                }
            };
            return ExitCode::from(2);
        }
        Err(e @ ConfigError::Io { .. }) => return usage_error(&e.to_string()),
    };
    // A path that does not exist is a usage error, not a finding about the repository.
    if let Some(missing) = args.paths.iter().find(|p| !cwd.join(p).exists()) {
        return usage_error(&format!("{}: no such file or directory", missing.display()));
    }
    let options = CheckOptions {
        paths: args.paths,
        cwd,
        select: args.select,
        ignore: args.ignore,
    };
    let report = check(&options, &config);
    let text = match args.format {
        Format::Human => human::render(&report.diagnostics, &report.summary, color, args.quiet),
        Format::Json => json::render(&report.diagnostics, &report.summary),
    };
    print(&text);
    let threshold = if args.deny_warnings {
        Severity::Warning
    } else {
        Severity::Error
    };
    if report.fails_at(threshold) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run_rules(args: &RulesArgs) -> ExitCode {
    let all = rules::all();
    match args.format {
        Format::Json => {
            let list: Vec<_> = all
                .iter()
                .map(|r| serde_json::json!({"code": r.code, "name": r.name, "severity": r.severity.as_str(), "formats": r.formats, "summary": r.summary}))
                .collect();
            let mut text = serde_json::to_string_pretty(&list).unwrap_or_default();
            text.push('\n');
            print(&text)
        }
        Format::Human => {
            let name_width = all.iter().map(|r| r.name.len()).max().unwrap_or(0);
            let mut text = String::new();
            for r in &all {
                let formats = if r.formats.is_empty() {
                    "all".to_string()
                } else {
                    r.formats.join(",")
                };
                text.push_str(&format!(
                    "{}  {:<name_width$}  {:<7}  {:<40}  {}\n",
                    r.code,
                    r.name,
                    r.severity.as_str(),
                    formats,
                    r.summary
                ));
            }
            print(&text)
        }
    }
}

fn run_explain(query: &str) -> ExitCode {
    let Some(rule) = rules::lookup(query) else {
        let hint = toolc::diagnostics::did_you_mean(
            query,
            rules::all().iter().flat_map(|r| [r.code, r.name]),
        );
        let extra = hint
            .map(|h| format!("; did you mean `{h}`?"))
            .unwrap_or_default();
        return usage_error(&format!("no rule `{query}`{extra} (see `toolc rules`)"));
    };
    match rules::page(rule) {
        Some(page) => print(page),
        None => usage_error(&format!("rule {} has no documentation page", rule.code)),
    }
}
