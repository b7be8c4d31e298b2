//! Shared lowering helpers: typed access to mapping fields that reports missing keys, wrong
//! types, bad lengths and unknown keys as diagnostics of the calling format's rules.

use std::collections::HashSet;
use std::sync::Arc;

use crate::analysis::names::did_you_mean;

mod item_path;
mod unknown;

pub(crate) use item_path::ItemPaths;

pub(crate) use crate::diagnostics::edits::{
    rename_key, replace_exact, replace_scalar, replace_text,
};

use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::rules::Rule;
use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Item, Node, NodeKind, Number};

/// The rules a format uses for shape errors.
#[derive(Debug)]
pub(crate) struct ShapeRules {
    /// A required key is missing.
    pub missing: &'static Rule,
    /// A value has the wrong type.
    pub wrong_type: &'static Rule,
    /// A value is outside its allowed set.
    pub bad_value: &'static Rule,
    /// A string or list is too short or too long.
    pub length: &'static Rule,
    /// A key the format does not know.
    pub unknown_key: &'static Rule,
}

/// How one call of a shape helper reports its defect when the format has something specific
/// to say: its own rule (TMD009 for an unknown `transport.type` rather than the generic
/// TMD013), message, runtime note and help. Empty fields keep the generic ones.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Site<'s> {
    /// The rule of the defect this call checks (missing key, value outside its set,
    /// unknown key or bad length), instead of the format's shape rule.
    pub rule: Option<&'static Rule>,
    /// The message of that defect, instead of the generic one.
    pub message: Option<&'s str>,
    /// What the runtime does about that defect.
    pub note: Option<&'s str>,
    /// Help for whatever this call reports, when the helper has none more precise.
    pub help: Option<&'s str>,
}

impl<'s> Site<'s> {
    /// A site reported under `rule`.
    pub(crate) fn rule(rule: &'static Rule) -> Site<'s> {
        Site {
            rule: Some(rule),
            ..Site::default()
        }
    }

    /// With this message.
    pub(crate) fn message(self, message: &'s str) -> Site<'s> {
        Site {
            message: Some(message),
            ..self
        }
    }

    /// With this note.
    pub(crate) fn note(self, note: &'s str) -> Site<'s> {
        Site {
            note: Some(note),
            ..self
        }
    }

    /// With this help.
    pub(crate) fn help(self, help: &'s str) -> Site<'s> {
        Site {
            help: Some(help),
            ..self
        }
    }

    /// The site's rule, or `generic`.
    fn rule_or(&self, generic: &'static Rule) -> &'static Rule {
        self.rule.unwrap_or(generic)
    }

    /// The defect's diagnostic with the site's note and help added.
    fn finish(&self, mut d: Diagnostic) -> Diagnostic {
        if let Some(note) = self.note {
            d = d.note(note.to_string());
        }
        self.fill_help(d)
    }

    /// The site's help on a diagnostic that has none.
    fn fill_help(&self, mut d: Diagnostic) -> Diagnostic {
        if d.help.is_none()
            && let Some(help) = self.help
        {
            d.help = Some(help.to_string().into());
        }
        d
    }
}

/// A mapping being lowered, with the span a "missing key" diagnostic points at.
#[derive(Clone, Copy)]
pub(crate) struct MapRef<'n> {
    /// The mapping node.
    pub node: &'n Node,
    /// Where to point when a key is missing: the key that holds this mapping.
    pub anchor: Span,
    /// Dotted path of this mapping (`generator`), empty at the root.
    pub path: &'n str,
}

/// Collects shape diagnostics for one file.
pub(crate) struct Lowerer<'a> {
    /// The file being lowered.
    pub file: &'a Arc<SourceFile>,
    /// The format's shape rules.
    pub rules: &'a ShapeRules,
    /// Diagnostics so far, capped per rule as they come.
    pub diags: Findings,
    /// Spans of keys reported as unknown (the first ones), so a missing field can point at
    /// its misspelling.
    unknown: HashSet<Span>,
    /// What to add for a missing field, when the format knows (the format's own help).
    missing_help: Option<MissingHelp>,
    /// Whether the schemas it meets are validated (the `SCH` rules run).
    pub schema: bool,
}

/// The help for a missing field (a dotted path) of a file, when the format knows what to write.
pub(crate) type MissingHelp = fn(&str, &SourceFile) -> Option<String>;

/// Unknown keys remembered per file to compare with a missing required key, at most.
const MAX_MISSPELLING_LOOKS: usize = 1000;

/// `a.b` from a parent path and a key.
pub(crate) fn join_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

impl<'a> Lowerer<'a> {
    /// A lowerer for `file`.
    pub(crate) fn new(file: &'a Arc<SourceFile>, rules: &'a ShapeRules) -> Lowerer<'a> {
        Lowerer {
            file,
            rules,
            diags: Findings::default(),
            unknown: HashSet::new(),
            missing_help: None,
            schema: true,
        }
    }

    /// The same lowerer, saying what to add for a missing field with `help` when neither a
    /// misspelling nor the call site says more.
    pub(crate) fn with_missing_help(mut self, help: MissingHelp) -> Lowerer<'a> {
        self.missing_help = Some(help);
        self
    }

    /// Record a diagnostic.
    pub(crate) fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// A diagnostic of `rule` in this file.
    pub(crate) fn diag(
        &self,
        rule: &'static Rule,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(rule, self.file, span, message)
    }

    /// Report a value of the wrong type.
    pub(crate) fn wrong_type(&mut self, node: &Node, path: &str, expected: &str) {
        self.wrong_type_at(node, path, expected, Site::default());
    }

    /// Report a value of the wrong type, with the help of `site`.
    fn wrong_type_at(&mut self, node: &Node, path: &str, expected: &str, site: Site<'_>) {
        let d = self
            .diag(
                self.rules.wrong_type,
                node.span(),
                format!("`{path}` must be {expected}, found {}", node.type_name()),
            )
            .label(format!("expected {expected}"));
        self.push(site.fill_help(d));
    }

    /// The node as a mapping, or a wrong-type diagnostic.
    pub(crate) fn as_map<'n>(
        &mut self,
        node: &'n Node,
        anchor: Span,
        path: &'n str,
    ) -> Option<MapRef<'n>> {
        if node.entries().is_some() {
            Some(MapRef { node, anchor, path })
        } else {
            let what = if path.is_empty() {
                "the document".to_string()
            } else {
                format!("`{path}`")
            };
            let d = self
                .diag(
                    self.rules.wrong_type,
                    node.span(),
                    format!("{what} must be a mapping, found {}", node.type_name()),
                )
                .label("expected a mapping");
            self.push(d);
            None
        }
    }

    /// The entry for `key`, or a missing-field diagnostic on the map's anchor.
    pub(crate) fn required<'n>(&mut self, map: MapRef<'n>, key: &str) -> Option<&'n Entry> {
        self.required_at(map, key, Site::default())
    }

    /// [`Lowerer::required`], reported as `site` says.
    pub(crate) fn required_at<'n>(
        &mut self,
        map: MapRef<'n>,
        key: &str,
        site: Site<'_>,
    ) -> Option<&'n Entry> {
        let found = map.node.get(key);
        let rule = site.rule_or(self.rules.missing);
        if found.is_none() && self.diags.is_full(rule) {
            // Past the file's cap it is only counted: built first, 60 MB of `{}` packages
            // (three missing keys each) took 31 s.
            self.diags.count(rule);
        } else if found.is_none() {
            let full = join_path(map.path, key);
            let label = if map.path.is_empty() {
                format!("`{key}` is missing")
            } else {
                format!("this mapping lacks `{key}`")
            };
            // A misspelt key next to the missing one is the likeliest cause: say so. Only the
            // first unknown keys are remembered, so a mapping of a million keys stays linear.
            let mut misspelt = None;
            let mut left = self.unknown.len();
            for e in map.node.as_map().unwrap_or_default() {
                if left == 0 {
                    break;
                }
                if self.unknown.contains(&e.key_span()) {
                    left -= 1;
                    if did_you_mean(&e.key, [key]).is_some() {
                        misspelt = Some(e);
                        break;
                    }
                }
            }
            let message = site.message.map_or_else(
                || format!("required field `{full}` is missing"),
                str::to_string,
            );
            // The top-level mapping has no key of its own: underline its first key rather
            // than one character at the start of the file.
            let first_key = map
                .node
                .as_map()
                .and_then(|m| m.first())
                .map(|e| e.key_span());
            let (anchor, label) = match first_key {
                Some(span) if map.anchor.is_empty() && map.path.is_empty() => {
                    (span, format!("the top-level mapping lacks `{key}`"))
                }
                _ => (map.anchor, label),
            };
            let mut d = self.diag(rule, anchor, message).label(label);
            if let Some(e) = misspelt {
                d = d
                    .related(
                        self.file,
                        e.key_span(),
                        format!("`{}` looks like a misspelling of `{key}`", e.key),
                    )
                    .help(format!("rename `{}` to `{key}`", e.key))
                    .fix(rename_key(self.file, e.key_span(), key));
            }
            let mut d = site.finish(d);
            if d.help.is_none()
                && site.rule.is_none()
                && let Some(help) = self.missing_help
            {
                d.help = help(&full, self.file).map(Into::into);
            }
            if d.help.is_none() {
                d.help = Some(if map.path.is_empty() {
                    format!("add `{key}:` with its value at the top level").into()
                } else {
                    format!("add `{key}:` with its value to `{}`", map.path).into()
                });
            }
            self.push(d);
        }
        found
    }

    /// A required string field (`min_len`..=`max_len` chars).
    pub(crate) fn required_str<'n>(
        &mut self,
        map: MapRef<'n>,
        key: &str,
        min_len: usize,
        max_len: usize,
    ) -> Option<(&'n str, Span)> {
        let entry = self.required(map, key)?;
        self.str_value(&entry.value, &join_path(map.path, key), min_len, max_len)
    }

    /// An optional string field.
    pub(crate) fn optional_str<'n>(
        &mut self,
        map: MapRef<'n>,
        key: &str,
        min_len: usize,
        max_len: usize,
    ) -> Option<(&'n str, Span)> {
        let entry = map.node.get(key)?;
        self.str_value(&entry.value, &join_path(map.path, key), min_len, max_len)
    }

    /// A string value with a length check.
    pub(crate) fn str_value<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        min_len: usize,
        max_len: usize,
    ) -> Option<(&'n str, Span)> {
        self.str_value_at(node, path, min_len, max_len, Site::default())
    }

    /// [`Lowerer::str_value`], reported as `site` says.
    pub(crate) fn str_value_at<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        min_len: usize,
        max_len: usize,
        site: Site<'_>,
    ) -> Option<(&'n str, Span)> {
        let Some(s) = node.as_str() else {
            self.wrong_type_at(node, path, "a string", site);
            return None;
        };
        self.check_len_at(
            node.span(),
            path,
            s.chars().count(),
            (min_len, max_len),
            "characters",
            site,
        );
        Some((s, node.span()))
    }

    /// Report a length outside `min..=max`.
    pub(crate) fn check_len(
        &mut self,
        span: Span,
        path: &str,
        len: usize,
        min: usize,
        max: usize,
        unit: &str,
    ) {
        self.check_len_at(span, path, len, (min, max), unit, Site::default());
    }

    /// [`Lowerer::check_len`] with bounds `(min, max)`, reported as `site` says.
    pub(crate) fn check_len_at(
        &mut self,
        span: Span,
        path: &str,
        len: usize,
        (min, max): (usize, usize),
        unit: &str,
        site: Site<'_>,
    ) {
        let message = if len < min {
            if min == 1 {
                format!("`{path}` must not be empty")
            } else {
                format!("`{path}` must have at least {min} {unit}, found {len}")
            }
        } else if len > max {
            format!("`{path}` must have at most {max} {unit}, found {len}")
        } else {
            return;
        };
        let message = site.message.map_or(message, str::to_string);
        let d = self.diag(site.rule_or(self.rules.length), span, message);
        self.push(site.finish(d));
    }

    /// An optional boolean field.
    pub(crate) fn optional_bool(&mut self, map: MapRef<'_>, key: &str) -> Option<bool> {
        let entry = map.node.get(key)?;
        match entry.value.kind {
            NodeKind::Bool(b) => Some(b),
            _ => {
                self.wrong_type(
                    &entry.value,
                    &join_path(map.path, key),
                    "a boolean (`true` or `false`)",
                );
                // YAML 1.1 read these as booleans; YAML 1.2 (and DojOps's parser) reads strings.
                if let Some(
                    word @ ("yes" | "no" | "on" | "off" | "y" | "n" | "Yes" | "No" | "On" | "Off"
                    | "YES" | "NO" | "ON" | "OFF"),
                ) = entry.value.as_str()
                {
                    let fixed = if matches!(word.to_ascii_lowercase().as_str(), "yes" | "on" | "y")
                    {
                        "true"
                    } else {
                        "false"
                    };
                    let fix = replace_text(
                        self.file,
                        entry.value.span(),
                        word,
                        fixed,
                        Applicability::Safe,
                    );
                    if let Some(last) = self.diags.last_mut() {
                        last.help = Some(format!(
                            "YAML 1.2 reads `{word}` as a string, not a boolean: write `{fixed}`"
                        ).into());
                        last.fix = fix.map(Box::new);
                    }
                }
                None
            }
        }
    }

    /// A string that must be one of `allowed`.
    pub(crate) fn enum_value<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        allowed: &[&str],
    ) -> Option<&'n str> {
        self.enum_value_at(node, path, allowed, Site::default())
    }

    /// [`Lowerer::enum_value`], reported as `site` says.
    pub(crate) fn enum_value_at<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        allowed: &[&str],
        site: Site<'_>,
    ) -> Option<&'n str> {
        let list = allowed
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let Some(s) = node.as_str() else {
            self.wrong_type_at(node, path, &format!("one of {list}"), site);
            return None;
        };
        if allowed.contains(&s) {
            return Some(s);
        }
        let hint = did_you_mean(s, allowed.iter().copied());
        let expected = if allowed.len() == 1 {
            list
        } else {
            format!("one of {list}")
        };
        let message = site.message.map_or_else(
            || format!("`{path}` must be {expected}, found `{s}`"),
            str::to_string,
        );
        let d = self
            .diag(site.rule_or(self.rules.bad_value), node.span(), message)
            .label("not an allowed value")
            .maybe_did_you_mean(hint.map(|h| {
                DidYouMean::new(
                    h,
                    replace_scalar(self.file, node.span(), h, Applicability::Safe),
                )
            }));
        self.push(site.finish(d));
        None
    }

    /// An optional field that must be one of `allowed`.
    pub(crate) fn optional_enum<'n>(
        &mut self,
        map: MapRef<'n>,
        key: &str,
        allowed: &[&str],
    ) -> Option<&'n str> {
        let entry = map.node.get(key)?;
        self.enum_value(&entry.value, &join_path(map.path, key), allowed)
    }

    /// A list of strings (each non-empty when `non_empty_items`).
    pub(crate) fn str_list<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        non_empty_items: bool,
    ) -> Vec<(&'n str, Span)> {
        let mut out = Vec::new();
        self.str_items(node, path, non_empty_items, |s, span| out.push((s, span)));
        out
    }

    /// [`Lowerer::str_list`], each string handed to `each` as it is read: a long list's
    /// strings are read from its packed bytes, with no node or copy each. How many strings
    /// were read.
    pub(crate) fn str_items<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        non_empty_items: bool,
        mut each: impl FnMut(&'n str, Span),
    ) -> usize {
        let Some(items) = node.as_list() else {
            self.wrong_type(node, path, "a list of strings");
            return 0;
        };
        let mut strings = 0;
        let mut paths = ItemPaths::new(path);
        for (i, item) in items.items().enumerate() {
            match item {
                Item::Str(s, span) => {
                    if non_empty_items && s.is_empty() {
                        self.check_len(span, paths.at(i), 0, 1, usize::MAX, "characters");
                    }
                    each(s, span);
                    strings += 1;
                }
                Item::Other(n) => self.wrong_type(&n, paths.at(i), "a string"),
            }
        }
        strings
    }
}

/// The integer value of a node, if it is an integer.
pub(crate) fn as_int(node: &Node) -> Option<i64> {
    match node.kind {
        NodeKind::Number(Number::Int(i)) => Some(i),
        _ => None,
    }
}
