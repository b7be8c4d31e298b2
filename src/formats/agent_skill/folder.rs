//! The files of a skill's folder, as a listing through the file system: what ships with the
//! skill. Links are listed but never followed, hidden entries (`.git/`, `.DS_Store`) and
//! dependency folders are skipped, and a sub-folder with its own `SKILL.md` is another
//! skill, so its files are not this one's.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::fs::{EntryKind, FileSystem};

/// Entries listed at most for one skill: past that the folder is not a skill's but a
/// repository's, and the checks that need every file are skipped.
pub(super) const MAX_ENTRIES: usize = 5_000;

/// Folders never part of what a skill ships: installed dependencies and caches, which a
/// local checkout holds and a clone does not (a Python `venv` of thousands of files must not
/// make a developer's run differ from CI's).
const SKIPPED_DIRS: &[&str] = &["node_modules", "__pycache__", "venv"];

/// One file of the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileInfo {
    /// Any execute bit set, when the platform says.
    pub executable: Option<bool>,
}

/// What a skill's folder holds, by `/`-separated paths relative to it.
#[derive(Debug, Default)]
pub(crate) struct Folder {
    /// Regular files (`SKILL.md` included).
    pub files: BTreeMap<String, FileInfo>,
    /// Folders (the root is `""`).
    pub dirs: BTreeSet<String>,
    /// Links and special files: they exist, but are never read.
    pub others: BTreeSet<String>,
    /// Folders that hold another skill (not walked).
    pub nested_skills: BTreeSet<String>,
    /// The listing stopped at [`MAX_ENTRIES`].
    pub truncated: bool,
    /// Files and folders by their path in lower case, for a reference that differs from
    /// one only in case.
    lower: HashMap<String, String>,
    /// Files by their path without extension (`scripts/run` for `scripts/run.py`), for a
    /// program named without it.
    stems: HashMap<String, Vec<String>>,
    /// Files by their name (`run.py` for `scripts/run.py`).
    names: HashMap<String, Vec<String>>,
}

impl Folder {
    /// List the skill folder `root`.
    pub(crate) fn list(fs: &dyn FileSystem, root: &Path) -> Folder {
        let mut folder = Folder::default();
        folder.dirs.insert(String::new());
        let mut queue = vec![String::new()];
        let mut seen = 0usize;
        while let Some(rel) = queue.pop() {
            let dir = if rel.is_empty() {
                root.to_path_buf()
            } else {
                root.join(&rel)
            };
            let entries = fs.list_dir(&dir);
            if !rel.is_empty() && entries.iter().any(|e| e.name == "SKILL.md") {
                folder.dirs.remove(&rel);
                folder.nested_skills.insert(rel);
                continue;
            }
            for e in entries {
                seen += 1;
                if seen > MAX_ENTRIES {
                    folder.truncated = true;
                    folder.index_case();
                    return folder;
                }
                if e.name.starts_with('.') {
                    continue;
                }
                let path = if rel.is_empty() {
                    e.name.clone()
                } else {
                    format!("{rel}/{}", e.name)
                };
                match e.kind {
                    EntryKind::File => {
                        folder.files.insert(
                            path,
                            FileInfo {
                                executable: e.executable,
                            },
                        );
                    }
                    EntryKind::Dir if SKIPPED_DIRS.contains(&e.name.as_str()) => {}
                    EntryKind::Dir => {
                        folder.dirs.insert(path.clone());
                        queue.push(path);
                    }
                    EntryKind::Link | EntryKind::Other => {
                        folder.others.insert(path);
                    }
                }
            }
        }
        folder.index_case();
        folder
    }

    fn index_case(&mut self) {
        let all = self.files.keys().chain(&self.dirs).chain(&self.others);
        let lower = all.map(|p| (p.to_lowercase(), p.clone())).collect();
        self.lower = lower;
        let mut stems: HashMap<String, Vec<String>> = HashMap::new();
        let mut names: HashMap<String, Vec<String>> = HashMap::new();
        for f in self.files.keys() {
            let name_at = f.rfind('/').map_or(0, |i| i + 1);
            names
                .entry(f[name_at..].to_string())
                .or_default()
                .push(f.clone());
            if let Some(dot) = f[name_at..].rfind('.')
                && dot >= 3
            {
                stems
                    .entry(f[..name_at + dot].to_string())
                    .or_default()
                    .push(f.clone());
            }
        }
        self.stems = stems;
        self.names = names;
    }

    /// The files called `name`, in any folder.
    pub(crate) fn named(&self, name: &str) -> &[String] {
        self.names.get(name).map_or(&[], Vec::as_slice)
    }

    /// The files named `path` plus an extension (`scripts/run.py` for `scripts/run`); names
    /// shorter than three characters before the extension are left out.
    pub(crate) fn with_stem(&self, path: &str) -> &[String] {
        self.stems.get(path).map_or(&[], Vec::as_slice)
    }

    /// Whether `rel` (cleaned, relative to the skill) is something in the folder: listed, or
    /// inside a link or a nested skill (never walked).
    pub(crate) fn exists(&self, rel: &str) -> bool {
        self.files.contains_key(rel)
            || self.dirs.contains(rel)
            || std::iter::once(rel)
                .chain(ancestors(rel))
                .any(|a| self.others.contains(a) || self.nested_skills.contains(a))
    }

    /// The file or folder whose path is `rel` but for letter case, when `rel` itself is not
    /// in the folder.
    pub(crate) fn other_case(&self, rel: &str) -> Option<&str> {
        if self.exists(rel) {
            return None;
        }
        self.lower.get(&rel.to_lowercase()).map(String::as_str)
    }

    /// The files under the folder `dir` (relative, `""` for all).
    pub(crate) fn files_under<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a String> + 'a {
        let from = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.files
            .range(from.clone()..)
            .map(|(k, _)| k)
            .take_while(move |k| k.starts_with(from.as_str()))
    }

    /// The files directly in the folder `dir` (relative, `""` for the skill's own folder).
    pub(crate) fn files_in<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a String> + 'a {
        self.files_under(dir)
            .filter(move |f| !f[dir.len()..].trim_start_matches('/').contains('/'))
    }
}

/// The folders holding `rel`, shallowest first (`a`, `a/b` for `a/b/c.md`).
pub(crate) fn ancestors(rel: &str) -> impl Iterator<Item = &str> {
    rel.match_indices('/').map(move |(i, _)| &rel[..i])
}
