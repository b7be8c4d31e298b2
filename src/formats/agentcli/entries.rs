//! The manifest and its tool entries: the `tools` list, names (ACL003 across one manifest),
//! descriptions, the parameter schema, and keys agentcli does not read as written.

use super::command::Program;
use super::{
    Cx, Details, Manifest, REFUSED, Site, TOOL_KEYS, Tool, Unnamed, Who, field, json_type,
};
use crate::analysis::names::did_you_mean;
use crate::analysis::registry;
use crate::diagnostics::DidYouMean;
use crate::formats::fields::rename_key;
use crate::formats::tree::Strings;
use crate::rules::agentcli as rules;
use crate::schema::{SchemaOptions, check_schema};
use crate::syntax::{Entry, Node, NodeKind};

/// Keywords OpenAI and Anthropic refuse at the root of a tool's input schema.
const ROOT_REFUSED: &[&str] = &["oneOf", "anyOf", "allOf", "enum", "not"];

impl Cx<'_> {
    pub(super) fn manifest(&mut self, root: &Node, manifest: &mut Manifest) {
        let Some(entries) = root.as_map() else {
            let d = self
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    root.span(),
                    format!(
                        "the manifest must be a JSON object `{{\"tools\": [...]}}`, found {}",
                        json_type(root)
                    ),
                )
                .label("expected an object")
                .note(REFUSED)
                .help("wrap the tool list: `{\"tools\": [ ... ]}`");
            self.push(d);
            return;
        };
        self.unknown_keys(entries, &["tools"], None);
        let Some(tools) = field(root, "tools") else {
            let misspelt = entries
                .iter()
                .find(|e| did_you_mean(&e.key, ["tools"]).is_some());
            let mut d = self
                .diag(
                    &rules::MISSING_REQUIRED_FIELD,
                    Self::brace(root),
                    "required field `tools` is missing",
                )
                .label("this object lacks `tools`")
                .note("agentcli reads tools from `tools` only: this manifest offers the model no tool");
            d = match misspelt {
                Some(e) => d
                    .related(
                        self.file,
                        e.key_span(),
                        format!("`{}` looks like a misspelling of `tools`", e.key),
                    )
                    .help(format!("rename `{}` to `tools`", e.key)),
                None => d.help("list the tools under `\"tools\": [ ... ]`"),
            };
            self.push(d);
            return;
        };
        let Some(items) = tools.value.as_list() else {
            self.wrong_type(
                &tools.value,
                "`tools`".into(),
                "a list of tool objects",
                None,
            );
            return;
        };
        // Only the programs that pass agentcli's checks, grown as they come: room for one
        // a tool (72 bytes) was most of what a manifest of a million tools `{"name":"tN",
        // "command":["x"]}` took beside its tree.
        let mut programs = Vec::new();
        let mut words = Strings::new();
        // Each entry read where it is: a long list of small tools is packed, and an entry is
        // built from its bytes only while it is checked.
        for (index, node) in items.scan().enumerate() {
            let node = &*node;
            let who = Who { index, name: None };
            if node.entries().is_none() {
                self.wrong_type(node, format!("{who}"), "a JSON object", None);
                continue;
            }
            let (name, argv, mut details) = self.tool(node, index, &mut programs);
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            let span = Site::of(Some(node.span()));
            let Some(name) = name else {
                manifest.unnamed.push(Unnamed { index, span });
                continue;
            };
            details.description_span = Site::of(node.value("description").map(|n| n.span()));
            let command_span = Site::of(crate::formats::tree::site_at(node, &["command"]));
            details.schema = node.value("schema").map(crate::syntax::Packed::pack);
            let name_span = Site::of(node.value("name").map(|n| n.span()));
            manifest.tools.push(Tool::new(
                index,
                [span, name_span, command_span],
                &mut words,
                (&name, &argv),
                details,
            ));
        }
        // Held for the whole run: without the spare room of the pushes (their number is not
        // known before the entries are read, and room for every entry in both lists was
        // half of what a manifest of a million tiny tools took).
        manifest.tools.shrink_to_fit();
        manifest.unnamed.shrink_to_fit();
        manifest.words = words.into_boxed();
        self.duplicate_names(manifest);
        self.programs(&programs, tools.key_span());
    }

    /// ACL003: the scope of a tool name is its manifest (a tool keeps its name only when it
    /// is a non-empty string).
    fn duplicate_names(&mut self, manifest: &Manifest) {
        let tools = &manifest.tools;
        let name = |i: usize| tools.get(i).map(|t| manifest.name(t));
        for dup in registry::duplicates_by(tools.len(), name) {
            let (Some(first), Some(again)) = (tools.get(dup.first), tools.get(dup.again)) else {
                continue;
            };
            if self.diags.counted(&rules::DUPLICATE_TOOL_NAME) {
                continue;
            }
            let (first, first_span) = (first.index, first.name_at());
            let name = manifest.name(again);
            let (index, span) = (again.index as usize, again.name_at());
            let who = Who {
                index,
                name: Some(name.to_string()),
            };
            let d = self
                .diag(
                    &rules::DUPLICATE_TOOL_NAME,
                    span,
                    format!("{who}: duplicate name"),
                )
                .label("already used")
                .related(
                    self.file,
                    first_span,
                    format!("first defined here, as tool[{first}]"),
                )
                .note(REFUSED)
                .help("give each tool its own name; the model calls tools by name");
            self.push(d);
        }
    }

    /// Check the tool entry `node`, the `index`th: its name, when it is a non-empty string,
    /// and the rest of what it sets.
    fn tool(
        &mut self,
        node: &Node,
        index: usize,
        programs: &mut Vec<Program>,
    ) -> (Option<Box<str>>, Strings, Details) {
        let mut who = Who { index, name: None };
        let mut tool = Details::default();
        let mut own_name = None;
        let keys = ["timeoutSec", "envPassthrough"];
        let mut settings = crate::ir::Settings::new();
        crate::formats::tree::settings(
            &crate::syntax::MapItem::of(node),
            &keys,
            &[],
            "",
            &mut settings,
        );
        tool.settings = (!settings.is_empty()).then(|| Box::new(settings));
        tool.settings_span = Site::of(
            keys.iter()
                .find_map(|k| field(node, k).map(|e| e.key_span())),
        );
        let name = field(node, "name");
        match name.map(|e| &e.value) {
            Some(Node {
                kind: NodeKind::String(s),
                ..
            }) if !s.is_empty() => {
                who.name = Some(s.to_string());
                own_name = Some((**s).into());
            }
            Some(
                v @ Node {
                    kind: NodeKind::String(_),
                    ..
                },
            ) => {
                // Past the rule's first findings in the file, counted without being built.
                if !self.diags.counted(&rules::MISSING_REQUIRED_FIELD) {
                    let d = self
                        .diag(
                            &rules::MISSING_REQUIRED_FIELD,
                            v.span(),
                            format!("{who}: name is required (it is empty)"),
                        )
                        .label("empty name")
                        .note(REFUSED)
                        .help("name the tool: the model calls it by this name");
                    self.push(d);
                }
            }
            Some(v) if !matches!(v.kind, NodeKind::Null) => {
                self.wrong_type(v, format!("{who}: `name`"), "a string", None);
            }
            _ if self.diags.counted(&rules::MISSING_REQUIRED_FIELD) => {}
            _ => {
                let d = self
                    .diag(
                        &rules::MISSING_REQUIRED_FIELD,
                        Self::brace(node),
                        format!("{who}: name is required"),
                    )
                    .label("this tool has no `name`")
                    .note(REFUSED)
                    .help("add `\"name\": \"...\"`: the model calls the tool by this name");
                self.push(d);
            }
        }
        if let Some(entries) = node.as_map() {
            self.unknown_keys(entries, TOOL_KEYS, Some(&who));
        }
        self.description(node, &who, &mut tool);
        let argv = self.command(node, &who, programs);
        self.timeout(node, &who);
        self.env(node, &who);
        self.schema(node, &who);
        (own_name, argv, tool)
    }

    fn description(&mut self, node: &Node, who: &Who, tool: &mut Details) {
        let entry = field(node, "description");
        let (span, label) = match entry.map(|e| &e.value) {
            Some(Node {
                kind: NodeKind::String(s),
                ..
            }) if !s.trim().is_empty() => {
                tool.description = Some((**s).into());
                return;
            }
            Some(
                v @ Node {
                    kind: NodeKind::String(_),
                    ..
                },
            ) => (v.span(), "empty description"),
            Some(
                v @ Node {
                    kind: NodeKind::Null,
                    ..
                },
            ) => (v.span(), "no description"),
            Some(v) => {
                self.wrong_type(v, format!("{who}: `description`"), "a string", None);
                return;
            }
            None => (
                field(node, "name").map_or(Self::brace(node), |e| e.key_span()),
                "no `description`",
            ),
        };
        if self.diags.counted(&rules::MISSING_DESCRIPTION) {
            return;
        }
        let d = self
            .diag(&rules::MISSING_DESCRIPTION, span, format!("{who}: the tool has no description"))
            .label(label)
            .note("the model picks tools by their description: without one it has only the name to guess from")
            .help("add `\"description\": \"...\"` saying what the tool does and when to use it");
        self.push(d);
    }

    fn schema(&mut self, node: &Node, who: &Who) {
        let Some(entry) = field(node, "schema") else {
            return;
        };
        let schema = &entry.value;
        match &schema.kind {
            NodeKind::Null => return,
            NodeKind::Map(_) => {}
            _ => {
                self.wrong_type(
                    schema,
                    format!("{who}: `schema`"),
                    "a JSON Schema object",
                    None,
                );
                return;
            }
        }
        self.refused_at_root(schema, who);
        let prefix = format!("{who}: ");
        let checked = match self.schema {
            true => check_schema(self.file, schema, SchemaOptions::default()),
            false => Vec::new(),
        };
        self.diags.extend(checked.into_iter().map(|mut d| {
            d.message.insert_str(0, &prefix);
            d
        }));
        let type_is_object = match schema.value("type").map(|t| &t.kind) {
            None => true,
            Some(NodeKind::String(t)) => &**t == "object",
            Some(NodeKind::Seq(ts)) => ts.iter().any(|t| t.as_str() == Some("object")),
            Some(_) => false,
        };
        if type_is_object
            && schema.get("additionalProperties").is_none()
            && !self.diags.counted(&rules::OPEN_PARAMETER_SCHEMA)
        {
            let d = self
                .diag(
                    &rules::OPEN_PARAMETER_SCHEMA,
                    entry.key_span(),
                    format!("{who}: the parameter schema does not set `additionalProperties: false`"),
                )
                .label("open to extra arguments")
                .note("the model may invent arguments the tool does not expect; agentcli hands them to the tool's stdin unchecked")
                .help("add `\"additionalProperties\": false` next to `\"properties\"`");
            self.push(d);
        }
    }

    /// ACL015: keywords the providers refuse at the root of a function's `parameters`.
    fn refused_at_root(&mut self, schema: &Node, who: &Who) {
        for e in schema.as_map().into_iter().flatten() {
            if !ROOT_REFUSED.contains(&e.key.as_str())
                || self.diags.counted(&rules::REFUSED_ROOT_KEYWORD)
            {
                continue;
            }
            let help = if e.key == "enum" {
                "put the `enum` on the property it constrains; the root stays a plain `type: object`"
            } else {
                "keep the root a plain `type: object`: make the alternatives' properties optional, say in `description` which to give, and let the tool reject a wrong combination (or split it into one tool per alternative)"
            };
            let d = self
                .diag(
                    &rules::REFUSED_ROOT_KEYWORD,
                    e.key_span(),
                    format!(
                        "{who}: the parameter schema has `{}` at its top level, which OpenAI and Anthropic refuse",
                        e.key
                    ),
                )
                .label("not allowed at the top level")
                .note("agentcli sends the schema unchanged as the function's `parameters`: OpenAI answers 400 and Anthropic rejects the tool list, so every request that offers the tools fails, not only calls to this one")
                .help(help);
            self.push(d);
        }
    }

    /// ACL010: keys agentcli does not read as written.
    fn unknown_keys(&mut self, entries: &[Entry], known: &[&str], who: Option<&Who>) {
        for e in entries.iter().filter(|e| !known.contains(&e.key.as_str())) {
            // Past the cap an unknown key is only counted: no suggestion is looked for.
            if self.diags.counted(&rules::UNKNOWN_KEY) {
                continue;
            }
            // Named only for a key to report: a manifest of millions of tools has few.
            let at = who.map_or("the manifest".to_string(), ToString::to_string);
            let d = match known.iter().find(|k| k.eq_ignore_ascii_case(&e.key)) {
                Some(k) => self
                    .diag(
                        &rules::UNKNOWN_KEY,
                        e.key_span(),
                        format!("{at}: key `{}` is read as `{k}` only because agentcli's JSON decoder ignores case", e.key),
                    )
                    .label(format!("spelt differently from `{k}`"))
                    .note("Go's decoder matches keys case-insensitively; other readers of tools.json (and toolc's other checks) do not")
                    .help(format!("write it `{k}`"))
                    .fix(rename_key(self.file, e.key_span(), k)),
                None => self
                    .diag(&rules::UNKNOWN_KEY, e.key_span(), format!("{at}: unknown key `{}`", e.key))
                    .label("unknown key")
                    .note("agentcli ignores keys it does not know: whatever this sets has no effect")
                    .maybe_did_you_mean_or_help(did_you_mean(&e.key, known.iter().copied()).map(|h| {
                        // Renaming onto a key the entry already has would only move the problem.
                        if entries.iter().any(|x| x.key == h) {
                            Err(format!("`{h}` is set already: merge this into it, or remove this key"))
                        } else {
                            Ok(DidYouMean::new(h, rename_key(self.file, e.key_span(), h)))
                        }
                    })),
            };
            self.push(d);
        }
    }
}
