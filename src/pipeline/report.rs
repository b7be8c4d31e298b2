//! Stage 7, report: the findings of the stages before, through severity and suppress
//! ([`super::judge`]) and the baseline ([`super::baseline`]), filtered to what the run
//! reports on, sorted and counted.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::Loaded;
use super::emit::{self, ErrorFiles};
use super::judge::{Comments, Judged, Marked};
use super::{CheckOptions, Report};
use crate::bundle::Compiled;
use crate::config::Config;
use crate::diagnostics::budget;
use crate::diagnostics::cap::{MAX_PER_RULE, cap_per_file};
use crate::diagnostics::{Diagnostic, Summary};
use crate::formats::FileResult;
use crate::fs::display_path;
use crate::rules::{Rule, Severity, syntax as syn};
use crate::source::{self, SourceFile, Span};

/// Every finding of the stages before the report, unconfigured: each file's, the
/// cross-file ones, configuration and walk errors, files nothing reads, lockfile drift.
/// The results keep theirs (the editor and `--fix` read them again).
fn findings(options: &CheckOptions, config: &Config, loaded: &Loaded) -> Vec<Diagnostic> {
    // A finding of some releases of a runtime only, when the project targets another: left
    // before it is copied (a whole repository's may be, one per file).
    let targeted = |d: &&Diagnostic| targeted(loaded, d);
    let own = own(options, config, loaded);
    let files: Vec<Vec<Diagnostic>> = loaded
        .results
        .iter()
        .map(|r| {
            let copied = r.diagnostics.iter().filter(targeted).cloned().collect();
            budget::to_level(copied, loaded.level)
        })
        .collect();
    let room = files.iter().map(Vec::len).sum::<usize>() + loaded.resolved.len() + own.len();
    let mut raw = Vec::with_capacity(room);
    raw.extend(files.into_iter().flatten());
    raw.extend(loaded.resolved.iter().filter(targeted).cloned());
    gathered(options, loaded, raw, own)
}

/// [`findings`] taken out of `loaded`, whose results are not read for them again (a run of
/// the command line): a repository's findings are not held twice.
fn taken(options: &CheckOptions, config: &Config, loaded: &mut Loaded) -> Vec<Diagnostic> {
    let own = own(options, config, loaded);
    // Each file brought to the load's level first: files checked before the level fell
    // hold more (up to 50,000 findings at each level), and the list of them all was as
    // long as all of that, with the copy the whole list's cap made beside it.
    for result in &mut loaded.results {
        let diagnostics = std::mem::take(&mut result.diagnostics);
        result.diagnostics = budget::to_level(diagnostics, loaded.level);
    }
    let mut raw = Vec::with_capacity(held(loaded) + own.len());
    for result in &mut loaded.results {
        raw.append(&mut std::mem::take(&mut result.diagnostics));
    }
    raw.append(&mut std::mem::take(&mut loaded.resolved));
    gathered(options, loaded, raw, own)
}

/// Whether the project targets a release `d` holds for (when it holds for some only).
fn targeted(loaded: &Loaded, d: &Diagnostic) -> bool {
    d.releases
        .as_deref()
        .is_none_or(|r| loaded.configs.for_path(&d.file.path).runtimes.includes(*r))
}

/// Exact room for the files' and cross-file findings (the most of them): collected from a
/// flattened list, which does not say how long it is, the copy grew by doubling.
fn held(loaded: &Loaded) -> usize {
    let files: usize = loaded.results.iter().map(|r| r.diagnostics.len()).sum();
    files + loaded.resolved.len()
}

/// `raw`, the files' and cross-file findings brought to the level the load reached, with
/// `own`, the run's, in room made for them (a list grown past its room doubles: 30 MB for
/// 80,000 findings).
fn gathered(
    options: &CheckOptions,
    loaded: &Loaded,
    raw: Vec<Diagnostic>,
    own: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut raw = budget::to_level(raw, loaded.level);
    raw.reserve_exact(own.len());
    raw.extend(own);
    raw.retain(|d| {
        targeted(loaded, d) && super::unmatched::stopped_rule_shown(options, &loaded.configs, d)
    });
    raw
}

/// The run's own findings: configuration and walk errors, security turned off, settings that
/// select nothing, files nothing reads, lockfile drift.
fn own(options: &CheckOptions, config: &Config, loaded: &Loaded) -> Vec<Diagnostic> {
    let mut raw: Vec<Diagnostic> = loaded.config_errors.to_vec();
    raw.extend(super::turned_off::security_off_below(
        options,
        &loaded.configs,
        loaded.results.iter().map(|r| r.file.path.as_path()),
    ));
    raw.extend(super::unmatched::selected_nothing(
        &loaded.configs,
        &loaded.results,
    ));
    raw.extend(loaded.unclaimed.iter().cloned());
    if config.lock_required {
        raw.extend(crate::lock::drift(
            config,
            &options.cwd,
            &loaded.scope,
            &loaded.results,
        ));
    }
    for e in &loaded.walk_errors {
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
    raw
}

/// The files a report may name, sorted, and the suppression comments of those that have
/// any. Only the files in scope are reported on, and only those with comments are looked at
/// for the others (`check FILE` in a large repository): a path's files all stay or all go.
fn sources(loaded: &Loaded) -> (Vec<&Arc<SourceFile>>, Comments) {
    let scope = &loaded.scope;
    let mut sources: Vec<&Arc<SourceFile>> = loaded
        .results
        .iter()
        .flat_map(|r| std::iter::once(&r.file).chain(&r.companions))
        .collect();
    if !scope.reports_all() {
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
    let comments: HashMap<_, _> = sources
        .par_iter()
        .filter(|f| !f.suppressions().is_empty())
        .map(|f| (f.path.clone(), Marked::new(f.shared_suppressions())))
        .collect();
    (sources, comments)
}

/// The report of `loaded`, and with `bundles` what `build` emits: the tools of the files no
/// error keeps out. With `only`, that file alone is reported on (an editor's buffer).
pub(crate) fn report(
    options: &CheckOptions,
    config: &Config,
    loaded: &Loaded,
    only: Option<&Path>,
    bundles: bool,
) -> (Report, Compiled) {
    let raw = findings(options, config, loaded);
    report_of(options, config, loaded, raw, only, bundles)
}

/// [`report`] with the findings taken out of `loaded` (whose results are not read for them
/// again).
pub(crate) fn report_taking(
    options: &CheckOptions,
    config: &Config,
    loaded: &mut Loaded,
    only: Option<&Path>,
    bundles: bool,
) -> (Report, Compiled) {
    let raw = taken(options, config, loaded);
    report_of(options, config, loaded, raw, only, bundles)
}

/// The report of `loaded` whose findings, unconfigured, are `raw`.
fn report_of(
    options: &CheckOptions,
    config: &Config,
    loaded: &Loaded,
    raw: Vec<Diagnostic>,
    only: Option<&Path>,
    bundles: bool,
) -> (Report, Compiled) {
    let scope = &loaded.scope;
    let enabled = |rule: &Rule, path: &Path| {
        super::enabled(options, loaded.configs.for_path(path), rule, path)
    };
    let (mut sources, mut comments) = sources(loaded);
    let mut judged = Judged::default();
    judged.admit(raw, &enabled, &mut comments);
    // What is compiled follows the errors as configured: a rule turned off, or an error
    // suppressed with a reason, no longer keeps its file out of the bundles.
    let errors: ErrorFiles = judged
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.file.path.clone())
        .collect();
    let (compiled, compat) = emit::compile(options, config, loaded, &errors, bundles);
    judged.admit(compat, &enabled, &mut comments);
    judged.unused(&sources, &comments, &enabled, config);
    let Judged {
        mut diagnostics,
        mut suppressed,
        ..
    } = judged;
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
    let level = budget::level_of(&diagnostics, loaded.level);
    let mut diagnostics = cap_per_file(diagnostics, level);
    suppressed.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let baselined =
        super::baseline::apply(options, config, scope, only, &enabled, &mut diagnostics);
    // A file whose text was let go (or that came from the cache) is read back now, while
    // it is there: the report is whole whatever happens to the files after the check.
    diagnostics
        .par_iter()
        .chain(suppressed.par_iter())
        .flat_map_iter(|d| std::iter::once(&d.file).chain(d.related.iter().map(|r| &r.file)))
        .for_each(|f| {
            f.lines();
        });
    let counted = |r: &&FileResult| match only {
        Some(path) => r.file.path == *path,
        None => scope.reports_on(&r.file.path),
    };
    let tools = loaded
        .results
        .iter()
        .filter(counted)
        .map(FileResult::tool_count)
        .sum();
    let mut summary = Summary::count(sources.len(), tools, &diagnostics);
    summary.suppressed = crate::diagnostics::standing_for(&suppressed);
    summary.baselined = crate::diagnostics::standing_for(&baselined);
    summary.shown_per_rule = (level < MAX_PER_RULE).then_some(level);
    summary.not_claimed = match only {
        Some(_) => 0,
        None => loaded
            .not_claimed
            .iter()
            .filter(|p| scope.reports_on(p))
            .count(),
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
