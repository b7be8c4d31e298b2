//! Where a part of a tool's schema is written: the IR holds schemas as their JSON text, findings
//! point at the file that wrote them (a schema file, a front matter's `interface.input`, or
//! cycod `parameters`, from which the schema is derived).

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::ir::Lowered;
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind, TreeRef};

/// One side's schema (input or output) and where it is written.
#[derive(Clone)]
pub(crate) struct Located<'a> {
    /// The file to point into.
    pub file: &'a Arc<SourceFile>,
    /// The written tree (the schema, or cycod `parameters`), unpacked from the IR's.
    root: Option<Rc<Node>>,
    /// The tree is cycod `parameters`: property `X` of the schema is its entry `X`.
    parameters: bool,
    /// Where to point when the schema is not written (derived, or absent): the tool's name.
    fallback: Span,
}

impl<'a> Located<'a> {
    /// The input schema of `tool`.
    pub(crate) fn input(tool: &'a Lowered<'a>) -> Located<'a> {
        match (tool.schema, tool.parameters) {
            (Some((file, node)), _) => Located::packed(file, node, false),
            (None, Some(params)) => Located::packed(tool.file, TreeRef::Packed(params), true),
            (None, None) => Located {
                file: tool.file,
                root: None,
                parameters: false,
                fallback: tool.name_span,
            },
        }
    }

    /// The output schema of `tool`.
    pub(crate) fn output(tool: &'a Lowered<'a>) -> Located<'a> {
        match tool.output {
            Some((file, node)) => Located::packed(file, node, false),
            None => Located {
                file: tool.file,
                root: None,
                parameters: false,
                fallback: tool.name_span,
            },
        }
    }

    fn packed(file: &'a Arc<SourceFile>, node: TreeRef<'_>, parameters: bool) -> Located<'a> {
        Located::tree(file, node.unpack().into_owned(), parameters)
    }

    fn tree(file: &'a Arc<SourceFile>, node: Node, parameters: bool) -> Located<'a> {
        // A schema spans many lines: point at its first one. Searched within the schema
        // alone: a diff of a one-line file of 330,000 changed tools searched to the file's
        // end for each (no end in 15 minutes).
        let start = node.span().start.min(file.text.len());
        let end = node.span().end.clamp(start, file.text.len());
        let line_end = file
            .text
            .get(start..end)
            .and_then(|schema| schema.find('\n'))
            .map_or(end, |n| start + n);
        let fallback = Span::new(start, line_end);
        Located {
            file,
            root: Some(Rc::new(node)),
            parameters,
            fallback,
        }
    }

    /// The JSON path as written in the tree: cycod writes property `X` as `parameters.X`.
    fn written<'p>(&self, path: &'p [String]) -> Vec<&'p str> {
        let mut out = Vec::with_capacity(path.len());
        let mut rest = path;
        while let Some((first, tail)) = rest.split_first() {
            if self.parameters && first == "properties" && out.is_empty() {
                rest = tail;
                continue;
            }
            out.push(first.as_str());
            rest = tail;
        }
        out
    }

    /// The deepest written entry along `path`: its key span and value.
    fn deepest(&self, path: &[String]) -> Option<(Option<Span>, &Node, usize)> {
        let mut node = self.root.as_deref()?;
        let mut key = None;
        let written = self.written(path);
        let mut depth = 0;
        for segment in &written {
            let Some(entry) = node.get(segment) else {
                break;
            };
            key = Some(entry.key_span());
            node = &entry.value;
            depth += 1;
        }
        Some((key, node, written.len() - depth))
    }

    /// Where the value at `path` is written: a scalar's bytes, the key of a mapping or list,
    /// else the deepest written key along the path, else the schema (or the tool's name).
    pub(crate) fn at(&self, path: &[String]) -> Span {
        match self.deepest(path) {
            Some((key, node, 0)) => match node.kind {
                NodeKind::Map(_) | NodeKind::Seq(_) => key.unwrap_or(self.fallback),
                _ => node.span(),
            },
            Some((Some(key), _, _)) => key,
            _ => self.fallback,
        }
    }

    /// Where the key at `path` is written (a property's name), else as [`Located::at`].
    pub(crate) fn key(&self, path: &[String]) -> Span {
        match self.deepest(path) {
            Some((Some(key), _, 0)) => key,
            _ => self.at(path),
        }
    }

    /// Where each value of the list at `path` is first written, by its JSON text, else
    /// where the list is: looked up for each value changed, rather than searched for (two
    /// `enum`s of 50,000: 32 s).
    pub(crate) fn items(&self, path: &[String]) -> Places {
        let mut by_text = HashMap::new();
        if let Some((_, node, 0)) = self.deepest(path)
            && let Some(items) = node.as_seq()
        {
            for item in items {
                by_text
                    .entry(item.to_json().to_string())
                    .or_insert(item.span());
            }
        }
        Places {
            by_text,
            list: self.at(path),
        }
    }

    /// Where property `name` of the object at `parent` is said to be required: its entry in
    /// `required`, or for cycod its `required`/`default` key, else its name.
    pub(crate) fn required(&self, parent: &[String], name: &str) -> Span {
        let mut property = parent.to_vec();
        property.extend(["properties".to_string(), name.to_string()]);
        if self.parameters {
            for key in ["required", "default"] {
                let mut p = property.clone();
                p.push(key.to_string());
                if let Some((Some(k), _, 0)) = self.deepest(&p) {
                    return k;
                }
            }
            return self.key(&property);
        }
        let mut required = parent.to_vec();
        required.push("required".to_string());
        if let Some((_, node, 0)) = self.deepest(&required)
            && let Some(item) = node
                .as_seq()
                .and_then(|items| items.iter().find(|i| i.as_str() == Some(name)))
        {
            return item.span();
        }
        self.key(&property)
    }
}

/// Where the values of a list are written ([`Located::items`]).
pub(crate) struct Places {
    by_text: HashMap<String, Span>,
    list: Span,
}

impl Places {
    /// Where the value whose JSON text is `text` is written, else where the list is.
    pub(crate) fn of(&self, text: &str) -> Span {
        self.by_text.get(text).copied().unwrap_or(self.list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;
    use serde_json::Value;

    fn file(text: &str) -> Arc<SourceFile> {
        SourceFile::new(
            "/r/s.json".into(),
            "s.json".into(),
            FormatId::DojopsSchema,
            text.into(),
        )
    }

    fn path(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn points_at_values_keys_items_and_the_deepest_written_key() {
        let text = r#"{"type": "object", "properties": {"q": {"type": "string", "enum": ["a", "b"]}}, "required": ["q"]}"#;
        let f = file(text);
        let parsed = crate::syntax::json::parse(&f.text, 0);
        let root = parsed.root.expect("parsed");
        let at = Located::tree(&f, root, false);
        let slice = |s: Span| &text[s.start..s.end];
        assert_eq!(
            slice(at.at(&path(&["properties", "q", "type"]))),
            "\"string\""
        );
        assert_eq!(slice(at.key(&path(&["properties", "q"]))), "\"q\"");
        let places = at.items(&path(&["properties", "q", "enum"]));
        assert_eq!(slice(places.of(&Value::from("b").to_string())), "\"b\"");
        // A value not in the list: where the list is, as `at` places it.
        assert_eq!(
            places.of("\"z\""),
            at.at(&path(&["properties", "q", "enum"]))
        );
        assert_eq!(slice(at.required(&[], "q")), "\"q\"");
        // Not written: the deepest key that is.
        assert_eq!(
            slice(at.at(&path(&["properties", "q", "maxLength"]))),
            "\"q\""
        );
    }
}
