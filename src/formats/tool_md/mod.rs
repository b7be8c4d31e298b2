//! `*.tool.md` tool files and the `*.agent.md` agents that reference them: the Tool
//! Definition Specification and agent files of [AML](https://github.com/alirion-io/aml).
//!
//! Both are Markdown files whose YAML front matter carries every field; the body is
//! editorial. Tool ids are repository-wide: [`resolve`] indexes every tool by id once and
//! checks duplicates and every agent reference against that index.

mod agent;
mod definition;
pub(crate) mod doc;
mod interface;
mod ir;
mod outline;
mod resolve;
mod stray;
mod subset;
mod texts;
mod tool;
mod transport;

use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub(crate) use agent::Agent;
pub(crate) use stray::strays;
pub(crate) use tool::{Status, Tool, ToolType};

use super::fields::{Lowerer, ShapeRules};
use crate::analysis::names::{NameStyle, suggest_valid_name};
use crate::diagnostics::Diagnostic;
use crate::formats::format::{FileResult, Format, syntax_diagnostics};
use crate::formats::front_matter::{FrontMatterWording, front_matter_error};
use crate::formats::item::Item as FileItem;
use crate::fs::FileSystem;
use crate::ir::Sink;
use crate::rules::{syntax as syn, tool_md as rules};
use crate::source::{FormatId, SourceFile, Span};
use crate::syntax::front_matter::split_front_matter;
use crate::syntax::{Parsed, yaml};
use std::path::Path;

/// A lowered tool or agent file.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Item {
    /// A `*.tool.md`.
    Tool(Tool),
    /// A `*.agent.md`.
    Agent(Agent),
    /// A knowledge base, model or guardrail definition agents refer to.
    Definition(definition::Definition),
}

impl Item {
    /// Tool definitions in this item.
    pub(crate) fn tool_count(&self) -> usize {
        usize::from(matches!(self, Item::Tool(_)))
    }
}

/// A value together with the bytes it was read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it is written.
    pub span: Span,
}

/// What the compiler does with a tool file that breaks a hard rule.
const TOOL_REJECTED: &str = "the compiler rejects this tool file: the tool is not registered, and every agent that references it fails to compile";
/// What the compiler does with an agent file that breaks a hard rule.
const AGENT_REJECTED: &str =
    "the compiler rejects this agent file, so the agent cannot be published";

/// Shape rules of tool files.
static TOOL_SHAPE: ShapeRules = ShapeRules {
    missing: &rules::MISSING_REQUIRED_FIELD,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_FIELD_VALUE,
    length: &rules::INVALID_FIELD_VALUE,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// Shape rules of agent files: their format is larger than what toolc checks, so an
/// unknown key is only a warning.
static AGENT_SHAPE: ShapeRules = ShapeRules {
    missing: &rules::MISSING_REQUIRED_FIELD,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_FIELD_VALUE,
    length: &rules::INVALID_FIELD_VALUE,
    unknown_key: &rules::UNKNOWN_AGENT_KEY,
};

/// Parse, lower, validate and lint one tool or agent file (the costly `passes` run).
pub(crate) fn load(file: Arc<SourceFile>, passes: crate::security::Passes) -> FileResult {
    let name = file.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if file.format == FormatId::AgentMd
        && let Some(kind) = definition::Kind::of_file(name)
    {
        let def = definition::load(&file, kind);
        return FileResult::new(file, Vec::new(), FileItem::new(Item::Definition(def)));
    }
    let is_agent = file.format == FormatId::AgentMd;
    let (item, diagnostics, front) = if is_agent {
        let (agent, diags, front) = check_agent(&file, passes);
        (Item::Agent(agent), diags, front)
    } else {
        let (tool, diags, front) = check_tool(&file, passes);
        (Item::Tool(tool), diags, front)
    };
    let consequence = if is_agent {
        AGENT_REJECTED
    } else {
        TOOL_REJECTED
    };
    let diagnostics = diagnostics
        .into_iter()
        .map(|d| with_consequence(d, consequence))
        .collect();
    let mut result = FileResult::new(file, diagnostics, FileItem::new(item));
    // The front matter, for the custom rules: not parsed again.
    result.trees = crate::formats::format::Trees::of_root(front);
    result
}

/// Top-level keys only an AML tool file has (other `*.tool.md` files share none of them).
const AML_TOOL_KEYS: &[&str] = &[
    "tool_id",
    "spec_version",
    "interface",
    "transport",
    "use_guidance",
    "error_codes",
    "response_schema",
];
/// Top-level keys only an AML agent has: not `name`, `description`, `tools` or `model`, which
/// Copilot's agents have too.
const AML_AGENT_KEYS: &[&str] = &[
    "agent_id",
    "spec_version",
    "guardrails",
    "runtime",
    "knowledge",
    "policies",
    "orchestration",
    "routing",
];

/// The id keys of the definitions agents refer to (`*.kb.md`, `*.model.md`, `*.guardrail.md`).
const DEFINITION_ID_KEYS: &[&str] = &["kb_id", "model_id", "guardrail_id"];

/// `*.tool.md` tools and `*.agent.md` agents (one name scope: the repository).
pub(crate) struct ToolMd;

impl Format for ToolMd {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[
            (FormatId::ToolMd, &["**/*.tool.md"]),
            (
                FormatId::AgentMd,
                &[
                    "**/*.agent.md",
                    "**/*.kb.md",
                    "**/*.model.md",
                    "**/*.guardrail.md",
                ],
            ),
        ]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        let name = path.file_name()?.to_str()?;
        if name.ends_with(".tool.md") {
            Some(FormatId::ToolMd)
        } else if name.ends_with(".agent.md") || definition::Kind::of_file(name).is_some() {
            Some(FormatId::AgentMd)
        } else {
            None
        }
    }

    fn cache(&self) -> Option<crate::formats::item::ItemCodec> {
        Some(crate::formats::item::ItemCodec::of::<Item>())
    }

    fn claims(&self, format: FormatId, text: &str) -> bool {
        // Other agent frameworks use `*.agent.md` too (GitHub Copilot's custom agents have
        // `name`, `description`, `tools`, `model`), and AML's own documentation pages show a
        // file inside a fenced block: only front matter with a key of AML's own is AML's.
        let keys = if format == FormatId::AgentMd {
            AML_AGENT_KEYS
        } else {
            AML_TOOL_KEYS
        };
        crate::syntax::sniff::front_matter_has_any(text, keys)
            || format == FormatId::AgentMd
                && crate::syntax::sniff::front_matter_has_any(text, DEFINITION_ID_KEYS)
    }

    fn load(
        &self,
        file: Arc<SourceFile>,
        _fs: &dyn FileSystem,
        passes: crate::security::Passes,
    ) -> FileResult {
        load(file, passes)
    }

    fn resolve(&self, results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        resolve(results)
    }

    fn tool_count(&self, r: &FileResult) -> usize {
        // A tool file that could not be read still stands for one tool.
        r.item.get::<Item>().map_or(
            usize::from(r.file.format == FormatId::ToolMd),
            Item::tool_count,
        )
    }

    fn lower<'a>(
        &self,
        results: &'a [FileResult],
        takes: &dyn Fn(&FileResult) -> bool,
        out: &mut dyn Sink<'a>,
    ) {
        ir::lower(results, takes, out);
    }

    fn texts<'r>(&self, r: &'r FileResult) -> Option<&'r crate::security::texts::FileTexts> {
        match r.item.get::<Item>()? {
            Item::Tool(t) => Some(&t.texts),
            Item::Agent(a) => Some(&a.texts),
            Item::Definition(_) => None,
        }
    }

    fn texts_mut<'r>(
        &self,
        r: &'r mut FileResult,
    ) -> Option<&'r mut crate::security::texts::FileTexts> {
        match r.item.get_mut::<Item>()? {
            Item::Tool(t) => Some(&mut t.texts),
            Item::Agent(a) => Some(&mut a.texts),
            Item::Definition(_) => None,
        }
    }

    fn outline(&self, r: &FileResult) -> crate::formats::outline::Outline {
        outline::outline(r)
    }
}

/// Cross-file checks: duplicate tool ids and every agent reference.
pub(crate) fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    let mut out = resolve::resolve(results);
    out.extend(definition::resolve_references(results));
    out
}

/// Every defect of a rule that rejects the file says what the compiler does with it, unless
/// the emit site says something more precise already.
fn with_consequence(d: Diagnostic, consequence: &str) -> Diagnostic {
    // A line that stands for findings left out (capped as they were found) says only that.
    if d.notes.is_empty() && d.rule.rejects_file && d.omitted == 0 {
        d.note(consequence.to_string())
    } else {
        d
    }
}

/// A file's item, its findings and the tree of its front matter.
type Checked<T> = (T, Vec<Diagnostic>, Option<crate::syntax::Node>);

fn check_tool(file: &Arc<SourceFile>, passes: crate::security::Passes) -> Checked<Tool> {
    let mut tool = Tool {
        file_stem: file_stem(file, ".tool.md"),
        ..Tool::default()
    };
    let mut diags = Vec::new();
    let fm = match split_front_matter(&file.text, file.bom_len) {
        Ok(fm) => fm,
        Err(e) => {
            diags.push(front_matter_error(file, e, &TOOL_FRONT_MATTER));
            return (tool, diags, None);
        }
    };
    let yaml_text = file.text.get(fm.yaml.start..fm.yaml.end).unwrap_or("");
    let parsed = yaml::parse(yaml_text, fm.yaml.start);
    diags.extend(yaml_errors(
        file,
        &parsed,
        yaml_text,
        "the compiler cannot read this front matter, so the tool is not registered",
    ));
    let mut lw = Lowerer::new(file, &TOOL_SHAPE).with_missing_help(|field, file| {
        missing_field_help(field, &id_for(file_stem(file, ".tool.md").as_deref()))
    });
    lw.schema = passes.schema;
    match &parsed.root {
        Some(root) => tool::lower(&mut lw, root, &fm, &mut tool),
        None if parsed.errors.is_empty() => empty_front_matter(
            &mut lw,
            fm.open,
            "spec_version`, `tool_id`, `version`, `status`, `meta`, `type`, `interface` and `use_guidance",
        ),
        None => {}
    }
    diags.extend(lw.diags);
    tool.doc = parsed
        .root
        .as_ref()
        .map(|r| Box::new(doc::ToolDoc::lower(r)));
    let checked = texts::file(file, parsed.root.as_ref(), fm.body_start, false);
    tool.texts = crate::security::texts::FileTexts::check(passes, checked);
    (tool, diags, parsed.root)
}

fn check_agent(file: &Arc<SourceFile>, passes: crate::security::Passes) -> Checked<Agent> {
    let mut agent = Agent::default();
    let mut diags = Vec::new();
    let fm = match split_front_matter(&file.text, file.bom_len) {
        Ok(fm) => fm,
        Err(e) => {
            diags.push(front_matter_error(file, e, &AGENT_FRONT_MATTER));
            return (agent, diags, None);
        }
    };
    let yaml_text = file.text.get(fm.yaml.start..fm.yaml.end).unwrap_or("");
    let parsed = yaml::parse(yaml_text, fm.yaml.start);
    diags.extend(yaml_errors(
        file,
        &parsed,
        yaml_text,
        "the compiler cannot read this front matter, so the agent is not compiled",
    ));
    let mut lw = Lowerer::new(file, &AGENT_SHAPE).with_missing_help(|field, file| {
        missing_field_help(field, &id_for(file_stem(file, ".agent.md").as_deref()))
    });
    match &parsed.root {
        Some(root) => agent::lower(&mut lw, root, fm.open, &mut agent),
        None if parsed.errors.is_empty() => {
            empty_front_matter(&mut lw, fm.open, "agent_id` and `tools")
        }
        None => {}
    }
    diags.extend(lw.diags);
    agent.name = parsed
        .root
        .as_ref()
        .and_then(|r| r.value("meta"))
        .and_then(|m| m.value("name"))
        .and_then(crate::syntax::Node::as_str)
        .map(str::to_string);
    let checked = texts::file(file, parsed.root.as_ref(), fm.body_start, true);
    agent.texts = crate::security::texts::FileTexts::check(passes, checked);
    (agent, diags, parsed.root)
}

/// Syntax errors of the front matter, with what the compiler does about them and, when the
/// whole front matter lost its indentation, the likely cause.
fn yaml_errors(
    file: &Arc<SourceFile>,
    parsed: &Parsed,
    yaml_text: &str,
    consequence: &str,
) -> Vec<Diagnostic> {
    let flat = lost_indentation(yaml_text);
    syntax_diagnostics(file, parsed)
        .into_iter()
        .map(|mut d| {
            if flat && std::ptr::eq(d.rule, &syn::INVALID_YAML) && d.help.is_none() {
                d.help = Some("no line of this front matter is indented: nested fields such as `meta.name` must be indented under their parent (copying from a web page often drops the indentation)".to_string().into());
            }
            d.note(consequence.to_string())
        })
        .collect()
}

/// True when a front matter opens nested blocks (`meta:`) but indents no line at all.
fn lost_indentation(yaml: &str) -> bool {
    let lines: Vec<&str> = yaml
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    lines.iter().all(|l| !l.starts_with([' ', '\t']))
        && lines.iter().any(|l| {
            let l = l.trim_end();
            l.ends_with(':') || l.ends_with(": >") || l.ends_with(": |")
        })
}

/// The id a file's name suggests (`<id>` when it is not a valid id).
fn id_for(stem: Option<&str>) -> String {
    stem.filter(|s| is_valid_id(s))
        .unwrap_or("<id>")
        .to_string()
}

/// What to add for the missing field `field` (a dotted path), in a file whose id should be `id`.
fn missing_field_help(field: &str, id: &str) -> Option<String> {
    const TRANSPORT_TYPES: &str = "`rest-api`, `lambda`, `mcp`, `message-queue` or `database`";
    const SCHEMES: &str =
        "`none`, `iam-role`, `api-key`, `bearer-token`, `oauth2` or `service-account`";
    let last = field.rsplit(['.', ']']).next().unwrap_or(field);
    let help = match (field, last) {
        ("transport.type", _) => format!("add `type:` under `transport`: {TRANSPORT_TYPES}"),
        ("transport.credentials.scheme", _) => {
            format!("add `scheme:` under `credentials`: {SCHEMES}")
        }
        (_, "spec_version") => {
            "add `spec_version: \"1.2\"`, the AML version this file follows".to_string()
        }
        (_, "tool_id") => format!("add `tool_id: \"{id}\"`, the id agents reference the tool by"),
        (_, "agent_id") => format!("add `agent_id: \"{id}\"`"),
        (_, "version") => "add `version: \"1.0.0\"`".to_string(),
        (_, "status") => {
            "add `status:` with `draft`, `active`, `deprecated` or `disabled`".to_string()
        }
        (_, "meta") => "add `meta:` with the tool's `name`, `description` and `owner`".to_string(),
        (_, "name") => "add `name:` under `meta` with the tool's display name".to_string(),
        (_, "description") => "add `description:` under `meta`: two to five sentences on what the tool does and when to use it".to_string(),
        (_, "owner") => {
            "add `owner:` under `meta` with the team responsible for the tool".to_string()
        }
        (_, "type") => "add `type:` with `retrieval`, `action`, `function` or `human`".to_string(),
        (_, "interface") => {
            "add `interface:` with an `input` and an `output` JSON Schema".to_string()
        }
        (_, key @ ("input" | "output")) => format!(
            "add `{key}:` under `interface` with a JSON Schema, e.g. `type: object` and its `properties`"
        ),
        (_, "use_guidance") => {
            "add `use_guidance:` with `use_when`, `avoid_when` and `side_effects`".to_string()
        }
        (_, "tools" | "refs") => "add `tools:` with `refs:` listing `- ref: \"<tool_id>\"` for each tool the agent uses".to_string(),
        (_, "ref") => "add `ref: \"<tool_id>\"` naming the tool".to_string(),
        _ => return None,
    };
    Some(help)
}

fn empty_front_matter(lw: &mut Lowerer<'_>, open: Span, fields: &str) {
    let d = lw
        .diag(
            &rules::MISSING_REQUIRED_FIELD,
            open,
            "the front matter is empty",
        )
        .label("no fields follow this line")
        .help(format!("add `{fields}` between the `---` lines"));
    lw.push(d);
}

/// How SYN010/SYN011 read for a tool file.
const TOOL_FRONT_MATTER: FrontMatterWording<'static> = FrontMatterWording {
    what: "a tool file",
    consequence: "the compiler finds no fields, so the tool is not registered",
    missing_help: "put the YAML fields (`spec_version`, `tool_id`, `meta`, `interface`, …) between two `---` lines at the top of the file",
    unclosed_help: "add a `---` line after the last front-matter field, before the Markdown body",
};

/// How SYN010/SYN011 read for an agent file.
const AGENT_FRONT_MATTER: FrontMatterWording<'static> = FrontMatterWording {
    what: "an agent file",
    consequence: "the compiler finds no fields, so the agent is not compiled",
    missing_help: "put the YAML fields (`agent_id`, `tools`) between two `---` lines at the top of the file",
    unclosed_help: "add a `---` line after the last front-matter field, before the Markdown body",
};

/// `name` of `name<suffix>`, the file's own name.
fn file_stem(file: &SourceFile, suffix: &str) -> Option<String> {
    file.path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(suffix))
        .map(str::to_string)
}

/// True when `id` matches `^[a-z0-9_-]{3,64}$`, the id rule of tools and agents.
pub(crate) fn is_valid_id(id: &str) -> bool {
    (3..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// The closest valid id to `id` (`Send Email` → `send-email`), if there is one.
pub(crate) fn suggest_id(id: &str) -> Option<String> {
    const ID: NameStyle = NameStyle {
        keep: |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-',
        lowercase: true,
        replacement: '-',
        collapse: true,
        first: None,
        max_len: 64,
    };
    let out = suggest_valid_name(id, &ID);
    is_valid_id(&out).then_some(out)
}

/// Why `id` breaks the id rule, for a label.
fn id_problem(id: &str) -> String {
    let len = id.chars().count();
    if len < 3 {
        format!("{len} characters; ids have at least 3")
    } else if len > 64 {
        format!("{len} characters; ids have at most 64")
    } else {
        match id
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-')))
        {
            Some(c) if c.is_ascii_uppercase() => "uppercase letters are not allowed".to_string(),
            Some(c) if c.is_whitespace() => "spaces are not allowed".to_string(),
            Some(c) => format!("`{c}` is not allowed"),
            None => "must match ^[a-z0-9_-]{3,64}$".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert!(is_valid_id("send-email"));
        assert!(is_valid_id("a_b"));
        assert!(!is_valid_id("ab"));
        assert!(!is_valid_id("Send-Email"));
        assert_eq!(suggest_id("Send Email!"), Some("send-email".to_string()));
        assert_eq!(suggest_id("x"), None);
        assert_eq!(id_problem("Send"), "uppercase letters are not allowed");
        assert_eq!(id_problem("a.b.c"), "`.` is not allowed");
    }
}
