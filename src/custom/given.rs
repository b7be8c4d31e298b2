//! A rule's `given`: the JSONPath as the engine compiled it and, for the paths rules mostly
//! write (names, wildcards, indexes, descendant names and wildcards: `$.parameters.properties.*`,
//! `$..description`, `$..*`), the same selection made by one walk of the value. The engine
//! builds a list for every node a step visits, and the rules run on every tool of a
//! repository (measured in docs/performance.md); the walk makes no list, hands each node on
//! as it comes, and stops when the rule's budget of nodes is spent ([`Budget`]). A path the
//! walk does not take runs on the engine only when the estimate of its cost fits in that
//! budget ([`super::cost`]).

use serde_json::Value;
use serde_json_path::{JsonPath, NormalizedPath, ParseError, PathElement};

use super::budget::Budget;
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
    /// `..*`, `..[*]`: every member and item of the node and of every node under it.
    BelowEvery,
}

/// A compiled `given`.
#[derive(Debug)]
pub struct Given {
    path: JsonPath,
    /// The path as written: what the engine's cost is estimated from.
    text: String,
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
fn bracketed(text: &str) -> Option<String> {
    names_bracketed(text)
        .filter(|names| names.len() == 1)
        .and_then(|mut names| names.pop())
}

/// The names of `['name']` or `['name', 'other', …]` when every selector is a plain quoted
/// name (a union of names reads those members only, as one name does).
pub(super) fn names_bracketed(text: &str) -> Option<Vec<String>> {
    let mut rest = text.strip_prefix('[')?;
    let mut names = Vec::new();
    loop {
        let inner = rest.trim_start();
        let quote = inner.chars().next().filter(|q| *q == '\'' || *q == '"')?;
        let after_quote = &inner[1..];
        let end = after_quote.find(quote)?;
        let name = &after_quote[..end];
        if name.contains('\\') {
            return None;
        }
        names.push(name.to_string());
        let after = after_quote[end + 1..].trim_start();
        if after.starts_with(']') {
            return Some(names);
        }
        rest = after.strip_prefix(',')?;
    }
}

/// The steps of `text` when it is `$` followed only by steps the walk makes, written without
/// blanks (anything else is left to the engine).
fn steps_of(text: &str) -> Option<Vec<Selector>> {
    let mut rest = text.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("..") {
            let (step, next) = if let Some(next) = after.strip_prefix('*') {
                (Selector::BelowEvery, next)
            } else if let Some(next) = after.strip_prefix("[*]") {
                (Selector::BelowEvery, next)
            } else if after.starts_with('[') {
                let end = after.find(']')?;
                (
                    Selector::Below(bracketed(&after[..=end])?),
                    &after[end + 1..],
                )
            } else {
                let (name, next) = shorthand(after)?;
                (Selector::Below(name), next)
            };
            steps.push(step);
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

/// What a walk hands on: a node and the way to it, and whether to stop (true).
type Found<'f, 'v> = dyn FnMut(Val<'v>, &Trail<'_>) -> bool + 'f;

/// Hand what `steps` select from `node` (at `trail`) to `found`, in order, until it says
/// stop (true) or `budget` is spent (a node entered costs one); true when it stopped.
fn walk<'v>(
    node: Val<'v>,
    trail: &Trail<'_>,
    steps: &[Selector],
    budget: &Budget,
    found: &mut Found<'_, 'v>,
) -> bool {
    if !budget.take(1) {
        return true;
    }
    let Some((step, rest)) = steps.split_first() else {
        return found(node, trail);
    };
    match step {
        Selector::Name(name) => node
            .get(name)
            .is_some_and(|next| walk(next, &trail.then(Edge::Key(name)), rest, budget, found)),
        Selector::Every => {
            node.children(&mut |edge, c| walk(c, &trail.then(edge), rest, budget, found))
        }
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
                .is_some_and(|(a, next)| {
                    walk(next, &trail.then(Edge::Index(a)), rest, budget, found)
                })
        }
        Selector::Below(name) => below(node, trail, name, rest, budget, found),
        Selector::BelowEvery => below_every(node, trail, rest, budget, found),
    }
}

/// `..name` then `rest`: the node's own member first, then each child's, depth first.
fn below<'v>(
    node: Val<'v>,
    trail: &Trail<'_>,
    name: &str,
    rest: &[Selector],
    budget: &Budget,
    found: &mut Found<'_, 'v>,
) -> bool {
    if !budget.take(1) {
        return true;
    }
    let own = node.get(name);
    own.is_some_and(|next| walk(next, &trail.then(Edge::Key(name)), rest, budget, found))
        || node.children(&mut |edge, c| below(c, &trail.then(edge), name, rest, budget, found))
}

/// `..*` then `rest`, in the engine's order (RFC 9535's for a descendant segment): every
/// child of the node, then, child by child, the same below it.
fn below_every<'v>(
    node: Val<'v>,
    trail: &Trail<'_>,
    rest: &[Selector],
    budget: &Budget,
    found: &mut Found<'_, 'v>,
) -> bool {
    if !budget.take(1) {
        return true;
    }
    node.children(&mut |edge, c| walk(c, &trail.then(edge), rest, budget, found))
        || node.children(&mut |edge, c| below_every(c, &trail.then(edge), rest, budget, found))
}

/// Where a selected node is: on the walk's stack, or as the engine located it.
pub(crate) enum At<'a> {
    /// The walk's way to it.
    Trail(&'a Trail<'a>),
    /// The engine's.
    Located(&'a NormalizedPath<'a>),
}

impl At<'_> {
    /// The steps from the root.
    pub(crate) fn steps(&self) -> Vec<Step> {
        match self {
            At::Trail(trail) => trail.steps(),
            At::Located(location) => located_steps(location),
        }
    }
}

impl Given {
    /// Compile `text`.
    pub(crate) fn parse(text: &str) -> Result<Given, ParseError> {
        Ok(Given {
            path: JsonPath::parse(text)?,
            text: text.to_string(),
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
    /// `json`) to `found` with their places, in order, until it says stop (true), reading
    /// no more than `budget` allows (see [`Budget::stopped`]). The walk hands on each node as
    /// it comes, its place on the stack; the engine's nodes are first given to `passes`
    /// without a place, and located only when one of them does not pass (a place is
    /// allocations per node, and most subjects pass). True when a node was selected.
    pub(crate) fn select<'v>(
        &self,
        root: Val<'v>,
        json: Option<&'v Value>,
        budget: &Budget,
        passes: &mut dyn FnMut(Val<'v>) -> bool,
        found: &mut dyn FnMut(Val<'v>, &At<'_>) -> bool,
    ) -> bool {
        match (&self.steps, json) {
            (Some(steps), _) => {
                let mut selected = false;
                walk(root, &Trail::ROOT, steps, budget, &mut |v, trail| {
                    selected = true;
                    found(v, &At::Trail(trail))
                });
                selected
            }
            (None, Some(json)) => {
                // The engine reads what it reads before any node is handed on: it runs only
                // when its estimate fits (counting the nodes is reading them).
                let n = Val::Json(json).size_within(budget.left());
                let estimate = super::cost::estimate(&self.text, n);
                if !budget.take_estimate(estimate.saturating_add(n)) {
                    // Nothing is known of what it would select: not "nothing".
                    return true;
                }
                let nodes = self.path.query(json).all();
                if nodes.is_empty() {
                    return false;
                }
                if nodes.into_iter().all(|v| passes(Val::Json(v))) {
                    return true;
                }
                if budget.take_estimate(estimate) {
                    for located in self.path.query_located(json).iter() {
                        if found(Val::Json(located.node()), &At::Located(located.location())) {
                            break;
                        }
                    }
                }
                true
            }
            (None, None) => false,
        }
    }

    /// The nodes selected in `root` (or by the engine in `json`), each with the steps from
    /// the root to it, within `budget`.
    #[cfg(test)]
    fn located<'v>(
        &self,
        root: Val<'v>,
        json: Option<&'v Value>,
        budget: &Budget,
    ) -> Vec<(Val<'v>, Vec<Step>)> {
        let mut out = Vec::new();
        self.select(root, json, budget, &mut |_| false, &mut |v, at| {
            out.push((v, at.steps()));
            false
        });
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
    use crate::custom::budget::Stop;
    use serde_json::json;

    /// More than any test document needs.
    fn plenty() -> Budget {
        Budget::new(1_000_000)
    }

    /// The walk selects the very nodes the engine does, in its order, on every path it
    /// takes, and leaves the others to it.
    #[test]
    fn walk_agrees_with_the_engine() {
        // Lists and mappings long enough to be packed in the tree: read where they are.
        let tools: Vec<Value> = (0..300)
            .map(|i| json!({"name": format!("t{i}"), "description": i, "items": [{"image": i}]}))
            .collect();
        let many: serde_json::Map<String, Value> = (0..300)
            .map(|i| (format!("k{i}"), json!({"description": [i]})))
            .collect();
        let doc = json!({
            "tools": tools,
            "many": many,
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
            "$..*",
            "$..[*]",
            "$..*..*",
            "$..*..*..*",
            "$..*.description",
            "$..*[0]",
            "$.parameters..*",
            "$.list..[*]..image",
            "$..['description']",
            "$.*..*",
            "$.name..*",
            "$.tools[299].items[0].image",
            "$.tools[-1].name",
            "$.tools[*].name",
            "$.many.k299",
            "$.many.*.description[0]",
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
            let ours = given.located(Val::Json(&doc), None, &plenty());
            assert_eq!(ours.len(), engine.len(), "{text}");
            for ((a, _), b) in ours.iter().zip(&engine) {
                let Val::Json(a) = a else {
                    panic!("{text}: JSON walked gives JSON")
                };
                assert!(std::ptr::eq(*a, *b), "{text}: {a} against {b}");
            }
            // On the tree: the same values at the same steps.
            let from_engine = given.located(Val::Json(&doc), Some(&doc), &plenty());
            let on_tree = given.located(
                Val::Tree(crate::syntax::NodeAt::from(&tree)),
                None,
                &plenty(),
            );
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
            "$..[ * ]",
            "$..[0]",
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

    /// Nested lists: `depth` levels, then `width` ones; the JSON and its node count.
    fn nested(depth: usize, width: usize) -> (Value, u64) {
        let mut v = json!(vec![1; width]);
        for _ in 1..depth {
            v = json!([v]);
        }
        (v, (depth + width) as u64)
    }

    /// A walk stops where its budget does, says so, and hands on nothing after.
    #[test]
    fn the_walk_stops_at_its_budget_and_says_so() {
        let (doc, _) = nested(40, 20);
        let given = Given::parse("$..*..*..*").expect("parses");
        let all = given.located(Val::Json(&doc), None, &plenty());
        assert!(all.len() > 10_000, "{}", all.len());
        let budget = Budget::new(5_000);
        let some = given.located(Val::Json(&doc), None, &budget);
        assert!(!some.is_empty() && some.len() < 5_000, "{}", some.len());
        assert!(matches!(
            budget.stopped(),
            Some(Stop::Spent { total: 5_000, read, .. }) if read > 4_000 && read <= 5_000
        ));
        // What was handed on is the start of the whole selection.
        for ((a, _), (b, _)) in some.iter().zip(&all) {
            let (Val::Json(a), Val::Json(b)) = (a, b) else {
                panic!("JSON walked gives JSON")
            };
            assert!(std::ptr::eq(*a, *b));
        }
        // Within the budget: no stop.
        let enough = plenty();
        given.located(Val::Json(&doc), None, &enough);
        assert_eq!(enough.stopped(), None);
    }

    /// A path left to the engine runs only when its estimate fits, and says so when not.
    #[test]
    fn the_engine_runs_only_within_the_budget() {
        let (doc, n) = nested(100, 50);
        let heavy = Given::parse("$..*..*..[0:1]").expect("parses");
        assert!(heavy.needs_json());
        let budget = Budget::new(1_000_000);
        let mut handed = 0;
        let selected = heavy.select(
            Val::Json(&doc),
            Some(&doc),
            &budget,
            &mut |_| false,
            &mut |_, _| {
                handed += 1;
                false
            },
        );
        assert!(selected, "what it would select is not known: not nothing");
        assert_eq!(handed, 0);
        let Some(Stop::Engine { estimate, left }) = budget.stopped() else {
            panic!("stopped by the estimate: {:?}", budget.stopped())
        };
        assert!(
            estimate > n.pow(4) && left == 1_000_000,
            "{estimate} {left}"
        );
        // A filter over the same document fits.
        let light = Given::parse("$..[?@ == 1]").expect("parses");
        let budget = Budget::new(1_000_000);
        assert_eq!(
            light.located(Val::Json(&doc), Some(&doc), &budget).len(),
            50
        );
        assert_eq!(budget.stopped(), None);
        // Nodes that all pass are never located.
        let mut handed = 0;
        let selected = light.select(
            Val::Json(&doc),
            Some(&doc),
            &Budget::new(1_000_000),
            &mut |_| true,
            &mut |_, _| {
                handed += 1;
                false
            },
        );
        assert!(selected);
        assert_eq!(handed, 0);
    }
}
