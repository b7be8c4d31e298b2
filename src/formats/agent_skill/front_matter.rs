//! The front matter: the spec's six keys and their types (SKL001, SKL002, SKL005, SKL009),
//! the keys agents add (SKL006, SKL007), the name rule (SKL003, SKL004) and
//! `allowed-tools` (SKL008).

use super::{Cx, Named, REJECTED, allowed_tools, name, rules};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::{Applicability, Diagnostic, Fix};
use crate::formats::fields::{Lowerer, MapRef, ShapeRules, Site, replace_exact};
use crate::formats::front_matter::FrontMatterWording;
use crate::formats::in_value::InValue;
use crate::source::Span;
use crate::syntax::{Node, NodeKind};

static SHAPE: ShapeRules = ShapeRules {
    missing: &rules::MISSING_REQUIRED_FIELD,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::WRONG_FIELD_TYPE,
    length: &rules::FIELD_LENGTH,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// The keys of the spec's table.
pub(super) const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Keys that agents read beyond the spec, each with the agents whose public documentation
/// defines it.
pub(super) const DIALECT_KEYS: &[(&str, &str)] = &[
    ("when_to_use", "Claude Code"),
    ("argument-hint", "Claude Code and VS Code"),
    ("arguments", "Claude Code"),
    ("disable-model-invocation", "Claude Code and VS Code"),
    ("user-invocable", "Claude Code and VS Code"),
    ("disallowed-tools", "Claude Code"),
    ("model", "Claude Code"),
    ("effort", "Claude Code"),
    ("context", "Claude Code"),
    ("agent", "Claude Code"),
    ("hooks", "Claude Code"),
    ("paths", "Claude Code"),
    ("shell", "Claude Code"),
];

/// Longest description, in characters.
const MAX_DESCRIPTION: usize = 1024;
/// Longest compatibility note, in characters.
const MAX_COMPATIBILITY: usize = 500;

/// What the rest of the checks need from the front matter.
#[derive(Debug, Default)]
pub(super) struct Meta {
    /// `name`, normalized, when it is text.
    pub name: Option<Named>,
    /// `description` as written (untrimmed), and its span, when it is text.
    pub description: Option<(String, Span)>,
    /// `license`, when it is text (it may name a bundled file).
    pub license: Option<String>,
}

/// A scalar's text the way the reference validator reads it (its YAML reader gives every
/// scalar as the string written); `None` for a list or mapping.
pub(super) fn scalar_text(cx: &Cx<'_>, node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::String(s) => Some(s.to_string()),
        NodeKind::Seq(_) | NodeKind::Map(_) => None,
        _ => Some(cx.file.slice(node.span()).to_string()),
    }
}

impl Cx<'_> {
    /// Lower the front matter root (`open` is the opening `---` line).
    pub(super) fn front_matter(&mut self, root: &Node, open: Span) -> Meta {
        let mut meta = Meta::default();
        let file = self.file;
        let mut lw = Lowerer::new(file, &SHAPE);
        let Some(map) = lw.as_map(root, open, "") else {
            self.extend_rejected(lw.diags.into_vec());
            return meta;
        };
        self.keys(&mut lw, map);
        let missing = |what: &'static str| Site::default().note(REJECTED).help(what);
        if let Some(e) = lw.required_at(
            map,
            "name",
            missing(
                "add `name:` with the skill's folder name (lowercase letters, digits and hyphens)",
            ),
        ) {
            meta.name = self.name(&mut lw, &e.value);
        }
        if let Some(e) = lw.required_at(
            map,
            "description",
            missing("add `description:` saying what the skill does and when to use it"),
        ) && let Some(text) = self.text_field(&mut lw, &e.value, "description", true)
        {
            let len = text.chars().count();
            if len > MAX_DESCRIPTION {
                let d = lw
                    .diag(
                        &rules::FIELD_LENGTH,
                        e.value.span(),
                        format!("`description` has {len} characters; the spec allows at most {MAX_DESCRIPTION}"),
                    )
                    .label("too long")
                    .note(REJECTED)
                    .help("keep the description to what the skill does and when to use it; move detail into the body");
                lw.push(d);
            }
            meta.description = Some((text, e.value.span()));
        }
        if let Some(e) = map.node.get("license") {
            meta.license = self.text_field(&mut lw, &e.value, "license", false);
        }
        if let Some(e) = map.node.get("compatibility")
            && let Some(text) = self.text_field(&mut lw, &e.value, "compatibility", false)
        {
            self.compatibility(&mut lw, &e.value, &text);
        }
        if let Some(e) = map.node.get("metadata") {
            self.metadata(&mut lw, &e.value);
        }
        if let Some(e) = map.node.get("allowed-tools") {
            self.allowed_tools(&mut lw, &e.value);
        }
        self.diags.extend(lw.diags);
        meta
    }

    /// SKL006 (unknown keys, naming the closest known key) and SKL007 (dialect keys).
    fn keys(&mut self, lw: &mut Lowerer<'_>, map: MapRef<'_>) {
        let known: Vec<&str> = SPEC_KEYS
            .iter()
            .copied()
            .chain(DIALECT_KEYS.iter().map(|(k, _)| *k))
            .collect();
        let before = lw.diags.len();
        lw.unknown_keys_at(
            map,
            &known,
            Site::rule(&rules::UNKNOWN_KEY).note(
                "neither the Agent Skills spec nor a known agent reads this key: the reference validator rejects the skill (`Unexpected fields in frontmatter`), and agents ignore it",
            ),
        );
        for d in &mut lw.diags[before..] {
            if d.help.is_none() {
                let key = self.file.slice(d.span).trim_matches(['"', '\'']);
                d.help = Some(match closest(key, &known) {
                    Some(near) => format!(
                        "the closest known key is `{near}`; keep fields of your own under `metadata:`"
                    ).into(),
                    None => "keep fields of your own under `metadata:`".to_string().into(),
                });
            }
        }
        for e in map.node.as_map().unwrap_or_default() {
            let Some((key, agents)) = DIALECT_KEYS.iter().find(|(k, _)| *k == e.key) else {
                continue;
            };
            let d = lw
                .diag(
                    &rules::DIALECT_KEY,
                    e.key_span(),
                    format!("`{key}` is read by {agents}, not by the Agent Skills spec"),
                )
                .label("agent-specific key")
                .note("the reference validator rejects the skill (`Unexpected fields in frontmatter`) and other agents ignore the key")
                .help("keep it if the skill is only for these agents; turn SKL007 off in `toolc.toml` for such folders");
            lw.push(d);
        }
    }

    /// A string field as the reference reads it: a list or mapping is SKL002, an empty value
    /// (when `required`) SKL001, a number or boolean SKL009.
    fn text_field(
        &self,
        lw: &mut Lowerer<'_>,
        node: &Node,
        key: &str,
        required: bool,
    ) -> Option<String> {
        let Some(text) = scalar_text(self, node) else {
            let d = lw
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    node.span(),
                    format!("`{key}` must be a string, found {}", node.type_name()),
                )
                .label("expected a string")
                .note(REJECTED)
                .help(format!(
                    "write `{key}` as one line of text (quote it if it holds `: `)"
                ));
            lw.push(d);
            return None;
        };
        if required && text.trim().is_empty() {
            let d = lw
                .diag(
                    &rules::MISSING_REQUIRED_FIELD,
                    node.span(),
                    format!("`{key}` is empty"),
                )
                .label("empty")
                .note(REJECTED)
                .help(format!("fill in `{key}`"));
            lw.push(d);
            return None;
        }
        self.unquoted(lw, node, key);
        Some(text)
    }

    /// SKL009: a number or boolean where the spec wants text.
    fn unquoted(&self, lw: &mut Lowerer<'_>, node: &Node, key: &str) {
        if !matches!(node.kind, NodeKind::Number(_) | NodeKind::Bool(_)) {
            return;
        }
        let written = self.file.slice(node.span());
        let d = lw
            .diag(
                &rules::UNQUOTED_SCALAR,
                node.span(),
                format!("`{key}` is written as {}, not a string", node.type_name()),
            )
            .label("unquoted")
            .note(format!(
                "YAML readers give `{written}` to agents as {}, which may not equal the text (`1.10` reads as 1.1)",
                node.type_name()
            ))
            .help(format!("quote it: `\"{written}\"`"))
            .fix(
                Fix::replace(Applicability::Safe, node.span(), format!("\"{written}\""))
                    .with_message(format!("quote `{written}`")),
            );
        lw.push(d);
    }

    /// The name rule (SKL003) and the folder rule (SKL004).
    fn name(&self, lw: &mut Lowerer<'_>, node: &Node) -> Option<Named> {
        let raw = self.text_field(lw, node, "name", true)?;
        let value = name::normalized(&raw);
        let folder = self.folder_name();
        let folder_norm = folder.as_deref().map(name::normalized_folder);
        let valid_folder = folder_norm
            .as_deref()
            .filter(|f| name::problem(f).is_none());
        let invalid = name::problem(&value);
        if let Some(why) = &invalid {
            let suggestion = valid_folder
                .map(str::to_string)
                .or_else(|| name::suggest(&value));
            let d = lw
                .diag(
                    &rules::INVALID_NAME,
                    node.span(),
                    format!("`{value}` is not a valid skill name: {why}"),
                )
                .label("invalid name")
                .note(REJECTED)
                .maybe_help(suggestion.as_ref().map(|s| {
                    if valid_folder == Some(s.as_str()) {
                        format!("write `name: {s}`, the name of the skill's folder")
                    } else {
                        format!("write `name: {s}`")
                    }
                }))
                .maybe_fix(suggestion.and_then(|s| {
                    replace_exact(self.file, node.span(), &raw, &s, Applicability::Unsafe)
                }));
            lw.push(d);
        }
        // An invalid name whose fix is the folder's name is one mistake: SKL003 gives that fix.
        let said = invalid.is_some() && valid_folder.is_some();
        if said {
            // Nothing more to say of this name.
        } else if let (Some(folder), Some(folder_norm)) = (&folder, &folder_norm)
            && *folder_norm != value
        {
            let d = lw
                .diag(
                    &rules::NAME_FOLDER_MISMATCH,
                    node.span(),
                    format!("`name` is `{value}` but the skill's folder is `{folder}`"),
                )
                .label("not the folder's name")
                .note("agents find a skill by its folder and call it by its name: the spec requires them to be equal, and the reference validator rejects the skill")
                .help(match valid_folder {
                    Some(f) => format!("write `name: {f}`, or rename the folder to `{value}`"),
                    None => format!("rename the folder to `{value}`"),
                })
                .maybe_fix(valid_folder.and_then(|f| {
                    replace_exact(self.file, node.span(), &raw, f, Applicability::Unsafe)
                        .map(|fix| fix.with_message(format!("rename the skill to `{f}`")))
                }));
            lw.push(d);
        } else {
            self.portable_name(lw, node, &raw, &value, folder.as_deref());
        }
        Some(Named {
            value,
            span: node.span(),
        })
    }

    /// SKL020: a name the reference accepts only because it trims, normalizes or takes
    /// letters of any script, which agents and linters that read it as written refuse.
    fn portable_name(
        &self,
        lw: &mut Lowerer<'_>,
        node: &Node,
        raw: &str,
        value: &str,
        folder: Option<&str>,
    ) {
        let (message, fix) = if raw != raw.trim() {
            ("`name` has spaces around it".to_string(), Some(value))
        } else if raw != value {
            (
                format!("`{raw}` is the name `{value}` only after Unicode normalization"),
                Some(value),
            )
        } else if !value.is_ascii() {
            (
                format!("`{value}` has characters outside `a-z`, `0-9` and `-`"),
                None,
            )
        } else if let Some(folder) = folder.filter(|f| *f != value) {
            (
                format!(
                    "the folder `{folder}` is named `{value}` only after Unicode normalization"
                ),
                None,
            )
        } else {
            return;
        };
        let d = lw
            .diag(&rules::UNPORTABLE_NAME, node.span(), message)
            .label("not portable")
            .note("the reference validator trims and normalizes the name and takes letters of any script, but the spec, Claude Code and VS Code document `a-z`, `0-9` and `-`, and agents compare names and folders as written")
            .help("write the name, and name the folder, in lowercase ASCII letters, digits and hyphens")
            .maybe_fix(fix.and_then(|v| {
                replace_exact(self.file, node.span(), raw, v, Applicability::Safe)
            }));
        lw.push(d);
    }

    /// SKL005 for `compatibility`: 1–500 characters when given.
    fn compatibility(&self, lw: &mut Lowerer<'_>, node: &Node, text: &str) {
        let len = text.chars().count();
        let message = if text.trim().is_empty() {
            "`compatibility` is empty; the spec wants 1–500 characters when it is given".to_string()
        } else if len > MAX_COMPATIBILITY {
            format!(
                "`compatibility` has {len} characters; the spec allows at most {MAX_COMPATIBILITY}"
            )
        } else {
            return;
        };
        let mut d = lw
            .diag(&rules::FIELD_LENGTH, node.span(), message)
            .label(if len > MAX_COMPATIBILITY { "too long" } else { "empty" })
            .help("say in a sentence what the skill needs (product, packages, network), or drop the key");
        if len > MAX_COMPATIBILITY {
            d = d.note(REJECTED);
        }
        lw.push(d);
    }

    /// SKL002 and SKL009 for `metadata`: a mapping of strings to strings.
    fn metadata(&self, lw: &mut Lowerer<'_>, node: &Node) {
        let Some(entries) = node.entries() else {
            if matches!(node.kind, NodeKind::Null) {
                return;
            }
            let d = lw
                .diag(
                    &rules::WRONG_FIELD_TYPE,
                    node.span(),
                    format!(
                        "`metadata` must be a mapping of strings, found {}",
                        node.type_name()
                    ),
                )
                .label("expected a mapping")
                .note("clients read `metadata` as key-value pairs: anything else is lost")
                .help("write one `key: value` pair per line under `metadata:`");
            lw.push(d);
            return;
        };
        for e in entries.scan() {
            let nested = e.value.as_list().is_some() || e.value.entries().is_some();
            // Past the rule's cap, counted without a finding (or its path) built for it.
            if nested && lw.diags.counted(&rules::WRONG_FIELD_TYPE) {
                continue;
            }
            let path = format!("metadata.{}", e.key);
            if nested {
                let d = lw
                    .diag(
                        &rules::WRONG_FIELD_TYPE,
                        e.value.span(),
                        format!("`{path}` must be a string, found {}", e.value.type_name()),
                    )
                    .label("expected a string")
                    .note("the spec's `metadata` maps strings to strings: nested values reach clients as their text, if at all")
                    .help("flatten it into string values (`author-email: …`)");
                lw.push(d);
            } else {
                self.unquoted(lw, &e.value, &path);
            }
        }
    }

    /// SKL008 (and SKL002 for a mapping): `allowed-tools` entries.
    fn allowed_tools(&self, lw: &mut Lowerer<'_>, node: &Node) {
        match &node.kind {
            NodeKind::Seq(items) => {
                let d = lw
                    .diag(
                        &rules::MALFORMED_ALLOWED_TOOLS,
                        node.span(),
                        "`allowed-tools` is a list; the spec makes it one space-separated string",
                    )
                    .label("a list")
                    .note("Claude Code reads a list too, but agents that follow the spec read a string")
                    .help("write the entries on one line, separated by spaces: `allowed-tools: Read Grep`");
                lw.push(d);
                // Read where a long list packed them, without building a node for each.
                for item in items.scan() {
                    let item = &*item;
                    match scalar_text(self, item) {
                        Some(text) => self.tool_entries(lw, item, &text),
                        None => lw.wrong_type(item, "allowed-tools[]", "a string"),
                    }
                }
            }
            NodeKind::Map(_) => lw.wrong_type(node, "allowed-tools", "a space-separated string"),
            _ => {
                let text = scalar_text(self, node).unwrap_or_default();
                if text.trim().is_empty() {
                    let d = lw
                        .diag(
                            &rules::MALFORMED_ALLOWED_TOOLS,
                            node.span(),
                            "`allowed-tools` is empty",
                        )
                        .label("no tools")
                        .help("list the tools the skill may use without asking, or drop the key");
                    lw.push(d);
                    return;
                }
                self.tool_entries(lw, node, &text);
            }
        }
    }

    /// SKL008 for the entries of one string: capped as they are found, each placed from the
    /// value's one reading (a value of 50,000 bad entries searched it from its start for
    /// each: 10 s).
    fn tool_entries(&self, lw: &mut Lowerer<'_>, node: &Node, text: &str) {
        let rule = &rules::MALFORMED_ALLOWED_TOOLS;
        let mut place = InValue::new(self.file, node);
        for p in allowed_tools::parse(text) {
            if lw.diags.counted(rule) {
                continue;
            }
            let span = place.span(p.start, &text[p.start..p.end]);
            let comma = p.is_comma();
            let d = lw
                .diag(rule, span, p.message(text))
                .label(p.label())
                .note("an agent that cannot read an entry grants nothing for it: the skill then stops to ask for permission")
                .help(if comma {
                    "separate entries with spaces (`Read Grep Bash(git:*)`)"
                } else {
                    "write each entry as `Tool` or `Tool(pattern)` (`Bash(git diff *)`)"
                })
                .maybe_fix(comma.then(|| {
                    replace_exact(
                        self.file,
                        node.span(),
                        text,
                        &allowed_tools::without_commas(text),
                        Applicability::Safe,
                    )
                    .map(|f| f.with_message("separate the entries with spaces"))
                })
                .flatten());
            lw.push(d);
        }
    }

    /// The skill folder's name, when it has one.
    fn folder_name(&self) -> Option<String> {
        self.root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
    }

    /// Record diagnostics that make the reference validator reject the skill.
    fn extend_rejected(&mut self, diags: Vec<Diagnostic>) {
        self.diags.extend(diags.into_iter().map(|d| {
            if d.notes.is_empty() {
                d.note(REJECTED)
            } else {
                d
            }
        }));
    }
}

/// The known key closest to `key`, however far.
fn closest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    did_you_mean(key, known.iter().copied()).or_else(|| {
        let lower = key.to_ascii_lowercase();
        known
            .iter()
            .map(|k| (strsim::jaro_winkler(&lower, k), *k))
            .filter(|(score, _)| *score > 0.5)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, k)| k)
    })
}

/// How SYN010/SYN011 read for a skill.
pub(super) const FRONT_MATTER: FrontMatterWording<'static> = FrontMatterWording {
    what: "a `SKILL.md`",
    consequence: "agents read a skill's `name` and `description` from its front matter: without it the skill is not loaded, and the reference validator rejects it",
    missing_help: "start the file with `---`, then `name: <folder name>` and `description: <what it does and when to use it>`, then `---`",
    unclosed_help: "add a `---` line after the last key, before the instructions",
};
