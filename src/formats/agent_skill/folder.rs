//! The files of a skill's folder, as a listing through the file system: what ships with the
//! skill. Links are listed but never followed, hidden entries (`.git/`, `.DS_Store`) and
//! dependency folders are skipped, and a sub-folder with its own `SKILL.md` is another
//! skill, so its files are not this one's.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::fs::{EntryKind, FileSystem};

/// Entries listed at most for one skill: past that the folder is not a skill's but a
/// repository's, and the checks that need every file are skipped.
const MAX_ENTRIES: usize = 5_000;

/// Folders never part of what a skill ships.
const SKIPPED_DIRS: &[&str] = &["node_modules", "__pycache__"];

/// One file of the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileInfo {
    /// Any execute bit set, when the platform says.
    pub executable: Option<bool>,
}

/// What a skill's folder holds, by `/`-separated paths relative to it.
#[derive(Debug, Default)]
pub struct Folder {
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
}

impl Folder {
    /// List the skill folder `root`.
    pub fn list(fs: &dyn FileSystem, root: &Path) -> Folder {
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
        folder
    }

    /// Whether `rel` (cleaned, relative to the skill) is something in the folder.
    pub fn exists(&self, rel: &str) -> bool {
        self.files.contains_key(rel)
            || self.dirs.contains(rel)
            || self.others.contains(rel)
            || self.nested_skills.contains(rel)
            || self.others.iter().chain(&self.nested_skills).any(|o| {
                rel.strip_prefix(o.as_str())
                    .is_some_and(|r| r.starts_with('/'))
            })
    }

    /// The files under the folder `dir` (relative, `""` for all).
    pub fn files_under<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a String> + 'a {
        self.files.keys().filter(move |f| {
            dir.is_empty() || f.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
        })
    }
}
