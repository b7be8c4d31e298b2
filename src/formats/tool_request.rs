//! `TR-*.md` tool execution requests (see `../shared/specs/tool-execution-request.txt`).
//!
//! A request is the human-approved artifact a sandboxed executor runs. The validator is the
//! gate in front of it, so everything here errs on the strict side: a request that could
//! reach the host, chain commands or leak a credential is rejected, with the exact
//! characters that make it so.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::agentcli::{MAX_PER_RULE, cap_per_rule, clean};
use super::fields::{Lowerer, MapRef, ShapeRules, as_int};
use super::{FileResult, Format, Item, syntax_diagnostics};
use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::fs::FileSystem;
use crate::ir::Lowering;
use crate::rules::{Severity, security as sec, syntax as syn, tool_request as rules};
use crate::source::FormatId;
use crate::source::{SourceFile, Span};
use crate::syntax::markdown::{FrontMatterError, Section, h2_sections, split_front_matter};
use crate::syntax::{Node, NodeKind, Number, json, yaml};
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

/// Languages that are a shell: a request must not hand the executor a shell script.
const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "ksh",
    "csh",
    "tcsh",
    "fish",
    "dash",
    "ash",
    "shell",
    "console",
    "shellsession",
    "shell-session",
    "powershell",
    "pwsh",
    "ps1",
    "posh",
    "cmd",
    "bat",
    "batch",
];

/// Pseudo-devices that give no access to anything: reading or writing them is harmless.
const HARMLESS_DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/random",
    "/dev/urandom",
];

/// The backend that runs a request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Backend {
    /// Runs one command line (the default when `backend` is missing).
    #[default]
    Era,
    /// Runs a Python snippet in the Monty interpreter.
    Monty,
}

impl Backend {
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

    fn other(self) -> Backend {
        match self {
            Backend::Era => Backend::Monty,
            Backend::Monty => Backend::Era,
        }
    }
}

/// A `request_id` and where it is written.
#[derive(Debug, Clone)]
pub struct RequestId {
    /// The id.
    pub value: String,
    /// The span of its value.
    pub span: Span,
}

/// A lowered request.
#[derive(Debug, Default)]
pub struct Request {
    /// `request_id`, when it is a non-empty string.
    pub request_id: Option<RequestId>,
    /// `backend` (ERA when missing or invalid).
    pub backend: Backend,
}

/// Parse, lower, validate and lint one request.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    let mut cx = Cx {
        file: &file,
        diags: Vec::new(),
        claimed: HashSet::new(),
    };
    let request = cx.check();
    let mut diagnostics = cx.diags;
    for d in &mut diagnostics {
        if d.notes.is_empty() && d.rule.severity == Severity::Error {
            d.notes.push(REJECTED.to_string());
        }
    }
    FileResult {
        companions: Vec::new(),
        diagnostics: cap_per_rule(diagnostics, MAX_PER_RULE),
        item: Item::new(request),
        file,
    }
}

/// `TR-*.md` tool execution requests (no tools of their own; ids are repository-wide).
pub struct ToolRequest;

impl Format for ToolRequest {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[(FormatId::ToolRequest, &["**/TR-*.md"])]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        let name = path.file_name()?.to_str()?;
        (name.starts_with("TR-") && name.ends_with(".md")).then_some(FormatId::ToolRequest)
    }

    fn load(&self, file: Arc<SourceFile>, _fs: &dyn FileSystem) -> FileResult {
        load(file)
    }

    fn resolve(&self, results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        resolve(results)
    }

    fn tool_count(&self, _r: &FileResult) -> usize {
        0
    }

    fn lower<'a>(
        &self,
        _results: &'a [FileResult],
        _takes: &dyn Fn(&FileResult) -> bool,
    ) -> Lowering<'a> {
        Lowering::default()
    }
}

/// Cross-file checks: a `request_id` must be unique across the repository.
pub fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    let mut ids: Vec<(&Arc<SourceFile>, &RequestId)> = results
        .iter()
        .filter_map(|r| {
            let req = r.item.get::<Request>()?;
            req.request_id.as_ref().map(|id| (&r.file, id))
        })
        .collect();
    ids.sort_by(|a, b| (&a.0.display, a.1.span.start).cmp(&(&b.0.display, b.1.span.start)));
    let mut first: HashMap<&str, (&Arc<SourceFile>, Span)> = HashMap::new();
    let mut out = Vec::new();
    for (file, id) in ids {
        match first.get(id.value.as_str()) {
            Some((first_file, first_span)) => out.push(
                Diagnostic::new(
                    &rules::DUPLICATE_REQUEST_ID,
                    file,
                    id.span,
                    format!("request id `{}` is already used by `{}`", id.value, first_file.display),
                )
                .label("duplicate request id")
                .related(first_file, *first_span, "first used here")
                .note("request ids are the audit trail's key: two requests with one id make approvals and results ambiguous, and the executor rejects the second")
                .help("give this request its own id (the file name's timestamp and slug make a good one)"),
            ),
            None => {
                first.insert(id.value.as_str(), (file, id.span));
            }
        }
    }
    out
}

/// A parsed ISO-8601 timestamp.
#[derive(Debug, Clone)]
struct Stamp {
    /// Seconds since the Unix epoch, UTC.
    secs: i64,
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
    diags: Vec<Diagnostic>,
    /// Paths (cleaned) already reported as a misplaced input or output: SEC011 does not
    /// repeat them wherever else they are mentioned.
    claimed: HashSet<String>,
}

/// A fenced code block of the body.
struct Fence {
    /// The info string's first word (`bash` in ```` ```bash ````), if any.
    info: Option<Span>,
    /// From the opening fence to the end of the closing fence (or of the file).
    span: Span,
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
                let d = front_matter_error(self.file, e);
                self.push(d);
                self.file_name(None);
                return request;
            }
        };
        let yaml_text = self.text().get(fm.yaml.start..fm.yaml.end).unwrap_or("");
        let parsed = yaml::parse(yaml_text, fm.yaml.start);
        self.diags.extend(syntax_diagnostics(self.file, &parsed));
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
        let fences = fences(self.text(), fm.body_start);
        let sections = body_sections(self.text(), fm.body_start, &fences);
        self.sections(&sections, &meta, closing, fm.body_start);
        self.approval_order(&meta);
        self.allowlist(&meta);
        self.shell_fences(&fences);
        self.package_installs();
        self.host_paths(&sections, meta.backend);
        self.secrets();
        self.file_name(meta.created.as_ref());
        request
    }

    // ── front matter ────────────────────────────────────────────────────────────────────

    fn front_matter(&mut self, root: &Node, open: Span, request: &mut Request) -> Meta {
        let mut meta = Meta::default();
        let mut lw = Lowerer::new(self.file, &SHAPE);
        let Some(map) = lw.as_map(root, open, "") else {
            self.diags.extend(lw.diags);
            return meta;
        };
        lw.unknown_keys(
            map,
            KEYS,
            "the spec defines no such key: the executor ignores it",
        );
        if let Some(e) = lw.required(map, "request_type") {
            lw.enum_value(&e.value, "request_type", &["tool_request"]);
        }
        if let Some(e) = lw.required(map, "schema_version") {
            schema_version(&mut lw, &e.value);
        }
        if let Some((id, span)) = lw.required_str(map, "request_id", 1, usize::MAX)
            && !id.trim().is_empty()
        {
            request.request_id = Some(RequestId {
                value: id.to_string(),
                span,
            });
        }
        meta.created = lw
            .required_str(map, "created_utc", 1, usize::MAX)
            .and_then(|(s, span)| timestamp(&mut lw, "created_utc", s, span));
        approval(&mut lw, map, "requested_by", "who asked for this run");
        approval(&mut lw, map, "approved_by", "the human who approved it");
        if approval(&mut lw, map, "approved_utc", "when it was approved")
            && let Some(v) = map.node.value("approved_utc")
            && let Some(s) = v.as_str()
        {
            meta.approved = timestamp(&mut lw, "approved_utc", s, v.span);
        }
        lw.required_str(map, "purpose", 1, usize::MAX);
        if let Some(b) = lw.optional_enum(map, "backend", &["ERA", "monty"]) {
            meta.backend = if b == "monty" {
                Backend::Monty
            } else {
                Backend::Era
            };
        }
        request.backend = meta.backend;
        if let Some((lang, span)) = lw.required_str(map, "language", 1, usize::MAX)
            && let Some(shell) = shell_name(lang)
        {
            let d = lw
                .diag(&rules::SHELL_LANGUAGE, span, format!("`language` is the shell `{shell}`"))
                .label("a shell")
                .note("the spec forbids shell as a request's language: a shell script can do anything the sandbox allows, unreviewed")
                .help("use the language of the program that runs (`python`, …) and write its single command under `## Command`");
            lw.push(d);
        }
        if let Some(e) = lw.required(map, "network")
            && let Some(n) = lw.enum_value(&e.value, "network", &["none", "allowlist"])
        {
            meta.network = Some((n.to_string(), e.value.span));
        }
        if let Some(e) = lw.required(map, "cpu_limit")
            && lw.str_value(&e.value, "cpu_limit", 1, usize::MAX).is_none()
            && matches!(e.value.kind, NodeKind::Number(_))
            && let Some(last) = lw.diags.last_mut()
        {
            let text = self.file.slice(e.value.span);
            last.help = Some(format!(
                "the spec types `cpu_limit` as a string: quote it, `cpu_limit: \"{text}\"`"
            ));
        }
        for key in ["memory_limit_mb", "time_limit_sec"] {
            if let Some(e) = lw.required(map, key) {
                positive_int(&mut lw, &e.value, key);
            }
        }
        if let Some(e) = map.node.get("inputs") {
            meta.inputs = Some(front_matter_inputs(&mut lw, &e.value, &mut self.claimed));
        }
        if let Some(e) = map.node.get("allowlist") {
            meta.allowlist = Some(lw.str_list(&e.value, "allowlist", true).len());
        }
        self.diags.extend(lw.diags);
        meta
    }

    fn approval_order(&mut self, meta: &Meta) {
        let (Some(created), Some(approved)) = (&meta.created, &meta.approved) else {
            return;
        };
        if approved.secs >= created.secs {
            return;
        }
        let d = self
            .diag(
                &rules::APPROVED_BEFORE_CREATED,
                approved.span,
                format!("`approved_utc` ({}) is before `created_utc` ({})", approved.text, created.text),
            )
            .label("approved before the request existed")
            .related(self.file, created.span, "created here")
            .note("an approval cannot precede the request it approves: one of the timestamps is wrong, or the approval belongs to another request")
            .help("check both timestamps; re-approve the request if it changed after approval");
        self.push(d);
    }

    fn allowlist(&mut self, meta: &Meta) {
        let Some((network, span)) = &meta.network else {
            return;
        };
        if network != "allowlist" || meta.allowlist.is_some_and(|n| n > 0) {
            return;
        }
        let d = self
            .diag(
                &rules::EMPTY_NETWORK_ALLOWLIST,
                *span,
                "`network: allowlist` but the request lists no allowed hosts",
            )
            .label("allowlist mode with nothing allowed")
            .note("with no entries the run has no network at all (or, on a lenient executor, more than intended): either way not what `allowlist` says")
            .help("list the hosts under `allowlist:` in the front matter, or write `network: none`");
        self.push(d);
    }

    // ── body sections ───────────────────────────────────────────────────────────────────

    fn sections(&mut self, sections: &[Section], meta: &Meta, closing: Span, body_start: usize) {
        let backend = meta.backend;
        let expected = backend.sections();
        let mut found: Vec<Option<&Section>> = vec![None; expected.len()];
        let mut near: Vec<Option<Span>> = vec![None; expected.len()];
        let mut strays: Vec<&Section> = Vec::new();
        let mut furthest: Option<(usize, &Section)> = None;
        for s in sections {
            let Some(i) = expected.iter().position(|(t, _)| *t == s.title) else {
                strays.push(s);
                continue;
            };
            if let Some(first) = found[i] {
                let d = self
                    .diag(
                        &rules::DUPLICATE_SECTION,
                        s.heading,
                        format!("`## {}` appears twice", s.title),
                    )
                    .label("second section with this title")
                    .related(self.file, first.heading, "first one here")
                    .help("merge the two sections into one");
                self.push(d);
                continue;
            }
            found[i] = Some(s);
            match furthest {
                Some((j, later)) if j > i => {
                    let d = self
                        .diag(
                            &rules::MISORDERED_SECTION,
                            s.heading,
                            format!("`## {}` must come before `## {}`", s.title, later.title),
                        )
                        .label("out of order")
                        .related(
                            self.file,
                            later.heading,
                            "this section comes later in the spec's order",
                        )
                        .help(format!("order the sections: {}", order_list(expected)));
                    self.push(d);
                }
                _ => furthest = Some((i, s)),
            }
        }
        // Judged once every wanted section is known, so a near miss of a section that does
        // exist is reported rather than taken for it.
        for s in strays {
            self.stray_section(s, backend, &found, &mut near);
        }
        for (i, (title, required)) in expected.iter().enumerate() {
            if found[i].is_some() || !required {
                continue;
            }
            let near = near[i].or_else(|| near_heading(self.text(), body_start, title));
            let d = match near {
                Some(span) => self
                    .diag(
                        &rules::MISSING_SECTION,
                        span,
                        format!("the body has no `## {title}` section"),
                    )
                    .label(format!("not read as `## {title}`"))
                    .help(format!("write the heading exactly `## {title}`")),
                None => self
                    .diag(
                        &rules::MISSING_SECTION,
                        closing,
                        format!("the body has no `## {title}` section"),
                    )
                    .label(format!("no `## {title}` after the front matter"))
                    .help(format!(
                        "add `## {title}`; a {} request needs {}",
                        backend.as_str(),
                        order_list(expected)
                    )),
            };
            self.push(d);
        }
        let mut body = BodyFacts::default();
        for (i, (title, _)) in expected.iter().enumerate() {
            let Some(s) = found[i] else { continue };
            if self
                .text()
                .get(s.content.start..s.content.end)
                .is_none_or(|c| c.trim().is_empty())
            {
                if *title == "Inputs (JSON)" {
                    let d = self
                        .diag(
                            &rules::INVALID_INPUTS_JSON,
                            s.heading,
                            "the `## Inputs (JSON)` section holds no JSON",
                        )
                        .label("empty section")
                        .help("write the inputs as a JSON object, or remove the section");
                    self.push(d);
                } else {
                    let hint = if *title == "Input Files" {
                        "list each input with its `/in/...` location and sha256 hash, or write `None`"
                    } else {
                        "fill it in as the spec describes"
                    };
                    let d = self
                        .diag(
                            &rules::MISSING_SECTION,
                            s.heading,
                            format!("the `## {title}` section is empty"),
                        )
                        .label("nothing under this heading")
                        .help(hint);
                    self.push(d);
                }
                continue;
            }
            match *title {
                "Command" => {
                    body.program = Some(s.content);
                    self.command(s);
                }
                "Code" => body.program = Some(s.content),
                "Inputs (JSON)" => {
                    body.program_data = Some(s.content);
                    self.inputs_json(s);
                }
                "Input Files" => body.inputs = Some(self.input_files(s)),
                "Output Expectations" => self.outputs(s),
                "Risk Assessment" => self.risk(s, meta),
                _ => {}
            }
        }
        self.inputs_agree(meta, &body);
    }

    /// A `##` section the backend does not read: a near miss of a wanted title (kept in
    /// `near` when that title is missing, so TRQ007 can point at it), a section of the other
    /// backend, or something else (TRQ010).
    fn stray_section(
        &mut self,
        s: &Section,
        backend: Backend,
        found: &[Option<&Section>],
        near: &mut [Option<Span>],
    ) {
        let expected = backend.sections();
        let other = backend.other();
        let of_other = other.sections().iter().any(|(t, _)| *t == s.title);
        let close = (!of_other)
            .then(|| {
                expected.iter().position(|(t, _)| {
                    t.eq_ignore_ascii_case(&s.title) || did_you_mean(&s.title, [*t]).is_some()
                })
            })
            .flatten();
        let d = match close {
            Some(i) if expected[i].1 && found[i].is_none() && near[i].is_none() => {
                near[i] = Some(s.heading);
                return;
            }
            Some(i) => {
                let title = expected[i].0;
                let already = if found[i].is_some() {
                    " (the request already has one)"
                } else {
                    ""
                };
                self.diag(
                    &rules::UNEXPECTED_SECTION,
                    s.heading,
                    format!(
                        "`## {}` is not a section of {} requests",
                        s.title,
                        backend.as_str()
                    ),
                )
                .label(format!("not read as `## {title}`"))
                .note("the executor ignores it, and a reviewer may take it for part of what runs")
                .help(format!("did you mean `## {title}`?{already}"))
            }
            None if of_other => self
                .diag(
                    &rules::UNEXPECTED_SECTION,
                    s.heading,
                    format!(
                        "`## {}` is a section of {} requests, but this request's backend is `{}`",
                        s.title,
                        other.as_str(),
                        backend.as_str()
                    ),
                )
                .label(format!("not read by the {} backend", backend.as_str()))
                .note("the executor ignores it: what it says does not run")
                .help(format!(
                    "set `backend: {}` if this is a {} request, or remove the section",
                    other.as_str(),
                    other.as_str()
                )),
            None => self
                .diag(
                    &rules::UNEXPECTED_SECTION,
                    s.heading,
                    format!(
                        "`## {}` is not a section of {} requests",
                        s.title,
                        backend.as_str()
                    ),
                )
                .label("unknown section")
                .note("the executor ignores it, and a reviewer may take it for part of what runs")
                .help(format!(
                    "the sections are {}; use `###` for sub-headings",
                    order_list(expected)
                )),
        };
        self.push(d);
    }

    /// TRQ012–TRQ014 and SEC012 on the ERA command line.
    fn command(&mut self, s: &Section) {
        let mut lines = Vec::new();
        let mut in_fence = false;
        for (span, line) in lines_in(self.text(), s.content) {
            let trimmed = line.trim();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                if !in_fence {
                    let d = self
                        .diag(&rules::INVALID_COMMAND, span, "the command must be plain text, not a code block")
                        .label("code fence")
                        .note("the spec wants the command as one line of plain text; the validator rejects a fenced block")
                        .help("remove the ``` lines and keep the command on one line");
                    self.push(d);
                }
                in_fence = !in_fence;
                continue;
            }
            if !trimmed.is_empty() {
                let lead = line.len() - line.trim_start().len();
                lines.push(span.sub(lead, lead + trimmed.len()));
            }
        }
        if lines.len() > 1 {
            let d = self
                .diag(&rules::INVALID_COMMAND, lines[1], format!("the command must be a single line, found {} lines", lines.len()))
                .label("a second command line")
                .related(self.file, lines[0], "the first line")
                .note("one request runs one command: more lines are more commands, which the spec rejects")
                .help("split the work into one request per command");
            self.push(d);
        }
        for line in &lines {
            let text = self.file.slice(*line).to_string();
            for op in shell_operators(&text) {
                let span = line.sub(op.start, op.end);
                let d = self
                    .diag(
                        &rules::SHELL_OPERATOR_IN_COMMAND,
                        span,
                        format!("the command uses `{}` ({})", op.text, op.kind.what()),
                    )
                    .label(op.kind.label())
                    .note("the spec rejects command chaining, pipelines, redirection, heredocs and substitution: the command must be one program and its arguments")
                    .help(op.kind.help());
                self.push(d);
            }
            if let Some((start, word)) = first_word(&text)
                && let Some(shell) = shell_name(program_name(word))
            {
                let d = self
                    .diag(&rules::SHELL_LANGUAGE, line.sub(start, start + word.len()), format!("the command runs the shell `{shell}`"))
                    .label("a shell")
                    .note("a shell as the program turns the single command into a script the validator cannot check")
                    .help("run the program itself, with its arguments, without a shell");
                self.push(d);
            }
            for (start, word) in words(&text) {
                let lower = word.to_ascii_lowercase();
                if matches!(
                    lower.as_str(),
                    "sudo" | "doas" | "su" | "pkexec" | "nsenter" | "chroot" | "unshare"
                ) {
                    let d = self
                        .diag(&sec::PRIVILEGED_ACCESS, line.sub(start, start + word.len()), format!("the command asks for privileges with `{word}`"))
                        .label("privilege escalation")
                        .note("the sandbox runs requests unprivileged; a request that needs root is asking to leave it")
                        .help("run the program without privileges; if it needs more, it is not a sandboxed request");
                    self.push(d);
                }
            }
        }
    }

    fn inputs_json(&mut self, s: &Section) {
        // A ```json fence around the document is fine: parse what is inside it.
        let mut content = s.content;
        let raw = self.file.slice(content);
        let trimmed_start = raw.len() - raw.trim_start().len();
        if raw.trim_start().starts_with("```") || raw.trim_start().starts_with("~~~") {
            let after_open = raw[trimmed_start..]
                .find('\n')
                .map_or(raw.len(), |i| trimmed_start + i + 1);
            let close = raw[after_open..]
                .match_indices('\n')
                .map(|(i, _)| after_open + i + 1)
                .chain(std::iter::once(after_open))
                .find(|&i| {
                    let l = raw[i..].trim_start_matches([' ']);
                    l.starts_with("```") || l.starts_with("~~~")
                })
                .unwrap_or(raw.len());
            content = Span::new(
                content.start + after_open,
                content.start + close.max(after_open),
            );
        }
        let slice = self.file.slice(content);
        if slice.trim().is_empty() {
            let d = self
                .diag(
                    &rules::INVALID_INPUTS_JSON,
                    s.heading,
                    "the `## Inputs (JSON)` section holds no JSON",
                )
                .label("empty section")
                .help("write the inputs as a JSON object, or remove the section");
            self.push(d);
            return;
        }
        let parsed = json::parse(slice, content.start);
        for e in parsed.errors {
            let d = self
                .diag(&rules::INVALID_INPUTS_JSON, e.span, format!("`## Inputs (JSON)` is not valid JSON: {}", e.message))
                .label("invalid JSON")
                .note("Monty receives these inputs as JSON: the validator rejects a request whose inputs do not parse")
                .help("fix the JSON (strict JSON: double quotes, no comments, no trailing commas)");
            self.push(d);
        }
    }

    /// TRQ016/TRQ017 on the `## Input Files` list; the inputs it declares.
    fn input_files(&mut self, s: &Section) -> Vec<Declared> {
        let mut out = Vec::new();
        let tokens = path_tokens(self.text(), s.content);
        for item in list_items(self.text(), s.content) {
            let text = self.file.slice(item).to_string();
            let lower = text.trim().to_ascii_lowercase();
            if lower.starts_with("none") || lower.starts_with("no ") || lower.starts_with("n/a") {
                continue;
            }
            // Items and tokens are both in file order.
            let first = tokens.partition_point(|t| t.span.start < item.start);
            let in_item: Vec<&PathTok> = tokens[first..]
                .iter()
                .take_while(|t| t.span.start < item.end)
                .filter(|t| t.span.end <= item.end)
                .collect();
            let reported = self.diags.len();
            let hash = self.hash_in(item, &text);
            let bad_hash = self.diags.len() > reported;
            let chosen = in_item
                .iter()
                .find(|t| t.kind == PathKind::Absolute && t.text.starts_with("/in/"))
                .or_else(|| in_item.iter().find(|t| t.kind == PathKind::Absolute));
            let Some(tok) = chosen else {
                let d = self
                    .diag(
                        &rules::INPUT_OUTSIDE_IN,
                        item,
                        "this input names no `/in/...` location",
                    )
                    .label("no `/in/` path")
                    .help("write where the file is mounted, e.g. `- /in/input.csv (sha256: …)`");
                self.push(d);
                continue;
            };
            self.claimed.insert(clean(&tok.text));
            if sandbox_dir(&tok.text) != Some("/in") {
                let cleaned = clean(&tok.text);
                let why = if tok.text.starts_with("/in/") {
                    format!(
                        "input `{}` leaves `/in/` once `..` is resolved (`{cleaned}`)",
                        tok.text
                    )
                } else {
                    format!("input `{}` is not under `/in/`", tok.text)
                };
                let d = self
                    .diag(&rules::INPUT_OUTSIDE_IN, tok.span, why)
                    .label("outside /in/")
                    .note("the executor mounts inputs read-only under `/in/` and nothing else: any other path is the host's")
                    .help(format!("mount it as `/in/{}`", base_name(&tok.text)));
                self.push(d);
                continue;
            }
            out.push(Declared {
                path: clean(&tok.text),
                span: tok.span,
                hash,
                bad_hash,
            });
        }
        out
    }

    /// The sha256 of a list item, reporting a malformed one (TRQ016).
    fn hash_in(&mut self, item: Span, text: &str) -> Option<(String, Span)> {
        let lower = text.to_ascii_lowercase();
        if let Some(at) = lower.find("sha256") {
            let rest = &text[at + 6..];
            let skip = rest.len()
                - rest
                    .trim_start_matches([':', '=', ' ', '\t', '`', '*'])
                    .len();
            let value = &rest[skip..];
            let len = value
                .find(|c: char| c.is_whitespace() || matches!(c, '`' | ')' | ',' | ';' | '*' | ']'))
                .unwrap_or(value.len());
            let token = &value[..len];
            let start = at + 6 + skip;
            let span = item.sub(start, start + len);
            if is_sha256(token) {
                return Some((token.to_ascii_lowercase(), span));
            }
            if !token.is_empty() {
                self.bad_hash(span, token);
                return None;
            }
        }
        for (start, end) in hex_runs(text) {
            let run = &text[start..end];
            if run.len() == 64 {
                return Some((run.to_ascii_lowercase(), item.sub(start, end)));
            }
            if run.len() >= 32 {
                self.bad_hash(item.sub(start, end), run);
                return None;
            }
        }
        None
    }

    fn bad_hash(&mut self, span: Span, token: &str) {
        let shown: String = token.chars().take(24).collect();
        let more = if token.chars().count() > 24 {
            "…"
        } else {
            ""
        };
        let d = self
            .diag(
                &rules::INPUT_WITHOUT_HASH,
                span,
                format!("`{shown}{more}` is not a sha256 hash (64 hex digits, found {} characters)", token.chars().count()),
            )
            .label("not a sha256")
            .note("the approval gate requires a sha256 for every input, so the executor can check it runs on the approved bytes")
            .help("write the file's `sha256sum` (64 hex digits)");
        self.push(d);
    }

    /// TRQ016/TRQ019: inputs are hashed, and the two declarations agree.
    fn inputs_agree(&mut self, meta: &Meta, body: &BodyFacts) {
        let listed = body.inputs.as_deref().unwrap_or_default();
        let front = meta.inputs.as_deref();
        let listed_paths: HashSet<&str> = listed.iter().map(|b| b.path.as_str()).collect();
        if let (Some(front), Some(_)) = (front, &body.inputs) {
            let by_path: HashMap<&str, &Declared> =
                front.iter().rev().map(|f| (f.path.as_str(), f)).collect();
            for b in listed {
                match by_path.get(b.path.as_str()) {
                    None => {
                        let d = self
                            .diag(&rules::INPUTS_DISAGREE, b.span, format!("`{}` is listed under `## Input Files` but not in the front-matter `inputs`", b.path))
                            .label("missing from `inputs`")
                            .note("the two declarations must agree: the executor cannot tell which one the approver saw")
                            .help(format!("add `- path: {}` with its `sha256` to `inputs`, or remove it here", b.path));
                        self.push(d);
                    }
                    Some(f) => {
                        if let (Some((bh, bspan)), Some((fh, fspan))) = (&b.hash, &f.hash)
                            && bh != fh
                        {
                            let d = self
                                .diag(&rules::INPUTS_DISAGREE, *bspan, format!("the hash of `{}` differs from the one in the front-matter `inputs`", b.path))
                                .label("this hash")
                                .related(self.file, *fspan, "the front matter says this")
                                .note("one of them is not the approved file: the executor rejects the request")
                                .help("recompute the sha256 and write the same value in both places");
                            self.push(d);
                        }
                    }
                }
            }
            for f in front {
                if !listed_paths.contains(f.path.as_str()) {
                    let d = self
                        .diag(&rules::INPUTS_DISAGREE, f.span, format!("`{}` is in the front-matter `inputs` but not listed under `## Input Files`", f.path))
                        .label("missing from `## Input Files`")
                        .note("the two declarations must agree: the executor cannot tell which one the approver saw")
                        .help(format!("list `{}` under `## Input Files`, or remove it from `inputs`", f.path));
                    self.push(d);
                }
            }
        }
        for b in listed {
            // With `inputs` in the front matter, a missing or bad hash there, or a path missing
            // from it, is already reported.
            if b.hash.is_none() && !b.bad_hash && front.is_none() {
                let d = self
                    .diag(&rules::INPUT_WITHOUT_HASH, b.span, format!("input `{}` has no sha256 hash", b.path))
                    .label("no hash")
                    .note("the approval gate requires a hash for every declared input: without one the executor cannot check it runs on the approved file")
                    .help(format!("add the hash: `- {} (sha256: <64 hex digits>)`", b.path));
                self.push(d);
            }
        }
        // Inputs the program reads without declaring them have no hash either.
        let declared: HashSet<&str> = listed
            .iter()
            .chain(front.unwrap_or_default())
            .map(|d| d.path.as_str())
            .collect();
        for region in [body.program, body.program_data].into_iter().flatten() {
            for tok in path_tokens(self.text(), region) {
                if tok.kind != PathKind::Absolute || sandbox_dir(&tok.text) != Some("/in") {
                    continue;
                }
                let path = clean(&tok.text);
                // A file inside a declared folder is declared with it.
                let covered = path
                    .match_indices('/')
                    .map(|(at, _)| &path[..at])
                    .chain(std::iter::once(path.as_str()))
                    .any(|prefix| declared.contains(prefix));
                if path == "/in" || covered {
                    continue;
                }
                let d = self
                    .diag(&rules::INPUT_WITHOUT_HASH, tok.span, format!("`{path}` is read by the request but not declared as an input with a hash"))
                    .label("undeclared input")
                    .note("the approval gate requires a hash for every input: the executor cannot check this file")
                    .help(format!("list `{path}` under `## Input Files` with its sha256"));
                self.push(d);
            }
        }
    }

    /// TRQ018: outputs only under `/out/`.
    fn outputs(&mut self, s: &Section) {
        let mut any_out = false;
        for tok in path_tokens(self.text(), s.content) {
            if tok.kind != PathKind::Absolute {
                continue;
            }
            if sandbox_dir(&tok.text) == Some("/out") {
                any_out = true;
                continue;
            }
            self.claimed.insert(clean(&tok.text));
            let why = if tok.text.starts_with("/out/") {
                format!(
                    "output `{}` leaves `/out/` once `..` is resolved (`{}`)",
                    tok.text,
                    clean(&tok.text)
                )
            } else {
                format!("output `{}` is not under `/out/`", tok.text)
            };
            let d = self
                .diag(&rules::OUTPUT_OUTSIDE_OUT, tok.span, why)
                .label("outside /out/")
                .note("the executor collects results from `/out/` only: anything written elsewhere is lost, or lands on the host")
                .help(format!("write it to `/out/{}`", base_name(&tok.text)));
            self.push(d);
        }
        for item in list_items(self.text(), s.content) {
            let text = self.file.slice(item).to_string();
            for (start, word) in words(&text) {
                let w = word.trim_matches(|c: char| {
                    matches!(c, '`' | '"' | '\'' | '*' | '(' | ')' | ',' | ':' | ';')
                });
                let w = w.trim_end_matches(['.', ',', ':', ';']);
                let offset = start + word.find(w).unwrap_or(0);
                let last = w.rsplit('/').next().unwrap_or("");
                let relative_file = !w.starts_with(['/', '~', '.', '$'])
                    && w.contains('/')
                    && !w.contains("://")
                    && last.contains('.')
                    && w.chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'));
                if relative_file {
                    let d = self
                        .diag(&rules::OUTPUT_OUTSIDE_OUT, item.sub(offset, offset + w.len()), format!("output `{w}` is a relative path, not under `/out/`"))
                        .label("relative output path")
                        .note("the executor collects results from `/out/` only: a relative path is written inside the working folder and lost")
                        .help(format!("write it to `/out/{w}`"));
                    self.push(d);
                }
            }
        }
        if !any_out {
            let d = self
                .diag(&rules::OUTPUT_OUTSIDE_OUT, s.heading, "`## Output Expectations` lists no output under `/out/`")
                .label("no `/out/...` path in this section")
                .note("the executor collects results from `/out/` only: a request that names no output there produces nothing reviewable")
                .help("list each output file with its path, e.g. `- /out/result.json`");
            self.push(d);
        }
    }

    /// TRQ020: the four lines of the risk assessment.
    fn risk(&mut self, s: &Section, meta: &Meta) {
        let fields = risk_fields(self.text(), s.content);
        let get = |label: &str| fields.iter().find(|f| f.label == label);
        let checks: [(&str, Option<&[&str]>); 4] = [
            ("risk level", Some(&["low", "medium", "high"])),
            ("justification", None),
            (
                "data sensitivity",
                Some(&["public", "internal", "confidential"]),
            ),
            ("network rationale", None),
        ];
        for (label, allowed) in checks {
            let title = title_case(label);
            let Some(f) = get(label) else {
                let d = self
                    .diag(
                        &rules::INCOMPLETE_RISK_ASSESSMENT,
                        s.heading,
                        format!("the risk assessment has no `{title}:` line"),
                    )
                    .label(format!("no `{title}:` in this section"))
                    .help(match allowed {
                        Some(values) => format!("add `{title}: {}`", values.join("|")),
                        None => format!("add `{title}: <short text>`"),
                    });
                self.push(d);
                continue;
            };
            let value = self.file.slice(f.value).to_string();
            match allowed {
                Some(values) => {
                    let word = value
                        .split(|c: char| {
                            c.is_whitespace() || matches!(c, '(' | ',' | '.' | ';' | '—' | '-')
                        })
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    if value.contains('|') || !values.contains(&word.as_str()) {
                        let shown = if value.is_empty() {
                            "nothing".to_string()
                        } else {
                            format!("`{value}`")
                        };
                        let hint = did_you_mean(&word, values.iter().copied());
                        let span = if f.value.is_empty() { f.line } else { f.value };
                        let d = self
                            .diag(
                                &rules::INCOMPLETE_RISK_ASSESSMENT,
                                span,
                                format!(
                                    "`{title}` must be one of {}, found {shown}",
                                    values
                                        .iter()
                                        .map(|v| format!("`{v}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            )
                            .label("not an allowed value")
                            .help(match hint {
                                Some(h) => format!("did you mean `{h}`?"),
                                None => format!("choose one: `{title}: {}`", values.join("`, `")),
                            });
                        self.push(d);
                    }
                }
                None if label == "network rationale" => {
                    let needs_reason = meta.network.as_ref().is_some_and(|(n, _)| n == "allowlist");
                    let lower = value.trim().trim_end_matches('.').to_ascii_lowercase();
                    let says_nothing = lower.is_empty()
                        || matches!(
                            lower.as_str(),
                            "none"
                                | "n/a"
                                | "na"
                                | "-"
                                | "no"
                                | "not needed"
                                | "none needed"
                                | "tbd"
                                | "todo"
                        );
                    if needs_reason && says_nothing {
                        let span = if f.value.is_empty() { f.line } else { f.value };
                        let mut d = self
                            .diag(&rules::INCOMPLETE_RISK_ASSESSMENT, span, "`Network rationale` must say why network access is needed (`network: allowlist`)")
                            .label("no reason given")
                            .help("say which hosts the run reaches and why, or set `network: none`");
                        if let Some((_, nspan)) = &meta.network {
                            d = d.related(self.file, *nspan, "network access requested here");
                        }
                        self.push(d);
                    }
                }
                None => {
                    if value.trim().is_empty() {
                        let d = self
                            .diag(
                                &rules::INCOMPLETE_RISK_ASSESSMENT,
                                f.line,
                                format!("`{title}:` is empty"),
                            )
                            .label("no text after the colon")
                            .help(format!(
                                "say in a sentence why this run is safe: `{title}: …`"
                            ));
                        self.push(d);
                    }
                }
            }
        }
    }

    // ── forbidden content, anywhere in the request ──────────────────────────────────────

    /// TRQ014: code blocks in a shell language.
    fn shell_fences(&mut self, fences: &[Fence]) {
        for f in fences {
            let Some(info) = f.info else { continue };
            let word = self.file.slice(info).to_string();
            if let Some(shell) = shell_name(&word) {
                let d = self
                    .diag(&rules::SHELL_LANGUAGE, info, format!("a `{shell}` code block: the request carries a shell script"))
                    .label("shell code block")
                    .note("the spec forbids shell as a request's language; a script is many commands the validator cannot check one by one")
                    .help("express the work as one command (ERA) or as Python code (Monty)");
                self.push(d);
            }
        }
    }

    /// TRQ015: package installation.
    fn package_installs(&mut self) {
        let start = self.file.bom_len;
        let text = self.text();
        for (line, s) in lines_in(text, Span::new(start, text.len())) {
            for (from, to, what) in package_install(s) {
                let d = self
                    .diag(&rules::PACKAGE_INSTALLATION, line.sub(from, to), format!("the request installs packages (`{what}`)"))
                    .label("package installation")
                    .note("the spec forbids installing packages: what runs must be fixed when it is approved, not fetched at run time")
                    .help("use an executor image that already has the dependency, or pass the code in as a hashed input");
                self.push(d);
            }
        }
    }

    /// SEC011/SEC012: host paths and devices.
    fn host_paths(&mut self, sections: &[Section], backend: Backend) {
        let start = self.file.bom_len;
        let text = self.text();
        for tok in path_tokens(text, Span::new(start, text.len())) {
            if self.claimed.contains(&clean(&tok.text)) {
                continue;
            }
            let d = match tok.kind {
                PathKind::Absolute => {
                    if sandbox_dir(&tok.text).is_some() {
                        continue;
                    }
                    let cleaned = clean(&tok.text);
                    if HARMLESS_DEVICES.contains(&cleaned.as_str()) {
                        continue;
                    }
                    if cleaned == "/dev" || cleaned.starts_with("/dev/") {
                        self.diag(&sec::PRIVILEGED_ACCESS, tok.span, format!("`{}` is a host device", tok.text))
                            .label("device access")
                            .note("devices give direct access to the host's hardware or kernel; the sandbox must not expose them")
                            .help("read the data from a file mounted under `/in/` instead")
                    } else {
                        let why = if tok.text.starts_with("/in/") || tok.text.starts_with("/out/") {
                            format!("`{}` leaves the sandbox folders once `..` is resolved (`{cleaned}`)", tok.text)
                        } else {
                            format!("`{}` is a host path: a request may only name `/in/…`, `/out/…` and relative paths", tok.text)
                        };
                        let mut d = self
                            .diag(&sec::HOST_PATH_ACCESS, tok.span, why)
                            .label("host path");
                        d = if cleaned.ends_with("docker.sock") {
                            d.note("the Docker socket gives full control of the host")
                        } else {
                            d.note("anything outside `/in/` and `/out/` belongs to the host or the executor image: the spec rejects attempts to reach it")
                        };
                        d.help("mount what the run needs under `/in/` and write results to `/out/`")
                    }
                }
                PathKind::Home => self
                    .diag(&sec::HOST_PATH_ACCESS, tok.span, format!("`{}` names a home directory", tok.text))
                    .label("host home directory")
                    .note("home directories hold the operator's keys and configuration: the spec rejects attempts to reach host paths")
                    .help("mount what the run needs under `/in/`"),
                PathKind::Parent => self
                    .diag(&sec::HOST_PATH_ACCESS, tok.span, format!("`{}` climbs out of the working folder", tok.text))
                    .label("path traversal")
                    .note("a relative path with `..` reaches outside the sandbox's folders: the spec rejects attempts to reach host paths")
                    .help("use `/in/…` for inputs and `/out/…` for outputs"),
            };
            self.push(d);
        }
        // Privilege flags are never prose, so they count anywhere; `sudo` and friends only in
        // what runs (ERA's command line is checked in `command`).
        let program = sections
            .iter()
            .find(|s| {
                s.title
                    == if backend == Backend::Era {
                        "Command"
                    } else {
                        "Code"
                    }
            })
            .map(|s| s.content);
        for (line, s) in lines_in(text, Span::new(start, text.len())) {
            for (at, word) in words(s) {
                let w =
                    word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | ',' | '[' | ']'));
                let flag = w.split('=').next().unwrap_or(w);
                let privileged = matches!(
                    flag,
                    "--privileged" | "--device" | "--cap-add" | "--security-opt"
                ) || matches!(
                    w,
                    "--pid=host" | "--ipc=host" | "--userns=host" | "--uts=host"
                ) || w.eq_ignore_ascii_case("CAP_SYS_ADMIN");
                if !privileged {
                    continue;
                }
                let offset = at + word.find(w).unwrap_or(0);
                let span = line.sub(offset, offset + w.len());
                let d = self
                    .diag(&sec::PRIVILEGED_ACCESS, span, format!("`{w}` asks for privileged access"))
                    .label("privileged")
                    .note("privileged containers, extra capabilities and devices let a run reach the host kernel")
                    .help("remove it: a sandboxed request runs unprivileged");
                self.push(d);
            }
        }
        if backend == Backend::Monty
            && let Some(code) = program
        {
            for (line, s) in lines_in(text, code) {
                for (at, word) in words(s) {
                    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
                    if matches!(w, "sudo" | "doas" | "pkexec" | "nsenter") {
                        let offset = at + word.find(w).unwrap_or(0);
                        let d = self
                            .diag(&sec::PRIVILEGED_ACCESS, line.sub(offset, offset + w.len()), format!("the code asks for privileges with `{w}`"))
                            .label("privilege escalation")
                            .note("the sandbox runs requests unprivileged; a request that needs root is asking to leave it")
                            .help("remove it: a sandboxed request runs unprivileged");
                        self.push(d);
                    }
                }
            }
        }
    }

    /// SEC013: credentials written into the request.
    fn secrets(&mut self) {
        let start = self.file.bom_len;
        let text = self.text();
        for (line, s) in lines_in(text, Span::new(start, text.len())) {
            for hit in find_secrets(s) {
                let span = line.sub(hit.start, hit.end);
                let d = self
                    .diag(&sec::EMBEDDED_SECRET, span, hit.message)
                    .label("credential")
                    .note("a request is an audit artifact that many people and systems read: a credential in it is leaked, and the run could use it to reach outside the sandbox")
                    .help("remove it and revoke it; a run that needs a credential is not a sandboxed request");
                self.push(d);
            }
        }
    }

    // ── file name ───────────────────────────────────────────────────────────────────────

    fn file_name(&mut self, created: Option<&Stamp>) {
        let name = self
            .file
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let at = Span::point(self.file.bom_len);
        let Some(stamp) = file_name_stamp(&name) else {
            let d = self
                .diag(&rules::NONSTANDARD_FILE_NAME, at, format!("file name `{name}` does not follow `TR-YYYYMMDD-HHMMSSZ-<slug>.md`"))
                .label("file name")
                .note("the spec recommends the creation time and a slug in the name, so requests sort by time and can be found by what they do")
                .maybe_help(created.and_then(|c| suggested_name(c.secs, &name)).map(|n| format!("rename it to `{n}`")));
            self.push(d);
            return;
        };
        let Some(created) = created else { return };
        if created.secs == stamp {
            return;
        }
        let d = self
            .diag(
                &rules::FILE_NAME_TIMESTAMP_MISMATCH,
                created.span,
                format!("`created_utc` ({}) is not the time in the file name ({})", created.text, format_stamp(stamp)),
            )
            .label("differs from the file name")
            .note("the file name's timestamp is meant to be the creation time: a mismatch suggests a copied or edited request")
            .maybe_help(suggested_name(created.secs, &name).map(|n| format!("rename the file to `{n}`, or fix `created_utc`")));
        self.push(d);
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

// ── front-matter helpers ────────────────────────────────────────────────────────────────

fn schema_version(lw: &mut Lowerer<'_>, v: &Node) {
    let ok = match &v.kind {
        NodeKind::Number(Number::Int(1)) => true,
        NodeKind::String(s) => s == "1",
        NodeKind::Number(_) => false,
        _ => {
            lw.wrong_type(v, "schema_version", "the string `\"1\"`");
            return;
        }
    };
    if ok {
        return;
    }
    let d = lw
        .diag(&rules::INVALID_FIELD_VALUE, v.span, format!("`schema_version` must be `1`, found `{}`", lw.file.slice(v.span)))
        .label("unknown schema version")
        .note("this is schema version 1; the spec requires a version bump for any schema change, so another version is a format toolc and the validator do not know")
        .help("write `schema_version: \"1\"`");
    lw.push(d);
}

/// An approval-gate key: present and non-empty. Returns whether it is.
fn approval(lw: &mut Lowerer<'_>, map: MapRef<'_>, key: &str, what: &str) -> bool {
    let entry = map.node.get(key);
    let (span, problem) = match entry.map(|e| (e, &e.value.kind)) {
        None => (map.anchor, "is missing"),
        Some((e, NodeKind::Null)) => (e.key_span, "has no value"),
        Some((e, NodeKind::String(s))) if s.trim().is_empty() => (e.value.span, "is empty"),
        Some((_, NodeKind::String(_))) => return true,
        Some((e, _)) => {
            lw.wrong_type(&e.value, key, "a string");
            return false;
        }
    };
    let d = lw
        .diag(&rules::APPROVAL_MISSING, span, format!("`{key}` {problem}"))
        .label(format!("`{key}` must say {what}"))
        .note("the approval gate: a request is only valid once `requested_by` is present and `approved_by`/`approved_utc` are filled in by the approving human")
        .help(if key == "approved_utc" {
            "have the approver add `approved_utc: <ISO-8601 time>` when approving".to_string()
        } else {
            format!("fill in `{key}`")
        });
    lw.push(d);
    false
}

fn timestamp(lw: &mut Lowerer<'_>, key: &str, s: &str, span: Span) -> Option<Stamp> {
    match parse_timestamp(s.trim()) {
        Ok(secs) => Some(Stamp {
            secs,
            span,
            text: s.trim().to_string(),
        }),
        Err(why) => {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_VALUE,
                    span,
                    format!("`{key}` is not an ISO-8601 timestamp: {why}"),
                )
                .label("not ISO-8601")
                .help(format!("write it like `{key}: 2025-01-31T14:05:00Z`"));
            lw.push(d);
            None
        }
    }
}

fn positive_int(lw: &mut Lowerer<'_>, v: &Node, key: &str) {
    if let Some(n) = as_int(v) {
        if n <= 0 {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_VALUE,
                    v.span,
                    format!("`{key}` must be a positive integer, found `{n}`"),
                )
                .label("not positive")
                .help(format!("set `{key}` to the limit the run needs"));
            lw.push(d);
        }
        return;
    }
    lw.wrong_type(v, key, "an integer");
    if let Some(s) = v.as_str()
        && let Ok(n) = s.trim().parse::<i64>()
        && let Some(last) = lw.diags.last_mut()
    {
        last.help = Some(format!("write it without quotes: `{key}: {n}`"));
    }
}

fn front_matter_inputs(
    lw: &mut Lowerer<'_>,
    v: &Node,
    claimed: &mut HashSet<String>,
) -> Vec<Declared> {
    let Some(items) = v.as_seq() else {
        lw.wrong_type(v, "inputs", "a list of `{path, sha256}` entries");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("inputs[{i}]");
        let Some(map) = lw.as_map(item, item.span, &path) else {
            continue;
        };
        lw.unknown_keys(
            map,
            &["path", "sha256"],
            "the spec defines no such key: the executor ignores it",
        );
        let Some((p, span)) = lw.required_str(map, "path", 1, usize::MAX) else {
            continue;
        };
        let hash = match map.node.get("sha256") {
            None => {
                let d = lw
                    .diag(&rules::INPUT_WITHOUT_HASH, span, format!("input `{p}` has no `sha256`"))
                    .label("no hash")
                    .note("the approval gate requires a hash for every declared input: without one the executor cannot check it runs on the approved file")
                    .help("add `sha256: <64 hex digits>` to this entry");
                lw.push(d);
                None
            }
            Some(e) => match e.value.as_str() {
                Some(h) if is_sha256(h) => Some((h.to_ascii_lowercase(), e.value.span)),
                Some(h) => {
                    let d = lw
                        .diag(&rules::INPUT_WITHOUT_HASH, e.value.span, format!("`{}` is not a sha256 hash (64 hex digits, found {} characters)", h.chars().take(24).collect::<String>(), h.chars().count()))
                        .label("not a sha256")
                        .note("the approval gate requires a sha256 for every input, so the executor can check it runs on the approved bytes")
                        .help("write the file's `sha256sum` (64 hex digits)");
                    lw.push(d);
                    None
                }
                None => {
                    lw.wrong_type(
                        &e.value,
                        &format!("{path}.sha256"),
                        "a string of 64 hex digits",
                    );
                    None
                }
            },
        };
        if sandbox_dir(p) != Some("/in") {
            claimed.insert(clean(p));
            let d = lw
                .diag(&rules::INPUT_OUTSIDE_IN, span, format!("input `{p}` is not under `/in/`"))
                .label("outside /in/")
                .note("the executor mounts inputs read-only under `/in/` and nothing else: any other path is the host's")
                .help(format!("mount it as `/in/{}`", base_name(p)));
            lw.push(d);
            continue;
        }
        out.push(Declared {
            path: clean(p),
            span,
            bad_hash: hash.is_none(),
            hash,
        });
    }
    out
}

fn front_matter_error(file: &Arc<SourceFile>, e: FrontMatterError) -> Diagnostic {
    match e {
        FrontMatterError::Missing { first_line } => Diagnostic::new(
            &syn::MISSING_FRONT_MATTER,
            file,
            first_line,
            "a tool execution request must start with a `---` front-matter line",
        )
        .label("expected `---`")
        .note(REJECTED)
        .help("put the request's keys (`request_type: tool_request`, `schema_version`, `request_id`, …) between two `---` lines at the top"),
        FrontMatterError::Unclosed { open } => Diagnostic::new(
            &syn::UNCLOSED_FRONT_MATTER,
            file,
            open,
            "the front matter is opened but never closed",
        )
        .label("opened here")
        .note(REJECTED)
        .help("add a `---` line after the last key, before the first `##` section"),
    }
}

// ── body structure ──────────────────────────────────────────────────────────────────────

/// Lines of `text` inside `region`, each as (span without line break, text).
fn lines_in(text: &str, region: Span) -> impl Iterator<Item = (Span, &str)> + '_ {
    let region_text = text.get(region.start..region.end).unwrap_or("");
    let mut offset = region.start;
    region_text.split('\n').map(move |raw| {
        let start = offset;
        offset += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        (Span::new(start, start + line.len()), line)
    })
}

/// Fenced code blocks of the body (```` ``` ```` or `~~~`, indented at most three spaces).
fn fences(text: &str, body_start: usize) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize, usize, Option<Span>)> = None;
    for (span, line) in lines_in(text, Span::new(body_start, text.len())) {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent > 3 {
            continue;
        }
        let rest = &line[indent..];
        let Some(ch) = rest.chars().next().filter(|c| *c == '`' || *c == '~') else {
            continue;
        };
        let run = rest.len() - rest.trim_start_matches(ch).len();
        if run < 3 {
            continue;
        }
        match open {
            Some((c, n, start, info)) if c == ch && run >= n && rest[run..].trim().is_empty() => {
                out.push(Fence {
                    info,
                    span: Span::new(start, span.end),
                });
                open = None;
            }
            Some(_) => {}
            None => {
                let after = &rest[run..];
                let lead = after.len() - after.trim_start().len();
                let word_len = after[lead..]
                    .find(|c: char| c.is_whitespace() || matches!(c, '{' | ',' | '`'))
                    .unwrap_or(after.len() - lead);
                let word_start = indent + run + lead;
                let info = (word_len > 0).then(|| span.sub(word_start, word_start + word_len));
                open = Some((ch, run, span.start, info));
            }
        }
    }
    if let Some((_, _, start, info)) = open {
        out.push(Fence {
            info,
            span: Span::new(start, text.len()),
        });
    }
    out
}

/// `##` sections, ignoring `## ` lines inside code blocks (a Python comment, say).
fn body_sections(text: &str, body_start: usize, fences: &[Fence]) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    // Both lists are in file order: walk the fences alongside the headings.
    let mut f = 0;
    for s in h2_sections(text, body_start) {
        while fences
            .get(f)
            .is_some_and(|fence| fence.span.end <= s.heading.start)
        {
            f += 1;
        }
        let fenced = fences
            .get(f)
            .is_some_and(|fence| fence.span.start < s.heading.start);
        match out.last_mut() {
            Some(last) if fenced => last.content.end = s.content.end,
            _ if fenced => {}
            _ => out.push(s),
        }
    }
    out
}

/// A heading meant as `## {title}` that is not one: wrong level or spelling of the hashes.
fn near_heading(text: &str, body_start: usize, title: &str) -> Option<Span> {
    lines_in(text, Span::new(body_start, text.len())).find_map(|(span, line)| {
        let hashes = line.len() - line.trim_start_matches('#').len();
        (hashes > 0
            && !line.starts_with("## ")
            && line
                .trim_start_matches('#')
                .trim()
                .trim_end_matches(':')
                .eq_ignore_ascii_case(title))
        .then_some(span)
    })
}

fn order_list(expected: &[(&str, bool)]) -> String {
    expected
        .iter()
        .map(|(t, required)| {
            if *required {
                format!("`## {t}`")
            } else {
                format!("`## {t}` (optional)")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text spans of Markdown list items (`- `, `* `, `+ `, `1. `) in `region`.
fn list_items(text: &str, region: Span) -> Vec<Span> {
    let mut out = Vec::new();
    for (span, line) in lines_in(text, region) {
        let lead = line.len() - line.trim_start().len();
        let rest = &line[lead..];
        let marker = if rest.starts_with("- ") || rest.starts_with("* ") || rest.starts_with("+ ") {
            2
        } else {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let after = &rest[digits..];
            if digits > 0 && (after.starts_with(". ") || after.starts_with(") ")) {
                digits + 2
            } else {
                continue;
            }
        };
        let item = &rest[marker..];
        let pad = item.len() - item.trim_start().len();
        let start = lead + marker + pad;
        let end = lead + marker + item.trim_end().len();
        if end > start {
            out.push(span.sub(start, end));
        }
    }
    out
}

/// One `Label: value` line of the risk assessment.
struct RiskField {
    /// The label, lower-case (`risk level`).
    label: String,
    line: Span,
    value: Span,
}

fn risk_fields(text: &str, region: Span) -> Vec<RiskField> {
    let mut out = Vec::new();
    for (span, line) in lines_in(text, region) {
        let mut rest = line.trim_start();
        for marker in ["- ", "* ", "+ "] {
            if let Some(r) = rest.strip_prefix(marker) {
                rest = r.trim_start();
            }
        }
        let rest = rest.trim_start_matches(['*', '_']);
        let Some(colon) = rest.find(':') else {
            continue;
        };
        let label = rest[..colon]
            .trim()
            .trim_end_matches(['*', '_'])
            .trim()
            .to_ascii_lowercase();
        let after = &rest[colon + 1..];
        let after = after.trim_start_matches(['*', '_']);
        let value = after.trim();
        let value_start = line.len() - after.len() + (after.len() - after.trim_start().len());
        let value_end = value_start + value.trim_end_matches(['*', '_']).len();
        out.push(RiskField {
            label,
            line: span,
            value: span.sub(value_start.min(line.len()), value_end.min(line.len())),
        });
    }
    out
}

fn title_case(label: &str) -> String {
    let mut chars = label.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

// ── command line ────────────────────────────────────────────────────────────────────────

/// What a shell operator does, for the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OpKind {
    Separator,
    Chain,
    Background,
    Pipe,
    Redirect,
    Heredoc,
    Substitution,
}

impl OpKind {
    fn what(self) -> &'static str {
        match self {
            OpKind::Separator => "a command separator",
            OpKind::Chain => "command chaining",
            OpKind::Background => "a background job",
            OpKind::Pipe => "a pipeline",
            OpKind::Redirect => "redirection",
            OpKind::Heredoc => "a heredoc",
            OpKind::Substitution => "command substitution",
        }
    }

    fn label(self) -> &'static str {
        match self {
            OpKind::Separator | OpKind::Chain | OpKind::Background => "starts another command",
            OpKind::Pipe => "pipes into another command",
            OpKind::Redirect => "redirects a stream",
            OpKind::Heredoc => "inline document",
            OpKind::Substitution => "runs a command inside the command",
        }
    }

    fn help(self) -> &'static str {
        match self {
            OpKind::Separator | OpKind::Chain | OpKind::Background => {
                "run one command per request; split the rest into requests of their own"
            }
            OpKind::Pipe => "do the whole job in one program, or split it into requests",
            OpKind::Redirect => {
                "pass input paths under `/in/` and output paths under `/out/` as arguments instead"
            }
            OpKind::Heredoc => "put the data in an input file under `/in/` and pass its path",
            OpKind::Substitution => {
                "write the value itself; if the command is in backticks for Markdown, remove them: the command is plain text"
            }
        }
    }
}

/// A shell operator found in a command line.
#[derive(Debug, PartialEq, Eq)]
struct Op {
    start: usize,
    end: usize,
    text: String,
    kind: OpKind,
}

/// Every shell operator of `line`, on its exact characters. Quotes do not protect: the
/// validator rejects these characters wherever they are.
fn shell_operators(line: &str) -> Vec<Op> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let at = |j: usize| b.get(j).copied();
        let (len, kind) = match (b[i], at(i + 1), at(i + 2)) {
            (b'$', Some(b'('), _) => (2, OpKind::Substitution),
            (b'`', _, _) => {
                // A pair of backticks is one substitution: report the opening one only.
                let close = b[i + 1..]
                    .iter()
                    .position(|c| *c == b'`')
                    .map(|p| i + 1 + p);
                out.push(Op {
                    start: i,
                    end: i + 1,
                    text: "`".into(),
                    kind: OpKind::Substitution,
                });
                i = close.map_or(b.len(), |c| c + 1);
                continue;
            }
            (b'<', Some(b'<'), Some(b'<')) => (3, OpKind::Heredoc),
            (b'<', Some(b'<'), _) => (2, OpKind::Heredoc),
            (b'<', Some(b'('), _) => (2, OpKind::Substitution),
            (b'<', _, _) => (1, OpKind::Redirect),
            (b'>', Some(b'>'), _) => (2, OpKind::Redirect),
            (b'>', Some(b'&'), _) => (2, OpKind::Redirect),
            (b'>', Some(b'('), _) => (2, OpKind::Substitution),
            (b'>', _, _) => (1, OpKind::Redirect),
            (b'&', Some(b'&'), _) => (2, OpKind::Chain),
            (b'&', Some(b'>'), Some(b'>')) => (3, OpKind::Redirect),
            (b'&', Some(b'>'), _) => (2, OpKind::Redirect),
            (b'&', _, _) => (1, OpKind::Background),
            (b'|', Some(b'|'), _) => (2, OpKind::Chain),
            (b'|', Some(b'&'), _) => (2, OpKind::Pipe),
            (b'|', _, _) => (1, OpKind::Pipe),
            (b';', _, _) => (1, OpKind::Separator),
            _ => {
                i += 1;
                continue;
            }
        };
        // `2>` and `2>>`: the descriptor belongs to the operator.
        let start = if kind == OpKind::Redirect
            && b[i] == b'>'
            && i > 0
            && b[i - 1].is_ascii_digit()
            && (i == 1 || b[i - 2].is_ascii_whitespace())
        {
            i - 1
        } else {
            i
        };
        out.push(Op {
            start,
            end: i + len,
            text: line[start..i + len].to_string(),
            kind,
        });
        i += len;
    }
    out
}

/// Whitespace-separated words of `s` with their byte offsets.
fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - s.as_ptr() as usize, w))
}

fn first_word(s: &str) -> Option<(usize, &str)> {
    words(s).next()
}

/// `/usr/bin/bash.exe` → `bash.exe`, without quotes.
fn program_name(word: &str) -> &str {
    let w = word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`'));
    w.rsplit(['/', '\\']).next().unwrap_or(w)
}

/// The shell a language or program name denotes, if it is one.
fn shell_name(name: &str) -> Option<&'static str> {
    let lower = name.trim().to_ascii_lowercase();
    let lower = lower.strip_suffix(".exe").unwrap_or(&lower);
    SHELLS.iter().copied().find(|s| *s == lower)
}

// ── paths ───────────────────────────────────────────────────────────────────────────────

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PathKind {
    /// `/etc/passwd`.
    Absolute,
    /// `~/.ssh`, `~root/`, `$HOME`.
    Home,
    /// `../../x`.
    Parent,
}

/// A path-like token of the request.
#[derive(Debug)]
struct PathTok {
    span: Span,
    text: String,
    kind: PathKind,
}

/// Characters after which a path may start (so `and/or` and URLs are not paths).
fn opens_path(prev: Option<char>) -> bool {
    prev.is_none_or(|c| c.is_whitespace() || "\"'`=([{<>|:;,@&*".contains(c))
}

fn ends_path(c: char) -> bool {
    c.is_whitespace() || "\"'`()[]{}<>|;&,".contains(c)
}

/// Absolute, home-relative and `..` paths in `region`.
fn path_tokens(text: &str, region: Span) -> Vec<PathTok> {
    let Some(slice) = text.get(region.start..region.end) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut prev: Option<char> = None;
    let mut skip_to = 0;
    for (i, c) in slice.char_indices() {
        if i < skip_to {
            prev = Some(c);
            continue;
        }
        let rest = &slice[i..];
        let starts = opens_path(prev) || (c == '/' && slice[..i].ends_with("file://"));
        let kind = match c {
            '/' if starts
                && rest[1..]
                    .chars()
                    .next()
                    .is_some_and(|n| n.is_alphanumeric() || matches!(n, '.' | '_' | '-' | '~')) =>
            {
                Some(PathKind::Absolute)
            }
            '~' if opens_path(prev) && home_prefix(rest) => Some(PathKind::Home),
            '.' if opens_path(prev) && rest.starts_with("../") => Some(PathKind::Parent),
            '$' if rest.starts_with("${HOME}")
                || (rest.starts_with("$HOME")
                    && !rest[5..].starts_with(|n: char| n.is_alphanumeric() || n == '_')) =>
            {
                Some(PathKind::Home)
            }
            _ => None,
        };
        if let Some(kind) = kind {
            let len = rest.find(ends_path).unwrap_or(rest.len());
            let token = rest[..len].trim_end_matches(['.', ':', '!', '?']);
            let token = if token.is_empty() {
                &rest[..len]
            } else {
                token
            };
            out.push(PathTok {
                span: region.sub(i, i + token.len()),
                text: token.to_string(),
                kind,
            });
            skip_to = i + len.max(1);
        }
        prev = Some(c);
    }
    out
}

/// `~/`, `~` at the end, or `~user/`.
fn home_prefix(rest: &str) -> bool {
    let after = &rest[1..];
    if after.is_empty() || after.starts_with('/') {
        return true;
    }
    let user = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(after.len());
    user > 0 && after.as_bytes()[0].is_ascii_alphabetic() && after[user..].starts_with('/')
}

/// `/in` or `/out` when the cleaned path stays inside that sandbox folder.
fn sandbox_dir(path: &str) -> Option<&'static str> {
    let cleaned = clean(path);
    ["/in", "/out"]
        .into_iter()
        .find(|d| cleaned == *d || cleaned.starts_with(&format!("{d}/")))
}

fn base_name(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty() && *n != "..")
        .unwrap_or("file")
}

// ── hashes ──────────────────────────────────────────────────────────────────────────────

fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Maximal runs of hex digits that are whole words (not part of a longer alphanumeric word).
fn hex_runs(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if b[start..i].iter().all(u8::is_ascii_hexdigit) {
            out.push((start, i));
        }
    }
    out
}

// ── package installation ────────────────────────────────────────────────────────────────

/// Installer commands, as lower-case word sequences; `+` marks a word that must follow.
const INSTALLERS: &[&[&str]] = &[
    &["pip", "install"],
    &["pip3", "install"],
    &["pipx", "install"],
    &["easy_install"],
    &["conda", "install"],
    &["mamba", "install"],
    &["micromamba", "install"],
    &["poetry", "add"],
    &["uv", "add"],
    &["npm", "install"],
    &["npm", "i", "+"],
    &["npm", "ci"],
    &["npm", "add"],
    &["yarn", "add"],
    &["pnpm", "add"],
    &["pnpm", "install"],
    &["bun", "add"],
    &["bun", "install"],
    &["apt-get"],
    &["apt", "install"],
    &["apk", "add"],
    &["yum", "install"],
    &["dnf", "install"],
    &["zypper", "install"],
    &["pacman", "-s"],
    &["brew", "install"],
    &["cargo", "install"],
    &["gem", "install"],
    &["go", "install", "+/"],
    &["go", "get", "+/"],
    &["choco", "install"],
    &["winget", "install"],
    &["snap", "install"],
    &["composer", "require"],
    &["install-package"],
    &["install-module"],
];

/// Programs that fetch from the network, and what a download may be piped into.
const FETCHERS: &[&str] = &[
    "curl",
    "wget",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
];
const RUNNERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "python",
    "python3",
    "perl",
    "ruby",
    "node",
    "iex",
    "pwsh",
    "powershell",
];

/// Package installations in one line: (start, end, what).
fn package_install(line: &str) -> Vec<(usize, usize, String)> {
    let words = install_words(line);
    let mut out = Vec::new();
    let lower: Vec<String> = words.iter().map(|(_, w)| w.to_ascii_lowercase()).collect();
    let pipes: Vec<usize> = line.match_indices('|').map(|(p, _)| p).collect();
    let first_runner = words
        .iter()
        .find(|(_, w)| RUNNERS.contains(&program_name(w).to_ascii_lowercase().as_str()))
        .map(|(at, _)| *at);
    // A line naming a fetcher over and over is not worth more than a few looks.
    let mut fetches = 0;
    let mut i = 0;
    while i < words.len() {
        let hit = INSTALLERS.iter().find_map(|pat| {
            let fixed = pat.iter().take_while(|p| !p.starts_with('+')).count();
            let matches = lower
                .get(i..i + fixed)
                .is_some_and(|ws| ws.iter().zip(pat.iter()).all(|(w, p)| w == p));
            if !matches {
                return None;
            }
            let next = lower.get(i + fixed);
            let ok = match pat.get(fixed) {
                None => true,
                Some(&"+") => {
                    next.is_some_and(|n| n.starts_with(|c: char| c.is_alphanumeric() || c == '@'))
                }
                Some(_) => next.is_some_and(|n| n.contains('/') || n.contains('@')),
            };
            ok.then_some(fixed)
        });
        if let Some(n) = hit {
            let (start, _) = words[i];
            let (last_start, last) = words[i + n - 1];
            out.push((
                start,
                last_start + last.len(),
                line[start..last_start + last.len()].to_string(),
            ));
            i += n;
            continue;
        }
        if FETCHERS.contains(&lower[i].as_str()) && fetches < 8 {
            fetches += 1;
            let (start, fetcher) = words[i];
            // `curl … | sh`: a download piped into an interpreter on the same line.
            if let Some(&pipe) = pipes.get(pipes.partition_point(|p| *p < start)) {
                let after = words.partition_point(|(at, _)| *at <= pipe);
                let runner = words[after..]
                    .iter()
                    .take(4)
                    .find(|(_, w)| {
                        !w.starts_with('-')
                            && !matches!(w.to_ascii_lowercase().as_str(), "sudo" | "env")
                    })
                    .filter(|(_, w)| {
                        RUNNERS.contains(&program_name(w).to_ascii_lowercase().as_str())
                    });
                if let Some((at, w)) = runner {
                    let end = at + w.len();
                    out.push((start, end, format!("{fetcher} … | {w}")));
                    i = words.partition_point(|(s, _)| *s < end);
                    continue;
                }
            }
            // `bash <(curl …)` and `sh -c "$(curl …)"`.
            let before = line[..start].trim_end_matches(['"', '\'']);
            if (before.ends_with("<(") || before.ends_with("$("))
                && first_runner.is_some_and(|r| r < start)
            {
                out.push((
                    start,
                    start + fetcher.len(),
                    format!("{fetcher} run by a shell"),
                ));
            }
        }
        i += 1;
    }
    out
}

/// Words for installer matching: split on whitespace and on quoting or list punctuation, so
/// `["pip", "install", "x"]` in code reads like `pip install x`.
fn install_words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in line.char_indices() {
        let word_char = c.is_alphanumeric() || "-_.@/+:=~".contains(c);
        match (word_char, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

// ── secrets ─────────────────────────────────────────────────────────────────────────────

/// A credential found in a line.
struct SecretHit {
    start: usize,
    end: usize,
    message: String,
}

/// Name parts that mean the value is a password or token whatever it looks like.
const LITERAL_SECRET_NAMES: &[&str] = &["password", "passwd", "pwd", "passphrase", "token"];
/// Name parts that mean the value is a credential when it also looks random.
const RANDOM_SECRET_NAMES: &[&str] = &[
    "secret",
    "key",
    "apikey",
    "credential",
    "credentials",
    "auth",
];

/// A well-known credential format: a fixed prefix, then a body of some length and alphabet.
struct TokenFormat {
    prefix: &'static str,
    /// Shortest body that counts.
    min: usize,
    /// Bytes the body is made of.
    body: fn(u8) -> bool,
    /// What the credential is, for the message.
    what: &'static str,
}

/// Credential formats recognised by their prefix.
const TOKEN_FORMATS: &[TokenFormat] = &[
    TokenFormat {
        prefix: "ghp_",
        min: 36,
        body: alnum,
        what: "a GitHub personal access token",
    },
    TokenFormat {
        prefix: "gho_",
        min: 36,
        body: alnum,
        what: "a GitHub OAuth token",
    },
    TokenFormat {
        prefix: "ghu_",
        min: 36,
        body: alnum,
        what: "a GitHub user-to-server token",
    },
    TokenFormat {
        prefix: "ghs_",
        min: 36,
        body: alnum,
        what: "a GitHub server-to-server token",
    },
    TokenFormat {
        prefix: "ghr_",
        min: 36,
        body: alnum,
        what: "a GitHub refresh token",
    },
    TokenFormat {
        prefix: "github_pat_",
        min: 22,
        body: alnum_under,
        what: "a GitHub fine-grained token",
    },
    TokenFormat {
        prefix: "glpat-",
        min: 20,
        body: alnum_dash,
        what: "a GitLab personal access token",
    },
    TokenFormat {
        prefix: "xoxb-",
        min: 10,
        body: alnum_dash,
        what: "a Slack bot token",
    },
    TokenFormat {
        prefix: "xoxp-",
        min: 10,
        body: alnum_dash,
        what: "a Slack user token",
    },
    TokenFormat {
        prefix: "xoxa-",
        min: 10,
        body: alnum_dash,
        what: "a Slack app token",
    },
    TokenFormat {
        prefix: "xoxr-",
        min: 10,
        body: alnum_dash,
        what: "a Slack refresh token",
    },
    TokenFormat {
        prefix: "xoxs-",
        min: 10,
        body: alnum_dash,
        what: "a Slack session token",
    },
    TokenFormat {
        prefix: "xoxe-",
        min: 10,
        body: alnum_dash,
        what: "a Slack token",
    },
    TokenFormat {
        prefix: "hooks.slack.com/services/",
        min: 20,
        body: slack_path,
        what: "a Slack webhook URL",
    },
    TokenFormat {
        prefix: "sk-",
        min: 32,
        body: alnum_dash,
        what: "an API secret key",
    },
    TokenFormat {
        prefix: "AKIA",
        min: 16,
        body: upper_alnum,
        what: "an AWS access key id",
    },
    TokenFormat {
        prefix: "ASIA",
        min: 16,
        body: upper_alnum,
        what: "an AWS temporary access key id",
    },
];

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn alnum_under(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn alnum_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}
fn upper_alnum(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}
fn slack_path(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'/'
}

/// Past this many credentials on one line, the line is reported no further.
const MAX_SECRETS_PER_LINE: usize = 16;

fn find_secrets(line: &str) -> Vec<SecretHit> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    if let Some(at) = line.find("-----BEGIN ")
        && line[at..].contains("PRIVATE KEY-----")
    {
        let end = line[at..]
            .find("PRIVATE KEY-----")
            .map_or(line.len(), |i| at + i + 16);
        out.push(SecretHit {
            start: at,
            end,
            message: "a private key block is embedded in the request".into(),
        });
    }
    for TokenFormat {
        prefix,
        min,
        body: allowed,
        what,
    } in TOKEN_FORMATS
    {
        let mut from = 0;
        while let Some(pos) = line[from..].find(prefix).map(|p| from + p) {
            if out.len() >= MAX_SECRETS_PER_LINE {
                return out;
            }
            from = pos + prefix.len();
            // A token starts a word: `mask-` or `task-…` are not `sk-…`.
            if pos > 0
                && (b[pos - 1].is_ascii_alphanumeric() || b[pos - 1] == b'_')
                && !prefix.contains('.')
            {
                continue;
            }
            let body = b[from..].iter().take_while(|c| allowed(**c)).count();
            let end = from + body;
            // Whatever the body holds belongs to this token: never scan it again.
            from = end;
            if body < *min
                || b.get(end).is_some_and(|c| c.is_ascii_alphanumeric()) && *prefix == "AKIA"
            {
                continue;
            }
            if out
                .iter()
                .any(|h: &SecretHit| h.start <= pos && pos < h.end)
            {
                continue;
            }
            out.push(SecretHit {
                start: pos,
                end,
                message: format!(
                    "{what} (`{}…`) is embedded in the request",
                    &line[pos..(pos + prefix.len() + 2).min(end)]
                ),
            });
        }
    }
    for a in assignments(line) {
        if out.len() >= MAX_SECRETS_PER_LINE {
            break;
        }
        if out
            .iter()
            .any(|h| h.start <= a.value.0 && a.value.0 < h.end)
        {
            continue;
        }
        let value = &line[a.value.0..a.value.1];
        let parts = name_parts(a.name);
        let Some(last) = parts.last() else { continue };
        let literal = LITERAL_SECRET_NAMES.contains(&last.as_str());
        let random = RANDOM_SECRET_NAMES.contains(&last.as_str());
        if !(literal || random) || is_placeholder(value) {
            continue;
        }
        if literal && value.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let message = if literal {
            format!(
                "`{}` is assigned a literal value: a password or token written into the request",
                a.name
            )
        } else if looks_random(value) {
            format!(
                "`{}` is assigned a random-looking value: a credential written into the request",
                a.name
            )
        } else {
            continue;
        };
        out.push(SecretHit {
            start: a.value.0,
            end: a.value.1,
            message,
        });
    }
    out
}

/// `name = value`, `name: value` (at the start of a line or quoted as in JSON), `--name value`.
struct Assignment<'a> {
    name: &'a str,
    value: (usize, usize),
}

fn assignments(line: &str) -> Vec<Assignment<'_>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.';
    let value_at = |mut i: usize| -> Option<(usize, usize)> {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        let quote = b.get(i).copied().filter(|q| *q == b'"' || *q == b'\'');
        if quote.is_some() {
            i += 1;
        }
        let start = i;
        while i < b.len() {
            let c = b[i];
            if Some(c) == quote
                || (quote.is_none()
                    && (c.is_ascii_whitespace()
                        || matches!(c, b';' | b'&' | b',' | b'`' | b')' | b'}')))
            {
                break;
            }
            i += 1;
        }
        (i > start).then_some((start, i))
    };
    // Only the first colon can end a YAML or JSON key; a value is never rescanned for
    // separators, so a line of `a=a=a=…` stays linear.
    let first_colon = line.find(':');
    let mut resume = 0;
    for (i, c) in line.char_indices() {
        if i < resume {
            continue;
        }
        let sep = match c {
            '=' => true,
            ':' if Some(i) == first_colon => {
                // YAML or JSON keys only: `name:` first on the line (after `- ` or a quote).
                let head = line[..i]
                    .trim_start()
                    .trim_start_matches("- ")
                    .trim_matches(['"', '\'']);
                !head.is_empty()
                    && head.bytes().all(is_name)
                    && b.get(i + 1).is_some_and(|n| *n == b' ' || *n == b'"')
            }
            _ => false,
        };
        if !sep {
            continue;
        }
        let before = line[..i].trim_end_matches(['"', '\'', ' ']);
        let name_start = before.len() - before.bytes().rev().take_while(|c| is_name(*c)).count();
        let name = before[name_start..].trim_start_matches('-');
        if !is_secret_name(name) {
            continue;
        }
        if let Some(value) = value_at(i + 1) {
            resume = value.1;
            out.push(Assignment { name, value });
            if out.len() >= MAX_SECRETS_PER_LINE {
                return out;
            }
        }
    }
    // `--password hunter2`.
    let mut it = words(line).peekable();
    while let Some((_, w)) = it.next() {
        if let Some(flag) = w.strip_prefix("--").filter(|f| !f.contains('='))
            && is_secret_name(flag)
            && name_parts(flag)
                .last()
                .is_some_and(|p| LITERAL_SECRET_NAMES.contains(&p.as_str()))
            && let Some((at, v)) = it.peek().copied()
            && !v.starts_with('-')
        {
            let v = v.trim_matches(['"', '\'']);
            let start = at + line[at..].find(v).unwrap_or(0);
            out.push(Assignment {
                name: flag,
                value: (start, start + v.len()),
            });
        }
    }
    out
}

/// Whether a name's last part says it holds a secret (`DB_PASSWORD`, `apiKey`).
fn is_secret_name(name: &str) -> bool {
    name_parts(name).last().is_some_and(|p| {
        LITERAL_SECRET_NAMES.contains(&p.as_str()) || RANDOM_SECRET_NAMES.contains(&p.as_str())
    })
}

/// `DB_PASSWORD` → [db, password]; `apiKey` → [api, key].
fn name_parts(name: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.') {
            if !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    // `apikey` and `api_key` are the same name.
    if parts.len() >= 2 && parts[parts.len() - 2] == "api" && parts[parts.len() - 1] == "key" {
        parts.pop();
        if let Some(last) = parts.last_mut() {
            *last = "apikey".into();
        }
    }
    parts
}

/// A value that stands for a secret rather than being one.
fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    v.len() < 4
        || v.starts_with(['$', '<', '{', '%', '*', '['])
        || v.chars().all(|c| c == v.chars().next().unwrap_or('x'))
        || matches!(
            lower.as_str(),
            "none"
                | "null"
                | "nil"
                | "empty"
                | "redacted"
                | "required"
                | "optional"
                | "true"
                | "false"
                | "n/a"
        )
        || lower.starts_with("your")
        || lower.starts_with("env:")
        || lower.contains("redacted")
        || lower.contains("placeholder")
}

/// Long enough and varied enough to be a generated credential rather than a word.
fn looks_random(value: &str) -> bool {
    if value.len() < 16 || value.contains(char::is_whitespace) {
        return false;
    }
    let mut counts: HashMap<char, usize> = HashMap::new();
    for c in value.chars() {
        *counts.entry(c).or_default() += 1;
    }
    let n = value.chars().count() as f64;
    let entropy: f64 = counts
        .values()
        .map(|k| {
            let p = *k as f64 / n;
            -p * p.log2()
        })
        .sum();
    entropy >= 3.5 && value.chars().any(|c| c.is_ascii_digit())
}

// ── time ────────────────────────────────────────────────────────────────────────────────

/// Seconds since the epoch of an ISO-8601 date or date-time (extended format).
fn parse_timestamp(s: &str) -> Result<i64, String> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| std::str::from_utf8(part).ok()?.parse().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (num(0, 4), num(5, 2), num(8, 2)) else {
        return Err(format!("expected `YYYY-MM-DDTHH:MM:SSZ`, found `{s}`"));
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return Err(format!("expected `YYYY-MM-DDTHH:MM:SSZ`, found `{s}`"));
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return Err(format!("`{}` is not a calendar date", &s[..10]));
    }
    let mut secs = days_from_civil(year, month, day) * 86_400;
    if b.len() == 10 {
        return Ok(secs);
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return Err("the date and the time must be separated by `T`".into());
    }
    let (Some(hour), Some(minute)) = (num(11, 2), num(14, 2)) else {
        return Err("expected the time as `HH:MM:SS`".into());
    };
    if b.get(13) != Some(&b':') || hour > 23 || minute > 59 {
        return Err("expected the time as `HH:MM:SS`".into());
    }
    let mut i = 16;
    let mut second = 0;
    if b.get(i) == Some(&b':') {
        second = num(i + 1, 2)
            .filter(|s| *s <= 60)
            .ok_or("the seconds are not `00`–`59`")?;
        i += 3;
        if matches!(b.get(i), Some(b'.' | b',')) {
            i += 1;
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return Err("a decimal point must be followed by digits".into());
            }
            i += digits;
        }
    }
    secs += hour * 3600 + minute * 60 + second;
    match &b[i..] {
        [] | [b'Z'] | [b'z'] => Ok(secs),
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let (h, m) = match rest {
                [h1, h2] => (
                    num(i + 1, 2).filter(|_| h1.is_ascii_digit() && h2.is_ascii_digit()),
                    Some(0),
                ),
                [_, _, b':', _, _] => (num(i + 1, 2), num(i + 4, 2)),
                [_, _, _, _] => (num(i + 1, 2), num(i + 3, 2)),
                _ => (None, None),
            };
            let (Some(h), Some(m)) = (h, m) else {
                return Err("the UTC offset must be `Z` or `±HH:MM`".into());
            };
            let offset = h * 3600 + m * 60;
            Ok(if *sign == b'+' {
                secs - offset
            } else {
                secs + offset
            })
        }
        _ => Err(format!("unexpected `{}` after the time", &s[i..])),
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `20250131-140500Z` for a time.
fn compact_stamp(secs: i64) -> String {
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}{mo:02}{d:02}-{:02}{:02}{:02}Z",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

fn format_stamp(secs: i64) -> String {
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

/// The time in a `TR-YYYYMMDD-HHMMSSZ-<slug>.md` name, when the name has that shape.
fn file_name_stamp(name: &str) -> Option<i64> {
    let rest = name.strip_prefix("TR-")?.strip_suffix(".md")?;
    let b = rest.as_bytes();
    if b.len() < 18 || b[8] != b'-' || b[15] != b'Z' || b[16] != b'-' {
        return None;
    }
    let slug = rest.get(17..)?;
    let slug_ok = slug.starts_with(|c: char| c.is_ascii_alphanumeric())
        && slug
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !slug_ok {
        return None;
    }
    let iso = format!(
        "{}-{}-{}T{}:{}:{}Z",
        rest.get(0..4)?,
        rest.get(4..6)?,
        rest.get(6..8)?,
        rest.get(9..11)?,
        rest.get(11..13)?,
        rest.get(13..15)?
    );
    parse_timestamp(&iso).ok()
}

/// `TR-<created>-<slug>.md`, keeping what looks like a slug from the current name.
fn suggested_name(created: i64, current: &str) -> Option<String> {
    let stem = current.strip_suffix(".md").unwrap_or(current);
    let stem = stem.strip_prefix("TR-").unwrap_or(stem);
    let slug: String = stem
        .split('-')
        .filter(|part| !part.is_empty() && !part.chars().all(|c| c.is_ascii_digit() || c == 'Z'))
        .collect::<Vec<_>>()
        .join("-")
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let slug = slug.trim_matches('-');
    let slug = if slug.is_empty() { "request" } else { slug };
    Some(format!("TR-{}-{slug}.md", compact_stamp(created)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(parse_timestamp("1970-01-01T01:00:00+01:00"), Ok(0));
        assert_eq!(
            parse_timestamp("2025-01-31"),
            Ok(days_from_civil(2025, 1, 31) * 86_400)
        );
        assert!(parse_timestamp("2025-02-30T00:00:00Z").is_err());
        assert!(parse_timestamp("yesterday").is_err());
        assert!(parse_timestamp("2025-01-31T25:00:00Z").is_err());
        assert_eq!(
            compact_stamp(parse_timestamp("2025-01-31T14:05:09Z").unwrap_or(0)),
            "20250131-140509Z"
        );
        assert_eq!(
            file_name_stamp("TR-20250131-140509Z-csv-summary.md"),
            parse_timestamp("2025-01-31T14:05:09Z").ok()
        );
        assert_eq!(file_name_stamp("TR-summary.md"), None);
    }

    #[test]
    fn operators_on_their_characters() {
        let ops = shell_operators("a; b && c | d > e 2>> f < g <<EOF `h` $(i) &");
        let texts: Vec<&str> = ops.iter().map(|o| o.text.as_str()).collect();
        assert_eq!(
            texts,
            [";", "&&", "|", ">", "2>>", "<", "<<", "`", "$(", "&"]
        );
        assert!(shell_operators("python -u script.py --in /in/a.csv --out /out/b.json").is_empty());
    }

    #[test]
    fn paths() {
        let text =
            "see https://example.com/a and/or /etc/passwd, `/in/x.csv` ~/.ssh ../up file:///etc/x";
        let toks = path_tokens(text, Span::new(0, text.len()));
        let found: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            found,
            ["/etc/passwd", "/in/x.csv", "~/.ssh", "../up", "/etc/x"]
        );
        assert_eq!(sandbox_dir("/in/../etc"), None);
        assert_eq!(sandbox_dir("/out/a/b"), Some("/out"));
    }

    #[test]
    fn secrets_and_hashes() {
        let hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        assert!(find_secrets(&format!("- /in/input.csv sha256: {hash}")).is_empty());
        assert!(find_secrets(&format!("    sha256: {hash}")).is_empty());
        assert_eq!(find_secrets("password=hunter22").len(), 1);
        assert_eq!(
            find_secrets(&format!("api_key: \"{}\"", "A1b2C3d4E5f6G7h8J9k0")).len(),
            1
        );
        assert_eq!(
            find_secrets("token: ghp_0123456789abcdefghijklmnopqrstuvwxyz").len(),
            1
        );
        assert_eq!(find_secrets("key AKIAIOSFODNN7EXAMPLE here").len(), 1);
        assert!(find_secrets("Justification: no token is needed for this").is_empty());
        assert!(find_secrets("password=$DB_PASSWORD").is_empty());
        assert_eq!(name_parts("apiKey"), ["apikey"]);
        assert_eq!(name_parts("DB_PASSWORD"), ["db", "password"]);
    }

    #[test]
    fn installs() {
        assert_eq!(package_install("pip install pandas").len(), 1);
        assert_eq!(
            package_install("curl -fsSL https://x.sh | sh")[0].2,
            "curl … | sh"
        );
        assert_eq!(
            package_install("subprocess.run([\"npm\", \"install\"])").len(),
            1
        );
        assert!(package_install("we go get data").is_empty());
        assert!(package_install("python -u script.py").is_empty());
    }
}
