//! References inside a schema: local `$ref`s that point at nothing (SCH001, a validator cannot
//! compile them) and `$ref`s to remote URIs (SCH005, toolc never reads the network). References
//! are only read as strings here, never followed.

use std::collections::HashSet;

use super::values::short;
use super::walk::{Pointers, Site};
use super::{Cx, Runtime};
use crate::analysis::names::did_you_mean_within;
use crate::diagnostics::edits::replace_scalar;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::rules::schema as rules;
use crate::syntax::Node;

/// The keywords whose value is a reference to another schema.
const REFERENCES: [&str; 3] = ["$ref", "$dynamicRef", "$recursiveRef"];

/// A schema's identifier (`$id`, or draft-04's `id`), when it is a string.
fn identifier(schema: &Node) -> Option<&str> {
    schema
        .value("$id")
        .or_else(|| schema.value("id"))
        .and_then(Node::as_str)
}

/// `$id`s declared anywhere (without a trailing `#`), so references to embedded resources are
/// recognised as local.
pub(super) fn embedded_ids(root: &Node, runtime: Option<&dyn Runtime>) -> HashSet<String> {
    let mut ids = HashSet::new();
    super::walk::visit(root, runtime, &mut |s| {
        if let Some(id) = identifier(s.node).map(|id| id.trim_end_matches('#'))
            && !id.is_empty()
        {
            ids.insert(id.to_string());
        }
    });
    ids
}

/// The scheme of a reference that is a URI with one, i.e. remote. `C:\schemas\a.json` is a
/// Windows path, not a URI with scheme `c`.
pub(crate) fn remote_scheme(reference: &str) -> Option<&str> {
    let colon = reference.find(':')?;
    let scheme = &reference[..colon];
    let valid = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let drive = scheme.len() == 1 && reference[colon + 1..].starts_with(['\\', '/']);
    (valid && !drive && !reference.starts_with('#')).then_some(scheme)
}

/// Decode `%XX` escapes of a URI fragment.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Cx<'_> {
    /// SCH001 for local `$ref`s that point at nothing (a validator cannot compile them).
    pub(super) fn dangling_refs(&mut self) {
        let runtime = self.options.runtime;
        let root = self.root;
        // A nested `$id` changes what `#...` means below it; rather than model base URIs, skip.
        let mut nested_id = false;
        let mut anchors: Vec<String> = Vec::new();
        super::walk::visit(root, runtime, &mut |s| {
            nested_id |= !std::ptr::eq(s.node, root) && identifier(s.node).is_some();
            let anchor = s
                .node
                .value("$anchor")
                .or_else(|| s.node.value("$dynamicAnchor"))
                .and_then(Node::as_str);
            let id_anchor = identifier(s.node).and_then(|id| id.strip_prefix('#'));
            anchors.extend([anchor, id_anchor].into_iter().flatten().map(String::from));
        });
        if nested_id {
            return;
        }
        // Looked up once per `$ref`: a set, as a schema may hold thousands of each.
        let anchor_set: HashSet<&str> = anchors.iter().map(String::as_str).collect();
        let mut pointers = Pointers::new(root);
        super::walk::visit(root, runtime, &mut |site| {
            let Some(entry) = site.node.get("$ref") else {
                return;
            };
            let Some(reference) = entry.value.as_str() else {
                return;
            };
            let Some(fragment) = reference.strip_prefix('#') else {
                return;
            };
            if fragment.is_empty() {
                return;
            }
            let fragment = percent_decode(fragment);
            let problem = if let Some(pointer) = fragment.strip_prefix('/') {
                pointers.resolve(pointer, &mut self.suggestions).err()
            } else if anchor_set.contains(fragment.as_str()) {
                None
            } else {
                let hint = did_you_mean_within(
                    &mut self.suggestions,
                    &fragment,
                    anchors.len(),
                    anchors.iter().map(String::as_str),
                );
                Some(hint.map(|a| format!("#{a}")))
            };
            let Some(hint) = problem else { return };
            let d = Diagnostic::new(
                &rules::INVALID_JSON_SCHEMA,
                self.file,
                entry.value.span(),
                format!(
                    "`$ref` points at `{}`, which this schema does not define",
                    short(reference, 80)
                ),
            )
            .label("nothing here")
            .note("a validator refuses to compile a schema with a reference it cannot resolve")
            .maybe_did_you_mean(hint.map(|h| {
                let fix = replace_scalar(self.file, entry.value.span(), &h, Applicability::Unsafe);
                DidYouMean::new(h, fix)
            }));
            self.push(d);
        });
    }

    /// SCH005: `$ref`s to absolute URLs.
    pub(super) fn remote_refs(&mut self, site: &Site<'_>, ids: &HashSet<String>) {
        for key in REFERENCES {
            let Some(entry) = site.node.get(key) else {
                continue;
            };
            let Some(reference) = entry.value.as_str() else {
                continue;
            };
            let Some(scheme) = remote_scheme(reference) else {
                continue;
            };
            let base = reference.split('#').next().unwrap_or(reference);
            if ids.contains(base) {
                continue;
            }
            let d = Diagnostic::new(
                &rules::REMOTE_REF,
                self.file,
                entry.value.span(),
                format!("`{key}` points at a remote schema `{}`", short(reference, 80)),
            )
            .label(format!("`{scheme}:` reference, never fetched"))
            .note("toolc never reads the network, so nothing behind this reference is checked, and a runtime that cannot reach it fails or skips it");
            let d = match self.options.runtime.map(|r| r.remote_ref()) {
                Some((note, help)) => d.note(note).help(help),
                None => d.help("copy the referenced schema into this file under `definitions` and refer to it as `#/definitions/<name>`"),
            };
            self.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes, diagnostics, run};
    use super::*;

    #[test]
    fn remote_schemes() {
        assert_eq!(remote_scheme("https://x/y.json"), Some("https"));
        assert_eq!(remote_scheme("urn:example:b"), Some("urn"));
        assert_eq!(remote_scheme("#/definitions/a"), None);
        assert_eq!(remote_scheme("common.json#/definitions/d"), None);
        assert_eq!(remote_scheme("C:\\schemas\\a.json"), None);
        assert_eq!(percent_decode("a%20b%ZZ"), "a b%ZZ");
    }

    #[test]
    fn sch001_dangling_local_ref() {
        let text = r##"{"definitions": {"address": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/adress"}}}"##;
        let (_, diags) = diagnostics(text);
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert_eq!(diags[0].rule.code, "SCH001");
        assert_eq!(
            diags[0].help.as_deref(),
            Some("did you mean `#/definitions/address`?")
        );
        assert!(codes(r##"{"definitions": {"a": {}}, "$ref": "#/definitions/a"}"##).is_empty());
        assert!(codes(r##"{"$anchor": "here", "items": {"$ref": "#here"}}"##).is_empty());
        assert_eq!(
            codes(r##"{"$anchor": "here", "items": {"$ref": "#hre"}}"##),
            vec!["SCH001"]
        );
    }

    #[test]
    fn sch005_remote_refs() {
        let text = r##"{"type": "object", "properties": {
            "a": {"$ref": "https://example.com/schemas/a.json"},
            "b": {"$ref": "urn:example:b"},
            "c": {"$ref": "#/properties/a"},
            "d": {"$ref": "common.json#/definitions/d"},
            "e": {"$ref": "http://example.com/embedded#/x"}
        }, "definitions": {"emb": {"$id": "http://example.com/embedded", "x": {}}}}"##;
        let lines: Vec<String> = run(text);
        assert_eq!(
            lines,
            vec![
                "SCH005 \"https://example.com/schemas/a.json\" `$ref` points at a remote schema `https://example.com/schemas/a.json`",
                "SCH005 \"urn:example:b\" `$ref` points at a remote schema `urn:example:b`",
            ]
        );
    }
}
