//! toolc: a compiler and linter for repositories of LLM tool definitions.
//!
//! The pipeline is discover → load (parse, lower, security, caps) → resolve across files →
//! severity → suppress → baseline → report, and emit for a build (`src/pipeline/`);
//! [`check`] runs it and returns every diagnostic, sorted by path and position.

// Input never reaches an unwrap: errors are values (tests may unwrap, see clippy.toml).
#![warn(clippy::unwrap_used, clippy::expect_used)]
#![warn(unreachable_pub)]

pub(crate) mod analysis;
pub(crate) mod baseline;
pub(crate) mod bundle;
pub(crate) mod cache;
pub(crate) mod change;
pub(crate) mod config;
pub(crate) mod custom;
pub(crate) mod diagnostics;
pub(crate) mod discover;
pub(crate) mod formats;
pub(crate) mod fs;
pub(crate) mod ir;
pub(crate) mod lock;
pub(crate) mod output;
mod pipeline;
pub(crate) mod rules;
pub(crate) mod runtimes;
pub(crate) mod schema;
pub(crate) mod scope;
pub(crate) mod security;
pub(crate) mod server;
pub(crate) mod source;
pub(crate) mod suppress;
pub(crate) mod syntax;
pub(crate) mod text;
pub(crate) mod timing;
pub(crate) mod unclaimed;
pub(crate) mod workspace;

pub mod cli;

pub use bundle::Target;
pub use change::{ChangeKind, DiffError, DiffOptions, DiffReport, ToolChange, diff};
pub use config::{Config, ConfigError};
pub use diagnostics::{Applicability, Diagnostic, Edit, Fix, Related, Summary};
pub use output::OutputFormat;
pub use rules::{Basis, Rule, Severity};
pub use source::{FormatId, Position, SourceFile, Span};
pub use workspace::Workspace;

pub use lock::Written as LockWritten;

/// Write `toolc.lock` for every tool of the project `config` governs (the configuration's
/// folder, else the repository around its folder), as `toolc lock` does.
pub fn lock(config: &Config) -> std::io::Result<LockWritten> {
    lock::lock(config)
}

/// Every rule toolc has, in code order.
pub fn rules() -> Vec<&'static Rule> {
    rules::all()
}

/// The rule with this code (`DOJ003`, any case) or name (`invalid-tool-name`).
pub fn rule(code_or_name: &str) -> Option<&'static Rule> {
    rules::lookup(code_or_name)
}

use std::path::PathBuf;
use std::sync::Arc;

/// What to check and how to filter the findings.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Files or directories (relative to `cwd` or absolute).
    pub paths: Vec<PathBuf>,
    /// The working directory: output paths are relative to it.
    pub cwd: PathBuf,
    /// Only these rules (codes, names or prefixes); empty means all.
    pub select: Vec<String>,
    /// Never these rules.
    pub ignore: Vec<String>,
    /// The targets the CMP rules check for; `None`: `[build] targets` of the configuration
    /// (none when it has no such table).
    pub targets: Option<Vec<bundle::Target>>,
    /// `--preview`: preview rules run, whatever the configuration says.
    pub preview: bool,
}

/// The outcome of a check.
#[derive(Debug)]
pub struct Report {
    /// Diagnostics to show, sorted by path then position.
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics silenced by `toolc: ignore` comments (kept for SARIF suppressions).
    pub suppressed: Vec<Diagnostic>,
    /// Diagnostics hidden by the baseline (kept for SARIF, as externally suppressed).
    pub baselined: Vec<Diagnostic>,
    /// Counts.
    pub summary: Summary,
    /// Every file reported on (definitions and the files they name), sorted by path.
    pub files: Vec<Arc<SourceFile>>,
}

/// Content checked as if it were the file at `path`: an editor's unsaved buffer.
#[derive(Debug, Clone)]
pub struct Buffer {
    /// Where the content belongs (relative to the working directory, or absolute).
    pub path: PathBuf,
    /// The content.
    pub bytes: Vec<u8>,
}

/// A step of a check, for a progress display.
#[derive(Debug, Clone, Copy)]
pub enum Progress {
    /// Discovery is done: this many files will be read.
    Found(usize),
    /// One more file was read and parsed.
    Loaded,
}

/// What a run takes beyond [`CheckOptions`]: content not on disk, and a progress callback.
#[derive(Default)]
pub struct Inputs<'a> {
    /// Checked in place of the file at its path, which need not exist; the rest of the
    /// repository is read as usual, but only this file is reported on.
    pub buffer: Option<Buffer>,
    /// Called as the check advances (from several threads).
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
    /// Take unchanged files from the repository's cache (`.toolc_cache/` at the project
    /// root) and store the others there.
    pub cache: bool,
}

impl Report {
    /// True when some diagnostic is at or above `threshold`.
    pub fn fails_at(&self, threshold: Severity) -> bool {
        self.diagnostics.iter().any(|d| d.severity >= threshold)
    }

    /// The report as `toolc check --format` prints it; `root` is the working directory
    /// (SARIF's `%SRCROOT%`), `color` only matters to the human format.
    pub fn render(&self, format: OutputFormat, root: &std::path::Path, color: bool) -> String {
        let findings = output::Findings {
            diagnostics: &self.diagnostics,
            suppressed: &self.suppressed,
            baselined: &self.baselined,
            summary: &self.summary,
            files: &self.files,
        };
        output::render(format, &findings, root, color, false)
    }
}

/// Run the pipeline over `options.paths` (see `src/pipeline.rs`).
pub fn check(options: &CheckOptions, config: &Config) -> Report {
    check_with(options, config, &Inputs::default())
}

/// [`check`], with a buffer in place of a file and progress reports.
pub fn check_with(options: &CheckOptions, config: &Config, inputs: &Inputs<'_>) -> Report {
    pipeline::run(options, config, inputs, false).0
}

/// [`check`], and what `build` would write from the same files.
pub fn check_and_compile(options: &CheckOptions, config: &Config) -> (Report, bundle::Compiled) {
    pipeline::run(options, config, &Inputs::default(), true)
}

/// Drop `value` on another thread: freeing a repository's worth of small objects one by one
/// is time the caller does not wait for (a process that exits first never pays it).
pub(crate) fn drop_later<T: Send + 'static>(value: T) {
    if std::thread::Builder::new()
        .spawn(move || drop(value))
        .is_err()
    {
        // No thread to be had: it is dropped here.
    }
}
