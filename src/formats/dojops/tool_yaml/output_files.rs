//! A DojOps tool's `files`: the output files it writes, each a path and a serializer.

use super::{DROPPED_NOTE, FILE_KEYS, SERIALIZERS, check_traversal};
use crate::formats::fields::{ItemPaths, Lowerer, join_path};
use crate::rules::dojops as rules;
use crate::syntax::Node;

/// Check the `files` list `value`, handing each entry's `path` node to `keep`.
pub(super) fn lower(lw: &mut Lowerer<'_>, value: &Node, keep: &mut impl FnMut(&Node)) {
    match value.as_list() {
        None => lw.wrong_type(value, "files", "a list of `{path, serializer}` entries"),
        Some(items) if items.is_empty() => {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_LENGTH,
                    value.span(),
                    "`files` must list at least one output file",
                )
                .label("empty list");
            lw.push(d);
        }
        Some(items) => {
            let mut paths = ItemPaths::new("files");
            for (i, item) in items.scan().enumerate() {
                let path = paths.at(i);
                let Some(f) = lw.as_map(&item, item.span(), path) else {
                    continue;
                };
                lw.unknown_keys(f, FILE_KEYS, DROPPED_NOTE);
                if let Some(e) = lw.required(f, "path") {
                    let at = join_path(path, "path");
                    if lw.str_value(&e.value, &at, 1, usize::MAX).is_some() {
                        check_traversal(lw, &e.value, &at);
                    }
                }
                if let Some(node) = item.value("path") {
                    keep(node);
                }
                if let Some(e) = lw.required(f, "serializer") {
                    lw.enum_value(&e.value, &format!("{path}.serializer"), SERIALIZERS);
                }
            }
        }
    }
}
