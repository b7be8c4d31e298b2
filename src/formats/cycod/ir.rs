//! cycod tools lowered into the canonical IR.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::Tool as CycodTool;
use crate::formats::FileResult;
use crate::formats::tree::{span_at, str_at, strings};
use crate::ir::{Access, Lowered, Lowering, Risk, Run, Tool, provenance};
use crate::source::SourceFile;
use crate::syntax::{Node, NodeKind};

/// The tools of the files `takes` accepts.
pub fn lower<'a>(results: &'a [FileResult], takes: &dyn Fn(&FileResult) -> bool) -> Lowering<'a> {
    let mut out = Lowering::default();
    for r in results {
        if let Some(t) = r.item.get::<CycodTool>()
            && takes(r)
        {
            out.tools.extend(cycod_tool(&r.file, t));
        }
    }
    out
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

fn cycod_tool<'a>(file: &'a Arc<SourceFile>, t: &'a CycodTool) -> Option<Lowered<'a>> {
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
