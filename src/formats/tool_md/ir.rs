//! `*.tool.md` tools lowered into the canonical IR; a disabled tool is left out.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{Item, Status, Tool as ToolMd, ToolType};
use crate::formats::format::FileResult;
use crate::ir::{
    Access, Guidance, LeftOut, Lowered, Risk, Run, Schema, Sink, Site, Tool, provenance,
};
use crate::source::SourceFile;
use crate::syntax::{Packed, TreeRef};

/// The tools of the files `takes` accepts; `status: disabled` ones are left out.
pub(super) fn lower<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    out: &mut dyn Sink<'a>,
) {
    for r in results {
        let Some(Item::Tool(t)) = r.item.get::<Item>() else {
            continue;
        };
        if !takes(r) {
            continue;
        }
        if let Some(t) = tool_md_tool(&r.file, t) {
            out.tool(t);
        }
        if let Some(s) = &t.status
            && s.value == Status::Disabled
            && let Some(id) = &t.id
        {
            out.left_out(LeftOut {
                name: id.value.clone(),
                path: r.file.display().to_string(),
                reason: "`status: disabled`".into(),
                site: Some(Site {
                    file: Arc::clone(&r.file),
                    span: s.span,
                }),
            });
        }
    }
}

fn tool_kind_name(kind: ToolType) -> &'static str {
    match kind {
        ToolType::Retrieval => "retrieval",
        ToolType::Action => "action",
        ToolType::Function => "function",
        ToolType::Human => "human",
    }
}

fn tool_md_tool<'a>(file: &'a Arc<SourceFile>, t: &'a ToolMd) -> Option<Lowered<'a>> {
    let doc = t.doc.as_ref()?;
    let id = t.id.as_ref()?;
    if t.status
        .as_ref()
        .is_some_and(|s| s.value == Status::Disabled)
    {
        return None;
    }
    let kind = t.kind.as_ref().map(|k| k.value);
    let transport = doc.transport.as_ref().map(redacted_transport);
    let open_world = transport.is_some();
    let tags = doc.tags.to_vec();
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
    let input = doc.input.as_ref();
    let output = doc.output.as_ref();
    let guidance = doc.guidance.as_ref().map(|g| Guidance {
        use_when: g.use_when.to_vec(),
        avoid_when: g.avoid_when.to_vec(),
        side_effects: g.side_effects.to_vec(),
    });
    Some(Lowered {
        tool: Tool {
            name: id.value.clone(),
            title: doc.title.clone(),
            version: doc.version.clone(),
            description: doc.description.clone().unwrap_or_default(),
            input_schema: input.map_or_else(Schema::empty_object, Schema::of_packed),
            output_schema: output.map(Schema::of_packed),
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
            settings: Default::default(),
            provenance: provenance(file),
        },
        file,
        name_span: id.span,
        schema: input.map(|n| (file, TreeRef::Packed(n))),
        description_span: doc.description_span.unwrap_or(id.span),
        output: output.map(|n| (file, TreeRef::Packed(n))),
        parameters: None,
        sites: doc.sites,
    })
}

/// A transport without its secret material: of `credentials`, only the scheme is kept.
fn redacted_transport(node: &Packed) -> Value {
    let mut value = node.to_json();
    if let Value::Object(map) = &mut value
        && let Some(creds) = map.remove("credentials")
        && let Some(scheme) = creds.get("scheme")
    {
        map.insert("credentials".into(), json!({"scheme": scheme}));
    }
    value
}
