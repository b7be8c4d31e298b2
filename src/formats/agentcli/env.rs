//! `envPassthrough`: the names agentcli accepts, how it rewrites them, and which look like
//! credentials (SEC010).

use std::borrow::Cow;
use std::collections::hash_map::RandomState;
use std::collections::{BinaryHeap, HashMap};
use std::hash::BuildHasher;

use super::{Cx, REFUSED, Who, field};
use crate::analysis::secrets::secret_name;
use crate::diagnostics::cap::MAX_PER_RULE;
use crate::diagnostics::edits::replace_scalar;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::rules::agentcli as rules;
use crate::rules::security;
use crate::source::Span;
use crate::syntax::seq::Item;
use crate::syntax::{Node, NodeKind};

/// Names a finding's note spells out at most.
const MAX_LISTED: usize = 20;

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
        // Read three times, strings borrowed, rather than a record kept for each rewritten
        // entry or each name: a list of millions held a record and a string each, and a map
        // of their hashes five times the list. The first reading hashes each name agentcli
        // accepts (trimmed, upper-cased) and finds their repeats; the second reports each
        // name's problems in order; the third each entry agentcli rewrites.
        let occurrences = Occurrences::of(items.items(), items.len());
        let mut listed: Vec<String> = Vec::new();
        let mut kept = 0usize;
        let mut rewritten = false;
        for (j, item) in items.items().enumerate() {
            let (raw, span) = match item {
                Item::Str(raw, span) => (raw, span),
                Item::Other(node) => {
                    self.wrong_type(
                        &node,
                        format!("{who}: `envPassthrough[{j}]`"),
                        "a string",
                        None,
                    );
                    continue;
                }
            };
            let norm = normalized(raw);
            if !is_env_name(&norm) {
                self.invalid(who, j, raw, &norm, span);
                continue;
            }
            if !occurrences.is_first(j) {
                rewritten = true;
                continue;
            }
            rewritten |= norm != raw;
            self.credential(span, who, &norm);
            if kept < MAX_LISTED {
                listed.push(format!("{norm:?}"));
            }
            kept += 1;
        }
        if !rewritten {
            return;
        }
        // Each finding's note spells the list: a long one is shown by its start (a list of
        // megabytes was copied into every finding).
        let mut list = listed.join(", ");
        if kept > MAX_LISTED {
            list.push_str(&format!(", … ({} more)", kept - MAX_LISTED));
        }
        let mut named: Vec<usize> = occurrences.repeats.iter().map(|&(_, f)| f).collect();
        named.sort_unstable();
        // The third reading: each entry agentcli rewrites, a repeat with the place of its
        // first occurrence (kept only for the firsts a reported repeat names).
        let mut first_spans: HashMap<usize, Span> = HashMap::new();
        for (j, item) in items.items().enumerate() {
            let Item::Str(raw, span) = item else {
                continue;
            };
            let norm = normalized(raw);
            let first = if occurrences.is_first(j) {
                if named.binary_search(&j).is_ok() {
                    first_spans.insert(j, span);
                }
                if norm == raw {
                    continue;
                }
                j
            } else if is_env_name(&norm) {
                // Past the first repeats, findings are only counted.
                occurrences.first_of(j).unwrap_or(j)
            } else {
                continue;
            };
            if self.diags.counted(&rules::ENV_NAME_NORMALIZED) {
                continue;
            }
            let d = match first_spans.get(&first).filter(|_| first != j) {
                Some(&kept_span) => {
                    let i = first;
                    self.diag(
                        &rules::ENV_NAME_NORMALIZED,
                        span,
                        format!("{who}: envPassthrough[{j}] {raw:?} duplicates envPassthrough[{i}] once normalised to {norm:?}"),
                    )
                    .label("dropped as a duplicate")
                    .related(self.file, kept_span, format!("kept from envPassthrough[{i}]"))
                }
                None => self
                    .diag(
                        &rules::ENV_NAME_NORMALIZED,
                        span,
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

    /// ACL008: a name agentcli refuses.
    fn invalid(&mut self, who: &Who, j: usize, raw: &str, norm: &str, span: Span) {
        let bad = norm
            .char_indices()
            .find(|(i, c)| !(c.is_ascii_uppercase() || *c == '_' || (*i > 0 && c.is_ascii_digit())))
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
            let fix = replace_scalar(self.file, span, &fixed, Applicability::Unsafe);
            DidYouMean::new(&fixed, fix)
        });
        let d = self
            .diag(
                &rules::INVALID_ENV_NAME,
                span,
                format!(
                    "{who}: envPassthrough[{j}]: invalid name {raw:?} (must match [A-Z_][A-Z0-9_]*)"
                ),
            )
            .label(label)
            .note(REFUSED)
            .did_you_mean_or(
                hint,
                "use letters, digits and `_`, not starting with a digit",
            );
        self.push(d);
    }

    /// SEC010: a passed-through variable whose name says it holds a credential.
    fn credential(&mut self, span: Span, who: &Who, norm: &str) {
        if secret_name(norm).is_none() {
            return;
        }
        let d = self
            .diag(
                &security::CREDENTIAL_PASSTHROUGH,
                span,
                format!("{who}: envPassthrough hands the tool `{norm}`, which looks like a credential"),
            )
            .label("credential passed to the tool")
            .note("the tool process can read and use its value (agentcli's audit log records only the name); allowed, but worth a reviewer's look")
            .help("pass it only to tools that need it; once reviewed, turn `SEC010` off for this file in toolc.toml (`[[overrides]]`)");
        self.push(d);
    }
}

/// Which entries of an `envPassthrough` are the first of the name agentcli reads, found by
/// sorting a keyed hash of each name with its place (sixteen bytes an entry while sorting, a
/// bit after, where a map of the names took five times the list), and the first repeats
/// with the place of their first.
struct Occurrences {
    /// A bit for each entry: the first of its name (not an entry agentcli refuses).
    firsts: Vec<u64>,
    /// The first [`MAX_PER_RULE`] repeats in order, each with where its name first occurs:
    /// past them, findings are only counted.
    repeats: Vec<(usize, usize)>,
}

impl Occurrences {
    fn of<'a>(items: impl Iterator<Item = Item<'a>>, len: usize) -> Occurrences {
        let hasher = RandomState::new();
        let mut names: Vec<(u64, u32)> = Vec::with_capacity(len);
        for (j, item) in items.enumerate() {
            // A list read from a file is far shorter than 4 billion entries.
            if let (Item::Str(raw, _), Ok(j)) = (item, u32::try_from(j)) {
                let norm = normalized(raw);
                if is_env_name(&norm) {
                    names.push((hasher.hash_one(&*norm), j));
                }
            }
        }
        names.sort_unstable();
        let mut firsts = vec![0u64; len.div_ceil(64)];
        // The repeats of the lowest places, the highest on top.
        let mut repeats = BinaryHeap::new();
        for run in names.chunk_by(|a, b| a.0 == b.0) {
            let first = run[0].1 as usize;
            if let Some(word) = firsts.get_mut(first / 64) {
                *word |= 1 << (first % 64);
            }
            for &(_, j) in &run[1..] {
                let j = j as usize;
                if repeats.len() < MAX_PER_RULE {
                    repeats.push((j, first));
                } else if repeats.peek().is_some_and(|&(last, _)| j < last) {
                    repeats.pop();
                    repeats.push((j, first));
                }
            }
        }
        Occurrences {
            firsts,
            repeats: repeats.into_sorted_vec(),
        }
    }

    /// Whether the entry at `j` is the first of its name.
    fn is_first(&self, j: usize) -> bool {
        self.firsts
            .get(j / 64)
            .is_some_and(|word| word >> (j % 64) & 1 == 1)
    }

    /// Where the name of the repeat at `j` first occurs, for the first repeats.
    fn first_of(&self, j: usize) -> Option<usize> {
        let i = self.repeats.binary_search_by_key(&j, |&(r, _)| r).ok()?;
        Some(self.repeats[i].1)
    }
}

/// The name agentcli reads: trimmed and upper-cased (borrowed when already so).
fn normalized(raw: &str) -> Cow<'_, str> {
    let trimmed = raw.trim();
    if trimmed.len() == raw.len() && !raw.bytes().any(|b| b.is_ascii_lowercase()) && raw.is_ascii()
    {
        Cow::Borrowed(raw)
    } else {
        Cow::Owned(trimmed.to_uppercase())
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
