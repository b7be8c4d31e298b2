//! `TR-*.md` tool execution requests (the "tool execution request" spec, schema version 1).
//!
//! A request is the human-approved artifact a sandboxed executor runs. The validator is the
//! gate in front of it, so everything here errs on the strict side: a request that could
//! reach the host, chain commands or leak a credential is rejected, with the exact
//! characters that make it so.
//!
//! One file per concern: the front matter (`front_matter`), the body's sections
//! (`sections`), the ERA command line and what runs (`command`), declared inputs and outputs
//! (`inputs`), the risk assessment (`risk`), host paths and credentials anywhere in the
//! request (`host`), the file name (`file_name`) and the timestamps (`time`).

mod command;
mod file_name;
mod front_matter;
mod host;
mod inputs;
mod risk;
mod sections;
mod time;

use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::Arc;

use super::fields::ShapeRules;
use crate::analysis::registry;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::formats::format::{FileResult, Format, syntax_diagnostics};
use crate::formats::front_matter::front_matter_error;
use crate::formats::item::Item;
use crate::fs::FileSystem;
use crate::rules::{Severity, tool_request as rules};
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::front_matter::split_front_matter;
use crate::syntax::markdown::blocks;
use crate::syntax::yaml;
use std::path::Path;

/// What the executor does with a request that breaks a hard rule.
const REJECTED: &str = "the executor's validator rejects this request: nothing runs";

static SHAPE: ShapeRules = ShapeRules {
    missing: &rules::MISSING_REQUIRED_FIELD,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_FIELD_VALUE,
    length: &rules::MISSING_REQUIRED_FIELD,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// Front-matter keys: the spec's table, then the optional `inputs` and `allowlist` lists.
const KEYS: &[&str] = &[
    "request_type",
    "schema_version",
    "request_id",
    "created_utc",
    "requested_by",
    "approved_by",
    "approved_utc",
    "purpose",
    "backend",
    "language",
    "network",
    "cpu_limit",
    "memory_limit_mb",
    "time_limit_sec",
    "inputs",
    "allowlist",
];

/// The backend that runs a request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Backend {
    /// Runs one command line (the default when `backend` is missing).
    #[default]
    Era,
    /// Runs a Python snippet in the Monty interpreter.
    Monty,
}

impl Backend {
    /// The backend's name as `backend:` spells it.
    fn as_str(self) -> &'static str {
        match self {
            Backend::Era => "ERA",
            Backend::Monty => "monty",
        }
    }

    /// Body sections in order, each with whether it is required.
    fn sections(self) -> &'static [(&'static str, bool)] {
        match self {
            Backend::Era => &[
                ("Command", true),
                ("Input Files", true),
                ("Output Expectations", true),
                ("Risk Assessment", true),
            ],
            Backend::Monty => &[
                ("Code", true),
                ("Inputs (JSON)", false),
                ("Output Expectations", true),
                ("Risk Assessment", true),
            ],
        }
    }

    /// The other backend.
    fn other(self) -> Backend {
        match self {
            Backend::Era => Backend::Monty,
            Backend::Monty => Backend::Era,
        }
    }
}

/// A `request_id` and where it is written.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct RequestId {
    /// The id.
    pub value: String,
    /// The span of its value.
    pub span: Span,
}

/// A lowered request.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Request {
    /// `request_id`, when it is a non-empty string.
    pub request_id: Option<RequestId>,
    /// `backend` (ERA when missing or invalid).
    pub backend: Backend,
}

/// `d` with the validator's verdict as its note, unless it says something more precise.
fn rejected(d: Diagnostic) -> Diagnostic {
    if d.notes.is_empty() {
        d.note(REJECTED)
    } else {
        d
    }
}

/// Parse, lower, validate and lint one request.
pub(crate) fn load(file: Arc<SourceFile>) -> FileResult {
    let mut cx = Cx {
        file: &file,
        diags: Findings::default(),
        claimed: HashSet::new(),
    };
    let request = cx.check();
    let mut diagnostics = cx.diags.into_vec();
    // Every defect of a rule the validator enforces says what it does with the request,
    // unless the emit site says something more precise already.
    for d in &mut diagnostics {
        if d.notes.is_empty() && d.rule.rejects_file {
            d.notes.push(REJECTED.to_string().into());
        }
    }
    FileResult::new(file, diagnostics, Item::new(request))
}

/// `TR-*.md` tool execution requests (no tools of their own; ids are repository-wide).
pub(crate) struct ToolRequest;

impl Format for ToolRequest {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[(FormatId::ToolRequest, &["**/TR-*.md"])]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        let name = path.file_name()?.to_str()?;
        (name.starts_with("TR-") && name.ends_with(".md")).then_some(FormatId::ToolRequest)
    }

    fn cache(&self) -> Option<crate::formats::item::ItemCodec> {
        Some(crate::formats::item::ItemCodec::of::<Request>())
    }

    fn claims(&self, _format: FormatId, text: &str) -> bool {
        // `TR-*.md` is a common enough name (a translation, a ticket) to need the request's
        // own keys.
        crate::syntax::sniff::front_matter_has_any(text, &["request_type", "request_id"])
    }

    fn load(
        &self,
        file: Arc<SourceFile>,
        _fs: &dyn FileSystem,
        _passes: crate::security::Passes,
    ) -> FileResult {
        load(file)
    }

    fn resolve(&self, results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        resolve(results)
    }
}

/// Cross-file checks: a `request_id` must be unique across the repository.
pub(crate) fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    let mut ids: Vec<(&Arc<SourceFile>, &RequestId)> = results
        .iter()
        .filter_map(|r| {
            let req = r.item.get::<Request>()?;
            req.request_id.as_ref().map(|id| (&r.file, id))
        })
        .collect();
    ids.sort_by(|a, b| (&a.0.display(), a.1.span.start).cmp(&(&b.0.display(), b.1.span.start)));
    // Request ids are unique across the whole repository: one scope.
    registry::duplicates(ids.iter().map(|(_, id)| Some(((), id.value.as_str()))))
        .into_iter()
        .map(|dup| {
            let (first_file, first) = ids[dup.first];
            let (file, id) = ids[dup.again];
            Diagnostic::new(
                &rules::DUPLICATE_REQUEST_ID,
                file,
                id.span,
                format!("request id `{}` is already used by `{}`", id.value, first_file.display()),
            )
            .label("duplicate request id")
            .related(first_file, first.span, "first used here")
            .note("request ids are the audit trail's key: two requests with one id make approvals and results ambiguous, and the executor rejects the second")
            .help("give this request its own id (the file name's timestamp and slug make a good one)")
        })
        .collect()
}

/// A parsed ISO-8601 timestamp.
#[derive(Debug, Clone)]
struct Stamp {
    /// The instant, to the second.
    at: jiff::Timestamp,
    span: Span,
    text: String,
}

/// An input declared with its location (and hash, when given).
#[derive(Debug, Clone)]
struct Declared {
    path: String,
    span: Span,
    hash: Option<(String, Span)>,
    /// A hash was written but is not a sha256 (already reported).
    bad_hash: bool,
}

/// What the body checks need from the front matter.
#[derive(Default)]
struct Meta {
    backend: Backend,
    /// `network` when it is a valid value, with its span.
    network: Option<(String, Span)>,
    /// Entries of `allowlist`, when the key is present.
    allowlist: Option<usize>,
    created: Option<Stamp>,
    approved: Option<Stamp>,
    /// Front-matter `inputs`, when the key is present.
    inputs: Option<Vec<Declared>>,
}

struct Cx<'a> {
    file: &'a Arc<SourceFile>,
    diags: Findings,
    /// Paths (cleaned) already reported as a misplaced input or output: SEC011 does not
    /// repeat them wherever else they are mentioned.
    claimed: HashSet<String>,
}

impl<'a> Cx<'a> {
    fn diag(
        &self,
        rule: &'static crate::rules::Rule,
        span: Span,
        msg: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(rule, self.file, span, msg)
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The file's text, borrowed from the file rather than from `self`.
    fn text(&self) -> &'a str {
        &self.file.text
    }

    fn check(&mut self) -> Request {
        let mut request = Request::default();
        let fm = match split_front_matter(self.text(), self.file.bom_len) {
            Ok(fm) => fm,
            Err(e) => {
                // The validator cannot read a request without front matter.
                let d = front_matter_error(self.file, e, &front_matter::FRONT_MATTER);
                self.push(rejected(d));
                self.file_name(None);
                return request;
            }
        };
        let yaml_text = self.text().get(fm.yaml.start..fm.yaml.end).unwrap_or("");
        let parsed = yaml::parse(yaml_text, fm.yaml.start);
        // Front matter the validator cannot parse rejects the request like a broken rule.
        self.diags
            .extend(syntax_diagnostics(self.file, &parsed).into_iter().map(|d| {
                if d.rule.severity == Severity::Error {
                    rejected(d)
                } else {
                    d
                }
            }));
        let meta = match &parsed.root {
            Some(root) => self.front_matter(root, fm.open, &mut request),
            None => {
                if parsed.errors.is_empty() {
                    let d = self
                        .diag(&rules::MISSING_REQUIRED_FIELD, fm.open, "the front matter is empty")
                        .label("no keys follow this line")
                        .help("add the keys of the spec's table (`request_type`, `schema_version`, `request_id`, …) between the `---` lines");
                    self.push(d);
                }
                Meta::default()
            }
        };
        let closing = Span::new(fm.yaml.end, (fm.yaml.end + 3).min(fm.body_start));
        let body = blocks(self.text(), fm.body_start);
        self.sections(&body, &meta, closing, fm.body_start);
        self.approval_order(&meta);
        self.allowlist(&meta);
        self.shell_fences(&body.fences);
        self.package_installation();
        self.host_paths(&body, meta.backend);
        self.file_name(meta.created.as_ref());
        request
    }
}

/// Regions of the body whose paths are read by the run.
#[derive(Default)]
struct BodyFacts {
    /// `## Command` (ERA) or `## Code` (Monty).
    program: Option<Span>,
    /// `## Inputs (JSON)`.
    program_data: Option<Span>,
    /// Inputs listed under `## Input Files`.
    inputs: Option<Vec<Declared>>,
}
