//! The model-visible texts of a definition and what it runs, in one shape for every format:
//! what the security pass reads. A tool's name, description, schema
//! strings, prompts and guidance are all read by the model as instructions, so they are
//! checked together, each with the exact bytes it is written on.
//!
//! A format builds its [`ToolTexts`] in `load`, while its syntax tree is in hand, with a
//! [`Collector`] (the texts borrow from the tree), and hands them to [`FileTexts::check`]:
//! the per-file checks run there and then, and only what the cross-file checks need is
//! kept (names, and the few sentences that name a call). The format keeps the
//! [`FileTexts`] in its item and returns them from its `Format::texts`.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Node, NodeKind};

mod found;
mod owned;
mod placed;
mod values;
pub(crate) use found::{Covered, CoveredFiles, Found, Handoff};
use values::LONG_MAP;
pub(crate) use values::{Source, Values};

/// What a text is to the model: it decides how serious a finding in it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum TextKind {
    /// The name or id a tool (agent, skill, request) is known by.
    Name,
    /// A human title.
    Title,
    /// The tool's description.
    Description,
    /// A parameter's name (a property key of the input or output schema).
    ParamName,
    /// A schema's or a parameter's `description` or `title`.
    ParamDescription,
    /// An `enum` or `const` value.
    EnumValue,
    /// A `default` (strings anywhere inside it).
    Default,
    /// An `example` or `examples` entry.
    Example,
    /// When to use the tool, its side effects, what to do on an error code.
    Guidance,
    /// A prompt the tool gives a model (DojOps `systemPrompt`, `.dops` prompt sections).
    Prompt,
    /// Other text the model reads: an agent's instructions, a tool's documentation sections,
    /// keywords and tags.
    Instructions,
    /// An endpoint the tool calls (a URL).
    Endpoint,
    /// Something that runs: a command line, a script, an argument vector element.
    Command(Shell),
}

impl TextKind {
    /// Names, ids and values the model sends back: a hidden character here changes what is
    /// called or passed, not only what is read.
    pub(crate) fn is_identifier(self) -> bool {
        matches!(
            self,
            TextKind::Name | TextKind::ParamName | TextKind::EnumValue | TextKind::Endpoint
        )
    }

    /// Whether the text runs.
    pub(crate) fn runs(self) -> bool {
        matches!(self, TextKind::Command(_))
    }

    /// Values of the input schema (enum values, defaults, examples): data, not prose.
    pub(crate) fn is_schema_value(self) -> bool {
        matches!(
            self,
            TextKind::EnumValue | TextKind::Default | TextKind::Example
        )
    }

    /// What the text is, for a message (`a parameter name`).
    pub(crate) fn what(self) -> &'static str {
        match self {
            TextKind::Name => "the name",
            TextKind::Title => "the title",
            TextKind::Description => "the description",
            TextKind::ParamName => "a parameter name",
            TextKind::ParamDescription => "a schema description",
            TextKind::EnumValue => "an enum value",
            TextKind::Default => "a default value",
            TextKind::Example => "an example value",
            TextKind::Guidance => "the usage guidance",
            TextKind::Prompt => "a prompt",
            TextKind::Instructions => "text the model reads",
            TextKind::Endpoint => "an endpoint",
            TextKind::Command(_) => "a command",
        }
    }
}

/// The language a command is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Shell {
    /// A POSIX shell script or command line (`sh -c`, `bash`).
    Posix,
    /// Windows `cmd`.
    Cmd,
    /// PowerShell.
    Pwsh,
    /// Python source.
    Python,
    /// JavaScript or TypeScript source.
    Node,
    /// Source in another language that is not a shell (JavaScript, Ruby, Perl…): only the
    /// shell commands it writes as text are read.
    Source,
    /// A command line (or one element of an argument vector) run as one process, without
    /// a shell: operators and globs are literal arguments.
    Process,
    /// A Makefile: its recipes run in a POSIX shell.
    Make,
}

/// One string the model reads (or a command that runs), and where it is written.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Text<'a> {
    /// What it is.
    pub kind: TextKind,
    /// The string as the runtime reads it (escapes decoded, block scalars unfolded),
    /// borrowed from the syntax tree while the file is loaded.
    pub value: Cow<'a, str>,
    /// The file it is written in (a DojOps schema file is a companion of its manifest).
    #[serde(with = "crate::source::file_ref")]
    pub file: Arc<SourceFile>,
    /// The bytes it is written on: the scalar with its quotes or block header, or a Markdown
    /// region.
    pub span: Span,
}

impl Text<'_> {
    /// Where bytes `range` of [`Text::value`] are written: exact inside quoted, escaped and
    /// block scalars.
    pub(crate) fn span_of(&self, range: Range<usize>) -> Span {
        let raw = self.file.slice(self.span);
        // The file's own bytes (a Markdown body): comparing the two per finding was quadratic.
        if std::ptr::eq(raw, &*self.value) && range.start <= range.end && range.end <= raw.len() {
            return Span::new(self.span.start + range.start, self.span.start + range.end);
        }
        let r = placed::source_range(self, raw, range);
        Span::new(self.span.start + r.start, self.span.start + r.end)
    }
}

/// Extensions of the scripts a definition ships, read as programs wherever they are.
const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "ksh", "py", "js", "mjs", "cjs", "ts", "mts", "cts", "ps1", "psm1", "rb",
    "pl",
];

/// Whether `file` is a script by its name, its extension or its `#!` line.
pub(crate) fn is_script(file: &SourceFile) -> bool {
    is_makefile(file)
        || file.body().starts_with("#!")
        || file
            .path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SCRIPT_EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Whether `file` is a Makefile, by its name.
fn is_makefile(file: &SourceFile) -> bool {
    let name = file.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    matches!(name, "Makefile" | "makefile" | "GNUmakefile") || name.ends_with(".mk")
}

/// The language a script is written in: a Makefile by its name, else its `#!` line, else
/// its extension.
pub(crate) fn language(file: &SourceFile) -> Shell {
    if is_makefile(file) {
        return Shell::Make;
    }
    let body = file.body();
    let shebang = body
        .strip_prefix("#!")
        .map(|l| l.lines().next().unwrap_or(""));
    let interpreter = shebang.map(|l| {
        let mut words = l.split_whitespace();
        let first = words.next().unwrap_or("");
        let program = first.rsplit('/').next().unwrap_or(first);
        // `#!/usr/bin/env -S python3 -u` names the program after `env` and its flags.
        if program == "env" {
            words.find(|w| !w.starts_with('-')).unwrap_or("")
        } else {
            program
        }
    });
    let ext = file
        .path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match (interpreter, ext.as_deref()) {
        (Some(p), _) if p.starts_with("python") => Shell::Python,
        (Some("node" | "deno" | "bun" | "tsx" | "ts-node"), _) => Shell::Node,
        (Some("pwsh" | "powershell"), _) => Shell::Pwsh,
        (Some("sh" | "bash" | "zsh" | "ksh" | "dash" | "ash"), _) => Shell::Posix,
        (Some(_), _) => Shell::Source,
        (None, Some("sh" | "bash" | "zsh" | "ksh")) => Shell::Posix,
        (None, Some("py")) => Shell::Python,
        (None, Some("js" | "mjs" | "cjs" | "ts" | "mts" | "cts")) => Shell::Node,
        (None, Some("ps1" | "psm1")) => Shell::Pwsh,
        (None, Some("cmd" | "bat")) => Shell::Cmd,
        (None, _) => Shell::Source,
    }
}

/// Everything of one tool (or agent, skill, request) that the model reads or that runs.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct ToolTexts<'a> {
    /// Its name, when it has one.
    pub name: Option<Text<'a>>,
    /// True for a tool a model calls by its name (not an agent or a request): only those
    /// can impersonate or shadow one another.
    pub callable: bool,
    /// Its other texts, in source order.
    pub texts: Vec<Text<'a>>,
    /// Where its endpoints' credentials are declared, when it sends any (a transport's
    /// `credentials` block): an [`TextKind::Endpoint`] in plain `http://` then leaks them.
    pub credentials: Option<Span>,
    /// Where a secret is handed to what runs (an MCP server's `env` entry named like one):
    /// a plain `http://` address at a bare public IP it is pointed to may then receive it.
    #[serde(default)]
    pub handed: Option<Span>,
    /// Its long lists of schema values and tags, read a batch at a time rather than held as
    /// a text each (an `enum` of millions of `"a"`s took fourteen times its size in texts).
    #[serde(skip)]
    pub values: Vec<Values<'a>>,
    /// The fenced blocks of one of its instructions texts, when the format's own reading of
    /// that Markdown found them: the security pass does not parse it again for them.
    #[serde(skip)]
    pub fences: Option<KnownFences>,
}

/// The fenced blocks of the text written at `span` of `file`, all of them, with offsets into
/// the text.
#[derive(Debug, Clone)]
pub(crate) struct KnownFences {
    /// The file of the text.
    pub file: Arc<SourceFile>,
    /// Where the text is written.
    pub span: Span,
    /// Its fenced blocks, in order.
    pub fences: Vec<crate::syntax::markdown::Fence>,
}

impl<'a> ToolTexts<'a> {
    /// The fenced blocks of `text`, with offsets into its value, when they are known.
    pub(crate) fn fences_of(&self, text: &Text<'_>) -> Option<&[crate::syntax::markdown::Fence]> {
        self.fences
            .as_ref()
            .filter(|k| k.span == text.span && Arc::ptr_eq(&k.file, &text.file))
            .map(|k| k.fences.as_slice())
    }

    /// The name (when there is one) and every other text.
    pub(crate) fn all(&self) -> impl Iterator<Item = &Text<'a>> {
        self.name.iter().chain(&self.texts)
    }

    /// What the tool says of itself: its name, title and description.
    pub(crate) fn own_words(&self) -> impl Iterator<Item = &Text<'a>> {
        self.all().filter(|t| {
            matches!(
                t.kind,
                TextKind::Name | TextKind::Description | TextKind::Title
            )
        })
    }

    /// True when its own words ([`Self::own_words`]) hold one of `words`.
    pub(crate) fn says_one_of(&self, words: &crate::text::AnyOf) -> bool {
        self.own_words().any(|t| words.in_text(&t.value))
    }
}

/// What the cross-file checks (look-alike names, shadowing) read of one tool a model calls
/// by its name: held for every such tool of the run, so half the room of a [`ToolTexts`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Kept {
    /// Its name, when it has one.
    pub name: Option<Text<'static>>,
    /// Those of its texts that could direct another tool's calls (usually none: a boxed
    /// slice, 8 bytes less than a list for each of a million tools).
    pub texts: Box<[Text<'static>]>,
}

/// A file's texts once the security pass has checked them: its findings, and what the
/// cross-file checks (look-alike names, shadowing) still need. The cache keeps only the
/// latter: by then the findings are the file's own.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct FileTexts {
    /// The findings on the texts, until the load hands them to the file's result.
    #[serde(skip)]
    pub found: Handoff,
    /// Each tool's name and the texts cross-file checks read.
    pub kept: Vec<Kept>,
    /// The POSIX shell scripts, for ShellCheck (run once for the whole repository).
    pub scripts: super::shellcheck::Scripts,
}

impl FileTexts {
    /// Check the texts of a file's tools now, and keep what cross-file checks need.
    pub(crate) fn check<'a>(
        passes: super::Passes,
        tools: impl IntoIterator<Item = ToolTexts<'a>>,
    ) -> FileTexts {
        super::check_texts(passes, tools)
    }
}

/// The texts of one entry of a JSON tool list (an agentcli manifest, an MCP tool list): its
/// `name` and `description` strings (read where a long list packed them), the strings of
/// `schema`, then what `more` collects.
pub(crate) fn listed<'a>(
    file: &'a Arc<SourceFile>,
    name: Option<(&'a str, Span)>,
    description: Option<(&'a str, Span)>,
    schema: Option<&'a Node>,
    more: impl FnOnce(&mut Collector<'a>),
) -> ToolTexts<'a> {
    let mut names = Collector::new(file);
    if let Some((s, span)) = name {
        names.text(TextKind::Name, s, span);
    }
    let mut c = Collector::new(file);
    if let Some((s, span)) = description {
        c.text(TextKind::Description, s, span);
    }
    if let Some(schema) = schema {
        c.schema(schema);
    }
    more(&mut c);
    let (texts, values) = c.finish_with_values();
    ToolTexts {
        name: names.finish().pop(),
        callable: true,
        texts,
        credentials: None,
        handed: None,
        values,
        fences: None,
    }
}

/// Builds the texts of one file from its syntax tree; they borrow from it.
pub(crate) struct Collector<'a> {
    file: &'a Arc<SourceFile>,
    texts: Vec<Text<'a>>,
    values: Vec<Values<'a>>,
}

impl<'a> Collector<'a> {
    /// A collector for texts written in `file`.
    pub(crate) fn new(file: &'a Arc<SourceFile>) -> Collector<'a> {
        Collector {
            file,
            texts: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Room for `more` texts (a list says how long it is).
    pub(crate) fn reserve(&mut self, more: usize) {
        self.texts.reserve_exact(more);
    }

    /// A text with its value and span, as given.
    pub(crate) fn text(&mut self, kind: TextKind, value: impl Into<Cow<'a, str>>, span: Span) {
        let value = value.into();
        if value.is_empty() {
            return;
        }
        self.texts.push(Text {
            kind,
            value,
            file: Arc::clone(self.file),
            span,
        });
    }

    /// The string `node` holds, if it is one.
    pub(crate) fn scalar(&mut self, kind: TextKind, node: Option<&'a Node>) {
        if let Some(node) = node
            && let NodeKind::String(s) = &node.kind
        {
            self.text(kind, &**s, node.span());
        }
    }

    /// A string, or each string of a sequence.
    pub(crate) fn strings(&mut self, kind: TextKind, node: Option<&'a Node>) {
        match node.map(|n| &n.kind) {
            // A long list of values, tags or guidance is kept as the list, to be read in
            // batches (a `use_when` list of a million items held a text for each).
            Some(NodeKind::Seq(list))
                if list.flat()
                    && (kind.is_schema_value()
                        || matches!(kind, TextKind::Instructions | TextKind::Guidance)) =>
            {
                self.values.push(Values {
                    kind,
                    source: Source::Strings(list),
                    file: self.file,
                });
            }
            // Read without building a packed list's nodes.
            Some(NodeKind::Seq(items)) => {
                for (s, span) in items.strings() {
                    self.text(kind, s, span);
                }
            }
            _ => self.scalar(kind, node),
        }
    }

    /// Every string anywhere inside `node` (a default, an example, a nested value).
    pub(crate) fn nested(&mut self, kind: TextKind, node: &'a Node) {
        match &node.kind {
            NodeKind::String(_) => self.scalar(kind, Some(node)),
            NodeKind::Seq(items) if items.flat() => self.strings(kind, Some(node)),
            // A long list of values (`examples` of mappings) is read a batch at a time.
            NodeKind::Seq(items) if items.len() > LONG_MAP && kind.is_schema_value() => {
                self.values.push(Values {
                    kind,
                    source: Source::Nested(items),
                    file: self.file,
                });
            }
            NodeKind::Seq(items) => items.iter().for_each(|n| self.nested(kind, n)),
            NodeKind::Map(entries) => {
                for e in entries {
                    self.key(kind, e);
                    self.nested(kind, &e.value);
                }
            }
            _ => {}
        }
    }

    /// A mapping key (a parameter name).
    pub(crate) fn key(&mut self, kind: TextKind, entry: &'a Entry) {
        self.text(kind, entry.key.as_str(), entry.key_span());
    }

    /// True when `entries` is a long mapping (of parameters) whose keys are kept to be read
    /// in batches, as texts of `kind`: thousands of names are not held as a text each. When
    /// false, the caller adds each key in its place ([`Self::key`]).
    pub(crate) fn long_keys(&mut self, kind: TextKind, entries: &'a [Entry]) -> bool {
        let long = entries.len() > LONG_MAP;
        if long {
            self.values.push(Values {
                kind,
                source: Source::Keys(entries),
                file: self.file,
            });
        }
        long
    }

    /// A region of the file read as is (Markdown).
    pub(crate) fn verbatim(&mut self, kind: TextKind, span: Span) {
        let file: &'a SourceFile = self.file;
        self.text(kind, file.slice(span), span);
    }

    /// The strings of a JSON Schema the model reads: property names, descriptions and
    /// titles, enum and const values, defaults and examples, in every subschema.
    pub(crate) fn schema(&mut self, node: &'a Node) {
        let Some(entries) = node.as_map() else {
            return;
        };
        for e in entries {
            let v = &e.value;
            match e.key.as_str() {
                "description" | "title" => self.scalar(TextKind::ParamDescription, Some(v)),
                "enum" => self.strings(TextKind::EnumValue, Some(v)),
                "const" => self.nested(TextKind::EnumValue, v),
                "default" => self.nested(TextKind::Default, v),
                "examples" | "example" => self.nested(TextKind::Example, v),
                "properties" => {
                    let properties = v.as_map().unwrap_or_default();
                    let long = self.long_keys(TextKind::ParamName, properties);
                    for p in properties {
                        if !long {
                            self.key(TextKind::ParamName, p);
                        }
                        self.schema(&p.value);
                    }
                }
                "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                    for p in v.as_map().unwrap_or_default() {
                        self.schema(&p.value);
                    }
                }
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => self.schemas(v),
                "items" | "additionalItems" if v.as_list().is_some() => self.schemas(v),
                "items"
                | "additionalItems"
                | "additionalProperties"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "contains"
                | "propertyNames"
                | "not"
                | "if"
                | "then"
                | "else" => {
                    self.schema(v);
                }
                _ => {}
            }
        }
    }

    /// The texts collected, a long list's values among them.
    pub(crate) fn finish(self) -> Vec<Text<'a>> {
        let mut texts = self.texts;
        texts.extend(self.values.into_iter().flat_map(Values::texts));
        texts
    }

    /// The texts collected, and the long lists of values apart ([`ToolTexts::values`]).
    pub(crate) fn finish_with_values(self) -> (Vec<Text<'a>>, Vec<Values<'a>>) {
        (self.texts, self.values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;
    use crate::syntax::json;

    #[test]
    fn schema_strings_with_their_spans() {
        let text = r#"{"type": "object", "description": "Top \u200b", "properties": {"path": {"type": "string", "description": "Where", "enum": ["a", "b"], "default": "a"}, "opts": {"type": "object", "properties": {"deep": {"examples": [{"k": "v"}]}}}}}"#;
        let file = SourceFile::new(
            "t.json".into(),
            "t.json".into(),
            FormatId::AgentcliManifest,
            text.into(),
        );
        let root = json::parse(text, 0).root.expect("json");
        let mut c = Collector::new(&file);
        c.schema(&root);
        let texts = c.finish();
        let got: Vec<(TextKind, &str)> = texts.iter().map(|t| (t.kind, t.value.as_ref())).collect();
        assert_eq!(
            got,
            [
                (TextKind::ParamDescription, "Top \u{200b}"),
                (TextKind::ParamName, "path"),
                (TextKind::ParamDescription, "Where"),
                (TextKind::EnumValue, "a"),
                (TextKind::EnumValue, "b"),
                (TextKind::Default, "a"),
                (TextKind::ParamName, "opts"),
                (TextKind::ParamName, "deep"),
                (TextKind::Example, "k"),
                (TextKind::Example, "v"),
            ]
        );
        let top = &texts[0];
        assert_eq!(file.slice(top.span_of(4..7)), "\\u200b");
        assert_eq!(file.slice(texts[1].span), "\"path\"");
        assert_eq!(file.slice(texts[1].span_of(0..4)), "path");
    }
}
