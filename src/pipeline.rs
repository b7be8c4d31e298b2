//! The check pipeline, as named stages, each a function of its own:
//!
//! 1. **discover** ([`discover::discover`]): walk, classify, nested configurations;
//! 2. **load** ([`load::load`]): parse, lower and check each file (its format's rules, the
//!    security pass over its texts, the caps on findings), from the cache when it can;
//!    with the custom rules over it, on the trees its load parsed (their findings are
//!    the file's, cached with it);
//! 3. **resolve** ([`resolve`]): the checks across files;
//! 4. **severity** and 5. **suppress** ([`judge`]): each finding configured, or moved aside
//!    by a covering comment; unused suppressions;
//! 6. **baseline** ([`baseline::apply`]): findings the baseline records hidden;
//! 7. **report** ([`report::report`]): filtered to what the run reports on, sorted, counted.
//!
//! `build` is a check plus **emit** ([`emit::compile`]): the bundles compiled from the files
//! whose findings allow it. [`run`] runs them once over the disk (with the cache);
//! the editor's workspace (`src/workspace.rs`) keeps what [`load`] gives and re-runs the
//! stages after it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::bundle;
use crate::cache::Cache;
use crate::config::Config;
use crate::config::tree::ConfigTree;
use crate::diagnostics::Diagnostic;
use crate::discover::WalkError;
use crate::formats::{self, FileResult};
use crate::fs::{self, FileSystem, Overlay};
use crate::scope::Scope;

mod api;
pub(crate) use api::drop_later;
pub use api::{
    Buffer, CheckOptions, Inputs, Progress, Report, check, check_and_compile, check_with,
};
mod baseline;
mod discover;
mod emit;
mod judge;
mod load;
mod reload;
mod report;
mod turned_off;
mod unmatched;

pub(crate) use baseline::write_baseline;
pub(crate) use judge::{checked_targets, enabled, preview_runs};
pub(crate) use load::KeepsText;
pub(crate) use reload::reload;
pub(crate) use report::report;

/// Every file of a run, loaded and resolved: what the later stages start from.
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
    /// Cross-file findings of `results`.
    pub resolved: Vec<Diagnostic>,
    /// The findings of a rule each file shows at most, as the load capped them
    /// ([`crate::diagnostics::budget`]).
    pub level: usize,
    /// With `track`: for each definition, the other paths its load read or looked for
    /// (schema files, programs), so that a change to one of them reloads it.
    pub reads: HashMap<PathBuf, Vec<PathBuf>>,
}

/// Discover, load and resolve the files of `options.paths` through `fs`, without the cache.
/// With `track`, note what each load read besides its file (for [`reload`]).
pub(crate) fn load(
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    progress: Option<&(dyn Fn(Progress) + Sync)>,
    track: bool,
) -> Loaded {
    let mut loaded = stages(options, config, fs, progress, track, None, None);
    loaded.resolved = resolve(fs, &loaded, None, options);
    loaded
}

/// Discover and load the files of `options.paths` through `fs`, without the checks across
/// files (nor ShellCheck): what `toolc diff` and `toolc lock` read, which report none of
/// `check`'s findings.
pub(crate) fn load_definitions(
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    keeps_text: KeepsText,
) -> Loaded {
    load_definitions_beside(options, config, fs, keeps_text, |_, _| ()).0
}

/// [`load_definitions`], running `beside` at the same time once the files are found (given
/// what is walked and the paths found): `toolc diff` loads the old side on another core
/// while the working tree loads (a large file is loaded by one core).
pub(crate) fn load_definitions_beside<T: Send>(
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    keeps_text: KeepsText,
    beside: impl FnOnce(&Scope, &HashSet<PathBuf>) -> T + Send,
) -> (Loaded, T) {
    let mut discovery = discover::discover(options, config, fs, None, &crate::discover::Fresh);
    let found = std::mem::take(&mut discovery.found);
    let paths: HashSet<PathBuf> = found.iter().map(|d| d.path.clone()).collect();
    let (files, other) = rayon::join(
        || {
            let configs = (&discovery.configs, &discovery.scope);
            let keep = load::Keep::Texts(keeps_text);
            load::load(options, fs, configs, found, &|_| {}, keep, None)
        },
        || beside(&discovery.scope, &paths),
    );
    let mut loaded = assemble(options, fs, discovery, files);
    loaded.results.iter_mut().for_each(formats::forget_texts);
    (loaded, other)
}

/// Discover and load; `named` is checked whatever its content, `cache` is used when given.
/// The checks across files are left to [`resolve`].
fn stages(
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    progress: Option<&(dyn Fn(Progress) + Sync)>,
    track: bool,
    named: Option<&Path>,
    cache: Option<&Cache>,
) -> Loaded {
    let progress = |step| {
        if let Some(report) = progress {
            report(step);
        }
    };
    let walks: &dyn crate::discover::Walks = match cache {
        Some(cache) => cache,
        None => &crate::discover::Fresh,
    };
    let mut discovery = discover::discover(options, config, fs, named, walks);
    progress(Progress::Found(discovery.found.len()));
    let found = std::mem::take(&mut discovery.found);
    let files = load::load(
        options,
        fs,
        (&discovery.configs, &discovery.scope),
        found,
        &progress,
        match track {
            true => load::Keep::Tracked,
            false => load::Keep::Texts(|_| false),
        },
        cache,
    );
    assemble(options, fs, discovery, files)
}

/// What discovery found and the load made of it, as the later stages take it.
fn assemble(
    options: &CheckOptions,
    fs: &Overlay,
    discovery: discover::Discovery,
    files: load::Files,
) -> Loaded {
    let unclaimed = load::unread(options, fs, &discovery, &files);
    let discover::Discovery {
        scope,
        configs,
        config_errors,
        walk_errors,
        ..
    } = discovery;
    Loaded {
        scope,
        configs,
        config_errors,
        results: files.results,
        walk_errors,
        not_claimed: files.not_claimed,
        unclaimed,
        resolved: Vec::new(),
        level: files.level,
        reads: files.reads,
    }
}

/// Stage 3, resolve: the checks across files (each format's, and the security pass's), or
/// the cache's findings when nothing they came from changed. A finding of releases its
/// file's project does not target, or of a rule those releases do not have, is never
/// reported: it is left out here, before the cache keeps it (DOJ024 in a project of DojOps
/// 1.0: one per manifest).
fn resolve(
    fs: &dyn FileSystem,
    loaded: &Loaded,
    cache: Option<&Cache>,
    options: &CheckOptions,
) -> Vec<Diagnostic> {
    let (configs, scope, results) = (&loaded.configs, &loaded.scope, &loaded.results);
    let reported = |path: &Path| scope.reports_on(path);
    let targeted = |d: &Diagnostic| {
        let runtimes = &configs.for_path(&d.file.path).runtimes;
        runtimes.applies(d.rule.code) && d.releases.as_deref().is_none_or(|r| runtimes.includes(*r))
    };
    let found = match cache {
        Some(cache) => cache.resolve(fs, results, (&targeted, &configs.targets()), &reported),
        None => {
            let mut found = formats::resolve_passes(
                fs,
                results,
                crate::security::Passes::for_selection(&options.select, &options.ignore),
                &reported,
            );
            found.retain(targeted);
            found
        }
    };
    crate::timing::mark("resolve");
    found
}

/// One run over the disk, with the buffer of `inputs` (if any) over it and reported on
/// alone: every stage, then emit when `bundles`. With the cache, it is read while the walk
/// goes on and written while the report is made.
pub(crate) fn run(
    options: &CheckOptions,
    config: &Config,
    inputs: &Inputs<'_>,
    bundles: bool,
) -> (Report, bundle::Compiled) {
    let mut fs = Overlay::new(Box::new(fs::Confined::for_paths(
        &options.paths,
        &options.cwd,
    )));
    let only = inputs.buffer.as_ref().map(|b| {
        let path = crate::discover::normalize(&options.cwd.join(&b.path));
        fs.set(path.clone(), b.bytes.clone());
        path
    });
    crate::timing::mark("start");
    let passes = crate::security::Passes::for_selection(&options.select, &options.ignore);
    let cache = inputs
        .cache
        .then(|| Cache::open(config, &options.cwd, passes));
    let only = only.as_deref();
    let mut loaded = stages(
        options,
        config,
        &fs,
        inputs.progress,
        false,
        only,
        cache.as_ref(),
    );
    loaded.resolved = resolve(&fs, &loaded, cache.as_ref(), options);
    let finish = |loaded: &mut Loaded| {
        let mut made = report::report_taking(options, config, loaded, only, bundles);
        crate::timing::mark("report");
        // A build reads its tools from the loaded files as it writes them.
        if bundles {
            made.1.hold(std::mem::take(&mut loaded.results));
        }
        made
    };
    let Some(cache) = cache else {
        let made = finish(&mut loaded);
        drop_later(loaded);
        return made;
    };
    if std::env::var_os("TOOLC_DEBUG_CACHE").is_some() {
        let s = cache.stats();
        eprintln!(
            "toolc: cache: {} files from the cache, {} loaded",
            s.hits, s.loaded
        );
    }
    let roots = loaded.scope.roots.clone();
    // The archive is written on the other core while the report is made (nothing of the
    // results reads from it).
    let made = std::thread::scope(|threads| {
        let saving = std::thread::Builder::new().spawn_scoped(threads, || cache.save(&roots));
        let made = finish(&mut loaded);
        if let Ok(saving) = saving {
            let _ = saving.join();
        }
        made
    });
    crate::timing::mark("save");
    drop_later(loaded);
    made
}
