//! Walking a spanned schema tree: every subschema, what a JSON pointer lands on in schema
//! terms, and exact pointer resolution. Nothing here follows a `$ref`: references are
//! strings to inspect, never edges to walk, so a reference cycle cannot make a walk loop.

use super::Runtime;
use super::vocab::{self, Holds};
use std::borrow::Cow;
use std::collections::HashMap;

use crate::analysis::names::did_you_mean_within;
use crate::syntax::{Entry, MAX_DEPTH, Node, NodeKind};

/// One subschema (a mapping) found by the walk.
#[derive(Clone, Copy)]
pub(crate) struct Site<'a> {
    /// The subschema.
    pub node: &'a Node,
    /// Read by the runtime's conversion, when the schema is checked for one: the root, and
    /// whatever the runtime says it reads below a schema it reads.
    pub converted: bool,
    /// A value of some `properties` mapping.
    pub is_property: bool,
}

/// Give `f` every subschema of `root` that is a mapping, found iteratively (depth-capped at
/// [`MAX_DEPTH`]), in source order. A check walks again rather than holds every site: a map
/// of a million properties held a place for each, twice over, before. The items of a packed
/// list are read one at a time and visited while they are held, never built all at once (a
/// list of 600,000 small schemas built as nodes took eight times its text).
pub(crate) fn visit(root: &Node, runtime: Option<&dyn Runtime>, f: &mut dyn FnMut(&Site<'_>)) {
    let top = Site {
        node: root,
        converted: true,
        is_property: false,
    };
    visit_from(top, 0, runtime, f);
}

/// [`visit`] from `top`, at `depth`.
fn visit_from(
    top: Site<'_>,
    depth: usize,
    runtime: Option<&dyn Runtime>,
    f: &mut dyn FnMut(&Site<'_>),
) {
    let walk = Subschemas {
        runtime,
        top: Some((top, depth)),
        open: Vec::new(),
    };
    for step in walk {
        match step {
            Step::Site(site) => f(&site),
            Step::Read {
                node,
                converted,
                is_property,
                depth,
            } => {
                let site = Site {
                    node: &node,
                    converted,
                    is_property,
                };
                visit_from(site, depth, runtime, f);
            }
        }
    }
}

/// The walk of [`visit`]: one frame per open mapping, so its memory follows the depth.
struct Subschemas<'a> {
    runtime: Option<&'a dyn Runtime>,
    top: Option<(Site<'a>, usize)>,
    open: Vec<Frame<'a>>,
}

/// What the walk finds next.
enum Step<'a> {
    /// A subschema held in the tree.
    Site(Site<'a>),
    /// An item of a packed list or a value of a packed mapping, read from its bytes:
    /// visited (with what lies below it) while it is held.
    Read {
        node: Node,
        converted: bool,
        is_property: bool,
        depth: usize,
    },
}

/// A subschema whose children are being walked.
struct Frame<'a> {
    node: &'a Node,
    entries: std::slice::Iter<'a, Entry>,
    /// The children of the entry being read, when it holds several.
    several: Several<'a>,
    converted: bool,
    depth: usize,
}

/// The children of one keyword that holds several subschemas.
enum Several<'a> {
    None,
    /// A mapping of named subschemas (`properties`, `$defs`, ...).
    Named {
        children: crate::syntax::map::Scan<'a>,
        converted: bool,
        is_property: bool,
    },
    /// A list of subschemas (`anyOf`, `items` as a list, ...).
    List {
        children: crate::syntax::seq::Scan<'a>,
        converted: bool,
    },
}

impl<'a> Frame<'a> {
    /// The next child of this subschema that is a mapping, in source order.
    fn next_child(&mut self, runtime: Option<&dyn Runtime>, depth: usize) -> Option<Step<'a>> {
        let site = |node, converted, is_property| {
            Step::Site(Site {
                node,
                converted,
                is_property,
            })
        };
        loop {
            match &mut self.several {
                Several::Named {
                    children,
                    converted,
                    is_property,
                } => match children.find(|c| c.value.entries().is_some()) {
                    Some(Cow::Borrowed(c)) => {
                        return Some(site(&c.value, *converted, *is_property));
                    }
                    Some(Cow::Owned(c)) => {
                        return Some(Step::Read {
                            node: c.value,
                            converted: *converted,
                            is_property: *is_property,
                            depth,
                        });
                    }
                    None => self.several = Several::None,
                },
                Several::List {
                    children,
                    converted,
                } => match children.find(|c| c.entries().is_some()) {
                    Some(Cow::Borrowed(c)) => return Some(site(c, *converted, false)),
                    Some(Cow::Owned(node)) => {
                        return Some(Step::Read {
                            node,
                            converted: *converted,
                            is_property: false,
                            depth,
                        });
                    }
                    None => self.several = Several::None,
                },
                Several::None => {}
            }
            let e = self.entries.next()?;
            let converted =
                self.converted && runtime.is_some_and(|r| r.reads(self.node, &e.key, &e.value));
            let is_property = e.key == "properties";
            match (vocab::holds(&e.key), &e.value.kind) {
                (Holds::One | Holds::OneOrList, NodeKind::Map(_)) => {
                    return Some(site(&e.value, converted, is_property));
                }
                (Holds::Named | Holds::SchemaOrNames, NodeKind::Map(named)) => {
                    self.several = Several::Named {
                        children: named.scan(),
                        converted,
                        is_property,
                    };
                }
                // A packed list holds no mapping.
                (Holds::List | Holds::OneOrList, NodeKind::Seq(items)) if !items.flat() => {
                    self.several = Several::List {
                        children: items.scan(),
                        converted,
                    };
                }
                _ => {}
            }
        }
    }
}

impl<'a> Subschemas<'a> {
    /// Visit `site`, a mapping at `depth`: its children come next.
    fn enter(&mut self, site: Site<'a>, depth: usize) -> Option<Step<'a>> {
        let entries = site.node.as_map()?;
        if depth < MAX_DEPTH {
            self.open.push(Frame {
                node: site.node,
                entries: entries.iter(),
                several: Several::None,
                converted: site.converted,
                depth,
            });
        }
        Some(Step::Site(site))
    }
}

impl<'a> Iterator for Subschemas<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        if let Some((top, depth)) = self.top.take() {
            return self.enter(top, depth);
        }
        loop {
            let runtime = self.runtime;
            let frame = self.open.last_mut()?;
            let depth = frame.depth + 1;
            match frame.next_child(runtime, depth) {
                Some(Step::Site(child)) => return self.enter(child, depth),
                Some(read) => return Some(read),
                None => {
                    self.open.pop();
                }
            }
        }
    }
}

/// Where a JSON pointer lands, in schema terms.
pub(crate) enum Target {
    /// A subschema itself (described, e.g. "the schema of property `a`").
    Schema(String),
    /// The value of a keyword.
    Keyword(String),
    /// Something inside a keyword's value (`/required/0`).
    InValue(String),
}

/// Decode one JSON pointer segment (`~1` is `/`, `~0` is `~`).
pub(crate) fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Classify `pointer` against the structure of a schema; also returns the pointer of the
/// keyword it lands in or under, when there is one.
pub(crate) fn locate(root: &Node, pointer: &str) -> (Target, Option<String>) {
    #[derive(Clone, Copy)]
    enum State<'k> {
        Schema,
        Named(&'k str),
        List(&'k str),
        Data,
    }
    // The static spelling of a schema-holding keyword, so states need not own strings.
    let static_name = |seg: &str| vocab::keyword(seg).map_or("keyword", |k| k.name);
    let mut state = State::Schema;
    let mut target = Target::Schema("the schema".to_string());
    let mut keyword_ptr = None;
    let mut node = root;
    let mut walked = String::new();
    for raw in pointer.split('/').skip(1) {
        let seg = unescape(raw);
        walked.push('/');
        walked.push_str(raw);
        let child = match &node.kind {
            NodeKind::Map(entries) => entries.iter().find(|e| e.key == seg).map(|e| &e.value),
            NodeKind::Seq(items) => seg.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        let child = child.unwrap_or(node);
        state = match state {
            State::Schema => {
                keyword_ptr = Some(walked.clone());
                match (vocab::holds(&seg), &child.kind) {
                    (Holds::One, _) | (Holds::OneOrList, NodeKind::Map(_) | NodeKind::Bool(_)) => {
                        target = Target::Schema(format!("the `{seg}` schema"));
                        keyword_ptr = None;
                        State::Schema
                    }
                    (Holds::Named | Holds::SchemaOrNames, _) => {
                        target = Target::Keyword(seg.clone());
                        State::Named(static_name(&seg))
                    }
                    (Holds::List | Holds::OneOrList, _) => {
                        target = Target::Keyword(seg.clone());
                        State::List(static_name(&seg))
                    }
                    _ => {
                        target = Target::Keyword(seg.clone());
                        State::Data
                    }
                }
            }
            State::Named(kw) => {
                keyword_ptr = None;
                target = Target::Schema(match kw {
                    "properties" => format!("the schema of property `{seg}`"),
                    "definitions" | "$defs" => format!("definition `{seg}`"),
                    "patternProperties" => format!("the schema for pattern `{seg}`"),
                    _ => format!("the `{kw}` entry `{seg}`"),
                });
                State::Schema
            }
            State::List(kw) => {
                keyword_ptr = None;
                target = Target::Schema(format!("`{kw}[{seg}]`"));
                State::Schema
            }
            State::Data => {
                if let Target::Keyword(k) = &target {
                    target = Target::InValue(k.clone());
                }
                State::Data
            }
        };
        node = child;
    }
    (target, keyword_ptr)
}

/// Mappings of more members than this are looked up through an index.
const INDEXED: usize = 16;

/// Exact JSON pointer resolution in one schema. A step into a large mapping goes through an
/// index of its members, made the first time a pointer passes through it: a schema whose
/// thousands of `$ref`s each name one of thousands of definitions was read member by member
/// for each (60,000 of them took 15 s).
pub(crate) struct Pointers<'a> {
    root: &'a Node,
    /// Per large mapping (by address), its members by key; the first of a repeated key.
    index: HashMap<*const Node, HashMap<&'a str, &'a Node>>,
}

impl<'a> Pointers<'a> {
    /// Pointers into `root`.
    pub(crate) fn new(root: &'a Node) -> Pointers<'a> {
        Pointers {
            root,
            index: HashMap::new(),
        }
    }

    /// Resolve a JSON pointer (without the leading `/`) exactly; on failure, a "did you
    /// mean" for the first segment that is missing, while `budget` (comparisons of names)
    /// lasts.
    pub(crate) fn resolve(
        &mut self,
        pointer: &str,
        budget: &mut usize,
    ) -> Result<&'a Node, Option<String>> {
        let mut node = self.root;
        let mut walked = String::from("#");
        for raw in pointer.split('/') {
            let seg = unescape(raw);
            let next = match &node.kind {
                NodeKind::Map(entries) if entries.len() > INDEXED => self
                    .index
                    .entry(node as *const Node)
                    .or_insert_with(|| {
                        // Last to first, so the first of a repeated key is the one kept.
                        entries
                            .iter()
                            .rev()
                            .map(|e| (e.key.as_str(), &e.value))
                            .collect()
                    })
                    .get(seg.as_str())
                    .copied(),
                NodeKind::Map(entries) => entries.iter().find(|e| e.key == seg).map(|e| &e.value),
                NodeKind::Seq(items) => seg.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => {
                    let hint = node
                        .as_map()
                        .and_then(|entries| {
                            let keys = entries.iter().map(|e| e.key.as_str());
                            did_you_mean_within(budget, &seg, entries.len(), keys)
                        })
                        .map(|k| format!("{walked}/{}", k.replace('~', "~0").replace('/', "~1")));
                    return Err(hint);
                }
            }
            walked.push('/');
            walked.push_str(raw);
        }
        Ok(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json;

    fn parse(text: &str) -> Node {
        json::parse(text, 0).root.expect("test schema parses")
    }

    #[test]
    fn finds_every_subschema_in_source_order() {
        let root = parse(
            r#"{"properties": {"a": {"items": {"type": "string"}}, "b": {}},
                "anyOf": [{"not": {}}], "enum": [{"type": "x"}], "definitions": {"d": true}}"#,
        );
        let mut sites: Vec<(Node, bool, bool)> = Vec::new();
        visit(&root, None, &mut |s| {
            sites.push((s.node.clone(), s.converted, s.is_property));
        });
        // root, a, a.items, b, anyOf[0], anyOf[0].not; `enum` holds data, `true` is no mapping.
        assert_eq!(sites.len(), 6);
        assert!(sites[1].2 && sites[3].2 && !sites[4].2);
        assert_eq!(
            sites[2].0.value("type").and_then(Node::as_str),
            Some("string")
        );
        assert!(sites[0].1 && sites[1..].iter().all(|s| !s.1));
    }

    #[test]
    fn locates_pointers_in_schema_terms() {
        let root = parse(r#"{"properties": {"a": {"required": ["x"]}}, "allOf": [{}]}"#);
        let (target, kw) = locate(&root, "/properties/a");
        assert!(matches!(target, Target::Schema(s) if s == "the schema of property `a`"));
        assert_eq!(kw, None);
        let (target, kw) = locate(&root, "/properties/a/required/0");
        assert!(matches!(target, Target::InValue(k) if k == "required"));
        assert_eq!(kw.as_deref(), Some("/properties/a/required"));
        let (target, _) = locate(&root, "/allOf/0");
        assert!(matches!(target, Target::Schema(s) if s == "`allOf[0]`"));
    }

    #[test]
    fn resolves_pointers_exactly_with_a_hint() {
        let root = parse(r#"{"definitions": {"a/b": {"type": "string"}, "list": [1, 2]}}"#);
        let mut pointers = Pointers::new(&root);
        let mut budget = 1_000;
        let mut resolve = |p: &str| pointers.resolve(p, &mut budget);
        let found = resolve("definitions/a~1b/type").expect("resolves");
        assert_eq!(found.as_str(), Some("string"));
        assert!(resolve("definitions/list/1").is_ok());
        assert_eq!(
            resolve("definitons/a~1b").err(),
            Some(Some("#/definitions".to_string()))
        );
        assert_eq!(resolve("definitions/list/7").err(), Some(None));
    }

    /// A mapping large enough to be indexed resolves as a small one does: the first of a
    /// repeated key, a hint for a missing one, and none once the budget is spent.
    #[test]
    fn a_large_mapping_resolves_through_its_index() {
        let members: Vec<String> = (0..100)
            .map(|i| format!(r#""d{i}": {{"n": "v{i}"}}"#))
            .collect();
        let root = parse(&format!(
            r#"{{"definitions": {{{}, "d5": {{"n": "again"}}}}}}"#,
            members.join(", ")
        ));
        let mut pointers = Pointers::new(&root);
        let mut budget = 1_000;
        for i in [0, 42, 99] {
            let n = pointers.resolve(&format!("definitions/d{i}/n"), &mut budget);
            assert_eq!(
                n.ok().and_then(Node::as_str),
                Some(format!("v{i}").as_str())
            );
        }
        let first = pointers.resolve("definitions/d5/n", &mut budget);
        assert_eq!(first.ok().and_then(Node::as_str), Some("v5"));
        assert_eq!(
            pointers.resolve("definitions/d42x", &mut budget).err(),
            Some(Some("#/definitions/d42".to_string()))
        );
        let mut spent = 0;
        assert_eq!(
            pointers.resolve("definitions/d42x", &mut spent).err(),
            Some(None)
        );
    }
}
