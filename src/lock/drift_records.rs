//! `toolc check --locked` for Agent Skills and MCP servers: each one compared with its entry in
//! `toolc.lock`, field by field; a skill or server the lock does not list, and a listed one
//! that is gone, are reported too.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use super::Entry;
use super::file::{FILE_NAME, Locked};
use super::record::{Record, describe};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::rules::lock as rules;
use crate::scope::Scope;
use crate::source::SourceFile;

const REVIEW: &str = "review the change, then run `toolc lock` and commit `toolc.lock` with it";

/// The drift of `records` from the skill and server entries `locked`.
pub(super) fn drift(
    records: &[Record<'_>],
    locked: &[Locked],
    root: &Path,
    scope: &Scope,
    lock: &Arc<SourceFile>,
) -> Vec<Diagnostic> {
    let mut taken = vec![false; locked.len()];
    let mut by_key: HashMap<(super::record::Kind, &str, &str), Vec<usize>> = HashMap::new();
    for (i, l) in locked.iter().enumerate() {
        by_key
            .entry((l.entry.kind, l.entry.format.as_str(), l.entry.name.as_str()))
            .or_default()
            .push(i);
    }
    let mut out = Vec::new();
    for record in records {
        let now = record.entry(root);
        let candidates = by_key
            .get(&(now.kind, now.format.as_str(), now.name.as_str()))
            .map_or(&[][..], Vec::as_slice);
        let free = || candidates.iter().copied().filter(|&i| !taken[i]);
        let found = free()
            .find(|&i| locked[i].entry.path == now.path)
            .or_else(|| free().next());
        let noun = record.kind.noun();
        match found {
            Some(i) => {
                taken[i] = true;
                if locked[i].entry.sha256 != now.sha256 {
                    out.extend(changed(record, &locked[i], &now, lock));
                }
            }
            None => out.push(
                Diagnostic::new(
                    &rules::ENTRY_NOT_LOCKED,
                    record.file,
                    record.name_span,
                    format!("{noun} `{}` is not in `{FILE_NAME}`", now.name),
                )
                .label("not reviewed")
                .note(format!(
                    "a {noun} added (or renamed) since the lock was written has not been reviewed with it"
                ))
                .help(REVIEW),
            ),
        }
    }
    let mut missing = Findings::default();
    for (i, l) in locked.iter().enumerate() {
        let home = root.join(&l.entry.path);
        if taken[i] || !scope.roots.iter().any(|r| home.starts_with(r)) {
            continue;
        }
        // Every finding here is on the lock: a lock of a million entries for tools that do
        // not exist costs a count past the cap, not a finding each.
        if missing.counted(&rules::LOCKED_ENTRY_MISSING) {
            continue;
        }
        let noun = l.entry.kind.noun();
        missing.push(
            Diagnostic::new(
                &rules::LOCKED_ENTRY_MISSING,
                lock,
                l.span,
                format!(
                    "{noun} `{}` ({}, `{}`) is locked but no longer defined",
                    l.entry.name, l.entry.format, l.entry.path
                ),
            )
            .label("locked here")
            .note(format!(
                "a {noun} removed (or renamed) since the lock was written"
            ))
            .help(REVIEW),
        );
    }
    out.extend(missing.into_vec());
    out
}

/// One LCK005 per field of `record` that differs from its lock entry.
fn changed(
    record: &Record<'_>,
    locked: &Locked,
    now: &Entry,
    lock: &Arc<SourceFile>,
) -> Vec<Diagnostic> {
    let differs = |a: &std::collections::BTreeMap<String, String>,
                   b: &std::collections::BTreeMap<String, String>| {
        a.keys()
            .chain(b.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .cloned()
            .collect::<BTreeSet<String>>()
    };
    let mut keys: Vec<(String, bool)> = differs(&locked.entry.parts, &now.parts)
        .into_iter()
        .map(|k| (k, false))
        .collect();
    keys.extend(
        differs(&locked.entry.texts, &now.texts)
            .into_iter()
            .map(|k| (k, true)),
    );
    if keys.is_empty() {
        keys.push(("definition".into(), false));
    }
    keys.into_iter()
        .map(|(key, text)| {
            let gone = !record.fields.contains_key(&key) && key != "definition";
            let subject = describe(record.kind, &key, &record.name);
            let message = if gone {
                format!("{subject} was removed since `{FILE_NAME}` was written")
            } else {
                format!("{subject} changed since `{FILE_NAME}` was written")
            };
            let d = Diagnostic::new(
                &rules::LOCKED_ENTRY_CHANGED,
                record.file,
                record.site(&key),
                message,
            )
            .label(if gone {
                "removed since it was locked"
            } else {
                "changed since it was locked"
            })
            .related(lock, locked.span, "locked here");
            let d = if text {
                d.note("a model reads this text: a change after review is how instructions get poisoned")
            } else {
                d.note("what was reviewed is not what runs now")
            };
            d.help(REVIEW)
        })
        .collect()
}
