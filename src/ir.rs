//! The canonical IR: every tool of every format lowers into one [`Tool`], which the bundle
//! emitters (`crate::bundle`) and the provider-compatibility rules (`crate::bundle::compat`)
//! read. Lowering runs on files that were already checked; it never fails, it only leaves out
//! what the file did not give (a missing description is the empty string, which CMP rules
//! report).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::bundle::Selection;
use crate::formats::dojops::{Item as DojItem, dops, tool_yaml};
use crate::formats::tool_md::{self, Status, ToolType};
use crate::formats::{FileResult, Item, agentcli, cycod};
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind};

/// One tool, whatever format it came from (DESIGN.md §2). Field order is the output order.
#[derive(Debug, Clone, Serialize)]
pub struct Tool {
    /// The name the tool is called by (what providers see).
    pub name: String,
    /// A human title, when the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool's own version, when the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the tool does: models choose tools by it. Empty when the source has none.
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
    /// JSON Schema of the result, where the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// How the tool runs.
    pub run: Run,
    /// What the tool may touch.
    pub risk: Risk,
    /// When to use it and when not (tool.md `use_guidance`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guidance: Option<Guidance>,
    /// Tags, as written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Where the tool was defined.
    pub provenance: Provenance,
}

/// How a tool runs. Secret values are never copied (transport credentials keep only their
/// scheme).
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Run {
    /// A program and its arguments (agentcli `command`, cycod `run`).
    Argv {
        /// The argument vector.
        argv: Vec<String>,
    },
    /// A script run by a shell (cycod `bash`, `pwsh`, `script` + `shell`, …).
    Script {
        /// The script text (with `{PARAM}` templates as written).
        script: String,
        /// The shell (`bash`, `cmd`, `pwsh`, `python`, `default` or a template).
        shell: String,
    },
    /// Several steps in order (cycod `steps`).
    Steps {
        /// The steps.
        steps: Vec<Run>,
    },
    /// A call over a transport (tool.md `transport`, without credentials).
    Transport {
        /// The transport, as written, minus secret material.
        transport: Value,
    },
    /// An LLM generates files (DojOps tools and skills).
    Generate {
        /// The files written.
        files: Vec<String>,
        /// The verification command, when there is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        verification: Option<String>,
    },
    /// Another tool, called by name (cycod `tool:`, with `mcp:` when it is an MCP server's).
    Tool {
        /// The tool's name.
        tool: String,
        /// The MCP server that has the tool, when it is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        mcp: Option<String>,
        /// The arguments, as written (with `{PARAM}` templates).
        #[serde(skip_serializing_if = "Option::is_none")]
        arguments: Option<Value>,
    },
    /// Computed in-process by the runtime (tool.md `function` without transport).
    InProcess,
    /// Routed to a human (tool.md `human` without transport).
    Human,
}

/// What a tool may touch.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Reads only.
    Read,
    /// Writes files or external state.
    Write,
    /// Runs programs.
    Run,
}

/// The risk model: access plus the hints MCP annotations carry.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Risk {
    /// Read, write or run.
    pub access: Access,
    /// The tool.md `type` (retrieval, action, function, human), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// DojOps `risk.level` (LOW, MEDIUM, HIGH), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The tool does not change its environment.
    pub read_only: bool,
    /// The tool may destroy or overwrite data.
    pub destructive: bool,
    /// Calling it twice with the same arguments does no more than once.
    pub idempotent: bool,
    /// The tool talks to the world outside the runtime (network, external services).
    pub open_world: bool,
}

/// tool.md `use_guidance`.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Guidance {
    /// `use_when`.
    pub use_when: Vec<String>,
    /// `avoid_when`.
    pub avoid_when: Vec<String>,
    /// `side_effects`, one entry per effect (the spec's list, or a single string).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_effects: Vec<String>,
}

/// Where a tool comes from.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Provenance {
    /// The source format id (`dojops-tool`, `tool-md`, …).
    pub format: &'static str,
    /// The file, relative to the working directory, with `/`.
    pub path: String,
    /// For `tools.json`: the entry's index in `tools`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// SHA-256 (hex) of the file's bytes.
    pub sha256: String,
    /// DojOps `toolHash`: SHA-256 of the `tool.yaml` bytes (schema files do not count).
    #[serde(rename = "toolHash", skip_serializing_if = "Option::is_none")]
    pub tool_hash: Option<String>,
    /// DojOps `systemPromptHash`: SHA-256 of `generator.systemPrompt`.
    #[serde(rename = "systemPromptHash", skip_serializing_if = "Option::is_none")]
    pub system_prompt_hash: Option<String>,
}

/// A lowered tool with the places diagnostics about it point at.
#[derive(Debug, Clone)]
pub struct Lowered<'a> {
    /// The tool.
    pub tool: Tool,
    /// The file that defines it.
    pub file: &'a Arc<SourceFile>,
    /// The span of its name (or of the file start when the name comes from the file name).
    pub name_span: Span,
    /// The file and tree of its input schema, when it is written in a file (not synthesized).
    pub schema: Option<(&'a Arc<SourceFile>, &'a Node)>,
    /// The span of its description value, else of the name.
    pub description_span: Span,
    /// The file and tree of its output schema, when it has one.
    pub output: Option<(&'a Arc<SourceFile>, &'a Node)>,
    /// cycod `parameters`, from which its input schema is derived: findings about property
    /// `X` of that schema belong on parameter `X`.
    pub parameters: Option<&'a Node>,
}

/// A tool left out of the bundles, and why (reported by `build`, not an error).
#[derive(Debug, Clone, PartialEq)]
pub struct LeftOut {
    /// The tool's name.
    pub name: String,
    /// The file that defines it.
    pub path: String,
    /// Why it is not bundled.
    pub reason: String,
}

/// Every bundled tool of the files `selection` takes (sorted by name, then path), and the
/// ones left out. A file with an error is not compiled (DESIGN.md §2, validate).
pub fn lower_all<'a>(
    results: &'a [FileResult],
    selection: &Selection<'_>,
) -> (Vec<Lowered<'a>>, Vec<LeftOut>) {
    let policies = policies(results);
    let mut tools = Vec::new();
    let mut left_out = Vec::new();
    for r in results {
        if !selection.takes(r) {
            continue;
        }
        for t in lower_file(r) {
            let refused = match r.item {
                Item::Dojops(_) => policies
                    .get(&crate::formats::dojops::project_of(&r.file.path))
                    .and_then(|p| p.refuses(&t.tool.name)),
                _ => None,
            };
            if let Some(reason) = refused {
                left_out.push(LeftOut {
                    name: t.tool.name.clone(),
                    path: r.file.display.clone(),
                    reason: reason.into(),
                });
                continue;
            }
            tools.push(t);
        }
        if let Item::ToolMd(tool_md::Item::Tool(t)) = &r.item
            && let Some(s) = &t.status
            && s.value == Status::Disabled
            && let Some(id) = &t.id
        {
            left_out.push(LeftOut {
                name: id.value.clone(),
                path: r.file.display.clone(),
                reason: "`status: disabled`".into(),
            });
        }
    }
    tools.sort_by(|a, b| {
        (
            &a.tool.name,
            &a.tool.provenance.path,
            a.tool.provenance.index,
        )
            .cmp(&(
                &b.tool.name,
                &b.tool.provenance.path,
                b.tool.provenance.index,
            ))
    });
    left_out.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    (tools, left_out)
}

/// The lists of one DojOps project's policy in force.
#[derive(Default)]
struct ProjectPolicy {
    /// `blockedTools` (or its legacy key).
    blocked: HashSet<String>,
    /// A non-empty `allowedTools`: every tool it does not name is denied.
    allowed: Option<HashSet<String>>,
}

impl ProjectPolicy {
    /// Why DojOps refuses tool `name`, if it does.
    fn refuses(&self, name: &str) -> Option<&'static str> {
        if self.blocked.contains(name) {
            Some("blocked by the project's .dojops/policy.yaml (`blockedTools`)")
        } else if self.allowed.as_ref().is_some_and(|a| !a.contains(name)) {
            Some("not in `allowedTools` of the project's .dojops/policy.yaml")
        } else {
            None
        }
    }
}

/// Each DojOps project's policy in force, by project folder.
fn policies(results: &[FileResult]) -> HashMap<std::path::PathBuf, ProjectPolicy> {
    let mut out: HashMap<std::path::PathBuf, ProjectPolicy> = HashMap::new();
    for r in results {
        let Item::Dojops(DojItem::Policy(p)) = &r.item else {
            continue;
        };
        if !p.in_force {
            continue;
        }
        let project = out
            .entry(crate::formats::dojops::project_of(&r.file.path))
            .or_default();
        let names = |list: &Option<crate::formats::dojops::policy::NameList>| -> HashSet<String> {
            list.iter()
                .flat_map(|l| &l.entries)
                .map(|n| n.value.clone())
                .collect()
        };
        project.blocked = names(&p.blocked);
        let allowed = names(&p.allowed);
        // An empty allowlist allows everything.
        project.allowed = (!allowed.is_empty()).then_some(allowed);
    }
    out
}

/// The tools one file defines.
pub fn lower_file(r: &FileResult) -> Vec<Lowered<'_>> {
    match &r.item {
        Item::Dojops(DojItem::Tool(t)) => dojops_tool(r, t).into_iter().collect(),
        Item::Dojops(DojItem::Skill(s)) => dojops_skill(&r.file, s).into_iter().collect(),
        Item::Agentcli(m) => m
            .tools
            .iter()
            .filter_map(|t| agentcli_tool(&r.file, t))
            .collect(),
        Item::ToolMd(tool_md::Item::Tool(t)) => tool_md_tool(&r.file, t).into_iter().collect(),
        Item::Cycod(t) => cycod_tool(&r.file, t).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn provenance(file: &SourceFile) -> Provenance {
    Provenance {
        format: file.format.as_str(),
        path: file.display.clone(),
        index: None,
        sha256: sha256_hex(file.text.as_bytes()),
        tool_hash: None,
        system_prompt_hash: None,
    }
}

fn str_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n str> {
    node_at(node, path).and_then(Node::as_str)
}

fn node_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n Node> {
    path.iter().try_fold(node, |n, key| n.value(key))
}

fn strings(node: Option<&Node>) -> Vec<String> {
    node.and_then(Node::as_seq)
        .map(|items| {
            items
                .iter()
                .filter_map(Node::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The span of the value at `path`, else `fallback`.
fn span_at(node: &Node, path: &[&str], fallback: Span) -> Span {
    node_at(node, path).map_or(fallback, |n| n.span)
}

/// A schema that takes nothing: what a tool without inputs is given, so every target gets an
/// object.
fn empty_object_schema() -> Value {
    json!({"type": "object", "properties": {}, "additionalProperties": false})
}

fn dojops_tool<'a>(r: &'a FileResult, t: &'a tool_yaml::Tool) -> Option<Lowered<'a>> {
    let doc = t.doc.as_ref()?;
    let name = t.name.as_ref()?;
    let file = &r.file;
    let child = str_at(doc, &["permissions", "child_process"]) == Some("required");
    let network = str_at(doc, &["permissions", "network"]) == Some("inherit");
    let files = node_at(doc, &["files"])
        .and_then(Node::as_seq)
        .map(|items| {
            items
                .iter()
                .filter_map(|f| str_at(f, &["path"]).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let mut provenance = provenance(file);
    provenance.tool_hash = Some(provenance.sha256.clone());
    provenance.system_prompt_hash =
        str_at(doc, &["generator", "systemPrompt"]).map(|p| sha256_hex(p.as_bytes()));
    // The companions are owned by the FileResult; find them there to borrow for `'a`.
    let companion = |file: &Option<Arc<SourceFile>>, doc: &'a Option<Node>| match (file, doc) {
        (Some(f), Some(n)) => r
            .companions
            .iter()
            .find(|c| Arc::ptr_eq(c, f))
            .map(|c| (c, n)),
        _ => None,
    };
    let schema = companion(&t.input_schema, &t.input_doc);
    let output = companion(&t.output_schema, &t.output_doc);
    Some(Lowered {
        tool: Tool {
            name: name.value.clone(),
            title: None,
            version: str_at(doc, &["version"]).map(str::to_string),
            description: str_at(doc, &["description"])
                .unwrap_or_default()
                .to_string(),
            input_schema: t
                .input_doc
                .as_ref()
                .map_or_else(empty_object_schema, Node::to_json),
            output_schema: t.output_doc.as_ref().map(Node::to_json),
            run: Run::Generate {
                files,
                verification: str_at(doc, &["verification", "command"]).map(str::to_string),
            },
            risk: Risk {
                access: if child { Access::Run } else { Access::Write },
                kind: None,
                level: None,
                read_only: false,
                // DojOps writes the generated files over what is there.
                destructive: true,
                idempotent: false,
                open_world: network,
            },
            guidance: None,
            tags: strings(doc.value("tags")),
            provenance,
        },
        file,
        name_span: name.span,
        schema,
        description_span: span_at(doc, &["description"], name.span),
        output,
        parameters: None,
    })
}

/// The input of a `.dops` skill. DojOps skills take no typed input: the runtime hands the
/// model a natural-language request and, in update mode, the current content of the file to
/// change. The bundle says exactly that.
pub fn dops_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "prompt": {
                "type": "string",
                "description": "What to generate or change, in natural language."
            },
            "existingContent": {
                "type": ["string", "null"],
                "description": "The current content of the file to update, or null when creating it."
            }
        },
        // Both required, the second nullable: what OpenAI strict mode asks of an optional
        // input, and what Gemini reads as `nullable`.
        "required": ["prompt", "existingContent"],
        "additionalProperties": false
    })
}

fn dojops_skill<'a>(file: &'a Arc<SourceFile>, s: &'a dops::Skill) -> Option<Lowered<'a>> {
    let doc = s.doc.as_ref()?;
    let name = s.name.as_ref()?;
    let perm = |k: &str| str_at(doc, &["permissions", k]);
    let child = perm("child_process") == Some("required");
    // The runtime's default filesystem permission is `write`.
    let write = perm("filesystem") != Some("read");
    let side_effects_none = str_at(doc, &["capabilities", "sideEffects"]) == Some("none");
    let read_only = !write && !child || side_effects_none;
    let access = if child {
        Access::Run
    } else if write {
        Access::Write
    } else {
        Access::Read
    };
    let files = node_at(doc, &["files"])
        .and_then(Node::as_seq)
        .map(|items| {
            items
                .iter()
                .filter_map(|f| str_at(f, &["path"]).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let idempotent = matches!(
        node_at(doc, &["execution", "idempotent"]).map(|n| &n.kind),
        Some(NodeKind::Bool(true))
    );
    Some(Lowered {
        tool: Tool {
            name: name.value.clone(),
            title: None,
            version: str_at(doc, &["meta", "version"]).map(str::to_string),
            description: str_at(doc, &["meta", "description"])
                .unwrap_or_default()
                .to_string(),
            input_schema: dops_input_schema(),
            output_schema: None,
            run: Run::Generate {
                files,
                verification: str_at(doc, &["verification", "binary", "command"])
                    .map(str::to_string),
            },
            risk: Risk {
                access,
                kind: None,
                level: str_at(doc, &["risk", "level"]).map(str::to_string),
                read_only,
                destructive: !read_only,
                idempotent: idempotent || read_only,
                open_world: perm("network") == Some("required"),
            },
            guidance: None,
            tags: strings(node_at(doc, &["meta", "tags"])),
            provenance: provenance(file),
        },
        file,
        name_span: name.span,
        schema: None,
        description_span: span_at(doc, &["meta", "description"], name.span),
        output: None,
        parameters: None,
    })
}

fn agentcli_tool<'a>(file: &'a Arc<SourceFile>, t: &'a agentcli::Tool) -> Option<Lowered<'a>> {
    let doc = t.doc.as_ref()?;
    let name = t.name.as_ref()?;
    let name_span = span_at(doc, &["name"], doc.span);
    let schema_node = doc.value("schema");
    let mut provenance = provenance(file);
    provenance.index = Some(t.index);
    Some(Lowered {
        tool: Tool {
            name: name.clone(),
            title: None,
            version: None,
            description: t.description.clone().unwrap_or_default(),
            input_schema: schema_node.map_or_else(empty_object_schema, Node::to_json),
            output_schema: None,
            run: Run::Argv {
                argv: t.command.clone(),
            },
            // agentcli runs any program: nothing in the manifest says what it touches, so
            // the hints are MCP's own cautious defaults.
            risk: Risk {
                access: Access::Run,
                kind: None,
                level: None,
                read_only: false,
                destructive: true,
                idempotent: false,
                open_world: true,
            },
            guidance: None,
            tags: Vec::new(),
            provenance,
        },
        file,
        name_span,
        schema: schema_node.map(|n| (file, n)),
        description_span: span_at(doc, &["description"], name_span),
        output: None,
        parameters: None,
    })
}

fn tool_kind_name(kind: ToolType) -> &'static str {
    match kind {
        ToolType::Retrieval => "retrieval",
        ToolType::Action => "action",
        ToolType::Function => "function",
        ToolType::Human => "human",
    }
}

fn tool_md_tool<'a>(file: &'a Arc<SourceFile>, t: &'a tool_md::Tool) -> Option<Lowered<'a>> {
    let doc = t.doc.as_ref()?;
    let id = t.id.as_ref()?;
    if t.status
        .as_ref()
        .is_some_and(|s| s.value == Status::Disabled)
    {
        return None;
    }
    let kind = t.kind.as_ref().map(|k| k.value);
    let transport = doc.value("transport").map(redacted_transport);
    let open_world = transport.is_some();
    let tags = strings(node_at(doc, &["meta", "tags"]));
    let tagged_read = tags.iter().any(|t| t == "read" || t == "read-only");
    let read_only = matches!(kind, Some(ToolType::Retrieval | ToolType::Function)) || tagged_read;
    let access = if read_only {
        Access::Read
    } else {
        Access::Write
    };
    let run = match (transport, kind) {
        (Some(transport), _) => Run::Transport { transport },
        (None, Some(ToolType::Human)) => Run::Human,
        (None, _) => Run::InProcess,
    };
    let input = node_at(doc, &["interface", "input"]);
    let output = node_at(doc, &["interface", "output"]);
    let guidance = doc.value("use_guidance").map(|g| Guidance {
        use_when: strings(g.value("use_when")),
        avoid_when: strings(g.value("avoid_when")),
        side_effects: match g.value("side_effects") {
            Some(n) if n.as_seq().is_some() => strings(Some(n)),
            Some(n) => n
                .as_str()
                .map(|s| vec![s.trim().to_string()])
                .unwrap_or_default(),
            None => Vec::new(),
        },
    });
    Some(Lowered {
        tool: Tool {
            name: id.value.clone(),
            title: str_at(doc, &["meta", "name"]).map(str::to_string),
            version: str_at(doc, &["version"]).map(str::to_string),
            description: str_at(doc, &["meta", "description"])
                .map(|d| d.trim().to_string())
                .unwrap_or_default(),
            input_schema: input.map_or_else(empty_object_schema, Node::to_json),
            output_schema: output.map(Node::to_json),
            run,
            risk: Risk {
                access,
                kind: kind.map(tool_kind_name),
                level: None,
                read_only,
                // An action changes the world unless the tool says it is read-only.
                destructive: matches!(kind, Some(ToolType::Action)) && !tagged_read,
                idempotent: read_only,
                open_world,
            },
            guidance,
            tags,
            provenance: provenance(file),
        },
        file,
        name_span: id.span,
        schema: input.map(|n| (file, n)),
        description_span: span_at(doc, &["meta", "description"], id.span),
        output: output.map(|n| (file, n)),
        parameters: None,
    })
}

/// A transport without its secret material: of `credentials`, only the scheme is kept.
fn redacted_transport(node: &Node) -> Value {
    let mut value = node.to_json();
    if let Value::Object(map) = &mut value
        && let Some(creds) = map.remove("credentials")
        && let Some(scheme) = creds.get("scheme")
    {
        map.insert("credentials".into(), json!({"scheme": scheme}));
    }
    value
}

/// Keys that hold a cycod script, and the shell each implies.
const SCRIPT_KEYS: &[(&str, &str)] = &[
    ("bash", "bash"),
    ("cmd", "cmd"),
    ("pwsh", "pwsh"),
    ("python", "python"),
];

/// How one cycod step (or a single-step tool) runs.
fn cycod_run(node: &Node) -> Option<Run> {
    if let Some(run) = node.value("run").and_then(Node::as_str) {
        return Some(Run::Argv {
            argv: split_command_line(run),
        });
    }
    for (key, shell) in SCRIPT_KEYS {
        if let Some(script) = node.value(key).and_then(Node::as_str) {
            return Some(Run::Script {
                script: script.to_string(),
                shell: (*shell).to_string(),
            });
        }
    }
    if let Some(tool) = node.value("tool").and_then(Node::as_str) {
        return Some(Run::Tool {
            tool: tool.to_string(),
            mcp: node.value("mcp").and_then(Node::as_str).map(str::to_string),
            arguments: node.value("arguments").map(Node::to_json),
        });
    }
    if let Some(script) = node.value("script").and_then(Node::as_str) {
        return Some(Run::Script {
            script: script.to_string(),
            shell: node
                .value("shell")
                .and_then(Node::as_str)
                .unwrap_or("default")
                .to_string(),
        });
    }
    None
}

/// cycod's `run:` is a process name, in double quotes when it holds spaces, then arguments.
fn split_command_line(line: &str) -> Vec<String> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix('"')
        && let Some(end) = rest.find('"')
    {
        let mut argv = vec![rest[..end].to_string()];
        argv.extend(rest[end + 1..].split_whitespace().map(str::to_string));
        return argv;
    }
    line.split_whitespace().map(str::to_string).collect()
}

/// cycod `parameters` as a JSON Schema object: each parameter a property with its type
/// (default string), description and default; `required: true`, or no default, puts it in
/// `required` as cycod does; no other property is accepted.
fn cycod_schema(params: Option<&Node>) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for e in params.and_then(Node::as_map).unwrap_or_default() {
        let p = &e.value;
        let mut prop = Map::new();
        let ty = p
            .value("type")
            .and_then(Node::as_str)
            .map_or("string", cycod_type);
        prop.insert("type".into(), Value::String(ty.into()));
        if ty == "array" {
            prop.insert("items".into(), json!({"type": "string"}));
        }
        if let Some(d) = p.value("description").and_then(Node::as_str) {
            prop.insert("description".into(), Value::String(d.to_string()));
        }
        let default = p.value("default");
        if let Some(d) = default {
            prop.insert("default".into(), d.to_json());
        }
        let explicit = match p.value("required").map(|n| &n.kind) {
            Some(NodeKind::Bool(b)) => Some(*b),
            _ => None,
        };
        if explicit.unwrap_or(default.is_none()) {
            required.push(Value::String(e.key.clone()));
        }
        properties.insert(e.key.clone(), Value::Object(prop));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    // cycod fills only the parameters it declares into the command.
    schema.insert("additionalProperties".into(), Value::Bool(false));
    Value::Object(schema)
}

/// cycod's type names and their aliases, as JSON Schema types.
fn cycod_type(ty: &str) -> &'static str {
    match ty.to_ascii_lowercase().as_str() {
        "number" | "int" | "integer" | "float" | "double" | "decimal" => "number",
        "boolean" | "bool" => "boolean",
        "array" | "list" | "seq" | "sequence" => "array",
        _ => "string",
    }
}

fn cycod_tool<'a>(file: &'a Arc<SourceFile>, t: &'a cycod::Tool) -> Option<Lowered<'a>> {
    let doc = t.doc.as_ref()?;
    let name = t.name.as_ref()?;
    let tags = strings(doc.value("tags"));
    // cycod's security categories: `read`, `write`, and by default `run`.
    let access = if tags.iter().any(|t| t == "run") {
        Access::Run
    } else if tags.iter().any(|t| t == "write") {
        Access::Write
    } else if tags.iter().any(|t| t == "read") {
        Access::Read
    } else {
        Access::Run
    };
    let run = match doc.value("steps").and_then(Node::as_seq) {
        Some(steps) => Run::Steps {
            steps: steps.iter().filter_map(cycod_run).collect(),
        },
        None => cycod_run(doc).unwrap_or(Run::Steps { steps: Vec::new() }),
    };
    let read_only = access == Access::Read;
    Some(Lowered {
        tool: Tool {
            name: name.value.clone(),
            title: None,
            version: None,
            description: str_at(doc, &["description"])
                .unwrap_or_default()
                .to_string(),
            input_schema: cycod_schema(doc.value("parameters")),
            output_schema: None,
            run,
            risk: Risk {
                access,
                kind: None,
                level: None,
                read_only,
                destructive: !read_only,
                idempotent: read_only,
                open_world: access == Access::Run,
            },
            guidance: None,
            tags,
            provenance: provenance(file),
        },
        file,
        name_span: name.span,
        schema: None,
        description_span: span_at(doc, &["description"], name.span),
        output: None,
        parameters: doc.value("parameters"),
    })
}
