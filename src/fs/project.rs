//! Where a folder's repository and project are: the folders above it that hold `.git` or
//! `toolc.toml`. Every layer asks (configuration, discovery, the file-system boundary), so
//! this sits with the boundary.

use std::path::{Path, PathBuf};

/// The name of toolc's configuration file.
pub(crate) const CONFIG_FILE: &str = "toolc.toml";

/// The repository around `folder`: the nearest folder above with `.git`, else `folder`.
pub(crate) fn repository_of(folder: &Path) -> PathBuf {
    git_root(folder).unwrap_or(folder).to_path_buf()
}

/// The project `folder` is in: the nearest folder at or above it that holds `toolc.toml`
/// (whose configuration its files take) or `.git` (where one would go).
pub(crate) fn project_of(folder: &Path) -> Option<&Path> {
    folder
        .ancestors()
        .find(|d| d.join(CONFIG_FILE).is_file() || d.join(".git").exists())
}

/// The nearest folder at or above `folder` that holds `.git`.
pub(crate) fn git_root(folder: &Path) -> Option<&Path> {
    folder.ancestors().find(|d| d.join(".git").exists())
}

/// True when a configuration in `folder`, named on the command line from `cwd`, lies
/// neither in the repository of `cwd` nor, outside git, above `cwd`
/// (`--config ../common/toolc.toml`): it is only read, and what a run writes (the cache, a
/// baseline, bundles) goes in the repository of `cwd`.
pub(crate) fn named_from_outside(folder: &Path, cwd: &Path) -> bool {
    let folder = super::normalize(folder);
    !(folder.starts_with(repository_of(cwd))
        || (git_root(cwd).is_none() && cwd.starts_with(&folder)))
}

/// The folder a configuration file in `folder` may read within: its git repository, else
/// the working directory when `folder` is inside it, else `folder` itself.
pub(crate) fn boundary(folder: &Path, cwd: &Path) -> PathBuf {
    if let Some(git) = git_root(folder) {
        git.to_path_buf()
    } else if folder.starts_with(cwd) {
        cwd.to_path_buf()
    } else {
        folder.to_path_buf()
    }
}
