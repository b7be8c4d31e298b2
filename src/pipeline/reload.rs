//! An editor's re-check: after one file changed, reload it and the definitions whose load
//! read it, keep the rest of what [`super::load`] gave, and resolve again.

use std::path::{Path, PathBuf};

use super::CheckOptions;
use super::Loaded;
use super::load::{Slot, load_one};
use crate::config::Config;
use crate::diagnostics::budget::Budget;
use crate::discover::Discovered;
use crate::formats;
use crate::fs::{FileSystem, Overlay};
use crate::source;

/// After the file at `path` (absolute, normalized) changed through `fs`: reload it when it is
/// a definition (replaced, added when new and its name says its format, dropped when gone),
/// reload every definition whose load read it (a DojOps schema file), then resolve again.
/// Returns false when nothing toolc reads depends on `path`.
pub(crate) fn reload(
    loaded: &mut Loaded,
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    path: &Path,
) -> bool {
    let mut targets: Vec<PathBuf> = loaded
        .reads
        .iter()
        // Compared as text (paths are normalized): a `Path` compares part by part.
        .filter(|(_, paths)| paths.iter().any(|p| p.as_os_str() == path.as_os_str()))
        .map(|(definition, _)| definition.clone())
        .collect();
    targets.push(path.to_path_buf());
    let mut any = false;
    for target in &targets {
        any |= reload_one(loaded, options, config, fs, target);
    }
    if any {
        let scope = &loaded.scope;
        loaded.resolved = formats::resolve_with(fs, &loaded.results, &|p| scope.reports_on(p));
        // The level the files need now: an edit that fixes (or makes) most of a workspace's
        // findings shows more (or fewer) of each rule in each file, as a new load would.
        let budget = Budget::default();
        let runs = super::load::shown(options, &loaded.configs, scope);
        for result in &loaded.results {
            budget.count(&result.diagnostics, &runs);
        }
        loaded.level = budget.level();
    }
    any
}

/// Reload one definition file; false when `path` is not one. A file whose content stops (or
/// starts) having its format's shape leaves (or joins) the results.
fn reload_one(
    loaded: &mut Loaded,
    options: &CheckOptions,
    config: &Config,
    fs: &Overlay,
    path: &Path,
) -> bool {
    let mut classifier = crate::formats::classifier(config);
    for nested in loaded.configs.nested() {
        classifier.add_excludes(nested);
    }
    if classifier.excluded(path) {
        return false;
    }
    let at = loaded
        .results
        .binary_search_by(|r| r.file.path.as_path().cmp(path));
    let format = match at {
        Ok(i) => Some(loaded.results[i].file.format),
        Err(_) => classifier
            .classify_explicit(path)
            .filter(|f| *f != source::FormatId::Config),
    };
    let Some(format) = format else {
        return false;
    };
    let not_claimed_at = loaded
        .not_claimed
        .binary_search_by(|p| p.as_path().cmp(path));
    if let Ok(u) = not_claimed_at {
        loaded.not_claimed.remove(u);
    }
    match (at, fs.is_file(path)) {
        (Ok(i), false) => {
            loaded.results.remove(i);
            loaded.reads.remove(path);
        }
        (Err(_), false) => return false,
        (at, true) => {
            let d = Discovered {
                path: path.to_path_buf(),
                format,
                claim: classifier.claim_of(path, format),
            };
            let Slot::Loaded(result, reads) =
                load_one(fs, options, &loaded.configs, &d, true, None)
            else {
                if let Ok(i) = at {
                    loaded.results.remove(i);
                    loaded.reads.remove(path);
                }
                let u = not_claimed_at.unwrap_or_else(|u| u);
                loaded.not_claimed.insert(u, path.to_path_buf());
                return true;
            };
            match at {
                Ok(i) => loaded.results[i] = result,
                Err(i) => loaded.results.insert(i, result),
            }
            match reads {
                Some(paths) if !paths.is_empty() => {
                    loaded.reads.insert(path.to_path_buf(), paths);
                }
                _ => {
                    loaded.reads.remove(path);
                }
            }
        }
    }
    true
}
