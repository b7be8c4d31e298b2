//! Stage 1, discover: walk the run's roots, classify each path, read the nested
//! configurations and add the files they include, and the editor's buffers.

use std::path::{Path, PathBuf};

use super::CheckOptions;
use crate::config::Config;
use crate::config::tree::ConfigTree;
use crate::diagnostics::Diagnostic;
use crate::discover::{self, Classifier, Discovered, WalkError};
use crate::fs::{FileSystem, Overlay};
use crate::scope::Scope;
use crate::source::FormatId;

/// What discovery found.
pub(super) struct Discovery {
    /// What is walked and what is reported on.
    pub scope: Scope,
    /// How paths are classified (with the nested configurations' excludes).
    pub classifier: Classifier,
    /// The configuration of each file.
    pub configs: ConfigTree,
    /// Findings on nested configuration files: those that cannot be used, and what their
    /// excludes hide (TLC009).
    pub config_errors: Vec<Diagnostic>,
    /// The definition files to load, sorted by path.
    pub found: Vec<Discovered>,
    /// Paths that could not be walked.
    pub walk_errors: Vec<WalkError>,
    /// Files whose names nearly match a format's.
    pub misnamed: Vec<PathBuf>,
}

/// Discover the files of `options.paths` through `fs`. A buffer of `fs` whose file is not on
/// disk (or not under the walked paths) is found too when its name says its format; `named`
/// (the path of `--stdin-filename`) is checked whatever its content. The roots are walked
/// through `walks` (the cache's, or the disk's).
pub(super) fn discover(
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    named: Option<&Path>,
    walks: &dyn discover::Walks,
) -> Discovery {
    let mut classifier = crate::formats::classifier(config);
    // Named files are reported on alone, but read with the repository around them.
    let scope = Scope::new(&options.paths, &options.cwd, config);
    let (found, mut walk_errors, mut misnamed) =
        discover::discover_with(&scope.roots, &classifier, walks);
    crate::timing::mark("walk");
    let (config_files, mut found): (Vec<_>, Vec<_>) = found
        .into_iter()
        .partition(|d| d.format == FormatId::Config);
    // What the walk saw of each folder's `toolc.toml`, unless a buffer may stand for one.
    let buffers = fs.buffered();
    let known = |dir: &Path| buffers.is_empty().then(|| walks.holds_config(dir))?;
    let (configs, config_errors) = ConfigTree::discover(
        config,
        found
            .iter()
            .chain(&config_files)
            .map(|d| d.path.as_path())
            .chain(fs.buffered()),
        (fs as &dyn FileSystem, &known),
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
        found.extend(more.into_iter().filter(|d| d.format != FormatId::Config));
        walk_errors.extend(errors);
        discover::sort_unique(&mut found);
        walk_errors.dedup_by(|a, b| a.path == b.path);
    }
    let walked = found.len();
    for path in fs.buffered() {
        if !found.iter().any(|d| d.path == path)
            && let Some(format) = classifier.classify_explicit(path)
            && format != FormatId::Config
        {
            found.push(Discovered {
                path: path.to_path_buf(),
                format,
                claim: classifier.claim_of(path, format),
            });
        }
    }
    // A nested configuration's exclude globs are known only now; nothing overrides them.
    // What they hide is said (TLC009): the configuration above would have checked it.
    let (hidden, kept): (Vec<Discovered>, Vec<Discovered>) = found
        .into_iter()
        .partition(|d| classifier.excluded(&d.path));
    found = kept;
    let hidden: Vec<&Path> = hidden.iter().map(|d| d.path.as_path()).collect();
    let mut config_errors = config_errors;
    config_errors.extend(super::turned_off::excluded_below(
        &configs,
        &hidden,
        &options.cwd,
    ));
    misnamed.retain(|p| !classifier.excluded(p));
    for d in &mut found {
        if named == Some(d.path.as_path()) {
            d.claim = discover::Claim::Always;
        }
    }
    // Sorted and unique as walked: only buffers come after.
    if found.len() > walked {
        discover::sort_unique(&mut found);
    }
    Discovery {
        scope,
        classifier,
        configs,
        config_errors,
        found,
        walk_errors,
        misnamed,
    }
}
