//! Repository-wide checks: one tool per id (TMD024), one agent per id (TMD040), and every
//! agent reference against the tools (REF020–REF023, SEC030). Tools are indexed by id once,
//! so each reference costs one lookup; "did you mean" compares only ids with the same first
//! letter, within a budget.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::agent::Agent;
use super::tool::{Status, Tool, ToolType};
use super::{Item, Spanned};
use crate::analysis::names::Suggester;
use crate::analysis::registry;
use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::formats::fields::replace_exact;
use crate::formats::format::FileResult;
use crate::rules::{references as refs, security, tool_md as rules};
use crate::source::{SourceFile, Span};

/// How many id comparisons "did you mean" may spend on one repository.
const SUGGESTION_BUDGET: usize = 1_000_000;

/// A tool with a valid id, and its file.
struct Registered<'a> {
    file: &'a Arc<SourceFile>,
    tool: &'a Tool,
    id: &'a Spanned<String>,
}

/// Every cross-file diagnostic of tool and agent files.
pub(super) fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    let mut tools: Vec<Registered<'_>> = Vec::new();
    let mut agents: Vec<(&Arc<SourceFile>, &Agent)> = Vec::new();
    // Tool files whose id could not be read, by file name: a reference to one of them is
    // explained by that file's own errors.
    let mut unreadable: HashMap<&str, &Arc<SourceFile>> = HashMap::new();
    for r in results {
        match r.item.get::<Item>() {
            Some(Item::Tool(tool)) => match &tool.id {
                Some(id) => tools.push(Registered {
                    file: &r.file,
                    tool,
                    id,
                }),
                None => {
                    if let Some(stem) = &tool.file_stem {
                        unreadable.entry(stem.as_str()).or_insert(&r.file);
                    }
                }
            },
            Some(Item::Agent(agent)) => agents.push((&r.file, agent)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    // Results are sorted by path, so the first file with an id is "first defined here".
    // Tool ids and agent ids are each unique across the whole repository.
    for dup in registry::duplicates(tools.iter().map(|t| Some(((), t.id.value.as_str())))) {
        out.push(duplicate(&tools[dup.first], &tools[dup.again]));
    }
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(tools.len());
    for (i, t) in tools.iter().enumerate() {
        index.entry(&t.id.value).or_insert(i);
    }
    let agent_ids: Vec<Option<(&Arc<SourceFile>, &Spanned<String>)>> = agents
        .iter()
        .map(|(file, agent)| agent.id.as_ref().map(|id| (*file, id)))
        .collect();
    for dup in registry::duplicates(
        agent_ids
            .iter()
            .map(|a| a.map(|(_, id)| ((), id.value.as_str()))),
    ) {
        if let (Some(first), Some(again)) = (agent_ids[dup.first], agent_ids[dup.again]) {
            out.push(duplicate_agent(first, again));
        }
    }
    // Candidates in file order: the first tool of each id.
    let mut suggester = Suggester::new(
        tools
            .iter()
            .enumerate()
            .filter(|(i, t)| index.get(t.id.value.as_str()) == Some(i))
            .map(|(i, t)| (t.id.value.as_str(), i)),
        SUGGESTION_BUDGET,
    );
    for (file, agent) in agents {
        let confirmations: HashSet<&str> = agent.confirmations.strs().collect();
        // Capped per rule as they are found: an agent of 400,000 refs to unknown tools built
        // a finding for each (665 MB for 40 MB of refs).
        let mut found = Findings::default();
        for r in &agent.refs {
            let Some(&i) = index.get(r.id.as_str()) else {
                if found.counted(&refs::UNREGISTERED_TOOL_REF) {
                    continue;
                }
                let suggestion = suggester.suggest(&r.id).map(|(_, i)| &tools[i]);
                found.push(unregistered(
                    file,
                    &r.id,
                    r.span,
                    suggestion,
                    unreadable.get(r.id.as_str()).copied(),
                ));
                continue;
            };
            let t = &tools[i];
            if let Some(d) = status_diagnostic(file, &r.id, r.span, t) {
                found.push(d);
            }
            let confirmed = r.approval_required
                || agent.approval_for_every_call
                || confirmations.contains(r.id.as_str());
            if let Some(kind) = &t.tool.kind
                && kind.value == ToolType::Action
                && !confirmed
            {
                if found.counted(&security::UNCONFIRMED_ACTION_TOOL) {
                    continue;
                }
                found.push(
                    Diagnostic::new(
                        &security::UNCONFIRMED_ACTION_TOOL,
                        file,
                        r.span,
                        format!("the agent may call the `action` tool `{}` without asking a human", r.id),
                    )
                    .label("no confirmation required")
                    .related(t.file, t.id.span, format!("`{}` is defined here", r.id))
                    .related(t.file, kind.span, "declared an `action`: calls have side effects")
                    .note("the model decides when to call it; nothing stops a wrong or injected call from taking effect")
                    .help(format!("add `approval_required: true` to this ref, or list `{}` in `guardrails.tool_calls.require_user_confirmation_for`", r.id)),
                );
            }
        }
        out.extend(found);
    }
    out
}

/// TMD024 on the later of two tools with one id.
fn duplicate(first: &Registered<'_>, again: &Registered<'_>) -> Diagnostic {
    Diagnostic::new(
        &rules::DUPLICATE_TOOL_ID,
        again.file,
        again.id.span,
        format!(
            "tool id `{}` is already defined by another tool file",
            again.id.value
        ),
    )
    .label("duplicate id")
    .related(first.file, first.id.span, "first defined here")
    .note("tool ids are unique across the repository: agents refer to tools by id, so they cannot tell these two apart")
    .help("give one of them a new `tool_id` (and file name), or delete the copy")
}

/// TMD040 on the later of two agents with one id.
fn duplicate_agent(
    first: (&Arc<SourceFile>, &Spanned<String>),
    again: (&Arc<SourceFile>, &Spanned<String>),
) -> Diagnostic {
    Diagnostic::new(
        &rules::DUPLICATE_AGENT_ID,
        again.0,
        again.1.span,
        format!(
            "agent id `{}` is already used by another agent file",
            again.1.value
        ),
    )
    .label("duplicate id")
    .related(first.0, first.1.span, "first used here")
    .note("agent ids are unique across the repository: a runtime loads an agent by id, and `toolc build` writes one `agents/<agent_id>.json`, so one of the two is lost")
    .help("give one of them a new `agent_id`, or delete the copy")
}

/// REF020: a reference to an id no tool file defines.
fn unregistered(
    file: &Arc<SourceFile>,
    id: &str,
    span: Span,
    suggestion: Option<&Registered<'_>>,
    broken: Option<&Arc<SourceFile>>,
) -> Diagnostic {
    if let Some(b) = broken {
        return Diagnostic::new(
            &refs::UNREGISTERED_TOOL_REF,
            file,
            span,
            format!("the tool `{id}` is not registered: its file has errors"),
        )
        .label("unregistered tool")
        .related(
            b,
            Span::point(b.bom_len),
            format!("`{id}.tool.md` defines no valid `tool_id`"),
        )
        .note("the compiler rejects the tool file, so nothing registers this id and the agent fails to compile")
        .help(format!("fix the errors in `{}`", b.display()));
    }
    let d = Diagnostic::new(
        &refs::UNREGISTERED_TOOL_REF,
        file,
        span,
        format!("no tool file defines the tool id `{id}`"),
    )
    .label("unknown tool")
    .note("references must resolve to a registered `*.tool.md`: the compiler rejects this agent");
    let hint = suggestion.as_ref().and_then(|s| {
        let fix = replace_exact(file, span, id, &s.id.value, Applicability::Unsafe);
        DidYouMean::fixed_by(&s.id.value, fix)
    });
    let d = match suggestion {
        Some(s) => d.related(s.file, s.id.span, format!("did you mean `{}`?", s.id.value)),
        None => d,
    };
    d.did_you_mean_or(
        hint,
        format!("add `tools/{id}.tool.md`, or remove this reference"),
    )
}

/// REF021–REF023: a reference to a tool that is disabled, deprecated or still a draft.
fn status_diagnostic(
    file: &Arc<SourceFile>,
    id: &str,
    span: Span,
    t: &Registered<'_>,
) -> Option<Diagnostic> {
    let status = t.tool.status.as_ref()?;
    let (rule, message, note, help) = match status.value {
        Status::Active => return None,
        Status::Disabled => (
            &refs::DISABLED_TOOL_REF,
            format!("`{id}` is disabled, and this agent still references it"),
            "agents that reference a disabled tool fail hard validation: this agent cannot be compiled",
            format!(
                "remove the reference to `{id}`, or replace it with the tool that supersedes it"
            ),
        ),
        Status::Deprecated => (
            &refs::DEPRECATED_TOOL_REF,
            format!("`{id}` is deprecated"),
            "a deprecated tool still works, but it is on its way out: once it is disabled, this agent fails to compile",
            format!("move this agent off `{id}` to the tool that replaces it"),
        ),
        Status::Draft => (
            &refs::DRAFT_TOOL_REF,
            format!("`{id}` is still a draft"),
            "draft tools are not approved for production use, so this agent should not ship with it",
            format!("wait until `{id}` is `active`, or drop the reference before publishing"),
        ),
    };
    Some(
        Diagnostic::new(rule, file, span, message)
            .label(format!("references a `{}` tool", status.value.as_str()))
            .related(
                t.file,
                status.span,
                format!("`{id}` is `{}` here", status.value.as_str()),
            )
            .note(note)
            .help(help),
    )
}
