//! Keys nobody reads: misspellings (with a fix when one known key is close) and the
//! snake_case names `server.json` used before its 2025-09-16 schema.

use crate::formats::fields::{Lowerer, MapRef, Site, rename_key};
use crate::rules::mcp as rules;

use crate::runtimes::mcp_registry::{REMOVED, RENAMED};

/// What the registry's tools do with a file that breaks the schema or its semantic checks.
pub(super) const REFUSED: &str =
    "`mcp-publisher validate` reports this and the registry refuses to publish the server";

/// What happens to a key the schema leaves out of a client-read part (packages, remotes).
pub(super) const UNREAD_BY_CLIENTS: &str =
    "clients read only the keys the schema defines: whatever this sets has no effect";

/// Report the keys of `map` not in `known`: `note` says what happens to them. In a
/// `server.json`, keys of older schema versions say what they became.
pub(super) fn unknown_keys(lw: &mut Lowerer<'_>, map: MapRef<'_>, known: &[&str], note: &str) {
    let from = lw.diags.len();
    lw.unknown_keys_at(map, known, Site::rule(&rules::UNKNOWN_KEY).note(note));
    let file = lw.file;
    for d in &mut lw.diags[from..] {
        let key = file.slice(d.span).trim_matches('"').to_string();
        if let Some((_, new)) = RENAMED.iter().find(|(old, _)| *old == key) {
            if !known.contains(new) {
                continue;
            }
            d.message = format!("`{key}` was renamed `{new}` in the 2025-09-16 schema");
            d.label = Some("old key name".into());
            d.notes = vec![
                "the registry and clients read only the camelCase name: this value is lost".into(),
            ];
            d.help = Some(format!("rename it to `{new}`").into());
            d.fix = (map.node.get(new).is_none()).then(|| Box::new(rename_key(file, d.span, new)));
        } else if let Some((_, why)) = REMOVED.iter().find(|(old, _)| *old == key) {
            d.message = format!("`{key}` is no longer part of server.json");
            d.notes = vec![(*why).to_string().into()];
            d.help = Some(format!("remove `{key}`").into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rename_is_to_camel_case() {
        for (old, new) in RENAMED {
            let camel: String = old
                .split('_')
                .enumerate()
                .map(|(i, p)| {
                    if i == 0 {
                        p.to_string()
                    } else {
                        let mut c = p.chars();
                        c.next()
                            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                            .unwrap_or_default()
                    }
                })
                .collect();
            assert_eq!(camel, *new);
        }
    }
}
