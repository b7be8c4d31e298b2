//! toolc: a compiler and linter for repositories of LLM tool definitions.
//!
//! The pipeline is discover → parse → lower → resolve → validate → lint → emit; [`check`]
//! runs it and returns every diagnostic, sorted by path and position.

pub mod analysis;
pub mod bundle;
pub mod config;
pub mod diagnostics;
pub mod discover;
pub mod formats;
pub mod ir;
pub mod rules;
pub mod schema;
pub mod scope;
pub mod source;
pub mod suppress;
pub mod syntax;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::config::{Config, Setting};
use crate::diagnostics::{Diagnostic, Summary};
use crate::discover::{Classifier, display_path};
use crate::rules::{Rule, Severity, syntax as syn};
use crate::source::{SourceFile, Span};
use crate::suppress::Suppression;

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
}

/// The outcome of a check.
#[derive(Debug)]
pub struct Report {
    /// Diagnostics to show, sorted by path then position.
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics silenced by `toolc: ignore` comments (kept for SARIF suppressions).
    pub suppressed: Vec<Diagnostic>,
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
}

impl Report {
    /// True when some diagnostic is at or above `threshold`.
    pub fn fails_at(&self, threshold: Severity) -> bool {
        self.diagnostics.iter().any(|d| d.severity >= threshold)
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

/// The pipeline; with `bundles`, also what `build` writes (a check alone lowers tools into
/// the IR only when CMP rules need them).
fn run(
    options: &CheckOptions,
    config: &Config,
    inputs: &Inputs<'_>,
    bundles: bool,
) -> (Report, bundle::Compiled) {
    let classifier = Classifier::new(config);
    // Named files are reported on alone, but read with the repository around them.
    let scope = scope::Scope::new(&options.paths, &options.cwd, config);
    let (mut found, walk_errors) = discover::discover(&scope.roots, &classifier);
    let buffer = inputs
        .buffer
        .as_ref()
        .map(|b| (discover::normalize(&options.cwd.join(&b.path)), b));
    // A buffer whose file is not on disk yet (or not under the walked paths) is still read,
    // if its name says its format.
    if let Some((path, _)) = &buffer
        && !found.iter().any(|d| d.path == *path)
        && let Some(format) = classifier.classify_explicit(path)
    {
        found.push(discover::Discovered {
            path: path.clone(),
            format,
        });
    }
    let progress = |step| {
        if let Some(report) = inputs.progress {
            report(step);
        }
    };
    progress(Progress::Found(found.len()));

    let results: Vec<formats::FileResult> = found
        .par_iter()
        .map(|d| {
            let display = display_path(&d.path, &options.cwd);
            let result = match &buffer {
                Some((path, b)) if *path == d.path => {
                    formats::load_bytes(&d.path, display, d.format, b.bytes.clone())
                }
                _ => formats::load(&d.path, display, d.format),
            };
            progress(Progress::Loaded);
            result
        })
        .collect();

    let mut raw: Vec<Diagnostic> = results
        .iter()
        .flat_map(|r| r.diagnostics.iter().cloned())
        .collect();
    raw.extend(formats::resolve(&results));
    for e in walk_errors {
        let file = SourceFile::new(
            e.path.clone(),
            display_path(&e.path, &options.cwd),
            source::FormatId::Config,
            String::new(),
        );
        raw.push(Diagnostic::new(
            &syn::UNREADABLE_FILE,
            &file,
            Span::point(0),
            format!("cannot read this path: {}", e.message),
        ));
    }

    let enabled = |rule: &Rule, path: &Path| -> Option<Severity> {
        let selected = options.select.is_empty()
            || options
                .select
                .iter()
                .any(|s| rules::selector_matches(s, rule));
        let ignored = options
            .ignore
            .iter()
            .any(|s| rules::selector_matches(s, rule));
        if !selected || ignored {
            return None;
        }
        match config.setting(rule, path) {
            Setting::Off => None,
            Setting::Level(s) => Some(s),
        }
    };

    let mut sources: Vec<&Arc<SourceFile>> = results
        .iter()
        .flat_map(|r| std::iter::once(&r.file).chain(&r.companions))
        .collect();
    sources.sort_by(|a, b| a.display.cmp(&b.display));
    sources.dedup_by(|a, b| a.path == b.path);
    let mut suppressions: HashMap<PathBuf, Vec<Suppression>> = sources
        .par_iter()
        .map(|f| (f.path.clone(), suppress::scan(f)))
        .filter(|(_, s)| !s.is_empty())
        .collect();

    let mut diagnostics = Vec::new();
    let mut suppressed = Vec::new();
    // Configuration sets each finding's severity; a covering comment moves it aside.
    let mut admit = |raw: Vec<Diagnostic>,
                     diagnostics: &mut Vec<Diagnostic>,
                     suppressed: &mut Vec<Diagnostic>| {
        for mut d in raw {
            let Some(severity) = enabled(d.rule, &d.file.path) else {
                continue;
            };
            d.severity = severity;
            let line = d.file.position(d.span.start).line;
            // Every covering comment is marked used, so none of them is reported as unused.
            let mut hit = false;
            for s in suppressions.get_mut(&d.file.path).into_iter().flatten() {
                hit |= s.covers(d.rule, line);
            }
            if hit {
                suppressed.push(d);
            } else {
                diagnostics.push(d);
            }
        }
    };
    admit(raw, &mut diagnostics, &mut suppressed);

    // What is compiled follows the errors as configured: a rule turned off, or an error
    // suppressed with a reason, no longer keeps its file out of the bundles.
    let error_files: HashSet<&Path> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.file.path.as_path())
        .collect();
    let has_error = |f: &SourceFile| error_files.contains(f.path.as_path());
    let targets = options
        .targets
        .clone()
        .unwrap_or_else(|| bundle::checked_targets(config));
    let in_scope = |f: &SourceFile| scope.reports_on(&f.path);
    let selection = bundle::Selection {
        has_error: &has_error,
        in_scope: &in_scope,
    };
    let (compiled, compat) = if bundles || !targets.is_empty() {
        bundle::compile(&results, &selection, &targets)
    } else {
        (bundle::Compiled::default(), Vec::new())
    };
    admit(compat, &mut diagnostics, &mut suppressed);

    for file in &sources {
        let Some(list) = suppressions.get(&file.path) else {
            continue;
        };
        for code in list.iter().flat_map(|s| &s.codes) {
            let d = match code.rule {
                None => Diagnostic::new(
                    &syn::UNKNOWN_SUPPRESSION_CODE,
                    file,
                    code.span,
                    format!("`{}` is not a rule code or name", code.text),
                )
                .label("unknown rule")
                .maybe_help(
                    diagnostics::did_you_mean(
                        &code.text,
                        rules::all().iter().flat_map(|r| [r.code, r.name]),
                    )
                    .map(|h| format!("did you mean `{h}`?")),
                ),
                Some(rule) if !code.used && enabled(rule, &file.path).is_some() => Diagnostic::new(
                    &syn::UNUSED_SUPPRESSION,
                    file,
                    code.span,
                    format!("this suppression of `{}` matches no diagnostic", rule.code),
                )
                .label("suppresses nothing")
                .help("remove it, or move it onto the line of the diagnostic (or the line above)"),
                Some(_) => continue,
            };
            if let Some(severity) = enabled(d.rule, &file.path) {
                diagnostics.push(Diagnostic { severity, ..d });
            }
        }
    }
    diagnostics.retain(|d| scope.reports(d));
    suppressed.retain(|d| scope.reports(d));
    sources.retain(|f| scope.reports_on(&f.path));
    // A buffer is reported on alone, as a file named on the command line is.
    if let Some((path, _)) = &buffer {
        diagnostics.retain(|d| d.file.path == *path);
        suppressed.retain(|d| d.file.path == *path);
        sources.retain(|f| f.path == *path);
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    suppressed.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let tools = results
        .iter()
        .filter(|r| scope.reports_on(&r.file.path))
        .map(formats::FileResult::tool_count)
        .sum();
    let tools = match &buffer {
        Some((path, _)) => results
            .iter()
            .filter(|r| r.file.path == *path)
            .map(formats::FileResult::tool_count)
            .sum(),
        None => tools,
    };
    let summary = Summary::count(sources.len(), tools, &diagnostics);
    let report = Report {
        diagnostics,
        suppressed,
        summary,
        files: sources.into_iter().cloned().collect(),
    };
    (report, compiled)
}
