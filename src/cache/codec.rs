//! What the cache holds of one loaded file, and the way back: a [`FileResult`] without its
//! text (files, diagnostics, suppression comments, the format's item as bytes). Anything that
//! does not read back exactly (an unknown rule code, a file index out of range, an item its
//! format cannot decode) makes the whole entry unusable, and the file is checked again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::diagnostics::{Applicability, Diagnostic, Edit, Fix, Related};
use crate::formats::{self, FileResult, Item};
use crate::fs::FileSystem;
use crate::rules::{self, Severity};
use crate::source::{Digest, FormatId, SourceFile, Span};
use crate::suppress::{SuppressedCode, Suppression};

/// A loaded file as the cache stores it.
#[derive(Serialize, Deserialize)]
pub struct Stored {
    /// The file itself, then its companions: diagnostics name files by index in this list.
    files: Vec<StoredFile>,
    diagnostics: Vec<StoredDiagnostic>,
    /// The format's item, encoded by its codec; `None` when the file could not be lowered.
    #[serde(with = "super::serde_helpers::bytes_option")]
    item: Option<Vec<u8>>,
    /// The number of tool definitions the file holds.
    tools: u32,
}

#[derive(Serialize, Deserialize)]
struct StoredFile {
    path: PathBuf,
    format: FormatId,
    bom_len: usize,
    digest: Digest,
    suppressions: Vec<StoredSuppression>,
}

#[derive(Serialize, Deserialize)]
struct StoredSuppression {
    first_line: usize,
    last_line: usize,
    codes: Vec<(String, Span)>,
}

#[derive(Serialize, Deserialize, Clone)]
struct StoredDiagnostic {
    code: String,
    severity: u8,
    message: String,
    file: usize,
    span: Span,
    label: Option<String>,
    related: Vec<(usize, Span, String)>,
    notes: Vec<String>,
    help: Option<String>,
    fix: Option<StoredFix>,
}

#[derive(Serialize, Deserialize, Clone)]
struct StoredFix {
    message: String,
    safe: bool,
    edits: Vec<(Span, String)>,
}

fn severity_code(s: Severity) -> u8 {
    match s {
        Severity::Info => 0,
        Severity::Warning => 1,
        Severity::Error => 2,
    }
}

fn severity_of(code: u8) -> Option<Severity> {
    match code {
        0 => Some(Severity::Info),
        1 => Some(Severity::Warning),
        2 => Some(Severity::Error),
        _ => None,
    }
}

impl Stored {
    /// What to store of `r`; `None` when its format does not opt into the cache, or a
    /// diagnostic points into a file that is neither `r`'s nor a companion's.
    pub fn of(r: &FileResult) -> Option<Stored> {
        let codec = formats::format_of(r.file.format)?.cache()?;
        let item = if r.item.is_none() {
            None
        } else {
            Some(codec.encode(&r.item)?)
        };
        let sources: Vec<&Arc<SourceFile>> =
            std::iter::once(&r.file).chain(&r.companions).collect();
        let index = |f: &Arc<SourceFile>| sources.iter().position(|s| s.path == f.path);
        let files = sources
            .iter()
            .map(|f| StoredFile {
                path: f.path.clone(),
                format: f.format,
                bom_len: f.bom_len,
                digest: f.digest(),
                suppressions: f
                    .suppressions()
                    .iter()
                    .map(|s| StoredSuppression {
                        first_line: s.first_line,
                        last_line: s.last_line,
                        codes: s.codes.iter().map(|c| (c.text.clone(), c.span)).collect(),
                    })
                    .collect(),
            })
            .collect();
        let diagnostics = r
            .diagnostics
            .iter()
            .map(|d| StoredDiagnostic::of(d, &index))
            .collect::<Option<_>>()?;
        Some(Stored {
            files,
            diagnostics,
            item,
            tools: u32::try_from(r.tool_count()).ok()?,
        })
    }

    /// The loaded file again, at `path` read as `format`, shown as `display` (paths are shown
    /// relative to the working directory, which may differ from the run that stored it).
    pub fn load(
        self,
        path: &Path,
        format: FormatId,
        cwd: &Path,
        fs: &Arc<dyn FileSystem>,
    ) -> Option<FileResult> {
        let first = self.files.first()?;
        if first.path != path || first.format != format {
            return None;
        }
        let codec = formats::format_of(format)?.cache()?;
        let item = match self.item {
            // Decoded when something looks into it.
            Some(bytes) => Item::encoded(codec, bytes, self.tools as usize),
            None => Item::none(),
        };
        let files: Vec<Arc<SourceFile>> = self
            .files
            .into_iter()
            .map(|f| {
                let suppressions = f
                    .suppressions
                    .into_iter()
                    .map(|s| Suppression {
                        first_line: s.first_line,
                        last_line: s.last_line,
                        codes: s
                            .codes
                            .into_iter()
                            .map(|(text, span)| SuppressedCode {
                                rule: rules::lookup(&text),
                                text,
                                span,
                                used: false,
                            })
                            .collect(),
                    })
                    .collect();
                let display = crate::discover::display_path(&f.path, cwd);
                SourceFile::unread(
                    f.path,
                    display,
                    f.format,
                    f.bom_len,
                    f.digest,
                    suppressions,
                    fs,
                )
            })
            .collect();
        let file = |i: usize| files.get(i);
        let diagnostics = self
            .diagnostics
            .into_iter()
            .map(|d| d.load(&file))
            .collect::<Option<Vec<_>>>()?;
        let mut files = files.into_iter();
        let main = files.next()?;
        Some(FileResult {
            file: main,
            companions: files.collect(),
            diagnostics,
            item,
        })
    }
}

impl StoredDiagnostic {
    /// `d`, its files named by `index`.
    fn of(d: &Diagnostic, index: &dyn Fn(&Arc<SourceFile>) -> Option<usize>) -> Option<Self> {
        Some(StoredDiagnostic {
            code: d.rule.code.to_string(),
            severity: severity_code(d.severity),
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
            fix: d.fix.as_ref().map(|f| StoredFix {
                message: f.message.clone(),
                safe: f.applicability == Applicability::Safe,
                edits: f
                    .edits
                    .iter()
                    .map(|e| (e.span, e.replacement.clone()))
                    .collect(),
            }),
        })
    }

    /// The diagnostic again, its files found by `file`.
    fn load<'f>(self, file: &dyn Fn(usize) -> Option<&'f Arc<SourceFile>>) -> Option<Diagnostic> {
        let rule = rules::lookup(&self.code).filter(|r| r.code == self.code)?;
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
            severity: severity_of(self.severity)?,
            message: self.message,
            file: Arc::clone(file(self.file)?),
            span: self.span,
            label: self.label,
            related,
            notes: self.notes,
            help: self.help,
            fix: self.fix.map(|f| Fix {
                message: f.message,
                applicability: if f.safe {
                    Applicability::Safe
                } else {
                    Applicability::Unsafe
                },
                edits: f
                    .edits
                    .into_iter()
                    .map(|(span, replacement)| Edit { span, replacement })
                    .collect(),
            }),
        })
    }
}

/// Findings over many files (the cross-file ones), the files named by path.
#[derive(Serialize, Deserialize)]
pub struct Findings {
    files: Vec<PathBuf>,
    diagnostics: Vec<StoredDiagnostic>,
}

impl Findings {
    /// `diagnostics` as stored.
    pub fn of(diagnostics: &[Diagnostic]) -> Option<Findings> {
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
    pub fn load(&self, find: &dyn Fn(&Path) -> Option<Arc<SourceFile>>) -> Option<Vec<Diagnostic>> {
        let files: Vec<Arc<SourceFile>> =
            self.files.iter().map(|p| find(p)).collect::<Option<_>>()?;
        let file = |i: usize| files.get(i);
        self.diagnostics
            .iter()
            .map(|d| d.clone().load(&file))
            .collect()
    }
}
