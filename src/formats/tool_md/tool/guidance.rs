//! What the model reads before calling the tool: `use_guidance` (when to use it, when not,
//! and the side effects an `action` must declare) and `error_codes`.

use super::super::Spanned;
use super::{CLOSED_NOTE, ToolType};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::DidYouMean;
use crate::formats::fields::{Lowerer, MapRef, Site, rename_key};
use crate::rules::tool_md as rules;
use crate::source::Span;
use crate::syntax::NodeKind;

const USE_GUIDANCE_KEYS: &[&str] = &["use_when", "avoid_when", "side_effects"];
const ERROR_CODE_KEYS: &[&str] = &["meaning", "agent_action"];

pub(super) fn use_guidance(
    lw: &mut Lowerer<'_>,
    map: MapRef<'_>,
    kind: Option<&Spanned<ToolType>>,
) {
    let Some(entry) = lw.required(map, "use_guidance") else {
        return;
    };
    let Some(u) = lw.as_map(&entry.value, entry.key_span(), "use_guidance") else {
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
                // Counted as read: a list of millions held a tuple each.
                let strings =
                    lw.str_items(&e.value, &format!("use_guidance.{key}"), true, |_, _| {});
                if strings > 0 || e.value.as_list().is_none_or(|s| !s.is_empty()) {
                    continue;
                }
                (
                    e.value.span(),
                    format!("`use_guidance.{key}` is empty"),
                    "no conditions listed".to_string(),
                )
            }
            None => (
                entry.key_span(),
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
                    says_none = Some(e.value.span());
                }
            }
            NodeKind::Seq(items) => {
                let mut all_none = true;
                let strings = lw.str_items(&e.value, "use_guidance.side_effects", true, |t, _| {
                    all_none &= declares_none(t);
                });
                if strings == items.len() && all_none {
                    says_none = Some(e.value.span());
                }
            }
            NodeKind::Null => says_none = Some(e.value.span()),
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
            entry.key_span(),
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

pub(super) fn error_codes(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(e) = map.node.get("error_codes") else {
        return;
    };
    let Some(codes) = lw.as_map(&e.value, e.key_span(), "error_codes") else {
        return;
    };
    for entry in codes.node.as_map().unwrap_or_default() {
        let path = format!("error_codes.{}", entry.key);
        let Some(m) = lw.as_map(&entry.value, entry.key_span(), &path) else {
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
                        k.key_span(),
                        format!("unknown key `{path}.{}`", k.key),
                    )
                    .label("unknown key")
                    .note(CLOSED_NOTE)
                    .did_you_mean_or(
                        m.node
                            .get(h)
                            .is_none()
                            .then(|| DidYouMean::new(h, rename_key(lw.file, k.key_span(), h))),
                        format!("`{h}` is set already: merge this into it, or remove this key"),
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
    fn declared_none() {
        assert!(declares_none("None. Read-only."));
        assert!(declares_none("none"));
        assert!(!declares_none("Nonetheless sends mail"));
    }
}
