//! Input and output schemas compared: what a caller may no longer send (input), what a consumer
//! may now receive (output). Schemas are compared as written, keyword by keyword, through
//! `properties` and `items`; `$ref` targets and `anyOf`/`oneOf`/`allOf` branches are not
//! followed.

use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

use super::constraints;
use super::locate::Located;
use super::words;
use crate::diagnostics::Diagnostic;
use crate::rules::breaking as rules;

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// What callers send: narrowing breaks them.
    Input,
    /// What consumers receive: widening breaks them.
    Output,
}

/// A schema walk over one tool's old and new schema.
pub(crate) struct Walk<'a> {
    /// Input or output.
    pub direction: Direction,
    /// Where the old schema is written.
    pub old: Located<'a>,
    /// Where the new schema is written.
    pub new: Located<'a>,
    /// The old version's name (`HEAD`, a folder).
    pub base: &'a str,
    /// The findings.
    pub out: Vec<Diagnostic>,
}

/// A JSON path into a schema.
pub(crate) type Pointer = Vec<String>;

pub(super) fn with(path: &[String], more: &[&str]) -> Pointer {
    let mut p = path.to_vec();
    p.extend(more.iter().map(|s| s.to_string()));
    p
}

/// `a.b[]` for `properties/a/properties/b/items`; empty at the root.
pub(crate) fn display(path: &[String]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < path.len() {
        match path[i].as_str() {
            "properties" if i + 1 < path.len() => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&path[i + 1]);
                i += 2;
            }
            "items" => {
                out.push_str("[]");
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Compact JSON of a value, cut to a readable length.
pub(crate) fn short(value: &Value) -> String {
    let text = value.to_string();
    words::clip(&text, 60)
}

/// The `type` keyword as a set; `None` when any type is allowed.
fn types(schema: &Map<String, Value>) -> Option<BTreeSet<String>> {
    match schema.get("type")? {
        Value::String(t) => Some(BTreeSet::from([t.clone()])),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
        ),
        _ => None,
    }
}

/// True when a value of type `t` is valid under `allowed` (`integer` is a `number`).
fn accepts(allowed: &Option<BTreeSet<String>>, t: &str) -> bool {
    match allowed {
        None => true,
        Some(set) => set.contains(t) || (t == "integer" && set.contains("number")),
    }
}

fn type_text(types: &Option<BTreeSet<String>>) -> String {
    match types {
        None => "any type".to_string(),
        Some(set) => set
            .iter()
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

/// The names listed in `required`.
pub(super) fn required(schema: &Map<String, Value>) -> BTreeSet<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A schema without what the model reads and nothing checks, to tell a renamed property from
/// a different one.
pub(super) fn shape(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "description" | "title" | "examples"))
                .map(|(k, v)| (k.clone(), shape(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(shape).collect()),
        // Equal as values, not as text, and shapes are compared by their text.
        Value::Number(n) if n.is_f64() && n.as_f64() == Some(0.0) => Value::from(0.0),
        other => other.clone(),
    }
}

impl<'a> Walk<'a> {
    /// Compare the schemas at `path` of both sides.
    pub(crate) fn node(&mut self, old: &Value, new: &Value, path: &mut Pointer) {
        let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
            return;
        };
        self.types(o, n, path);
        self.enums(o, n, path);
        constraints::compare(self, o, n, path);
        if self.direction == Direction::Input {
            self.default(o, n, path);
        }
        self.description(o, n, path);
        self.properties(o, n, path);
        if let (Some(oi), Some(ni)) = (o.get("items"), n.get("items")) {
            path.push("items".into());
            self.node(oi, ni, path);
            path.pop();
        }
    }

    /// How a finding names the value at `path`: "parameter `a.b`", "output property `x`".
    pub(crate) fn subject(&self, path: &[String]) -> String {
        let name = display(path);
        match (self.direction, name.is_empty()) {
            (Direction::Input, true) => "the input".to_string(),
            (Direction::Input, false) => format!("parameter `{name}`"),
            (Direction::Output, true) => "the output".to_string(),
            (Direction::Output, false) => format!("output property `{name}`"),
        }
    }

    /// A finding at `new_span` on the new side with `old_span` as its related place.
    pub(crate) fn push(
        &mut self,
        rule: &'static crate::rules::Rule,
        new_span: crate::source::Span,
        old_span: crate::source::Span,
        message: String,
        before: String,
    ) -> &mut Diagnostic {
        let d = Diagnostic::new(rule, self.new.file, new_span, message).related(
            self.old.file,
            old_span,
            format!("in {}: {before}", self.base),
        );
        self.out.push(d);
        let last = self.out.len() - 1;
        &mut self.out[last]
    }

    fn types(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &[String]) {
        let (old, new) = (types(o), types(n));
        let lost: Vec<&String> = match &old {
            Some(set) => set.iter().filter(|t| !accepts(&new, t)).collect(),
            None => Vec::new(),
        };
        let gained: Vec<&String> = match &new {
            Some(set) => set.iter().filter(|t| !accepts(&old, t)).collect(),
            None => Vec::new(),
        };
        let at = with(path, &["type"]);
        let (new_span, old_span) = (self.new.at(&at), self.old.at(&at));
        let subject = self.subject(path);
        match self.direction {
            Direction::Input if !lost.is_empty() || (old.is_none() && new.is_some()) => {
                let message = format!(
                    "{subject} changed type from {} to {}",
                    type_text(&old),
                    type_text(&new)
                );
                let lost = lost
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let d = self.push(
                    &rules::PARAMETER_TYPE_CHANGED,
                    new_span,
                    old_span,
                    message,
                    type_text(&old),
                );
                d.label = Some(if lost.is_empty() {
                    "narrower than before".into()
                } else {
                    format!("no longer accepts {lost}")
                });
                d.notes.push(
                    "a caller that sends a value of the old type now has its call refused".into(),
                );
                d.help = Some(
                    "accept the old type as well (a type list), or bump the major version".into(),
                );
            }
            Direction::Output if !gained.is_empty() || (new.is_none() && old.is_some()) => {
                let message = format!(
                    "{subject} may now be {} (was {})",
                    type_text(&new),
                    type_text(&old)
                );
                let d = self.push(
                    &rules::OUTPUT_TYPE_WIDENED,
                    new_span,
                    old_span,
                    message,
                    type_text(&old),
                );
                d.label = Some("wider than before".into());
                d.notes.push(
                    "a consumer that parses the old type fails on a value of the new one".into(),
                );
                d.help = Some("keep the output type, or bump the major version".into());
            }
            _ => {}
        }
    }

    fn enums(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &[String]) {
        let values = |m: &Map<String, Value>| -> Option<Vec<Value>> {
            match (m.get("enum"), m.get("const")) {
                (Some(Value::Array(items)), _) => Some(items.clone()),
                (_, Some(c)) => Some(vec![c.clone()]),
                _ => None,
            }
        };
        let key = |m: &Map<String, Value>| {
            if m.contains_key("enum") {
                "enum"
            } else {
                "const"
            }
        };
        let (Some(old), new) = (values(o), values(n)) else {
            if let Some(new) = values(n)
                && self.direction == Direction::Input
            {
                let at = with(path, &[key(n)]);
                let subject = self.subject(path);
                let (new_span, old_span) = (self.new.at(&at), self.old.key(path));
                let listed = crate::analysis::names::listed(new.iter().map(short), new.len());
                let d = self.push(
                    &rules::CONSTRAINT_TIGHTENED,
                    new_span,
                    old_span,
                    format!("{subject} is now limited to {listed}"),
                    "any value of its type".into(),
                );
                d.label = Some(format!("`{}` added", key(n)));
                d.notes
                    .push("a caller that sends any other value now has its call refused".into());
                d.help = Some("add the constraint in a new major version".into());
            }
            return;
        };
        let subject = self.subject(path);
        let old_at = with(path, &[key(o)]);
        match (self.direction, new) {
            (Direction::Input, Some(new)) => {
                let at = with(path, &[key(n)]);
                let places = self.old.items(&old_at);
                for (value, text) in missing(&old, &new) {
                    let (new_span, old_span) = (self.new.at(&at), places.of(&text));
                    let d = self.push(
                        &rules::ENUM_VALUE_REMOVED,
                        new_span,
                        old_span,
                        format!("{subject} no longer accepts {}", short(value)),
                        format!("{} was allowed", short(value)),
                    );
                    d.label = Some(format!("{} removed", short(value)));
                    d.notes.push(
                        "a caller (or a saved plan) that sends this value now has its call refused"
                            .into(),
                    );
                    d.help = Some(
                        "keep the value (and map it to its replacement), or bump the major version"
                            .into(),
                    );
                }
            }
            (Direction::Output, Some(new)) => {
                let at = with(path, &[key(n)]);
                let places = self.new.items(&at);
                for (value, text) in missing(&new, &old) {
                    let (new_span, old_span) = (places.of(&text), self.old.at(&old_at));
                    let d = self.push(
                        &rules::OUTPUT_ENUM_VALUE_ADDED,
                        new_span,
                        old_span,
                        format!(
                            "{subject} may now be {}, a value consumers have not seen",
                            short(value)
                        ),
                        "the values consumers know".into(),
                    );
                    d.label = Some("new value".into());
                    d.notes.push(
                        "a consumer that switches over the old values may not handle it".into(),
                    );
                }
            }
            (Direction::Output, None) => {
                let (new_span, old_span) = (self.new.key(path), self.old.at(&old_at));
                let d = self.push(
                    &rules::OUTPUT_CONSTRAINT_RELAXED,
                    new_span,
                    old_span,
                    format!("{subject} is no longer limited to a list of values"),
                    format!("`{}` listed the values", key(o)),
                );
                d.label = Some(format!("`{}` removed", key(o)));
                d.notes.push(
                    "a consumer that switches over the old values may not handle others".into(),
                );
            }
            (Direction::Input, None) => {}
        }
    }

    fn default(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &[String]) {
        let Some(old) = o.get("default") else {
            return;
        };
        if n.get("default") == Some(old) {
            return;
        }
        let at = with(path, &["default"]);
        let subject = self.subject(path);
        let (new_span, old_span) = (self.new.at(&at), self.old.at(&at));
        let message = match n.get("default") {
            Some(new) => format!(
                "the default of {subject} changed from {} to {}",
                short(old),
                short(new)
            ),
            None => format!("{subject} no longer has a default ({} before)", short(old)),
        };
        let d = self.push(
            &rules::DEFAULT_CHANGED,
            new_span,
            old_span,
            message,
            format!("the default was {}", short(old)),
        );
        d.label = Some("default changed".into());
        d.notes.push(
            "a caller that leaves it out gets a different behaviour without changing anything"
                .into(),
        );
        d.help = Some("keep the default, or say the change in the release notes".into());
    }

    fn description(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &[String]) {
        let old = o.get("description").and_then(Value::as_str).unwrap_or("");
        let new = n.get("description").and_then(Value::as_str).unwrap_or("");
        if old.trim() == new.trim() || path.is_empty() {
            return;
        }
        let at = with(path, &["description"]);
        let subject = self.subject(path);
        let (new_span, old_span) = (self.new.at(&at), self.old.at(&at));
        let d = self.push(
            &rules::DESCRIPTION_CHANGED,
            new_span,
            old_span,
            format!("the description of {subject} changed"),
            "the old description".into(),
        );
        d.label = Some("the model reads this".into());
        d.notes
            .push(format!("changed: {}", words::diff(old, new)).into());
        d.help = Some(
            "read the new text as the model will: instructions hidden in a description are obeyed"
                .into(),
        );
    }
}

/// The values of `these` that `others` lacks, each with its JSON text. Looked up by that
/// text: two lists of 100,000 were compared value by value. JSON text is equal exactly when
/// the values are (keys sorted).
fn missing<'v>(these: &'v [Value], others: &[Value]) -> Vec<(&'v Value, String)> {
    let others: HashSet<String> = others.iter().map(Value::to_string).collect();
    these
        .iter()
        .map(|v| (v, v.to_string()))
        .filter(|(_, text)| !others.contains(text))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::shape;
    use serde_json::json;

    #[test]
    fn a_shape_leaves_out_what_the_model_reads_and_its_text_is_its_value() {
        let a = json!({"type": "number", "minimum": -0.0, "description": "a", "enum": [-0.0]});
        let b = json!({"enum": [0.0], "minimum": 0.0, "type": "number", "title": "b"});
        assert_eq!(shape(&a).to_string(), shape(&b).to_string());
        assert_ne!(
            shape(&a).to_string(),
            shape(&json!({"minimum": 1.0})).to_string()
        );
    }
}
