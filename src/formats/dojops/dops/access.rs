//! Generic field access for a skill's front matter: a wrong type, a missing key or an unknown
//! key each gets its diagnostic with the fix, so the concern files only say what a field must
//! be.

use super::{SHAPE, Skill};
use crate::formats::fields::{Lowerer, MapRef, Site, join_path};
use crate::source::Span;
use crate::syntax::{Node, NodeKind, Number, Seq};

/// The note of DOJ007 on a key DojOps does not know.
pub(super) const IGNORED_KEY: &str =
    "DojOps drops keys it does not know, so this one has no effect";

/// The value types a field can expect, each with its wording and its usual fix.
#[derive(Clone, Copy)]
pub(super) enum Want {
    Str,
    Bool,
    Int,
    Map,
    List,
}

impl Want {
    fn phrase(self) -> &'static str {
        match self {
            Want::Str => "a string",
            Want::Bool => "a boolean (`true` or `false`)",
            Want::Int => "a whole number",
            Want::Map => "a mapping",
            Want::List => "a list",
        }
    }

    fn accepts(self, node: &Node) -> bool {
        match (self, &node.kind) {
            (Want::Str, NodeKind::String(_))
            | (Want::Bool, NodeKind::Bool(_))
            | (Want::Int, NodeKind::Number(Number::Int(_)))
            | (Want::Map, NodeKind::Map(_))
            | (Want::List, NodeKind::Seq(_)) => true,
            // YAML `30000.0` is the same JavaScript number as `30000`.
            (Want::Int, NodeKind::Number(Number::Float(f))) => f.is_finite() && f.fract() == 0.0,
            _ => false,
        }
    }

    /// How to fix a value of the wrong type, using its source text when the fix is mechanical.
    fn help(self, node: &Node, raw: &str, path: &str) -> String {
        let key = path.rsplit('.').next().unwrap_or(path);
        match (self, &node.kind) {
            (Want::Str, NodeKind::Null) if key.ends_with(']') => {
                "write a value for this item".to_string()
            }
            (Want::Str, NodeKind::Null) => format!("write the value after `{key}:`"),
            (Want::Str, NodeKind::Number(_) | NodeKind::Bool(_)) => {
                format!("quote it: `\"{raw}\"`")
            }
            (Want::Str, _) => "write a single string here".to_string(),
            (Want::Bool, NodeKind::String(s)) if &**s == "true" || &**s == "false" => {
                format!("remove the quotes: `{s}`")
            }
            (Want::Bool, _) => "write `true` or `false`".to_string(),
            (Want::Int, NodeKind::String(s))
                if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) =>
            {
                format!("remove the quotes: `{s}`")
            }
            (Want::Int, _) => "write a whole number without quotes, e.g. `30000`".to_string(),
            (Want::Map, _) if path.is_empty() => {
                "write the front matter as `name: value` lines, starting with `dops: v2`"
                    .to_string()
            }
            (Want::Map, _) => {
                format!("write the fields of `{key}` as `name: value` lines indented under it")
            }
            (Want::List, NodeKind::String(_)) => format!("make it a list: `[{raw}]`"),
            (Want::List, _) => {
                "write a YAML list: one `- item` line per entry, or `[a, b]`".to_string()
            }
        }
    }
}

/// Lowers one skill's front matter, collecting diagnostics and the resolve-time facts.
pub(super) struct SkillLowerer<'a> {
    pub(super) lw: Lowerer<'a>,
    pub(super) skill: Skill,
}

impl SkillLowerer<'_> {
    /// True when `node` is of the wanted type; a DOJ002 with the fix otherwise.
    pub(super) fn expect(&mut self, node: &Node, path: &str, want: Want) -> bool {
        if want.accepts(node) {
            return true;
        }
        let what = if path.is_empty() {
            "the front matter".to_string()
        } else {
            format!("`{path}`")
        };
        let raw = self.lw.file.slice(node.span()).to_string();
        let d = self
            .lw
            .diag(
                SHAPE.wrong_type,
                node.span(),
                format!(
                    "{what} must be {}, found {}",
                    want.phrase(),
                    node.type_name()
                ),
            )
            .label(format!("expected {}", want.phrase()))
            .help(want.help(node, &raw, path));
        self.lw.push(d);
        false
    }

    /// Give the diagnostics pushed since `mark` a help text when they have none.
    fn help_since(&mut self, mark: usize, help: &str) {
        for d in self.lw.diags.iter_mut().skip(mark) {
            if d.help.is_none() {
                d.help = Some(help.to_string().into());
            }
        }
    }

    pub(super) fn map<'n>(
        &mut self,
        node: &'n Node,
        anchor: Span,
        path: &'n str,
    ) -> Option<MapRef<'n>> {
        self.expect(node, path, Want::Map)
            .then_some(MapRef { node, anchor, path })
    }

    /// A list item that must be a mapping; a bare string was most likely meant as the value
    /// of the item's main key (`- main.tf` for `- path: main.tf`).
    pub(super) fn item_map<'n>(
        &mut self,
        item: &'n Node,
        path: &'n str,
        main_key: &str,
    ) -> Option<MapRef<'n>> {
        if item.as_str().is_some() {
            let raw = self.lw.file.slice(item.span());
            let d = self
                .lw
                .diag(
                    SHAPE.wrong_type,
                    item.span(),
                    format!("`{path}` must be a mapping, found a string"),
                )
                .label("expected a mapping")
                .help(format!("write it as `{main_key}: {raw}`"));
            self.lw.push(d);
            return None;
        }
        self.map(item, item_anchor(item), path)
    }

    /// A required key, with `help` saying what to add when it is missing.
    pub(super) fn required<'n>(
        &mut self,
        map: MapRef<'n>,
        key: &str,
        help: &str,
    ) -> Option<&'n Node> {
        let entry = self.lw.required_at(map, key, Site::default().help(help));
        entry.map(|e| &e.value)
    }

    /// A required key whose value is a mapping.
    pub(super) fn required_map<'n>(
        &mut self,
        map: MapRef<'n>,
        key: &str,
        path: &'n str,
        help: &str,
    ) -> Option<MapRef<'n>> {
        let entry = self.lw.required_at(map, key, Site::default().help(help))?;
        self.map(&entry.value, entry.key_span(), path)
    }

    pub(super) fn string<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        min: usize,
        max: usize,
    ) -> Option<&'n str> {
        if !self.expect(node, path, Want::Str) {
            return None;
        }
        let mark = self.lw.diags.len();
        let value = self.lw.str_value(node, path, min, max).map(|(s, _)| s);
        let help = if value.is_some_and(|s| s.chars().count() > max) {
            format!("shorten it to at most {max} characters")
        } else {
            "write a value between the quotes".to_string()
        };
        self.help_since(mark, &help);
        value
    }

    pub(super) fn optional_string(&mut self, map: MapRef<'_>, key: &str, min: usize, max: usize) {
        if let Some(e) = map.node.get(key) {
            self.string(&e.value, &join_path(map.path, key), min, max);
        }
    }

    pub(super) fn boolean(&mut self, map: MapRef<'_>, key: &str) -> Option<bool> {
        let entry = map.node.get(key)?;
        if !self.expect(&entry.value, &join_path(map.path, key), Want::Bool) {
            return None;
        }
        match entry.value.kind {
            NodeKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub(super) fn integer(&mut self, node: &Node, path: &str) -> Option<i64> {
        if !self.expect(node, path, Want::Int) {
            return None;
        }
        match node.kind {
            NodeKind::Number(Number::Int(i)) => Some(i),
            // `accepts` let through only whole, finite floats.
            NodeKind::Number(Number::Float(f)) => Some(f as i64),
            _ => None,
        }
    }

    /// A list with at least `min` items.
    pub(super) fn list<'n>(&mut self, node: &'n Node, path: &str, min: usize) -> Option<&'n Seq> {
        if !self.expect(node, path, Want::List) {
            return None;
        }
        let items = node.as_list()?;
        let mark = self.lw.diags.len();
        self.lw
            .check_len(node.span(), path, items.len(), min, usize::MAX, "items");
        self.help_since(mark, "add at least one entry");
        Some(items)
    }

    /// A list of strings, each at least `min` characters.
    pub(super) fn string_list(&mut self, node: &Node, path: &str, min_items: usize, min: usize) {
        let Some(items) = self.list(node, path, min_items) else {
            return;
        };
        for (i, item) in items.scan().enumerate() {
            let item = &*item;
            self.string(item, &format!("{path}[{i}]"), min, usize::MAX);
        }
    }

    /// A string out of `allowed`, with `fallback` as the help when no allowed value is close.
    pub(super) fn enumeration<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        allowed: &[&str],
        fallback: Option<&str>,
    ) -> Option<&'n str> {
        let mark = self.lw.diags.len();
        let value = self.lw.enum_value(node, path, allowed);
        let list = allowed
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let help = match (node.as_str(), fallback) {
            (Some(_), Some(f)) => f.to_string(),
            (Some(s), None) => format!("replace `{s}` with one of {list}"),
            (None, _) => format!("write one of {list}"),
        };
        self.help_since(mark, &help);
        value
    }

    pub(super) fn optional_enum(&mut self, map: MapRef<'_>, key: &str, allowed: &[&str]) {
        if let Some(e) = map.node.get(key) {
            self.enumeration(&e.value, &join_path(map.path, key), allowed, None);
        }
    }

    /// The mapping under an optional `key` of `parent`, checked for unknown keys.
    pub(super) fn section<'n>(
        &mut self,
        parent: MapRef<'n>,
        key: &str,
        path: &'n str,
        known: &[&str],
    ) -> Option<MapRef<'n>> {
        let entry = parent.node.get(key)?;
        let map = self.map(&entry.value, entry.key_span(), path)?;
        self.unknown_keys(map, known);
        Some(map)
    }
}

/// Where a "missing key" diagnostic in a list item points: its first key (the item has no key
/// of its own), or the whole item when it is empty.
fn item_anchor(item: &Node) -> Span {
    item.as_map()
        .and_then(<[_]>::first)
        .map_or(item.span(), |e| e.key_span())
}
