//! A file where a format expects its definition under a near-miss name
//! (`.dojops/tools/x/tool.yml` beside the `tool.yaml` DojOps reads): found by the walk,
//! reported by `unclaimed`.

use std::path::{Path, PathBuf};

use super::Classifier;
use crate::source::FormatId;

/// The names a misnamed definition likely meant: its extension swapped between `.yml` and
/// `.yaml`, lowercased, a plural suffix made singular, a request's prefix in capitals.
fn candidates(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(stem) = name.strip_suffix(".yml") {
        out.push(format!("{stem}.yaml"));
    } else if let Some(stem) = name.strip_suffix(".yaml") {
        out.push(format!("{stem}.yml"));
    }
    let lower = name.to_lowercase();
    if lower != name {
        out.push(lower.clone());
        if let Some(stem) = lower.strip_suffix(".yml") {
            out.push(format!("{stem}.yaml"));
        }
    }
    for (plural, singular) in [(".tools.md", ".tool.md"), (".agents.md", ".agent.md")] {
        if let Some(stem) = name.strip_suffix(plural) {
            out.push(format!("{stem}{singular}"));
        }
    }
    if let Some(rest) = name
        .strip_prefix("tr-")
        .or_else(|| name.strip_prefix("Tr-"))
    {
        out.push(format!("TR-{rest}"));
    }
    out
}

/// The name a format would read `path` under, and that format, when one is a near miss.
/// `explicit`: also by name alone (a file named on the command line), not only by pattern.
pub(crate) fn near_miss(
    path: &Path,
    classifier: &Classifier,
    explicit: bool,
) -> Option<(String, FormatId)> {
    let name = path.file_name()?.to_str()?;
    candidates(name).into_iter().find_map(|candidate| {
        let renamed = path.with_file_name(&candidate);
        let format = if explicit {
            classifier.classify_explicit(&renamed)
        } else {
            classifier.classify(&renamed)
        };
        format.map(|f| (candidate, f))
    })
}

/// A walked file that a format would read under a near-miss name, if `path` is one.
pub(crate) fn misnamed(path: &Path, classifier: &Classifier) -> Option<PathBuf> {
    near_miss(path, classifier, false).map(|_| path.to_path_buf())
}
