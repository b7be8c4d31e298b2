//! Stage 2, load: each discovered file read, parsed, lowered and checked on its own (its
//! format's rules, the security pass over its texts, the caps on findings), from the cache
//! when nothing it was loaded from changed, and the custom rules over it while the trees
//! its load parsed are in hand; then the files no format reads that the run should mention.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::discover::Discovery;
use super::{CheckOptions, Progress};
use crate::cache::{Cache, Dep, Lookup, Tracker};
use crate::config::tree::ConfigTree;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::budget::Budget;
use crate::discover::Discovered;
use crate::formats::{self, FileResult};
use crate::fs::display_path;
use crate::fs::{FileSystem, Overlay};
use crate::rules::Rule;
use crate::scope::Scope;
use crate::security::Passes;

/// Where a run may take files from the cache, and which files it must read as they are now.
#[derive(Clone, Copy)]
pub(super) struct Cached<'a> {
    /// The repository's cache.
    pub cache: &'a Cache,
    /// The disk under the run's buffers: what cached files are checked against, and where
    /// their texts are read back from.
    pub fs: &'a Arc<dyn FileSystem>,
    /// Files with a buffer over the disk: never from the cache, nor stored.
    pub buffered: &'a HashSet<&'a Path>,
}

/// What loading one discovered file gives.
pub(super) enum Slot {
    /// Its result; with `track`, the other paths its load asked about.
    Loaded(FileResult, Option<Vec<PathBuf>>),
    /// Its content says it is not its format's.
    NotClaimed,
}

/// The files of a run, loaded.
pub(super) struct Files {
    /// One result per claimed file, sorted by path.
    pub results: Vec<FileResult>,
    /// The findings of a rule each file shows at most: every file was capped at it or
    /// above as it was loaded ([`crate::diagnostics::budget`]).
    pub level: usize,
    /// Files at a format's paths whose content is not that format's. Sorted.
    pub not_claimed: Vec<PathBuf>,
    /// With `track`: what each definition's load read besides it.
    pub reads: HashMap<PathBuf, Vec<PathBuf>>,
}

/// Run the custom rules of `configs` over a file just loaded, on the trees its load parsed
/// (then let go): their findings join the file's own, and are cached with them.
fn run_custom(configs: &ConfigTree, result: &mut FileResult) {
    let kept = result.trees.as_mut().and_then(|t| t.root.take());
    let checked = {
        let r = &*result;
        crate::custom::check_one(configs, &r.file, kept, &|sink| {
            formats::lower_each(std::slice::from_ref(r), &|_| true, sink)
        })
    };
    result.trees = None;
    result.diagnostics.extend(checked.found);
    result.custom_matched = checked.matched;
}

/// Load one file (with `track`, also say what other paths its load asked about), with the
/// findings of the custom rules of `configs` on it. With `cached`, the file comes from the
/// cache when nothing it was loaded from changed (nor the custom rules that read it), and
/// is stored otherwise.
pub(super) fn load_one(
    fs: &dyn FileSystem,
    options: &CheckOptions,
    configs: &ConfigTree,
    d: &Discovered,
    track: bool,
    cached: Option<Cached<'_>>,
) -> Slot {
    let (path, format) = (d.path.as_path(), d.format);
    let cached = cached.filter(|c| c.buffered.is_empty() || !c.buffered.contains(path));
    let custom = crate::custom::fingerprint(configs, path, format);
    if let Some(c) = cached {
        let lookup = Lookup {
            path,
            format,
            claim: d.claim,
            fs: c.fs,
            buffered: c.buffered,
            custom,
        };
        if let Some(hit) = c.cache.get(&lookup) {
            return match hit.result {
                Some(result) => {
                    let deps = track.then(|| hit.deps.iter().map(|d| d.path().into()).collect());
                    Slot::Loaded(result, deps)
                }
                None => Slot::NotClaimed,
            };
        }
    }
    let display = display_path(path, &options.cwd);
    if !track && cached.is_none() {
        let passes = Passes::for_selection(&options.select, &options.ignore);
        return match formats::load_claimed_with(fs, path, display, format, d.claim, passes) {
            Some(mut result) => {
                run_custom(configs, &mut result);
                Slot::Loaded(result, None)
            }
            None => Slot::NotClaimed,
        };
    }
    let tracker = Tracker::for_file(fs, path);
    // With the cache too: what it keeps is of the run's passes, which are in its key.
    let passes = Passes::for_selection(&options.select, &options.ignore);
    let mut judged = formats::load_judged_with(&tracker, path, display, format, d.claim, passes);
    if let Ok(result) = judged.as_mut() {
        run_custom(configs, result);
    }
    // From before the load's first read of the file.
    let stat = tracker.own_stat();
    let (deps, comparable) = tracker.finish(path);
    if let Some(c) = cached {
        let stat =
            stat.filter(|_| comparable && !deps.iter().any(|d| c.buffered.contains(d.path())));
        let stored = c.cache.put(
            (path, format),
            stat,
            d.claim,
            judged.as_ref(),
            &deps,
            custom,
        );
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

/// Whether a loaded file of a format keeps its text though it has no finding: what reads the
/// file again after the load (the records of `toolc lock` and `toolc diff`) reads it from
/// there instead.
pub(crate) type KeepsText = fn(crate::source::FormatId) -> bool;

/// What a load keeps of the files it read.
#[derive(Clone, Copy)]
pub(super) enum Keep {
    /// The texts of the files with findings, and of those the format keeps.
    Texts(KeepsText),
    /// Every text, and what each definition's load read besides it (for `reload`).
    Tracked,
}

/// Load every file `found` holds, on every core, reporting progress.
pub(super) fn load(
    options: &CheckOptions,
    fs: &Overlay,
    (configs, scope): (&ConfigTree, &Scope),
    found: Vec<Discovered>,
    progress: &(dyn Fn(Progress) + Sync),
    keep: Keep,
    cache: Option<&Cache>,
) -> Files {
    let (track, keeps_text): (bool, KeepsText) = match keep {
        Keep::Texts(keeps) => (false, keeps),
        Keep::Tracked => (true, |_| true),
    };
    let buffered: HashSet<&Path> = fs.buffered().into_iter().collect();
    let cached = cache.map(|cache| Cached {
        cache,
        fs: fs.base(),
        buffered: &buffered,
    });
    let budget = Budget::default();
    let runs = shown(options, configs, scope);
    let loaded: Vec<Slot> = found
        .par_iter()
        .map(|d| {
            let mut slot = load_one(fs, options, configs, d, track, cached);
            if let Slot::Loaded(result, _) = &mut slot {
                // After the cache kept them whole: what a run shows depends on the others.
                result.diagnostics = budget.hold(std::mem::take(&mut result.diagnostics), &runs);
                // Held until the report, in room of their number: a list grown by pushes
                // has room for four, and a file of one finding held 550 bytes of nothing.
                result.diagnostics.shrink_to_fit();
                if !keeps_text(result.file.format) {
                    // A file with no finding of its own to show lets its text go as soon as
                    // it is loaded: a large repository is never all in memory at once, and a
                    // finding elsewhere that points into it reads it back.
                    let shown = |d: &Diagnostic| runs(d.rule, &d.file.path);
                    result.release_texts(fs.base(), &buffered, cached.is_none(), &shown);
                }
            }
            progress(Progress::Loaded);
            slot
        })
        .collect();
    crate::timing::mark("load");
    let not_claimed = found
        .into_iter()
        .zip(&loaded)
        .filter(|(_, slot)| matches!(slot, Slot::NotClaimed))
        .map(|(d, _)| d.path)
        .collect();
    let mut reads = HashMap::new();
    // Collected in place: the list of loads becomes the list of results.
    let results = loaded
        .into_iter()
        .filter_map(|slot| match slot {
            Slot::Loaded(result, paths) => {
                if let Some(paths) = paths.filter(|p| !p.is_empty()) {
                    reads.insert(result.file.path.clone(), paths);
                }
                Some(result)
            }
            Slot::NotClaimed => None,
        })
        .collect();
    Files {
        results,
        level: budget.level(),
        not_claimed,
        reads,
    }
}

/// Whether a finding of a rule in a file is counted toward the run's findings: the report
/// shows it (a rule that runs, on a file reported on: `check FILE` reads the whole
/// repository).
pub(super) fn shown<'a>(
    options: &'a CheckOptions,
    configs: &'a ConfigTree,
    scope: &'a Scope,
) -> impl Fn(&Rule, &Path) -> bool + 'a {
    move |rule, path| {
        scope.reports_on(path)
            && super::enabled(options, configs.for_path(path), rule, path).is_some()
    }
}

/// The files no format reads that the run should mention: named ones, near-miss names, and
/// `*.tool.md` files that are not tool definitions.
pub(super) fn unread(
    options: &CheckOptions,
    fs: &Overlay,
    discovery: &Discovery,
    files: &Files,
) -> Vec<Diagnostic> {
    let (classifier, results) = (&discovery.classifier, &files.results);
    // The companions by path, made on the first file named: it may be a schema a tool read.
    let companions = std::sync::OnceLock::new();
    let read = |p: &Path| {
        results
            .binary_search_by(|r| r.file.path.as_path().cmp(p))
            .is_ok()
            || companions
                .get_or_init(|| {
                    results
                        .iter()
                        .flat_map(|r| r.companions.iter().map(|c| c.path.as_path()))
                        .collect::<HashSet<&Path>>()
                })
                .contains(p)
    };
    // A named file left alone on purpose (excluded, or another tool's with `--only-claimed`)
    // is not a file nothing reads.
    let mut unclaimed =
        crate::unclaimed::named_files(&options.paths, &options.cwd, classifier, &|p| {
            read(p) || files.not_claimed.iter().any(|n| n == p) || classifier.excluded(p)
        });
    unclaimed.extend(
        discovery
            .misnamed
            .iter()
            .map(|p| crate::unclaimed::diagnostic(p, &options.cwd, classifier, false)),
    );
    unclaimed.extend(formats::tool_md::strays(
        &files.not_claimed,
        results,
        fs,
        &options.cwd,
    ));
    unclaimed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::Claim;
    use crate::source::FormatId;

    /// The findings of loading a DojOps tool whose schema is not valid JSON Schema, in a run
    /// ignoring `ignore`, before any rule is turned off (what the load itself ran).
    fn codes_loaded(ignore: &[&str]) -> Vec<&'static str> {
        let dir =
            std::env::temp_dir().join(format!("toolc-load-{}-{ignore:?}", std::process::id()));
        let tool = dir.join(".dojops/tools/a");
        std::fs::create_dir_all(&tool).expect("mkdir");
        std::fs::write(
            tool.join("tool.yaml"),
            "spec: 1\nname: tool-a\nversion: \"1.0.0\"\ntype: tool\ndescription: \"x\"\ninputSchema: \"input.schema.json\"\ngenerator:\n  strategy: llm\n  systemPrompt: \"p\"\nfiles:\n  - path: \"out/a.yaml\"\n    serializer: yaml\n",
        )
        .expect("write");
        std::fs::write(tool.join("input.schema.json"), r#"{"type": "objekt"}"#).expect("write");
        let options = CheckOptions {
            cwd: dir.clone(),
            ignore: ignore.iter().map(|s| s.to_string()).collect(),
            ..CheckOptions::default()
        };
        let found = Discovered {
            path: tool.join("tool.yaml"),
            format: FormatId::DojopsTool,
            claim: Claim::Always,
        };
        let configs = ConfigTree::single(&crate::config::Config::defaults_at(&dir));
        let slot = load_one(&crate::fs::Disk, &options, &configs, &found, false, None);
        let _ = std::fs::remove_dir_all(&dir);
        match slot {
            Slot::Loaded(result, _) => result.diagnostics.iter().map(|d| d.rule.code).collect(),
            Slot::NotClaimed => panic!("the tool is claimed"),
        }
    }

    #[test]
    fn schema_validation_runs_only_when_a_schema_rule_can_report() {
        assert!(codes_loaded(&[]).contains(&"SCH001"));
        assert!(!codes_loaded(&["SCH"]).iter().any(|c| c.starts_with("SCH")));
        // Another family ignored: schemas are still validated.
        assert!(codes_loaded(&["SHC"]).contains(&"SCH001"));
    }
}
