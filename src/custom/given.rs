//! A rule's `given`: the JSONPath as the engine compiled it and, for the paths rules mostly
//! write (names, wildcards, indexes, descendant names: `$.parameters.properties.*`,
//! `$..description`), the same selection made by one walk of the value. The engine builds a
//! list for every node a step visits, and the rules run on every tool of a repository
//! (measured in docs/performance.md); a subject where a node fails is still queried by the
//! engine, with the nodes' places.

use serde_json::Value;
use serde_json_path::{JsonPath, NormalizedPath, ParseError, PathElement};

use super::val::{Edge, Trail, Val};

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

/// Hand what `steps` select from `node` (at `trail`) to `found`, in order, until it says
/// stop (true); true when it did.
fn walk<'v>(
    node: Val<'v>,
    trail: &Trail<'_>,
    steps: &[Selector],
    found: &mut dyn FnMut(Val<'v>, &Trail<'_>) -> bool,
) -> bool {
    let Some((step, rest)) = steps.split_first() else {
        return found(node, trail);
    };
    match step {
        Selector::Name(name) => node
            .get(name)
            .is_some_and(|next| walk(next, &trail.then(Edge::Key(name)), rest, found)),
        Selector::Every => node.children(&mut |edge, c| walk(c, &trail.then(edge), rest, found)),
        Selector::Index(i) => {
            let Some(len) = node.len_of_list() else {
                return false;
            };
            let at = if *i < 0 {
                usize::try_from(i.unsigned_abs())
                    .ok()
                    .and_then(|back| len.checked_sub(back))
            } else {
                usize::try_from(*i).ok()
            };
            at.and_then(|a| Some((a, node.item(a)?)))
                .is_some_and(|(a, next)| walk(next, &trail.then(Edge::Index(a)), rest, found))
        }
        Selector::Below(name) => below(node, trail, name, rest, found),
    }
}

/// `..name` then `rest`: the node's own member first, then each child's, depth first.
fn below<'v>(
    node: Val<'v>,
    trail: &Trail<'_>,
    name: &str,
    rest: &[Selector],
    found: &mut dyn FnMut(Val<'v>, &Trail<'_>) -> bool,
) -> bool {
    let own = node.get(name);
    own.is_some_and(|next| walk(next, &trail.then(Edge::Key(name)), rest, found))
        || node.children(&mut |edge, c| below(c, &trail.then(edge), name, rest, found))
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

    /// True when the JSONPath engine selects its nodes, which needs the subject's JSON; the
    /// walk reads any [`Val`].
    pub(crate) fn needs_json(&self) -> bool {
        self.steps.is_none()
    }

    /// Hand the nodes selected in `root` (or, when the engine selects them, in its JSON
    /// `json`) to `found`, in order, until it says stop (true): a subject that passes is read
    /// without a list of its nodes. Says whether a node was selected, and whether `found`
    /// stopped.
    pub(crate) fn visit<'v>(
        &self,
        root: Val<'v>,
        json: Option<&'v Value>,
        mut found: impl FnMut(Val<'v>) -> bool,
    ) -> Visited {
        let mut selected = false;
        let mut each = |v: Val<'v>| {
            selected = true;
            found(v)
        };
        let stopped = match (&self.steps, json) {
            (Some(steps), _) => walk(root, &Trail::ROOT, steps, &mut |v, _| each(v)),
            (None, Some(json)) => self
                .path
                .query(json)
                .all()
                .into_iter()
                .any(|v| each(Val::Json(v))),
            (None, None) => false,
        };
        Visited { selected, stopped }
    }

    /// The nodes selected in `root` (or by the engine in `json`), each with the steps from
    /// the root to it.
    pub(crate) fn located<'v>(
        &self,
        root: Val<'v>,
        json: Option<&'v Value>,
    ) -> Vec<(Val<'v>, Vec<Step>)> {
        let mut out = Vec::new();
        match (&self.steps, json) {
            (Some(steps), _) => {
                walk(root, &Trail::ROOT, steps, &mut |v, trail| {
                    out.push((v, trail.steps()));
                    false
                });
            }
            (None, Some(json)) => {
                for located in self.path.query_located(json).iter() {
                    out.push((Val::Json(located.node()), located_steps(located.location())));
                }
            }
            (None, None) => {}
        }
        out
    }
}

/// The steps of a place the engine located.
fn located_steps(location: &NormalizedPath) -> Vec<Step> {
    location
        .iter()
        .map(|e| match e {
            PathElement::Name(n) => Step::Key((*n).to_string()),
            PathElement::Index(i) => Step::Index(*i),
        })
        .collect()
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
        // The same document as a syntax tree, its keys in another order than JSON's.
        let tree = crate::syntax::json::parse(&doc.to_string(), 0)
            .root
            .expect("the document parses");
        let as_json = |found: Vec<(Val<'_>, Vec<Step>)>| {
            let mut all: Vec<(String, Vec<Step>)> = found
                .into_iter()
                .map(|(v, steps)| (v.to_json().to_string(), steps))
                .collect();
            all.sort_by(|a, b| format!("{:?}", a.1).cmp(&format!("{:?}", b.1)));
            all
        };
        for text in walked {
            let given = Given::parse(text).expect(text);
            assert!(!given.needs_json(), "{text} is walked");
            let engine = given.path.query(&doc).all();
            let ours = given.located(Val::Json(&doc), None);
            assert_eq!(ours.len(), engine.len(), "{text}");
            for ((a, _), b) in ours.iter().zip(&engine) {
                let Val::Json(a) = a else {
                    panic!("{text}: JSON walked gives JSON")
                };
                assert!(std::ptr::eq(*a, *b), "{text}: {a} against {b}");
            }
            // On the tree: the same values at the same steps.
            let from_engine = given.located(Val::Json(&doc), Some(&doc));
            let on_tree = given.located(Val::Tree(&tree), None);
            assert_eq!(as_json(on_tree), as_json(from_engine.clone()), "{text}");
            let engine_located: Vec<(Val<'_>, Vec<Step>)> = given
                .path
                .query_located(&doc)
                .iter()
                .map(|l| (Val::Json(l.node()), located_steps(l.location())))
                .collect();
            assert_eq!(as_json(from_engine), as_json(engine_located), "{text}");
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
            assert!(given.needs_json(), "{text} is left to the engine");
        }
    }
}
