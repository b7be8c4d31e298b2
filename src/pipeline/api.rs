//! What a check takes and gives: its options and inputs, the report, and the entry points the
//! crate root re-exports.

use std::path::PathBuf;
use std::sync::Arc;

use crate::bundle;
use crate::config::Config;
use crate::diagnostics::{Diagnostic, Summary};
use crate::output::{self, OutputFormat};
use crate::rules::Severity;
use crate::source::SourceFile;

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

/// Run the pipeline over `options.paths`.
pub fn check(options: &CheckOptions, config: &Config) -> Report {
    check_with(options, config, &Inputs::default())
}

/// [`check`], with a buffer in place of a file and progress reports.
pub fn check_with(options: &CheckOptions, config: &Config, inputs: &Inputs<'_>) -> Report {
    super::run(options, config, inputs, false).0
}

/// [`check`], and what `build` would write from the same files.
pub fn check_and_compile(options: &CheckOptions, config: &Config) -> (Report, bundle::Compiled) {
    super::run(options, config, &Inputs::default(), true)
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
