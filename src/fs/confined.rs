//! The disk as a run reads it: confined to the repositories being checked.

use std::path::{Path, PathBuf};

#[cfg(target_os = "linux")]
use super::beneath;
use super::{DirEntry, Disk, FileSystem, Noted, ReadError, boundary, normalize, project};

/// The disk, confined to some folders (the repositories being checked): a path that is, or
/// passes through, a symbolic link whose target lies outside all of them is never read, and is
/// not a file. A committed link to `/etc/passwd` or to a secrets file must not be read, or its
/// content would be echoed in a snippet. Plain `..` paths are not links: rules judge those.
/// Existence is answered as the disk answers it: what matters is that nothing is read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Confined {
    roots: Vec<PathBuf>,
    /// The roots opened, to open files beneath them without following links (Linux).
    #[cfg(target_os = "linux")]
    opened: Vec<beneath::Root>,
}

impl Confined {
    /// The disk within `roots` (each resolved to its real path).
    pub(crate) fn new<'a>(roots: impl IntoIterator<Item = &'a Path>) -> Confined {
        let roots: Vec<PathBuf> = roots
            .into_iter()
            .filter_map(|r| std::fs::canonicalize(r).ok())
            .collect();
        Confined {
            #[cfg(target_os = "linux")]
            opened: roots
                .iter()
                .filter_map(|r| beneath::Root::open(r))
                .collect(),
            roots,
        }
    }

    /// The folders toolc may read within for the paths a run names (relative to `cwd`): the
    /// git repository of each (the nearest folder with `.git`), else the path's own folder.
    pub(crate) fn for_paths(paths: &[PathBuf], cwd: &Path) -> Confined {
        // A named path a link leads out of its repository from gives no root: its target
        // is never a place toolc may read in.
        let named: Vec<PathBuf> = if paths.is_empty() {
            vec![cwd.to_path_buf()]
        } else {
            paths
                .iter()
                .filter(|p| boundary::named(p, cwd).is_ok())
                .map(|p| cwd.join(p))
                .collect()
        };
        let spelt: Vec<PathBuf> = named.iter().map(|p| normalize(p)).collect();
        // Real paths first: `a/../b` must look for `.git` above `b`, not above `a`.
        let named: Vec<PathBuf> = named
            .iter()
            .zip(&spelt)
            .map(|(p, spelt)| std::fs::canonicalize(p).unwrap_or_else(|_| spelt.clone()))
            .collect();
        let roots: Vec<PathBuf> = named
            .iter()
            .map(|p| {
                let folder = if p.is_dir() {
                    p.as_path()
                } else {
                    p.parent().unwrap_or(p)
                };
                project::repository_of(folder)
            })
            .collect();
        let confined = Confined::new(roots.iter().map(PathBuf::as_path));
        // A run reads paths as they were named: through a link above the repository, they
        // are another spelling of the same root.
        #[cfg(target_os = "linux")]
        let confined = {
            let mut confined = confined;
            for ((spelt, real), root) in spelt.iter().zip(&named).zip(&roots) {
                let same = confined.opened.iter().find(|r| r.is(root)).cloned();
                if let (Some(spelling), Some(same)) = (spelling_of(root, real, spelt), same) {
                    confined.opened.push(same.spelt(spelling));
                }
            }
            confined
        };
        confined
    }

    /// True when `path` lies in a root's `.git` as written: a definition's `inputSchema:
    /// ../../../.git/config` would print the remotes in a snippet.
    fn spelt_into_git(&self, path: &Path) -> bool {
        let spelt = normalize(path);
        #[cfg(target_os = "linux")]
        let spelt_in_git = self.opened.iter().any(|r| in_git(&spelt, r.spelling()));
        #[cfg(not(target_os = "linux"))]
        let spelt_in_git = false;
        spelt_in_git || self.roots.iter().any(|r| in_git(&spelt, r))
    }

    /// Why `path` may not be read through the links on its way: one leads out of every root
    /// or into a `.git`.
    fn link_refusal(&self, path: &Path) -> Option<ReadError> {
        let real = linked(path)?;
        if self.roots.iter().any(|r| in_git(&real, r)) {
            Some(ReadError::IntoGit)
        } else {
            self.outside_roots(&real)
                .then_some(ReadError::LeavesRepository)
        }
    }

    /// The real path of `path` when a link on its way leads outside every root.
    fn outside(&self, path: &Path) -> Option<PathBuf> {
        linked(path).filter(|real| self.outside_roots(real))
    }

    fn outside_roots(&self, real: &Path) -> bool {
        !self.roots.iter().any(|r| real.starts_with(r))
    }
}

/// The real path of `path` when a link is on its way (none when it is its own real path, or
/// dangles: the disk reports that as it is).
fn linked(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok().filter(|real| real != path)
}

/// True when `path` lies in the `.git` of `root`.
fn in_git(path: &Path, root: &Path) -> bool {
    path.strip_prefix(root).is_ok_and(boundary::names_git)
}

impl FileSystem for Confined {
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        self.read_noted(path).bytes
    }

    fn read_noted(&self, path: &Path) -> Noted {
        let refused = |e| Noted {
            bytes: Err(e),
            before: None,
        };
        if self.spelt_into_git(path) {
            return refused(ReadError::IntoGit);
        }
        // Most files are reached through no link at all: one call proves it and opens them.
        #[cfg(target_os = "linux")]
        if let Some(read) = beneath::read(&self.opened, path) {
            return read;
        }
        if let Some(e) = self.link_refusal(path) {
            return refused(e);
        }
        Disk.read_noted(path)
    }

    // A link out of the repository still "is" a file, so the reader that asked gets the read
    // error (and says the link leaves the repository) rather than "does not exist".
    fn is_file(&self, path: &Path) -> bool {
        Disk.is_file(path)
    }

    fn list_dir(&self, path: &Path) -> Vec<DirEntry> {
        if self.spelt_into_git(path) {
            return Vec::new();
        }
        // Most folders are reached through no link: one call proves it and opens them, and
        // the listing is read from what it opened (listed again by name, a link swapped in
        // meanwhile would be followed). Resolving every part instead made listing a chain
        // of 800 folders take 5 s (a `readlink` per part per folder, each from `/`).
        #[cfg(target_os = "linux")]
        if let Some(listed) = beneath::list_dir(&self.opened, path) {
            return listed;
        }
        if self.link_refusal(path).is_some() {
            return Vec::new();
        }
        Disk.list_dir(path)
    }

    fn link_out(&self, path: &Path) -> Option<PathBuf> {
        // Most paths pass through no link at all: one call proves it.
        #[cfg(target_os = "linux")]
        if beneath::no_link(&self.opened, path) {
            return None;
        }
        self.outside(path)
    }
}

/// How the path `spelt` (normalized) spells the folder `root`, when `spelt` is `real` (its
/// real path, at or below `root`) reached through a link above `root`: `spelt` less the
/// parts `real` has below `root`. None when it spells it as it is, or not at all.
#[cfg(target_os = "linux")]
pub(super) fn spelling_of(root: &Path, real: &Path, spelt: &Path) -> Option<PathBuf> {
    let below = real.strip_prefix(root).ok()?;
    let mut spelling = spelt.to_path_buf();
    for part in below.components().rev() {
        if spelling.file_name() != Some(part.as_os_str()) {
            return None;
        }
        spelling.pop();
    }
    (spelling != root).then_some(spelling)
}
