//! toolc: a compiler and linter for repositories of LLM tool definitions.
//!
//! The pipeline is discover → parse → lower → resolve → validate → lint → emit; [`check`]
//! runs it and returns every diagnostic, sorted by path and position.

// Input never reaches an unwrap: errors are values (tests may unwrap, see clippy.toml).
#![warn(clippy::unwrap_used, clippy::expect_used)]

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

/// Run discover → parse → lower → resolve → validate → lint over `options.paths`.
pub fn check(options: &CheckOptions, config: &Config) -> Report {
    check_with(options, config, &Inputs::default())
}

/// [`check`], with a buffer in place of a file and progress reports.
pub fn check_with(options: &CheckOptions, config: &Config, inputs: &Inputs<'_>) -> Report {
    run(options, config, inputs, false).0
}

/// [`check`], and what `build` would write from the same files.
pub fn check_and_compile(options: &CheckOptions, config: &Config) -> (Report, bundle::Compiled) {
    run(options, config, &Inputs::default(), true)
}

/// One run over the disk, with the stdin buffer (if any) over it and reported on alone.
fn run(
    options: &CheckOptions,
    config: &Config,
    inputs: &Inputs<'_>,
    bundles: bool,
) -> (Report, bundle::Compiled) {
    let mut fs = fs::Overlay::new(Box::new(fs::Confined::for_paths(
        &options.paths,
        &options.cwd,
    )));
    let only = inputs.buffer.as_ref().map(|b| {
        let path = discover::normalize(&options.cwd.join(&b.path));
        fs.set(path.clone(), b.bytes.clone());
        path
    });
    timing::mark("start");
    let cache = inputs
        .cache
        .then(|| cache::Cache::open(&cache::root_for(config, &options.cwd), &options.cwd));
    timing::mark("open cache");
    let use_cache = cache.as_ref().map(|cache| pipeline::UseCache {
        cache,
        reported_only: !bundles
            && !config.lock_required
            && pipeline::checked_targets(options, config).is_empty(),
    });
    let loaded = pipeline::load_named(
        options,
        config,
        &fs,
        inputs.progress,
        false,
        only.as_deref(),
        use_cache,
    );
    let report = |loaded: &pipeline::Loaded| {
        let report = pipeline::report(options, config, loaded, bundles, only.as_deref());
        timing::mark("report");
        report
    };
    let Some(cache) = cache else {
        let made = report(&loaded);
        drop_later(loaded);
        return made;
    };
    if std::env::var_os("TOOLC_DEBUG_CACHE").is_some() {
        let s = cache.stats();
        eprintln!(
            "toolc: cache: {} files from the cache, {} loaded, {} results left in it",
            s.hits, s.loaded, s.left
        );
    }
    let roots = loaded.scope.roots.clone();
    if cache.started_empty() {
        // A first run writes the whole cache: on the other core, while the report is made
        // (no result reads from a cache file there was not).
        let made = std::thread::scope(|threads| {
            // No thread to be had: the cache is not written, and the next run is a first run
            // again (a cache costs time, never a result).
            let saving = std::thread::Builder::new().spawn_scoped(threads, || cache.save(&roots));
            let made = report(&loaded);
            if let Ok(saving) = saving {
                let _ = saving.join();
            }
            made
        });
        timing::mark("save");
        drop_later(loaded);
        return made;
    }
    let made = report(&loaded);
    if cache.changed(&roots) {
        // Writing the cache needs memory of its own, and the old cache file can be carried
        // over only once no result reads from it: the files' results go first.
        drop(loaded);
    } else {
        drop_later(loaded);
    }
    cache.save(&roots);
    timing::mark("save");
    made
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
