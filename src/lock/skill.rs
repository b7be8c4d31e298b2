//! An Agent Skill as recorded: its name, description and allowed tools, its other front-matter
//! fields, the hash of its instructions (the body of `SKILL.md`) and of every file its folder
//! ships (the same listing the skill's checks use: no hidden files, no nested skills).

use std::sync::Arc;

use serde_json::Value;

use super::record::{Fields, Kind, Record, digest, field, recorded};
use crate::formats::agent_skill::folder::Folder;
use crate::fs::FileSystem;
use crate::source::{SourceFile, Span};
use crate::syntax::front_matter::split_front_matter;
use crate::syntax::yaml;

/// Front-matter keys recorded under their own name; any other key is `front-matter/KEY`.
const OWN: &[&str] = &["name", "description", "allowed-tools"];

/// The record of the skill `file` heads, when its front matter can be read.
pub(super) fn record<'a>(file: &'a Arc<SourceFile>, fs: &dyn FileSystem) -> Option<Record<'a>> {
    let text: &str = &file.text;
    let fm = split_front_matter(text, file.bom_len).ok()?;
    let yaml_text = text.get(fm.yaml.start..fm.yaml.end)?;
    let root = yaml::parse(yaml_text, fm.yaml.start).root?;
    let mut fields = Fields::default();
    let folder = file.path.parent()?;
    let name_entry = root.get("name");
    let (name, name_span) = match name_entry.and_then(|e| e.value.as_str().map(|s| (e, s))) {
        Some((e, s)) => (s.to_string(), e.value.span()),
        None => (folder.file_name()?.to_string_lossy().into_owned(), fm.open),
    };
    for entry in root.as_map().unwrap_or_default() {
        let key = match entry.key.as_str() {
            "name" => continue,
            k if OWN.contains(&k) => k.to_string(),
            k => format!("front-matter/{k}"),
        };
        let text = key == "description";
        let value = match entry.value.as_str() {
            Some(s) if text => Value::String(s.trim().to_string()),
            _ => recorded(&entry.value),
        };
        fields.insert(key, field(value, entry.value.span(), text));
    }
    let body = text.get(fm.body_start..).unwrap_or("");
    // The span starts at the first written line (a blank line after the fence is no place).
    let lead = body.len() - body.trim_start().len();
    let end = fm.body_start + body.trim_end().len();
    let body_span = Span::new((fm.body_start + lead).min(end), end);
    fields.insert(
        "instructions".into(),
        field(digest(body.as_bytes()), body_span, true),
    );
    let listing = Folder::list(fs, folder);
    for rel in listing.files.keys().filter(|r| r.as_str() != "SKILL.md") {
        // A file that cannot be read is recorded as such: its change to readable shows.
        let value = match fs.read(&folder.join(rel)) {
            Ok(bytes) => digest(&bytes),
            Err(_) => Value::String("unreadable".into()),
        };
        fields.insert(format!("files/{rel}"), field(value, name_span, false));
    }
    for rel in &listing.others {
        let value = Value::String("not a regular file".into());
        fields.insert(format!("files/{rel}"), field(value, name_span, false));
    }
    Some(Record {
        kind: Kind::Skill,
        file,
        name,
        name_span,
        fields: fields.sorted(),
    })
}
