//! Discovery: walk the given paths in parallel (honouring `.gitignore`, entering hidden tool
//! folders such as `.dojops/`) and classify each file by path pattern.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use globset::{Candidate, Glob, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};

use crate::config::{Config, Excludes, Include};
use crate::source::FormatId;

mod ignore_files;
pub(crate) mod near_miss;
mod tracked;

// Path spelling is `fs`'s; these names stay for the callers not yet moved.
use crate::fs::{canonical, cmp_canonical};
pub(crate) use crate::fs::{display_path, normalize};

/// A file to read, and the format it is read as.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Discovered {
    /// Absolute path.
    pub path: PathBuf,
    /// Format.
    pub format: FormatId,
    /// Whether the file is checked whatever its content.
    pub claim: Claim,
}

/// Whether a file at a format's path is that format's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Claim {
    /// Always: the user named it (on the command line, on stdin, in an `include`), so even a
    /// manifest too broken to recognise is reported. Sorted first, so that it wins when the
    /// same file is also found by walking.
    Always,
    /// When its content has the format's shape (the format's `claims`): a broad
    /// pattern (`**/tools.json`) also matches files of other tools, which are not toolc's.
    ByContent,
}

/// A path that could not be walked.
#[derive(Debug, Clone)]
pub(crate) struct WalkError {
    /// The path, when known.
    pub path: PathBuf,
    /// What happened.
    pub message: String,
}

/// What the formats say of paths, handed down by the formats layer (discovery knows no
/// format).
pub(crate) struct FormatPaths {
    /// Each format's patterns, in the order formats are tried.
    pub patterns: Vec<(FormatId, &'static [&'static str])>,
    /// The format of a file named explicitly that no pattern matched, by its name alone.
    pub by_name: fn(&Path) -> Option<FormatId>,
}

/// Classifies paths into formats.
pub(crate) struct Classifier {
    /// Every format's patterns in one set, and the format of each pattern (in the order
    /// formats are tried).
    builtin: GlobSet,
    builtin_formats: Vec<FormatId>,
    /// The file names the patterns can match (their last parts), when each has one: most
    /// paths of a repository are ruled out by name before the whole path is matched.
    names: Option<GlobSet>,
    includes: Vec<Include>,
    excludes: Excludes,
    named_by_content: bool,
    by_name: fn(&Path) -> Option<FormatId>,
}

impl Classifier {
    /// The formats' patterns plus the config's include patterns.
    pub(crate) fn new(config: &Config, formats: &FormatPaths) -> Classifier {
        // Each format names its own patterns; the registry's order is the order they are tried.
        let mut set = GlobSetBuilder::new();
        let mut names = Some(GlobSetBuilder::new());
        let mut builtin_formats = Vec::new();
        for (format, patterns) in &formats.patterns {
            for p in *patterns {
                if let Ok(g) = Glob::new(p) {
                    set.add(g);
                    builtin_formats.push(*format);
                    match (name_of(p).map(|n| Glob::new(&n)), names.as_mut()) {
                        (Some(Ok(g)), Some(n)) => {
                            n.add(g);
                        }
                        _ => names = None,
                    }
                }
            }
        }
        let builtin = set.build().unwrap_or_else(|_| GlobSet::empty());
        let names = names.and_then(|n| n.build().ok());
        Classifier {
            builtin,
            builtin_formats,
            names,
            includes: config.includes.clone(),
            excludes: Excludes::new(&config.excludes),
            named_by_content: config.named_by_content,
            by_name: formats.by_name,
        }
    }

    /// Also the exclude globs of `config` (a nested `toolc.toml`), for the paths in its folder.
    pub(crate) fn add_excludes(&mut self, config: &Config) {
        self.excludes.add(&config.root, &config.excludes);
    }

    /// True when an exclude glob matches `path` (absolute) or a folder above it: such a path
    /// is never read, whatever names it.
    pub(crate) fn excluded(&self, path: &Path) -> bool {
        self.excludes.matches(path)
    }

    /// How a file found at `path` as `format` is claimed: always when an `include` of that
    /// format names it, else by its content.
    pub(crate) fn claim_of(&self, path: &Path, format: FormatId) -> Claim {
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
    pub(crate) fn named_claim(&self, path: &Path, format: FormatId) -> Claim {
        if self.named_by_content {
            self.claim_of(path, format)
        } else {
            Claim::Always
        }
    }

    /// Also the include patterns of `config` (a nested `toolc.toml`).
    pub(crate) fn add_includes(&mut self, config: &Config) {
        self.includes.extend(config.includes.iter().cloned());
    }

    /// The format of `path` (absolute), if any pattern matches.
    pub(crate) fn classify(&self, path: &Path) -> Option<FormatId> {
        self.classify_hinted(path, None).0
    }

    /// [`Classifier::classify`], given what the built-in patterns say of `path` when that is
    /// known (from an earlier walk); returns that too.
    pub(crate) fn classify_hinted(
        &self,
        path: &Path,
        builtin: Option<Option<FormatId>>,
    ) -> (Option<FormatId>, Option<FormatId>) {
        // Nested configuration files are found by the same walk (the pipeline sets them apart).
        if path
            .file_name()
            .is_some_and(|n| n == crate::config::FILE_NAME)
        {
            return (Some(FormatId::Config), None);
        }
        let builtin = builtin.unwrap_or_else(|| self.builtin_format(path));
        if builtin.is_some() {
            return (builtin, builtin);
        }
        let included = self
            .includes
            .iter()
            .find(|i| {
                path.strip_prefix(&i.root)
                    .is_ok_and(|rel| i.globs.is_match(rel))
            })
            .map(|i| i.format);
        (included, None)
    }

    /// Whether a file named `name` may be a definition: false only when no built-in pattern
    /// can match it and no `include` is configured (which may name anything).
    fn may_be_named(&self, name: &std::ffi::OsStr) -> bool {
        !self.includes.is_empty()
            || name == crate::config::FILE_NAME
            || self.names.as_ref().is_none_or(|names| names.is_match(name))
    }

    /// What the built-in patterns say of `path` (the same for every configuration).
    fn builtin_format(&self, path: &Path) -> Option<FormatId> {
        let named = match (&self.names, path.file_name()) {
            (Some(names), Some(name)) => names.is_match(name),
            _ => true,
        };
        if !named {
            return None;
        }
        let candidate = Candidate::new(path);
        if !self.builtin.is_match_candidate(&candidate) {
            return None;
        }
        let first = self
            .builtin
            .matches_candidate(&candidate)
            .into_iter()
            .min()?;
        self.builtin_formats.get(first).copied()
    }

    /// The format of a file named explicitly on the command line: by pattern, else by name.
    pub(crate) fn classify_explicit(&self, path: &Path) -> Option<FormatId> {
        self.classify(path).or_else(|| (self.by_name)(path))
    }
}

/// What the file name of a path `pattern` matches must match: the pattern's last part when
/// it is a name or `*` and a suffix, else the suffix after its last `*` (a `*` may match a
/// `/`); `None` when nothing about the name is known.
fn name_of(pattern: &str) -> Option<String> {
    let last = pattern.rsplit('/').next()?;
    let tail = last.rsplit('*').next()?;
    if tail.is_empty() || tail.contains(['?', '[', ']', '{', '}', '\\']) {
        return None;
    }
    Some(if last.contains('*') {
        format!("*{tail}")
    } else {
        tail.to_string()
    })
}

/// What a walked path is. Links are not followed: a link is a link, whatever it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Kind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// A symbolic link.
    Link,
    /// Anything else (a FIFO, a socket, a device), or not known.
    Other,
}

/// Which folders a walk does not enter (the exclude globs).
pub(crate) type Prune = Arc<dyn Fn(&Path) -> bool + Send + Sync>;

/// Called with each folder a walk is about to list, before it is listed.
pub(crate) type OnDir = Arc<dyn Fn(&Path) + Send + Sync>;

/// Called with each path a walk reaches, what it is and (from an earlier walk) what the
/// built-in patterns say of it, from several threads; returns what the built-in patterns
/// say of it.
pub(crate) type Visit<'a> =
    &'a (dyn Fn(&Path, Kind, Option<Option<FormatId>>) -> Option<FormatId> + Sync);

/// Where walks come from: the disk ([`Fresh`]), or a snapshot of an earlier walk that is
/// still true (the cache's).
pub(crate) trait Walks: Sync {
    /// Visit every path under the folder `root` (itself included) that no ignore file hides,
    /// leaving out the folders `prune` rejects and all under them; returns what could not be
    /// walked.
    fn walk(&self, root: &Path, prune: &Prune, visit: Visit<'_>) -> Vec<WalkError>;
    /// Whether the folder `dir` holds a `toolc.toml` file, when a walk of this run knows
    /// without asking the disk again (none: ask it).
    fn holds_config(&self, _dir: &Path) -> Option<bool> {
        None
    }
}

/// Walks of the disk, as they are now.
pub(crate) struct Fresh;

impl Walks for Fresh {
    fn walk(&self, root: &Path, prune: &Prune, visit: Visit<'_>) -> Vec<WalkError> {
        walk_fresh(root, prune, None, visit)
    }
}

/// A walk from the repository's top as every walk of toolc's is: hidden files seen, ignore
/// files honoured with or without git, links not followed. The walker's own reading of ignore
/// files is off, since it reads those of every folder above where it starts, up to `/`:
/// `.gitignore` and `.ignore` are handed to it as files it reads in each folder it enters,
/// and the repository's excludes as files for the whole walk (see [`ignore_files`]).
fn walker(guard: &ignore_files::Guard) -> WalkBuilder {
    let mut builder = WalkBuilder::new(guard.top());
    builder
        .hidden(false)
        .require_git(false)
        .follow_links(false)
        .parents(false)
        .git_ignore(false)
        .ignore(false)
        .git_exclude(false)
        .git_global(false)
        .current_dir(guard.top());
    for name in ignore_files::IGNORE_FILES {
        builder.add_custom_ignore_filename(name);
    }
    for file in guard.excludes() {
        // An excludes file that cannot be read leaves nothing out, as for git.
        let _ = builder.add_ignore(file);
    }
    builder
}

/// What the walk found at `e` (a link as a link).
fn kind_of(e: &ignore::DirEntry) -> Kind {
    match e.file_type() {
        Some(t) if t.is_symlink() => Kind::Link,
        Some(t) if t.is_dir() => Kind::Dir,
        Some(t) if t.is_file() => Kind::File,
        _ => Kind::Other,
    }
}

/// Walk the folder `root` in parallel, honouring ignore files, never entering `.git` or a
/// folder `prune` rejects; `on_dir` sees each folder below the root before it is listed.
pub(crate) fn walk_fresh(
    root: &Path,
    prune: &Prune,
    on_dir: Option<OnDir>,
    visit: Visit<'_>,
) -> Vec<WalkError> {
    let errors = Arc::new(Mutex::new(Vec::new()));
    // The walker reads ignore files itself: those it must not read keep it out of their
    // folder, the root's (and those above it) out of the whole walk.
    let guard = ignore_files::Guard::for_root(root);
    if let Some(refused) = guard.check_root(root) {
        return vec![refused];
    }
    // The walker wants an owned filter: excluded folders are pruned, never entered.
    let prune = Arc::clone(prune);
    let refused = Arc::clone(&errors);
    let under = root.to_path_buf();
    walker(&guard)
        .filter_entry(move |e| {
            if e.file_name() == ".git" {
                return false;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            // Above the root, only the folders on the way down to it (checked with it).
            if !e.path().starts_with(&under) {
                return is_dir && under.starts_with(e.path());
            }
            if is_dir && prune(e.path()) {
                return false;
            }
            if is_dir && let Some(error) = guard.check(e.path()) {
                push(&refused, error);
                return false;
            }
            // Called before the walker lists the folder: what it sees is at least as new.
            if is_dir && let Some(on_dir) = &on_dir {
                on_dir(e.path());
            }
            true
        })
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                match entry {
                    Ok(e) if !e.path().starts_with(root) => {}
                    Ok(e) => {
                        visit(e.path(), kind_of(&e), None);
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
    std::mem::take(&mut *errors.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Walk `paths` (absolute) and return the tool-definition files found, the walk errors, and
/// the walked files a format would read under a near-miss name (`tool.yml` where DojOps reads
/// `tool.yaml`), each sorted.
pub(crate) fn discover(
    paths: &[PathBuf],
    classifier: &Classifier,
) -> (Vec<Discovered>, Vec<WalkError>, Vec<PathBuf>) {
    discover_with(paths, classifier, &Fresh)
}

/// [`discover`], walking through `walks`.
pub(crate) fn discover_with(
    paths: &[PathBuf],
    classifier: &Classifier,
    walks: &dyn Walks,
) -> (Vec<Discovered>, Vec<WalkError>, Vec<PathBuf>) {
    let found = Mutex::new(Vec::new());
    let misnamed = Mutex::new(Vec::new());
    let mut errors = Vec::new();
    let mut walked = Vec::new();
    let excludes = classifier.excludes.clone();
    let prune: Prune = Arc::new(move |p: &Path| excludes.matches(p));
    let visit = |path: &Path, kind: Kind, hint: Option<Option<FormatId>>| {
        let (format, builtin) = classifier.classify_hinted(path, hint);
        // Excluded folders were never entered; an excluded file is left out here.
        if kind != Kind::Dir && classifier.excluded(path) {
            return builtin;
        }
        // A directory where a manifest belongs is reported, not skipped: the tool it stands
        // for would otherwise vanish without a word.
        if let Some(format) = format {
            let claim = classifier.claim_of(path, format);
            let path = path.to_path_buf();
            push(
                &found,
                Discovered {
                    path,
                    format,
                    claim,
                },
            );
        } else if kind == Kind::File
            && let Some(path) = near_miss::misnamed(path, classifier)
        {
            push(&misnamed, path);
        }
        builtin
    };
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
            errors.push(WalkError {
                path: root.clone(),
                message: "no such file or directory".into(),
            });
            continue;
        }
        errors.extend(walks.walk(root, &prune, &visit));
        walked.push(root);
    }
    crate::timing::mark("walk");
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.extend(tracked_but_ignored(&walked, classifier, &found));
    sort_unique(&mut found);
    errors.sort_by(|a, b| a.path.cmp(&b.path));
    let mut misnamed = misnamed.into_inner().unwrap_or_else(|e| e.into_inner());
    misnamed.sort();
    (found, errors, misnamed)
}

/// Whether git's index tracks a file under `dir` (a folder of a repository) that is on the
/// disk: what a commit brought there was made by whoever made the commit.
pub(crate) fn tracks_any_under(dir: &Path) -> bool {
    !tracked::files_under(dir, |_| true, |_| true).is_empty()
}

/// The definitions under the folders `walked` that git tracks but an ignore file hid from the
/// walk (see [`tracked`]): found as the walk would have found them. An excluded file stays
/// out; a nested `toolc.toml` is not one of them (a configuration no walk saw applies nowhere).
fn tracked_but_ignored(
    walked: &[&PathBuf],
    classifier: &Classifier,
    found: &[Discovered],
) -> Vec<Discovered> {
    let seen: std::collections::HashSet<&Path> = found.iter().map(|d| d.path.as_path()).collect();
    let named = |name: &std::ffi::OsStr| classifier.may_be_named(name);
    let hidden = |path: &Path| {
        !seen.contains(path)
            && classifier
                .classify(path)
                .is_some_and(|f| f != FormatId::Config)
            && !classifier.excluded(path)
    };
    let mut more = Vec::new();
    for root in walked {
        for path in tracked::files_under(root, named, hidden) {
            if let Some(format) = classifier.classify(&path) {
                let claim = classifier.claim_of(&path, format);
                more.push(Discovered {
                    path,
                    format,
                    claim,
                });
            }
        }
    }
    more
}

/// Sort `found` by path (as `Path`s compare), format and claim, and keep the first find of
/// each path and format (a claimed-always find comes first and stays).
pub(crate) fn sort_unique(found: &mut Vec<Discovered>) {
    // Thousands of paths: compared as text when every one is spelt its one way (a `Path`
    // compares part by part).
    if found.iter().all(|d| canonical(&d.path)) {
        found.sort_by(|a, b| {
            cmp_canonical(&a.path, &b.path)
                .then(a.format.cmp(&b.format))
                .then(a.claim.cmp(&b.claim))
        });
        found.dedup_by(|later, first| {
            later.path.as_os_str() == first.path.as_os_str() && later.format == first.format
        });
    } else {
        found.sort();
        found.dedup_by(|later, first| later.path == first.path && later.format == first.format);
    }
}

fn push<T>(list: &Mutex<Vec<T>>, item: T) {
    list.lock().unwrap_or_else(|e| e.into_inner()).push(item);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification() {
        let c = crate::formats::classifier(&Config::default());
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
