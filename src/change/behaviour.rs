//! What a tool does, compared: how it runs, what it may touch, and what the model is told
//! about it (description, title, use guidance). A changed instruction is where poisoning
//! hides, so each text change carries a word diff for the reviewer.

use std::collections::BTreeMap;

use serde_json::Value;

use super::words;
use super::{Pair, Shown};
use crate::diagnostics::Diagnostic;
use crate::ir::{Access, Guidance, Risk, Run};
use crate::rules::breaking as rules;

/// Findings about the behaviour of one matched tool.
pub(super) fn compare(pair: &Pair<'_>, shown: &Shown<'_>, out: &mut Vec<Diagnostic>) {
    run(pair, shown, out);
    settings(pair, shown, out);
    risk(pair, out);
    texts(pair, shown, out);
    guidance(pair, shown, out);
}

/// One line saying how a tool runs.
fn summary(run: &Run) -> String {
    match run {
        Run::Argv { argv } => format!("`{}`", words::clip(&argv.join(" "), 80)),
        Run::Script { shell, .. } => format!("a `{shell}` script"),
        Run::Steps { steps } => format!("{} step(s)", steps.len()),
        Run::Transport { transport } => {
            let kind = transport.get("type").and_then(Value::as_str).unwrap_or("?");
            format!("a `{kind}` transport")
        }
        Run::Generate { files, .. } => format!("an LLM writing {}", list(files)),
        Run::Tool { tool, mcp, .. } => match mcp {
            Some(server) => format!("tool `{tool}` of MCP server `{server}`"),
            None => format!("tool `{tool}`"),
        },
        Run::InProcess => "in the runtime's process".to_string(),
        Run::Human => "by a human".to_string(),
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        return "no file".to_string();
    }
    let shown: Vec<String> = items.iter().take(5).map(|f| format!("`{f}`")).collect();
    let more = items.len().saturating_sub(5);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Top-level keys of two transports whose values differ, sorted.
fn changed_keys(old: &Value, new: &Value) -> Vec<String> {
    let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
        return vec!["transport".into()];
    };
    let mut keys: Vec<String> = o
        .keys()
        .chain(n.keys())
        .filter(|k| o.get(*k) != n.get(*k))
        .cloned()
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// What changed in how a tool runs, in words, and a word diff of the text when there is one.
fn run_change(old: &Run, new: &Run) -> Option<(String, Option<String>)> {
    if old == new {
        return None;
    }
    Some(match (old, new) {
        (Run::Argv { argv: a }, Run::Argv { argv: b }) if a.first() != b.first() => (
            format!(
                "now runs program `{}` instead of `{}`",
                b.first().map_or("", String::as_str),
                a.first().map_or("", String::as_str)
            ),
            Some(words::diff(&a.join(" "), &b.join(" "))),
        ),
        (Run::Argv { argv: a }, Run::Argv { argv: b }) => (
            "runs its program with different arguments".into(),
            Some(words::diff(&a.join(" "), &b.join(" "))),
        ),
        (
            Run::Script {
                script: a,
                shell: sa,
            },
            Run::Script {
                script: b,
                shell: sb,
            },
        ) => (
            if sa == sb {
                format!("runs a different `{sb}` script")
            } else {
                format!("runs its script with `{sb}` instead of `{sa}`")
            },
            Some(words::diff(a, b)),
        ),
        (Run::Transport { transport: a }, Run::Transport { transport: b }) => {
            let keys = changed_keys(a, b);
            let shown: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            let (ka, kb) = (a.get("type"), b.get("type"));
            let what = if ka != kb {
                format!("now uses {} instead of {}", summary(new), summary(old))
            } else {
                format!("calls a different endpoint ({} changed)", shown.join(", "))
            };
            let before = keys
                .iter()
                .filter_map(|k| {
                    let show =
                        |v: Option<&Value>| v.map_or("(none)".to_string(), super::schema::short);
                    (a.get(k) != b.get(k))
                        .then(|| format!("`{k}`: {} → {}", show(a.get(k)), show(b.get(k))))
                })
                .collect::<Vec<_>>()
                .join("; ");
            (what, Some(before))
        }
        (
            Run::Generate {
                files: fa,
                verification: va,
            },
            Run::Generate {
                files: fb,
                verification: vb,
            },
        ) => {
            if fa != fb {
                (format!("now writes {} (was {})", list(fb), list(fa)), None)
            } else {
                (
                    "runs a different verification command".into(),
                    Some(words::diff(
                        va.as_deref().unwrap_or(""),
                        vb.as_deref().unwrap_or(""),
                    )),
                )
            }
        }
        (Run::Steps { steps: a }, Run::Steps { steps: b }) => {
            let at = a
                .iter()
                .zip(b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            (
                format!("runs different steps (from step {} on)", at + 1),
                None,
            )
        }
        _ => (
            format!("now runs {} instead of {}", summary(new), summary(old)),
            None,
        ),
    })
}

fn run(pair: &Pair<'_>, shown: &Shown<'_>, out: &mut Vec<Diagnostic>) {
    let (old, new) = (&pair.old.tool.run, &pair.new.tool.run);
    if old == new {
        return;
    }
    let span = pair.new_site(pair.new.sites.run);
    out.push(pair.finding(shown, &rules::RUN_CHANGED, span, || run_changed(pair, span)));
}

fn run_changed(pair: &Pair<'_>, span: crate::source::Span) -> Diagnostic {
    let (old, new) = (&pair.old.tool.run, &pair.new.tool.run);
    let (what, text) = run_change(old, new).unwrap_or_default();
    let name = &pair.new.tool.name;
    let mut d = Diagnostic::new(
        &rules::RUN_CHANGED,
        pair.new.file,
        span,
        format!("`{name}` {what}"),
    )
    .label("runs differently")
    .related(
        pair.old.file,
        pair.old_site(pair.old.sites.run),
        format!("in {}: ran {}", pair.base, summary(old)),
    )
    .note("callers and reviewers approved what the tool ran before; the same call now does something else")
    .help("review the new command as if it were a new tool");
    if let Some(text) = text {
        d = d.note(format!("changed: {text}"));
    }
    d
}

/// BRK034: one finding naming every run setting (timeout, permissions, …) that changed.
fn settings(pair: &Pair<'_>, shown: &Shown<'_>, out: &mut Vec<Diagnostic>) {
    let (old, new) = (&pair.old.tool.settings, &pair.new.tool.settings);
    if old == new {
        return;
    }
    let span = pair.new_site(pair.new.sites.settings);
    out.push(pair.finding(shown, &rules::RUN_SETTINGS_CHANGED, span, || {
        settings_changed(pair, span)
    }));
}

fn settings_changed(pair: &Pair<'_>, span: crate::source::Span) -> Diagnostic {
    let (old, new) = (&pair.old.tool.settings, &pair.new.tool.settings);
    let (old, new): (BTreeMap<_, _>, BTreeMap<_, _>) = (old.iter().collect(), new.iter().collect());
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).copied().collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&String>| {
        v.map_or("(not set)".to_string(), |v| {
            format!("`{}`", words::clip(v, 60))
        })
    };
    let changes: Vec<String> = keys
        .into_iter()
        .filter(|k| old.get(*k) != new.get(*k))
        .map(|k| {
            let (was, is) = (old.get(k).copied(), new.get(k).copied());
            format!("`{k}`: {} → {}", show(was), show(is))
        })
        .collect();
    let name = &pair.new.tool.name;
    Diagnostic::new(
        &rules::RUN_SETTINGS_CHANGED,
        pair.new.file,
        span,
        format!("a run setting of `{name}` changed: {}", changes.join("; ")),
    )
    .label("runs with other settings")
    .related(
        pair.old.file,
        pair.old_site(pair.old.sites.settings),
        format!("in {}", pair.base),
    )
    .note("a timeout, a working folder, an environment or a permission decides what a run may do and when it is stopped")
    .help("review the new settings as part of the tool")
}

fn level(l: &Option<String>) -> u8 {
    match l.as_deref().map(str::to_ascii_uppercase).as_deref() {
        Some("LOW") => 1,
        Some("MEDIUM") => 2,
        Some("HIGH") => 3,
        Some("CRITICAL") => 4,
        _ => 0,
    }
}

fn access(a: Access) -> &'static str {
    match a {
        Access::Read => "only read",
        Access::Write => "write",
        Access::Run => "run programs",
    }
}

/// What a tool may now do that it could not before.
fn raised(old: &Risk, new: &Risk) -> Vec<String> {
    let mut out = Vec::new();
    if new.access > old.access {
        out.push(format!(
            "it may now {} (it could {} before)",
            access(new.access),
            access(old.access)
        ));
    } else if old.read_only && !new.read_only {
        out.push("it is no longer read-only".into());
    }
    if old.kind == Some("retrieval") && new.kind == Some("action") {
        out.push("it is now an action, not a retrieval".into());
    }
    if !old.destructive && new.destructive {
        out.push("it may now destroy or overwrite data".into());
    }
    if !old.open_world && new.open_world {
        out.push("it may now reach the network or outside services".into());
    }
    if level(&new.level) > level(&old.level) && level(&old.level) > 0 {
        out.push(format!(
            "its risk level went from `{}` to `{}`",
            old.level.as_deref().unwrap_or(""),
            new.level.as_deref().unwrap_or("")
        ));
    }
    out
}

fn risk(pair: &Pair<'_>, out: &mut Vec<Diagnostic>) {
    let reasons = raised(&pair.old.tool.risk, &pair.new.tool.risk);
    if reasons.is_empty() {
        return;
    }
    let name = &pair.new.tool.name;
    let mut d = Diagnostic::new(
        &rules::RISK_RAISED,
        pair.new.file,
        pair.new_site(pair.new.sites.risk),
        format!("`{name}` may do more than before: {}", reasons.join("; ")),
    )
    .label("riskier than before")
    .related(
        pair.old.file,
        pair.old_site(pair.old.sites.risk),
        format!("in {}: {}", pair.base, access(pair.old.tool.risk.access)),
    )
    .help("review what the tool may now touch; agents that auto-approve it may need to ask again");
    for r in reasons.iter().skip(1) {
        d = d.note(r.clone());
    }
    out.push(d);
}

fn texts(pair: &Pair<'_>, shown: &Shown<'_>, out: &mut Vec<Diagnostic>) {
    let (old, new) = (&pair.old.tool, &pair.new.tool);
    if old.description.trim() != new.description.trim() {
        out.push(text_change(
            (pair, shown),
            || format!("the description of `{}` changed", new.name),
            (pair.new.description_span, pair.old.description_span),
            &old.description,
            &new.description,
        ));
    }
    let (ot, nt) = (
        old.title.as_deref().unwrap_or(""),
        new.title.as_deref().unwrap_or(""),
    );
    if ot.trim() != nt.trim() {
        out.push(text_change(
            (pair, shown),
            || format!("the title of `{}` changed", new.name),
            (
                pair.new_site(pair.new.sites.title),
                pair.old_site(pair.old.sites.title),
            ),
            ot,
            nt,
        ));
    }
}

fn text_change(
    (pair, shown): (&Pair<'_>, &Shown<'_>),
    message: impl FnOnce() -> String,
    (new_span, old_span): (crate::source::Span, crate::source::Span),
    old: &str,
    new: &str,
) -> Diagnostic {
    pair.finding(shown, &rules::DESCRIPTION_CHANGED, new_span, || {
        Diagnostic::new(
            &rules::DESCRIPTION_CHANGED,
            pair.new.file,
            new_span,
            message(),
        )
        .label("the model reads this")
        .related(
            pair.old.file,
            old_span,
            format!("in {}: the old text", pair.base),
        )
        .note(format!("changed: {}", words::diff(old, new)))
        .help(
            "read the new text as the model will: instructions hidden in a description are obeyed",
        )
    })
}

fn guidance(pair: &Pair<'_>, shown: &Shown<'_>, out: &mut Vec<Diagnostic>) {
    let empty = Guidance::default();
    let old = pair.old.tool.guidance.as_ref().unwrap_or(&empty);
    let new = pair.new.tool.guidance.as_ref().unwrap_or(&empty);
    let lists = [
        ("use_when", &old.use_when, &new.use_when),
        ("avoid_when", &old.avoid_when, &new.avoid_when),
        ("side_effects", &old.side_effects, &new.side_effects),
    ];
    let changed: Vec<_> = lists.iter().filter(|(_, o, n)| o != n).collect();
    if changed.is_empty() {
        return;
    }
    let span = pair.new_site(pair.new.sites.guidance);
    out.push(pair.finding(shown, &rules::GUIDANCE_CHANGED, span, || {
        guidance_changed(pair, span, &changed)
    }));
}

/// The `(key, old, new)` of each list of the guidance that changed.
type Changed<'l> = [&'l (&'static str, &'l Vec<String>, &'l Vec<String>)];

fn guidance_changed(
    pair: &Pair<'_>,
    span: crate::source::Span,
    changed: &Changed<'_>,
) -> Diagnostic {
    let keys: Vec<String> = changed.iter().map(|(k, _, _)| format!("`{k}`")).collect();
    let mut d = Diagnostic::new(
        &rules::GUIDANCE_CHANGED,
        pair.new.file,
        span,
        format!(
            "the use guidance of `{}` changed ({})",
            pair.new.tool.name,
            keys.join(", ")
        ),
    )
    .label("the model reads this")
    .related(
        pair.old.file,
        pair.old_site(pair.old.sites.guidance),
        format!("in {}: the old guidance", pair.base),
    )
    .help("read the new guidance as the model will: it decides when the tool is called");
    for (key, o, n) in changed {
        d = d.note(format!(
            "`{key}` changed: {}",
            words::diff(&o.join(" / "), &n.join(" / "))
        ));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn risk(access: Access) -> Risk {
        Risk {
            access,
            kind: Some("retrieval"),
            level: None,
            read_only: access == Access::Read,
            destructive: false,
            idempotent: true,
            open_world: false,
        }
    }

    #[test]
    fn more_access_network_and_action_are_raised_risk() {
        let old = risk(Access::Read);
        assert!(raised(&old, &old).is_empty());
        let mut new = risk(Access::Write);
        new.kind = Some("action");
        new.open_world = true;
        let reasons = raised(&old, &new);
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        // Less is never raised.
        assert!(raised(&new, &old).is_empty());
    }

    #[test]
    fn a_new_program_is_named() {
        let a = Run::Argv {
            argv: vec!["ls".into(), "-l".into()],
        };
        let b = Run::Argv {
            argv: vec!["rm".into(), "-rf".into()],
        };
        let (what, text) = run_change(&a, &b).expect("changed");
        assert_eq!(what, "now runs program `rm` instead of `ls`");
        assert_eq!(text.as_deref(), Some("[-ls -l-] {+rm -rf+}"));
        assert!(run_change(&a, &a).is_none());
    }
}
