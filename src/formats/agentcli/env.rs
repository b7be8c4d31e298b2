//! `envPassthrough`: the names agentcli accepts, how it rewrites them, and which look like
//! credentials (SEC010).

use std::collections::HashMap;

use super::{Cx, REFUSED, Who, field};
use crate::analysis::secrets::secret_name;
use crate::diagnostics::edits::replace_scalar;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::rules::agentcli as rules;
use crate::rules::security;
use crate::source::Span;
use crate::syntax::{Node, NodeKind};

/// Names a finding's note spells out at most.
const MAX_LISTED: usize = 20;

/// An `envPassthrough` entry agentcli rewrites: trimmed or upper-cased, or a repeat.
struct Rewritten<'n> {
    index: usize,
    node: &'n Node,
    /// The name agentcli reads.
    norm: String,
    /// The earlier entry it repeats (index and span), if it is a repeat.
    first: Option<(usize, Span)>,
}

impl Cx<'_> {
    pub(super) fn env(&mut self, node: &Node, who: &Who) {
        let Some(entry) = field(node, "envPassthrough") else {
            return;
        };
        let items = match &entry.value.kind {
            NodeKind::Null => return,
            NodeKind::Seq(items) => items,
            _ => {
                self.wrong_type(
                    &entry.value,
                    format!("{who}: `envPassthrough`"),
                    "a list of environment variable names",
                    None,
                );
                return;
            }
        };
        // What agentcli ends up with: trimmed, upper-cased, first occurrence kept.
        let mut kept: Vec<String> = Vec::new();
        let mut first_of: HashMap<String, (usize, Span)> = HashMap::new();
        let mut changed: Vec<Rewritten<'_>> = Vec::new();
        for (j, item) in items.iter().enumerate() {
            let Some(raw) = item.as_str() else {
                self.wrong_type(
                    item,
                    format!("{who}: `envPassthrough[{j}]`"),
                    "a string",
                    None,
                );
                continue;
            };
            let norm = raw.trim().to_uppercase();
            if !is_env_name(&norm) {
                let bad = norm
                    .char_indices()
                    .find(|(i, c)| {
                        !(c.is_ascii_uppercase() || *c == '_' || (*i > 0 && c.is_ascii_digit()))
                    })
                    .map(|(_, c)| c);
                let label = match bad {
                    Some(c) if norm.starts_with(c) && c.is_ascii_digit() => {
                        "starts with a digit".to_string()
                    }
                    Some(c) => format!("`{c}` is not allowed"),
                    None => "empty name".to_string(),
                };
                let fixed: String = norm
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                let hint = (!fixed.is_empty() && is_env_name(&fixed)).then(|| {
                    let fix = replace_scalar(self.file, item.span(), &fixed, Applicability::Unsafe);
                    DidYouMean::new(&fixed, fix)
                });
                let d = self
                    .diag(
                        &rules::INVALID_ENV_NAME,
                        item.span(),
                        format!("{who}: envPassthrough[{j}]: invalid name {raw:?} (must match [A-Z_][A-Z0-9_]*)"),
                    )
                    .label(label)
                    .note(REFUSED)
                    .did_you_mean_or(hint, "use letters, digits and `_`, not starting with a digit");
                self.push(d);
                continue;
            }
            let first = first_of.get(&norm).copied();
            if first.is_none() {
                self.credential(item, who, &norm);
            }
            if first.is_some() || norm != raw {
                changed.push(Rewritten {
                    index: j,
                    node: item,
                    norm: norm.clone(),
                    first,
                });
            }
            if first.is_none() {
                first_of.insert(norm.clone(), (j, item.span()));
                kept.push(norm);
            }
        }
        if changed.is_empty() {
            return;
        }
        // Each finding's note spells the list: a long one is shown by its start (a list of
        // megabytes was copied into every finding).
        let mut list = kept
            .iter()
            .take(MAX_LISTED)
            .map(|k| format!("{k:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        if kept.len() > MAX_LISTED {
            list.push_str(&format!(", … ({} more)", kept.len() - MAX_LISTED));
        }
        for Rewritten {
            index: j,
            node: item,
            norm,
            first,
        } in changed
        {
            let raw = item.as_str().unwrap_or_default();
            let d = match first {
                Some((i, span)) => self
                    .diag(
                        &rules::ENV_NAME_NORMALIZED,
                        item.span(),
                        format!("{who}: envPassthrough[{j}] {raw:?} duplicates envPassthrough[{i}] once normalised to {norm:?}"),
                    )
                    .label("dropped as a duplicate")
                    .related(self.file, span, format!("kept from envPassthrough[{i}]")),
                None => self
                    .diag(
                        &rules::ENV_NAME_NORMALIZED,
                        item.span(),
                        format!("{who}: envPassthrough[{j}] {raw:?} is passed as {norm:?}"),
                    )
                    .label(format!("read as `{norm}`")),
            };
            let d = d
                .note(format!(
                    "agentcli trims and upper-cases names and drops repeats: it passes [{list}]"
                ))
                .help(format!(
                    "write the list as agentcli reads it: `\"envPassthrough\": [{list}]`"
                ));
            self.push(d);
        }
    }

    /// SEC010: a passed-through variable whose name says it holds a credential.
    fn credential(&mut self, item: &Node, who: &Who, norm: &str) {
        if secret_name(norm).is_none() {
            return;
        }
        let d = self
            .diag(
                &security::CREDENTIAL_PASSTHROUGH,
                item.span(),
                format!("{who}: envPassthrough hands the tool `{norm}`, which looks like a credential"),
            )
            .label("credential passed to the tool")
            .note("the tool process can read and use its value (agentcli's audit log records only the name); allowed, but worth a reviewer's look")
            .help("pass it only to tools that need it; once reviewed, turn `SEC010` off for this file in toolc.toml (`[[overrides]]`)");
        self.push(d);
    }
}

/// `[A-Z_][A-Z0-9_]*`.
fn is_env_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names() {
        assert!(is_env_name("OAI_API_KEY") && !is_env_name("1BAD") && !is_env_name(""));
    }
}
