//! The digest a diff pairs tools by: a tool's definition without its name, fed to SHA-256
//! field by field. Writing each tool as JSON into the hash was 15 % of the CPU of a diff of
//! millions of tiny tools.

use std::hash::{Hash, Hasher};

use serde_json::Value;
use sha2::{Digest as _, Sha256};

use crate::ir::{Run, Schema, Tool};

/// SHA-256 of `tool`'s definition without its name: equal for two tools exactly when their
/// canonical definitions ([`crate::lock::canonical::definition`]) but for the name are,
/// without building that value (a tree of maps, the schema read back into one) for each tool
/// of both sides. Only briefs compare it, within a run; a lock records the canonical digest.
pub(super) fn unnamed(tool: &Tool) -> [u8; 32] {
    // Taken apart in full: a field a tool gains does not build until it is fed here too.
    let Tool {
        name: _,
        title,
        version,
        description,
        input_schema,
        output_schema,
        run,
        risk,
        guidance,
        tags,
        settings,
        provenance,
    } = tool;
    let mut fed = Fed(Sha256::new());
    (title, version, description).hash(&mut fed);
    // A schema's text is canonical already: fed as it is, not read back.
    let schemas = (
        input_schema.text(),
        output_schema.as_ref().map(Schema::text),
    );
    schemas.hash(&mut fed);
    feed_run(run, &mut fed);
    (risk, guidance, tags).hash(&mut fed);
    // Settings in any order are the same settings.
    let mut settings: Vec<(&String, &String)> = settings.iter().collect();
    settings.sort_unstable();
    // Of the provenance, only the system prompt is part of the definition.
    (settings, &provenance.system_prompt_hash).hash(&mut fed);
    fed.0.finalize().into()
}

/// Which way a tool runs, then its fields; a JSON value (a transport, a call's arguments) as
/// its text.
fn feed_run(run: &Run, fed: &mut Fed) {
    match run {
        Run::Argv { argv } => (0u8, argv).hash(fed),
        Run::Script { script, shell } => (1u8, script, shell).hash(fed),
        Run::Steps { steps } => {
            (2u8, steps.len()).hash(fed);
            for step in steps {
                feed_run(step, fed);
            }
        }
        Run::Transport { transport } => (3u8, transport.to_string()).hash(fed),
        Run::Generate {
            files,
            verification,
        } => (4u8, files, verification).hash(fed),
        Run::Tool {
            tool,
            mcp,
            arguments,
        } => (5u8, tool, mcp, arguments.as_ref().map(Value::to_string)).hash(fed),
        Run::InProcess => 6u8.hash(fed),
        Run::Human => 7u8.hash(fed),
    }
}

/// SHA-256 as a [`Hasher`]: the standard library's `Hash` writes each string with a mark
/// after it and each list with its length before it, so two different definitions never
/// feed the same bytes.
struct Fed(Sha256);

impl Hasher for Fed {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// Never asked: the digest is the whole SHA-256.
    fn finish(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Provenance;

    fn tool() -> Tool {
        let mut settings = crate::ir::Settings::new();
        settings.insert("timeoutSec".into(), "30".into());
        settings.insert("envPassthrough".into(), r#"["HOME"]"#.into());
        Tool {
            name: "fetch".into(),
            title: None,
            version: None,
            description: "Fetch a page".into(),
            input_schema:
                serde_json::json!({"type": "object", "properties": {"url": {"type": "string"}}})
                    .into(),
            output_schema: None,
            run: crate::ir::Run::Argv {
                argv: vec!["curl".into()],
            },
            risk: crate::ir::Risk::runs_anything(),
            guidance: None,
            tags: Vec::new(),
            settings,
            provenance: Provenance {
                format: "agentcli-manifest",
                path: "tools.json".into(),
                index: Some(0),
                sha256: "00".into(),
                tool_hash: None,
                system_prompt_hash: None,
            },
        }
    }

    /// The canonical definition without the name, as a lock would record it.
    fn definition(tool: &Tool) -> serde_json::Value {
        let mut value = crate::lock::canonical::definition(tool);
        if let Some(map) = value.as_object_mut() {
            map.remove("name");
        }
        value
    }

    /// The digest of a brief tells two tools apart exactly when their canonical definitions
    /// but for the name differ: a new name, file or place, or settings read in another order,
    /// change nothing; a change to any part of the definition does.
    #[test]
    fn the_digest_of_a_brief_is_as_equal_as_the_canonical_definition() {
        let base = tool();
        let mut variants: Vec<(&str, Tool)> = Vec::new();
        let mut add = |what, change: &dyn Fn(&mut Tool)| {
            let mut t = tool();
            change(&mut t);
            variants.push((what, t));
        };
        add("name", &|t| t.name = "get".into());
        add("place", &|t| {
            t.provenance.path = "b/tools.json".into();
            t.provenance.index = Some(7);
            t.provenance.sha256 = "ff".into();
            t.provenance.tool_hash = Some("aa".into());
        });
        add("settings order", &|t| {
            let mut settings = crate::ir::Settings::new();
            settings.insert("envPassthrough".into(), r#"["HOME"]"#.into());
            settings.insert("timeoutSec".into(), "30".into());
            t.settings = settings;
        });
        // Keys written in another order (a map that kept its keys in the order given would
        // write another text, and the digest would tell them apart).
        add("schema key order", &|t| {
            let mut properties = serde_json::Map::new();
            properties.insert("url".into(), serde_json::json!({"type": "string"}));
            let mut schema = serde_json::Map::new();
            schema.insert("properties".into(), properties.into());
            schema.insert("type".into(), "object".into());
            t.input_schema = serde_json::Value::Object(schema).into();
        });
        add("description", &|t| t.description = "Fetch a URL".into());
        add("schema", &|t| {
            t.input_schema = serde_json::json!({"type": "object"}).into();
        });
        add("output schema", &|t| {
            t.output_schema = Some(serde_json::json!({"type": "string"}).into());
        });
        add("setting", &|t| {
            let mut settings = crate::ir::Settings::new();
            settings.insert("timeoutSec".into(), "31".into());
            t.settings = settings;
        });
        add("system prompt", &|t| {
            t.provenance.system_prompt_hash = Some("ab".into());
        });
        add("program", &|t| {
            t.run = crate::ir::Run::Argv {
                argv: vec!["wget".into()],
            };
        });
        // The same words cut elsewhere: an argument split in two, a word moved between texts.
        add("arguments split", &|t| {
            t.run = crate::ir::Run::Argv {
                argv: vec!["cu".into(), "rl".into()],
            };
        });
        add("text moved", &|t| {
            t.title = Some("Fetch".into());
            t.description = " a page".into();
        });
        add("steps", &|t| {
            t.run = crate::ir::Run::Steps {
                steps: vec![t.run.clone()],
            };
        });
        add("transport", &|t| {
            t.run = crate::ir::Run::Transport {
                transport: serde_json::json!({"type": "http", "url": "https://example.com"}),
            };
        });
        add("guidance", &|t| {
            t.guidance = Some(crate::ir::Guidance {
                use_when: vec!["a page is named".into()],
                avoid_when: Vec::new(),
                side_effects: Vec::new(),
            });
        });
        add("risk", &|t| t.risk.read_only = true);
        add("risk level", &|t| t.risk.level = Some("high".into()));
        add("tags", &|t| t.tags = vec!["net".into()]);
        add("title", &|t| t.title = Some("Fetch".into()));
        let canonical = definition(&base);
        let digest = unnamed(&base);
        let same: Vec<&str> = variants
            .into_iter()
            .filter_map(|(what, t)| {
                let equal = definition(&t) == canonical;
                assert_eq!(unnamed(&t) == digest, equal, "{what}");
                equal.then_some(what)
            })
            .collect();
        assert_eq!(
            same,
            ["name", "place", "settings order", "schema key order"]
        );
    }
}
