//! The other AML definitions an agent refers to by id: knowledge bases (`*.kb.md`, `kb_id`),
//! models (`*.model.md`, `model_id`) and guardrails (`*.guardrail.md`, `guardrail_id`).
//! toolc reads only their id and `status`, to check the agents' references against them
//! (`resolve_references`); their other fields are not checked.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::tool::Status;
use super::{Item, Spanned};
use crate::analysis::names::{SUGGESTION_BUDGET, did_you_mean_within};
use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean};
use crate::formats::fields::replace_exact;
use crate::formats::format::FileResult;
use crate::rules::references as refs;
use crate::source::{SourceFile, Span};
use crate::syntax::front_matter::split_front_matter;
use crate::syntax::{Node, yaml};

/// What an agent refers to besides tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum Kind {
    /// `knowledge.refs[].ref` → `*.kb.md`.
    Knowledge,
    /// `runtime.model`, `runtime.fallback_model` → `*.model.md`.
    Model,
    /// `guardrails.<position>[].ref` → `*.guardrail.md`.
    Guardrail,
}

impl Kind {
    /// The kind a definition file's name says, if any.
    pub(crate) fn of_file(name: &str) -> Option<Kind> {
        if name.ends_with(".kb.md") {
            Some(Kind::Knowledge)
        } else if name.ends_with(".model.md") {
            Some(Kind::Model)
        } else if name.ends_with(".guardrail.md") {
            Some(Kind::Guardrail)
        } else {
            None
        }
    }

    /// The front-matter key that holds the id.
    pub(crate) fn id_key(self) -> &'static str {
        match self {
            Kind::Knowledge => "kb_id",
            Kind::Model => "model_id",
            Kind::Guardrail => "guardrail_id",
        }
    }

    /// What it is, for messages.
    pub(crate) fn what(self) -> &'static str {
        match self {
            Kind::Knowledge => "knowledge base",
            Kind::Model => "model",
            Kind::Guardrail => "guardrail",
        }
    }

    /// The file name suffix and the folder the spec puts it in.
    fn file(self) -> (&'static str, &'static str) {
        match self {
            Kind::Knowledge => (".kb.md", "knowledge"),
            Kind::Model => (".model.md", "models"),
            Kind::Guardrail => (".guardrail.md", "guardrails"),
        }
    }
}

/// A knowledge base, model or guardrail definition: its kind, id and status.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Definition {
    /// What it defines.
    pub kind: Kind,
    /// Its id, when present and a string.
    pub id: Option<Spanned<String>>,
    /// Its `status`, when it is one of the lifecycle states.
    pub status: Option<Spanned<Status>>,
}

/// A reference of an agent to a definition.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct DefinitionRef {
    /// What it refers to.
    pub kind: Kind,
    /// The id referred to.
    pub id: Box<str>,
    /// Where the id is written.
    pub span: Span,
    /// The field that holds it (`runtime.model`, `knowledge.refs[0].ref`), for messages.
    pub field: Field,
}

/// Where a reference is written, spelled when a message needs it: the list's path is shared
/// by its items (a string each took more than the reference, for millions of them).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Field {
    /// The key (`runtime.model`), or the list (`knowledge.refs`).
    path: Arc<str>,
    /// The item of the list, whose `ref` it is.
    item: Option<u32>,
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.item {
            Some(i) => write!(f, "{}[{i}].ref", self.path),
            None => f.write_str(&self.path),
        }
    }
}

/// Read the id and status of a definition file of `kind`.
pub(super) fn load(file: &Arc<SourceFile>, kind: Kind) -> Definition {
    let mut def = Definition {
        kind,
        id: None,
        status: None,
    };
    let Ok(fm) = split_front_matter(&file.text, file.bom_len) else {
        return def;
    };
    let text = file.text.get(fm.yaml.start..fm.yaml.end).unwrap_or("");
    let parsed = yaml::parse(text, fm.yaml.start);
    let Some(root) = parsed.root.as_ref() else {
        return def;
    };
    if let Some(v) = root.value(kind.id_key())
        && let Some(id) = v.as_str()
    {
        def.id = Some(Spanned {
            value: id.to_string(),
            span: v.span(),
        });
    }
    if let Some(v) = root.value("status")
        && let Some(status) = v.as_str().and_then(Status::parse)
    {
        def.status = Some(Spanned {
            value: status,
            span: v.span(),
        });
    }
    def
}

/// The references of an agent's front matter `root` to definitions. A list is read an item
/// at a time: a long list of small refs is held packed, and building its nodes back at once
/// took five times the list.
pub(super) fn references(root: &Node) -> Vec<DefinitionRef> {
    let mut out = Vec::new();
    if let Some(runtime) = root.value("runtime") {
        for key in ["model", "fallback_model"] {
            if let Some(v) = runtime.value(key) {
                let path = Arc::from(format!("runtime.{key}"));
                push_ref(&mut out, Kind::Model, v, Field { path, item: None });
            }
        }
    }
    // `knowledge.refs` (the examples' layout) or `knowledge` as the list itself.
    if let Some(k) = root.value("knowledge") {
        match k.value("refs") {
            Some(r) => push_list(&mut out, Kind::Knowledge, r, "knowledge.refs".to_string()),
            None => push_list(&mut out, Kind::Knowledge, k, "knowledge".to_string()),
        }
    }
    if let Some(entries) = root.value("guardrails").and_then(Node::as_map) {
        for e in entries {
            push_list(
                &mut out,
                Kind::Guardrail,
                &e.value,
                format!("guardrails.{}", e.key),
            );
        }
    }
    out
}

/// The reference `node` holds, if it names an id.
fn push_ref(out: &mut Vec<DefinitionRef>, kind: Kind, node: &Node, field: Field) {
    if let Some(id) = node.as_str().filter(|s| !s.trim().is_empty()) {
        out.push(DefinitionRef {
            kind,
            id: id.into(),
            span: node.span(),
            field,
        });
    }
}

/// The `ref` of each item of `list`, written under `path`; room is made for all at once.
fn push_list(out: &mut Vec<DefinitionRef>, kind: Kind, list: &Node, path: String) {
    let Some(list) = list.as_list() else {
        return;
    };
    out.reserve_exact(list.len());
    let path: Arc<str> = Arc::from(path);
    for (i, item) in list.scan().enumerate() {
        if let Some(v) = item.value("ref") {
            let item = Some(u32::try_from(i).unwrap_or(u32::MAX));
            let field = Field {
                path: Arc::clone(&path),
                item,
            };
            push_ref(out, kind, v, field);
        }
    }
}

/// A definition with an id, and its file.
struct Known<'a> {
    file: &'a Arc<SourceFile>,
    def: &'a Definition,
    id: &'a Spanned<String>,
}

/// REF024–REF026: each agent reference to a knowledge base, model or guardrail against the
/// definitions of the repository. A kind is checked only when the repository defines at
/// least one of it: otherwise the platform's registry holds them, which toolc cannot see.
pub(super) fn resolve_references(results: &[FileResult]) -> Vec<Diagnostic> {
    let mut known: HashMap<(Kind, &str), Known<'_>> = HashMap::new();
    let mut present: HashSet<Kind> = HashSet::new();
    for r in results {
        if let Some(Item::Definition(def)) = r.item.get::<Item>() {
            present.insert(def.kind);
            if let Some(id) = &def.id {
                known.entry((def.kind, id.value.as_str())).or_insert(Known {
                    file: &r.file,
                    def,
                    id,
                });
            }
        }
    }
    if present.is_empty() {
        return Vec::new();
    }
    let mut by_kind: HashMap<Kind, Vec<&str>> = HashMap::new();
    for (kind, id) in known.keys() {
        by_kind.entry(*kind).or_default().push(id);
    }
    for ids in by_kind.values_mut() {
        ids.sort_unstable();
    }
    let mut out = Vec::new();
    // One budget for the run: many agents each naming many unknown ids among many
    // definitions compared every pair.
    let mut budget = SUGGESTION_BUDGET;
    for r in results {
        let Some(Item::Agent(agent)) = r.item.get::<Item>() else {
            continue;
        };
        // Capped per agent as they are found: an agent of millions of refs to unknown
        // definitions built a finding for each.
        let mut found = Findings::default();
        for d in &agent.definitions {
            if !present.contains(&d.kind) {
                continue;
            }
            match known.get(&(d.kind, &*d.id)) {
                None => {
                    if found.counted(&refs::UNREGISTERED_DEFINITION_REF) {
                        continue;
                    }
                    let ids = by_kind.get(&d.kind).map(Vec::as_slice).unwrap_or_default();
                    let hint =
                        did_you_mean_within(&mut budget, &d.id, ids.len(), ids.iter().copied())
                            .and_then(|h| known.get(&(d.kind, h)));
                    found.push(unregistered(&r.file, d, hint));
                }
                Some(k) => {
                    if let Some(d) = status(&r.file, d, k) {
                        found.push(d);
                    }
                }
            }
        }
        out.extend(found.into_vec());
    }
    out
}

fn unregistered(file: &Arc<SourceFile>, d: &DefinitionRef, hint: Option<&Known<'_>>) -> Diagnostic {
    let (suffix, folder) = d.kind.file();
    let what = d.kind.what();
    let diag = Diagnostic::new(
        &refs::UNREGISTERED_DEFINITION_REF,
        file,
        d.span,
        format!("no {what} definition defines `{}` (`{}`)", d.id, d.field),
    )
    .label(format!("unknown {what}"))
    .note(format!("the compiler resolves every {what} an agent names to a `*{suffix}` file, and rejects the agent when none defines it"));
    let fixed = hint.and_then(|k| {
        let fix = replace_exact(file, d.span, &d.id, &k.id.value, Applicability::Unsafe);
        DidYouMean::fixed_by(&k.id.value, fix)
    });
    let diag = match hint {
        Some(k) => diag.related(k.file, k.id.span, format!("did you mean `{}`?", k.id.value)),
        None => diag,
    };
    diag.did_you_mean_or(
        fixed,
        format!(
            "add `{folder}/{}{suffix}` with `{}: \"{}\"`, or name a {what} the repository defines",
            d.id,
            d.kind.id_key(),
            d.id
        ),
    )
}

fn status(file: &Arc<SourceFile>, d: &DefinitionRef, k: &Known<'_>) -> Option<Diagnostic> {
    let s = k.def.status.as_ref()?;
    let what = d.kind.what();
    let (rule, message, note) = match s.value {
        Status::Disabled => (
            &refs::DISABLED_DEFINITION_REF,
            format!(
                "the {what} `{}` is disabled, and this agent still uses it",
                d.id
            ),
            format!(
                "a reference to a disabled {what} is a hard compile error: this agent cannot be compiled"
            ),
        ),
        Status::Deprecated => (
            &refs::DEPRECATED_DEFINITION_REF,
            format!("the {what} `{}` is deprecated", d.id),
            format!(
                "a deprecated {what} still works, but once it is disabled this agent fails to compile"
            ),
        ),
        Status::Active | Status::Draft => return None,
    };
    Some(
        Diagnostic::new(rule, file, d.span, message)
            .label(format!("a `{}` {what}", s.value.as_str()))
            .related(
                k.file,
                s.span,
                format!("`{}` is `{}` here", d.id, s.value.as_str()),
            )
            .note(note)
            .help(format!(
                "move this agent to the {what} that replaces `{}`",
                d.id
            )),
    )
}
