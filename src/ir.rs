//! The canonical IR: every tool of every format lowers into one [`Tool`], which the bundle
//! emitters and the provider-compatibility rules (the layer above) read. Each format lowers its own files (`formats/<format>/ir.rs`); lowering runs on files
//! that were already checked, never fails, and only leaves out what the file did not give (a
//! missing description is the empty string, which CMP rules report).

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};

use crate::source::{SourceFile, Span};
use crate::syntax::{NodeAt, Packed, TreeRef, canonical};
use crate::text::hex;

mod json;

pub(crate) use json::{Json, Member};

/// One tool, whatever format it came from. Field order is the output order.
#[derive(Debug, Clone, Serialize)]
pub struct Tool {
    /// The name the tool is called by (what providers see).
    pub name: String,
    /// A human title, when the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool's own version, when the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the tool does: models choose tools by it. Empty when the source has none.
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Schema,
    /// JSON Schema of the result, where the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Schema>,
    /// How the tool runs.
    pub run: Run,
    /// What the tool may touch.
    pub risk: Risk,
    /// When to use it and when not (tool.md `use_guidance`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guidance: Option<Guidance>,
    /// Tags, as written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Settings that change how it runs besides its command (cycod `timeout`,
    /// `working-directory`, `environment`; DojOps `permissions`), each as compact JSON
    /// (environment values only as a hash). Not in the bundles: `toolc.lock` and `toolc diff`
    /// compare them.
    #[serde(skip)]
    pub(crate) settings: Settings,
    /// Where the tool was defined.
    pub provenance: Provenance,
}

/// A tool's run settings by key (`timeout`, `steps/0/timeout`, `permissions`), in the order
/// they are read: each key is read once. A list, not a `BTreeMap`: most tools set one or two,
/// and a map's first node took half a kilobyte for a tool's one `timeoutSec` (a manifest of
/// small tools held more in them than its own size). Readers that need an order sort (the
/// lock's JSON does).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub(crate) struct Settings(Vec<(String, String)>);

impl Settings {
    /// No settings.
    pub(crate) fn new() -> Settings {
        Settings::default()
    }

    /// Add `key`, read for the first time, with its `value`.
    pub(crate) fn insert(&mut self, key: String, value: String) {
        // Room for one at first: a first push makes room for four, 192 bytes for a tool's
        // one timeout. More grow by doubling as usual.
        if self.0.capacity() == 0 {
            self.0.reserve_exact(1);
        }
        self.0.push((key, value));
    }

    /// Each key and its value.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// Whether there is none.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value of `key`.
    #[cfg(test)]
    pub(crate) fn get(&self, key: &str) -> Option<&String> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// A JSON Schema, held as its compact JSON text and read back into a [`Value`] where it is
/// looked into, one tool at a time. A build holds every tool at once, and a schema's tree of
/// maps took eight times the bytes of its text: 2.5 KB for a small tool's four keys.
#[derive(Clone, PartialEq, Eq)]
pub struct Schema(Box<str>);

impl Schema {
    /// The schema that takes nothing ([`empty_object_schema`]), without building its value:
    /// every agentcli tool without a `schema` is given it.
    pub(crate) fn empty_object() -> Schema {
        Schema(EMPTY_OBJECT.into())
    }

    /// The schema `packed` is, written as canonical text straight from the packed tree: a
    /// JSON value between them took eleven times the text, and the tree unpacked five.
    pub(crate) fn of_packed(packed: &Packed) -> Schema {
        let node = NodeAt::from(packed);
        let mut text = Vec::new();
        canonical::write_at(node, &mut text);
        // Canonical JSON is UTF-8.
        Schema(String::from_utf8(text).unwrap_or_default().into_boxed_str())
    }

    /// True when it is [`Schema::empty_object`]'s, which every agentcli tool without a
    /// `schema` is given.
    pub(crate) fn is_empty_object(&self) -> bool {
        &*self.0 == EMPTY_OBJECT
    }

    /// The schema of a tree a lowered tool points into; `null` while the load still holds it:
    /// a held tree is lowered right after its load, for the custom rules, whose view makes
    /// its JSON only when a rule reads it (`custom::subject::of_tool` reads the tree).
    pub(crate) fn of_tree(tree: TreeRef<'_>) -> Schema {
        match tree {
            TreeRef::Packed(packed) => Schema::of_packed(packed),
            TreeRef::Held(_) => Schema("null".into()),
        }
    }

    /// Its compact JSON: canonical (keys sorted, as `serde_json`'s maps keep them), so two
    /// schemas are equal exactly when their texts are.
    pub(crate) fn text(&self) -> &str {
        &self.0
    }

    /// The schema as a lean tree borrowing from its text: what provider rules and bundle
    /// writers walk.
    pub(crate) fn tree(&self) -> Json<'_> {
        Json::parse(&self.0)
    }

    /// The schema as a JSON value.
    pub fn value(&self) -> Value {
        // The text was written from a value, so it reads back; as deep as any tree the
        // parsers build (200 levels), beyond serde_json's own limit of 128.
        let mut reader = serde_json::Deserializer::from_str(&self.0);
        reader.disable_recursion_limit();
        serde::Deserialize::deserialize(&mut reader).unwrap_or(Value::Null)
    }

    /// The root's `type`, when it is a string.
    pub fn root_type(&self) -> Option<String> {
        self.tree().get("type")?.as_str().map(str::to_string)
    }
}

impl From<&Json<'_>> for Schema {
    /// `tree` is canonical when its objects were made by [`Json::object`] or read from a
    /// schema's text.
    fn from(tree: &Json<'_>) -> Schema {
        Schema(tree.to_string().into_boxed_str())
    }
}

impl From<Value> for Schema {
    fn from(value: Value) -> Schema {
        Schema(value.to_string().into_boxed_str())
    }
}

impl Serialize for Schema {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Every agentcli tool without a `schema` has the empty one: its value is read once,
        // not once a tool (a tenth of a diff's briefs of millions of such tools).
        static EMPTY: std::sync::LazyLock<Value> = std::sync::LazyLock::new(empty_object_schema);
        match &*self.0 {
            EMPTY_OBJECT => EMPTY.serialize(serializer),
            _ => self.tree().serialize(serializer),
        }
    }
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How a tool runs. Secret values are never copied (transport credentials keep only their
/// scheme).
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Run {
    /// A program and its arguments (agentcli `command`, cycod `run`).
    Argv {
        /// The argument vector.
        argv: Vec<String>,
    },
    /// A script run by a shell (cycod `bash`, `pwsh`, `script` + `shell`, …).
    Script {
        /// The script text (with `{PARAM}` templates as written).
        script: String,
        /// The shell (`bash`, `cmd`, `pwsh`, `python`, `default` or a template).
        shell: String,
    },
    /// Several steps in order (cycod `steps`).
    Steps {
        /// The steps.
        steps: Vec<Run>,
    },
    /// A call over a transport (tool.md `transport`, without credentials).
    Transport {
        /// The transport, as written, minus secret material.
        transport: Value,
    },
    /// An LLM generates files (DojOps tools and skills).
    Generate {
        /// The files written.
        files: Vec<String>,
        /// The verification command, when there is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        verification: Option<String>,
    },
    /// Another tool, called by name (cycod `tool:`, with `mcp:` when it is an MCP server's).
    Tool {
        /// The tool's name.
        tool: String,
        /// The MCP server that has the tool, when it is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        mcp: Option<String>,
        /// The arguments, as written (with `{PARAM}` templates).
        #[serde(skip_serializing_if = "Option::is_none")]
        arguments: Option<Value>,
    },
    /// Computed in-process by the runtime (tool.md `function` without transport).
    InProcess,
    /// Routed to a human (tool.md `human` without transport).
    Human,
}

/// What a tool may touch.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Reads only.
    Read,
    /// Writes files or external state.
    Write,
    /// Runs programs.
    Run,
}

/// The risk model: access plus the hints MCP annotations carry.
#[derive(Debug, Clone, Serialize, PartialEq, Hash)]
pub struct Risk {
    /// Read, write or run.
    pub access: Access,
    /// The tool.md `type` (retrieval, action, function, human), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// DojOps `risk.level` (LOW, MEDIUM, HIGH), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The tool does not change its environment.
    pub read_only: bool,
    /// The tool may destroy or overwrite data.
    pub destructive: bool,
    /// Calling it twice with the same arguments does no more than once.
    pub idempotent: bool,
    /// The tool talks to the world outside the runtime (network, external services).
    pub open_world: bool,
}

impl Risk {
    /// A tool that runs any program, with nothing said of what it touches: MCP's own cautious
    /// defaults for its hints.
    pub(crate) fn runs_anything() -> Risk {
        Risk {
            access: Access::Run,
            kind: None,
            level: None,
            read_only: false,
            destructive: true,
            idempotent: false,
            open_world: true,
        }
    }
}

/// tool.md `use_guidance`.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Hash)]
pub struct Guidance {
    /// `use_when`.
    pub use_when: Vec<String>,
    /// `avoid_when`.
    pub avoid_when: Vec<String>,
    /// `side_effects`, one entry per effect (the spec's list, or a single string).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_effects: Vec<String>,
}

/// Where a tool comes from.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Provenance {
    /// The source format id (`dojops-tool`, `tool-md`, …).
    pub format: &'static str,
    /// The file, relative to the working directory, with `/`.
    pub path: String,
    /// For `tools.json`: the entry's index in `tools`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// SHA-256 (hex) of the file's bytes.
    pub sha256: String,
    /// DojOps `toolHash`: SHA-256 of the `tool.yaml` bytes (schema files do not count).
    #[serde(rename = "toolHash", skip_serializing_if = "Option::is_none")]
    pub tool_hash: Option<String>,
    /// DojOps `systemPromptHash`: SHA-256 of `generator.systemPrompt`.
    #[serde(rename = "systemPromptHash", skip_serializing_if = "Option::is_none")]
    pub system_prompt_hash: Option<String>,
}

/// A lowered tool with the places diagnostics about it point at.
#[derive(Debug, Clone)]
pub(crate) struct Lowered<'a> {
    /// The tool.
    pub tool: Tool,
    /// The file that defines it.
    pub file: &'a Arc<SourceFile>,
    /// The span of its name (or of the file start when the name comes from the file name).
    pub name_span: Span,
    /// The file and tree of its input schema, when it is written in a file (not synthesized).
    pub schema: Option<(&'a Arc<SourceFile>, TreeRef<'a>)>,
    /// The span of its description value, else of the name.
    pub description_span: Span,
    /// The file and tree of its output schema, when it has one.
    pub output: Option<(&'a Arc<SourceFile>, TreeRef<'a>)>,
    /// cycod `parameters`, from which its input schema is derived: findings about property
    /// `X` of that schema belong on parameter `X`.
    pub parameters: Option<&'a Packed>,
    /// Where its other parts are written, in `file`.
    pub sites: Sites,
}

/// Where the parts of a tool beyond its name, description and schemas are written (spans in
/// the tool's own file), for findings about a change to them (`toolc diff`, `toolc check
/// --locked`); `None` when the part is not written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Sites {
    /// Its version.
    pub version: Option<Span>,
    /// Its human title.
    pub title: Option<Span>,
    /// How it runs: the command, script, transport or generated files.
    pub run: Option<Span>,
    /// What declares its risk: type, permissions, risk level, security tags.
    pub risk: Option<Span>,
    /// Its use guidance.
    pub guidance: Option<Span>,
    /// Its tags.
    pub tags: Option<Span>,
    /// Its run settings (the first written: timeout, permissions, …).
    #[serde(default)]
    pub settings: Option<Span>,
}

/// A place in a file: what left a tool out, say.
#[derive(Debug, Clone)]
pub struct Site {
    /// The file.
    pub file: Arc<SourceFile>,
    /// The bytes.
    pub span: Span,
}

impl PartialEq for Site {
    fn eq(&self, other: &Site) -> bool {
        self.file.path == other.file.path && self.span == other.span
    }
}

/// A tool left out of the bundles, and why (reported by `build`, not an error).
#[derive(Debug, Clone, PartialEq)]
pub struct LeftOut {
    /// The tool's name.
    pub name: String,
    /// The file that defines it.
    pub path: String,
    /// Why it is not bundled.
    pub reason: String,
    /// What leaves it out (`status: disabled`, the policy's list), when known.
    pub site: Option<Site>,
}

/// What lowering a set of files gives: the tools to bundle, the ones left out, and the
/// skills an agent can load beside them.
#[derive(Debug, Default)]
pub(crate) struct Lowering<'a> {
    /// Tools to bundle.
    pub tools: Vec<Lowered<'a>>,
    /// Tools the runtime would not load, and why.
    pub left_out: Vec<LeftOut>,
    /// Agent Skills: not tools, but listed in toolc's own bundle.
    pub skills: Vec<SkillEntry>,
}

/// Where lowering puts what it makes: a [`Lowering`] keeps all of it; `toolc lock` turns
/// each tool into its lock entry as it comes, so no list of every lowered tool is held.
pub(crate) trait Sink<'a> {
    /// A tool to bundle.
    fn tool(&mut self, tool: Lowered<'a>);
    /// A tool the runtime would not load.
    fn left_out(&mut self, _left_out: LeftOut) {}
    /// An Agent Skill.
    fn skill(&mut self, _skill: SkillEntry) {}
    /// Room for `additional` more tools.
    fn reserve(&mut self, _additional: usize) {}
    /// Whether to lower the tool of entry `index` of `file`'s list (formats that define many
    /// tools in one file ask, so that a diff can lower a few of them again cheaply).
    fn wants(&mut self, _file: &Arc<SourceFile>, _index: usize) -> bool {
        true
    }
    /// The entries of `file`'s list that [`Sink::wants`] may want: a format asks about
    /// those only (a diff's round wants a few thousand of a list of millions).
    fn entries(&mut self, _file: &Arc<SourceFile>) -> std::ops::Range<usize> {
        0..usize::MAX
    }
}

/// The part of a list of entries (in order of `index`) that `out` may want of `file`'s.
pub(crate) fn asked<'t, T>(
    out: &mut dyn Sink<'_>,
    file: &Arc<SourceFile>,
    entries: &'t [T],
    index: impl Fn(&T) -> usize,
) -> &'t [T] {
    let range = out.entries(file);
    let from = first_from(entries, &index, range.start);
    let to = first_from(entries, &index, range.end).max(from);
    &entries[from..to]
}

/// The place of the first of `entries` (in order of `index`) whose index is `at` or more.
/// Indices rise by one an entry but where an entry was not listed: the place is then at most
/// those gaps before `at`, and a search of them alone does not walk the whole list (a build
/// asked for each of 900,000 tools in turn, each search a score of cache misses: a tenth of
/// its writing).
fn first_from<T>(entries: &[T], index: &impl Fn(&T) -> usize, at: usize) -> usize {
    let before = |i: usize| entries.get(i).is_some_and(|e| index(e) < at);
    let gaps = entries
        .last()
        .map_or(0, |e| index(e).saturating_sub(entries.len() - 1));
    let hi = at.min(entries.len());
    let lo = at.saturating_sub(gaps).min(hi);
    let guess = lo + entries[lo..hi].partition_point(|e| index(e) < at);
    // Entries out of order, or two with one index, break the bound: searched whole then.
    let found = (guess == 0 || before(guess - 1)) && !before(guess);
    match found {
        true => guess,
        false => entries.partition_point(|e| index(e) < at),
    }
}

impl<'a> Sink<'a> for Lowering<'a> {
    fn tool(&mut self, tool: Lowered<'a>) {
        self.tools.push(tool);
    }

    fn left_out(&mut self, left_out: LeftOut) {
        self.left_out.push(left_out);
    }

    fn skill(&mut self, skill: SkillEntry) {
        self.skills.push(skill);
    }

    fn reserve(&mut self, additional: usize) {
        self.tools.reserve(additional);
    }
}

/// An Agent Skill as `toolc.bundle.json` lists it: enough for a runtime to offer it (name,
/// description) and load it (path), and to notice a change (sha256).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SkillEntry {
    /// `name`.
    pub name: String,
    /// `description`, trimmed.
    pub description: String,
    /// The `SKILL.md`, relative to the working directory, with `/`.
    pub path: String,
    /// SHA-256 (hex) of the `SKILL.md` bytes.
    pub sha256: String,
}

/// The provenance of a tool defined in `file` (no entry index, no DojOps hashes).
pub(crate) fn provenance(file: &SourceFile) -> Provenance {
    Provenance {
        format: file.format.as_str(),
        path: file.display().to_string(),
        index: None,
        // The digest of the bytes read, so a file from the cache is not read for it.
        sha256: hex(&file.digest()),
        tool_hash: None,
        system_prompt_hash: None,
    }
}

/// The text of [`empty_object_schema`].
const EMPTY_OBJECT: &str = r#"{"additionalProperties":false,"properties":{},"type":"object"}"#;

/// A schema that takes nothing: what a tool without inputs is given, so every target gets an
/// object.
pub(crate) fn empty_object_schema() -> Value {
    json!({"type": "object", "properties": {}, "additionalProperties": false})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The empty schema's text is the one its value is written as.
    #[test]
    fn the_empty_object_schema_is_its_value() {
        assert_eq!(Schema::empty_object(), Schema::from(empty_object_schema()));
        assert_eq!(Schema::empty_object().value(), empty_object_schema());
        // Written from the value read once, as any other schema is written.
        let written = serde_json::to_string(&Schema::empty_object()).expect("written");
        assert_eq!(written, EMPTY_OBJECT);
        let stored = postcard::to_stdvec(&Schema::empty_object()).expect("stored");
        assert_eq!(
            stored,
            postcard::to_stdvec(&empty_object_schema()).expect("stored")
        );
    }

    /// A schema reads back as the value it was made from, written as that value is, however
    /// deep the parsers let it be (past serde_json's own limit of 128 levels).
    #[test]
    fn a_schema_reads_back_as_its_value() {
        let mut deep = json!({"type": "string"});
        for _ in 0..95 {
            deep = json!({"type": "object", "properties": {"a": deep}});
        }
        for value in [
            empty_object_schema(),
            json!({"enum": [1.5, -2, null]}),
            deep,
        ] {
            let schema = Schema::from(value.clone());
            assert_eq!(schema.value(), value);
            assert_eq!(
                serde_json::to_string_pretty(&schema).ok(),
                serde_json::to_string_pretty(&value).ok()
            );
        }
        let root = Schema::from(empty_object_schema()).root_type();
        assert_eq!(root.as_deref(), Some("object"));
    }

    /// The entries asked for are found by index whatever gaps the list has, and in a list
    /// that gives one index twice as a whole search of it finds them.
    #[test]
    fn the_entries_from_an_index_are_found_across_gaps() {
        let lists: [Vec<usize>; 5] = [
            vec![],
            (0..50).collect(),
            (0..50).filter(|i| i % 7 != 3).collect(),
            vec![5, 6, 40, 41, 90],
            vec![0, 1, 1, 2, 2, 2, 7],
        ];
        for list in &lists {
            for at in (0..100).chain([usize::MAX]) {
                let whole = list.partition_point(|&i| i < at);
                assert_eq!(
                    first_from(list, &|&i: &usize| i, at),
                    whole,
                    "{list:?} at {at}"
                );
            }
        }
    }
}
