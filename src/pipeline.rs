//! The check pipeline over one set of files: discover and load ([`load`]), then resolve,
//! configure, suppress and report ([`report`]). [`crate::check`] runs both once; a
//! [`crate::Workspace`] keeps what [`load`] gives and re-runs [`report`] after a change.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::cache::{Cache, Deferred, Dep, Found, Known, Lookup, Tracker};
use crate::config::Config;
use crate::config::tree::ConfigTree;
use crate::diagnostics::Diagnostic;
use crate::discover::{self, Discovered, WalkError, display_path};
use crate::formats::{self, FileResult};
use crate::fs::{FileSystem, Overlay};
use crate::scope::Scope;
use crate::security::Passes;
use crate::source;
use crate::{CheckOptions, Progress};

mod reload;
mod report;
pub(crate) use report::preview_runs;

pub(crate) use reload::reload;
pub(crate) use report::{checked_targets, enabled, report};

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

/// How a run uses the repository's cache.
#[derive(Clone, Copy)]
pub(crate) struct UseCache<'a> {
    /// The cache.
    pub cache: &'a Cache,
    /// The report needs the results of the files it reports on only (no bundle, no lockfile
    /// check, no compatibility target): the others may stay in the cache.
    pub reported_only: bool,
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
    /// With it, the files the run reports on: the results of others may stay in the cache.
    pub reported: Option<&'a (dyn Fn(&Path) -> bool + Sync)>,
}

/// What loading one discovered file gives.
enum Slot {
    /// Its result; with `track`, the other paths its load asked about.
    Loaded(FileResult, Option<Vec<PathBuf>>),
    /// Left in the cache, unchanged (the run does not report on it).
    Deferred(Deferred),
    /// Its content says it is not its format's.
    NotClaimed,
}

/// Load one file (with `track`, also say what other paths its load asked about). With
/// `cached`, the file comes from the cache when nothing it was loaded from changed (and is
/// left there when the run does not need its result), and is stored otherwise.
fn load_one(
    fs: &dyn FileSystem,
    options: &CheckOptions,
    d: &Discovered,
    track: bool,
    cached: Option<Cached<'_>>,
) -> Slot {
    let (path, format) = (d.path.as_path(), d.format);
    let cached = cached.filter(|c| c.buffered.is_empty() || !c.buffered.contains(path));
    if let Some(c) = cached {
        let lookup = Lookup {
            path,
            format,
            claim: d.claim,
            cwd: &options.cwd,
            fs: c.fs,
            buffered: c.buffered,
            track,
            reported: c.reported,
        };
        match c.cache.get(&lookup) {
            Some(Found::Hit(hit)) => {
                return match hit.result {
                    Some(result) => Slot::Loaded(result, track.then_some(hit.deps)),
                    None => Slot::NotClaimed,
                };
            }
            Some(Found::Deferred(deferred)) => return Slot::Deferred(deferred),
            None => {}
        }
    }
    let display = display_path(path, &options.cwd);
    if !track && cached.is_none() {
        let passes = Passes::for_selection(&options.select, &options.ignore);
        return match formats::load_claimed_with(fs, path, display, format, d.claim, passes) {
            Some(result) => Slot::Loaded(result, None),
            None => Slot::NotClaimed,
        };
    }
    let tracker = Tracker::for_file(fs, path);
    let mut judged = match cached {
        // What the cache keeps is every pass's: it serves runs that select other rules.
        Some(_) => formats::load_judged(&tracker, path, display, format, d.claim),
        None => {
            let passes = Passes::for_selection(&options.select, &options.ignore);
            formats::load_judged_with(&tracker, path, display, format, d.claim, passes)
        }
    };
    // From before the load's first read of the file (the open file's own, which saves
    // asking for it apart).
    let stat = cached.and_then(|_| tracker.own_stat());
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
    match judged {
        Ok(result) => Slot::Loaded(result, paths),
        Err(_) => Slot::NotClaimed,
    }
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
    cache: Option<UseCache<'_>>,
) -> Loaded {
    let mut classifier = crate::formats::classifier(config);
    // Named files are reported on alone, but read with the repository around them.
    let scope = Scope::new(&options.paths, &options.cwd, config);
    if let Some(c) = cache {
        c.cache.prefetch(&scope.roots);
    }
    let walks: &dyn discover::Walks = match cache {
        Some(c) => c.cache.walks(),
        None => &discover::Fresh,
    };
    let (mut found, mut walk_errors, mut misnamed) =
        discover::discover_with(&scope.roots, &classifier, walks);
    crate::timing::mark("sort found");
    let (config_files, definitions): (Vec<_>, Vec<_>) = found
        .into_iter()
        .partition(|d| d.format == source::FormatId::Config);
    found = definitions;
    let buffered: HashSet<&Path> = fs.buffered().into_iter().collect();
    // The walks know which folders have a `toolc.toml` (unless a buffer says otherwise).
    let known = cache.map(|c| Known::with_buffers(fs, c.cache.walks(), &buffered));
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
        discover::sort_unique(&mut found);
        walk_errors.dedup_by(|a, b| a.path == b.path);
    }
    let walked = found.len();
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
    // Sorted and unique as walked (a claim is the last key, and each path and format is
    // there once): only buffers come after.
    if found.len() > walked {
        discover::sort_unique(&mut found);
    }
    let progress = |step| {
        if let Some(report) = progress {
            report(step);
        }
    };
    progress(Progress::Found(found.len()));
    let reported = |p: &Path| scope.reports_on(p);
    // Only what the report needs is rebuilt from the cache: a file the run does not report
    // on matters to it only through the cross-file findings, kept while nothing changed.
    let defer = cache.is_some_and(|c| c.reported_only)
        && !track
        && buffered.is_empty()
        && !scope.reports_all();
    if let Some(c) = cache {
        c.cache.expect(found.len());
    }
    let cached = cache.map(|c| Cached {
        cache: c.cache,
        fs: fs.base(),
        buffered: &buffered,
        reported: defer.then_some(&reported as &(dyn Fn(&Path) -> bool + Sync)),
    });
    let loaded: Vec<Slot> = found
        .par_iter()
        .map(|d| {
            let mut loaded = load_one(fs, options, d, track, cached);
            if !track && let Slot::Loaded(result, _) = &mut loaded {
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
        .filter(|(_, slot)| matches!(slot, Slot::NotClaimed))
        .map(|(d, _)| d.path)
        .collect();
    let mut reads = HashMap::new();
    let mut deferred = Vec::new();
    // A deferred file's place among the results and the deferred files, in walk order.
    let mut place = 0;
    // Collected in place: the list of loads becomes the list of results.
    let mut results: Vec<FileResult> = loaded
        .into_iter()
        .filter_map(|slot| match slot {
            Slot::Loaded(result, paths) => {
                place += 1;
                if let Some(paths) = paths.filter(|p| !p.is_empty()) {
                    reads.insert(result.file.path.clone(), paths);
                }
                Some(result)
            }
            Slot::Deferred(mut left) => {
                left.at = place;
                place += 1;
                deferred.push(left);
                None
            }
            Slot::NotClaimed => None,
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
    unclaimed.extend(formats::tool_md::strays(
        &not_claimed,
        &results,
        fs,
        &options.cwd,
    ));
    let resolved = match cache {
        Some(c) => c
            .cache
            .resolve(fs, fs.base(), &mut results, deferred, &scope.roots),
        None => formats::resolve_passes(
            fs,
            &results,
            Passes::for_selection(&options.select, &options.ignore),
        ),
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
