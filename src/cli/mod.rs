//! The `toolc` command line: argument handling only; the work is in the library.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

mod baseline;
mod build;
mod clean;
mod completions;
mod diff;
mod empty;
mod excluded;
mod explain;
pub(crate) mod fix;
mod lock;
mod patch;
mod rule_args;
mod rule_list;
mod server;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::{Config, ConfigError};
use crate::diagnostics::Summary;
use crate::output::{OutputFormat, human, json, statistics};
use crate::pipeline::{Buffer, CheckOptions, Inputs, Progress, Report, check_with};
use crate::rules::Severity;

#[derive(Parser)]
#[command(
    name = "toolc",
    version = env!("TOOLC_VERSION"),
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
    /// Check, then write agent-ready bundles (OpenAI, Anthropic, MCP, Gemini, toolc)
    Build(build::BuildArgs),
    /// List the rules (all, a family such as `SEC`, or those of one format): code, name,
    /// default severity, summary, formats
    Rules(rule_list::RulesArgs),
    /// Run the language server on stdin/stdout, for editors
    Server(server::ServerArgs),
    /// Report breaking changes between a git revision (or a folder) and the working tree
    Diff(diff::DiffArgs),
    /// Write `toolc.lock`: every tool's definition as reviewed (`check --locked` reports drift)
    Lock(lock::LockArgs),
    /// Print a rule's documentation page
    Explain {
        /// A rule code (`DOJ003`) or name (`invalid-tool-name`)
        rule: String,
    },
    /// Print a shell completion script (e.g. `toolc completions bash > /etc/bash_completion.d/toolc`)
    Completions(completions::CompletionsArgs),
    /// Remove the cache (`.toolc_cache/` at the repository root)
    Clean(clean::CleanArgs),
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Human,
    Json,
    /// GitHub Actions annotations
    Github,
    /// SARIF 2.1.0
    Sarif,
    /// JUnit XML
    Junit,
    /// GitLab Code Quality report
    Gitlab,
    /// Reviewdog Diagnostic Format (rdjson)
    Rdjson,
    /// Markdown summary for a pull-request comment
    Markdown,
}

impl Format {
    fn output(self) -> OutputFormat {
        match self {
            Format::Human => OutputFormat::Human,
            Format::Json => OutputFormat::Json,
            Format::Github => OutputFormat::Github,
            Format::Sarif => OutputFormat::Sarif,
            Format::Junit => OutputFormat::Junit,
            Format::Gitlab => OutputFormat::Gitlab,
            Format::Rdjson => OutputFormat::Rdjson,
            Format::Markdown => OutputFormat::Markdown,
        }
    }
}

#[derive(Args)]
struct CheckArgs {
    /// Files or directories to check
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    #[command(flatten)]
    rules: rule_args::RuleArgs,
    /// Never colour the output
    #[arg(long)]
    no_color: bool,
    /// Print diagnostics only: no summary line
    #[arg(short, long)]
    quiet: bool,
    /// Also write FORMAT to PATH (repeatable), e.g. `sarif:toolc.sarif`
    #[arg(long, value_name = "FORMAT:PATH")]
    output_format: Vec<String>,
    /// Print how many diagnostics each rule produced instead of the diagnostics
    #[arg(long)]
    statistics: bool,
    /// Also say how many files at format paths were left alone as another tool's
    #[arg(short, long)]
    verbose: bool,
    /// Never read paths matching GLOB (relative to the working directory; repeatable), even
    /// when named: added to `[discovery] exclude`
    #[arg(long, value_delimiter = ',', value_name = "GLOB")]
    exclude: Vec<String>,
    /// Check a file named on the command line only when its content has its format's shape,
    /// as for files found by walking (for pre-commit, which names every file a pattern matches)
    #[arg(long)]
    only_claimed: bool,
    /// Read the file's content from stdin and check it as if it were at PATH
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,
    /// Run the provider-compatibility (CMP) rules for these build targets (openai, anthropic,
    /// mcp, gemini, bundle); default: `[build] targets` in toolc.toml, else none
    #[arg(long, value_delimiter = ',', value_name = "TARGETS")]
    target: Vec<String>,
    /// Apply the safe fixes in place, then report what remains
    #[arg(long, conflicts_with_all = ["diff", "stdin_filename"])]
    fix: bool,
    /// Print the safe fixes as a unified diff instead of applying them (exit 1 when there
    /// is something to fix)
    #[arg(long, conflicts_with = "stdin_filename")]
    diff: bool,
    #[command(flatten)]
    baseline: baseline::BaselineArgs,
    #[command(flatten)]
    empty: empty::EmptyArgs,
    /// Also report every tool that no longer matches `toolc.lock` (`[lock] required = true`)
    #[arg(long)]
    locked: bool,
    /// Read every file again: neither read nor write the cache in `.toolc_cache/`
    #[arg(long)]
    no_cache: bool,
}

/// Run the command line with the process arguments; the binary is this one call.
pub fn main() -> ExitCode {
    crate::timing::mark("main");
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(args) => run_check(args),
        Command::Build(args) => build::run(args),
        Command::Rules(args) => {
            read_custom_rules();
            rule_list::run(&args)
        }
        Command::Server(args) => server::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Lock(args) => lock::run(args),
        Command::Explain { rule } => {
            read_custom_rules();
            explain::run(&rule)
        }
        Command::Completions(args) => completions::run(&args),
        Command::Clean(args) => clean::run(&args),
    };
    crate::timing::event("end");
    code
}

/// Print `message`, one line, as an error: what it names (a path, a revision) is shown, not
/// obeyed.
fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {}", crate::diagnostics::visible(message));
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
    let color = rule_args::stdout_color(args.no_color);
    // Before the configuration is looked for from them: a named link out of the repository
    // must not lead to a `toolc.toml` outside it either. A path that does not exist is a
    // usage error, not a finding about the repository.
    if let Err(message) = crate::fs::boundary::check_named(&args.paths, &cwd) {
        return usage_error(&message);
    }
    let mut config = match Config::discover_for(&cwd, &args.paths, args.rules.config.as_deref()) {
        Ok(c) => c,
        Err(ConfigError::Invalid(diags)) => {
            let summary = Summary::count(1, 0, &diags);
            match args.format {
                Format::Json => print(&json::render(&diags, &summary)),
                Format::Github
                | Format::Sarif
                | Format::Junit
                | Format::Gitlab
                | Format::Rdjson
                | Format::Markdown => {
                    let report = Report {
                        diagnostics: diags,
                        suppressed: Vec::new(),
                        baselined: Vec::new(),
                        summary,
                        files: Vec::new(),
                    };
                    let text = crate::output::render(
                        args.format.output(),
                        &findings(&report),
                        &cwd,
                        false,
                        true,
                    );
                    print(&text)
                }
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
    // After the configuration is read: `--select ORG` may name its custom rules.
    if let Some(message) = args.rules.unknown_selector() {
        return usage_error(&message);
    }
    if !args.exclude.is_empty()
        && let Err(message) = config.exclude(&cwd, &args.exclude)
    {
        return usage_error(&format!("`--exclude`: {message}"));
    }
    config.named_by_content = args.only_claimed;
    let baseline_mode = match baseline::configure(
        &args.baseline,
        &cwd,
        &mut config,
        args.stdin_filename.is_some(),
    ) {
        Ok(mode) => mode,
        Err(message) => return usage_error(&message),
    };
    config.lock_required |= args.locked;
    let build_targets = if args.target.is_empty() {
        None
    } else {
        match crate::bundle::Target::parse_list(&args.target) {
            Ok(t) => Some(t),
            Err(message) => return usage_error(&message),
        }
    };
    let options = CheckOptions {
        paths: args.paths,
        cwd,
        select: args.rules.select,
        ignore: args.rules.ignore,
        targets: build_targets,
        preview: args.rules.preview,
    };
    // A named path (or the buffer's) that the configuration excludes is said to be excluded.
    let stdin_named = args.stdin_filename.iter().cloned().collect::<Vec<_>>();
    let named = if stdin_named.is_empty() {
        &options.paths
    } else {
        &stdin_named
    };
    let excluded = excluded::named(&config, &options.cwd, named);
    if !args.quiet {
        for path in &excluded {
            eprintln!("{}", excluded::warning(path));
        }
    }
    let all_excluded = !named.is_empty() && excluded.len() == named.len();
    let targets = match parse_targets(&args.output_format) {
        Ok(t) => t,
        Err(message) => return usage_error(&message),
    };
    if args.statistics && !matches!(args.format, Format::Human | Format::Json) {
        return usage_error(
            "`--statistics` prints a table (`--format human`) or JSON (`--format json`); write other formats with `--output-format FORMAT:PATH`",
        );
    }
    let buffer = match &args.stdin_filename {
        Some(path) => match read_stdin(path) {
            Ok(b) => Some(b),
            Err(message) => return usage_error(&message),
        },
        None => None,
    };
    // Machine formats and editors (stdin) read stderr too; a bar there is noise.
    let bar = (args.format == Format::Human
        && buffer.is_none()
        && !args.quiet
        && std::io::stderr().is_terminal())
    .then(LazyBar::new);
    let on_progress = |step: Progress| {
        if let Some(bar) = &bar {
            bar.step(step);
        }
    };
    // An editor's buffer of a file no format reads is simply not checked.
    let no_buffer = buffer.is_none();
    let inputs = Inputs {
        buffer,
        progress: Some(&on_progress),
        cache: !args.no_cache,
    };
    let fix_mode = (args.fix || args.diff).then_some(if args.diff {
        fix::Mode::Diff
    } else {
        fix::Mode::Write
    });
    let report = match fix_mode {
        None => check_with(&options, &config, &inputs),
        Some(mode) => match fix::run(&options, &config, mode, args.quiet) {
            fix::After::Report(report) => report,
            fix::After::Exit(code) => return code,
        },
    };
    if let Some(bar) = &bar {
        bar.finish();
    }
    if let baseline::Mode::Write(target) = &baseline_mode {
        return baseline::write(target, &options, &config, &report);
    }
    let refused = (no_buffer && !all_excluded)
        .then(|| empty::refusal(&args.empty, &options.paths, &report))
        .flatten();
    // "All checks passed" would contradict the error (or the exclusion) said before it.
    let quiet = args.quiet || refused.is_some() || (all_excluded && args.format == Format::Human);
    let mut not_claimed = (args.statistics || args.verbose)
        .then(|| not_claimed_line(&report.summary))
        .flatten();
    if args.statistics {
        // What the baseline and suppression comments hid is counted here as in every summary:
        // after the summary line, or on stderr beside the JSON array.
        let hidden = baseline::note(&report, &config, &options.cwd);
        print(&match args.format {
            Format::Json => statistics::render_json(&report.diagnostics),
            _ if quiet => statistics::render_human(&report.diagnostics),
            _ => format!(
                "{}{}{}\n{}",
                statistics::render_human(&report.diagnostics),
                not_claimed.take().map(|l| l + "\n").unwrap_or_default(),
                human::summary_line(&report.summary),
                hidden.as_deref().unwrap_or_default()
            ),
        });
        if args.format == Format::Json
            && let Some(line) = hidden
        {
            eprint!("{line}");
        }
    } else {
        // Written as it is made: the JSON or SARIF of 300,000 findings is never held whole.
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        // A closed pipe (`toolc check | head`) is not an error worth a panic.
        let _ = crate::output::write(
            args.format.output(),
            &findings(&report),
            &options.cwd,
            color,
            quiet,
            &mut out,
        );
        if args.format == Format::Human
            && !quiet
            && let Some(note) = baseline::note(&report, &config, &options.cwd)
        {
            let _ = out.write_all(note.as_bytes());
        }
        let _ = out.flush();
        // GitLab's and reviewdog's formats are lists of findings with no summary to count
        // what was hidden in: the count goes to stderr, into the job's log.
        if matches!(args.format, Format::Gitlab | Format::Rdjson)
            && let Some(note) = baseline::note(&report, &config, &options.cwd)
        {
            eprint!("{note}");
        }
    }
    crate::timing::mark("render");
    if let Some(line) = not_claimed {
        eprintln!("{line}");
    }
    for (format, path) in &targets {
        // `junit:reports/toolc.xml` in a fresh checkout: the folder is created. Written as it
        // is made, as standard output is.
        let written = crate::fs::write_output_with(path, &options.cwd, |out| {
            crate::output::write(*format, &findings(&report), &options.cwd, false, false, out)
        });
        if let Err(e) = written {
            return usage_error(&format!("cannot write {}: {e}", path.display()));
        }
    }
    if let Some(message) = refused {
        // Two lines, the paths in them already shown (`empty::refusal`).
        eprintln!("error: {message}");
        return ExitCode::from(2);
    }
    let threshold = if args.rules.deny_warnings {
        Severity::Warning
    } else {
        Severity::Error
    };
    let code = if report.fails_at(threshold) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    crate::pipeline::drop_later(report);
    code
}

/// `--verbose`/`--statistics`: the files at format paths whose content is another tool's, in
/// one line, or nothing when there are none.
fn not_claimed_line(summary: &Summary) -> Option<String> {
    let n = summary.not_claimed;
    (n > 0).then(|| {
        let (files, were) = if n == 1 { ("file", "was") } else { ("files", "were") };
        format!(
            "{n} {files} at format paths {were} not claimed: their content is not in their format's shape (another tool's file); name a file to check it anyway"
        )
    })
}

/// Read the configuration of the working directory, so that `toolc rules` and `toolc
/// explain` know its custom rules (a configuration that cannot be read adds none).
fn read_custom_rules() {
    if let Ok(cwd) = std::env::current_dir() {
        let _ = Config::discover(&cwd, None);
    }
}

/// `--output-format FORMAT:PATH` values, checked before anything runs.
fn parse_targets(values: &[String]) -> Result<Vec<(OutputFormat, PathBuf)>, String> {
    let names = || {
        OutputFormat::ALL
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    values
        .iter()
        .map(|value| {
            let Some((name, path)) = value.split_once(':').filter(|(_, p)| !p.is_empty()) else {
                return Err(format!(
                    "`--output-format {value}`: expected FORMAT:PATH, e.g. `sarif:toolc.sarif`"
                ));
            };
            let format = OutputFormat::parse(name).ok_or_else(|| {
                format!(
                    "`--output-format {value}`: unknown format `{name}` (one of {})",
                    names()
                )
            })?;
            Ok((format, PathBuf::from(path)))
        })
        .collect()
}

/// The buffer of `--stdin-filename PATH`: stdin's bytes, to be checked as the file at PATH.
fn read_stdin(path: &std::path::Path) -> Result<Buffer, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let limit = crate::formats::MAX_READ_BYTES;
    std::io::stdin()
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "stdin is over {} MiB; toolc does not read files that large",
            limit / (1024 * 1024)
        ));
    }
    Ok(Buffer {
        path: path.to_path_buf(),
        bytes,
    })
}

/// A progress bar on stderr that stays hidden unless the run turns out to be long: most runs
/// end before a bar would be worth drawing.
struct LazyBar {
    bar: indicatif::ProgressBar,
    start: std::time::Instant,
    shown: std::sync::atomic::AtomicBool,
}

impl LazyBar {
    /// How long a run goes on before the bar appears.
    const DELAY: std::time::Duration = std::time::Duration::from_millis(300);

    fn new() -> LazyBar {
        let bar = indicatif::ProgressBar::hidden();
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} reading {pos}/{len} files {wide_bar}",
        ) {
            bar.set_style(style);
        }
        LazyBar {
            bar,
            start: std::time::Instant::now(),
            shown: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn step(&self, step: Progress) {
        use std::sync::atomic::Ordering;
        match step {
            Progress::Found(n) => self.bar.set_length(n as u64),
            Progress::Loaded => {
                self.bar.inc(1);
                if self.start.elapsed() >= Self::DELAY
                    && self
                        .shown
                        .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                {
                    self.bar
                        .set_draw_target(indicatif::ProgressDrawTarget::stderr());
                }
            }
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// What the outputs show of `report`.
pub(crate) fn findings(report: &Report) -> crate::output::Findings<'_> {
    crate::output::Findings {
        diagnostics: &report.diagnostics,
        suppressed: &report.suppressed,
        baselined: &report.baselined,
        summary: &report.summary,
        files: &report.files,
    }
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::{Format, OutputFormat};

    /// `--format` is written as its own enum for its help texts: it offers exactly the output
    /// formats there are, each under the name `--output-format` takes.
    #[test]
    fn format_offers_every_output_format_by_its_name() {
        let offered: Vec<(String, OutputFormat)> = Format::value_variants()
            .iter()
            .filter_map(|f| Some((f.to_possible_value()?.get_name().to_string(), f.output())))
            .collect();
        let all: Vec<(String, OutputFormat)> = OutputFormat::ALL
            .iter()
            .map(|(name, f)| (name.to_string(), *f))
            .collect();
        assert_eq!(offered, all);
    }
}
