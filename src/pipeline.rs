//! The check pipeline over one set of files: discover and load ([`load`]), then resolve,
//! configure, suppress and report ([`report`]). [`crate::check`] runs both once; a
//! [`crate::Workspace`] keeps what [`load`] gives and re-runs [`report`] after a change.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::cache::{Cache, Dep, Known, Stat, Tracker};
use crate::config::tree::ConfigTree;
use crate::config::{Config, Setting};
use crate::diagnostics::{Diagnostic, Summary};
use crate::discover::{self, Classifier, Discovered, WalkError, display_path};
use crate::formats::{self, FileResult};
use crate::fs::{FileSystem, Overlay};
use crate::rules::{self, Rule, Severity, syntax as syn};
use crate::scope::Scope;
use crate::source::{self, SourceFile, Span};
use crate::suppress::Suppression;
use crate::{CheckOptions, Progress, Report, bundle};

mod reload;

pub(crate) use reload::reload;

/// Every file of a run, loaded: what resolve and the report start from.
pub(crate) struct Loaded {
    /// What is walked and what is reported on.
    pub scope: Scope,
    /// The configuration of each file (the nearest `toolc.toml` above it).
    pub configs: ConfigTree,
    /// Nested configuration files that cannot be used.
    pub config_errors: Vec<Diagnostic>,
    /// One result per discovered file, sorted by path.
    pub results: Vec<FileResult>,
    /// Paths that could not be walked.
    pub walk_errors: Vec<WalkError>,
    /// Files at a format's paths whose content is not that format's (another tool's
    /// `tools.json`): not read further, not reported on, only counted. Sorted.
    pub not_claimed: Vec<PathBuf>,
    /// Files no format reads that the run should mention (named ones, near-miss names).
    pub unclaimed: Vec<Diagnostic>,
    /// Cross-file findings of `results` (resolve reads companion files through the file
    /// system, so it runs here, where the file system is at hand).
    pub resolved: Vec<Diagnostic>,
    /// With `track`: for each definition, the other paths its load read or looked for
    /// (schema files, programs), so that a change to one of them reloads it.
    pub reads: HashMap<PathBuf, Vec<PathBuf>>,
}

/// Where a run may take files from the cache, and which files it must read as they are now.
#[derive(Clone, Copy)]
pub(crate) struct Cached<'a> {
    /// The repository's cache.
    pub cache: &'a Cache,
    /// The disk under the run's buffers: what cached files are checked against, and where
    /// their texts are read back from.
    pub fs: &'a Arc<dyn FileSystem>,
    /// Files with a buffer over the disk: never from the cache, nor stored.
    pub buffered: &'a HashSet<&'a Path>,
}

/// Load one file, unless its content says it is not `format`'s (`None`); with `track`, also
/// the other paths its load asked about. With `cached`, the file comes from the cache when
/// nothing it was loaded from changed, and is stored otherwise.
fn load_one(
    fs: &dyn FileSystem,
    options: &CheckOptions,
    d: &Discovered,
    track: bool,
    cached: Option<Cached<'_>>,
) -> Option<(FileResult, Option<Vec<PathBuf>>)> {
    let (path, format) = (d.path.as_path(), d.format);
    let cached = cached.filter(|c| c.buffered.is_empty() || !c.buffered.contains(path));
    if let Some(c) = cached
        && let Some(hit) = c
            .cache
            .get(path, format, d.claim, &options.cwd, c.fs, c.buffered, track)
    {
        return hit.result.map(|result| (result, track.then_some(hit.deps)));
    }
    let display = display_path(path, &options.cwd);
    if !track && cached.is_none() {
        return Some((
            formats::load_claimed(fs, path, display, format, d.claim)?,
            None,
        ));
    }
    // Taken before the read: a change during the load shows as new metadata next time.
    let stat = cached.and_then(|_| Stat::of(path));
    let tracker = Tracker::for_file(fs, path);
    let mut judged = formats::load_judged(&tracker, path, display, format, d.claim);
    let (deps, comparable) = tracker.finish(path);
    if let Some(c) = cached {
        let stat =
            stat.filter(|_| comparable && !deps.iter().any(|d| c.buffered.contains(d.path())));
        let stored = c.cache.put(path, stat, d.claim, judged.as_ref(), &deps);
        // A run that does not track (the command line) holds the stored form: smaller.
        if let (false, Some(item), Ok(result)) = (track, stored, judged.as_mut()) {
            result.item = item;
        }
    }
    let paths = track.then(|| {
        let mut paths: Vec<PathBuf> = deps.into_iter().map(Dep::into_path).collect();
        paths.dedup();
        paths
    });
    Some((judged.ok()?, paths))
}

/// Discover the files of `options.paths` and load each through `fs`. A buffer of `fs` whose
/// file is not on disk (or not under the walked paths) is still read, if its name says its
/// format. With `track`, note what each load read besides its file (for [`reload`]).
pub(crate) fn load(
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    progress: Option<&(dyn Fn(Progress) + Sync)>,
    track: bool,
) -> Loaded {
    load_named(options, config, fs, progress, track, None, None)
}

/// [`load`], with `named` (the path of `--stdin-filename`) checked whatever its content.
pub(crate) fn load_named(
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    progress: Option<&(dyn Fn(Progress) + Sync)>,
    track: bool,
    named: Option<&Path>,
    cache: Option<&Cache>,
) -> Loaded {
    let mut classifier = Classifier::new(config);
    // Named files are reported on alone, but read with the repository around them.
    let scope = Scope::new(&options.paths, &options.cwd, config);
    let walks: &dyn discover::Walks = match cache {
        Some(c) => c.walks(),
        None => &discover::Fresh,
    };
    let (mut found, mut walk_errors, mut misnamed) =
        discover::discover_with(&scope.roots, &classifier, walks);
    crate::timing::mark("discover");
    let (config_files, definitions): (Vec<_>, Vec<_>) = found
        .into_iter()
        .partition(|d| d.format == source::FormatId::Config);
    found = definitions;
    let buffered: HashSet<&Path> = fs.buffered().into_iter().collect();
    // The walks know which folders have a `toolc.toml` (unless a buffer says otherwise).
    let known = cache.map(|c| Known::with_buffers(fs, c.walks(), &buffered));
    let (configs, config_errors) = ConfigTree::discover(
        config,
        found
            .iter()
            .chain(&config_files)
            .map(|d| d.path.as_path())
            .chain(fs.buffered()),
        known
            .as_ref()
            .map_or(fs as &dyn FileSystem, |k| k as &dyn FileSystem),
        &options.cwd,
    );
    crate::timing::mark("configs");
    // A nested configuration's own include patterns find more files in its folder.
    let nested_roots: Vec<PathBuf> = configs
        .nested()
        .filter(|c| !c.includes.is_empty())
        .map(|c| c.root.clone())
        .collect();
    for nested in configs.nested() {
        classifier.add_excludes(nested);
    }
    if !nested_roots.is_empty() {
        for nested in configs.nested() {
            classifier.add_includes(nested);
        }
        let (more, errors, _) = discover::discover_with(&nested_roots, &classifier, walks);
        found.extend(
            more.into_iter()
                .filter(|d| d.format != source::FormatId::Config),
        );
        walk_errors.extend(errors);
        discover::sort(&mut found);
        discover::dedup(&mut found);
        walk_errors.dedup_by(|a, b| a.path == b.path);
    }
    for path in fs.buffered() {
        if !found.iter().any(|d| d.path == path)
            && let Some(format) = classifier.classify_explicit(path)
            && format != source::FormatId::Config
        {
            found.push(Discovered {
                path: path.to_path_buf(),
                format,
                claim: classifier.claim_of(path, format),
            });
        }
    }
    // A nested configuration's exclude globs are known only now; nothing overrides them.
    found.retain(|d| !classifier.excluded(&d.path));
    misnamed.retain(|p| !classifier.excluded(p));
    for d in &mut found {
        if named == Some(d.path.as_path()) {
            d.claim = discover::Claim::Always;
        }
    }
    discover::sort(&mut found);
    let progress = |step| {
        if let Some(report) = progress {
            report(step);
        }
    };
    progress(Progress::Found(found.len()));
    let cached = cache.map(|cache| Cached {
        cache,
        fs: fs.base(),
        buffered: &buffered,
    });
    let loaded: Vec<_> = found
        .par_iter()
        .map(|d| {
            let mut loaded = load_one(fs, options, d, track, cached);
            if !track && let Some((result, _)) = &mut loaded {
                // A file with no finding of its own lets its text go as soon as it is
                // loaded: a large repository is never all in memory at once, and a
                // finding elsewhere that points into it reads it back.
                // (Its item is decoded now, on this core, unless the cache holds it encoded.)
                result.release_texts(fs.base(), &buffered, cached.is_none());
            }
            progress(Progress::Loaded);
            loaded
        })
        .collect();
    crate::timing::mark("load");
    // What was found and loaded is not held any longer than needed: at 100,000 files each
    // list is megabytes, and a freed one stays as free space beside what resolve keeps.
    let not_claimed: Vec<PathBuf> = found
        .into_iter()
        .zip(&loaded)
        .filter(|(_, l)| l.is_none())
        .map(|(d, _)| d.path)
        .collect();
    let mut reads = HashMap::new();
    // Collected in place: the list of loads becomes the list of results.
    let results: Vec<FileResult> = loaded
        .into_iter()
        .filter_map(|l| {
            let (result, paths) = l?;
            if let Some(paths) = paths.filter(|p| !p.is_empty()) {
                reads.insert(result.file.path.clone(), paths);
            }
            Some(result)
        })
        .collect();
    // A named file is read when it is a definition or a file one of them reads (a schema);
    // asked only of the few files named.
    let read = |p: &Path| {
        results
            .binary_search_by(|r| r.file.path.as_path().cmp(p))
            .is_ok()
            || results
                .iter()
                .any(|r| r.companions.iter().any(|c| c.path == p))
    };
    // A named file left alone on purpose (excluded, or another tool's with `--only-claimed`)
    // is not a file nothing reads.
    let mut unclaimed =
        crate::unclaimed::named_files(&options.paths, &options.cwd, &classifier, &|p| {
            read(p) || not_claimed.iter().any(|n| n == p) || classifier.excluded(p)
        });
    unclaimed.extend(
        misnamed
            .iter()
            .map(|p| crate::unclaimed::diagnostic(p, &options.cwd, &classifier, false)),
    );
    let resolved = match cache {
        Some(c) => c.resolve(fs, &results, &scope.roots),
        None => formats::resolve_with(fs, &results),
    };
    crate::timing::mark("resolve");
    Loaded {
        scope,
        configs,
        config_errors,
        results,
        walk_errors,
        not_claimed,
        unclaimed,
        resolved,
        reads,
    }
}

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
    if !selected || ignored {
        return None;
    }
    match config.setting(rule, path) {
        Setting::Off => None,
        Setting::Level(s) => Some(s),
    }
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
    sources.sort_by(|a, b| a.display.cmp(&b.display));
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
            d.severity = severity;
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
    let targets = options
        .targets
        .clone()
        .unwrap_or_else(|| bundle::checked_targets(config));
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
                .maybe_help(
                    crate::analysis::names::did_you_mean(
                        &code.text,
                        rules::all().iter().flat_map(|r| [r.code, r.name]),
                    )
                    .map(|h| format!("did you mean `{h}`?")),
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
        let covers = |rule: &Rule, file: &Path| {
            scope.covers(file) && only.is_none_or(|o| o == file) && enabled(rule, file).is_some()
        };
        let applied = crate::baseline::apply(path, &options.cwd, &mut diagnostics, &covers);
        baselined = applied.baselined;
        for d in applied.problems {
            if let Some(severity) = enabled(d.rule, &d.file.path) {
                diagnostics.push(Diagnostic { severity, ..d });
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
