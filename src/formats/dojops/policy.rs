//! `.dojops/policy.yaml`: allowlist / blocklist of skills (and, before DojOps 1.1.0, tools).
//!
//! What DojOps does with the file, which these checks follow (`loadSkillPolicy` and
//! `isSkillAllowed` of its `skill-registry`):
//! - a missing, empty or unparsable file (YAML error, duplicate key, several documents) is no
//!   policy at all: everything is allowed ("default-open");
//! - the allowlist is `allowedSkills ?? allowedTools ?? allowedPlugins` and the blocklist
//!   `blockedModules ?? blockedTools ?? blockedPlugins`: an older key is read only when every
//!   newer one is absent or null, and the chosen value is used only when it is a list;
//! - entries that are not strings are dropped; names are compared exactly;
//! - a blocked name is denied; with a non-empty allowlist only the listed names are allowed.
//!
//! An empty (or comment-only) policy file is not reported: DojOps reads it as "no policy",
//! exactly like a missing file, which is a legitimate way to say "allow everything".

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{Item, Member, Name, SHAPE};
use crate::analysis::names::{NameOrder, did_you_mean};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::formats::fields::{Lowerer, MapRef, rename_key};
use crate::formats::format::{FileResult, syntax_diagnostics};
use crate::formats::item::Item as FileItem;
use crate::rules::dojops as rules;
use crate::rules::syntax as syn;
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind, seq};

use crate::runtimes::dojops::{
    POLICY_ALLOWED_KEYS as ALLOWED_KEYS, POLICY_BLOCKED_KEYS as BLOCKED_KEYS,
};

/// Names that look like list keys but that current DojOps does not read, with the key it
/// reads instead: the two lists were renamed differently (`allowedSkills`, `blockedModules`),
/// and `allowedModules` was read only between the two renames.
const CROSS_NAMED: &[(&str, &str)] = &[
    ("allowedModules", "allowedSkills"),
    ("blockedSkills", "blockedModules"),
];

/// More related spans than this on one DOJ017 diagnostic would bury the output; the message
/// still counts every left-out tool.
const MAX_RELATED: usize = 50;
/// Names spelled out in a DOJ017 message before "and N more".
const MAX_NAMED: usize = 5;
/// "Did you mean" over every project name is quadratic; above this many comparisons the
/// suggestions are skipped so a huge project stays fast.
const MAX_SUGGESTION_WORK: usize = 2_000_000;

/// One list of a policy, as DojOps uses it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct NameList {
    /// The key the list came from (`allowedTools` or legacy `allowedPlugins`, …).
    #[serde(with = "crate::formats::item::static_str")]
    pub key: crate::formats::item::StaticStr,
    /// Span of that key.
    pub key_span: Span,
    /// The string entries, in order (non-strings are dropped, as DojOps drops them).
    pub entries: Vec<Name>,
}

impl NameList {
    /// The list in name order, to look names up: four bytes an entry, where a map of its
    /// names took about forty (two lists of 300,000 names: 25 MB).
    pub(crate) fn sorted(&self) -> Sorted<'_> {
        Sorted {
            order: NameOrder::new(self.entries.len(), |i| self.name(i)),
            list: self,
        }
    }

    fn name(&self, i: u32) -> &str {
        self.entries
            .get(i as usize)
            .map_or("", |n| n.value.as_str())
    }
}

/// A [`NameList`] in name order ([`NameList::sorted`]).
#[derive(Debug)]
pub(crate) struct Sorted<'a> {
    order: NameOrder,
    list: &'a NameList,
}

impl<'a> Sorted<'a> {
    /// The first entry that is `name`.
    pub(crate) fn first(&self, name: &str) -> Option<&'a Name> {
        let list = self.list;
        let at = self.order.first(name, |i| list.name(i))?;
        list.entries.get(at)
    }

    /// True when an entry is `name`.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.first(name).is_some()
    }
}

/// A lowered policy: the lists DojOps would apply.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Policy {
    /// The allowlist in force, if any (it may be empty: then it allows everything).
    pub allowed: Option<NameList>,
    /// The blocklist in force, if any.
    pub blocked: Option<NameList>,
    /// False when DojOps cannot load the file at all and ignores it (syntax errors).
    pub in_force: bool,
}

/// Parse and lower a policy file.
pub(crate) fn load(file: Arc<SourceFile>) -> FileResult {
    if only_comments(file.body()) {
        // No document at all is DojOps's "no policy", not a syntax error of this file.
        let policy = Policy {
            in_force: true,
            ..Policy::default()
        };
        return FileResult::new(file, Vec::new(), FileItem::new(Item::Policy(policy)));
    }
    let parsed = crate::syntax::yaml::parse(file.body(), file.bom_len);
    let mut diagnostics: Vec<Diagnostic> = syntax_diagnostics(&file, &parsed)
        .into_iter()
        .map(|d| {
            let unloadable = [&syn::INVALID_YAML, &syn::DUPLICATE_KEY, &syn::MULTIPLE_DOCUMENTS].contains(&d.rule);
            if unloadable { d.note("DojOps cannot load this policy and ignores it: every tool is allowed and none is blocked") } else { d }
        })
        .collect();
    let mut policy = Policy {
        in_force: parsed.errors.is_empty(),
        ..Policy::default()
    };
    if let Some(root) = &parsed.root {
        let mut lower = Lowerer::new(&file, &SHAPE);
        lower_root(&mut lower, root, &mut policy);
        diagnostics.extend(std::mem::take(&mut lower.diags));
    }
    FileResult::new(file, diagnostics, FileItem::new(Item::Policy(policy)))
}

impl Policy {
    /// The lists as sets, to ask about many tools (what DojOps's `isToolAllowed` decides).
    pub(crate) fn lookup(&self) -> Lookup<'_> {
        Lookup {
            blocked: self.blocked.as_ref().map(NameList::sorted),
            blocked_key: self.blocked.as_ref().map_or(BLOCKED_KEYS[0], |l| l.key),
            allowed_key: self.allowed.as_ref().map_or(ALLOWED_KEYS[0], |l| l.key),
            // An empty allowlist allows everything.
            allowed: self
                .allowed
                .as_ref()
                .filter(|l| !l.entries.is_empty())
                .map(|l| (l.sorted(), l.key_span)),
        }
    }
}

/// A policy's lists in force, in name order.
#[derive(Debug, Default)]
pub(crate) struct Lookup<'a> {
    blocked: Option<Sorted<'a>>,
    blocked_key: &'a str,
    allowed: Option<(Sorted<'a>, Span)>,
    allowed_key: &'a str,
}

impl Lookup<'_> {
    /// Why DojOps refuses tool `name` and where the policy says so (the blocklist is checked
    /// first): the blocklist entry, or the key of the allowlist that does not name it.
    pub(crate) fn refusal(&self, name: &str) -> Option<(String, Span)> {
        if let Some(entry) = self.blocked.as_ref().and_then(|b| b.first(name)) {
            Some((
                format!(
                    "blocked by the project's .dojops/policy.yaml (`{}`)",
                    self.blocked_key
                ),
                entry.span,
            ))
        } else if let Some((allowed, key_span)) = &self.allowed
            && !allowed.contains(name)
        {
            Some((
                format!(
                    "not in `{}` of the project's .dojops/policy.yaml",
                    self.allowed_key
                ),
                *key_span,
            ))
        } else {
            None
        }
    }
}

/// True when `text` holds nothing but blank lines and `#` comments.
fn only_comments(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    })
}

fn lower_root(lower: &mut Lowerer<'_>, root: &Node, policy: &mut Policy) {
    if matches!(root.kind, NodeKind::Null) {
        return;
    }
    let (allow, block) = (ALLOWED_KEYS[0], BLOCKED_KEYS[0]);
    if root.entries().is_none() {
        let d = lower
            .diag(&rules::WRONG_FIELD_TYPE, root.span(), format!("a policy must be a mapping with `{allow}` and/or `{block}`, found {}", root.type_name()))
            .label("expected a mapping")
            .note("DojOps finds no lists in it and applies no policy: every skill is allowed and none is blocked")
            .help(format!("write the lists under keys, e.g. `{allow}: [my-skill]` or `{block}: [untrusted-skill]`"));
        lower.push(d);
        return;
    }
    let map = MapRef {
        node: root,
        anchor: root.span(),
        path: "",
    };
    cross_named_keys(lower, root);
    let known: Vec<&str> = ALLOWED_KEYS
        .iter()
        .chain(BLOCKED_KEYS)
        .copied()
        .chain(CROSS_NAMED.iter().map(|(k, _)| *k))
        .collect();
    lower.unknown_keys(
        map,
        &known,
        "DojOps ignores this key: it neither allows nor blocks any skill",
    );
    policy.allowed = list_in_force(lower, root, ALLOWED_KEYS);
    policy.blocked = list_in_force(lower, root, BLOCKED_KEYS);
}

/// DOJ007 on a list key current DojOps does not read although it looks like one of its own
/// (`blockedSkills`): the list is silently not applied.
fn cross_named_keys(lower: &mut Lowerer<'_>, root: &Node) {
    for (key, read) in CROSS_NAMED {
        let Some(e) = root.get(key) else { continue };
        let list = if ALLOWED_KEYS.contains(read) {
            "allowlist"
        } else {
            "blocklist"
        };
        let mut d = lower
            .diag(&rules::UNKNOWN_KEY, e.key_span(), format!("unknown key `{key}`: DojOps reads its {list} from `{read}`"))
            .label("not read by DojOps")
            .note(format!("DojOps names the allowlist `{}` and the blocklist `{}`: none of the entries under `{key}` take effect", ALLOWED_KEYS[0], BLOCKED_KEYS[0]));
        if root.get(read).is_none() {
            d = d.help(format!("rename it to `{read}`")).fix(rename_key(
                lower.file,
                e.key_span(),
                read,
            ));
        } else {
            d = d.help(format!("move its entries into `{read}` and delete `{key}`"));
        }
        lower.push(d);
    }
}

/// The list DojOps uses for the first present of `keys` (a null value counts as absent),
/// diagnosing a shadowed older key, a value that is not a list, and entries that are not
/// strings.
fn list_in_force(
    lower: &mut Lowerer<'_>,
    root: &Node,
    keys: &'static [&'static str],
) -> Option<NameList> {
    let mut present = keys.iter().filter_map(|k| {
        root.get(k)
            .filter(|e| !matches!(e.value.kind, NodeKind::Null))
            .map(|e| (e, *k))
    });
    let (chosen, chosen_key) = present.next()?;
    for (old, old_key) in present {
        let d = lower
            .diag(&rules::UNKNOWN_KEY, old.key_span(), format!("`{old_key}` is ignored because `{chosen_key}` is also set"))
            .label("ignored older key")
            .related(lower.file, chosen.key_span(), format!("DojOps reads `{chosen_key}` instead"))
            .note(format!("DojOps reads `{old_key}` only when `{chosen_key}` is absent; none of its entries take effect"))
            .help(format!("move its entries into `{chosen_key}` and delete `{old_key}`"));
        lower.push(d);
    }
    let Some(items) = chosen.value.as_list() else {
        // A list value stops the fallback even when it is not a list: DojOps then applies none.
        let effect = if keys == ALLOWED_KEYS {
            "no allowlist applies and every skill is allowed"
        } else {
            "no skill is blocked"
        };
        let fix = match chosen.value.as_str() {
            Some(name) => format!("write it as a list: `{chosen_key}: [{name}]`"),
            None => format!("write a list of skill names: `{chosen_key}: [my-skill]`"),
        };
        let d = lower
            .diag(
                &rules::WRONG_FIELD_TYPE,
                chosen.value.span(),
                format!(
                    "`{chosen_key}` must be a list of skill names, found {}",
                    chosen.value.type_name()
                ),
            )
            .label("expected a list")
            .note(format!(
                "DojOps ignores `{chosen_key}` unless it is a list: {effect}"
            ))
            .help(fix);
        lower.push(d);
        return None;
    };
    let mut entries = Vec::with_capacity(items.len());
    // Read where the list is (a long list of names is packed: its nodes are never built).
    for (i, item) in items.items().enumerate() {
        let item = match item {
            seq::Item::Str(s, span) => {
                entries.push(Name {
                    value: s.into(),
                    span,
                });
                continue;
            }
            seq::Item::Other(item) => item,
        };
        let help = match &item.kind {
            NodeKind::Null => "remove the empty entry".to_string(),
            NodeKind::Map(_) | NodeKind::Seq(_) => {
                "write the tool name itself, one per entry".to_string()
            }
            _ => format!(
                "quote it if it is a tool name: `\"{}\"`",
                lower.file.slice(item.span())
            ),
        };
        let d = lower
            .diag(
                &rules::WRONG_FIELD_TYPE,
                item.span(),
                format!(
                    "`{chosen_key}[{i}]` must be a skill name (a string), found {}",
                    item.type_name()
                ),
            )
            .label("not a string")
            .note("DojOps drops entries that are not strings: this one names no tool")
            .help(help);
        lower.push(d);
    }
    Some(NameList {
        key: chosen_key,
        key_span: chosen.key_span(),
        entries,
    })
}

/// Checks of a policy against the project's tools and skills: DOJ016, DOJ017, DOJ018.
pub(crate) fn resolve(
    file: &Arc<SourceFile>,
    policy: &Policy,
    members: &[Member<'_>],
) -> Vec<Diagnostic> {
    if !policy.in_force {
        return Vec::new();
    }
    let mut out = Vec::new();
    // A policy written with the current key names is one for DojOps 1.1.0 and later, which
    // load no `tool.yaml` tool: those are not members it allows or blocks (DOJ024 says they
    // are not loaded at all). With the 1.0 names, they are.
    let current = policy
        .allowed
        .as_ref()
        .is_some_and(|l| l.key == ALLOWED_KEYS[0]);
    let loaded: Vec<Member<'_>> = members
        .iter()
        .filter(|m| !current || m.file.format != crate::source::FormatId::DojopsTool)
        .map(|m| Member {
            file: m.file,
            name: m.name,
        })
        .collect();
    let members = loaded.as_slice();
    let defined: HashMap<&str, &Member<'_>> = members
        .iter()
        .rev()
        .map(|m| (m.name.value.as_str(), m))
        .collect();
    let blocked = policy.blocked.as_ref().map(NameList::sorted);
    if let Some(allowed) = &policy.allowed {
        out.extend(unknown_allowed(file, allowed, members, &defined));
        out.extend(allowed_and_blocked(file, allowed, &blocked));
        let blocked_key = policy.blocked.as_ref().map_or(BLOCKED_KEYS[0], |l| l.key);
        out.extend(left_out(file, allowed, members, &blocked, blocked_key));
    }
    out
}

/// DOJ016: allowlist entries that match no tool or skill of the project. Blocklist entries are
/// not checked: blocking a global skill (`~/.dojops/skills/`) the project does not define is
/// a legitimate use of the blocklist.
fn unknown_allowed(
    file: &Arc<SourceFile>,
    allowed: &NameList,
    members: &[Member<'_>],
    defined: &HashMap<&str, &Member<'_>>,
) -> Vec<Diagnostic> {
    let unknown: Vec<&Name> = allowed
        .entries
        .iter()
        .filter(|n| !defined.contains_key(n.value.as_str()))
        .collect();
    let suggest = unknown.len().saturating_mul(members.len()) <= MAX_SUGGESTION_WORK;
    // Capped as they are found: an allowlist of a million entries built a finding for each
    // before the file's cap dropped them.
    let mut found = Findings::default();
    for n in unknown {
        if found.counted(&rules::POLICY_UNKNOWN_TOOL) {
            continue;
        }
        let d = Diagnostic::new(&rules::POLICY_UNKNOWN_TOOL, file, n.span, format!("`{}` in `{}` matches no tool of this project", n.value, allowed.key))
            .label("no tool or skill has this name")
            .note("DojOps compares names exactly: this entry allows nothing, and the tool it was meant for stays blocked");
        let hint = if suggest {
            did_you_mean(&n.value, members.iter().map(|m| m.name.value.as_str()))
        } else {
            None
        };
        found.push(match hint.and_then(|h| defined.get(h)) {
            Some(m) => d
                .related(m.file, m.name.span, format!("did you mean `{}`?", m.name.value))
                .help(format!("replace it with `{}`, the name the tool declares", m.name.value)),
            None => d.help("remove the entry, or fix it to a skill's `name`; if it names a global skill (`~/.dojops/skills/`), suppress this warning with `# toolc: ignore DOJ016 -- global skill`"),
        });
    }
    found.into_vec()
}

/// DOJ018: a name both allowed and blocked; DojOps checks the blocklist first, so it is denied.
fn allowed_and_blocked(
    file: &Arc<SourceFile>,
    allowed: &NameList,
    blocked: &Option<Sorted<'_>>,
) -> Vec<Diagnostic> {
    // Capped as they are found, as DOJ016 is (two lists of 2 million names: 3.8 GB).
    let rule = &rules::POLICY_ALLOWED_AND_BLOCKED;
    let mut found = Findings::default();
    let Some(blocked) = blocked else {
        return Vec::new();
    };
    for n in &allowed.entries {
        let Some(b) = blocked.first(n.value.as_str()) else {
            continue;
        };
        if found.counted(rule) {
            continue;
        }
        let said = format!("`{}` is both allowed and blocked", n.value);
        found.push(
            Diagnostic::new(rule, file, n.span, said)
                .label("has no effect")
                .related(file, b.span, "blocked here")
                .note("DojOps checks the blocklist first: the tool is blocked")
                .help(format!(
                    "delete `{}` from the list where it does not belong",
                    n.value
                )),
        );
    }
    found.into_vec()
}

/// DOJ017: in allowlist mode (a non-empty allowlist), the project's tools it does not name are
/// blocked. Tools the blocklist names are left out on purpose and not counted.
fn left_out(
    file: &Arc<SourceFile>,
    allowed: &NameList,
    members: &[Member<'_>],
    blocked: &Option<Sorted<'_>>,
    blocked_key: &str,
) -> Option<Diagnostic> {
    if allowed.entries.is_empty() {
        return None;
    }
    let listed = allowed.sorted();
    let missing: Vec<&Member<'_>> = members
        .iter()
        .filter(|m| {
            let name = m.name.value.as_str();
            !listed.contains(name) && !blocked.as_ref().is_some_and(|b| b.contains(name))
        })
        .collect();
    let mut names: Vec<&str> = Vec::new();
    let mut seen = HashSet::new();
    for m in &missing {
        if seen.insert(m.name.value.as_str()) {
            names.push(&m.name.value);
        }
    }
    let (first, rest) = names.split_first()?;
    let message = if rest.is_empty() {
        format!(
            "`{}` leaves out `{first}`, a tool of this project, so DojOps blocks it",
            allowed.key
        )
    } else {
        let shown: Vec<String> = names
            .iter()
            .take(MAX_NAMED)
            .map(|n| format!("`{n}`"))
            .collect();
        let more = names.len().saturating_sub(MAX_NAMED);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        format!(
            "`{}` leaves out {} tools of this project, so DojOps blocks them: {}{tail}",
            allowed.key,
            names.len(),
            shown.join(", ")
        )
    };
    let fix = if rest.is_empty() {
        format!("`- {first}`")
    } else {
        "them".to_string()
    };
    let mut d = Diagnostic::new(&rules::POLICY_BLOCKS_PROJECT_TOOLS, file, allowed.key_span, message)
        .label("allowlist mode: only the listed tools load")
        .note(format!("with a non-empty `{}`, DojOps loads only the tools it lists and skips the others without a word", allowed.key))
        .help(format!("add {fix} to `{}`; to block only some tools, list those in `{}` and drop the allowlist", allowed.key, blocked_key));
    for m in missing.iter().take(MAX_RELATED) {
        d = d.related(
            m.file,
            m.name.span,
            format!("`{}` is defined here and is not allowed", m.name.value),
        );
    }
    if missing.len() > MAX_RELATED {
        d = d.note(format!(
            "{} more definitions are left out and not shown",
            missing.len() - MAX_RELATED
        ));
    }
    Some(d)
}

#[cfg(test)]
mod tests;
