//! `agents/<agent_id>.json`: each `*.agent.md` with its tools resolved. Tools are given by
//! reference — their canonical name, the `name` in every target file and in
//! `toolc.bundle.json` — so one agent file serves every provider.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::Selection;
use crate::formats::FileResult;
use crate::formats::tool_md::{self, Agent};
use crate::ir::Tool;

/// One compiled agent.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentBundle {
    /// `agent_id`.
    pub agent_id: String,
    /// `meta.name`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The agent file.
    pub path: String,
    /// The tools it may call, in the order the agent lists them.
    pub tools: Vec<AgentTool>,
    /// `policies.require_human_approval`: every call waits for a human.
    pub approval_for_every_call: bool,
    /// What the model is told about when to use each tool, from `use_guidance`.
    pub instructions: String,
}

/// One tool of an agent.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentTool {
    /// The tool's canonical name.
    pub name: String,
    /// `approval_required` on the ref, or the guardrail `require_user_confirmation_for`, or
    /// the agent-wide approval.
    pub approval_required: bool,
}

/// Every selected agent with an id, sorted by id. References that do not resolve were reported by the
/// check (REF rules); they are not listed.
pub(crate) fn compile(
    results: &[FileResult],
    selection: &Selection<'_>,
    tools: &[Tool],
) -> Vec<AgentBundle> {
    // Agents reference `*.tool.md` ids; the first tool of a name is the one bundled. Looked
    // up, not searched: an agent of many refs searched every tool for each.
    let mut by_id: HashMap<&str, &Tool> = HashMap::new();
    for t in tools.iter().filter(|t| t.provenance.format == "tool-md") {
        by_id.entry(t.name.as_str()).or_insert(t);
    }
    let mut out: Vec<AgentBundle> = results
        .iter()
        .filter(|r| selection.takes(r))
        .filter_map(|r| match r.item.get::<tool_md::Item>() {
            Some(tool_md::Item::Agent(a)) => agent(
                a,
                &crate::fs::display_path(&r.file.path, selection.root),
                &by_id,
            ),
            _ => None,
        })
        .collect();
    out.sort_by(|a, b| (&a.agent_id, &a.path).cmp(&(&b.agent_id, &b.path)));
    out
}

/// The id of every agent file in `results`, whatever its errors or the paths built.
pub(crate) fn all_ids(results: &[FileResult]) -> std::collections::BTreeSet<String> {
    results
        .iter()
        .filter_map(|r| match r.item.get::<tool_md::Item>() {
            Some(tool_md::Item::Agent(a)) => a.id.as_ref().map(|id| id.value.clone()),
            _ => None,
        })
        .collect()
}

fn agent(a: &Agent, path: &str, by_id: &HashMap<&str, &Tool>) -> Option<AgentBundle> {
    let id = a.id.as_ref()?;
    let mut list = Vec::new();
    let mut instructions = String::new();
    let confirmations: HashSet<&str> = a.confirmations.strs().collect();
    for r in &a.refs {
        let Some(tool) = by_id.get(r.id.as_str()) else {
            continue;
        };
        let confirm = confirmations.contains(r.id.as_str());
        list.push(AgentTool {
            name: tool.name.clone(),
            approval_required: r.approval_required || confirm || a.approval_for_every_call,
        });
        if let Some(g) = &tool.guidance {
            instructions.push_str(&format!("## {}\n", tool.name));
            for u in &g.use_when {
                instructions.push_str(&format!("- Use when {}.\n", sentence(u)));
            }
            for u in &g.avoid_when {
                instructions.push_str(&format!("- Do not use when {}.\n", sentence(u)));
            }
            for s in &g.side_effects {
                instructions.push_str(&format!("- Side effect: {}.\n", sentence(s)));
            }
            instructions.push('\n');
        }
    }
    let name = a.name.clone();
    Some(AgentBundle {
        agent_id: id.value.clone(),
        name,
        path: path.to_string(),
        tools: list,
        approval_for_every_call: a.approval_for_every_call,
        instructions: instructions.trim_end().to_string(),
    })
}

/// A guidance item as a clause: trimmed, without the full stop the template adds.
fn sentence(text: &str) -> &str {
    text.trim().trim_end_matches('.').trim_end()
}
