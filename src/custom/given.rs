//! A rule's `given`: the JSONPath as the engine compiled it and, for the paths rules mostly
//! write (names, wildcards, indexes, descendant names: `$.parameters.properties.*`,
//! `$..description`), the same selection made by one walk of the value. The engine builds a
//! list for every node a step visits, and the rules run on every tool of a repository
//! (measured in docs/performance.md); a subject where a node fails is still queried by the
//! engine, with the nodes' places.

use serde_json::Value;
use serde_json_path::{JsonPath, ParseError, PathElement};

/// A step into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// A key of a map.
    Key(String),
    /// An index of a list.
    Index(usize),
}

/// One selector of a path the walk makes itself.
#[derive(Debug, Clone, PartialEq)]
enum Selector {
    /// `.name`, `['name']`: a member.
    Name(String),
    /// `.*`, `[*]`: every member or item.
    Every,
    /// `[3]`, `[-1]`: an item, counted from the end when negative.
    Index(i64),
    /// `..name`: a member of the node or of any node under it.
    Below(String),
}

/// A compiled `given`.
#[derive(Debug)]
pub struct Given {
    path: JsonPath,
    /// The steps, when every one is of a kind the walk makes.
    steps: Option<Vec<Selector>>,
}

/// A member name written as shorthand: a letter, `_` or a non-ASCII character, then those
/// or digits.
pub(super) fn shorthand(text: &str) -> Option<(String, &str)> {
    let end = text
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || !c.is_ascii()))
        .map_or(text.len(), |(i, _)| i);
    let name = &text[..end];
    let starts_well = name.chars().next().is_some_and(|c| !c.is_ascii_digit());
    starts_well.then(|| (name.to_string(), &text[end..]))
}

/// `['name']` or `["name"]` with a plain name (no escape, no second selector).
pub(super) fn bracketed(text: &str) -> Option<String> {
    let inner = text.strip_prefix('[')?.trim_start();
    let quote = inner.chars().next().filter(|q| *q == '\'' || *q == '"')?;
    let rest = &inner[1..];
    let end = rest.find(quote)?;
    let name = &rest[..end];
    let after = rest[end + 1..].trim_start();
    (after.starts_with(']') && !name.contains('\\')).then(|| name.to_string())
}

/// The steps of `text` when it is `$` followed only by steps the walk makes, written without
/// blanks (anything else is left to the engine).
fn steps_of(text: &str) -> Option<Vec<Selector>> {
    let mut rest = text.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("..") {
            let (name, next) = shorthand(after)?;
            steps.push(Selector::Below(name));
            rest = next;
        } else if let Some(after) = rest.strip_prefix(".*") {
            steps.push(Selector::Every);
            rest = after;
        } else if let Some(after) = rest.strip_prefix('.') {
            let (name, next) = shorthand(after)?;
            steps.push(Selector::Name(name));
            rest = next;
        } else if rest.starts_with('[') {
            let end = rest.find(']')?;
            let inner = &rest[1..end];
            let step = if inner == "*" {
                Selector::Every
            } else if let Ok(i) = inner.parse::<i64>() {
                // RFC 9535 writes an index without `+` or leading zeros.
                let canonical = i.to_string() == inner && inner != "-0";
                canonical.then_some(Selector::Index(i))?
            } else {
                Selector::Name(bracketed(&rest[..=end])?)
            };
            steps.push(step);
            rest = &rest[end + 1..];
        } else {
            return None;
        }
    }
    Some(steps)
}

/// Call `each` on the members and items of `node`, in the order the engine takes them,
/// until it says stop (true).
fn children<'v>(node: &'v Value, mut each: impl FnMut(&'v Value) -> bool) -> bool {
    match node {
        Value::Object(map) => map.values().any(each),
        Value::Array(items) => items.iter().any(&mut each),
        _ => false,
    }
}

/// Hand what `steps` select from `node` to `found`, in order, until it says stop (true);
/// true when it did.
fn walk<'v>(node: &'v Value, steps: &[Selector], found: &mut dyn FnMut(&'v Value) -> bool) -> bool {
    let Some((step, rest)) = steps.split_first() else {
        return found(node);
    };
    match step {
        Selector::Name(name) => node
            .as_object()
            .and_then(|m| m.get(name))
            .is_some_and(|next| walk(next, rest, found)),
        Selector::Every => children(node, |c| walk(c, rest, found)),
        Selector::Index(i) => {
            let Some(items) = node.as_array() else {
                return false;
            };
            let at = if *i < 0 {
                usize::try_from(i.unsigned_abs())
                    .ok()
                    .and_then(|back| items.len().checked_sub(back))
            } else {
                usize::try_from(*i).ok()
            };
            at.and_then(|a| items.get(a))
                .is_some_and(|next| walk(next, rest, found))
        }
        Selector::Below(name) => below(node, name, rest, found),
    }
}

/// `..name` then `rest`: the node's own member first, then each child's, depth first.
fn below<'v>(
    node: &'v Value,
    name: &str,
    rest: &[Selector],
    found: &mut dyn FnMut(&'v Value) -> bool,
) -> bool {
    let own = node.as_object().and_then(|m| m.get(name));
    own.is_some_and(|next| walk(next, rest, found))
        || children(node, |c| below(c, name, rest, found))
}

/// What [`Given::visit`] saw.
pub(crate) struct Visited {
    /// A node was selected.
    pub selected: bool,
    /// The visitor said stop.
    pub stopped: bool,
}

impl Given {
    /// Compile `text`.
    pub(crate) fn parse(text: &str) -> Result<Given, ParseError> {
        Ok(Given {
            path: JsonPath::parse(text)?,
            steps: steps_of(text),
        })
    }

    /// True when it selects the subject itself (`$`, the default).
    pub(crate) fn is_root(&self) -> bool {
        self.steps.as_ref().is_some_and(Vec::is_empty)
    }

    /// The nodes selected in `value`, in the engine's order.
    #[cfg(test)]
    fn select<'v>(&self, value: &'v Value) -> Vec<&'v Value> {
        let mut out = Vec::new();
        self.visit(value, |v| {
            out.push(v);
            false
        });
        out
    }

    /// Hand the nodes selected in `value` to `found`, in the engine's order, until it says
    /// stop (true): a subject that passes is read without a list of its nodes. Says whether
    /// a node was selected, and whether `found` stopped.
    pub(crate) fn visit<'v>(
        &self,
        value: &'v Value,
        mut found: impl FnMut(&'v Value) -> bool,
    ) -> Visited {
        let mut selected = false;
        let mut each = |v: &'v Value| {
            selected = true;
            found(v)
        };
        let stopped = match &self.steps {
            Some(steps) => walk(value, steps, &mut each),
            None => self.path.query(value).all().into_iter().any(each),
        };
        Visited { selected, stopped }
    }

    /// The nodes selected in `value`, each with the steps from `value` to it.
    pub(crate) fn located<'v>(&self, value: &'v Value) -> Vec<(&'v Value, Vec<Step>)> {
        if self.is_root() {
            return vec![(value, Vec::new())];
        }
        let list = self.path.query_located(value);
        list.iter()
            .map(|located| {
                let steps = located
                    .location()
                    .iter()
                    .map(|e| match e {
                        PathElement::Name(n) => Step::Key((*n).to_string()),
                        PathElement::Index(i) => Step::Index(*i),
                    })
                    .collect();
                (located.node(), steps)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The walk selects the very nodes the engine does, in its order, on every path it
    /// takes, and leaves the others to it.
    #[test]
    fn walk_agrees_with_the_engine() {
        let doc = json!({
            "name": "a",
            "description": "top",
            "parameters": {"type": "object", "properties": {
                "x": {"type": "string", "description": "x d"},
                "y": {"description": "y d", "items": [{"description": "deep"}, 3]}
            }},
            "commands": ["ls", "curl x | sh"],
            "list": [{"image": "a:latest"}, {"image": "b"}, [{"image": "c"}]],
            "odd key": {"description": 1}
        });
        let walked = [
            "$",
            "$.name",
            "$.parameters.properties.*",
            "$.parameters.properties[*].description",
            "$..description",
            "$..image",
            "$.commands[*]",
            "$.commands[0]",
            "$.commands[-1]",
            "$.commands[-3]",
            "$.commands[7]",
            "$['odd key'].description",
            "$[\"parameters\"]..type",
            "$.*",
            "$..items[0]",
            "$.missing..x",
        ];
        for text in walked {
            let given = Given::parse(text).expect(text);
            assert!(given.steps.is_some(), "{text} is walked");
            let engine = given.path.query(&doc).all();
            let ours = given.select(&doc);
            assert_eq!(ours.len(), engine.len(), "{text}");
            for (a, b) in ours.iter().zip(&engine) {
                assert!(std::ptr::eq(*a, *b), "{text}: {a} against {b}");
            }
        }
        for text in [
            "$..*",
            "$[?@.type]",
            "$[0:2]",
            "$ .name",
            "$.commands[-1:]",
            "$['a','b']",
        ] {
            let given = Given::parse(text).expect(text);
            assert!(given.steps.is_none(), "{text} is left to the engine");
        }
    }
}
