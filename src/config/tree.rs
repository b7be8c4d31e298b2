//! Which `toolc.toml` governs a file: the nearest one above it, as in ruff. A nested file
//! replaces the one above it for its folder, unless it says `extend = "../toolc.toml"` to
//! inherit; `--config` governs every file and nested files are not read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{Config, ConfigError, FILE_NAME};
use crate::diagnostics::Diagnostic;
use crate::fs::FileSystem;
use crate::fs::{canonical, parent_canonical};
use crate::rules::syntax::INVALID_CONFIG;
use crate::source::quick::{QuickMap, QuickSet};
use crate::source::{FormatId, SourceFile, Span};

/// Whether a folder holds a `toolc.toml` file, when that is known without asking the disk.
pub(crate) type Known<'a> = dyn Fn(&Path) -> Option<bool> + Sync + 'a;

/// The configuration of a run and every nested `toolc.toml` below it.
#[derive(Debug, Clone)]
pub(crate) struct ConfigTree {
    base: Config,
    /// Folder → the configuration of its `toolc.toml`.
    nested: BTreeMap<PathBuf, Config>,
}

/// [`crate::fs::project::git_root`] of many folders, each folder's answer found once (through `fs`, which may
/// know it without asking the disk).
struct GitRoots<'p> {
    known: QuickMap<&'p std::ffi::OsStr, Option<&'p Path>>,
    /// Room to make for answers when the first is asked for.
    expected: usize,
}

impl<'p> GitRoots<'p> {
    /// Room for the answers of up to `folders` folders, made when one is first asked for
    /// (each folder of a repository whose files have no configuration above them is; none
    /// when every file is under the base configuration).
    fn with_capacity(folders: usize) -> GitRoots<'p> {
        GitRoots {
            known: QuickMap::default(),
            expected: folders,
        }
    }

    /// The nearest folder at or above `folder` that holds `.git`; `plain`: `folder` is
    /// [`canonical`] (its parents are then found on its text).
    fn of(&mut self, folder: &'p Path, plain: bool, fs: &dyn FileSystem) -> Option<&'p Path> {
        self.known.reserve(std::mem::take(&mut self.expected));
        let mut asked = Vec::new();
        let mut found = None;
        let mut probe = PathBuf::new();
        let mut dir = Some(folder);
        while let Some(d) = dir {
            if let Some(known) = self.known.get(d.as_os_str()) {
                found = *known;
                break;
            }
            asked.push(d);
            probe.clear();
            probe.push(d);
            probe.push(".git");
            if fs.exists(&probe) {
                found = Some(d);
                break;
            }
            dir = if plain {
                parent_canonical(d)
            } else {
                d.parent()
            };
        }
        for dir in asked {
            self.known.insert(dir.as_os_str(), found);
        }
        found
    }
}

/// `Path::starts_with` of two [`canonical`] paths, on their texts.
fn under_text(path: &Path, folder: &Path) -> bool {
    let (p, f) = (
        path.as_os_str().as_encoded_bytes(),
        folder.as_os_str().as_encoded_bytes(),
    );
    p.starts_with(f) && (p.len() == f.len() || f == b"/" || p.get(f.len()) == Some(&b'/'))
}

/// True when `path` is a plain name right in the [`canonical`] folder `dir` (then it is
/// canonical too, and `dir` is its parent).
fn plainly_in(path: &Path, dir: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    let name = bytes.rsplit(|&b| b == b'/').next().unwrap_or_default();
    !matches!(name, b"" | b"." | b"..")
        && parent_canonical(path).is_some_and(|parent| parent.as_os_str() == dir.as_os_str())
}

impl ConfigTree {
    /// `base` alone.
    pub(crate) fn single(base: &Config) -> ConfigTree {
        ConfigTree {
            base: base.clone(),
            nested: BTreeMap::new(),
        }
    }

    /// `base` and the nested `toolc.toml` files in the folders above `files` (read through
    /// `fs`, so an editor's unsaved configuration counts; `known` says of a folder whether
    /// it holds one when that is known without asking `fs`), with the diagnostics of those
    /// that cannot be used; a file whose nearest configuration is broken falls back to `base`.
    pub(crate) fn discover<'p>(
        base: &Config,
        files: impl IntoIterator<Item = &'p Path>,
        (fs, known): (&dyn FileSystem, &Known<'_>),
        cwd: &Path,
    ) -> (ConfigTree, Vec<Diagnostic>) {
        let mut tree = ConfigTree::single(base);
        if base.explicit {
            return (tree, Vec::new());
        }
        // The run's own file is never nested, nor one at its folder that it fell back from
        // (an editor's broken configuration, reported on its own).
        let base_file = base.file.as_ref().map(|f| f.path.clone());
        let base_folder_file = base.root.join(FILE_NAME);
        // Every folder above every file is asked about: paths in their one spelling are
        // compared as text (a `Path` compares and hashes part by part).
        let base_plain = canonical(&base.root)
            && canonical(&base_folder_file)
            && base_file.as_deref().is_none_or(canonical);
        let files = files.into_iter();
        // A folder per file, about, in a large repository.
        let mut seen: QuickSet<&std::ffi::OsStr> = QuickSet::default();
        seen.reserve(files.size_hint().0);
        let mut git_roots = GitRoots::with_capacity(files.size_hint().0);
        // The folders to look in are gathered here; looking (thousands of folders in a large
        // repository) is shared out among the cores.
        let mut folders: Vec<&Path> = Vec::new();
        let mut all_plain = base_plain;
        // The parent of the file before, when plain: files come in the walk's order, so most
        // share it, and a file plainly in it needs nothing more.
        let mut last: Option<&'p Path> = None;
        for file in files {
            if last.is_some_and(|dir| plainly_in(file, dir)) {
                continue;
            }
            // The folders above a file in its one spelling are too, and are found on its text.
            let plain = base_plain && canonical(file);
            let up = |p: &'p Path| {
                if plain {
                    parent_canonical(p)
                } else {
                    p.parent()
                }
            };
            let Some(parent) = up(file) else {
                continue;
            };
            last = plain.then_some(parent);
            if !seen.insert(parent.as_os_str()) {
                continue;
            }
            all_plain &= plain;
            let same = |a: &Path, b: &Path| a.as_os_str() == b.as_os_str() || (!plain && a == b);
            let under_base = if plain {
                under_text(parent, &base.root)
            } else {
                parent.starts_with(&base.root)
            };
            // Above the base configuration's folder (or the repository) nothing is nested.
            let stop = if under_base {
                base.root.as_path()
            } else {
                git_roots.of(parent, plain, fs).unwrap_or(parent)
            };
            folders.push(parent);
            let mut dir = if same(parent, stop) { None } else { up(parent) };
            while let Some(d) = dir {
                if !seen.insert(d.as_os_str()) {
                    break;
                }
                folders.push(d);
                if same(d, stop) {
                    break;
                }
                dir = up(d);
            }
        }
        let mut found: Vec<PathBuf> = folders
            .par_iter()
            .filter_map(|dir| {
                let candidate = dir.join(FILE_NAME);
                let same =
                    |a: &Path, b: &Path| a.as_os_str() == b.as_os_str() || (!all_plain && a == b);
                (!base_file.as_deref().is_some_and(|f| same(&candidate, f))
                    && !same(&candidate, &base_folder_file)
                    // A device or FIFO there is an error, not a folder without one.
                    && known(dir).unwrap_or_else(|| fs.exists(&candidate)))
                .then_some(candidate)
            })
            .collect();
        found.sort();
        // One budget of globs for every nested file (parsed here, on this thread).
        let errors = super::selectors::sharing_a_budget(|| {
            let mut errors = Vec::new();
            for path in found {
                let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
                match load_nested(&path, &folder, fs, cwd) {
                    Ok(config) => {
                        tree.nested.insert(folder, config);
                    }
                    Err(ConfigError::Invalid(diags)) => errors.extend(diags),
                    Err(ConfigError::Io { path: bad, source }) => {
                        let display = crate::fs::display_path(&path, cwd);
                        let file = SourceFile::new(path, display, FormatId::Config, String::new());
                        errors.push(Diagnostic::new(
                            &INVALID_CONFIG,
                            &file,
                            Span::point(0),
                            format!("cannot read {}: {source}", bad.display()),
                        ));
                    }
                }
            }
            errors
        });
        (tree, errors)
    }

    /// The configuration that governs the file at `path` (absolute).
    pub(crate) fn for_path(&self, path: &Path) -> &Config {
        // Asked of every file (twice on a warm run): a repository without nested
        // configurations need not take each path apart.
        if self.nested.is_empty() {
            return &self.base;
        }
        // A configuration file is judged by the one above it: a nested file that turns every
        // rule off must not turn off what is said of itself (TLC009).
        let own = path.file_name().is_some_and(|n| n == FILE_NAME);
        for dir in path.ancestors().skip(if own { 2 } else { 1 }) {
            if let Some(config) = self.nested.get(dir) {
                return config;
            }
        }
        &self.base
    }

    /// What says which releases each file's project targets: every configuration's
    /// `[runtimes]`, by folder (the cache keeps cross-file findings under it).
    pub(crate) fn targets(&self) -> String {
        let nested: Vec<_> = self.nested.iter().map(|(d, c)| (d, &c.runtimes)).collect();
        format!("{:?}", (&self.base.runtimes, nested))
    }

    /// True when some configuration declares `[[custom-rules]]`.
    pub(crate) fn has_custom_rules(&self) -> bool {
        !self.base.custom.is_empty() || self.nested.values().any(|c| !c.custom.is_empty())
    }

    /// The nested configurations, by folder.
    pub(crate) fn nested(&self) -> impl Iterator<Item = &Config> {
        self.nested.values()
    }

    /// The nested configuration of the folder `dir`, when it has one.
    pub(crate) fn nested_at(&self, dir: &Path) -> Option<&Config> {
        self.nested.get(dir)
    }
}

/// Read and load one nested configuration file through `fs`.
fn load_nested(
    path: &Path,
    folder: &Path,
    fs: &dyn FileSystem,
    cwd: &Path,
) -> Result<Config, ConfigError> {
    let read = |p: &Path| -> std::io::Result<String> {
        let bytes = fs
            .read(p)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        String::from_utf8(bytes).map_err(|_| std::io::Error::other("not valid UTF-8"))
    };
    let text = read(path).map_err(|source| ConfigError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let display = crate::fs::display_path(path, cwd);
    let file = SourceFile::new(path.to_path_buf(), display, FormatId::Config, text);
    Config::load(file, folder.to_path_buf(), cwd, None, &read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Overlay;
    use crate::rules::{self, Severity};

    fn overlay(files: &[(&str, &str)]) -> Overlay {
        let mut fs = Overlay::new(Box::new(crate::fs::NoFiles));
        for (path, text) in files {
            fs.set(PathBuf::from(path), text.as_bytes().to_vec());
        }
        fs
    }

    #[test]
    fn a_plain_name_in_a_folder_is_told_on_its_text() {
        for (path, dir, expected) in [
            ("/r/a/tool.yaml", "/r/a", true),
            ("/x", "/", true),
            ("/r/a/b/tool.yaml", "/r/a", false),
            ("/r/ab/tool.yaml", "/r/a", false),
            ("/r/a/", "/r/a", false),
            ("/r/a/..", "/r/a", false),
            ("/r/a/.", "/r/a", false),
            ("/r/a", "/r/a", false),
            ("/r/b/tool.yaml", "/r/a", false),
        ] {
            assert_eq!(
                plainly_in(Path::new(path), Path::new(dir)),
                expected,
                "{path} in {dir}"
            );
        }
    }

    fn base() -> Config {
        Config {
            root: PathBuf::from("/r"),
            ..Config::default()
        }
    }

    fn level(tree: &ConfigTree, code: &str, path: &str) -> super::super::Setting {
        let rule = rules::lookup(code).expect("rule");
        tree.for_path(Path::new(path))
            .setting(rule, Path::new(path))
    }

    #[test]
    fn the_nearest_configuration_governs_and_extend_inherits() {
        let fs = overlay(&[
            ("/r/a/toolc.toml", "[rules]\nDOJ003 = \"off\"\n"),
            (
                "/r/a/b/toolc.toml",
                "extend = \"../toolc.toml\"\n[rules]\nDOJ006 = \"warning\"\n",
            ),
            ("/r/c/toolc.toml", "[rules]\nDOJ006 = \"info\"\n"),
        ]);
        let files = [
            Path::new("/r/a/b/x/tool.yaml"),
            Path::new("/r/a/y.dops"),
            Path::new("/r/c/z.dops"),
            Path::new("/r/d/w.dops"),
        ];
        let (tree, errors) =
            ConfigTree::discover(&base(), files, (&fs, &|_| None), Path::new("/r"));
        assert!(errors.is_empty(), "{errors:?}");
        use super::super::Setting::{Level, Off};
        assert_eq!(level(&tree, "DOJ003", "/r/a/b/x/tool.yaml"), Off);
        assert_eq!(
            level(&tree, "DOJ006", "/r/a/b/x/tool.yaml"),
            Level(Severity::Warning)
        );
        assert_eq!(level(&tree, "DOJ003", "/r/a/y.dops"), Off);
        // Without `extend`, a nested file replaces the one above it.
        assert_eq!(level(&tree, "DOJ006", "/r/c/z.dops"), Level(Severity::Info));
        assert_eq!(
            level(&tree, "DOJ003", "/r/d/w.dops"),
            Level(Severity::Error)
        );
    }

    #[test]
    fn paths_in_their_one_spelling_compare_as_text() {
        assert!(under_text(Path::new("/r/a"), Path::new("/r")));
        assert!(under_text(Path::new("/r"), Path::new("/r")));
        assert!(under_text(Path::new("/r"), Path::new("/")));
        assert!(!under_text(Path::new("/ra"), Path::new("/r")));
    }

    #[test]
    fn a_configuration_spelt_another_way_is_still_the_runs_own() {
        let fs = overlay(&[("/r/a/toolc.toml", "[rules]\nDOJ003 = \"off\"\n")]);
        let spelt = Config {
            root: PathBuf::from("/r/./a/"),
            ..Config::default()
        };
        let (tree, _) = ConfigTree::discover(
            &spelt,
            [Path::new("/r/a/x.dops")],
            (&fs, &|_| None),
            Path::new("/r"),
        );
        assert_eq!(tree.nested().count(), 0);
    }

    #[test]
    fn an_explicit_configuration_governs_everything() {
        let fs = overlay(&[("/r/a/toolc.toml", "[rules]\nDOJ003 = \"off\"\n")]);
        let explicit = Config {
            explicit: true,
            ..base()
        };
        let files = [Path::new("/r/a/tool.yaml")];
        let (tree, _) = ConfigTree::discover(&explicit, files, (&fs, &|_| None), Path::new("/r"));
        assert_eq!(
            level(&tree, "DOJ003", "/r/a/tool.yaml"),
            super::super::Setting::Level(Severity::Error)
        );
    }

    #[test]
    fn broken_nested_files_and_extend_cycles_are_diagnosed() {
        let fs = overlay(&[
            ("/r/a/toolc.toml", "[rules\n"),
            ("/r/b/toolc.toml", "extend = \"../c/toolc.toml\"\n"),
            ("/r/c/toolc.toml", "extend = \"../b/toolc.toml\"\n"),
            ("/r/d/toolc.toml", "extend = \"../nowhere.toml\"\n"),
            (
                "/r/e/toolc.toml",
                "extend = \"https://example.com/toolc.toml\"\n",
            ),
        ]);
        let files = [
            Path::new("/r/a/x.dops"),
            Path::new("/r/b/x.dops"),
            Path::new("/r/d/x.dops"),
            Path::new("/r/e/x.dops"),
        ];
        let (tree, errors) =
            ConfigTree::discover(&base(), files, (&fs, &|_| None), Path::new("/r"));
        let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(errors.len(), 4, "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("cycle")), "{messages:?}");
        // The file that is not there, named as the run names files.
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("cannot read `nowhere.toml`: ")),
            "{messages:?}"
        );
        // A URL is said to be one, not read as a file of an odd name.
        assert!(
            messages.iter().any(
                |m| m.starts_with("`extend` names a URL: toolc reads nothing from the network")
            ),
            "{messages:?}"
        );
        // A file under a broken configuration falls back to the run's configuration.
        assert_eq!(
            level(&tree, "DOJ003", "/r/a/x.dops"),
            super::super::Setting::Level(Severity::Error)
        );
    }
}
