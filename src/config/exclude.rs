//! `[discovery] exclude` and `--exclude`: paths toolc never reads, whatever else says so (a
//! pattern, an `include`, a file named on the command line).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

/// Globs of paths never read, relative to a folder.
#[derive(Debug, Clone)]
pub struct Exclude {
    /// The folder the globs are relative to (a configuration file's folder, or the working
    /// directory for `--exclude`).
    pub root: PathBuf,
    /// The globs.
    pub globs: GlobSet,
    /// The globs as written: what makes two excludes of one folder the same.
    pub patterns: Vec<String>,
}

impl Exclude {
    /// `patterns` relative to `root`, or the first pattern that is not a glob and why.
    pub fn new(root: &Path, patterns: &[String]) -> Result<Exclude, String> {
        let mut builder = GlobSetBuilder::new();
        for p in patterns {
            let glob = Glob::new(p).map_err(|e| format!("invalid glob `{p}`: {}", e.kind()))?;
            builder.add(glob);
        }
        let globs = builder.build().map_err(|e| e.to_string())?;
        Ok(Exclude {
            root: root.to_path_buf(),
            globs,
            patterns: patterns.to_vec(),
        })
    }

    /// True when `path` (absolute) or a folder above it, up to the root, matches: excluding a
    /// folder excludes everything in it.
    pub fn matches(&self, path: &Path) -> bool {
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return false;
        };
        rel.ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| self.globs.is_match(a))
    }
}

/// Excludes by the folder they are relative to, each (folder, globs) once: a path is compared
/// only with the excludes of the folders above it. Every path was compared with every
/// exclude of the run, and thousands of nested configurations (each with its own, or with a
/// copy of one it extends) made that the files times the configurations (20,000 files under
/// 5,000 configurations: 10 s).
#[derive(Debug, Clone, Default)]
pub(crate) struct Excludes {
    by_root: HashMap<PathBuf, Vec<Exclude>>,
}

impl Excludes {
    /// Also `excludes`, but those already held.
    pub(crate) fn add<'a>(&mut self, excludes: impl IntoIterator<Item = &'a Exclude>) {
        for e in excludes {
            let held = self.by_root.entry(e.root.clone()).or_default();
            if !held.iter().any(|h| h.patterns == e.patterns) {
                held.push(e.clone());
            }
        }
    }

    /// True when an exclude matches `path` (absolute) or a folder above it.
    pub(crate) fn matches(&self, path: &Path) -> bool {
        !self.by_root.is_empty()
            && path.ancestors().skip(1).any(|dir| {
                self.by_root
                    .get(dir)
                    .is_some_and(|held| held.iter().any(|e| e.matches(path)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_excludes_what_it_holds() {
        let ex = Exclude::new(
            Path::new("/repo"),
            &["vendor".into(), "**/fixtures/*.json".into()],
        )
        .unwrap();
        assert!(ex.matches(Path::new("/repo/vendor")));
        assert!(ex.matches(Path::new("/repo/vendor/a/tools.json")));
        assert!(ex.matches(Path::new("/repo/x/fixtures/tools.json")));
        assert!(!ex.matches(Path::new("/repo/vendored/tools.json")));
        assert!(!ex.matches(Path::new("/elsewhere/vendor/tools.json")));
        assert!(!ex.matches(Path::new("/repo")));
        assert!(Exclude::new(Path::new("/repo"), &["a/[".into()]).is_err());
    }

    #[test]
    fn excludes_are_asked_by_the_folders_above_and_held_once() {
        let root = Exclude::new(Path::new("/repo"), &["vendor".into()]).unwrap();
        let team = Exclude::new(Path::new("/repo/team"), &["drafts".into()]).unwrap();
        let mut all = Excludes::default();
        assert!(!all.matches(Path::new("/repo/vendor")));
        // A nested configuration that extends the root's brings a copy of its exclude.
        all.add([&root, &team, &root.clone()]);
        assert_eq!(all.by_root[Path::new("/repo")].len(), 1);
        assert!(all.matches(Path::new("/repo/vendor/tools.json")));
        assert!(all.matches(Path::new("/repo/team/drafts/a/tools.json")));
        assert!(!all.matches(Path::new("/repo/drafts/tools.json")));
        assert!(!all.matches(Path::new("/repo/team")));
        assert!(!all.matches(Path::new("/repo")));
    }
}
