//! DojOps `tool.yaml` (spec 1) and the schema files it names.
//!
//! DojOps skips an invalid manifest without a word, so every shape problem here is an error:
//! the user's tool would otherwise just vanish at run time.

use std::path::Path;
use std::sync::Arc;

use super::{Item, Name, NameKind, SHAPE, check_name};
use crate::analysis::names::{
    NameIndex, SUGGESTION_BUDGET, did_you_mean, did_you_mean_within, listed,
};
use crate::analysis::shell::first_chaining;
use crate::diagnostics::edits::replace_text;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::formats::fields::{ItemPaths, Lowerer, MapRef, as_int};
use crate::formats::format::{FileResult, syntax_diagnostics};
use crate::formats::in_value::{InValue, span_in_value};
use crate::formats::item::Item as FileItem;
use crate::fs::FileSystem;
use crate::rules::{dojops as rules, security};
use crate::runtimes::dojops::{RUNTIME_ONLY_BINARIES, SPEC_BINARIES};
use crate::schema::root_property_names;
use crate::security::texts::FileTexts;
use crate::source::{SourceFile, Span};
use crate::syntax::{Again, Later, Node, NodeKind, json, yaml};
use serde::{Deserialize, Serialize};

/// DojOps skips manifests and schema files larger than this.
pub(crate) const MAX_DOJOPS_FILE: usize = 64 * 1024;

/// What DojOps does with a key it does not know.
pub(crate) const DROPPED_NOTE: &str =
    "DojOps silently drops keys it does not know: whatever this sets has no effect";

const TOP_KEYS: &[&str] = &[
    "spec",
    "name",
    "version",
    "type",
    "description",
    "inputSchema",
    "outputSchema",
    "tags",
    "generator",
    "files",
    "verification",
    "detector",
    "permissions",
];
const GENERATOR_KEYS: &[&str] = &[
    "strategy",
    "systemPrompt",
    "updateMode",
    "existingDelimiter",
    "userPromptTemplate",
];
const FILE_KEYS: &[&str] = &["path", "serializer"];
const SERIALIZERS: &[&str] = &["yaml", "json", "hcl", "ini", "toml", "raw"];
const PERMISSION_KEYS: &[&str] = &["filesystem", "network", "child_process"];

/// The tree of the schema file `file`, as the load parsed it.
pub(crate) fn schema_tree(file: &SourceFile) -> Option<Node> {
    json::parse(file.body(), file.bom_len).root
}

/// A lowered `tool.yaml`.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Tool {
    /// `name`, when present, a string and a valid name.
    pub name: Option<Name>,
    /// `name` as written, valid or not: where findings about the whole tool point.
    pub written_name: Option<Name>,
    /// What the bundle lowering needs of the manifest (`ir.rs`): lowered again from the
    /// manifest when it is asked for ([`Tool::doc`]).
    pub doc: Again<super::doc::ManifestDoc>,
    /// The input schema file, when it was found and read.
    pub input: Option<SchemaFile>,
    /// The output schema file, likewise.
    pub output: Option<SchemaFile>,
    /// What the model reads and what runs, for the security pass (`texts.rs`).
    pub texts: FileTexts,
}

impl Tool {
    /// What the bundle lowering needs of the manifest `file` (this item's): lowered again
    /// from its text (read back from disk when it was let go) the first time.
    pub(crate) fn doc(&self, file: &SourceFile) -> Option<&super::doc::ManifestDoc> {
        self.doc.get_or_make(|| {
            let parsed = yaml::parse(file.body(), file.bom_len);
            parsed.root.as_ref().map(super::doc::ManifestDoc::lower)
        })
    }
}

pub(crate) use super::schema_file::SchemaFile;

/// Parse, lower, validate and lint one manifest and the schema files it names (read through
/// `fs`; validated when `passes` say so).
pub(crate) fn load(
    file: Arc<SourceFile>,
    fs: &dyn FileSystem,
    passes: crate::security::Passes,
) -> FileResult {
    let mut result = FileResult::new(Arc::clone(&file), Vec::new(), FileItem::none());
    if file.text.len() > MAX_DOJOPS_FILE {
        result.diagnostics.push(too_large(&file, "manifest"));
    }
    let parsed = yaml::parse(file.body(), file.bom_len);
    result
        .diagnostics
        .extend(syntax_diagnostics(&file, &parsed));
    let Some(root) = parsed.root else {
        if parsed.errors.is_empty() {
            // Only comments: legal YAML, but DojOps skips a manifest with no document.
            result.diagnostics.push(
                Diagnostic::new(
                    &crate::rules::syntax::EMPTY_FILE,
                    &file,
                    Span::point(file.bom_len),
                    "the manifest holds only comments",
                )
                .note("DojOps skips the tool without an error: it will not be registered")
                .help("write the manifest, or delete the file"),
            );
        }
        return result;
    };
    let mut lw = Lowerer::new(&file, &SHAPE);
    lw.schema = passes.schema;
    let mut tool = Tool::default();
    // The schema files' trees, while the texts are collected from them: not kept after.
    let mut schemas: Vec<(Arc<SourceFile>, Node)> = Vec::new();
    if let Some(map) = lw.as_map(&root, Span::point(root.span().start), "") {
        lower(
            &mut lw,
            fs,
            map,
            &mut tool,
            &mut result.companions,
            &mut schemas,
        );
    }
    result.diagnostics.extend(lw.diags);
    tool.doc = Again::new(super::doc::ManifestDoc::lower(&root));
    let texts = FileTexts::check(passes, super::texts::tool_yaml(&file, &root, &schemas));
    tool.texts = texts;
    // Kept until the end of the run, for every tool of the repository: no spare room.
    result.companions.shrink_to_fit();
    result.item = FileItem::new(Item::Tool(tool));
    result.trees = Some(Box::new(crate::formats::format::Trees {
        root: Some(root),
        companions: schemas,
    }));
    result
}

/// DOJ024, once per manifest: current DojOps does not load it at all, whatever it holds. At
/// the tool's name when it has a valid one. Reported across files (`resolve`), so that a
/// manifest with no finding of its own stays one the cache can leave alone.
pub(crate) fn not_loaded(file: &Arc<SourceFile>, name: Option<&Name>) -> Diagnostic {
    let kind = file
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| *n == "plugin.yaml")
        .unwrap_or("tool.yaml");
    // A name DojOps could never register (empty, or over its 64 characters) is not echoed.
    let shown = name.filter(|n| (1..=64).contains(&n.value.chars().count()));
    let removed = crate::runtimes::dojops::TOOL_YAML_REMOVED;
    let last = crate::runtimes::dojops::LAST_TOOL_YAML_RELEASE;
    let span = name.map_or(Span::point(file.bom_len), |n| n.span);
    // The skill's file is named after the skill, whose name must be kebab-case.
    let target = shown
        .map(|n| NameKind::Skill.suggest(&n.value))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "<name>".to_string());
    let what = shown.map_or_else(|| "this tool".to_string(), |n| format!("`{}`", n.value));
    Diagnostic::new(
        &rules::TOOL_YAML_NOT_LOADED,
        file,
        span,
        format!("DojOps {removed} and later no longer load `{kind}` tools: {what} is never registered"),
    )
    .label("never loaded by current DojOps")
    .note(format!("DojOps {removed} removed `tool.yaml` and `plugin.yaml` manifests: custom tools are `.dops` v2 skills, read from `.dojops/skills/`"))
    .help(format!("move it to `.dojops/skills/{target}.dops` (`dops: v2`): `name`, `version` and `description` go under `meta`, `files[].path` under `files`, the system prompt becomes the `## Prompt` section, `verification.command` becomes `verification.binary.command` with a `parser`; if you run DojOps {last} or older, say so in toolc.toml (`[runtimes] dojops = \"{last}\"`)"))
}

fn too_large(file: &Arc<SourceFile>, what: &str) -> Diagnostic {
    Diagnostic::new(
        &rules::FILE_TOO_LARGE,
        file,
        Span::point(file.bom_len),
        format!(
            "this {what} is {} bytes, over the 64 KiB DojOps reads",
            file.text.len()
        ),
    )
    .note("DojOps skips the tool without an error: it will not be registered")
    .help("split the content or shorten the system prompt")
}

fn lower(
    lw: &mut Lowerer<'_>,
    fs: &dyn FileSystem,
    map: MapRef<'_>,
    tool: &mut Tool,
    companions: &mut Vec<Arc<SourceFile>>,
    schemas: &mut Vec<(Arc<SourceFile>, Node)>,
) {
    lw.unknown_keys(map, TOP_KEYS, DROPPED_NOTE);
    check_spec(lw, map);
    if let Some((name, span)) = lw.required_str(map, "name", 0, usize::MAX) {
        tool.written_name = Some(Name {
            value: name.into(),
            span,
        });
        // DojOps never registers a tool with an invalid name, so only a valid one takes part
        // in duplicate and policy checks (no knock-on findings).
        if check_name(lw, NameKind::Tool, "name", name, span) {
            tool.name = Some(Name {
                value: name.into(),
                span,
            });
        }
    }
    if let Some(e) = lw.required(map, "version") {
        if matches!(e.value.kind, NodeKind::Number(_)) {
            let text = lw.file.slice(e.value.span()).to_string();
            let d = lw
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    e.value.span(),
                    format!("`version` must be a string, found the number `{text}`"),
                )
                .label("a number, not a string")
                .help(format!("quote it: `version: \"{text}\"`"));
            lw.push(d);
        } else {
            lw.str_value(&e.value, "version", 1, usize::MAX);
        }
    }
    if let Some(e) = lw.required(map, "type") {
        lw.enum_value(&e.value, "type", &["tool"]);
    }
    lw.required_str(map, "description", 1, 500);
    let input = lw.required_str(map, "inputSchema", 1, usize::MAX);
    let output = lw.optional_str(map, "outputSchema", 1, usize::MAX);
    if let Some(e) = map.node.get("tags") {
        lw.str_items(&e.value, "tags", false, |_, _| {});
    }
    let generator = lw
        .required(map, "generator")
        .and_then(|e| lw.as_map(&e.value, e.key_span(), "generator"));
    if let Some(g) = generator {
        lw.unknown_keys(g, GENERATOR_KEYS, DROPPED_NOTE);
        if let Some(e) = lw.required(g, "strategy") {
            lw.enum_value(&e.value, "generator.strategy", &["llm"]);
        }
        lw.required_str(g, "systemPrompt", 1, usize::MAX);
        lw.optional_bool(g, "updateMode");
        lw.optional_str(g, "existingDelimiter", 0, usize::MAX);
        lw.optional_str(g, "userPromptTemplate", 0, usize::MAX);
    }
    // Only the paths with a placeholder are kept (copied): `files` is read an entry at a time.
    let mut template_paths: Vec<Node> = Vec::new();
    let mut keep = |node: &Node| {
        if node.as_str().is_some_and(|s| s.contains('{')) {
            template_paths.push(node.clone());
        }
    };
    if let Some(e) = lw.required(map, "files") {
        output_files::lower(lw, &e.value, &mut keep);
    }
    let child_process = map
        .node
        .value("permissions")
        .and_then(|p| p.value("child_process"))
        .and_then(Node::as_str);
    if let Some(e) = map.node.get("verification")
        && let Some(v) = lw.as_map(&e.value, e.key_span(), "verification")
    {
        lw.unknown_keys(v, &["command"], DROPPED_NOTE);
        if let Some((command, _)) = lw.required_str(v, "command", 1, usize::MAX) {
            if let Some(node) = v.node.value("command") {
                check_verification(lw, node, command, child_process == Some("required"));
            }
            if child_process != Some("required") && !command.trim().is_empty() {
                let d = lw
                        .diag(&rules::VERIFICATION_NEVER_RUNS, e.key_span(), "this verification never runs: `permissions.child_process` is not `required`")
                        .label("declared but never executed")
                        .note("without `child_process: required` DojOps reports verification as passed without running the command")
                        .help("add `child_process: required` under `permissions`, or remove `verification`");
                lw.push(d);
            }
        }
    }
    if let Some(e) = map.node.get("detector")
        && let Some(d) = lw.as_map(&e.value, e.key_span(), "detector")
    {
        lw.unknown_keys(d, &["path"], DROPPED_NOTE);
        if let Some(p) = lw.required(d, "path") {
            match &p.value.kind {
                NodeKind::String(_) => {
                    if lw
                        .str_value(&p.value, "detector.path", 1, usize::MAX)
                        .is_some()
                    {
                        check_traversal(lw, &p.value, "detector.path");
                        keep(&p.value);
                    }
                }
                NodeKind::Seq(items) if items.is_empty() => {
                    let d = lw
                        .diag(
                            &rules::INVALID_FIELD_LENGTH,
                            p.value.span(),
                            "`detector.path` must not be an empty list",
                        )
                        .label("empty list");
                    lw.push(d);
                }
                NodeKind::Seq(items) => {
                    let mut paths = ItemPaths::new("detector.path");
                    for (i, item) in items.iter().enumerate() {
                        let path = paths.at(i);
                        if lw.str_value(item, path, 1, usize::MAX).is_some() {
                            check_traversal(lw, item, path);
                            keep(item);
                        }
                    }
                }
                _ => lw.wrong_type(&p.value, "detector.path", "a string or a list of strings"),
            }
        }
    }
    if let Some(e) = map.node.get("permissions")
        && let Some(p) = lw.as_map(&e.value, e.key_span(), "permissions")
    {
        lw.unknown_keys(p, PERMISSION_KEYS, DROPPED_NOTE);
        lw.optional_enum(p, "filesystem", &["project", "global"]);
        lw.optional_enum(p, "network", &["none", "inherit"]);
        lw.optional_enum(p, "child_process", &["none", "required"]);
    }
    let dir = lw
        .file
        .path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut input_properties: Option<Vec<String>> = None;
    for (key, value, is_input) in [
        ("inputSchema", input, true),
        ("outputSchema", output, false),
    ] {
        let Some((rel, span)) = value else { continue };
        let Some(schema) = schema_files::load_schema(lw, fs, &dir, key, rel, span) else {
            continue;
        };
        let (schema_file, root) = schema;
        let link = SchemaFile {
            file: Arc::clone(&schema_file),
            span,
            tree: Later::new(root.is_some()),
        };
        if is_input {
            input_properties = root.as_ref().map(|r| {
                root_property_names(r)
                    .into_iter()
                    .map(str::to_string)
                    .collect()
            });
            tool.input = Some(link);
        } else {
            tool.output = Some(link);
        }
        if let Some(root) = root {
            schemas.push((Arc::clone(&schema_file), root));
        }
        companions.push(schema_file);
    }
    if let Some(props) = input_properties {
        // Indexed once for every path, not once for each.
        let names = NameIndex::new(props.iter().map(String::as_str).collect());
        for node in &template_paths {
            check_placeholders(lw, node, &props, &names, input.map(|(_, s)| s));
        }
    }
}

fn check_spec(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(e) = lw.required(map, "spec") else {
        return;
    };
    if as_int(&e.value) == Some(1) {
        return;
    }
    let found = match &e.value.kind {
        NodeKind::String(s) => format!("the string `\"{s}\"`"),
        _ => format!("`{}`", lw.file.slice(e.value.span())),
    };
    let d = lw
        .diag(
            &rules::UNSUPPORTED_SPEC_VERSION,
            e.value.span(),
            format!("`spec` must be the integer `1`, found {found}"),
        )
        .label("not spec version 1")
        .note("DojOps validates `spec` as an integer equal to 1 and skips the tool otherwise")
        .help("write `spec: 1`");
    lw.push(d);
}

fn check_traversal(lw: &mut Lowerer<'_>, node: &Node, path: &str) {
    let Some(value) = node.as_str() else { return };
    let mut offset = 0;
    for segment in value.split(['/', '\\']) {
        if segment == ".." {
            let span = span_in_value(lw.file, node, offset, "..");
            let d = lw
                .diag(&security::PATH_TRAVERSAL, span, format!("`{path}` climbs out of the project with a `..` segment"))
                .label("path traversal")
                .note("DojOps rejects the manifest, so the tool is skipped; a runtime that did not would write outside the project")
                .help("use a path inside the project, without `..`");
            lw.push(d);
            return;
        }
        offset += segment.len() + 1;
    }
}

fn check_verification(lw: &mut Lowerer<'_>, node: &Node, command: &str, runs: bool) {
    let trimmed = command.trim();
    if trimmed.is_empty() {
        return;
    }
    let lead = command.len() - command.trim_start().len();
    let binary = trimmed.split([' ', '\t']).next().unwrap_or(trimmed);
    let bin_span = span_in_value(lw.file, node, lead, binary);
    if binary.contains('\0') || !crate::runtimes::dojops::tool_allows(binary) {
        let consequence = if runs {
            "DojOps fails verification for a binary outside its whitelist, so every run of this tool fails"
        } else {
            "DojOps would fail verification as soon as `child_process: required` is set"
        };
        let hint = did_you_mean(binary, crate::runtimes::dojops::tool_allowed());
        let skill_only = crate::runtimes::dojops::SKILL_ONLY_BINARIES
            .iter()
            .find(|b| b.name == binary);
        let mut d = lw
            .diag(
                &rules::VERIFICATION_BINARY_NOT_ALLOWED,
                bin_span,
                format!("`{binary}` is not on DojOps's verification whitelist"),
            )
            .label("not whitelisted")
            .note(consequence)
            .did_you_mean_or(
                hint.and_then(|h| {
                    let fix = replace_text(lw.file, bin_span, binary, h, Applicability::Unsafe);
                    DidYouMean::fixed_by(h, fix)
                })
                .map(|h| h.then(format!("allowed binaries: {}", SPEC_BINARIES.join(", ")))),
                format!("use one of: {}", SPEC_BINARIES.join(", ")),
            );
        if let Some(b) = skill_only {
            d = d.note(format!("DojOps {} and later run `{}` for `.dops` skills only: move the tool to a skill to verify with it", b.since, b.name));
        }
        lw.push(d);
    } else if RUNTIME_ONLY_BINARIES.contains(&binary) {
        let d = lw
            .diag(
                &rules::VERIFICATION_BINARY_NOT_IN_SPEC,
                bin_span,
                format!("`{binary}` is whitelisted by current DojOps but not by tool spec 1"),
            )
            .label("not in the spec's 16 binaries")
            .note(
                "current DojOps runs it; a runtime that follows spec 1 strictly fails verification",
            )
            .help(format!(
                "if the tool must run on strict spec-1 runtimes, use one of: {}",
                SPEC_BINARIES.join(", ")
            ));
        lw.push(d);
    }
    if let Some((at, op)) = first_chaining(trimmed) {
        let span = span_in_value(lw.file, node, lead + at, op);
        let d = lw
            .diag(&security::UNCHECKED_COMMAND_CHAINING, span, format!("the verification command chains another command with `{op}`"))
            .label("runs unchecked")
            .note("DojOps only checks the first word against its whitelist; everything after this runs unchecked with the tool's permissions")
            .help("verify with a single whitelisted command and its arguments");
        lw.push(d);
    }
}

/// DOJ012: `{name}` placeholders must name input-schema properties.
fn check_placeholders(
    lw: &mut Lowerer<'_>,
    node: &Node,
    props: &[String],
    names: &NameIndex<'_>,
    input_span: Option<Span>,
) {
    let Some(value) = node.as_str() else { return };
    // Looked up, placed and suggested without going over every property for each
    // placeholder: a template of many placeholders and a schema of many properties.
    let mut spans = InValue::new(lw.file, node);
    let mut budget = SUGGESTION_BUDGET;
    let mut search = 0;
    while let Some(open) = value[search..].find('{').map(|i| search + i) {
        let Some(close) = value[open..].find('}').map(|i| open + i) else {
            break;
        };
        let name = &value[open + 1..close];
        search = close + 1;
        let is_identifier = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if !is_identifier || names.first(name).is_some() {
            continue;
        }
        if lw.diags.counted(&rules::UNKNOWN_TEMPLATE_PLACEHOLDER) {
            continue;
        }
        let span = spans.span(open, &value[open..=close]);
        let hint = did_you_mean_within(
            &mut budget,
            name,
            props.len(),
            names.names().iter().copied(),
        );
        let mut d = lw
            .diag(&rules::UNKNOWN_TEMPLATE_PLACEHOLDER, span, format!("`{{{name}}}` is not a property of the input schema"))
            .label("unknown placeholder")
            .note("DojOps replaces `{key}` with the input value of that property; with no such property the braces stay in the written path")
            ;
        let hint = hint.and_then(|h| {
            let fixed = format!("{{{h}}}");
            let fix = replace_text(
                lw.file,
                span,
                &value[open..=close],
                &fixed,
                Applicability::Unsafe,
            );
            DidYouMean::fixed_by(fixed, fix)
        });
        if let Some(hint) = hint {
            d = d.did_you_mean(hint);
        } else {
            d = d.help(if props.is_empty() {
                "the input schema defines no properties".to_string()
            } else {
                format!("input properties: {}", listed(props, props.len()))
            });
        }
        if let Some(s) = input_span {
            d = d.related(lw.file, s, "input schema named here");
        }
        lw.push(d);
    }
}

mod output_files;
mod schema_files;
#[cfg(test)]
mod tests;
