//! One `*.tool.md` file: the front matter lowered field by field against the spec's field
//! reference, its hard validation failures, and its recommended lints. The top-level walk,
//! `type`, `status` and the file's place are here; `tool/identity.rs`, `tool/meta.rs` and
//! `tool/guidance.rs` hold their fields, `interface.rs` and `transport.rs` theirs.

mod guidance;
mod identity;
mod layout;
mod meta;

use serde::{Deserialize, Serialize};
use std::path::Component;

use self::guidance::{error_codes, use_guidance};
use self::identity::{spec_version, tool_id, version};
use self::meta::meta;
use super::{Spanned, interface, transport};
use crate::formats::fields::{Lowerer, MapRef, Site};
use crate::rules::tool_md as rules;
use crate::source::Span;
use crate::syntax::Node;
use crate::syntax::front_matter::FrontMatter;

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
const INTERFACE_KEYS: &[&str] = &["input", "output"];

/// What the compiler does with a key outside a closed set.
const CLOSED_NOTE: &str = "the key sets of a tool file are closed: the compiler rejects a file with a key it does not define";

/// The behavioural contract of a tool (`type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ToolType {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Status {
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

    pub(super) fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "draft" => Status::Draft,
            "active" => Status::Active,
            "deprecated" => Status::Deprecated,
            "disabled" => Status::Disabled,
            _ => return None,
        })
    }

    /// The spelling used in files.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Active => "active",
            Status::Deprecated => "deprecated",
            Status::Disabled => "disabled",
        }
    }
}

/// A lowered tool file: what the cross-file checks and the bundles need.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Tool {
    /// `tool_id`, when present and valid.
    pub id: Option<Spanned<String>>,
    /// `status`, when present and valid.
    pub status: Option<Spanned<Status>>,
    /// `type`, when present and valid.
    pub kind: Option<Spanned<ToolType>>,
    /// The `<stem>` of the file name `<stem>.tool.md`.
    pub file_stem: Option<String>,
    /// What the bundle lowering needs of the front matter (`ir.rs`).
    pub doc: Option<Box<super::doc::ToolDoc>>,
    /// What the model reads, for the security pass (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
}

/// Lower the front matter `root` of a tool file into `tool`, reporting into `lw`.
pub(super) fn lower(lw: &mut Lowerer<'_>, root: &Node, fm: &FrontMatter, tool: &mut Tool) {
    let Some(map) = lw.as_map(root, fm.open, "") else {
        return;
    };
    lw.unknown_keys(map, TOP_KEYS, CLOSED_NOTE);
    layout::old_layout(lw, map);
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
            .is_some_and(|m| m.value.entries().is_some())
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
    value.map(|v| (v, e.value.span()))
}

fn interface_block(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(i) = lw
        .required(map, "interface")
        .and_then(|e| lw.as_map(&e.value, e.key_span(), "interface"))
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
