//! `toolc.toml`: per-rule severities, per-path overrides, extra include patterns per format.
//! Each file is governed by the nearest `toolc.toml` above it ([`tree`]); `extend` inherits
//! another configuration file of the repository.

mod collect;
mod exclude;
mod extend;
mod overrides;
mod raw;
mod read;
mod selectors;
pub(crate) mod tree;

use overrides::{Override, Overrides};
use raw::RawConfig;
use read::read_config_file;
use selectors::build_globs;

pub(crate) use exclude::{Exclude, Excludes};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::GlobSet;
use toml::Spanned;

use crate::diagnostics::Diagnostic;
use crate::fs::{RepoPath, Repository};
use crate::rules::{self, Rule, Severity, syntax::INVALID_CONFIG};
use crate::source::{FormatId, SourceFile, Span};

/// The file name looked for upward from the working directory.
pub(crate) const FILE_NAME: &str = crate::fs::project::CONFIG_FILE;

/// What a rule setting does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// The rule does not run.
    Off,
    /// The rule runs at this severity.
    Level(Severity),
}

/// A selector (code, name or code prefix) with its setting.
#[derive(Debug, Clone)]
struct RuleSetting {
    selector: String,
    setting: Setting,
}

/// Extra paths a format reads, from `[formats.<id>] include`.
#[derive(Debug, Clone)]
pub struct Include {
    /// The format.
    pub format: FormatId,
    /// The folder the globs are relative to (its configuration file's folder).
    pub root: PathBuf,
    /// The globs.
    pub globs: GlobSet,
}

/// Loaded configuration (defaults when there is no file).
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The config file, when there is one.
    pub file: Option<Arc<SourceFile>>,
    /// Folder globs are relative to (the config file's folder, or the working directory).
    pub root: PathBuf,
    rules: Vec<RuleSetting>,
    overrides: Overrides,
    /// Extra include patterns per format (inherited ones keep their own folder).
    pub includes: Vec<Include>,
    /// `[discovery] exclude` (inherited ones keep their own folder) and `--exclude`.
    pub excludes: Vec<Exclude>,
    /// `--only-claimed`: files named on the command line are claimed by their content too.
    pub named_by_content: bool,
    /// `[build] targets`.
    pub build_targets: Option<Vec<String>>,
    /// `[lock] required`: `check` reports tools that no longer match `toolc.lock` (what
    /// `--locked` turns on).
    pub lock_required: bool,
    /// `extend = "…"`, as written, and its span (resolved by [`Config::load`]).
    extend: Option<(String, Span)>,
    /// Given with `--config`: it governs every file, and nested `toolc.toml` files are not read.
    pub explicit: bool,
    /// Given with `--config` from outside the repository checked: that repository's top
    /// folder, where the run writes (cache, baseline, bundles, lock) and what the paths it
    /// records are relative to.
    pub home: Option<PathBuf>,
    /// `[baseline] path`, resolved against `root` (or `--baseline FILE`): findings to hide.
    pub baseline: Option<RepoPath>,
    /// `[build] out`, resolved against `root`: where `toolc build` writes without `--out`.
    pub build_out: Option<RepoPath>,
    /// `preview = true`: preview rules run (`--preview` too). `None` when the file is silent,
    /// so an extending file keeps what it extends.
    pub preview: Option<bool>,
    /// `[runtimes]`: the runtime releases the project targets (rules of newer ones are off).
    pub runtimes: crate::runtimes::Targets,
    /// `[[custom-rules]]`, compiled (inherited ones too).
    pub custom: crate::custom::CustomRules,
    /// Selectors of an extending file that named no rule when it was read (a custom rule
    /// of the file it extends may be theirs), with their spans.
    pending_selectors: Vec<(String, Span)>,
    /// The files it `extend`s, directly or through another (an editor reads it again when
    /// one changes).
    pub extends: Vec<PathBuf>,
}

/// Why configuration could not be loaded: diagnostics pointing into the config file, or an
/// I/O problem before there was a file to point into.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file has problems; each is a diagnostic in it.
    #[error("invalid configuration")]
    Invalid(Vec<Diagnostic>),
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl Config {
    /// Find `toolc.toml` upward from `cwd` within its repository (or use `explicit`) and
    /// load it.
    pub fn discover(cwd: &Path, explicit: Option<&Path>) -> Result<Config, ConfigError> {
        Config::discover_from(cwd, cwd, explicit, &|_| None)
    }

    /// A configuration file's text: `buffer`'s, else the file's.
    pub(crate) fn read_buffered(
        path: &Path,
        buffer: &dyn Fn(&Path) -> Option<String>,
    ) -> std::io::Result<String> {
        buffer(path).map_or_else(|| read_config_file(path, true), Ok)
    }

    /// Find `toolc.toml` upward from `start` up to its repository's top folder (or use
    /// `explicit`, relative to `cwd`) and load it, with the files it extends read through `buffer` (an editor's unsaved texts)
    /// first; paths in its diagnostics are shown relative to `cwd`.
    pub(crate) fn discover_from(
        start: &Path,
        cwd: &Path,
        explicit: Option<&Path>,
        buffer: &dyn Fn(&Path) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let path = match explicit {
            // Normalized: globs are matched against paths stripped of this file's folder,
            // and `--config ../toolc.toml` must give the same folder as `/abs/toolc.toml`.
            // Named on the command line (by a workflow's input, say): a committed link out
            // of the repository is not followed.
            Some(p) => match crate::fs::boundary::named(p, cwd) {
                Ok(named) => Some(named.path().to_path_buf()),
                Err(refused) => {
                    return Err(ConfigError::Io {
                        path: crate::fs::normalize(&cwd.join(p)),
                        source: std::io::Error::new(
                            std::io::ErrorKind::PermissionDenied,
                            refused.to_string(),
                        ),
                    });
                }
            },
            // Whatever is there: a `toolc.toml` that is a device, a FIFO or a dangling link is
            // an error, not a reason to look further up (or to run with no configuration).
            // Up to the repository's top folder: a file above it (a hostile parent folder's,
            // or an unrelated project's) is not the repository's, and is not read.
            None => {
                let above = crate::fs::project::git_root(start).and_then(Path::parent);
                start
                    .ancestors()
                    .take_while(|d| above.is_none_or(|a| d.as_os_str() != a.as_os_str()))
                    .map(|d| d.join(FILE_NAME))
                    .find(|p| std::fs::symlink_metadata(p).is_ok())
            }
        };
        match path {
            None => Ok(Config::defaults_at(start)),
            Some(path) => {
                let text = read_config_file(&path, explicit.is_none()).map_err(|source| {
                    ConfigError::Io {
                        path: path.clone(),
                        source,
                    }
                })?;
                let display = crate::fs::display_path(&path, cwd);
                let root = path
                    .parent()
                    .map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
                let file = SourceFile::new(path, display, FormatId::Config, text);
                let read = |p: &Path| Config::read_buffered(p, buffer);
                // Named from outside, it writes where the run is, as the cache does.
                let outside =
                    explicit.is_some() && crate::fs::project::named_from_outside(&root, cwd);
                let home = outside.then(|| crate::fs::project::repository_of(cwd));
                let mut config = Config::load(file, root, cwd, home.as_deref(), &read)?;
                config.explicit = explicit.is_some();
                config.home = home;
                Ok(config)
            }
        }
    }

    /// No configuration file: every rule at its default, for the files under `root`.
    pub(crate) fn defaults_at(root: &Path) -> Config {
        Config {
            root: root.to_path_buf(),
            ..Config::default()
        }
    }

    /// The configuration of a run over `paths`: `explicit` (relative to `cwd`) when given, else
    /// the nearest `toolc.toml` above the first path (so `toolc build examples/demo` reads the
    /// demo's own file), else above `cwd`.
    pub fn discover_for(
        cwd: &Path,
        paths: &[PathBuf],
        explicit: Option<&Path>,
    ) -> Result<Config, ConfigError> {
        if explicit.is_some() {
            return Config::discover(cwd, explicit);
        }
        let from = paths.first().map(|p| crate::fs::normalize(&cwd.join(p)));
        let from = match from {
            Some(p) if p.is_dir() => p,
            Some(p) => p
                .parent()
                .map_or_else(|| cwd.to_path_buf(), Path::to_path_buf),
            None => cwd.to_path_buf(),
        };
        Config::discover_from(&from, cwd, None, &|_| None)
    }

    /// The folder paths in bundles are relative to: the configuration's folder (its
    /// [`Config::home`] when named from outside), else the repository around `root` (the
    /// nearest folder with `.git`), else `root`.
    pub fn project_root(&self) -> PathBuf {
        if let Some(home) = &self.home {
            home.clone()
        } else if self.file.is_some() {
            self.root.clone()
        } else {
            crate::fs::project::repository_of(&self.root)
        }
    }

    /// Parse configuration text.
    pub fn parse(file: Arc<SourceFile>, root: PathBuf) -> Result<Config, ConfigError> {
        Config::parse_in(file, root, None)
    }

    /// Parse configuration text whose written paths are relative to `writes`, when given.
    fn parse_in(
        file: Arc<SourceFile>,
        root: PathBuf,
        writes: Option<&Path>,
    ) -> Result<Config, ConfigError> {
        let mut errors = Vec::new();
        let err = |errors: &mut Vec<Diagnostic>, span: std::ops::Range<usize>, msg: String| {
            errors.push(Diagnostic::new(
                &INVALID_CONFIG,
                &file,
                Span::new(span.start, span.end),
                msg,
            ));
        };
        let shift = |r: std::ops::Range<usize>| (r.start + file.bom_len)..(r.end + file.bom_len);
        // Every mistake at once, each at its place (`collect.rs`).
        let (raw, read_errors) = collect::read::<RawConfig>(file.body());
        for e in read_errors {
            err(&mut errors, shift(e.span), e.message);
        }
        let Some(raw) = raw else {
            return Err(ConfigError::Invalid(errors));
        };
        let mut pending_selectors = Vec::new();
        let mut settings = |map: &BTreeMap<Spanned<String>, Spanned<String>>,
                            errors: &mut Vec<Diagnostic>| {
            let mut out = Vec::new();
            for (key, value) in map {
                if !rules::selector_is_known(key.get_ref()) {
                    let at = shift(key.span());
                    if raw.extend.is_none() {
                        let span = Span::new(at.start, at.end);
                        errors.push(selectors::unknown(&file, span, key.get_ref()));
                        continue;
                    }
                    pending_selectors.push((key.get_ref().clone(), Span::new(at.start, at.end)));
                }
                let setting = match value.get_ref().as_str() {
                    "off" => Setting::Off,
                    other => match Severity::parse(other) {
                        Some(s) => Setting::Level(s),
                        None => {
                            err(
                                errors,
                                shift(value.span()),
                                format!(
                                    "`{other}` is not a severity: use \"error\", \"warning\", \"info\" or \"off\""
                                ),
                            );
                            continue;
                        }
                    },
                };
                out.push(RuleSetting {
                    selector: key.get_ref().clone(),
                    setting,
                });
            }
            // Broader selectors first, so `DOJ = "off"` then `DOJ003 = "error"` keeps DOJ003.
            out.sort_by_key(|s| s.selector.len());
            out
        };
        // Before the settings: a setting may name a custom rule.
        let custom = crate::custom::compile(&raw.custom_rules, &file).unwrap_or_else(|e| {
            e.into_iter()
                .for_each(|e| err(&mut errors, shift(e.span), e.message));
            Default::default()
        });
        let rules = settings(&raw.rules, &mut errors);
        let budget = &mut selectors::GlobBudget::default();
        let mut overrides = Overrides::default();
        for o in &raw.overrides {
            let globs = selectors::globs(&o.paths, budget, &mut |span, msg| {
                err(&mut errors, shift(span), msg)
            })
            .into_iter()
            .map(|(_, g)| g)
            .collect();
            let rules = settings(&o.rules, &mut errors);
            overrides.push(Override {
                root: root.clone(),
                globs,
                rules,
            });
        }
        let mut includes = Vec::new();
        for (name, format) in &raw.formats {
            match FormatId::from_config_name(name.get_ref()) {
                Some(id) => {
                    let globs = build_globs(&format.include, budget, &mut |span, msg| {
                        err(&mut errors, shift(span), msg)
                    });
                    includes.push(Include {
                        format: id,
                        root: root.clone(),
                        globs,
                    });
                }
                None => err(
                    &mut errors,
                    shift(name.span()),
                    format!(
                        "`{}` is not a format; known formats: {}",
                        name.get_ref(),
                        FormatId::CONFIGURABLE.join(", ")
                    ),
                ),
            }
        }
        let excludes = Vec::from_iter(raw.discovery.map(|d| {
            Exclude::written(&root, &file, &d.exclude, budget, &mut |span, msg| {
                err(&mut errors, shift(span), msg)
            })
        }));
        // Paths the file chooses stay in its repository, out of `.git`, and off links that
        // leave it: a hostile `toolc.toml` must not point a write at a hook or outside.
        let base = writes.unwrap_or(&root);
        let repository = Repository::of(base);
        let confine =
            |key: &str, value: &Spanned<String>, errors: &mut Vec<Diagnostic>| match repository
                .configured(Path::new(value.get_ref()), base)
            {
                Ok(path) => Some(path),
                Err(refused) => {
                    err(
                        errors,
                        shift(value.span()),
                        format!("{key} `{}` is {refused}", value.get_ref()),
                    );
                    None
                }
            };
        let build_out = raw
            .build
            .as_ref()
            .and_then(|b| b.out.as_ref())
            .and_then(|out| confine("`[build] out`", out, &mut errors));
        let baseline = raw
            .baseline
            .as_ref()
            .and_then(|b| confine("`[baseline] path`", &b.path, &mut errors));
        let build_targets = raw.build.and_then(|b| b.targets).map(|t| {
            t.into_iter()
                .filter_map(|target| {
                    if BUILD_TARGETS.contains(&target.get_ref().as_str()) {
                        Some(target.into_inner())
                    } else {
                        err(
                            &mut errors,
                            shift(target.span()),
                            format!(
                                "`{}` is not a build target; known targets: {}",
                                target.get_ref(),
                                BUILD_TARGETS.join(", ")
                            ),
                        );
                        None
                    }
                })
                .collect()
        });
        let mut runtimes = crate::runtimes::Targets::default();
        for (id, version) in &raw.runtimes {
            match crate::runtimes::Targets::parse_entry(id.get_ref(), version.get_ref()) {
                Ok((id, v)) => runtimes.set(id, v),
                Err(msg) => {
                    let unknown = crate::runtimes::runtime(id.get_ref()).is_none();
                    let at = if unknown { id.span() } else { version.span() };
                    err(&mut errors, shift(at), msg);
                }
            }
        }
        if !errors.is_empty() {
            errors.sort_by_key(|d| d.span.start);
            return Err(ConfigError::Invalid(errors));
        }
        let extend = raw.extend.map(|e| {
            let span = shift(e.span());
            (e.into_inner(), Span::new(span.start, span.end))
        });
        Ok(Config {
            file: Some(file),
            root,
            rules,
            overrides,
            includes,
            excludes,
            named_by_content: false,
            build_targets,
            lock_required: raw.lock.is_some_and(|l| l.required),
            extend,
            explicit: false,
            home: None,
            baseline,
            build_out,
            preview: raw.preview,
            runtimes,
            custom,
            pending_selectors,
            extends: Vec::new(),
        })
    }

    /// Never read paths matching `patterns` (relative to `root`): `--exclude`.
    pub fn exclude(&mut self, root: &Path, patterns: &[String]) -> Result<(), String> {
        self.excludes.push(Exclude::new(root, patterns)?);
        Ok(())
    }

    /// True when an exclude glob of this configuration matches `path` (absolute).
    pub fn excludes(&self, path: &Path) -> bool {
        self.excludes.iter().any(|e| e.matches(path))
    }

    /// True when the preview rule `rule` runs on a file at `path`: `preview = true`, or a
    /// setting that names this very rule (its code or name, not a prefix) turns it on.
    pub fn runs_preview(&self, rule: &Rule, path: &Path) -> bool {
        let names_it = |s: &&RuleSetting| {
            s.setting != Setting::Off
                && (s.selector.eq_ignore_ascii_case(rule.code) || s.selector == rule.name)
        };
        self.preview == Some(true)
            || self.rules.iter().any(|s| names_it(&s))
            || self
                .overrides
                .matching(path)
                .any(|o| o.rules.iter().any(|s| names_it(&s)))
    }

    /// The setting for `rule` on a file at `path` (absolute or relative to the config root).
    pub fn setting(&self, rule: &Rule, path: &Path) -> Setting {
        if !self.runtimes.applies(rule.code) {
            return Setting::Off;
        }
        let mut setting = Setting::Level(rule.severity);
        for s in self
            .rules
            .iter()
            .filter(|s| rules::selector_matches(&s.selector, rule))
        {
            setting = s.setting;
        }
        for o in self.overrides.matching(path) {
            for s in o
                .rules
                .iter()
                .filter(|s| rules::selector_matches(&s.selector, rule))
            {
                setting = s.setting;
            }
        }
        setting
    }
}

/// Targets `toolc build` knows.
pub(crate) const BUILD_TARGETS: &[&str] = &["openai", "anthropic", "mcp", "gemini", "bundle"];

#[cfg(test)]
mod tests;
