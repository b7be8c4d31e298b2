//! cycod tools lowered into the canonical IR.

use std::borrow::Cow;
use std::sync::Arc;

use super::Tool as CycodTool;
use super::doc::{Action, Param};
use crate::formats::format::FileResult;
use crate::ir::{Access, Json, Lowered, Risk, Run, Schema, Sink, Tool, provenance};
use crate::source::SourceFile;
use crate::syntax::Packed;

/// The tools of the files `takes` accepts.
pub(super) fn lower<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    out: &mut dyn Sink<'a>,
) {
    for r in results {
        if let Some(t) = r.item.get::<CycodTool>()
            && takes(r)
            && let Some(t) = cycod_tool(&r.file, t)
        {
            out.tool(t);
        }
    }
}

/// How one cycod step (or a single-step tool) runs.
fn cycod_run(action: &Action) -> Run {
    match action {
        Action::Command(line) => Run::Argv {
            argv: split_command_line(line),
        },
        Action::Script { script, shell } => Run::Script {
            script: script.to_string(),
            shell: shell.to_string(),
        },
        Action::Tool(call) => Run::Tool {
            tool: call.tool.clone(),
            mcp: call.mcp.clone(),
            arguments: call.arguments.clone(),
        },
    }
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
fn cycod_schema(parameters: Option<&Packed>) -> Schema {
    let text = |s: &str| Json::String(Cow::Owned(s.to_string()));
    let mut properties = Vec::new();
    let mut required = Vec::new();
    let parameters = parameters.map(Packed::unpack);
    for p in parameters.iter().flat_map(Param::all) {
        let ty = p.kind.map_or("string", cycod_type);
        let mut prop = vec![("type".into(), text(ty))];
        if ty == "array" {
            let items = Json::object(vec![("type".into(), text("string"))]);
            prop.push(("items".into(), items));
        }
        if let Some(d) = p.description {
            prop.push(("description".into(), Json::String(d.into())));
        }
        let required_here = p.required.unwrap_or(p.default.is_none());
        if let Some(d) = p.default {
            prop.push(("default".into(), Json::from(d)));
        }
        if required_here {
            required.push(Json::String(p.name.into()));
        }
        properties.push((Cow::Borrowed(p.name), Json::object(prop)));
    }
    let mut schema = vec![
        ("type".into(), text("object")),
        ("properties".into(), Json::object(properties)),
    ];
    if !required.is_empty() {
        schema.push(("required".into(), Json::Array(required.into())));
    }
    // cycod fills only the parameters it declares into the command.
    schema.push(("additionalProperties".into(), Json::Bool(false)));
    Schema::from(&Json::object(schema))
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
    let tags = doc.tags.to_vec();
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
    let run = match (&doc.steps, &doc.action) {
        (Some(steps), _) => Run::Steps {
            steps: steps.iter().map(cycod_run).collect(),
        },
        (None, Some(action)) => cycod_run(action),
        (None, None) => Run::Steps { steps: Vec::new() },
    };
    let read_only = access == Access::Read;
    Some(Lowered {
        tool: Tool {
            name: name.value.clone(),
            title: None,
            version: None,
            description: doc.description.clone().unwrap_or_default(),
            input_schema: cycod_schema(doc.parameters.as_ref()),
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
            settings: doc.settings.clone(),
            provenance: provenance(file),
        },
        file,
        name_span: name.span,
        schema: None,
        description_span: doc.description_span.unwrap_or(name.span),
        output: None,
        parameters: doc.parameters.as_ref(),
        sites: doc.sites,
    })
}
