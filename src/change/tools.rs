//! Whole tools compared: removed, renamed, disabled, and agents whose references the change
//! broke.

use std::collections::HashMap;

use super::Pair;
use super::briefs::{Briefs, Named};
use crate::diagnostics::Diagnostic;
use crate::formats::FileResult;
use crate::formats::tool_md;
use crate::ir::LeftOut;
use crate::rules::breaking as rules;

/// BRK001, on the old file: the tool is not there to point at in the new one. `now` is the
/// working tree's version of its file, when there is one.
pub(super) fn removed(old: &Named<'_, '_>, now: Option<&FileResult>, base: &str) -> Diagnostic {
    let name = old.name;
    let d = Diagnostic::new(
        &rules::TOOL_REMOVED,
        old.file,
        old.name_span,
        format!("tool `{name}` was removed"),
    )
    .label(format!("defined here in {base}, gone now"));
    let broken = now.is_some_and(|r| {
        r.diagnostics
            .iter()
            .any(|d| d.severity == crate::rules::Severity::Error)
    });
    let d = if broken {
        d.note("its file is still there but has errors: the runtime loads no tool from it, and `toolc check` says why")
    } else {
        d
    };
    d.note(format!(
        "agents, saved plans and programs that call `{name}` now fail: the runtime has no such tool"
    ))
    .help("keep the tool (say it is deprecated in its description) until nothing calls it, or remove it in a major version")
}

/// BRK002, on the new name.
pub(super) fn renamed(pair: &Pair<'_>) -> Diagnostic {
    let (from, to) = (&pair.old.tool.name, &pair.new.tool.name);
    Diagnostic::new(
        &rules::TOOL_RENAMED,
        pair.new.file,
        pair.new.name_span,
        format!("tool `{from}` was renamed to `{to}`"),
    )
    .label(format!("renamed from `{from}`"))
    .related(
        pair.old.file,
        pair.old.name_span,
        format!("in {}: `{from}`", pair.base),
    )
    .note(format!(
        "callers know the tool by its name: every call of `{from}` now fails"
    ))
    .help(format!(
        "keep `{from}` as well until callers have moved, or rename it in a major version"
    ))
}

/// BRK003, on what now leaves the tool out (its `status`, the policy's entry).
pub(super) fn disabled(old: &Named<'_, '_>, left_out: &LeftOut, base: &str) -> Diagnostic {
    let name = old.name;
    let message = format!("tool `{name}` is now left out: {}", left_out.reason);
    let d = match &left_out.site {
        Some(site) => Diagnostic::new(&rules::TOOL_DISABLED, &site.file, site.span, message)
            .label("leaves the tool out")
            .related(old.file, old.name_span, format!("in {base}: loaded")),
        None => Diagnostic::new(&rules::TOOL_DISABLED, old.file, old.name_span, message)
            .label(format!("loaded in {base}, left out now")),
    };
    d.note(format!(
        "the runtime no longer loads `{name}`: every call of it now fails"
    ))
    .help("disable a tool in a major version, after callers have moved")
}

/// BRK004: each agent reference to a tool-md tool the old side had and the new side lacks.
pub(super) fn agents(
    results: &[FileResult],
    old: &Briefs<'_>,
    new: &Briefs<'_>,
    renamed: &HashMap<&str, &str>,
    base: &str,
) -> Vec<Diagnostic> {
    let tool_md = "tool-md";
    let had: HashMap<&str, Named<'_, '_>> = old
        .iter()
        .filter(|l| l.format == tool_md)
        .map(|l| (l.name, l))
        .collect();
    let now: std::collections::HashSet<&str> = new
        .iter()
        .filter(|l| l.format == tool_md)
        .map(|l| l.name)
        .collect();
    let has = |id: &str| now.contains(id);
    let mut out = Vec::new();
    for r in results {
        let Some(tool_md::Item::Agent(agent)) = r.item.get::<tool_md::Item>() else {
            continue;
        };
        for reference in &agent.refs {
            let Some(tool) = had.get(reference.id.as_str()) else {
                continue;
            };
            if has(&reference.id) {
                continue;
            }
            let what = match renamed.get(reference.id.as_str()) {
                Some(to) => format!("was renamed to `{to}`"),
                None => "is no longer loaded".to_string(),
            };
            let mut d = Diagnostic::new(
                &rules::AGENT_REFERENCE_BROKEN,
                &r.file,
                reference.span,
                format!("this agent uses tool `{}`, which {what}", reference.id),
            )
            .label("no such tool now")
            .related(
                tool.file,
                tool.name_span,
                format!("in {base}: defined here"),
            )
            .note("the agent no longer compiles, and the plans it made with this tool fail");
            d = match renamed.get(reference.id.as_str()) {
                Some(to) => d.help(format!("reference `{to}` instead")),
                None => d.help("restore the tool, or remove it from the agent's `tools.refs`"),
            };
            out.push(d);
        }
    }
    out
}
