//! DojOps tools and skills lowered into the canonical IR; the project's policy decides
//! which of them DojOps would load.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{Item, dops, policy, project_of, tool_yaml};
use crate::formats::format::FileResult;
use crate::ir::{Access, LeftOut, Lowered, Risk, Run, Schema, Sink, Site, Tool, provenance};
use crate::source::SourceFile;
use crate::syntax::TreeRef;
use crate::text::hex;

/// The tools and skills of the files `takes` accepts, minus those their project's policy
/// refuses.
pub(crate) fn lower<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    out: &mut dyn Sink<'a>,
) {
    let policies = policies(results);
    for r in results {
        let Some(item) = r.item.get::<Item>() else {
            continue;
        };
        if !takes(r) {
            continue;
        }
        let lowered = match item {
            Item::Tool(t) => dojops_tool(r, t),
            Item::Skill(s) => dojops_skill(&r.file, s),
            Item::Policy(_) => None,
        };
        let Some(t) = lowered else { continue };
        // Most repositories have no policy: no project folder to work out for each tool.
        let refused = if policies.is_empty() {
            None
        } else {
            policies
                .get(&project_of(&r.file.path))
                .and_then(|(file, p)| Some((file, p.refusal(&t.tool.name)?)))
        };
        match refused {
            Some((policy, (reason, span))) => out.left_out(LeftOut {
                name: t.tool.name.clone(),
                path: r.file.display().to_string(),
                reason,
                site: Some(Site {
                    file: Arc::clone(policy),
                    span,
                }),
            }),
            None => out.tool(t),
        }
    }
}

/// Each DojOps project's policy in force and its file, by project folder (the last file by
/// path wins).
fn policies(results: &[FileResult]) -> HashMap<PathBuf, (&Arc<SourceFile>, policy::Lookup<'_>)> {
    let mut out = HashMap::new();
    for r in results {
        if let Some(Item::Policy(p)) = r.item.get::<Item>()
            && p.in_force
        {
            out.insert(project_of(&r.file.path), (&r.file, p.lookup()));
        }
    }
    out
}

fn dojops_tool<'a>(r: &'a FileResult, t: &'a tool_yaml::Tool) -> Option<Lowered<'a>> {
    let doc = t.doc(&r.file)?;
    let name = t.name.as_ref()?;
    let file = &r.file;
    let mut provenance = provenance(file);
    provenance.tool_hash = Some(provenance.sha256.clone());
    provenance.system_prompt_hash = doc.system_prompt_sha256.as_ref().map(|d| hex(d));
    // The trees the load still holds (when lowered right after it, for the custom rules:
    // neither packed nor turned into JSON twice), else packed from the schema files (read
    // back from disk when their text was let go).
    let companion = |link: &'a Option<tool_yaml::SchemaFile>| {
        let link = link.as_ref()?;
        let tree = match r.companion_tree(&link.file) {
            Some(held) => TreeRef::Held(held),
            None => TreeRef::Packed(
                link.tree
                    .get_or_pack(None, || tool_yaml::schema_tree(&link.file))?,
            ),
        };
        Some((&link.file, tree))
    };
    let schema = companion(&t.input);
    let output = companion(&t.output);
    Some(Lowered {
        tool: Tool {
            name: name.value.to_string(),
            title: None,
            version: doc.version.clone(),
            description: doc.description.clone().unwrap_or_default(),
            input_schema: schema
                .map_or_else(Schema::empty_object, |(_, tree)| Schema::of_tree(tree)),
            output_schema: output.map(|(_, tree)| Schema::of_tree(tree)),
            run: Run::Generate {
                files: doc.files.clone(),
                verification: doc.verification.clone(),
            },
            risk: Risk {
                access: if doc.runs_programs {
                    Access::Run
                } else {
                    Access::Write
                },
                kind: None,
                level: None,
                read_only: false,
                // DojOps writes the generated files over what is there.
                destructive: true,
                idempotent: false,
                open_world: doc.network,
            },
            guidance: None,
            tags: doc.tags.to_vec(),
            settings: doc.settings.clone(),
            provenance,
        },
        file,
        name_span: name.span,
        schema,
        description_span: doc.description_span.unwrap_or(name.span),
        output,
        parameters: None,
        sites: doc.sites,
    })
}

/// The input of a `.dops` skill. DojOps skills take no typed input: the runtime hands the
/// model a natural-language request and, in update mode, the current content of the file to
/// change. The bundle says exactly that.
pub(crate) fn dops_input_schema() -> Value {
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
    let read_only = !doc.writes && !doc.runs_programs || doc.no_side_effects;
    let access = if doc.runs_programs {
        Access::Run
    } else if doc.writes {
        Access::Write
    } else {
        Access::Read
    };
    Some(Lowered {
        tool: Tool {
            name: name.value.to_string(),
            title: None,
            version: doc.version.clone(),
            description: doc.description.clone().unwrap_or_default(),
            input_schema: dops_input_schema().into(),
            output_schema: None,
            run: Run::Generate {
                files: doc.files.clone(),
                verification: doc.verification.clone(),
            },
            risk: Risk {
                access,
                kind: None,
                level: doc.risk_level.clone(),
                read_only,
                destructive: !read_only,
                idempotent: doc.idempotent || read_only,
                open_world: doc.network,
            },
            guidance: None,
            tags: doc.tags.to_vec(),
            settings: doc.settings.clone(),
            provenance: provenance(file),
        },
        file,
        name_span: name.span,
        schema: None,
        description_span: doc.description_span.unwrap_or(name.span),
        output: None,
        parameters: None,
        sites: doc.sites,
    })
}
