//! One `*.agent.md` file: its id, its tool references and the confirmations it asks for.
//! Whether the referenced tools exist and may be used is checked in `resolve`.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

use super::{Spanned, id_problem, is_valid_id, suggest_id};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::cap::MAX_PER_RULE;
use crate::diagnostics::{Applicability, DidYouMean, Fix};
use crate::formats::fields::{ItemPaths, Lowerer, MapRef, replace_exact};
use crate::rules::tool_md as rules;
use crate::source::Span;
use crate::syntax::{Entry, Node, NodeKind, Number};

/// Top-level keys of the agent format (the AML agent definition), so that only misspellings
/// and foreign keys are reported.
const AGENT_KEYS: &[&str] = &[
    "spec_version",
    "agent_id",
    "version",
    "status",
    "meta",
    "runtime",
    "interface",
    "input",
    "output",
    "tools",
    "knowledge",
    "memory",
    "state",
    "artifacts",
    "policies",
    "guardrails",
    "ui",
    "orchestration",
    "routing",
    "release",
    "observability",
    "evaluation",
    "testing",
    "notes",
];
const TOOLS_KEYS: &[&str] = &["tool_choice", "refs"];
const REF_KEYS: &[&str] = &["ref", "approval_required", "max_calls_per_run"];
const TOOL_CHOICES: &[&str] = &["none", "auto", "required"];

/// How many id comparisons "did you mean" may spend on one agent.
const SUGGESTION_BUDGET: usize = 100_000;

const UNKNOWN_NOTE: &str = "toolc checks only part of the agent format and does not know this key: if it is misspelt, the setting it was meant for is not applied";

/// One entry of `tools.refs`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ToolRef {
    /// The referenced tool id.
    pub id: String,
    /// Span of the id's value.
    pub span: Span,
    /// `approval_required: true`.
    pub approval_required: bool,
}

/// A lowered agent file: what the cross-file checks need.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Agent {
    /// `agent_id`, when present and valid.
    pub id: Option<Spanned<String>>,
    /// `tools.refs`, first occurrence of each id.
    pub refs: Vec<ToolRef>,
    /// `guardrails.tool_calls.require_user_confirmation_for`.
    pub confirmations: crate::formats::tree::SpannedStrings,
    /// `policies.require_human_approval: true`: every tool call waits for a human.
    pub approval_for_every_call: bool,
    /// References to knowledge bases, models and guardrails.
    pub definitions: Vec<super::definition::DefinitionRef>,
    /// `meta.name`, for the agent bundle.
    pub name: Option<String>,
    /// What the model reads, for the security pass (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
}

/// Lower the front matter `root` of an agent file into `agent`, reporting into `lw`.
pub(super) fn lower(lw: &mut Lowerer<'_>, root: &Node, open: Span, agent: &mut Agent) {
    let Some(map) = lw.as_map(root, open, "") else {
        return;
    };
    lw.unknown_keys(map, AGENT_KEYS, UNKNOWN_NOTE);
    if let Some((id, span)) = lw.required_str(map, "agent_id", 0, usize::MAX) {
        if is_valid_id(id) {
            agent.id = Some(Spanned {
                value: id.to_string(),
                span,
            });
        } else {
            let d = lw
                .diag(
                    &rules::INVALID_AGENT_ID,
                    span,
                    format!("agent id `{id}` does not match ^[a-z0-9_-]{{3,64}}$"),
                )
                .label(id_problem(id))
                .help(match suggest_id(id) {
                    Some(s) => format!("use `{s}` (and name the file `{s}.agent.md`)"),
                    None => "use 3 to 64 lowercase letters, digits, `_` or `-`".to_string(),
                })
                .maybe_fix(
                    suggest_id(id)
                        .and_then(|s| replace_exact(lw.file, span, id, &s, Applicability::Unsafe)),
                );
            lw.push(d);
        }
    }
    if let Some(e) = lw.required(map, "tools")
        && let Some(tools) = tools_map(lw, e)
    {
        lw.unknown_keys(tools, TOOLS_KEYS, UNKNOWN_NOTE);
        lw.optional_enum(tools, "tool_choice", TOOL_CHOICES);
        if let Some(refs) = lw.required(tools, "refs") {
            tool_refs(lw, &refs.value, agent);
        }
    }
    agent.approval_for_every_call = map
        .node
        .value("policies")
        .and_then(|p| p.value("require_human_approval"))
        .is_some_and(|v| v.kind == NodeKind::Bool(true));
    confirmations(lw, map, agent);
    agent.definitions = super::definition::references(root);
}

/// `tools` as a mapping; a bare list of refs gets the fix (it belongs under `tools.refs`).
fn tools_map<'n>(lw: &mut Lowerer<'_>, e: &'n Entry) -> Option<MapRef<'n>> {
    let map = lw.as_map(&e.value, e.key_span(), "tools");
    if map.is_none()
        && e.value
            .as_list()
            .is_some_and(|items| items.scan().any(|i| i.get("ref").is_some()))
        && let Some(d) = lw.diags.last_mut()
    {
        d.help = Some("put the entries under `refs:`: `tools:` then `  refs:` then `    - ref: \"<tool_id>\"`".to_string().into());
    }
    map
}

fn tool_refs(lw: &mut Lowerer<'_>, node: &Node, agent: &mut Agent) {
    let Some(items) = node.as_list() else {
        lw.wrong_type(node, "tools.refs", "a list of `- ref: <tool_id>` entries");
        return;
    };
    let mut seen: HashMap<String, Span> = HashMap::new();
    // An item at a time: a long list of small refs is held packed, and its nodes were all
    // built back at once (five times the list).
    let mut paths = ItemPaths::new("tools.refs");
    for (i, item) in items.scan().enumerate() {
        let item = &*item;
        let path = paths.at(i);
        if let Some(id) = item.as_str() {
            let d = lw
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    item.span(),
                    format!("`{path}` must be a mapping with `ref`, found a string"),
                )
                .label("expected `ref: <tool_id>`")
                .help(format!("write `- ref: \"{id}\"`"));
            lw.push(d);
            continue;
        }
        let anchor = item
            .as_map()
            .and_then(|m| m.first())
            .map_or(item.span(), |e| e.key_span());
        let Some(r) = lw.as_map(item, anchor, path) else {
            continue;
        };
        lw.unknown_keys(r, REF_KEYS, UNKNOWN_NOTE);
        let approval_required = lw.optional_bool(r, "approval_required") == Some(true);
        if let Some(e) = r.node.get("max_calls_per_run") {
            max_calls(lw, &e.value, &format!("{path}.max_calls_per_run"));
        }
        let Some((id, span)) = lw.required_str(r, "ref", 1, usize::MAX) else {
            continue;
        };
        if let Some(first) = seen.get(id) {
            let d = lw
                .diag(
                    &rules::DUPLICATE_TOOL_REF,
                    span,
                    format!("`{id}` is referenced twice by this agent"),
                )
                .label("second reference")
                .related(lw.file, *first, "first referenced here")
                .note("the agent gets the tool once: which entry's `approval_required` and `max_calls_per_run` apply is up to the compiler")
                .help("remove one of the two entries, keeping the stricter settings");
            lw.push(d);
            continue;
        }
        seen.insert(id.to_string(), span);
        agent.refs.push(ToolRef {
            id: id.to_string(),
            span,
            approval_required,
        });
    }
}

/// TMD039: `max_calls_per_run` must be a positive integer.
fn max_calls(lw: &mut Lowerer<'_>, node: &Node, path: &str) {
    let (found, help, fixed) = match &node.kind {
        NodeKind::Number(Number::Int(n)) if *n >= 1 => return,
        NodeKind::Number(Number::Int(n)) => (
            format!("{n}"),
            "use 1 or more; to keep the agent from calling the tool, remove the reference"
                .to_string(),
            None,
        ),
        NodeKind::Number(Number::Float(f)) if f.is_finite() && f.fract() == 0.0 && *f >= 1.0 => (
            format!("the number `{}`", lw.file.slice(node.span())),
            format!("write `{}`", *f as i64),
            Some((*f as i64).to_string()),
        ),
        NodeKind::String(s) if s.trim().parse::<u32>().is_ok_and(|n| n >= 1) => (
            format!("the string `\"{s}\"`"),
            format!("remove the quotes: `{}`", s.trim()),
            Some(s.trim().to_string()),
        ),
        _ => (
            node.type_name().to_string(),
            "write a whole number of calls, e.g. `max_calls_per_run: 1`".to_string(),
            None,
        ),
    };
    let d = lw
        .diag(
            &rules::INVALID_MAX_CALLS,
            node.span(),
            format!("`{path}` must be a positive integer, found {found}"),
        )
        .label("not a positive integer")
        .note("the runtime caps the tool's calls per run with this number; the compiler rejects any other value")
        .help(help)
        .maybe_fix(fixed.map(|n| Fix::safe(node.span(), n)));
    lw.push(d);
}

fn confirmations(lw: &mut Lowerer<'_>, map: MapRef<'_>, agent: &mut Agent) {
    let Some(list) = map
        .node
        .value("guardrails")
        .and_then(|g| g.value("tool_calls"))
        .and_then(|t| t.value("require_user_confirmation_for"))
    else {
        return;
    };
    // Read as they are written, strings borrowed, into one compact list: a list of a million
    // one-letter ids held a string, a span and two tuples each (40 times its size). Past the
    // cap on findings, an entry no ref names is only counted.
    let referenced: HashSet<&str> = agent.refs.iter().map(|r| r.id.as_str()).collect();
    let mut unreferenced = Vec::new();
    let mut uncounted = 0;
    let confirmations = &mut agent.confirmations;
    lw.str_items(
        list,
        "guardrails.tool_calls.require_user_confirmation_for",
        true,
        |id, span| {
            confirmations.push(id, span);
            if !id.is_empty() && !referenced.contains(id) {
                // One past the cap: its finding is the line that counts the rest.
                if unreferenced.len() <= MAX_PER_RULE {
                    unreferenced.push((id, span));
                } else {
                    uncounted += 1;
                }
            }
        },
    );
    confirmations.shrink();
    // Suggestions compare against every ref; a budget keeps a huge agent linear.
    let mut budget = SUGGESTION_BUDGET;
    for (id, span) in unreferenced {
        let hint = if agent.refs.len() <= budget {
            budget -= agent.refs.len();
            did_you_mean(id, agent.refs.iter().map(|r| r.id.as_str()))
        } else {
            None
        };
        let mut d = lw
            .diag(
                &rules::CONFIRMATION_FOR_UNREFERENCED_TOOL,
                span,
                format!("`{id}` needs user confirmation, but this agent does not reference it"),
            )
            .label("not in `tools.refs`")
            .note("a confirmation only guards tools the agent can call: this entry guards nothing, and the tool it was meant for may be missing from `tools.refs`");
        let meant = hint.and_then(|h| agent.refs.iter().find(|r| r.id == h));
        let fixed = meant.and_then(|r| {
            let fix = replace_exact(lw.file, span, id, &r.id, Applicability::Unsafe);
            DidYouMean::fixed_by(&r.id, fix)
        });
        if let Some(r) = meant {
            d = d.related(lw.file, r.span, format!("did you mean `{}`?", r.id));
        }
        d = d.did_you_mean_or(
            fixed,
            format!("add `- ref: \"{id}\"` to `tools.refs`, or remove this entry"),
        );
        lw.push(d);
    }
    for _ in 0..uncounted {
        lw.diags.count(&rules::CONFIRMATION_FOR_UNREFERENCED_TOOL);
    }
}
