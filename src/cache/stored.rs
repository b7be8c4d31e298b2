//! What the cache holds of one loaded file, and the way back: a [`FileResult`] without its
//! texts (read back and checked against their digests when needed), with its item decoded
//! when first looked into. What does not read back exactly (an unknown rule code, a file
//! index out of range) makes the whole entry unusable, and the file is checked again.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use super::bytes::Blob;
use crate::analysis::secrets::scan_text;
use crate::diagnostics::{Diagnostic, Fix, Related};
use crate::formats::{self, FileResult, Item};
use crate::fs::FileSystem;
use crate::rules::{self, Severity};
use crate::runtimes::Releases;
use crate::source::{Digest, FormatId, SourceFile, Span};
use crate::suppress::{SuppressedCode, Suppression};

/// A loaded file as stored.
#[derive(Serialize, Deserialize)]
pub(super) struct Stored {
    /// The file, then its companions.
    files: Vec<StoredFile>,
    /// The suppression comments of each of `files`.
    suppressions: Vec<Vec<StoredSuppression>>,
    diagnostics: Vec<StoredDiagnostic>,
    /// The item, as its format's codec wrote it.
    item: Option<Blob>,
    /// The tool definitions it held.
    tools: u32,
    /// The custom rules whose `given` selected something in it (`FileResult::custom_matched`).
    matched: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct StoredFile {
    path: String,
    format: FormatId,
    bom_len: usize,
    digest: Digest,
}

#[derive(Serialize, Deserialize)]
struct StoredSuppression {
    first_line: usize,
    last_line: usize,
    codes: Vec<(String, Span)>,
}

#[derive(Serialize, Deserialize)]
struct StoredDiagnostic {
    code: String,
    severity: Severity,
    message: String,
    file: usize,
    span: Span,
    label: Option<String>,
    related: Vec<(usize, Span, String)>,
    notes: Vec<Cow<'static, str>>,
    help: Option<Cow<'static, str>>,
    fix: Option<Fix>,
    releases: Option<Releases>,
    omitted: usize,
}

impl Stored {
    /// What to store of `r`; `None` when its format does not opt into the cache, one of its
    /// files holds a credential, or a diagnostic points into a file that is neither `r`'s
    /// nor a companion's.
    pub(super) fn of(r: &FileResult) -> Option<Stored> {
        let codec = formats::format_of(r.file.format)?.cache()?;
        let sources: Vec<Arc<SourceFile>> = std::iter::once(&r.file)
            .chain(&r.companions)
            .cloned()
            .collect();
        // Its item and findings would carry a credential whole into the cache (output masks
        // it; `--fix` needs it whole): such a file is checked again each run instead.
        if sources.iter().any(|f| !scan_text(&f.text).is_empty()) {
            return None;
        }
        let item = match r.item.is_none() {
            true => None,
            false => Some(Blob(codec.encode(&r.item, &sources)?)),
        };
        let index = |f: &Arc<SourceFile>| sources.iter().position(|s| s.path == f.path);
        let files = sources
            .iter()
            .map(|f| {
                Some(StoredFile {
                    path: f.path.to_str()?.to_string(),
                    format: f.format,
                    bom_len: f.bom_len,
                    digest: f.digest(),
                })
            })
            .collect::<Option<_>>()?;
        let suppressions = sources
            .iter()
            .map(|f| f.suppressions().iter().map(StoredSuppression::of).collect())
            .collect();
        let diagnostics = r
            .diagnostics
            .iter()
            .map(|d| StoredDiagnostic::of(d, &index))
            .collect::<Option<_>>()?;
        Some(Stored {
            files,
            suppressions,
            diagnostics,
            item,
            tools: u32::try_from(r.tool_count()).ok()?,
            matched: r.custom_matched.iter().map(|c| c.to_string()).collect(),
        })
    }

    /// The item's bytes and the files it names, to hold in place of the decoded item (they
    /// are smaller until something looks into it).
    pub(super) fn item(self, r: &FileResult) -> Option<Item> {
        let files = std::iter::once(&r.file).chain(&r.companions).cloned();
        encoded(r.file.format, self.item?.0, self.tools, files.collect())
    }

    /// The loaded file again, at `path`, of the format it was read as; paths are shown from
    /// `cwd` (the run that stored it was in the same place) and texts read back through `fs`.
    pub(super) fn rebuild(
        self,
        path: &Path,
        cwd: &Path,
        fs: &Arc<dyn FileSystem>,
    ) -> Option<FileResult> {
        let mut suppressions = self.suppressions.into_iter();
        let files: Vec<Arc<SourceFile>> = self
            .files
            .into_iter()
            .map(|f| {
                let suppressions = suppressions
                    .next()
                    .unwrap_or_default()
                    .into_iter()
                    .map(StoredSuppression::load)
                    .collect::<Vec<_>>()
                    .into();
                let path = PathBuf::from(f.path);
                let display = crate::discover::display_path(&path, cwd);
                SourceFile::unread(
                    path,
                    display,
                    f.format,
                    f.bom_len,
                    f.digest,
                    suppressions,
                    fs,
                )
            })
            .collect();
        let first = files.first()?;
        // The format its content chose (it may be another than its path's).
        let format = (first.path == path).then_some(first.format)?;
        formats::format_of(format)?.cache()?;
        let item = match self.item {
            Some(bytes) => encoded(format, bytes.0, self.tools, files.clone())?,
            None => Item::none(),
        };
        let file = |i: usize| files.get(i);
        let diagnostics = self
            .diagnostics
            .into_iter()
            .map(|d| d.load(&file))
            .collect::<Option<Vec<_>>>()?;
        let mut files = files.into_iter();
        let matched = self.matched.iter().map(|c| Some(rule(c)?.code));
        Some(FileResult {
            file: files.next()?,
            companions: files.collect(),
            diagnostics,
            item,
            trees: None,
            custom_matched: matched.collect::<Option<_>>()?,
        })
    }
}

/// An item of `format` still encoded as `bytes`, holding `tools` tools and naming `files`.
fn encoded(
    format: FormatId,
    bytes: Vec<u8>,
    tools: u32,
    files: Vec<Arc<SourceFile>>,
) -> Option<Item> {
    let codec = formats::format_of(format)?.cache()?;
    Some(Item::encoded(
        codec,
        Box::new(move || Some(bytes)),
        tools as usize,
        files,
    ))
}

/// The rule whose code is `code` (looked up once per run for every code).
fn rule(code: &str) -> Option<&'static rules::Rule> {
    static BY_CODE: OnceLock<HashMap<&str, &rules::Rule>> = OnceLock::new();
    let all = BY_CODE.get_or_init(|| rules::all().into_iter().map(|r| (r.code, r)).collect());
    all.get(code).copied()
}

impl StoredSuppression {
    fn of(s: &Suppression) -> StoredSuppression {
        StoredSuppression {
            first_line: s.first_line,
            last_line: s.last_line,
            codes: s
                .codes
                .iter()
                .map(|c| (c.text.to_string(), c.span))
                .collect(),
        }
    }

    fn load(self) -> Suppression {
        Suppression {
            first_line: self.first_line,
            last_line: self.last_line,
            codes: self
                .codes
                .into_iter()
                .map(|(text, span)| SuppressedCode {
                    rule: rules::lookup(&text),
                    text: text.into(),
                    span,
                })
                .collect(),
        }
    }
}

impl StoredDiagnostic {
    /// `d`, its files named by `index`.
    fn of(d: &Diagnostic, index: &dyn Fn(&Arc<SourceFile>) -> Option<usize>) -> Option<Self> {
        Some(StoredDiagnostic {
            code: d.rule.code.to_string(),
            severity: d.severity,
            message: d.message.clone(),
            file: index(&d.file)?,
            span: d.span,
            label: d.label.clone(),
            related: d
                .related
                .iter()
                .map(|x| Some((index(&x.file)?, x.span, x.message.clone())))
                .collect::<Option<_>>()?,
            notes: d.notes.clone(),
            help: d.help.clone(),
            omitted: d.omitted,
            releases: d.releases.as_deref().copied(),
            fix: d.fix.as_deref().cloned(),
        })
    }

    /// The diagnostic again, its files found by `file`.
    fn load<'f>(self, file: &dyn Fn(usize) -> Option<&'f Arc<SourceFile>>) -> Option<Diagnostic> {
        let rule = rule(&self.code)?;
        let related = self
            .related
            .into_iter()
            .map(|(i, span, message)| {
                Some(Related {
                    file: Arc::clone(file(i)?),
                    span,
                    message,
                })
            })
            .collect::<Option<_>>()?;
        Some(Diagnostic {
            rule,
            severity: self.severity,
            message: self.message,
            file: Arc::clone(file(self.file)?),
            span: self.span,
            label: self.label,
            related,
            notes: self.notes,
            help: self.help,
            omitted: self.omitted,
            releases: self.releases.map(Box::new),
            fix: self.fix.map(Box::new),
        })
    }
}

/// Findings over many files (the cross-file ones), the files named by path.
#[derive(Serialize, Deserialize)]
pub(super) struct Findings {
    files: Vec<PathBuf>,
    diagnostics: Vec<StoredDiagnostic>,
}

impl Findings {
    /// `diagnostics` as stored.
    pub(super) fn of(diagnostics: &[Diagnostic]) -> Option<Findings> {
        let mut files: Vec<PathBuf> = diagnostics
            .iter()
            .flat_map(|d| std::iter::once(&d.file).chain(d.related.iter().map(|r| &r.file)))
            .map(|f| f.path.clone())
            .collect();
        files.sort();
        files.dedup();
        let index = |f: &Arc<SourceFile>| files.binary_search(&f.path).ok();
        let diagnostics = diagnostics
            .iter()
            .map(|d| StoredDiagnostic::of(d, &index))
            .collect::<Option<_>>()?;
        Some(Findings { files, diagnostics })
    }

    /// The findings again, on the files `find` gives for their paths (none: not usable).
    pub(super) fn load(
        self,
        find: &dyn Fn(&Path) -> Option<Arc<SourceFile>>,
    ) -> Option<Vec<Diagnostic>> {
        let files: Vec<Arc<SourceFile>> =
            self.files.iter().map(|p| find(p)).collect::<Option<_>>()?;
        let file = |i: usize| files.get(i);
        self.diagnostics
            .into_iter()
            .map(|d| d.load(&file))
            .collect()
    }
}
