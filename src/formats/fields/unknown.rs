//! Unknown keys: each one reported with "did you mean", or as a misspelt safety key (which
//! is another rule), and only counted once its rule is full.

use super::{Lowerer, MAX_MISSPELLING_LOOKS, MapRef, Site, join_path, rename_key};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::DidYouMean;

impl Lowerer<'_> {
    /// Warn about keys not in `known`, with "did you mean" when one is close.
    pub(crate) fn unknown_keys(&mut self, map: MapRef<'_>, known: &[&str], consequence: &str) {
        self.unknown_keys_at(map, known, Site::default().note(consequence));
    }

    /// [`Lowerer::unknown_keys`], reported as `site` says (its note is the consequence).
    pub(crate) fn unknown_keys_at(&mut self, map: MapRef<'_>, known: &[&str], site: Site<'_>) {
        let Some(entries) = map.node.as_map().filter(|e| !e.is_empty()) else {
            return;
        };
        let unknown_rule = site.rule_or(self.rules.unknown_key);
        let mut safety: Option<Vec<&str>> = None;
        // JSON has no comments, so its authors write notes as keys; YAML has comments.
        let json = self
            .file
            .path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("json"));
        for e in entries
            .iter()
            .filter(|e| !(known.contains(&e.key.as_str()) || json && is_note_key(&e.key)))
        {
            if self.unknown.len() < MAX_MISSPELLING_LOOKS {
                self.unknown.insert(e.key_span());
            }
            // Past the cap, an unknown key is only counted, unless it may be a misspelt
            // safety key (another rule; two edits at most, so its length is within two): a
            // file of a million keys costs no suggestions.
            if self.diags.is_full(unknown_rule) && {
                let safety = safety.get_or_insert_with(|| {
                    known
                        .iter()
                        .copied()
                        .filter(|k| crate::analysis::names::is_safety_key(k))
                        .collect()
                });
                !safety.iter().any(|k| {
                    k.len().abs_diff(e.key.len()) <= 2
                        && crate::analysis::names::misspelt_safety_key(&e.key, k)
                })
            } {
                self.diags.count(unknown_rule);
                continue;
            }
            let full = join_path(map.path, &e.key);
            let hint = did_you_mean(&e.key, known.iter().copied());
            // A misspelt approval, permission or network key loses its gate without a word
            // (unless the mapping sets the real key too).
            let safety = hint.filter(|h| {
                map.node.get(h).is_none() && crate::analysis::names::misspelt_safety_key(&e.key, h)
            });
            let d = match safety {
                Some(h) => self.diag(
                    &crate::rules::security::MISSPELT_SAFETY_KEY,
                    e.key_span(),
                    format!(
                        "unknown key `{full}` is a misspelling of `{h}`: the safety setting it was meant to make is not in effect"
                    ),
                ),
                None => self.diag(
                    unknown_rule,
                    e.key_span(),
                    format!("unknown key `{full}`"),
                ),
            };
            // Renaming onto a key the mapping already has would only move the problem.
            let renamable = hint.filter(|h| map.node.get(h).is_none());
            let d = d.label("unknown key");
            let d = match (safety, renamable) {
                (Some(h), _) => d.help(format!("rename it to `{h}`")).fix(rename_key(
                    self.file,
                    e.key_span(),
                    h,
                )),
                (None, Some(h)) => {
                    d.did_you_mean(DidYouMean::new(h, rename_key(self.file, e.key_span(), h)))
                }
                (None, None) => d.maybe_help(hint.map(|h| {
                    format!("`{h}` is set already: merge this into it, or remove this key")
                })),
            };
            self.push(site.finish(d));
        }
    }
}

/// A key written as a note to the reader of a JSON file (`_docs`, `_comment`, `//`,
/// `$comment`), which every reader ignores on purpose.
fn is_note_key(key: &str) -> bool {
    key.starts_with('_') || key.starts_with("//") || key == "$comment"
}
