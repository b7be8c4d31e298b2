//! `[discovery] exclude` and `--exclude`: paths toolc never reads, whatever else says so (a
//! pattern, an `include`, a file named on the command line).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::selectors::{GlobBudget, globs_kept};
use crate::source::{SourceFile, Span};
use toml::Spanned;

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
    /// Where each glob of `globs` is written, for those a configuration file wrote: that
    /// file's path and the spans, in the order of `globs`.
    pub written: Option<(PathBuf, Vec<Span>)>,
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
            written: None,
        })
    }

    /// The `[discovery] exclude` globs `patterns` of the configuration file `file`, in the
    /// folder `root`: each that does not compile reported through `err`, as many as `budget`
    /// has room for (see [`super::selectors::globs_kept`]).
    pub(super) fn written(
        root: &Path,
        file: &SourceFile,
        patterns: &[Spanned<String>],
        budget: &mut GlobBudget,
        err: &mut dyn FnMut(std::ops::Range<usize>, String),
    ) -> Exclude {
        let (globs, kept) = globs_kept(patterns, budget, err);
        let spans = kept.iter().filter_map(|&i| {
            let at = patterns.get(i)?.span();
            Some(Span::new(at.start + file.bom_len, at.end + file.bom_len))
        });
        Exclude {
            root: root.to_path_buf(),
            globs,
            patterns: patterns.iter().map(|p| p.get_ref().clone()).collect(),
            written: Some((file.path.clone(), spans.collect())),
        }
    }

    /// Where the first glob that excludes `path` (as [`Exclude::matches`] does) is written,
    /// when it is written in the configuration file `file`.
    pub(crate) fn written_for(&self, path: &Path, file: &Path) -> Option<Span> {
        let (_, spans) = self.written.as_ref().filter(|(f, _)| f == file)?;
        let glob = self
            .ancestors_of(path)
            .filter_map(|a| self.globs.matches(a).into_iter().min())
            .min()?;
        spans.get(glob).copied()
    }

    /// `path` (absolute) relative to the root, and each folder above it below the root.
    fn ancestors_of<'p>(&self, path: &'p Path) -> impl Iterator<Item = &'p Path> {
        let rel = path.strip_prefix(&self.root).ok();
        rel.into_iter()
            .flat_map(Path::ancestors)
            .filter(|a| !a.as_os_str().is_empty())
    }

    /// True when `path` (absolute) or a folder above it, up to the root, matches: excluding a
    /// folder excludes everything in it.
    pub fn matches(&self, path: &Path) -> bool {
        self.ancestors_of(path).any(|a| self.globs.is_match(a))
    }
}

/// The excludes of a run: the run's configuration's, which apply everywhere, and each
/// nested configuration's (its own and those it extends), which apply in its folder only, as
/// its other settings do. A path is compared with the excludes of the folders above it only,
/// each (folder, globs) once: every path was compared with every exclude of the run, and
/// thousands of nested configurations (each with its own, or a copy of one it extends) made
/// that the files times the configurations (20,000 files under 5,000: 10 s).
#[derive(Debug, Clone, Default)]
pub(crate) struct Excludes {
    /// The run's configuration's excludes.
    global: Vec<Exclude>,
    /// The nested configurations' excludes, by the folder of each configuration.
    by_folder: HashMap<PathBuf, Vec<Exclude>>,
}

impl Excludes {
    /// The excludes of the run's configuration.
    pub(crate) fn new(global: &[Exclude]) -> Excludes {
        Excludes {
            global: global.to_vec(),
            by_folder: HashMap::new(),
        }
    }

    /// Also `excludes`, of the configuration of `folder`, for paths in it; but those already
    /// held there.
    pub(crate) fn add(&mut self, folder: &Path, excludes: &[Exclude]) {
        let held = self.by_folder.entry(folder.to_path_buf()).or_default();
        for e in excludes {
            if !held
                .iter()
                .any(|h| h.root == e.root && h.patterns == e.patterns)
            {
                held.push(e.clone());
            }
        }
    }

    /// True when an exclude matches `path` (absolute) or a folder above it.
    pub(crate) fn matches(&self, path: &Path) -> bool {
        self.global.iter().any(|e| e.matches(path))
            || !self.by_folder.is_empty()
                && path.ancestors().skip(1).any(|dir| {
                    self.by_folder
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
    fn a_nested_configuration_excludes_in_its_folder_only_and_each_once() {
        let root = Exclude::new(Path::new("/repo"), &["**/vendor".into()]).unwrap();
        let team = Exclude::new(Path::new("/repo/team"), &["drafts".into()]).unwrap();
        let other = Exclude::new(Path::new("/repo/other"), &["**".into()]).unwrap();
        let mut all = Excludes::new(std::slice::from_ref(&root));
        assert!(all.matches(Path::new("/repo/vendor/tools.json")));
        assert!(!all.matches(Path::new("/repo/team/drafts/tools.json")));
        // The team's configuration extends the root's (a copy of its exclude) and a file in
        // another folder, whose exclude applies nowhere: not outside the team's folder.
        all.add(Path::new("/repo/team"), &[root.clone(), team, other, root]);
        assert_eq!(all.by_folder[Path::new("/repo/team")].len(), 3);
        assert!(all.matches(Path::new("/repo/team/drafts/a/tools.json")));
        assert!(all.matches(Path::new("/repo/team/x/vendor/tools.json")));
        assert!(!all.matches(Path::new("/repo/drafts/tools.json")));
        assert!(!all.matches(Path::new("/repo/other/tools.json")));
        assert!(!all.matches(Path::new("/repo/team")));
    }
}
