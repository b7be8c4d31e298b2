//! agentcli manifest entries lowered into the canonical IR.

use std::sync::Arc;

use super::{Manifest, Tool as Entry};
use crate::formats::format::FileResult;
use crate::ir::{Lowered, Risk, Run, Schema, Sink, Sites, Tool, provenance};
use crate::source::SourceFile;
use crate::syntax::TreeRef;

/// Every entry of the manifests `takes` accepts.
pub(super) fn lower<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    out: &mut dyn Sink<'a>,
) {
    for r in results {
        if let Some(m) = r.item.get::<Manifest>()
            && takes(r)
        {
            // In room of their number: grown by doubling, a manifest's list of lowered tools
            // held a third more than they take.
            out.reserve(m.tools.len());
            for t in crate::ir::asked(out, &r.file, &m.tools, |t| t.index as usize) {
                if out.wants(&r.file, t.index as usize) {
                    out.tool(agentcli_tool(&r.file, m, t));
                }
            }
        }
    }
}

fn agentcli_tool<'a>(file: &'a Arc<SourceFile>, m: &'a Manifest, t: &'a Entry) -> Lowered<'a> {
    let name = m.name(t);
    let name_span = t.name_at();
    let d = t.details();
    let schema_node = d.schema.as_ref();
    let mut provenance = provenance(file);
    provenance.index = Some(t.index as usize);
    Lowered {
        tool: Tool {
            name: name.to_string(),
            title: None,
            version: None,
            description: d.description.as_deref().unwrap_or_default().to_string(),
            input_schema: schema_node.map_or_else(Schema::empty_object, Schema::of_packed),
            output_schema: None,
            run: Run::Argv {
                argv: m.command(t).map(str::to_string).collect(),
            },
            // agentcli runs any program: nothing in the manifest says what it touches.
            risk: Risk::runs_anything(),
            guidance: None,
            tags: Vec::new(),
            settings: d.settings.as_deref().cloned().unwrap_or_default(),
            provenance,
        },
        file,
        name_span,
        schema: schema_node.map(|n| (file, TreeRef::Packed(n))),
        description_span: d.description_span.get().unwrap_or(name_span),
        output: None,
        parameters: None,
        sites: Sites {
            run: t.command_span.get(),
            settings: d.settings_span.get(),
            ..Sites::default()
        },
    }
}
