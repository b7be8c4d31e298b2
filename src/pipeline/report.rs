//! The report of a run: every finding configured (severity, `select`/`ignore`, nested
//! configurations), suppressed or baselined, filtered to what the run reports on, with the
//! bundles a build compiles from the same files.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::Loaded;
use crate::config::{Config, Setting};
use crate::diagnostics::{Diagnostic, Summary};
use crate::discover::display_path;
use crate::formats;
use crate::rules::{self, Rule, Severity, syntax as syn};
use crate::source::{self, SourceFile, Span};
use crate::suppress::Suppression;
use crate::{CheckOptions, Report, bundle};

/// The severity `rule` has on the file at `path` in a run of `options`; `None` when it does
/// not run there (`--select`, `--ignore`, configured `off`).
pub(crate) fn enabled(
    options: &CheckOptions,
    config: &Config,
    rule: &Rule,
    path: &Path,
) -> Option<Severity> {
    let selected = options.select.is_empty()
        || options
            .select
            .iter()
            .any(|s| rules::selector_matches(s, rule));
    let ignored = options
        .ignore
        .iter()
        .any(|s| rules::selector_matches(s, rule));
    if !selected || ignored || !preview_runs(options.preview, &options.select, config, rule, path) {
        return None;
    }
    match config.setting(rule, path) {
        Setting::Off => None,
        Setting::Level(s) => Some(s),
    }
}

/// False for a preview rule that nothing turned on: not `--preview`, not `preview = true`,
/// not a `--select` or configured setting naming the rule itself.
pub(crate) fn preview_runs(
    preview: bool,
    select: &[String],
    config: &Config,
    rule: &Rule,
    path: &Path,
) -> bool {
    !rule.preview
        || preview
        || select
            .iter()
            .any(|s| s.eq_ignore_ascii_case(rule.code) || s == rule.name)
        || config.runs_preview(rule, path)
}

/// The bundle targets whose compatibility rules a check of `options` runs.
pub(crate) fn checked_targets(options: &CheckOptions, config: &Config) -> Vec<bundle::Target> {
    options
        .targets
        .clone()
        .unwrap_or_else(|| bundle::checked_targets(config))
}

/// Configure, suppress and filter the findings of `loaded` into a report; with `bundles`,
/// also what `build` writes (a check alone lowers tools into the IR only when CMP rules need
/// them). With `only`, that file alone is reported on (an editor's buffer on stdin).
pub(crate) fn report(
    options: &CheckOptions,
    config: &Config,
    loaded: &Loaded,
    bundles: bool,
    only: Option<&Path>,
) -> (Report, bundle::Compiled) {
    let Loaded {
        scope,
        configs,
        config_errors,
        results,
        walk_errors,
        resolved,
        not_claimed,
        ..
    } = loaded;
    let mut raw: Vec<Diagnostic> = results
        .iter()
        .flat_map(|r| r.diagnostics.iter().cloned())
        .collect();
    raw.extend(resolved.iter().cloned());
    raw.extend(config_errors.iter().cloned());
    raw.extend(loaded.unclaimed.iter().cloned());
    raw.extend(crate::custom::check(configs, results, &|r| &r.file, &|r| {
        formats::lower_all(std::slice::from_ref(r), &|_| true, &options.cwd).tools
    }));
    if config.lock_required {
        raw.extend(crate::lock::drift(config, &options.cwd, scope, results));
    }
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

    let enabled = |rule: &Rule, path: &Path| enabled(options, configs.for_path(path), rule, path);

    let mut sources: Vec<&Arc<SourceFile>> = results
        .iter()
        .flat_map(|r| std::iter::once(&r.file).chain(&r.companions))
        .collect();
    if !scope.reports_all() {
        // Only the files in scope are reported on, and only those with suppression comments
        // are looked at for the others (`check FILE` in a large repository): the rest go
        // before sorting. A path's files all stay or all go.
        let commented: HashSet<&Path> = sources
            .iter()
            .filter(|f| !f.suppressions().is_empty())
            .map(|f| f.path.as_path())
            .collect();
        sources.retain(|f| {
            scope.reports_on(&f.path)
                || (!commented.is_empty() && commented.contains(f.path.as_path()))
        });
    }
    // A quarter of a million paths at 100,000 tools: on every core.
    sources.par_sort_by(|a, b| a.display().cmp(b.display()));
    sources.dedup_by(|a, b| a.path.as_os_str() == b.path.as_os_str());
    // Most files have no suppression comment: only those that do are copied.
    let mut suppressions: HashMap<PathBuf, Vec<Suppression>> = sources
        .par_iter()
        .filter(|f| !f.suppressions().is_empty())
        .map(|f| (f.path.clone(), f.suppressions().to_vec()))
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
            d.configure(severity);
            // Every covering comment is marked used, so none of them is reported as unused.
            let mut hit = false;
            if let Some(list) = suppressions.get_mut(&d.file.path) {
                // Only here is the line needed: a file without comments is not read for it.
                let line = d.file.position(d.span.start).line;
                for s in list {
                    hit |= s.covers(d.rule, line);
                }
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
    let targets = checked_targets(options, config);
    let in_scope = |f: &SourceFile| scope.reports_on(&f.path);
    let root = config.project_root();
    let selection = bundle::Selection {
        has_error: &has_error,
        in_scope: &in_scope,
        root: &root,
    };
    let (compiled, compat) = if bundles || !targets.is_empty() {
        bundle::compile(results, &selection, &targets)
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
                .maybe_did_you_mean(
                    crate::analysis::names::did_you_mean(
                        &code.text,
                        rules::all().iter().flat_map(|r| [r.code, r.name]),
                    )
                    .map(|h| {
                        crate::diagnostics::DidYouMean::new(h, crate::Fix::safe(code.span, h))
                    }),
                ),
                Some(rule)
                    if !code.used
                        && enabled(rule, &file.path).is_some()
                        && rules::emitted_by_check(rule, config.lock_required) =>
                {
                    Diagnostic::new(
                        &syn::UNUSED_SUPPRESSION,
                        file,
                        code.span,
                        format!("this suppression of `{}` matches no diagnostic", rule.code),
                    )
                    .label("suppresses nothing")
                    .help(
                        "remove it, or move it onto the line of the diagnostic (or the line above)",
                    )
                }
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
    if let Some(path) = only {
        diagnostics.retain(|d| d.file.path == path);
        suppressed.retain(|d| d.file.path == path);
        sources.retain(|f| f.path == path);
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    suppressed.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let mut baselined = Vec::new();
    if let Some(path) = &config.baseline {
        // An excluded file is not checked: its entries are kept, not called stale (fixed).
        let covers = |rule: &Rule, file: &Path| {
            scope.covers(file)
                && !config.excludes(file)
                && only.is_none_or(|o| o == file)
                && enabled(rule, file).is_some()
        };
        let applied = crate::baseline::apply(path, &options.cwd, &mut diagnostics, &covers);
        baselined = applied.baselined;
        for d in applied.problems {
            if let Some(severity) = enabled(d.rule, &d.file.path) {
                let mut d = d;
                d.configure(severity);
                diagnostics.push(d);
            }
        }
        diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }
    // A file whose text was let go (or that came from the cache) is read back now, while
    // it is there: the report is whole whatever happens to the files after the check.
    diagnostics
        .par_iter()
        .chain(suppressed.par_iter())
        .flat_map_iter(|d| std::iter::once(&d.file).chain(d.related.iter().map(|r| &r.file)))
        .for_each(|f| {
            f.lines();
        });
    let tools = results
        .iter()
        .filter(|r| scope.reports_on(&r.file.path))
        .map(formats::FileResult::tool_count)
        .sum();
    let tools = match only {
        Some(path) => results
            .iter()
            .filter(|r| r.file.path == *path)
            .map(formats::FileResult::tool_count)
            .sum(),
        None => tools,
    };
    let mut summary = Summary::count(sources.len(), tools, &diagnostics);
    summary.suppressed = suppressed.len();
    summary.baselined = baselined.len();
    summary.not_claimed = match only {
        Some(_) => 0,
        None => not_claimed.iter().filter(|p| scope.reports_on(p)).count(),
    };
    let report = Report {
        diagnostics,
        suppressed,
        baselined,
        summary,
        files: sources.into_iter().cloned().collect(),
    };
    (report, compiled)
}
