//! An MCP tool list (docs/formats/mcp-tools.md): the result of a server's `tools/list`
//! request saved as `tools.json`, `{"tools": [TOOL, …]}` or the list alone, each tool a
//! `name`, a `description` and an `inputSchema`. It is what a client hands the model, so
//! the security pass reads it as it reads any other format's tools, and each `inputSchema`
//! is checked as a JSON Schema.

use std::fmt;
use std::sync::Arc;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::formats::format::{FileResult, syntax_diagnostics};
use crate::formats::item::Item;
use crate::ir::{Access, Lowered, Risk, Run, Sink, Sites, Tool, empty_object_schema, provenance};
use crate::schema::{SchemaOptions, check_schema};
use crate::security::Checking;
use crate::security::texts::{FileTexts, listed};
use crate::source::{SourceFile, Span};
use crate::syntax::{MapItem, Node, NodeKind, Packed, Seq, TreeRef, json};

/// The keys a tool's input schema is written under: the protocol's, and the snake case some
/// SDKs print.
const SCHEMA_KEYS: &[&str] = &["inputSchema", "input_schema"];

/// Every key of the protocol's `Tool` (and the snake case of its schemas): an entry with a
/// name and a description and no other key is a tool whose schema was left out.
const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "input_schema",
    "outputSchema",
    "output_schema",
    "annotations",
    "_meta",
    "icons",
];

/// A lowered MCP tool list.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct ToolList {
    /// The tools that have a name, in order.
    pub tools: Vec<ListedTool>,
    /// What the model reads, for the security pass.
    pub texts: FileTexts,
}

/// One tool of the list (strings boxed and the index in 32 bits: a list of 1.5 million tiny
/// tools keeps one each, and 24 bytes less a tool took 35 MB off its peak).
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct ListedTool {
    /// Position in the list (a list of a file toolc reads counts far below 4 billion).
    pub index: u32,
    /// `name`.
    pub name: Box<str>,
    /// `description`, when it is a string.
    pub description: Option<Box<str>>,
    /// Where its `name` value is written.
    pub name_span: Span,
    /// Where its `description` value is written.
    pub description_span: Option<Span>,
    /// Its input schema.
    pub schema: Option<Packed>,
    /// `annotations`: the behaviour hints the server declares.
    pub hints: Hints,
}

/// The MCP tool annotations, with the protocol's defaults for the ones not given.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct Hints {
    /// `readOnlyHint`.
    pub read_only: bool,
    /// `destructiveHint`.
    pub destructive: bool,
    /// `idempotentHint`.
    pub idempotent: bool,
    /// `openWorldHint`.
    pub open_world: bool,
}

impl Default for Hints {
    fn default() -> Hints {
        Hints {
            read_only: false,
            destructive: true,
            idempotent: false,
            open_world: true,
        }
    }
}

/// The entries of the list: `tools` of an object (or of the `result` of the JSON-RPC
/// response that carried it), the root list, or the root when it is one tool; how many, and
/// each read where it is (a long list is packed: built into nodes, a
/// million tools `{"name":"tN","inputSchema":{}}` took twice their room again).
fn entries(root: &Node) -> (usize, impl Iterator<Item = MapItem<'_>>) {
    let object = root.value("result").unwrap_or(root);
    let list = object
        .value("tools")
        .and_then(Node::as_list)
        .or_else(|| root.as_list());
    let single = list
        .is_none()
        .then(|| root.value("name").map(|_| MapItem::of(root)))
        .flatten();
    let len = list.map_or(usize::from(single.is_some()), Seq::len);
    // The list's items, or the root as its one tool: `len` of them (the security pass makes
    // room for every tool's kept texts at once, instead of doubling it).
    let items = list.into_iter().flat_map(Seq::maps_unbuilt).chain(single);
    (len, items.take(len))
}

/// MCP001 on an entry of the list with no name, or an empty one: a client that checks the
/// result refuses the whole list, and one that does not still shows the model its
/// description (which the security checks read) under no name a lock or a diff can follow.
fn unnamed(file: &Arc<SourceFile>, entry: &Node, index: usize) -> Option<Diagnostic> {
    entry.as_map()?;
    let (span, label) = match entry.value("name") {
        Some(n) => (n.span(), "not a name"),
        None => (entry.span(), "no `name`"),
    };
    Some(
        Diagnostic::new(
            &crate::rules::mcp::MISSING_REQUIRED_FIELD,
            file,
            span,
            format!("tool[{index}] has no `name`: it is not a tool a client can call"),
        )
        .label(label)
        .note("the protocol requires a name: a client that checks the `tools/list` result refuses the whole list, and one that does not still gives the model this tool's description")
        .help("give the tool the name it is called by, or remove the entry"),
    )
}

/// Parse and check one tool list (claimed already: [`is_tool_list`]).
pub(crate) fn load(file: Arc<SourceFile>, passes: crate::security::Passes) -> FileResult {
    let parsed = json::parse(file.body(), file.bom_len);
    // Capped as found: a list of 300,000 tools with a bad schema each held every finding
    // to the end of the file (14 times its size).
    let mut diagnostics = Findings::default();
    diagnostics.extend(syntax_diagnostics(&file, &parsed));
    let mut list = ToolList::default();
    if let Some(root) = &parsed.root {
        // The tools and the security pass read the tree apart, side by side when that
        // holds no long tool twice: each builds a packed tool for itself, and a list whose
        // one tool is most of the file held it twice (a 4.6 MB list: 16.5 -> 19.4 times its
        // size). One after the other, a list of 960,000 tiny tools loaded in 4.7 s on one
        // core, side by side in 3.3 s.
        if side_by_side(root) {
            let (tools, texts) = rayon::join(
                || tools_of(&file, root, passes, &mut diagnostics),
                || texts(&file, root, passes),
            );
            list.tools = tools;
            list.texts = texts;
        } else {
            list.tools = tools_of(&file, root, passes, &mut diagnostics);
            list.texts = texts(&file, root, passes);
        }
        diagnostics.extend(duplicates(&file, &list.tools));
    }
    let trees = parsed.root.map(|root| {
        Box::new(crate::formats::format::Trees {
            root: Some(root),
            companions: Vec::new(),
        })
    });
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics: diagnostics.into_vec(),
        item: Item::new(list),
        trees,
        custom_matched: Vec::new(),
    }
}

/// A list of at least this many tools may be read by its two readers side by side...
const SIDE_BY_SIDE_FROM: usize = 1024;
/// ...when none of its tools is longer than this.
const SIDE_BY_SIDE_WIDEST: usize = 64 << 10;

/// Whether the list `root` is long, and each of its tools short, enough to be read by the
/// tools and the security pass at once: each reader builds a tool of a packed list for
/// itself, so side by side a long tool would be held twice.
fn side_by_side(root: &Node) -> bool {
    let (len, mut items) = entries(root);
    len >= SIDE_BY_SIDE_FROM
        && items.all(|i| i.span().is_some_and(|s| s.len() <= SIDE_BY_SIDE_WIDEST))
}

/// The named tools of the list `root`, each one's schema checked; the findings of schemas
/// and of unnamed entries go into `diagnostics`.
fn tools_of(
    file: &Arc<SourceFile>,
    root: &Node,
    passes: crate::security::Passes,
    diagnostics: &mut Findings,
) -> Vec<ListedTool> {
    let (len, items) = entries(root);
    let mut tools = Vec::with_capacity(len);
    for (index, entry) in items.enumerate() {
        let Some((text, name_span)) = entry.str("name").filter(|(t, _)| !t.trim().is_empty())
        else {
            if let Some(node) = entry.node() {
                diagnostics.extend(unnamed(file, &node, index));
            }
            continue;
        };
        let description = entry.value("description");
        let input = SCHEMA_KEYS
            .iter()
            .find_map(|k| entry.value(k))
            .filter(|s| s.entries().is_some());
        if let (true, Some(s)) = (passes.schema, &input) {
            let who = format!("tool[{index}] {text:?}: ");
            diagnostics.extend(
                check_schema(file, s, SchemaOptions::default())
                    .into_iter()
                    .map(|mut d| {
                        d.message.insert_str(0, &who);
                        d
                    }),
            );
        }
        tools.push(ListedTool {
            index: u32::try_from(index).unwrap_or(u32::MAX),
            name: text.into(),
            description: description.as_deref().and_then(Node::as_str).map(Box::from),
            name_span,
            description_span: description.map(|d| d.span()),
            schema: input.map(|s| Packed::pack(&s)),
            hints: hints(entry.value("annotations").as_deref()),
        });
    }
    tools
}

/// MCP022 on each tool named as an earlier one was: a client keys the tools it offers the
/// model by name, so one of the two is never called (and an API that takes the list as it
/// is, as Anthropic's does, refuses the request).
fn duplicates<'a>(
    file: &'a Arc<SourceFile>,
    tools: &'a [ListedTool],
) -> impl Iterator<Item = Diagnostic> + 'a {
    let name = |i: usize| tools.get(i).map(|t| &*t.name);
    let found = crate::analysis::registry::duplicates_by(tools.len(), name);
    found.into_iter().filter_map(move |dup| {
        let (first, again) = (tools.get(dup.first)?, tools.get(dup.again)?);
        Some(
            Diagnostic::new(
                &crate::rules::mcp::DUPLICATE_NAME,
                file,
                again.name_span,
                format!(
                    "tool[{}] is named `{}`, as tool[{}] is",
                    again.index, again.name, first.index
                ),
            )
            .label("named again")
            .related(file, first.name_span, "first named here")
            .note("a client calls tools by name: it offers the model one of the two, and an API that takes the list as it is (Anthropic's) refuses it")
            .help("give each tool its own name, or remove the one left over"),
        )
    })
}

fn hints(annotations: Option<&Node>) -> Hints {
    let flag = |key: &str, default: bool| match annotations.and_then(|a| a.value(key)) {
        Some(node) if let NodeKind::Bool(b) = node.kind => b,
        _ => default,
    };
    let d = Hints::default();
    Hints {
        read_only: flag("readOnlyHint", d.read_only),
        destructive: flag("destructiveHint", d.destructive),
        idempotent: flag("idempotentHint", d.idempotent),
        open_world: flag("openWorldHint", d.open_world),
    }
}

/// The security pass over each object of the list, one tool at a time: its name,
/// description and schema strings, a packed entry's schema built for it alone and checked
/// while it lives (never every tool's texts at once, nor a long schema's copied out).
fn texts(file: &Arc<SourceFile>, root: &Node, passes: crate::security::Passes) -> FileTexts {
    let (len, items) = entries(root);
    let mut check = Checking::new(passes, len);
    if !check.wanted() {
        return check.finish();
    }
    for entry in items.filter(MapItem::is_map) {
        let (name, description) = (entry.str("name"), entry.str("description"));
        let schema = SCHEMA_KEYS.iter().find_map(|k| entry.value(k));
        check.tool(&listed(file, name, description, schema.as_deref(), |_| {}));
    }
    check.finish()
}

/// Every tool of the lists `takes` accepts, as the format-neutral tool: run by the server
/// that listed it, with the hints it declares.
pub(crate) fn lower<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    out: &mut dyn Sink<'a>,
) {
    for r in results {
        if let Some(list) = r.item.get::<ToolList>()
            && takes(r)
        {
            let asked = crate::ir::asked(out, &r.file, &list.tools, |t| t.index as usize);
            // Room for them at once: grown by doubling, a list of 1.5 million lowered tools
            // held a third more while the last doubling copied them.
            out.reserve(asked.len());
            for t in asked {
                if out.wants(&r.file, t.index as usize) {
                    out.tool(lowered(&r.file, t));
                }
            }
        }
    }
}

fn lowered<'a>(file: &'a Arc<SourceFile>, t: &'a ListedTool) -> Lowered<'a> {
    let mut provenance = provenance(file);
    provenance.index = Some(t.index as usize);
    let h = t.hints;
    Lowered {
        tool: Tool {
            name: t.name.to_string(),
            title: None,
            version: None,
            description: t.description.as_deref().unwrap_or_default().to_string(),
            input_schema: t
                .schema
                .as_ref()
                .map_or_else(empty_object_schema, Packed::to_json)
                .into(),
            output_schema: None,
            run: Run::Tool {
                tool: t.name.to_string(),
                mcp: None,
                arguments: None,
            },
            risk: Risk {
                access: if h.read_only {
                    Access::Read
                } else {
                    Access::Write
                },
                kind: None,
                level: None,
                read_only: h.read_only,
                destructive: h.destructive,
                idempotent: h.idempotent,
                open_world: h.open_world,
            },
            guidance: None,
            tags: Vec::new(),
            settings: crate::ir::Settings::default(),
            provenance,
        },
        file,
        name_span: t.name_span,
        schema: t.schema.as_ref().map(|s| (file, TreeRef::Packed(s))),
        description_span: t.description_span.unwrap_or(t.name_span),
        output: None,
        parameters: None,
        sites: Sites::default(),
    }
}

/// True when `text` is an MCP tool list: `{"tools": LIST}`, a `LIST` alone or one tool alone,
/// holding at least one tool — an object with a string `name` and an object `inputSchema`
/// (or `input_schema`), or with a string `name` and `description` and only the protocol's
/// keys — and no object whose `command` is a list (an agentcli manifest's entry). Text that is not
/// valid JSON is a tool list when it names `name` and an input schema key but no `command`,
/// so a list broken by a stray comma is still reported.
///
/// Read as the text streams by, keeping nothing: some lists are huge.
pub(crate) fn is_tool_list(text: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(text);
    match de.deserialize_any(Shape::Root).and_then(|found| {
        de.end()?;
        Ok(found)
    }) {
        Ok(found) => found.tool && !found.command,
        // Text that does not even start as JSON (a Jekyll template's front matter) is some
        // other file's.
        Err(_) => {
            text.trim_start_matches('\u{feff}')
                .trim_start()
                .starts_with(['{', '['])
                && SCHEMA_KEYS
                    .iter()
                    .any(|k| text.contains(&format!("\"{k}\"")))
                && text.contains("\"name\"")
                && !text.contains("\"command\"")
        }
    }
}

/// What was found in a value.
#[derive(Clone, Copy, Default)]
struct Found {
    /// A tool: a name and an input schema, or a name and a description and no key the
    /// protocol does not define.
    tool: bool,
    /// An entry whose `command` is a list.
    command: bool,
    /// The value is a JSON object.
    object: bool,
    /// The value is a list.
    list: bool,
    /// The value is a string.
    string: bool,
}

/// What a value is looked at as.
#[derive(Clone, Copy)]
enum Shape {
    /// The whole file: a list, an object holding one, or one tool.
    Root,
    /// The `result` of a JSON-RPC response: `{"tools": LIST}`.
    Result,
    /// The list of tools.
    List,
    /// One entry of it.
    Tool,
    /// Any value, whose kind alone matters.
    Kind,
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = Found;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Found, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Shape {
    type Value = Found;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Found, A::Error> {
        let mut found = Found {
            list: true,
            ..Found::default()
        };
        if matches!(self, Shape::Root | Shape::List) {
            while let Some(entry) = seq.next_element_seed(Shape::Tool)? {
                found.tool |= entry.tool;
                found.command |= entry.command;
            }
        } else {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
        }
        Ok(found)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Found, A::Error> {
        let mut found = Found {
            object: true,
            ..Found::default()
        };
        let (mut name, mut schema, mut description, mut foreign) = (false, false, false, false);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let own = TOOL_KEYS.contains(&&*key);
            foreign |= !own;
            match (self, &*key) {
                (Shape::Root, "result") => {
                    let inner = map.next_value_seed(Shape::Result)?;
                    found.tool |= inner.tool;
                    found.command |= inner.command;
                }
                (Shape::Root | Shape::Result, "tools") => {
                    let list = map.next_value_seed(Shape::List)?;
                    found.tool |= list.tool;
                    found.command |= list.command;
                }
                (Shape::Tool | Shape::Root, "name") => {
                    name = map.next_value_seed(Shape::Kind)?.string;
                }
                (Shape::Tool | Shape::Root, "description") => {
                    description = map.next_value_seed(Shape::Kind)?.string;
                }
                (Shape::Tool | Shape::Root, k) if SCHEMA_KEYS.contains(&k) => {
                    schema = map.next_value_seed(Shape::Kind)?.object;
                }
                // agentcli matches its keys case-insensitively: so does the test that keeps
                // its manifests apart.
                (Shape::Tool, k) if k.eq_ignore_ascii_case("command") => {
                    found.command |= map.next_value_seed(Shape::Kind)?.list;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let tool = name && (schema || (description && !foreign));
        match self {
            Shape::Tool => found.tool = tool,
            Shape::Root => found.tool |= tool,
            _ => {}
        }
        Ok(found)
    }

    fn visit_str<E>(self, _: &str) -> Result<Found, E> {
        Ok(Found {
            string: true,
            ..Found::default()
        })
    }
    fn visit_bool<E>(self, _: bool) -> Result<Found, E> {
        Ok(Found::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Found, E> {
        Ok(Found::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Found, E> {
        Ok(Found::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Found, E> {
        Ok(Found::default())
    }
    fn visit_unit<E>(self) -> Result<Found, E> {
        Ok(Found::default())
    }
}

#[cfg(test)]
mod tests {
    use super::is_tool_list;

    #[test]
    fn tool_lists_and_other_tools_json() {
        let tool = r#"{"name": "add", "description": "Adds.", "inputSchema": {"type": "object"}}"#;
        assert!(is_tool_list(&format!(r#"{{"tools": [{tool}]}}"#)));
        assert!(is_tool_list(&format!("[{tool}, 3]")));
        assert!(is_tool_list(
            r#"[{"name": "a", "input_schema": {"type": "object"}}]"#
        ));
        // The JSON-RPC response that carried it.
        assert!(is_tool_list(&format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{tool}]}}}}"#
        )));
        assert!(!is_tool_list(&format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "result": [{tool}]}}"#
        )));
        // Tools described by `arguments`, a doc server's configuration, an agentcli manifest.
        assert!(!is_tool_list(
            r#"[{"name": "getTopStories", "arguments": []}]"#
        ));
        assert!(!is_tool_list(
            r#"{"tools": [{"name": "q", "title": "Q", "docType": "x"}]}"#
        ));
        assert!(!is_tool_list(&format!(
            r#"{{"tools": [{tool}, {{"name": "b", "command": ["./b"]}}]}}"#
        )));
        assert!(!is_tool_list(
            r#"{"tools": [{"name": "a", "Command": ["x"], "inputSchema": {}}]}"#
        ));
        // A schema that is not an object, a name that is not a string.
        assert!(!is_tool_list(r#"[{"name": "a", "inputSchema": "x"}]"#));
        assert!(!is_tool_list(r#"[{"name": 1, "inputSchema": {}}]"#));
        // Broken JSON is read by the keys it names.
        assert!(is_tool_list(&format!("[{tool},]")));
        assert!(!is_tool_list(
            r#"[{"name": "a", "command": ["x"], "inputSchema": {},]"#
        ));
        assert!(!is_tool_list(r#"[{"name": "a", "arguments": [],]"#));
        // A template that renders to a tool list is not one as it stands.
        assert!(!is_tool_list(&format!("---\nlayout: null\n---\n[{tool}]")));
        assert!(!is_tool_list(""));
        assert!(!is_tool_list("{}"));
        // One tool alone; a tool whose schema was left out, with nothing but the protocol's keys.
        assert!(is_tool_list(tool));
        assert!(is_tool_list(
            r#"[{"name": "add", "description": "Adds two numbers."}]"#
        ));
        assert!(is_tool_list(
            r#"{"tools": [{"name": "add", "title": "Add", "description": "Adds."}]}"#
        ));
        assert!(!is_tool_list(
            r#"[{"name": "add", "description": "Adds.", "arguments": []}]"#
        ));
        assert!(!is_tool_list(r#"{"name": "my-app", "version": "1.0.0"}"#));
        assert!(!is_tool_list(
            r#"{"name": "my-app", "description": "An app.", "version": "1.0.0"}"#
        ));
    }
}
