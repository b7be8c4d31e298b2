//! The library entry an editor or a test drives: a repository, its configuration, and files
//! in memory over the disk. A first [`Workspace::check`] loads every file; after that,
//! [`Workspace::check_file`] reloads one changed file, keeps every other file's loaded result,
//! runs the cross-file checks again, and reports the files whose findings changed.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diagnostics::{Diagnostic, Summary};
use crate::formats::FileResult;
use crate::fs::normalize;
use crate::fs::{FileSystem, Overlay};
use crate::pipeline::{self, Loaded};
use crate::pipeline::{CheckOptions, Report};

/// A repository checked in memory: the disk, with editor buffers taking precedence.
pub struct Workspace {
    config: Config,
    options: CheckOptions,
    fs: Overlay,
    /// The files of the last check, kept so that one change re-reads one file.
    loaded: Option<Loaded>,
    /// The last report's findings, by file, to tell which files a change affected.
    last: HashMap<PathBuf, Vec<Finding>>,
}

/// What identifies a finding, for comparing two reports.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Finding {
    code: &'static str,
    start: usize,
    end: usize,
    message: String,
}

impl Finding {
    fn of(d: &Diagnostic) -> Finding {
        Finding {
            code: d.rule.code,
            start: d.span.start,
            end: d.span.end,
            message: d.message.clone(),
        }
    }
}

impl Workspace {
    /// The repository at `root` (absolute), checked with `config`; output paths are relative
    /// to `root`.
    pub fn new(config: Config, root: impl Into<PathBuf>) -> Workspace {
        let root = root.into();
        let disk = crate::fs::Confined::for_paths(&[], &root);
        Workspace::with_file_system(config, root, Box::new(disk))
    }

    /// [`Workspace::new`], reading files from `base` instead of the disk (tests, virtual
    /// files). Discovery still walks the disk; a buffer whose name says its format is read
    /// even when no file is there.
    pub fn with_file_system(
        config: Config,
        root: impl Into<PathBuf>,
        base: Box<dyn FileSystem>,
    ) -> Workspace {
        Workspace {
            config,
            options: CheckOptions {
                cwd: root.into(),
                ..CheckOptions::default()
            },
            fs: Overlay::new(base),
            loaded: None,
            last: HashMap::new(),
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// True when a nested configuration of the last check `extend`s `path`: its rules
    /// govern files here, so a change to it calls for a new check.
    pub fn nested_configs_extend(&self, path: &Path) -> bool {
        self.loaded.as_ref().is_some_and(|l| {
            l.configs
                .nested()
                .any(|c| c.extends.iter().any(|e| e == path))
        })
    }

    /// The repository root: every path is relative to it.
    pub fn root(&self) -> &Path {
        &self.options.cwd
    }

    /// The files of the last check, sorted by path (none before the first check): what an
    /// editor's navigation reads.
    pub(crate) fn results(&self) -> &[FileResult] {
        self.loaded.as_ref().map_or(&[], |l| &l.results)
    }

    /// Read `bytes` in place of the file at `path` (relative to the root, or absolute) from
    /// now on: an editor's unsaved buffer. Call [`Workspace::check_file`] to see the effect.
    pub fn set_buffer(&mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) {
        let path = self.absolute(path.as_ref());
        self.fs.set(path, bytes.into());
    }

    /// Read the file at `path` from disk again (the editor closed or saved it). True when it
    /// had a buffer.
    pub fn remove_buffer(&mut self, path: impl AsRef<Path>) -> bool {
        let path = self.absolute(path.as_ref());
        self.fs.remove(&path)
    }

    /// Check the whole repository, reading every file again.
    pub fn check(&mut self) -> Report {
        let loaded = pipeline::load(&self.options, &self.config, &self.fs, None, true);
        let (report, _) = pipeline::report(&self.options, &self.config, &loaded, None, false);
        self.remember(&report);
        self.loaded = Some(loaded);
        report
    }

    /// Re-check after the file at `path` changed (on disk or in a buffer, or was created or
    /// deleted); when it is a file a definition reads (a DojOps schema), that definition is
    /// reloaded. The report holds that file and every file whose findings changed with it
    /// (an agent whose tool was disabled, a duplicate that is one no more); `files` lists
    /// those still in the repository, so that an editor clears the ones left without
    /// findings. The summary's tool count is the whole repository's.
    pub fn check_file(&mut self, path: impl AsRef<Path>) -> Report {
        let path = self.absolute(path.as_ref());
        let Some(loaded) = &mut self.loaded else {
            let full = self.check();
            return only(full, &BTreeSet::from([path]));
        };
        pipeline::reload(loaded, &self.options, &self.config, &self.fs, &path);
        let (report, _) = pipeline::report(&self.options, &self.config, loaded, None, false);
        let mut changed = BTreeSet::from([path]);
        let now = by_file(&report.diagnostics);
        for file in now.keys().chain(self.last.keys()) {
            if now.get(file) != self.last.get(file) {
                changed.insert(file.clone());
            }
        }
        self.last = now;
        only(report, &changed)
    }

    fn remember(&mut self, report: &Report) {
        self.last = by_file(&report.diagnostics);
    }

    fn absolute(&self, path: &Path) -> PathBuf {
        normalize(&self.options.cwd.join(path))
    }
}

fn by_file(diagnostics: &[Diagnostic]) -> HashMap<PathBuf, Vec<Finding>> {
    let mut out: HashMap<PathBuf, Vec<Finding>> = HashMap::new();
    for d in diagnostics {
        out.entry(d.file.path.clone())
            .or_default()
            .push(Finding::of(d));
    }
    out
}

/// `report` narrowed to `paths`.
fn only(report: Report, paths: &BTreeSet<PathBuf>) -> Report {
    // Looked up as text: a `Path` compares part by part, and every file is looked up.
    let texts: HashSet<&std::ffi::OsStr> = paths.iter().map(|p| p.as_os_str()).collect();
    let paths = |p: &Path| texts.contains(p.as_os_str());
    let keep = |d: &Diagnostic| paths(&d.file.path);
    let diagnostics: Vec<Diagnostic> = report.diagnostics.into_iter().filter(keep).collect();
    let suppressed = report.suppressed.into_iter().filter(keep).collect();
    let baselined = report.baselined.into_iter().filter(keep).collect();
    let files: Vec<_> = report
        .files
        .into_iter()
        .filter(|f| paths(&f.path))
        .collect();
    let summary = Summary::count(files.len(), report.summary.tools, &diagnostics);
    Report {
        diagnostics,
        suppressed,
        baselined,
        summary,
        files,
    }
}
