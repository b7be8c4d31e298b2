//! `.dops` v2 skills (DojOps, https://github.com/dojops/dojops; docs/formats/dojops-dops.md):
//! the front matter lowered field by field against the runtime's schema, the required body
//! sections, and the dependencies between the skills of one project.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Item, Name, NameKind, SHAPE, check_name};
use crate::analysis::graph::{self, Cycle, Step};
use crate::analysis::names::{Suggester, did_you_mean};
use crate::diagnostics::{Applicability, Diagnostic};
use crate::formats::fields::{Lowerer, MapRef, join_path, replace_exact};
use crate::formats::{FileResult, Item as FileItem, syntax_diagnostics};
use crate::rules::{dojops as doj, references as refs, security as sec};
use crate::source::{SourceFile, Span};
use crate::syntax::front_matter::{
    FrontMatter, FrontMatterWording, front_matter_error, split_front_matter,
};
use crate::syntax::markdown::{Section, h2_sections, near_heading};
use crate::syntax::{Node, NodeKind, Number, yaml};

/// DojOps refuses to read a `.dops` file larger than this.
const MAX_FILE_BYTES: usize = 1024 * 1024;

/// Parsers `verification.binary.parser` may name.
const KNOWN_PARSERS: &[&str] = &[
    "terraform-json",
    "hadolint-json",
    "kubectl-stderr",
    "helm-lint",
    "nginx-stderr",
    "promtool",
    "systemd-analyze",
    "make-dryrun",
    "ansible-syntax",
    "docker-compose-config",
    "actionlint",
    "github-actions",
    "gitlab-ci",
    "generic-stderr",
    "generic-json",
    "packer-validate",
    "shellcheck-json",
];

const ROOT_KEYS: &[&str] = &[
    "dops",
    "kind",
    "meta",
    "context",
    "files",
    "detection",
    "verification",
    "permissions",
    "scope",
    "risk",
    "execution",
    "update",
    "capabilities",
    "dependencies",
];
const META_KEYS: &[&str] = &[
    "name",
    "version",
    "description",
    "author",
    "license",
    "tags",
    "repository",
    "icon",
];
const CONTEXT_KEYS: &[&str] = &[
    "technology",
    "fileFormat",
    "outputGuidance",
    "bestPractices",
    "context7Libraries",
];
const LIBRARY_KEYS: &[&str] = &["name", "query"];
const FILE_KEYS: &[&str] = &["path", "format", "conditional"];
const DETECTION_KEYS: &[&str] = &["paths", "updateMode"];
const VERIFICATION_KEYS: &[&str] = &["structural", "binary", "severity"];
const STRUCTURAL_KEYS: &[&str] = &[
    "path",
    "required",
    "type",
    "minItems",
    "message",
    "requiredUnless",
];
const BINARY_KEYS: &[&str] = &["command", "parser", "timeout", "cwd"];
const SEVERITY_KEYS: &[&str] = &["error", "warning", "info"];
const PERMISSION_KEYS: &[&str] = &["filesystem", "child_process", "network"];
const SCOPE_KEYS: &[&str] = &["write"];
const RISK_KEYS: &[&str] = &["level", "rationale"];
const EXECUTION_KEYS: &[&str] = &["mode", "deterministic", "idempotent"];
const UPDATE_KEYS: &[&str] = &["strategy", "inputSource", "injectAs"];
const CAPABILITY_KEYS: &[&str] = &["sideEffects", "runtime"];
const DEPENDENCY_KEYS: &[&str] = &["skill", "optional"];

const FILE_FORMATS: &[&str] = &["yaml", "hcl", "json", "raw", "ini", "toml"];

/// Keys that only `.dops` v1 had, and what v2 does instead: worth saying when one of them
/// turns up as an unknown key in a v2 file.
const V1_KEYS: &[(&str, &str)] = &[
    (
        "input",
        "`input` is a `.dops` v1 key; v2 has no typed inputs: describe what the skill needs in `## Prompt`",
    ),
    (
        "output",
        "`output` is a `.dops` v1 key; v2 describes the output in `context.outputGuidance`",
    ),
    (
        "source",
        "`source` is a `.dops` v1 key; v2 always writes what the model generates",
    ),
    (
        "content",
        "`content` is a `.dops` v1 key for template files; v2 has no templates",
    ),
    (
        "options",
        "`options` is a `.dops` v1 serializer setting; v2 writes files as they are generated",
    ),
    (
        "multiDocument",
        "`multiDocument` is a `.dops` v1 serializer setting; v2 writes files as they are generated",
    ),
    (
        "dataPath",
        "`dataPath` is a `.dops` v1 serializer setting; v2 writes files as they are generated",
    ),
];

const REJECTED: &str = "DojOps refuses to load a skill whose front matter breaks its schema";
const IGNORED_KEY: &str = "DojOps drops keys it does not know, so this one has no effect";

/// A skill dependency (`dependencies[]`).
#[derive(Debug, Clone)]
pub struct Dependency {
    /// The skill depended on.
    pub skill: String,
    /// Span of the skill name.
    pub span: Span,
    /// `optional: true`.
    pub optional: bool,
}

/// A lowered `.dops` file.
#[derive(Debug, Default)]
pub struct Skill {
    /// `meta.name`, when present and a valid skill name.
    pub name: Option<Name>,
    /// `dependencies` whose `skill` is a valid skill name.
    pub dependencies: Vec<Dependency>,
    /// What the bundle lowering needs of the front matter (`ir.rs`).
    pub doc: Option<super::doc::SkillDoc>,
    /// What the model reads and what runs, for the security pass (`texts.rs`).
    pub texts: crate::formats::texts::FileTexts,
}

/// Parse, lower, validate and lint one `.dops` file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    let (skill, diagnostics) = check_file(&file);
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics,
        item: FileItem::new(Item::Skill(skill)),
    }
}

fn check_file(file: &Arc<SourceFile>) -> (Skill, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    if file.text.len() > MAX_FILE_BYTES {
        diags.push(too_large(file));
    }
    let fm = match split_front_matter(&file.text, file.bom_len) {
        Ok(fm) => fm,
        Err(e) => {
            diags.push(front_matter_error(file, e, &FRONT_MATTER));
            return (Skill::default(), diags);
        }
    };
    let yaml_text = file.text.get(fm.yaml.start..fm.yaml.end).unwrap_or("");
    let parsed = yaml::parse(yaml_text, fm.yaml.start);
    diags.extend(
        syntax_diagnostics(file, &parsed)
            .into_iter()
            .map(|d| d.note("DojOps cannot read this front matter and refuses to load the skill")),
    );

    let mut lower = SkillLowerer {
        lw: Lowerer::new(file, &SHAPE),
        skill: Skill::default(),
    };
    let gate = match &parsed.root {
        Some(root) => lower.front_matter(root, fm.open),
        None if parsed.errors.is_empty() => {
            let d = lower
                .lw
                .diag(SHAPE.missing, fm.open, "the front matter is empty")
                .label("no fields follow this line")
                .help("add `dops: v2`, `meta`, `context` and `files` between the `---` lines");
            lower.lw.push(d);
            Gate::Continue
        }
        None => Gate::Continue,
    };
    let SkillLowerer { lw, mut skill } = lower;
    skill.doc = parsed.root.as_ref().map(super::doc::SkillDoc::lower);
    skill.texts = crate::formats::texts::FileTexts::check(super::texts::skill(
        file,
        parsed.root.as_ref(),
        fm.body_start,
    ));
    diags.extend(lw.diags.into_iter().map(with_consequence));
    if gate == Gate::Continue {
        diags.extend(check_sections(file, &fm));
    }
    (skill, diags)
}

/// Every defect of a rule that rejects the file gets the runtime's consequence, unless the
/// emit site says something more precise already.
fn with_consequence(d: Diagnostic) -> Diagnostic {
    if d.notes.is_empty() && d.rule.rejects_file {
        d.note(REJECTED)
    } else {
        d
    }
}

fn too_large(file: &Arc<SourceFile>) -> Diagnostic {
    let start = file.bom_len.min(file.text.len());
    let end = file
        .text
        .get(start..)
        .and_then(|rest| rest.find(['\r', '\n']))
        .map_or(file.text.len(), |i| start + i);
    Diagnostic::new(
        &doj::FILE_TOO_LARGE,
        file,
        Span::new(start, end),
        format!(
            "this skill is {} bytes; DojOps reads `.dops` files of at most 1 MiB ({MAX_FILE_BYTES} bytes)",
            file.text.len()
        ),
    )
    .label("file too large")
    .note("DojOps refuses to load the file, so the skill is never available")
    .help("move long examples or reference material out of the skill, or split it into smaller skills")
}

/// How SYN010/SYN011 read for a `.dops` file.
const FRONT_MATTER: FrontMatterWording<'static> = FrontMatterWording {
    what: "a `.dops` file",
    consequence: "DojOps refuses to load the file, so the skill is never available",
    missing_help: "put the YAML front matter (`dops: v2`, `meta`, `context`, `files`) between two `---` lines at the top of the file",
    unclosed_help: "add a `---` line after the last front-matter field, before `## Prompt`",
};

/// Whether the rest of the file is worth checking after the version check.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gate {
    Continue,
    Stop,
}

/// The value types a field can expect, each with its wording and its usual fix.
#[derive(Clone, Copy)]
enum Want {
    Str,
    Bool,
    Int,
    Map,
    List,
}

impl Want {
    fn phrase(self) -> &'static str {
        match self {
            Want::Str => "a string",
            Want::Bool => "a boolean (`true` or `false`)",
            Want::Int => "a whole number",
            Want::Map => "a mapping",
            Want::List => "a list",
        }
    }

    fn accepts(self, node: &Node) -> bool {
        match (self, &node.kind) {
            (Want::Str, NodeKind::String(_))
            | (Want::Bool, NodeKind::Bool(_))
            | (Want::Int, NodeKind::Number(Number::Int(_)))
            | (Want::Map, NodeKind::Map(_))
            | (Want::List, NodeKind::Seq(_)) => true,
            // YAML `30000.0` is the same JavaScript number as `30000`.
            (Want::Int, NodeKind::Number(Number::Float(f))) => f.is_finite() && f.fract() == 0.0,
            _ => false,
        }
    }

    /// How to fix a value of the wrong type, using its source text when the fix is mechanical.
    fn help(self, node: &Node, raw: &str, path: &str) -> String {
        let key = path.rsplit('.').next().unwrap_or(path);
        match (self, &node.kind) {
            (Want::Str, NodeKind::Null) if key.ends_with(']') => {
                "write a value for this item".to_string()
            }
            (Want::Str, NodeKind::Null) => format!("write the value after `{key}:`"),
            (Want::Str, NodeKind::Number(_) | NodeKind::Bool(_)) => {
                format!("quote it: `\"{raw}\"`")
            }
            (Want::Str, _) => "write a single string here".to_string(),
            (Want::Bool, NodeKind::String(s)) if s == "true" || s == "false" => {
                format!("remove the quotes: `{s}`")
            }
            (Want::Bool, _) => "write `true` or `false`".to_string(),
            (Want::Int, NodeKind::String(s))
                if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) =>
            {
                format!("remove the quotes: `{s}`")
            }
            (Want::Int, _) => "write a whole number without quotes, e.g. `30000`".to_string(),
            (Want::Map, _) if path.is_empty() => {
                "write the front matter as `name: value` lines, starting with `dops: v2`"
                    .to_string()
            }
            (Want::Map, _) => {
                format!("write the fields of `{key}` as `name: value` lines indented under it")
            }
            (Want::List, NodeKind::String(_)) => format!("make it a list: `[{raw}]`"),
            (Want::List, _) => {
                "write a YAML list: one `- item` line per entry, or `[a, b]`".to_string()
            }
        }
    }
}

/// Lowers one skill's front matter, collecting diagnostics and the resolve-time facts.
struct SkillLowerer<'a> {
    lw: Lowerer<'a>,
    skill: Skill,
}

impl<'a> SkillLowerer<'a> {
    // ── generic field access, each diagnostic with its fix ─────────────────────────────

    /// True when `node` is of the wanted type; a DOJ002 with the fix otherwise.
    fn expect(&mut self, node: &Node, path: &str, want: Want) -> bool {
        if want.accepts(node) {
            return true;
        }
        let what = if path.is_empty() {
            "the front matter".to_string()
        } else {
            format!("`{path}`")
        };
        let raw = self.lw.file.slice(node.span).to_string();
        let d = self
            .lw
            .diag(
                SHAPE.wrong_type,
                node.span,
                format!(
                    "{what} must be {}, found {}",
                    want.phrase(),
                    node.type_name()
                ),
            )
            .label(format!("expected {}", want.phrase()))
            .help(want.help(node, &raw, path));
        self.lw.push(d);
        false
    }

    /// Give the diagnostics pushed since `mark` a help text when they have none.
    fn help_since(&mut self, mark: usize, help: &str) {
        for d in self.lw.diags.iter_mut().skip(mark) {
            if d.help.is_none() {
                d.help = Some(help.to_string());
            }
        }
    }

    fn map<'n>(&mut self, node: &'n Node, anchor: Span, path: &'n str) -> Option<MapRef<'n>> {
        self.expect(node, path, Want::Map)
            .then_some(MapRef { node, anchor, path })
    }

    /// A list item that must be a mapping; a bare string was most likely meant as the value
    /// of the item's main key (`- main.tf` for `- path: main.tf`).
    fn item_map<'n>(
        &mut self,
        item: &'n Node,
        path: &'n str,
        main_key: &str,
    ) -> Option<MapRef<'n>> {
        if item.as_str().is_some() {
            let raw = self.lw.file.slice(item.span);
            let d = self
                .lw
                .diag(
                    SHAPE.wrong_type,
                    item.span,
                    format!("`{path}` must be a mapping, found a string"),
                )
                .label("expected a mapping")
                .help(format!("write it as `{main_key}: {raw}`"));
            self.lw.push(d);
            return None;
        }
        self.map(item, item_anchor(item), path)
    }

    /// A required key, with `help` saying what to add when it is missing.
    fn required<'n>(&mut self, map: MapRef<'n>, key: &str, help: &str) -> Option<&'n Node> {
        let mark = self.lw.diags.len();
        let entry = self.lw.required(map, key);
        self.help_since(mark, help);
        entry.map(|e| &e.value)
    }

    /// A required key whose value is a mapping.
    fn required_map<'n>(
        &mut self,
        map: MapRef<'n>,
        key: &str,
        path: &'n str,
        help: &str,
    ) -> Option<MapRef<'n>> {
        let mark = self.lw.diags.len();
        let entry = self.lw.required(map, key);
        self.help_since(mark, help);
        let entry = entry?;
        self.map(&entry.value, entry.key_span, path)
    }

    fn string<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        min: usize,
        max: usize,
    ) -> Option<&'n str> {
        if !self.expect(node, path, Want::Str) {
            return None;
        }
        let mark = self.lw.diags.len();
        let value = self.lw.str_value(node, path, min, max).map(|(s, _)| s);
        let help = if value.is_some_and(|s| s.chars().count() > max) {
            format!("shorten it to at most {max} characters")
        } else {
            "write a value between the quotes".to_string()
        };
        self.help_since(mark, &help);
        value
    }

    fn optional_string(&mut self, map: MapRef<'_>, key: &str, min: usize, max: usize) {
        if let Some(e) = map.node.get(key) {
            self.string(&e.value, &join_path(map.path, key), min, max);
        }
    }

    fn boolean(&mut self, map: MapRef<'_>, key: &str) -> Option<bool> {
        let entry = map.node.get(key)?;
        if !self.expect(&entry.value, &join_path(map.path, key), Want::Bool) {
            return None;
        }
        match entry.value.kind {
            NodeKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn integer(&mut self, node: &Node, path: &str) -> Option<i64> {
        if !self.expect(node, path, Want::Int) {
            return None;
        }
        match node.kind {
            NodeKind::Number(Number::Int(i)) => Some(i),
            // `accepts` let through only whole, finite floats.
            NodeKind::Number(Number::Float(f)) => Some(f as i64),
            _ => None,
        }
    }

    /// A list with at least `min` items.
    fn list<'n>(&mut self, node: &'n Node, path: &str, min: usize) -> Option<&'n [Node]> {
        if !self.expect(node, path, Want::List) {
            return None;
        }
        let items = node.as_seq()?;
        let mark = self.lw.diags.len();
        self.lw
            .check_len(node.span, path, items.len(), min, usize::MAX, "items");
        self.help_since(mark, "add at least one entry");
        Some(items)
    }

    /// A list of strings, each at least `min` characters.
    fn string_list(&mut self, node: &Node, path: &str, min_items: usize, min: usize) {
        let Some(items) = self.list(node, path, min_items) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            self.string(item, &format!("{path}[{i}]"), min, usize::MAX);
        }
    }

    /// A string out of `allowed`, with `fallback` as the help when no allowed value is close.
    fn enumeration<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        allowed: &[&str],
        fallback: Option<&str>,
    ) -> Option<&'n str> {
        let mark = self.lw.diags.len();
        let value = self.lw.enum_value(node, path, allowed);
        let list = allowed
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let help = match (node.as_str(), fallback) {
            (Some(_), Some(f)) => f.to_string(),
            (Some(s), None) => format!("replace `{s}` with one of {list}"),
            (None, _) => format!("write one of {list}"),
        };
        self.help_since(mark, &help);
        value
    }

    fn optional_enum(&mut self, map: MapRef<'_>, key: &str, allowed: &[&str]) {
        if let Some(e) = map.node.get(key) {
            self.enumeration(&e.value, &join_path(map.path, key), allowed, None);
        }
    }

    /// DOJ007 for keys outside `known`, noting what v2 does instead of a v1 key.
    fn unknown_keys(&mut self, map: MapRef<'_>, known: &[&str]) {
        let mark = self.lw.diags.len();
        self.lw.unknown_keys(map, known, IGNORED_KEY);
        let Some(entries) = map.node.as_map() else {
            return;
        };
        let unknown = entries.iter().filter(|e| !known.contains(&e.key.as_str()));
        for (d, entry) in self.lw.diags.iter_mut().skip(mark).zip(unknown) {
            if let Some((_, note)) = V1_KEYS.iter().find(|(k, _)| *k == entry.key) {
                d.notes.push((*note).to_string());
                if d.help.is_none() {
                    d.help = Some(format!("remove `{}`", entry.key));
                }
            }
        }
    }

    /// The mapping under an optional `key` of `parent`, checked for unknown keys.
    fn section<'n>(
        &mut self,
        parent: MapRef<'n>,
        key: &str,
        path: &'n str,
        known: &[&str],
    ) -> Option<MapRef<'n>> {
        let entry = parent.node.get(key)?;
        let map = self.map(&entry.value, entry.key_span, path)?;
        self.unknown_keys(map, known);
        Some(map)
    }

    // ── the front matter ───────────────────────────────────────────────────────────────

    fn front_matter(&mut self, root: &Node, open: Span) -> Gate {
        let Some(root) = self.map(root, open, "") else {
            return Gate::Continue;
        };
        if self.version(root) == Gate::Stop {
            return Gate::Stop;
        }
        self.unknown_keys(root, ROOT_KEYS);
        if let Some(e) = root.node.get("kind") {
            self.enumeration(&e.value, "kind", &["skill", "tool"], None);
        }
        self.meta(root);
        self.context(root);
        self.files(root);
        self.detection(root);
        self.verification(root);
        if let Some(m) = self.section(root, "permissions", "permissions", PERMISSION_KEYS) {
            self.optional_enum(m, "filesystem", &["read", "write"]);
            self.optional_enum(m, "child_process", &["required", "none"]);
            self.optional_enum(m, "network", &["none", "required"]);
        }
        self.scope(root);
        self.risk(root);
        if let Some(m) = self.section(root, "execution", "execution", EXECUTION_KEYS) {
            self.optional_enum(m, "mode", &["generate", "update"]);
            self.boolean(m, "deterministic");
            self.boolean(m, "idempotent");
        }
        if let Some(m) = self.section(root, "update", "update", UPDATE_KEYS) {
            self.optional_enum(m, "strategy", &["replace", "preserve_structure"]);
            self.optional_enum(m, "inputSource", &["file"]);
            self.optional_string(m, "injectAs", 0, usize::MAX);
        }
        if let Some(m) = self.section(root, "capabilities", "capabilities", CAPABILITY_KEYS) {
            self.optional_enum(
                m,
                "sideEffects",
                &["none", "filesystem", "network", "process"],
            );
            self.optional_enum(m, "runtime", &["short", "long"]);
        }
        self.dependencies(root);
        Gate::Continue
    }

    /// DOJ019: `dops` must be exactly `v2`. A v1 file gets one error with the migration and
    /// nothing else: every other v2 rule would fire on it and bury the one fix that matters.
    fn version(&mut self, root: MapRef<'_>) -> Gate {
        let entry = root.node.get("dops");
        let value = entry.map(|e| &e.value);
        if value.and_then(Node::as_str) == Some("v2") {
            return Gate::Continue;
        }
        let looks_v1 = (root.node.get("input").is_some() || root.node.get("output").is_some())
            && root.node.get("context").is_none();
        let rule = &doj::UNSUPPORTED_DOPS_VERSION;
        match value {
            Some(v) if v.as_str() == Some("v1") || looks_v1 => {
                let message = format!(
                    "`dops: {}` is no longer supported; current DojOps only accepts `dops: v2`",
                    self.lw.file.slice(v.span)
                );
                let d = self.v1_migration(root, v.span, message);
                self.lw.push(d);
                Gate::Stop
            }
            None if looks_v1 => {
                let message = "this is a `.dops` v1 skill without a `dops` version; current DojOps only accepts `dops: v2`";
                let d = self.v1_migration(root, root.anchor, message.to_string());
                self.lw.push(d);
                Gate::Stop
            }
            Some(v) => {
                let d = self
                    .lw
                    .diag(
                        rule,
                        v.span,
                        format!(
                            "`dops` must be `v2`, found `{}`",
                            self.lw.file.slice(v.span)
                        ),
                    )
                    .label("unsupported version")
                    .note("DojOps refuses to load a `.dops` file that is not `dops: v2`")
                    .help("write `dops: v2`");
                self.lw.push(d);
                Gate::Continue
            }
            None => {
                let d = self
                    .lw
                    .diag(rule, root.anchor, "the front matter has no `dops` version")
                    .label("`dops: v2` is missing")
                    .note("DojOps refuses to load a `.dops` file that is not `dops: v2`")
                    .help("add `dops: v2` as the first line of the front matter");
                self.lw.push(d);
                Gate::Continue
            }
        }
    }

    /// The one diagnostic of a v1 file: what changed, pointing at the v1 constructs it uses.
    fn v1_migration(&self, root: MapRef<'_>, span: Span, message: String) -> Diagnostic {
        let mut d = self
            .lw
            .diag(&doj::UNSUPPORTED_DOPS_VERSION, span, message)
            .label("`.dops` v1")
            .note("DojOps rejects the file, so the skill is never available");
        if let Some(e) = root.node.get("input") {
            d = d.related(
                self.lw.file,
                e.key_span,
                "v1 typed inputs: v2 has none; describe what the skill needs in `## Prompt`",
            );
        }
        if let Some(e) = root.node.get("output") {
            d = d.related(
                self.lw.file,
                e.key_span,
                "v1 output schema: v2 describes the output in `context.outputGuidance`",
            );
        }
        if let Some(e) = root
            .node
            .get("kind")
            .filter(|e| e.value.as_str() == Some("tool"))
        {
            d = d.related(self.lw.file, e.value.span, "v2 calls this `kind: skill`");
        }
        let v1_files = root
            .node
            .value("files")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .flat_map(|f| f.as_map().unwrap_or_default())
            .find(|e| {
                ["source", "options", "content"].contains(&e.key.as_str())
                    || (e.key == "format" && e.value.as_str() != Some("raw"))
            });
        if let Some(e) = v1_files {
            d = d.related(
                self.lw.file,
                e.key_span,
                "v1 file serializer: v2 writes every file as `format: raw`",
            );
        }
        d.related.sort_by_key(|r| r.span.start);
        d.help(
            "migrate to v2: (1) set `dops: v2` (and `kind: skill`); (2) replace `input.fields` and \
             `output` with a `context` block: `technology`, `fileFormat`, `outputGuidance`, \
             `bestPractices`; (3) give every `files` entry `format: raw` and drop `source`, \
             `options` and `content`; (4) keep the `## Prompt` and `## Keywords` sections",
        )
    }

    fn meta(&mut self, root: MapRef<'_>) {
        let Some(meta) = self.required_map(
            root,
            "meta",
            "meta",
            "add a `meta:` block with `name`, `version` and `description`",
        ) else {
            return;
        };
        self.unknown_keys(meta, META_KEYS);
        if let Some(name) = self.required(meta, "name", "add `name: my-skill` under `meta`") {
            self.skill_name(name);
        }
        if let Some(v) = self.required(meta, "version", "add `version: 1.0.0` under `meta`") {
            self.string(v, "meta.version", 1, usize::MAX);
        }
        if let Some(v) = self.required(
            meta,
            "description",
            "add `description: \"…\"` under `meta`: one sentence saying what the skill generates",
        ) {
            self.string(v, "meta.description", 1, 500);
        }
        for key in ["author", "license", "repository"] {
            self.optional_string(meta, key, 0, usize::MAX);
        }
        if let Some(tags) = meta.node.value("tags") {
            self.string_list(tags, "meta.tags", 0, 0);
        }
        if let Some(icon) = meta.node.value("icon") {
            self.icon(icon);
        }
    }

    /// DOJ003 on `meta.name`; a valid name is recorded for the project's registry.
    fn skill_name(&mut self, node: &Node) {
        if !self.expect(node, "meta.name", Want::Str) {
            return;
        }
        let Some(name) = node.as_str() else { return };
        if check_name(&mut self.lw, NameKind::Skill, "meta.name", name, node.span) {
            self.skill.name = Some(Name {
                value: name.to_string(),
                span: node.span,
            });
        }
    }

    /// DOJ022: `meta.icon` must be an `https://` URL of at most 2048 characters.
    fn icon(&mut self, node: &Node) {
        if !self.expect(node, "meta.icon", Want::Str) {
            return;
        }
        let Some(url) = node.as_str() else { return };
        let len = url.chars().count();
        let (message, label, help) = if len > 2048 {
            (
                format!("`meta.icon` is {len} characters long; DojOps allows at most 2048"),
                "URL too long".to_string(),
                "host the icon under a shorter `https://` URL".to_string(),
            )
        } else if let Some(rest) = url.strip_prefix("http://") {
            (
                format!("icon URL `{url}` does not use `https://`"),
                "plain HTTP".to_string(),
                format!("use `https://{rest}`"),
            )
        } else if !is_https_url(url) {
            (
                format!("`meta.icon` must be an `https://` URL, found `{url}`"),
                "not an `https://` URL".to_string(),
                "use an absolute URL such as `https://example.com/icon.svg`".to_string(),
            )
        } else {
            return;
        };
        let d = self
            .lw
            .diag(&doj::INSECURE_ICON_URL, node.span, message)
            .label(label)
            .note("DojOps refuses to load a skill whose icon is not an `https://` URL of at most 2048 characters")
            .help(help);
        self.lw.push(d);
    }

    fn context(&mut self, root: MapRef<'_>) {
        let Some(ctx) = self.required_map(
            root,
            "context",
            "context",
            "add a `context:` block with `technology`, `fileFormat`, `outputGuidance` and `bestPractices`",
        ) else {
            return;
        };
        self.unknown_keys(ctx, CONTEXT_KEYS);
        if let Some(v) = self.required(
            ctx,
            "technology",
            "add `technology: …` under `context`, e.g. `technology: Terraform`",
        ) {
            self.string(v, "context.technology", 1, usize::MAX);
        }
        if let Some(v) = self.required(
            ctx,
            "fileFormat",
            "add `fileFormat: raw` under `context` (or `yaml`, `hcl`, `json`, `ini`, `toml`)",
        ) {
            self.enumeration(
                v,
                "context.fileFormat",
                FILE_FORMATS,
                Some("use `raw` when the generated file is none of these formats"),
            );
        }
        if let Some(v) = self.required(
            ctx,
            "outputGuidance",
            "add `outputGuidance: …` under `context`: how the model must shape its output",
        ) {
            self.string(v, "context.outputGuidance", 1, usize::MAX);
        }
        if let Some(v) = self.required(
            ctx,
            "bestPractices",
            "add `bestPractices:` under `context` with at least one `- practice` line",
        ) {
            self.string_list(v, "context.bestPractices", 1, 1);
        }
        let Some(libraries) = ctx.node.value("context7Libraries") else {
            return;
        };
        let Some(items) = self.list(libraries, "context.context7Libraries", 0) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("context.context7Libraries[{i}]");
            let Some(lib) = self.item_map(item, &path, "name") else {
                continue;
            };
            self.unknown_keys(lib, LIBRARY_KEYS);
            if let Some(v) = self.required(
                lib,
                "name",
                "add `name: …` to this entry: the Context7 library id",
            ) {
                self.string(v, &format!("{path}.name"), 1, usize::MAX);
            }
            if let Some(v) = self.required(
                lib,
                "query",
                "add `query: …` to this entry: what to look up in the library's documentation",
            ) {
                self.string(v, &format!("{path}.query"), 1, usize::MAX);
            }
        }
    }

    fn files(&mut self, root: MapRef<'_>) {
        let Some(node) = self.required(
            root,
            "files",
            "add `files:` with at least one `- path: <file>` entry: the files this skill writes",
        ) else {
            return;
        };
        let Some(items) = self.list(node, "files", 1) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("files[{i}]");
            let Some(file) = self.item_map(item, &path, "path") else {
                continue;
            };
            self.unknown_keys(file, FILE_KEYS);
            if let Some(v) = self.required(
                file,
                "path",
                "add `path: <file>` to this entry, e.g. `path: main.tf`",
            ) {
                self.file_path(v, &format!("{path}.path"));
            }
            if let Some(v) = file.node.value("format") {
                let fallback = match v.as_str() {
                    Some(f) if FILE_FORMATS.contains(&f) => {
                        "v2 writes files as the model generates them: use `format: raw` (or drop the key) and set `context.fileFormat`"
                    }
                    _ => "use `format: raw`, or drop the key (it defaults to `raw`)",
                };
                self.enumeration(v, &format!("{path}.format"), &["raw"], Some(fallback));
            }
            self.boolean(file, "conditional");
        }
    }

    /// `files[].path`: DojOps trims it before its emptiness check, so blank counts as empty.
    fn file_path(&mut self, node: &Node, path: &str) {
        if !self.expect(node, path, Want::Str) {
            return;
        }
        if node.as_str().is_some_and(|s| s.trim().is_empty()) {
            let d = self
                .lw
                .diag(
                    SHAPE.length,
                    node.span,
                    format!("`{path}` must not be empty"),
                )
                .label("empty path")
                .help("write the path of the file this skill writes, e.g. `main.tf`");
            self.lw.push(d);
        }
    }

    fn detection(&mut self, root: MapRef<'_>) {
        let Some(det) = self.section(root, "detection", "detection", DETECTION_KEYS) else {
            return;
        };
        if let Some(v) = self.required(
            det,
            "paths",
            "add `paths:` under `detection` with the globs that mark an existing file, e.g. `[\"*.tf\"]`",
        ) {
            self.string_list(v, "detection.paths", 1, 0);
        }
        self.boolean(det, "updateMode");
    }

    fn verification(&mut self, root: MapRef<'_>) {
        let Some(ver) = self.section(root, "verification", "verification", VERIFICATION_KEYS)
        else {
            return;
        };
        if let Some(node) = ver.node.value("structural") {
            self.structural(node);
        }
        if let Some(bin) = self.section(ver, "binary", "verification.binary", BINARY_KEYS) {
            self.binary(bin);
        }
        if let Some(sev) = self.section(ver, "severity", "verification.severity", SEVERITY_KEYS) {
            for key in SEVERITY_KEYS {
                if let Some(v) = sev.node.value(key) {
                    self.string_list(v, &join_path(sev.path, key), 0, 0);
                }
            }
        }
    }

    fn structural(&mut self, node: &Node) {
        let Some(items) = self.list(node, "verification.structural", 0) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("verification.structural[{i}]");
            let Some(rule) = self.item_map(item, &path, "path") else {
                continue;
            };
            self.unknown_keys(rule, STRUCTURAL_KEYS);
            if let Some(v) = self.required(
                rule,
                "path",
                "add `path: …` to this entry: the field of the generated file to check",
            ) {
                self.string(v, &format!("{path}.path"), 0, usize::MAX);
            }
            if let Some(v) = self.required(
                rule,
                "message",
                "add `message: …` to this entry: what to report when the check fails",
            ) {
                self.string(v, &format!("{path}.message"), 0, usize::MAX);
            }
            self.boolean(rule, "required");
            self.optional_string(rule, "type", 0, usize::MAX);
            self.optional_string(rule, "requiredUnless", 0, usize::MAX);
            if let Some(v) = rule.node.value("minItems") {
                self.integer(v, &format!("{path}.minItems"));
            }
        }
    }

    fn binary(&mut self, bin: MapRef<'_>) {
        if let Some(v) = self.required(
            bin,
            "command",
            "add `command: …` under `verification.binary`: the check to run on the generated files",
        ) {
            self.string(v, "verification.binary.command", 1, usize::MAX);
        }
        if let Some(v) = self.required(
            bin,
            "parser",
            "add `parser: …` under `verification.binary`, e.g. `parser: generic-stderr`",
        ) && let Some(parser) = self.string(v, "verification.binary.parser", 1, usize::MAX)
        {
            self.parser(v, parser);
        }
        if let Some(v) = bin.node.value("timeout") {
            self.timeout(v);
        }
        self.optional_enum(bin, "cwd", &["output", "tool"]);
    }

    /// DOJ021: the parser must be one DojOps ships.
    fn parser(&mut self, node: &Node, parser: &str) {
        if parser.is_empty() || KNOWN_PARSERS.contains(&parser) {
            return;
        }
        let hint = did_you_mean(parser, KNOWN_PARSERS.iter().copied());
        let help = match hint {
            Some(p) => format!("did you mean `{p}`?"),
            None => format!(
                "use one of the parsers DojOps ships: {}",
                KNOWN_PARSERS.join(", ")
            ),
        };
        let d = self
            .lw
            .diag(
                &doj::UNKNOWN_VERIFICATION_PARSER,
                node.span,
                format!("unknown verification parser `{parser}`"),
            )
            .label("not a parser DojOps knows")
            .note("DojOps refuses to load a skill whose verification names an unknown parser")
            .help(help)
            .maybe_fix(hint.and_then(|p| {
                replace_exact(self.lw.file, node.span, parser, p, Applicability::Safe)
            }));
        self.lw.push(d);
    }

    fn timeout(&mut self, node: &Node) {
        let path = "verification.binary.timeout";
        let Some(ms) = self.integer(node, path) else {
            return;
        };
        if ms > 0 {
            return;
        }
        let d = self
            .lw
            .diag(
                SHAPE.bad_value,
                node.span,
                format!("`{path}` must be a positive number of milliseconds, found `{ms}`"),
            )
            .label("must be greater than 0")
            .help("use e.g. `30000` (30 seconds, the default), or drop the key");
        self.lw.push(d);
    }

    fn scope(&mut self, root: MapRef<'_>) {
        let Some(scope) = self.section(root, "scope", "scope", SCOPE_KEYS) else {
            return;
        };
        let Some(v) = self.required(
            scope,
            "write",
            "add `write:` under `scope` with the paths this skill may write, e.g. `[\"*.tf\"]`",
        ) else {
            return;
        };
        let Some(items) = self.list(v, "scope.write", 1) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            if let Some(path) = self.string(item, &format!("scope.write[{i}]"), 1, usize::MAX) {
                self.traversal(item, path);
            }
        }
    }

    /// SEC001: a `..` segment (split on `/` and `\`, as DojOps does) in a `scope.write` path.
    fn traversal(&mut self, node: &Node, path: &str) {
        let Some(segment) = dotdot_segment(path) else {
            return;
        };
        let span = value_sub_span(self.lw.file.slice(node.span), node.span, path, segment);
        let d = self
            .lw
            .diag(
                &sec::PATH_TRAVERSAL,
                span,
                format!("scope path `{path}` climbs out of the project with `..`"),
            )
            .label("path traversal")
            .note("DojOps refuses to load a skill whose `scope.write` contains a `..` segment")
            .help("write the path relative to the project root, without `..`");
        self.lw.push(d);
    }

    fn risk(&mut self, root: MapRef<'_>) {
        let Some(risk) = self.section(root, "risk", "risk", RISK_KEYS) else {
            return;
        };
        if let Some(v) = self.required(
            risk,
            "level",
            "add `level: LOW`, `MEDIUM` or `HIGH` under `risk`",
        ) {
            self.enumeration(v, "risk.level", &["LOW", "MEDIUM", "HIGH"], None);
        }
        if let Some(v) = self.required(
            risk,
            "rationale",
            "add `rationale: …` under `risk`: why the skill has this risk level",
        ) {
            self.string(v, "risk.rationale", 1, 500);
        }
    }

    fn dependencies(&mut self, root: MapRef<'_>) {
        let Some(node) = root.node.value("dependencies") else {
            return;
        };
        let Some(items) = self.list(node, "dependencies", 0) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("dependencies[{i}]");
            let Some(dep) = self.item_map(item, &path, "skill") else {
                continue;
            };
            self.unknown_keys(dep, DEPENDENCY_KEYS);
            let optional = self.boolean(dep, "optional").unwrap_or(false);
            let Some(v) = self.required(
                dep,
                "skill",
                "add `skill: <name>` to this entry: the skill this one depends on",
            ) else {
                continue;
            };
            let skill_path = format!("{path}.skill");
            if !self.expect(v, &skill_path, Want::Str) {
                continue;
            }
            let Some(name) = v.as_str() else { continue };
            if !check_name(
                &mut self.lw,
                NameKind::Dependency,
                &skill_path,
                name,
                v.span,
            ) {
                continue;
            }
            self.skill.dependencies.push(Dependency {
                skill: name.to_string(),
                span: v.span,
                optional,
            });
        }
    }
}

/// Where a "missing key" diagnostic in a list item points: its first key (the item has no key
/// of its own), or the whole item when it is empty.
fn item_anchor(item: &Node) -> Span {
    item.as_map()
        .and_then(<[_]>::first)
        .map_or(item.span, |e| e.key_span)
}

fn is_https_url(url: &str) -> bool {
    url.strip_prefix("https://").is_some_and(|rest| {
        !rest.is_empty() && !rest.starts_with('/') && !rest.contains(char::is_whitespace)
    })
}

/// Byte range of the first `..` segment of `path`, splitting on `/` and `\`.
fn dotdot_segment(path: &str) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    let ends = path
        .char_indices()
        .filter(|(_, c)| matches!(c, '/' | '\\'))
        .map(|(i, _)| i)
        .chain(std::iter::once(path.len()));
    for end in ends {
        if path.get(start..end) == Some("..") {
            return Some(start..end);
        }
        start = end + 1;
    }
    None
}

/// The span of `range` (bytes of the parsed `value`) in the source, when the scalar is written
/// plainly or quoted without escapes; the whole value's span otherwise.
fn value_sub_span(raw: &str, span: Span, value: &str, range: std::ops::Range<usize>) -> Span {
    let inner = raw.len().checked_sub(1).and_then(|end| raw.get(1..end));
    let offset = if raw == value {
        0
    } else if inner == Some(value) {
        1
    } else {
        return span;
    };
    span.sub(offset + range.start, offset + range.end)
}

// ── the body ───────────────────────────────────────────────────────────────────────────

/// The body sections DojOps requires, with what goes in each.
const REQUIRED_SECTIONS: &[(&str, &str)] = &[
    (
        "Prompt",
        "the system prompt of the skill, e.g. `You are a Terraform expert. …`",
    ),
    (
        "Keywords",
        "comma-separated words that select this skill, e.g. `terraform, hcl, iac`",
    ),
];

/// Section titles DojOps reads besides the required ones (never near-misses of them).
const OTHER_SECTIONS: &[&str] = &["update prompt", "examples", "constraints"];

/// DOJ020: `## Prompt` and `## Keywords` must exist and not be blank.
fn check_sections(file: &Arc<SourceFile>, fm: &FrontMatter) -> Vec<Diagnostic> {
    let sections = h2_sections(&file.text, fm.body_start);
    let closing = Span::new(fm.yaml.end, (fm.yaml.end + 3).min(fm.body_start));
    let mut out = Vec::new();
    for (title, what) in REQUIRED_SECTIONS {
        // DojOps keeps the last of two sections with one title.
        let found = sections
            .iter()
            .rev()
            .find(|s| s.title.eq_ignore_ascii_case(title));
        let note =
            format!("DojOps refuses to load a skill without a non-empty `## {title}` section");
        let d = match found {
            Some(s) if file.slice(s.content).trim().is_empty() => Diagnostic::new(
                &doj::MISSING_DOPS_SECTION,
                file,
                s.heading,
                format!("the `## {title}` section is empty"),
            )
            .label("nothing under this heading")
            .note(note)
            .help(format!("write {what} under `## {title}`")),
            Some(_) => continue,
            None => match near_miss_heading(file, fm.body_start, title, &sections) {
                Some(heading) => Diagnostic::new(
                    &doj::MISSING_DOPS_SECTION,
                    file,
                    heading,
                    format!("the body has no `## {title}` section"),
                )
                .label(format!("not read as `## {title}`"))
                .note(note)
                .help(format!("make this heading exactly `## {title}`")),
                None => Diagnostic::new(
                    &doj::MISSING_DOPS_SECTION,
                    file,
                    closing,
                    format!("the body has no `## {title}` section"),
                )
                .label(format!("no `## {title}` after the front matter"))
                .note(note)
                .help(format!("add a `## {title}` heading followed by {what}")),
            },
        };
        out.push(d);
    }
    out
}

/// A heading that was probably meant as `## {title}`: the right words at the wrong level
/// (`# Prompt`, `##Prompt`), or a misspelt `##` title (`## Keyword`).
fn near_miss_heading(
    file: &SourceFile,
    body_start: usize,
    title: &str,
    sections: &[Section],
) -> Option<Span> {
    if let Some(heading) = near_heading(&file.text, body_start, title) {
        return Some(heading);
    }
    sections
        .iter()
        .filter(|s| {
            let lower = s.title.to_ascii_lowercase();
            !OTHER_SECTIONS.contains(&lower.as_str())
                && !REQUIRED_SECTIONS
                    .iter()
                    .any(|(t, _)| t.eq_ignore_ascii_case(&lower))
        })
        .find(|s| did_you_mean(&s.title, [title]).is_some())
        .map(|s| s.heading)
}

// ── resolve ────────────────────────────────────────────────────────────────────────────

/// The skill index each name resolves to; the first skill (by path) wins a duplicate name,
/// which DOJ011 reports.
fn name_index<'s>(skills: &[(&Arc<SourceFile>, &'s Skill)]) -> HashMap<&'s str, usize> {
    let mut index = HashMap::with_capacity(skills.len());
    for (i, (_, skill)) in skills.iter().enumerate() {
        if let Some(name) = &skill.name {
            index.entry(name.value.as_str()).or_insert(i);
        }
    }
    index
}

/// REF001/REF002: dependencies of the skills of one project.
pub fn resolve(skills: &[(&Arc<SourceFile>, &Skill)]) -> Vec<Diagnostic> {
    let index = name_index(skills);
    let mut out = unknown_dependencies(skills, &index);
    out.extend(cycles(skills, &index));
    out
}

/// How many name comparisons "did you mean" may spend on one project's unknown dependencies.
const SUGGESTION_BUDGET: usize = 1_000_000;

/// REF001 for required dependencies that name no skill of the project.
fn unknown_dependencies(
    skills: &[(&Arc<SourceFile>, &Skill)],
    index: &HashMap<&str, usize>,
) -> Vec<Diagnostic> {
    let mut suggester = Suggester::new(
        skills
            .iter()
            .filter_map(|(_, skill)| skill.name.as_ref().map(|n| (n.value.as_str(), ()))),
        SUGGESTION_BUDGET,
    );
    let mut out = Vec::new();
    for (file, skill) in skills {
        for dep in &skill.dependencies {
            if dep.optional || index.contains_key(dep.skill.as_str()) {
                continue;
            }
            let suggestion = suggester.suggest(&dep.skill).map(|(name, ())| name);
            let help = match suggestion {
                Some(name) => format!("did you mean `{name}`?"),
                None => format!(
                    "add the skill (e.g. `.dojops/skills/{}.dops`), or mark the dependency `optional: true`",
                    dep.skill
                ),
            };
            out.push(
                Diagnostic::new(
                    &refs::UNKNOWN_DEPENDENCY,
                    file,
                    dep.span,
                    format!("dependency `{}` is not a skill of this project", dep.skill),
                )
                .label("no skill with this name in this `.dojops/` project")
                .note("DojOps reports a missing required dependency when this skill runs")
                .help(help)
                .maybe_fix(suggestion.and_then(|name| {
                    replace_exact(file, dep.span, &dep.skill, name, Applicability::Unsafe)
                })),
            );
        }
    }
    out
}

/// REF002: one diagnostic per cycle the depth-first walk closes, at the closing entry.
fn cycles(skills: &[(&Arc<SourceFile>, &Skill)], index: &HashMap<&str, usize>) -> Vec<Diagnostic> {
    // Edges are the dependencies that name a skill of the project; `deps` maps each edge
    // back to its entry in `dependencies`.
    let mut targets: Vec<Vec<usize>> = Vec::with_capacity(skills.len());
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(skills.len());
    for (_, skill) in skills {
        let (t, d): (Vec<usize>, Vec<usize>) = skill
            .dependencies
            .iter()
            .enumerate()
            .filter_map(|(i, dep)| index.get(dep.skill.as_str()).map(|&to| (to, i)))
            .unzip();
        targets.push(t);
        deps.push(d);
    }
    graph::cycles(&targets)
        .iter()
        .filter_map(|c| cycle_diagnostic(skills, &deps, c))
        .collect()
}

fn skill_label(skills: &[(&Arc<SourceFile>, &Skill)], i: usize) -> String {
    skills.get(i).map_or_else(String::new, |(file, skill)| {
        skill
            .name
            .as_ref()
            .map_or_else(|| file.display.clone(), |n| n.value.clone())
    })
}

/// The cycle `steps[0] → … → steps[last] → steps[0]`, closed by the last step's dependency;
/// the other entries of the cycle become related places.
fn cycle_diagnostic(
    skills: &[(&Arc<SourceFile>, &Skill)],
    deps: &[Vec<usize>],
    cycle: &Cycle,
) -> Option<Diagnostic> {
    let dep = |s: &Step| {
        let i = *deps.get(s.node)?.get(s.edge)?;
        skills.get(s.node)?.1.dependencies.get(i)
    };
    let last = cycle.closing()?;
    let closing = dep(&last)?;
    let file = skills.get(last.node)?.0;
    let mut names: Vec<String> = cycle
        .steps
        .iter()
        .map(|s| skill_label(skills, s.node))
        .collect();
    names.push(closing.skill.clone());
    let chain = names.join(" → ");
    let label = if cycle.steps.len() == 1 {
        "a skill cannot depend on itself"
    } else {
        "this dependency closes the cycle"
    };
    let mut d = Diagnostic::new(
        &refs::DEPENDENCY_CYCLE,
        file,
        closing.span,
        format!("dependency cycle `{chain}`"),
    )
    .label(label)
    .note("skills in a cycle cannot run their dependencies first: none of them can be ordered")
    .help("remove one dependency of the cycle, for example this one");
    for step in &cycle.steps[..cycle.steps.len() - 1] {
        let (Some(dep), Some((file, _))) = (dep(step), skills.get(step.node)) else {
            continue;
        };
        let from = skill_label(skills, step.node);
        d = d.related(
            file,
            dep.span,
            format!("`{from}` depends on `{}` here", dep.skill),
        );
    }
    Some(d)
}
