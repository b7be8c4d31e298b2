//! What the bundles need of a cycod tool file beyond the checks, lowered once from the tree
//! so that the tree can be dropped and the IR reads typed fields.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};

use crate::syntax::Packed;
use serde_json::Value;

use crate::formats::tree::{Strings, first_site, node_at, site_at, str_at};
use crate::ir::Sites;
use crate::source::Span;
use crate::syntax::{MapItem, Node, NodeKind};

/// A cycod tool file's fields that the IR needs.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct ToolDoc {
    /// `description`, when a string.
    pub description: Option<String>,
    /// Where `description` is written, whatever its type.
    pub description_span: Option<Span>,
    /// `tags` (strings only).
    pub tags: Strings,
    /// `parameters` as written: findings about the derived schema point into it, and the
    /// schema is made from it ([`Param::all`]). Kept once: each parameter's strings beside
    /// it held a tool of 400,000 parameters twice.
    pub parameters: Option<Packed>,
    /// `steps`, when it is a list: what each step does (steps that do nothing known are
    /// left out).
    #[serde(deserialize_with = "crate::memory::exact::option")]
    pub steps: Option<Vec<Action>>,
    /// What a single-step tool does.
    pub action: Option<Action>,
    /// Settings that change how it runs (timeout, working directory, environment, input),
    /// its own and each step's.
    pub settings: crate::ir::Settings,
    /// Where its parts are written.
    pub sites: Sites,
}

/// The settings of a tool or step beyond its command.
const SETTINGS: &[&str] = &["timeout", "working-directory", "environment", "input"];

/// The run settings of the tool file `root`: its own, then each step's as `steps/N/KEY`.
fn settings_of(root: &Node) -> crate::ir::Settings {
    let mut out = crate::ir::Settings::new();
    let root_item = MapItem::of(root);
    crate::formats::tree::settings(&root_item, SETTINGS, &["environment"], "", &mut out);
    let Some(steps) = root.value("steps").and_then(Node::as_list) else {
        return out;
    };
    for (i, step) in steps.maps_unbuilt().enumerate() {
        let prefix = format!("steps/{i}/");
        crate::formats::tree::settings(&step, SETTINGS, &["environment"], &prefix, &mut out);
    }
    out
}

/// One entry of `parameters`, read where it is written.
pub(crate) struct Param<'a> {
    /// The parameter's name.
    pub name: &'a str,
    /// `type`, as written.
    pub kind: Option<&'a str>,
    /// `description`.
    pub description: Option<&'a str>,
    /// `default`, as JSON.
    pub default: Option<Value>,
    /// `required`, when a boolean.
    pub required: Option<bool>,
}

impl Param<'_> {
    /// Each entry of the `parameters` mapping `node`, in order.
    pub(crate) fn all(node: &Node) -> impl Iterator<Item = Param<'_>> {
        node.as_map().unwrap_or_default().iter().map(|e| Param {
            name: e.key.as_str(),
            kind: str_at(&e.value, &["type"]),
            description: str_at(&e.value, &["description"]),
            default: e.value.value("default").map(Node::to_json),
            required: match e.value.value("required").map(|n| &n.kind) {
                Some(NodeKind::Bool(b)) => Some(*b),
                _ => None,
            },
        })
    }
}

/// What a step (or a single-step tool) does. Kept for every step for the whole run, so
/// small: 40 bytes and the text's allocation (a tool may have millions of steps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum Action {
    /// `run:` a command line.
    Command(Box<str>),
    /// A script and the shell that runs it (`bash:`, `cmd:`, `pwsh:`, `python:`, or
    /// `script:` with `shell:`, default `default`).
    Script {
        /// The script text.
        script: Box<str>,
        /// The shell (held in place up to 24 bytes).
        shell: CompactString,
    },
    /// `tool:` another tool, with `mcp:` and `arguments:`.
    Tool(Box<ToolCall>),
}

/// A step's call of another tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ToolCall {
    /// The tool's name.
    pub tool: String,
    /// The MCP server, when given.
    pub mcp: Option<String>,
    /// `arguments`, as JSON.
    #[serde(with = "crate::formats::item::json_option")]
    pub arguments: Option<Value>,
}

/// Keys that hold a cycod script, and the shell each implies, in the order cycod tries them.
const SCRIPT_KEYS: &[(&str, &str)] = &[
    ("bash", "bash"),
    ("cmd", "cmd"),
    ("pwsh", "pwsh"),
    ("python", "python"),
];

impl ToolDoc {
    /// Lower the tool file's root mapping.
    pub(crate) fn lower(root: &Node) -> ToolDoc {
        let parameters = root.value("parameters");
        // Exact room: collected from a filter, the list grew by doubling.
        // Each step read where it is: a long list of steps is packed.
        let steps = root.value("steps").and_then(Node::as_list).map(|steps| {
            let mut out = Vec::with_capacity(steps.len());
            out.extend(steps.maps_unbuilt().filter_map(|step| action(&step)));
            out.shrink_to_fit();
            out
        });
        ToolDoc {
            description: str_at(root, &["description"]).map(str::to_string),
            description_span: node_at(root, &["description"]).map(|n| n.span()),
            tags: Strings::of(root.value("tags")),
            parameters: parameters.map(Packed::pack),
            action: if steps.is_some() {
                None
            } else {
                action(&MapItem::of(root))
            },
            steps,
            settings: settings_of(root),
            sites: Sites {
                run: first_site(
                    root,
                    &[
                        &["steps"],
                        &["run"],
                        &["bash"],
                        &["cmd"],
                        &["pwsh"],
                        &["python"],
                        &["tool"],
                        &["script"],
                    ],
                ),
                risk: site_at(root, &["tags"]),
                tags: site_at(root, &["tags"]),
                settings: first_site(
                    root,
                    &[
                        &["timeout"],
                        &["working-directory"],
                        &["environment"],
                        &["input"],
                        &["steps"],
                    ],
                ),
                ..Sites::default()
            },
        }
    }
}

/// What one step (or a single-step tool) does; the first key cycod acts on wins.
fn action(node: &MapItem<'_>) -> Option<Action> {
    if let Some((run, _)) = node.str("run") {
        return Some(Action::Command(run.into()));
    }
    for (key, shell) in SCRIPT_KEYS {
        if let Some((script, _)) = node.str(key) {
            return Some(Action::Script {
                script: script.into(),
                shell: CompactString::const_new(shell),
            });
        }
    }
    if let Some((tool, _)) = node.str("tool") {
        return Some(Action::Tool(Box::new(ToolCall {
            tool: tool.to_string(),
            mcp: node.str("mcp").map(|(mcp, _)| mcp.to_string()),
            arguments: node.value("arguments").map(|a| a.to_json()),
        })));
    }
    node.str("script").map(|(script, _)| Action::Script {
        script: script.into(),
        shell: node.str("shell").map_or("default", |(s, _)| s).into(),
    })
}
