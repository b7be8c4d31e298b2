//! What a custom rule reads, as JSON, and the way back from a place in that JSON to bytes of
//! a file: a file's own spanned tree, or toolc's format-neutral view of a tool, whose fields
//! point at what the tool's format wrote for them.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::given::Step;
use super::reach::Reach;
use super::val::{Field, Val};
use crate::ir::{Lowered, Run, Schema, empty_object_schema};
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::{Node, NodeAt, NodeKind, TreeRef, front_matter, json as json_syntax, yaml};

/// Bytes of a file.
#[derive(Clone, Copy)]
pub(crate) struct Place<'a> {
    /// The file.
    pub file: &'a Arc<SourceFile>,
    /// The bytes.
    pub span: Span,
}

/// What a subject is made of, and how its values map back to its file.
pub(crate) enum Shape<'a> {
    /// A file's tree: each value is a node.
    Tree(Node),
    /// A lowered tool and its view (moved out of it, or pointing into the trees its load
    /// holds): the view's fields are the places its format wrote them.
    Tool(Box<Lowered<'a>>, Vec<(&'static str, Field<'a>)>),
    /// An Agent Skill's front matter, and its view as a tool.
    Skill(Node, Value),
}

/// One thing a custom rule reads.
pub(crate) struct Subject<'a> {
    /// The file it is in.
    pub file: &'a Arc<SourceFile>,
    /// Its values, and the way back to bytes.
    pub shape: Shape<'a>,
    /// Its JSON, for a rule whose `given` the JSONPath engine runs (only then built).
    json: Built,
}

/// A subject's JSON, as far as it was built.
enum Built {
    /// No rule needs it.
    Unneeded,
    /// Built.
    Json(Value),
    /// Not built: it would take more than a rule may build at once
    /// ([`super::budget::json_cap`]).
    TooLarge,
}

impl Built {
    /// `value`'s JSON, made by `make`, unless it would take more than `cap` bytes.
    fn within(cap: u64, bytes: u64, make: impl FnOnce() -> Value) -> Built {
        if bytes > cap {
            Built::TooLarge
        } else {
            Built::Json(make())
        }
    }
}

impl Subject<'_> {
    /// What its rules read.
    pub(crate) fn root(&self) -> Val<'_> {
        match &self.shape {
            Shape::Tree(root) => Val::Tree(NodeAt::from(root)),
            Shape::Tool(_, fields) => Val::Fields(fields),
            Shape::Skill(_, view) => Val::Json(view),
        }
    }

    /// Its JSON, when built: for the JSONPath engine.
    pub(crate) fn json(&self) -> Option<&Value> {
        match (&self.shape, &self.json) {
            (Shape::Skill(_, view), Built::Unneeded) => Some(view),
            (_, Built::Json(json)) => Some(json),
            _ => None,
        }
    }

    /// True when its JSON would take too much to build it: no rule that reads it (one the
    /// JSONPath engine runs, with `engine`; any, on a skill, whose view is JSON) reads
    /// anything.
    pub(crate) fn too_large(&self, engine: bool) -> bool {
        let skill = matches!(self.shape, Shape::Skill(..));
        matches!(self.json, Built::TooLarge) && (engine || skill)
    }
}

/// The tree of a file as its format reads it: the front matter of a Markdown file, else the
/// whole YAML or JSON document. `None` when it does not parse (its format reports that).
pub(crate) fn file_tree(file: &SourceFile) -> Option<Node> {
    let body = file.body();
    let base = file.bom_len;
    let markdown = matches!(
        file.format,
        FormatId::ToolMd | FormatId::AgentMd | FormatId::AgentSkill | FormatId::DojopsDops
    );
    let parsed = if markdown {
        let fm = front_matter::split_front_matter(&file.text, base).ok()?;
        let yaml_text = file.text.get(fm.yaml.start..fm.yaml.end)?;
        let parsed = yaml::parse(yaml_text, fm.yaml.start);
        if parsed.root.is_none() && parsed.errors.is_empty() {
            // An empty front matter is an empty map.
            return Some(Node::new(
                fm.open,
                NodeKind::Map(crate::syntax::Map::default()),
            ));
        }
        parsed
    } else if file.path.extension().is_some_and(|e| e == "json") {
        json_syntax::parse_jsonc(body, base)
    } else {
        yaml::parse(body, base)
    };
    parsed.root
}

/// The subject a file's tree gives; its JSON, as far as rules that read `reach` see it,
/// only when one of them needs it and it takes at most `cap` bytes.
pub(crate) fn of_file<'a>(
    file: &'a Arc<SourceFile>,
    tree: Node,
    reach: &Reach,
    cap: u64,
) -> Subject<'a> {
    let json = if reach.engine {
        Built::within(cap, reach.json_bytes_within(&tree, cap), || {
            reach.json(&tree)
        })
    } else {
        Built::Unneeded
    };
    Subject {
        file,
        json,
        shape: Shape::Tree(tree),
    }
}

/// The fields of a skill's view that its front matter does not give.
const SKILL_MADE: &[&str] = &["parameters", "commands", "format", "path"];

/// An Agent Skill seen as a tool: its `name` and `description`, no parameters, no
/// commands (the skill's folder is not a command line), and the other keys of its front
/// matter as written (`license`, `metadata`, …), as far as rules that read `reach` see it,
/// when that takes at most `cap` bytes.
pub(crate) fn of_skill<'a>(
    file: &'a Arc<SourceFile>,
    front: Node,
    reach: &Reach,
    cap: u64,
) -> Subject<'a> {
    let bytes = reach.json_bytes_within(&front, cap);
    let (mut view, json) = match Built::within(cap, bytes, || reach.json(&front)) {
        Built::Json(Value::Object(map)) => (map, Built::Unneeded),
        Built::TooLarge => (Map::new(), Built::TooLarge),
        _ => (Map::new(), Built::Unneeded),
    };
    for made in SKILL_MADE {
        view.remove(*made);
    }
    view.insert("parameters".into(), empty_object_schema());
    view.insert("commands".into(), json!([]));
    view.insert("format".into(), json!(file.format.as_str()));
    view.insert("path".into(), json!(file.display()));
    Subject {
        file,
        json,
        shape: Shape::Skill(front, Value::Object(view)),
    }
}

/// The command lines a run gives: an argument vector joined by spaces, a script's text.
fn commands(run: &Run, out: &mut Vec<String>) {
    match run {
        Run::Argv { argv } => out.push(argv.join(" ")),
        Run::Script { script, .. } => out.push(script.clone()),
        Run::Steps { steps } => steps.iter().for_each(|s| commands(s, out)),
        Run::Generate {
            verification: Some(v),
            ..
        } => out.push(v.clone()),
        _ => {}
    }
}

/// The keys of `run` as JSON, whatever the tool (`crate::ir::Run`).
const RUN_KEYS: &[&str] = &[
    "kind",
    "argv",
    "script",
    "shell",
    "steps",
    "transport",
    "files",
    "verification",
    "tool",
    "mcp",
    "arguments",
];
/// The keys of `risk` as JSON (`crate::ir::Risk`).
const RISK_KEYS: &[&str] = &[
    "access",
    "kind",
    "level",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
];
/// The keys of `guidance` as JSON (`crate::ir::Guidance`).
const GUIDANCE_KEYS: &[&str] = &["use_when", "avoid_when", "side_effects"];

/// True when `run` holds a value the tool's source wrote as it liked (keys of any name).
fn open_run(run: &Run) -> bool {
    match run {
        Run::Transport { .. } => true,
        Run::Tool { arguments, .. } => arguments.is_some(),
        Run::Steps { steps } => steps.iter().any(open_run),
        _ => false,
    }
}

/// A schema as a rule reads it: the tree its load holds or packed, read where it is, else
/// read from its text. A JSON value of it took eleven times the text (one tool of 60,000
/// parameters read by a rule: 19 times its file), and the packed tree unpacked about five.
fn schema_field<'a>(tree: Option<TreeRef<'a>>, schema: &Schema) -> Field<'a> {
    match tree {
        Some(tree) => Field::Tree(tree.at()),
        // Parsed once: a rule reading 1.7 million tools parsed it for each (a tenth of its
        // time).
        None if schema.is_empty_object() => match empty_object_tree() {
            Some(tree) => Field::Tree(NodeAt::from(tree)),
            None => Field::Json(schema.value()),
        },
        None => match json_syntax::parse(schema.text(), 0).root {
            Some(tree) => Field::Owned(tree),
            None => Field::Json(schema.value()),
        },
    }
}

/// The tree of the schema of a tool that has none ([`Schema::empty_object`]).
fn empty_object_tree() -> Option<&'static Node> {
    static TREE: std::sync::OnceLock<Option<Node>> = std::sync::OnceLock::new();
    TREE.get_or_init(|| json_syntax::parse(Schema::empty_object().text(), 0).root)
        .as_ref()
}

/// A lowered tool as a custom rule sees it: the IR's fields, with `parameters` (the input
/// schema), `commands`, `format` and `path` named alike in every format, the fields rules
/// that read `reach` see. The values are moved out of the tool, not copied (it is read only
/// through the view after this); a schema whose tree the load still holds is read there.
pub(crate) fn of_tool<'a>(mut lowered: Lowered<'a>, reach: &Reach, cap: u64) -> Subject<'a> {
    let file = lowered.file;
    let path = file.display();
    let mut view: Vec<(&'static str, Field<'a>)> = Vec::new();
    if reach.open("parameters") {
        let held = lowered.schema.map(|(_, tree)| tree);
        view.push(("parameters", schema_field(held, &lowered.tool.input_schema)));
    }
    if reach.open("output")
        && let Some(output) = &lowered.tool.output_schema
    {
        let held = lowered.output.map(|(_, tree)| tree);
        view.push(("output", schema_field(held, output)));
    }
    let tool = &mut lowered.tool;
    let mut put = |key: &'static str, value: Option<Value>| {
        if let Some(v) = value {
            view.push((key, Field::Json(v)));
        }
    };
    let to_json = |v: Result<Value, serde_json::Error>| Some(v.unwrap_or(Value::Null));
    if reach.whole("name") {
        put("name", Some(Value::String(std::mem::take(&mut tool.name))));
    }
    if reach.whole("title") {
        put("title", tool.title.take().map(Value::String));
    }
    if reach.whole("version") {
        put("version", tool.version.take().map(Value::String));
    }
    if reach.whole("description") {
        put(
            "description",
            Some(Value::String(std::mem::take(&mut tool.description))),
        );
    }
    if reach.whole("commands") {
        let mut lines = Vec::new();
        commands(&tool.run, &mut lines);
        put("commands", Some(json!(lines)));
    }
    if reach.fixed("run", RUN_KEYS, open_run(&tool.run)) {
        put("run", to_json(serde_json::to_value(&tool.run)));
    }
    if reach.fixed("risk", RISK_KEYS, false) {
        put("risk", to_json(serde_json::to_value(&tool.risk)));
    }
    if reach.fixed("guidance", GUIDANCE_KEYS, false)
        && let Some(g) = &tool.guidance
    {
        put("guidance", to_json(serde_json::to_value(g)));
    }
    if reach.whole("tags") {
        let tags = std::mem::take(&mut tool.tags);
        put(
            "tags",
            Some(Value::Array(tags.into_iter().map(Value::String).collect())),
        );
    }
    if reach.whole("format") {
        put("format", Some(json!(tool.provenance.format)));
    }
    if reach.whole("path") {
        put("path", Some(json!(path)));
    }
    // In the order of a JSON map's keys, which the engine and the walk read in.
    view.sort_unstable_by_key(|(k, _)| *k);
    let json = if reach.engine {
        Built::within(cap, Val::Fields(&view).json_bytes_within(cap), || {
            Val::Fields(&view).to_json().into_owned()
        })
    } else {
        Built::Unneeded
    };
    Subject {
        file: lowered.file,
        json,
        shape: Shape::Tool(Box::new(lowered), view),
    }
}

/// Where a walk into a tree stopped.
struct Reached<'n> {
    node: NodeAt<'n>,
    /// The key of the map entry last taken, when the node is one's value.
    key: Option<Span>,
    /// Every step was taken.
    whole: bool,
}

/// Walk `steps` into `root`: a long list's items passed over where they are packed, not
/// built (a finding deep in a list of a million tools built them all).
fn walk<'n>(root: NodeAt<'n>, steps: &[Step]) -> Reached<'n> {
    let mut reached = Reached {
        node: root,
        key: None,
        whole: true,
    };
    for step in steps {
        let next = match step {
            Step::Key(k) => reached.node.member(k).map(|(key, v)| (v, Some(key))),
            Step::Index(i) => reached.node.item(*i).map(|v| (v, None)),
        };
        match next {
            Some((node, key)) => {
                reached.node = node;
                reached.key = key;
            }
            None => {
                reached.whole = false;
                break;
            }
        }
    }
    reached
}

/// The place of the node at `steps` in `root`; with `missing`, the node is the parent of a
/// field that is not there: its key (where the field would be written beside), or for the
/// root its first key.
fn tree_span(root: NodeAt<'_>, steps: &[Step], missing: bool) -> Span {
    let reached = walk(root, steps);
    if !missing && reached.whole {
        return reached.node.span();
    }
    match reached.key {
        Some(key) => key,
        None => reached
            .node
            .entries()
            .next()
            .map_or(reached.node.span(), |(_, key, _)| key),
    }
}

impl<'a> Subject<'a> {
    /// The place of the value at `steps` (with `missing`: of the parent of a missing field).
    pub(crate) fn place(&self, steps: &[Step], missing: bool) -> Place<'a> {
        let here = |span| Place {
            file: self.file,
            span,
        };
        match &self.shape {
            Shape::Tree(root) => here(tree_span(NodeAt::from(root), steps, missing)),
            Shape::Skill(front, _) => match steps.first() {
                Some(Step::Key(k)) if !SKILL_MADE.contains(&k.as_str()) => {
                    here(tree_span(NodeAt::from(front), steps, missing))
                }
                _ => here(tree_span(NodeAt::from(front), &[], true)),
            },
            Shape::Tool(lowered, _) => tool_place(lowered, steps, missing),
        }
    }
}

/// The place of a field of a tool's view: what its format wrote for it, else its name.
fn tool_place<'a>(lowered: &Lowered<'a>, steps: &[Step], missing: bool) -> Place<'a> {
    let at = |span| Place {
        file: lowered.file,
        span,
    };
    let named = at(lowered.name_span);
    let Some(Step::Key(top)) = steps.first() else {
        return named;
    };
    let rest = &steps[1..];
    let site = |span: Option<Span>| span.map_or(named, at);
    match top.as_str() {
        "name" => named,
        "description" => at(lowered.description_span),
        "parameters" => {
            if let Some((file, packed)) = lowered.schema {
                return Place {
                    file,
                    span: tree_span(packed.at(), rest, missing),
                };
            }
            match lowered.parameters {
                // cycod: `properties/X/…` of the schema is parameter `X` as written.
                Some(packed) => {
                    let inner = match rest.first() {
                        Some(Step::Key(k)) if k == "properties" => &rest[1..],
                        _ => &[][..],
                    };
                    let missing = missing || inner.len() < rest.len();
                    at(tree_span(NodeAt::from(packed), inner, missing))
                }
                None => named,
            }
        }
        "output" => match lowered.output {
            Some((file, packed)) => Place {
                file,
                span: tree_span(packed.at(), rest, missing),
            },
            None => named,
        },
        "commands" | "run" => site(lowered.sites.run),
        "risk" => site(lowered.sites.risk),
        "tags" => site(lowered.sites.tags),
        "version" => site(lowered.sites.version),
        "title" => site(lowered.sites.title),
        "guidance" => site(lowered.sites.guidance),
        _ => named,
    }
}
