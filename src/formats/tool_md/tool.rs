//! One `*.tool.md` file: the front matter lowered field by field against the spec's field
//! reference, its hard validation failures, and its recommended lints.

use std::path::Component;

use super::{Spanned, id_problem, interface, is_valid_id, suggest_id, transport};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::{Applicability, Fix};
use crate::formats::fields::{Lowerer, MapRef, Site, rename_key, replace_exact};
use crate::rules::tool_md as rules;
use crate::source::Span;
use crate::syntax::front_matter::FrontMatter;
use crate::syntax::markdown::body_sections;
use crate::syntax::{Node, NodeKind};

/// Keys a tool file may have at the top level.
const TOP_KEYS: &[&str] = &[
    "spec_version",
    "tool_id",
    "version",
    "status",
    "meta",
    "type",
    "interface",
    "transport",
    "use_guidance",
    "error_codes",
];
const META_KEYS: &[&str] = &["name", "description", "owner", "tags", "last_updated"];
const INTERFACE_KEYS: &[&str] = &["input", "output"];
const USE_GUIDANCE_KEYS: &[&str] = &["use_when", "avoid_when", "side_effects"];
const ERROR_CODE_KEYS: &[&str] = &["meaning", "agent_action"];

/// What the compiler does with a key outside a closed set.
const CLOSED_NOTE: &str = "the key sets of a tool file are closed: the compiler rejects a file with a key it does not define";

/// The behavioural contract of a tool (`type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolType {
    /// Read-only lookup, no side effects.
    Retrieval,
    /// Causes an external side effect.
    Action,
    /// In-process computation; `transport` may be omitted.
    Function,
    /// Routes to a human reviewer.
    Human,
}

impl ToolType {
    const NAMES: &'static [&'static str] = &["retrieval", "action", "function", "human"];

    fn parse(s: &str) -> Option<ToolType> {
        Some(match s {
            "retrieval" => ToolType::Retrieval,
            "action" => ToolType::Action,
            "function" => ToolType::Function,
            "human" => ToolType::Human,
            _ => return None,
        })
    }
}

/// The lifecycle state of a tool (`status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Not usable in production.
    Draft,
    /// Usable.
    Active,
    /// Usable, but referencing agents get a warning.
    Deprecated,
    /// Referencing agents fail hard validation.
    Disabled,
}

impl Status {
    const NAMES: &'static [&'static str] = &["draft", "active", "deprecated", "disabled"];

    fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "draft" => Status::Draft,
            "active" => Status::Active,
            "deprecated" => Status::Deprecated,
            "disabled" => Status::Disabled,
            _ => return None,
        })
    }

    /// The spelling used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Active => "active",
            Status::Deprecated => "deprecated",
            Status::Disabled => "disabled",
        }
    }
}

/// An editorial `# Purpose`, `# Side effects` or `# Notes` section of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocSection {
    /// The heading, lower-cased (`purpose`, `side effects`, `notes`).
    pub title: String,
    /// The text up to the next `# ` heading or the end.
    pub content: Span,
}

/// A lowered tool file: what the cross-file checks and the bundles need.
#[derive(Debug, Default)]
pub struct Tool {
    /// `tool_id`, when present and valid.
    pub id: Option<Spanned<String>>,
    /// `status`, when present and valid.
    pub status: Option<Spanned<Status>>,
    /// `type`, when present and valid.
    pub kind: Option<Spanned<ToolType>>,
    /// The `<stem>` of the file name `<stem>.tool.md`.
    pub file_stem: Option<String>,
    /// The editorial body sections the spec names.
    pub documentation: Vec<DocSection>,
    /// What the bundle lowering needs of the front matter (`ir.rs`).
    pub doc: Option<Box<super::doc::ToolDoc>>,
    /// What the model reads, for the security pass (`texts.rs`).
    pub texts: crate::formats::texts::FileTexts,
}

/// The `# Purpose`, `# Side effects` and `# Notes` sections (H1, any case) of the body
/// starting at `body_start`; headings inside code fences do not count.
pub fn doc_sections(text: &str, body_start: usize) -> Vec<DocSection> {
    body_sections(text, body_start, 1)
        .into_iter()
        .map(|s| DocSection {
            title: s.title.to_lowercase(),
            content: s.content,
        })
        .filter(|s| matches!(s.title.as_str(), "purpose" | "side effects" | "notes"))
        .collect()
}

/// Lower the front matter `root` of a tool file into `tool`, reporting into `lw`.
pub fn lower(lw: &mut Lowerer<'_>, root: &Node, fm: &FrontMatter, tool: &mut Tool) {
    let Some(map) = lw.as_map(root, fm.open, "") else {
        return;
    };
    lw.unknown_keys(map, TOP_KEYS, CLOSED_NOTE);
    spec_version(lw, map);
    let id = tool_id(lw, map);
    tool.id = id.clone();
    version(lw, map);
    tool.status = enum_field(lw, map, "status", Status::NAMES, &rules::INVALID_STATUS)
        .and_then(|(s, span)| Status::parse(s).map(|value| Spanned { value, span }));
    tool.kind = enum_field(lw, map, "type", ToolType::NAMES, &rules::INVALID_TOOL_TYPE)
        .and_then(|(s, span)| ToolType::parse(s).map(|value| Spanned { value, span }));
    let last_updated = meta(lw, map);
    interface_block(lw, map);
    transport::check(lw, map, tool.kind.as_ref());
    use_guidance(lw, map, tool.kind.as_ref());
    error_codes(lw, map);

    if let Some(status) = &tool.status
        && status.value == Status::Deprecated
        && !last_updated
        && map
            .node
            .get("meta")
            .is_some_and(|m| m.value.as_map().is_some())
    {
        let d = lw
            .diag(
                &rules::DEPRECATED_WITHOUT_DATE,
                status.span,
                "this tool is deprecated but `meta.last_updated` does not say since when",
            )
            .label("deprecated")
            .note("agents that reference it get a deprecation warning; the date tells their owners how long the tool has been on its way out")
            .help("add `last_updated: \"YYYY-MM-DD\"` under `meta` with the date of the deprecation");
        lw.push(d);
    }
    if let (Some(id), Some(stem)) = (&id, &tool.file_stem)
        && *stem != id.value
    {
        let d = lw
            .diag(
                &rules::FILE_NAME_MISMATCH,
                id.span,
                format!(
                    "the file is named `{stem}.tool.md`, but its `tool_id` is `{}`",
                    id.value
                ),
            )
            .label("does not match the file name")
            .note("the spec names tool files `tools/<tool_id>.tool.md`, so a reader looking for this tool by id will not find the file")
            .help(format!("rename the file to `{}.tool.md`", id.value));
        lw.push(d);
    }
    let parent_is_tools = lw.file.path.parent().is_some_and(|dir| {
        dir.components()
            .any(|c| matches!(c, Component::Normal(n) if n == "tools"))
    });
    if !parent_is_tools {
        let name = tool
            .id
            .as_ref()
            .map_or_else(|| "<tool_id>".to_string(), |i| i.value.clone());
        // On the id (which names the expected file) rather than line 1, so that a
        // `# toolc: ignore` comment above it can silence a deliberate layout.
        let span = tool.id.as_ref().map_or(fm.open, |i| i.span);
        let d = lw
            .diag(
                &rules::OUTSIDE_TOOLS_FOLDER,
                span,
                "this tool file is not inside a `tools/` folder",
            )
            .label("tool file outside `tools/`")
            .note("the spec keeps every tool at `tools/<tool_id>.tool.md`, where the platform team reviews and approves them")
            .help(format!("move it to `tools/{name}.tool.md`"));
        lw.push(d);
    }
}

/// `type` and `status`: a string from `allowed`, else `rule` with "did you mean".
fn enum_field<'n>(
    lw: &mut Lowerer<'_>,
    map: MapRef<'n>,
    key: &str,
    allowed: &[&str],
    rule: &'static crate::rules::Rule,
) -> Option<(&'n str, Span)> {
    let e = lw.required(map, key)?;
    let value = lw.enum_value_at(&e.value, key, allowed, Site::rule(rule));
    value.map(|v| (v, e.value.span))
}

fn spec_version(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(e) = lw.required(map, "spec_version") else {
        return;
    };
    match &e.value.kind {
        NodeKind::String(s) if !is_version_string(s) => {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_VALUE,
                    e.value.span,
                    format!("`spec_version` must be an AML version string such as `\"1.2\"`, found `{s}`"),
                )
                .label("not a version string")
                .note("the platform accepts only the AML versions it has approved, written as `MAJOR.MINOR`")
                .help("write the AML version this file follows, e.g. `spec_version: \"1.2\"`");
            lw.push(d);
        }
        NodeKind::String(_) => {}
        NodeKind::Number(_) => {
            let raw = lw.file.slice(e.value.span).to_string();
            let d = lw
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    e.value.span,
                    format!("`spec_version` must be a string, found the number `{raw}`"),
                )
                .label("a number, not a string")
                .note(
                    "YAML reads an unquoted `1.20` as the number 1.2, so the version would change",
                )
                .help(format!("quote it: `spec_version: \"{raw}\"`"))
                .fix(Fix::safe(e.value.span, format!("\"{raw}\"")));
            lw.push(d);
        }
        _ => lw.wrong_type(&e.value, "spec_version", "a string"),
    }
}

/// `1.2` or `1.2.3`.
fn is_version_string(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

fn tool_id(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> Option<Spanned<String>> {
    let (id, span) = lw.required_str(map, "tool_id", 0, usize::MAX)?;
    if is_valid_id(id) {
        return Some(Spanned {
            value: id.to_string(),
            span,
        });
    }
    let d = lw
        .diag(
            &rules::INVALID_TOOL_ID,
            span,
            format!("tool id `{id}` does not match ^[a-z0-9_-]{{3,64}}$"),
        )
        .label(id_problem(id))
        .note("agents reference tools by this id; the compiler rejects the tool file, so no agent can use it")
        .help(match suggest_id(id) {
            Some(s) => format!("use `{s}` (and name the file `{s}.tool.md`)"),
            None => "use 3 to 64 lowercase letters, digits, `_` or `-`".to_string(),
        })
        .maybe_fix(
            suggest_id(id).and_then(|s| replace_exact(lw.file, span, id, &s, Applicability::Unsafe)),
        );
    lw.push(d);
    None
}

fn version(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(e) = lw.required(map, "version") else {
        return;
    };
    let (problem, fix) = match &e.value.kind {
        NodeKind::String(s) => match semver_problem(s) {
            Some(p) => (format!("`{s}` {}", p.0), p.1),
            None => return,
        },
        NodeKind::Number(_) => {
            let raw = lw.file.slice(e.value.span).to_string();
            let fix = pad_version(&raw);
            (format!("the number `{raw}` is not a version string"), fix)
        }
        _ => {
            lw.wrong_type(&e.value, "version", "a `MAJOR.MINOR.PATCH` string");
            return;
        }
    };
    let d = lw
        .diag(
            &rules::INVALID_VERSION,
            e.value.span,
            format!("`version` must be MAJOR.MINOR.PATCH: {problem}"),
        )
        .label("not a strict semantic version")
        .help(match &fix {
            Some(f) => format!("write `version: \"{f}\"`"),
            None => "write three numbers, e.g. `version: \"1.0.0\"`".to_string(),
        })
        .maybe_fix(fix.map(|f| Fix::unsafe_(e.value.span, format!("\"{f}\""))));
    lw.push(d);
}

/// Why `s` is not strict `MAJOR.MINOR.PATCH` (no prefix, no suffix, no leading zeros), and
/// the corrected version when the fix is mechanical.
fn semver_problem(s: &str) -> Option<(String, Option<String>)> {
    if is_strict_semver(s) {
        return None;
    }
    if let Some(rest) = s.strip_prefix(['v', 'V']) {
        let fix = is_strict_semver(rest).then(|| rest.to_string());
        return Some(("has a `v` prefix".to_string(), fix));
    }
    if let Some(i) = s.find(['-', '+']) {
        let core = &s[..i];
        let fix = is_strict_semver(core).then(|| core.to_string());
        return Some((
            format!(
                "has a pre-release or build suffix `{}`, which tool versions may not have",
                &s[i..]
            ),
            fix,
        ));
    }
    let parts: Vec<&str> = s.split('.').collect();
    let numeric = parts
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if numeric && parts.len() < 3 {
        return Some((
            format!("has {} of the three numbers", parts.len()),
            pad_version(s),
        ));
    }
    if numeric && parts.len() == 3 {
        let fixed: Vec<String> = parts
            .iter()
            .map(|p| {
                let t = p.trim_start_matches('0');
                if t.is_empty() { "0" } else { t }.to_string()
            })
            .collect();
        return Some(("has a leading zero".to_string(), Some(fixed.join("."))));
    }
    Some(("is not three dot-separated numbers".to_string(), None))
}

fn is_strict_semver(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 18
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
        })
}

/// `1` → `1.0.0`, `1.2` → `1.2.0`.
fn pad_version(s: &str) -> Option<String> {
    let mut parts: Vec<&str> = s.split('.').collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    while parts.len() < 3 {
        parts.push("0");
    }
    let v = parts.join(".");
    is_strict_semver(&v).then_some(v)
}

/// `meta`; returns whether `meta.last_updated` is present.
fn meta(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> bool {
    let Some(m) = lw
        .required(map, "meta")
        .and_then(|e| lw.as_map(&e.value, e.key_span, "meta"))
    else {
        return false;
    };
    lw.unknown_keys(m, META_KEYS, CLOSED_NOTE);
    lw.required_str(m, "name", 1, usize::MAX);
    if let Some((description, span)) = lw.required_str(m, "description", 1, usize::MAX)
        && !description.trim().is_empty()
    {
        let n = sentence_count(description);
        if !(2..=5).contains(&n) {
            let d = lw
                .diag(
                    &rules::DESCRIPTION_SENTENCE_COUNT,
                    span,
                    format!(
                        "`meta.description` has {n} sentence{}; the spec asks for two to five",
                        if n == 1 { "" } else { "s" }
                    ),
                )
                .label(if n < 2 { "too short" } else { "too long" })
                .note("the model reads this description to decide when to call the tool")
                .help(if n < 2 {
                    "say what the tool does, then when to use it and when not to"
                } else {
                    "keep what the tool does and when to use it; move details to `use_guidance` or the `# Notes` section"
                });
            lw.push(d);
        }
    }
    lw.required_str(m, "owner", 1, usize::MAX);
    if let Some(e) = m.node.get("tags") {
        lw.str_list(&e.value, "meta.tags", true);
    }
    let Some(e) = m.node.get("last_updated") else {
        return false;
    };
    if let Some((date, span)) = lw.str_value(&e.value, "meta.last_updated", 0, usize::MAX)
        && !is_iso_date(date)
    {
        let d = lw
            .diag(
                &rules::INVALID_DATE,
                span,
                format!(
                    "`meta.last_updated` must be an ISO 8601 date (`YYYY-MM-DD`), found `{date}`"
                ),
            )
            .label("not a `YYYY-MM-DD` date")
            .note("tooling that sorts or ages tools by this date cannot read it")
            .help("write the date as `\"2025-04-01\"`");
        lw.push(d);
    }
    true
}

/// `YYYY-MM-DD` with a real month and day (the shape checked here, the calendar by jiff).
fn is_iso_date(s: &str) -> bool {
    let shape = s.len() == 10
        && s.bytes().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    shape && s.parse::<jiff::civil::Date>().is_ok()
}

/// Sentences in `text`: runs ended by `.`, `!` or `?` before whitespace or the end, where
/// the word before a `.` is not an abbreviation such as `e.g.`.
pub fn sentence_count(text: &str) -> usize {
    const ABBREVIATIONS: &[&str] = &[
        "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "mr", "mrs", "ms", "dr", "no", "st",
    ];
    let mut count = 0;
    let mut pending = false;
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | '!' | '?') {
            let next = text[i + c.len_utf8()..].chars().next();
            if !pending || !next.is_none_or(char::is_whitespace) {
                continue;
            }
            let word_start = text[..i]
                .rfind(|w: char| w.is_whitespace() || w == '(')
                .map_or(0, |j| j + 1);
            let word = text[word_start..i].to_lowercase();
            if c == '.' && ABBREVIATIONS.contains(&word.as_str()) {
                continue;
            }
            count += 1;
            pending = false;
        } else if !c.is_whitespace() {
            pending = true;
        }
    }
    count + usize::from(pending)
}

fn interface_block(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(i) = lw
        .required(map, "interface")
        .and_then(|e| lw.as_map(&e.value, e.key_span, "interface"))
    else {
        return;
    };
    lw.unknown_keys(i, INTERFACE_KEYS, CLOSED_NOTE);
    for (key, path) in [("input", "interface.input"), ("output", "interface.output")] {
        // The spec singles `output` out: the model cannot read responses without it.
        let site = if key == "output" {
            Site::default().note("the model needs the output schema to interpret the tool's responses; without it the compiler rejects the tool")
        } else {
            Site::default()
        };
        let entry = lw.required_at(i, key, site);
        if let Some(e) = entry {
            interface::check(lw, &e.value, path);
        }
    }
}

fn use_guidance(lw: &mut Lowerer<'_>, map: MapRef<'_>, kind: Option<&Spanned<ToolType>>) {
    let Some(entry) = lw.required(map, "use_guidance") else {
        return;
    };
    let Some(u) = lw.as_map(&entry.value, entry.key_span, "use_guidance") else {
        return;
    };
    lw.unknown_keys(u, USE_GUIDANCE_KEYS, CLOSED_NOTE);
    for (key, help) in [
        (
            "use_when",
            "add `use_when:` with the situations in which the model should call this tool",
        ),
        (
            "avoid_when",
            "add `avoid_when:` with the situations in which the model should not call it",
        ),
    ] {
        let (span, message, label) = match u.node.get(key) {
            Some(e) => {
                let items = lw.str_list(&e.value, &format!("use_guidance.{key}"), true);
                if !items.is_empty() || e.value.as_seq().is_none_or(|s| !s.is_empty()) {
                    continue;
                }
                (
                    e.value.span,
                    format!("`use_guidance.{key}` is empty"),
                    "no conditions listed".to_string(),
                )
            }
            None => (
                entry.key_span,
                format!("`use_guidance` has no `{key}`"),
                format!("no `{key}` here"),
            ),
        };
        let d = lw
            .diag(&rules::MISSING_USAGE_HINTS, span, message)
            .label(label)
            .note("`use_when` and `avoid_when` are compiled into the agent's instructions; without them the model guesses from the description alone")
            .help(help);
        lw.push(d);
    }
    let side_effects = u.node.get("side_effects");
    let mut says_none: Option<Span> = None;
    if let Some(e) = side_effects {
        match &e.value.kind {
            NodeKind::String(s) => {
                if declares_none(s) {
                    says_none = Some(e.value.span);
                }
            }
            NodeKind::Seq(items) => {
                let texts = lw.str_list(&e.value, "use_guidance.side_effects", true);
                if texts.len() == items.len() && texts.iter().all(|(t, _)| declares_none(t)) {
                    says_none = Some(e.value.span);
                }
            }
            NodeKind::Null => says_none = Some(e.value.span),
            _ => lw.wrong_type(
                &e.value,
                "use_guidance.side_effects",
                "a string or a list of strings",
            ),
        }
    }
    let Some(kind) = kind.filter(|k| k.value == ToolType::Action) else {
        return;
    };
    let (span, message, label) = match (side_effects, says_none) {
        (None, _) => (
            entry.key_span,
            "this `action` tool does not declare its `side_effects`",
            "no `side_effects` here",
        ),
        (Some(_), Some(span)) => (
            span,
            "this `action` tool declares no side effects",
            "says there are none",
        ),
        (Some(_), None) => return,
    };
    let d = lw
        .diag(&rules::UNDECLARED_SIDE_EFFECTS, span, message)
        .label(label)
        .related(lw.file, kind.span, "declared an `action` here")
        .note("an `action` tool changes something outside the agent; `side_effects` is the warning the model and the reviewers read before it is called")
        .help("list what a call changes, e.g. `side_effects: [\"Sends an email to the recipients; this cannot be undone.\"]`");
    lw.push(d);
}

/// `None`, `none.`, `None. Read-only.`, `n/a`, or nothing at all.
fn declares_none(s: &str) -> bool {
    let t = s.trim().to_ascii_lowercase();
    let first = t
        .split(|c: char| c.is_whitespace() || matches!(c, '.' | ',' | ';' | ':' | '-' | '—'))
        .next()
        .unwrap_or("");
    t.is_empty() || first == "none" || t == "n/a" || t == "no side effects" || t == "-"
}

fn error_codes(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(e) = map.node.get("error_codes") else {
        return;
    };
    let Some(codes) = lw.as_map(&e.value, e.key_span, "error_codes") else {
        return;
    };
    for entry in codes.node.as_map().unwrap_or_default() {
        let path = format!("error_codes.{}", entry.key);
        let Some(m) = lw.as_map(&entry.value, entry.key_span, &path) else {
            continue;
        };
        let help = format!("give `{}` both `meaning:` and `agent_action:`", entry.key);
        for key in ERROR_CODE_KEYS {
            let message = format!("error code field `{path}.{key}` is missing");
            let site = Site::rule(&rules::INCOMPLETE_ERROR_CODE)
                .message(&message)
                .note("the model reads `meaning` to understand the error and `agent_action` to decide what to do next; both are required")
                .help(&help);
            if let Some(v) = lw.required_at(m, key, site) {
                lw.str_value_at(
                    &v.value,
                    &format!("{path}.{key}"),
                    1,
                    usize::MAX,
                    Site::default().help(&help),
                );
            }
        }
        // Keys other than the two are not part of the entry; "did you mean" catches typos.
        for k in m.node.as_map().unwrap_or_default() {
            if !ERROR_CODE_KEYS.contains(&k.key.as_str())
                && let Some(h) = did_you_mean(&k.key, ERROR_CODE_KEYS.iter().copied())
            {
                let d = lw
                    .diag(
                        &rules::UNKNOWN_KEY,
                        k.key_span,
                        format!("unknown key `{path}.{}`", k.key),
                    )
                    .label("unknown key")
                    .note(CLOSED_NOTE)
                    .help(format!("did you mean `{h}`?"))
                    .maybe_fix(
                        m.node
                            .get(h)
                            .is_none()
                            .then(|| rename_key(lw.file, k.key_span, h)),
                    );
                lw.push(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences() {
        assert_eq!(sentence_count("One."), 1);
        assert_eq!(sentence_count("One. Two! Three?"), 3);
        assert_eq!(sentence_count("Use it, e.g. for search. Or not"), 2);
        assert_eq!(sentence_count("Scores 0.0–1.0 apply. Fine."), 2);
        assert_eq!(sentence_count("Wait... then go."), 2);
    }

    #[test]
    fn versions() {
        assert!(semver_problem("1.0.0").is_none());
        assert_eq!(
            semver_problem("v1.0.0").unwrap().1.as_deref(),
            Some("1.0.0")
        );
        assert_eq!(
            semver_problem("1.0.0-beta").unwrap().1.as_deref(),
            Some("1.0.0")
        );
        assert_eq!(semver_problem("1.2").unwrap().1.as_deref(), Some("1.2.0"));
        assert_eq!(
            semver_problem("01.2.3").unwrap().1.as_deref(),
            Some("1.2.3")
        );
        assert!(semver_problem("one").unwrap().1.is_none());
        assert!(is_version_string("1.2") && !is_version_string("v1"));
    }

    #[test]
    fn dates_and_none() {
        assert!(is_iso_date("2024-02-29"));
        assert!(!is_iso_date("2023-02-29"));
        assert!(!is_iso_date("2025-4-01"));
        assert!(declares_none("None. Read-only."));
        assert!(declares_none("none"));
        assert!(!declares_none("Nonetheless sends mail"));
    }

    #[test]
    fn body_sections() {
        let text = "---\na: 1\n---\n# Purpose\nx\n```\n# Notes\n```\n# Other\ny\n# notes\nz\n";
        let s = doc_sections(text, 13);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].title, "purpose");
        assert_eq!(
            &text[s[0].content.start..s[0].content.end],
            "x\n```\n# Notes\n```\n"
        );
        assert_eq!(s[1].title, "notes");
    }
}
