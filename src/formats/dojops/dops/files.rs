//! What a skill writes and where: `files`, `detection` and `scope.write` (SEC001 on `..`).

use super::SHAPE;
use super::access::{SkillLowerer, Want};
use crate::formats::fields::{ItemPaths, MapRef};
use crate::rules::security as sec;
use crate::source::Span;
use crate::syntax::Node;

const FILE_KEYS: &[&str] = &["path", "format", "conditional"];
const DETECTION_KEYS: &[&str] = &["paths", "updateMode"];
const SCOPE_KEYS: &[&str] = &["write"];

pub(super) const FILE_FORMATS: &[&str] = &["yaml", "hcl", "json", "raw", "ini", "toml"];

impl SkillLowerer<'_> {
    pub(super) fn files(&mut self, root: MapRef<'_>) {
        let Some(node) = self.required(
            root,
            "files",
            "add `files:` with at least one `- path: <file>` entry: the files this skill writes",
        ) else {
            return;
        };
        let Some(items) = self.list(node, "files", 1) else {
            return;
        };
        let mut paths = ItemPaths::new("files");
        for (i, item) in items.scan().enumerate() {
            let item = &*item;
            let path = paths.at(i);
            let Some(file) = self.item_map(item, path, "path") else {
                continue;
            };
            self.unknown_keys(file, FILE_KEYS);
            if let Some(v) = self.required(
                file,
                "path",
                "add `path: <file>` to this entry, e.g. `path: main.tf`",
            ) {
                self.file_path(v, &format!("{path}.path"));
            }
            if let Some(v) = file.node.value("format") {
                let fallback = match v.as_str() {
                    Some(f) if FILE_FORMATS.contains(&f) => {
                        "v2 writes files as the model generates them: use `format: raw` (or drop the key) and set `context.fileFormat`"
                    }
                    _ => "use `format: raw`, or drop the key (it defaults to `raw`)",
                };
                self.enumeration(v, &format!("{path}.format"), &["raw"], Some(fallback));
            }
            self.boolean(file, "conditional");
        }
    }

    /// `files[].path`: DojOps trims it before its emptiness check, so blank counts as empty.
    fn file_path(&mut self, node: &Node, path: &str) {
        if !self.expect(node, path, Want::Str) {
            return;
        }
        if node.as_str().is_some_and(|s| s.trim().is_empty()) {
            let d = self
                .lw
                .diag(
                    SHAPE.length,
                    node.span(),
                    format!("`{path}` must not be empty"),
                )
                .label("empty path")
                .help("write the path of the file this skill writes, e.g. `main.tf`");
            self.lw.push(d);
        }
    }

    pub(super) fn detection(&mut self, root: MapRef<'_>) {
        let Some(det) = self.section(root, "detection", "detection", DETECTION_KEYS) else {
            return;
        };
        if let Some(v) = self.required(
            det,
            "paths",
            "add `paths:` under `detection` with the globs that mark an existing file, e.g. `[\"*.tf\"]`",
        ) {
            self.string_list(v, "detection.paths", 1, 0);
        }
        self.boolean(det, "updateMode");
    }

    pub(super) fn scope(&mut self, root: MapRef<'_>) {
        let Some(scope) = self.section(root, "scope", "scope", SCOPE_KEYS) else {
            return;
        };
        let Some(v) = self.required(
            scope,
            "write",
            "add `write:` under `scope` with the paths this skill may write, e.g. `[\"*.tf\"]`",
        ) else {
            return;
        };
        let Some(items) = self.list(v, "scope.write", 1) else {
            return;
        };
        for (i, item) in items.scan().enumerate() {
            let item = &*item;
            if let Some(path) = self.string(item, &format!("scope.write[{i}]"), 1, usize::MAX) {
                self.traversal(item, path);
            }
        }
    }

    /// SEC001: a `..` segment (split on `/` and `\`, as DojOps does) in a `scope.write` path.
    fn traversal(&mut self, node: &Node, path: &str) {
        let Some(segment) = dotdot_segment(path) else {
            return;
        };
        let span = value_sub_span(self.lw.file.slice(node.span()), node.span(), path, segment);
        let d = self
            .lw
            .diag(
                &sec::PATH_TRAVERSAL,
                span,
                format!("scope path `{path}` climbs out of the project with `..`"),
            )
            .label("path traversal")
            .note("DojOps refuses to load a skill whose `scope.write` contains a `..` segment")
            .help("write the path relative to the project root, without `..`");
        self.lw.push(d);
    }
}

/// Byte range of the first `..` segment of `path`, splitting on `/` and `\`.
fn dotdot_segment(path: &str) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    let ends = path
        .char_indices()
        .filter(|(_, c)| matches!(c, '/' | '\\'))
        .map(|(i, _)| i)
        .chain(std::iter::once(path.len()));
    for end in ends {
        if path.get(start..end) == Some("..") {
            return Some(start..end);
        }
        start = end + 1;
    }
    None
}

/// The span of `range` (bytes of the parsed `value`) in the source, when the scalar is written
/// plainly or quoted without escapes; the whole value's span otherwise.
fn value_sub_span(raw: &str, span: Span, value: &str, range: std::ops::Range<usize>) -> Span {
    let inner = raw.len().checked_sub(1).and_then(|end| raw.get(1..end));
    let offset = if raw == value {
        0
    } else if inner == Some(value) {
        1
    } else {
        return span;
    };
    span.sub(offset + range.start, offset + range.end)
}
