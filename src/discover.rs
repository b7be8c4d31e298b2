//! Discovery: walk the given paths in parallel (honouring `.gitignore`, entering hidden tool
//! folders such as `.dojops/`) and classify each file by path pattern.

use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};

use crate::config::{Config, Exclude, Include};
use crate::source::FormatId;

/// A file to read, and the format it is read as.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Discovered {
    /// Absolute path.
    pub path: PathBuf,
    /// Format.
    pub format: FormatId,
    /// Whether the file is checked whatever its content.
    pub claim: Claim,
}

/// Whether a file at a format's path is that format's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Claim {
    /// Always: the user named it (on the command line, on stdin, in an `include`), so even a
    /// manifest too broken to recognise is reported. Sorted first, so that it wins when the
    /// same file is also found by walking.
    Always,
    /// When its content has the format's shape ([`crate::formats::Format::claims`]): a broad
    /// pattern (`**/tools.json`) also matches files of other tools, which are not toolc's.
    ByContent,
}

/// A path that could not be walked.
#[derive(Debug, Clone)]
pub struct WalkError {
    /// The path, when known.
    pub path: PathBuf,
    /// What happened.
    pub message: String,
}

/// Classifies paths into formats.
pub struct Classifier {
    builtin: Vec<(FormatId, GlobSet)>,
    includes: Vec<Include>,
    excludes: Vec<Exclude>,
    named_by_content: bool,
}

impl Classifier {
    /// Built-in patterns plus the config's include patterns.
    pub fn new(config: &Config) -> Classifier {
        // Each format names its own patterns; the registry's order is the order they are tried.
        let builtin = crate::formats::REGISTRY
            .iter()
            .flat_map(|f| f.patterns())
            .map(|(format, patterns)| {
                let mut b = GlobSetBuilder::new();
                for p in *patterns {
                    if let Ok(g) = Glob::new(p) {
                        b.add(g);
                    }
                }
                (*format, b.build().unwrap_or_else(|_| GlobSet::empty()))
            })
            .collect();
        Classifier {
            builtin,
            includes: config.includes.clone(),
            excludes: config.excludes.clone(),
            named_by_content: config.named_by_content,
        }
    }

    /// Also the exclude globs of `config` (a nested `toolc.toml`).
    pub fn add_excludes(&mut self, config: &Config) {
        self.excludes.extend(config.excludes.iter().cloned());
    }

    /// True when an exclude glob matches `path` (absolute) or a folder above it: such a path
    /// is never read, whatever names it.
    pub fn excluded(&self, path: &Path) -> bool {
        self.excludes.iter().any(|e| e.matches(path))
    }

    /// How a file found at `path` as `format` is claimed: always when an `include` of that
    /// format names it, else by its content.
    pub fn claim_of(&self, path: &Path, format: FormatId) -> Claim {
        let included = self.includes.iter().any(|i| {
            i.format == format
                && path
                    .strip_prefix(&i.root)
                    .is_ok_and(|rel| i.globs.is_match(rel))
        });
        if included {
            Claim::Always
        } else {
            Claim::ByContent
        }
    }

    /// How a file named explicitly is claimed: always, unless `--only-claimed` asks for its
    /// content to decide as for a file found by walking.
    pub fn named_claim(&self, path: &Path, format: FormatId) -> Claim {
        if self.named_by_content {
            self.claim_of(path, format)
        } else {
            Claim::Always
        }
    }

    /// Also the include patterns of `config` (a nested `toolc.toml`).
    pub fn add_includes(&mut self, config: &Config) {
        self.includes.extend(config.includes.iter().cloned());
    }

    /// The format of `path` (absolute), if any pattern matches.
    pub fn classify(&self, path: &Path) -> Option<FormatId> {
        // Nested configuration files are found by the same walk (the pipeline sets them apart).
        if path
            .file_name()
            .is_some_and(|n| n == crate::config::FILE_NAME)
        {
            return Some(FormatId::Config);
        }
        let slashed = path.to_string_lossy().replace('\\', "/");
        if let Some((f, _)) = self.builtin.iter().find(|(_, g)| g.is_match(&slashed)) {
            return Some(*f);
        }
        self.includes
            .iter()
            .find(|i| {
                path.strip_prefix(&i.root)
                    .is_ok_and(|rel| i.globs.is_match(rel))
            })
            .map(|i| i.format)
    }

    /// The format of a file named explicitly on the command line: by pattern, else by name.
    pub fn classify_explicit(&self, path: &Path) -> Option<FormatId> {
        self.classify(path).or_else(|| {
            crate::formats::REGISTRY
                .iter()
                .find_map(|f| f.by_name(path))
        })
    }
}

/// Walk `paths` (absolute) and return the tool-definition files found, the walk errors, and
/// the walked files a format would read under a near-miss name (`tool.yml` where DojOps reads
/// `tool.yaml`), each sorted.
pub fn discover(
    paths: &[PathBuf],
    classifier: &Classifier,
) -> (Vec<Discovered>, Vec<WalkError>, Vec<PathBuf>) {
    let found = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let misnamed = Mutex::new(Vec::new());
    for root in paths {
        if classifier.excluded(root) {
            continue;
        }
        if root.is_file() {
            if let Some(format) = classifier.classify_explicit(root) {
                push(
                    &found,
                    Discovered {
                        path: root.clone(),
                        format,
                        claim: classifier.named_claim(root, format),
                    },
                );
            }
            continue;
        }
        if !root.exists() {
            push(
                &errors,
                WalkError {
                    path: root.clone(),
                    message: "no such file or directory".into(),
                },
            );
            continue;
        }
        // The walker wants an owned filter: excluded folders are pruned, never entered.
        let excludes = classifier.excludes.clone();
        WalkBuilder::new(root)
            .hidden(false)
            .require_git(false)
            .follow_links(false)
            .filter_entry(move |e| {
                e.file_name() != ".git" && !excludes.iter().any(|x| x.matches(e.path()))
            })
            .build_parallel()
            .run(|| {
                Box::new(|entry| {
                    match entry {
                        Ok(e) => {
                            // A directory where a manifest belongs is reported, not skipped:
                            // the tool it stands for would otherwise vanish without a word.
                            if e.file_type().is_some()
                                && let Some(format) = classifier.classify(e.path())
                            {
                                push(
                                    &found,
                                    Discovered {
                                        path: e.path().to_path_buf(),
                                        format,
                                        claim: classifier.claim_of(e.path(), format),
                                    },
                                );
                            } else if e.file_type().is_some_and(|t| t.is_file())
                                && let Some(path) = crate::unclaimed::misnamed(e.path(), classifier)
                            {
                                push(&misnamed, path);
                            }
                        }
                        Err(err) => {
                            let path = match &err {
                                ignore::Error::WithPath { path, .. } => path.clone(),
                                _ => PathBuf::new(),
                            };
                            push(
                                &errors,
                                WalkError {
                                    path,
                                    message: err.to_string(),
                                },
                            );
                        }
                    }
                    WalkState::Continue
                })
            });
    }
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.sort();
    dedup(&mut found);
    let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    errors.sort_by(|a, b| a.path.cmp(&b.path));
    let mut misnamed = misnamed.into_inner().unwrap_or_else(|e| e.into_inner());
    misnamed.sort();
    (found, errors, misnamed)
}

/// Drop the second find of a file (sorted: a claimed-always find comes first and stays).
pub fn dedup(found: &mut Vec<Discovered>) {
    found.dedup_by(|later, first| later.path == first.path && later.format == first.format);
}

fn push<T>(list: &Mutex<Vec<T>>, item: T) {
    list.lock().unwrap_or_else(|e| e.into_inner()).push(item);
}

/// `path` as shown to users: relative to `cwd` when possible, `/`-separated.
pub fn display_path(path: &Path, cwd: &Path) -> String {
    let rel = relative(path, cwd);
    let s = rel.to_string_lossy().replace('\\', "/");
    if s.is_empty() { ".".into() } else { s }
}

/// `path` relative to `base` (both absolute), with `..` where needed.
fn relative(path: &Path, base: &Path) -> PathBuf {
    let path = normalize(path);
    let base = normalize(base);
    if let Ok(rel) = path.strip_prefix(&base) {
        return rel.to_path_buf();
    }
    let pc: Vec<_> = path.components().collect();
    let bc: Vec<_> = base.components().collect();
    let common = pc.iter().zip(&bc).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return path;
    }
    let mut out = PathBuf::new();
    for _ in common..bc.len() {
        out.push("..");
    }
    for c in &pc[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// Remove `.` and resolve `..` lexically.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths() {
        assert_eq!(
            display_path(Path::new("/a/b/c.yaml"), Path::new("/a")),
            "b/c.yaml"
        );
        assert_eq!(
            display_path(Path::new("/a/b/c.yaml"), Path::new("/a/x")),
            "../b/c.yaml"
        );
        assert_eq!(
            display_path(Path::new("/a/./b/../c.yaml"), Path::new("/a")),
            "c.yaml"
        );
    }

    #[test]
    fn classification() {
        let c = Classifier::new(&Config::default());
        assert_eq!(
            c.classify(Path::new("/r/.dojops/tools/x/tool.yaml")),
            Some(FormatId::DojopsTool)
        );
        assert_eq!(
            c.classify(Path::new("/r/.dojops/skills/x.dops")),
            Some(FormatId::DojopsDops)
        );
        assert_eq!(
            c.classify(Path::new("/r/.dojops/policy.yaml")),
            Some(FormatId::DojopsPolicy)
        );
        assert_eq!(c.classify(Path::new("/r/tool.yaml")), None);
    }
}
