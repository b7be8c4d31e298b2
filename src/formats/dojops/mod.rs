//! DojOps: `tool.yaml` (spec 1), `.dops` v2 skills and `.dojops/policy.yaml`.
//!
//! Name scope is one `.dojops/` project: tools and skills of one project share a registry,
//! and the policy of that project applies to them.

pub(crate) mod doc;
pub(crate) mod dops;
pub(crate) mod ir;
mod outline;
pub(crate) mod policy;
#[cfg(test)]
mod scale_tests;
mod schema_file;
mod texts;
pub(crate) mod tool_yaml;
pub(crate) mod zod;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::fields::{Lowerer, replace_scalar};
use crate::analysis::names::{FirstChar, Leading, NameStyle, suggest_valid_name};
use crate::analysis::registry;
use crate::diagnostics::{Applicability, Diagnostic};
use crate::formats::format::{FileResult, Format};
use crate::fs::FileSystem;
use crate::ir::Sink;
use crate::rules::dojops as rules;
use crate::runtimes::Releases;
use crate::source::{FormatId, SourceFile, Span};

/// The shape rules every DojOps file shares (missing, wrong type, bad value, length, unknown key).
pub(crate) static SHAPE: crate::formats::fields::ShapeRules = crate::formats::fields::ShapeRules {
    missing: &rules::MISSING_REQUIRED_FIELD,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_ENUM_VALUE,
    length: &rules::INVALID_FIELD_LENGTH,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// Where a DojOps name is written: `tool.yaml` and `.dops` validate names with different
/// patterns (`^[a-z0-9-]+$` and `^[a-z][a-z0-9-]*$`), both 1 to 64 characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameKind {
    /// A `tool.yaml` `name`.
    Tool,
    /// A `.dops` `meta.name`.
    Skill,
    /// A `.dops` `dependencies[].skill`, which names a skill.
    Dependency,
}

/// Longest tool or skill name DojOps accepts.
const MAX_NAME_LEN: usize = 64;

impl NameKind {
    fn is_tool(self) -> bool {
        self == NameKind::Tool
    }

    /// The nearest name the pattern accepts (possibly empty, or the name itself).
    pub(crate) fn suggest(self, name: &str) -> String {
        suggest_valid_name(name, &self.style())
    }

    fn style(self) -> NameStyle {
        NameStyle {
            keep: |c| c.is_ascii_lowercase() || c.is_ascii_digit(),
            lowercase: true,
            replacement: '-',
            collapse: true,
            first: (!self.is_tool()).then_some(FirstChar {
                may_start: |c| c.is_ascii_lowercase(),
                otherwise: Leading::Drop,
            }),
            max_len: MAX_NAME_LEN,
        }
    }

    fn matches(self, name: &str) -> bool {
        let mut chars = name.chars();
        let rest_ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
        if self.is_tool() {
            chars.all(rest_ok)
        } else {
            chars.next().is_none_or(|c| c.is_ascii_lowercase()) && chars.all(rest_ok)
        }
    }
}

/// The one validator of DojOps tool and skill names: a length defect (empty, over 64
/// characters) is DOJ006, a pattern defect DOJ003; a name can have both. `path` is the
/// field (`name`, `meta.name`). True when the name is valid.
pub(crate) fn check_name(
    lw: &mut Lowerer<'_>,
    kind: NameKind,
    path: &str,
    name: &str,
    span: Span,
) -> bool {
    let len = name.chars().count();
    lw.check_len(span, path, len, 1, MAX_NAME_LEN, "characters");
    let length_ok = (1..=MAX_NAME_LEN).contains(&len);
    if kind.matches(name) {
        return length_ok;
    }
    let what = match kind {
        NameKind::Tool => "tool name",
        NameKind::Skill => "skill name",
        NameKind::Dependency => "dependency",
    };
    let fixed = kind.suggest(name);
    let mut d = lw
        .diag(
            &rules::INVALID_TOOL_NAME,
            span,
            format!("{what} `{name}` is not lowercase kebab-case"),
        )
        .label(if kind.is_tool() {
            "must match ^[a-z0-9-]+$"
        } else {
            "must match `^[a-z][a-z0-9-]*$`"
        });
    d = match kind {
        NameKind::Tool => d.note("DojOps skips a tool with an invalid manifest without any error"),
        NameKind::Skill => d.note(
            "DojOps refuses to load a skill whose name breaks the rule, so it is never available",
        ),
        NameKind::Dependency => d,
    };
    d = if fixed.is_empty() || fixed == name {
        d.help(if kind.is_tool() {
            "use 1 to 64 lowercase letters, digits and hyphens"
        } else {
            "use 1 to 64 lowercase letters, digits and hyphens, starting with a letter"
        })
    } else {
        d.help(format!("rename it to `{fixed}`"))
            .fix(replace_scalar(lw.file, span, &fixed, Applicability::Unsafe))
    };
    lw.push(d);
    false
}

/// A lowered DojOps file.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Item {
    /// A `tool.yaml` manifest.
    Tool(tool_yaml::Tool),
    /// A `.dops` skill (boxed: it is larger than a manifest, and every manifest's item
    /// would be as large).
    Skill(Box<dops::Skill>),
    /// A `.dojops/policy.yaml`.
    Policy(policy::Policy),
}

impl Item {
    /// Tool definitions in this item.
    pub(crate) fn tool_count(&self) -> usize {
        usize::from(!matches!(self, Item::Policy(_)))
    }
}

/// A tool or skill name with where it is written.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Name {
    /// The name (inline up to 24 bytes: a policy of a million names held a heap string for
    /// each).
    pub value: compact_str::CompactString,
    /// The span of the name's value.
    pub span: Span,
}

/// The scope DojOps loads together, which cross-file checks (duplicate names, policy, skill
/// dependencies) run within: the nearest `.dojops` ancestor; outside any `.dojops/` folder, a
/// `.dops` skill's own folder (catalog repositories keep skills of the same name in separate
/// category folders, which no project loads together) and, for a manifest found through an
/// include pattern, the folder above the tool's own folder.
pub(crate) fn project_of(path: &Path) -> PathBuf {
    // The usual case, as text: every file of a repository is asked about.
    if let Some(text) = path.to_str()
        && let Some(at) = text.rfind("/.dojops/")
        && !text.ends_with("/.dojops")
        && !text.contains("/./")
        && !text.contains("/../")
    {
        return PathBuf::from(&text[..at + "/.dojops".len()]);
    }
    if let Some(project) = path
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == ".dojops"))
    {
        return project.to_path_buf();
    }
    let is_skill = path.extension().is_some_and(|e| e == "dops");
    let folder = path.parent();
    let scope = if is_skill {
        folder
    } else {
        folder.and_then(Path::parent)
    };
    scope.map(Path::to_path_buf).unwrap_or_default()
}

/// Parse and lower one DojOps file; a manifest's schema files are read through `fs` (and
/// validated when `passes` say so).
pub(crate) fn load(
    file: Arc<SourceFile>,
    fs: &dyn FileSystem,
    passes: crate::security::Passes,
) -> FileResult {
    match file.format {
        FormatId::DojopsTool => tool_yaml::load(file, fs, passes),
        FormatId::DojopsDops => dops::load(file, passes),
        _ => policy::load(file),
    }
}

/// The DojOps family: `tool.yaml`, `.dops` skills and `.dojops/policy.yaml`.
pub(crate) struct Dojops;

impl Format for Dojops {
    fn patterns(&self) -> &'static [(FormatId, &'static [&'static str])] {
        &[
            (
                FormatId::DojopsTool,
                &[
                    "**/.dojops/tools/*/tool.yaml",
                    "**/.dojops/tools/*/plugin.yaml",
                    "**/.dojops/plugins/*/tool.yaml",
                    "**/.dojops/plugins/*/plugin.yaml",
                    "**/.dojops/modules/*/tool.yaml",
                    "**/.dojops/modules/*/plugin.yaml",
                ],
            ),
            (FormatId::DojopsDops, &["**/*.dops"]),
            (FormatId::DojopsPolicy, &["**/.dojops/policy.yaml"]),
        ]
    }

    fn by_name(&self, path: &Path) -> Option<FormatId> {
        let name = path.file_name()?.to_str()?;
        match name {
            "tool.yaml" | "plugin.yaml" => Some(FormatId::DojopsTool),
            "policy.yaml" if path.parent()?.file_name()? == ".dojops" => {
                Some(FormatId::DojopsPolicy)
            }
            _ if name.ends_with(".dops") => Some(FormatId::DojopsDops),
            _ => None,
        }
    }

    fn cache(&self) -> Option<crate::formats::item::ItemCodec> {
        Some(crate::formats::item::ItemCodec::of::<Item>())
    }

    fn load(
        &self,
        file: Arc<SourceFile>,
        fs: &dyn FileSystem,
        passes: crate::security::Passes,
    ) -> FileResult {
        load(file, fs, passes)
    }

    fn resolve(&self, results: &[FileResult], _fs: &dyn FileSystem) -> Vec<Diagnostic> {
        resolve(results)
    }

    fn tool_count(&self, r: &FileResult) -> usize {
        // A manifest or skill that could not be read still stands for one tool.
        r.item.get::<Item>().map_or(
            usize::from(r.file.format != FormatId::DojopsPolicy),
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
            Item::Skill(s) => Some(&s.texts),
            Item::Policy(_) => None,
        }
    }

    fn texts_mut<'r>(
        &self,
        r: &'r mut FileResult,
    ) -> Option<&'r mut crate::security::texts::FileTexts> {
        match r.item.get_mut::<Item>()? {
            Item::Tool(t) => Some(&mut t.texts),
            Item::Skill(s) => Some(&mut s.texts),
            Item::Policy(_) => None,
        }
    }

    fn outline(&self, r: &FileResult) -> crate::formats::outline::Outline {
        outline::outline(r)
    }
}

/// A tool or skill of a project, for cross-file checks.
pub(crate) struct Member<'a> {
    /// Its file.
    pub file: &'a Arc<SourceFile>,
    /// Its name.
    pub name: &'a Name,
}

/// Cross-file checks, per `.dojops/` project: duplicate names, policy, skill dependencies;
/// and, for each manifest and each skill outside `.dojops/skills/`, that current DojOps does
/// not load it (DOJ024, DOJ025).
pub(crate) fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    #[derive(Default)]
    struct Project<'a> {
        members: Vec<Member<'a>>,
        skills: Vec<(&'a Arc<SourceFile>, &'a dops::Skill)>,
        policies: Vec<(&'a Arc<SourceFile>, &'a policy::Policy)>,
    }
    // Keyed by the text of the path: a `PathBuf` compares part by part, and every file of
    // the repository is looked up (the findings are sorted later, whatever this order).
    let mut projects: BTreeMap<std::ffi::OsString, Project<'_>> = BTreeMap::new();
    let mut out = Vec::new();
    for r in results {
        let item = r.item.get::<Item>();
        if r.file.format == FormatId::DojopsTool {
            let name = match item {
                Some(Item::Tool(t)) => t.written_name.as_ref(),
                _ => None,
            };
            out.push(tool_yaml::not_loaded(&r.file, name));
        }
        if r.file.format == FormatId::DojopsDops {
            let name = match item {
                Some(Item::Skill(s)) => s.name.as_ref(),
                _ => None,
            };
            out.extend(dops::not_loaded(&r.file, name));
        }
        let Some(item) = item else {
            continue;
        };
        let project = projects
            .entry(project_of(&r.file.path).into_os_string())
            .or_default();
        match item {
            Item::Tool(t) => project.members.extend(t.name.as_ref().map(|name| Member {
                file: &r.file,
                name,
            })),
            Item::Skill(s) => {
                project.members.extend(s.name.as_ref().map(|name| Member {
                    file: &r.file,
                    name,
                }));
                project.skills.push((&r.file, s));
            }
            Item::Policy(p) => project.policies.push((&r.file, p)),
        }
    }
    for project in projects.values() {
        out.extend(duplicate_names(&project.members));
        for (file, policy) in &project.policies {
            out.extend(policy::resolve(file, policy, &project.members));
        }
        out.extend(dops::resolve(&project.skills));
    }
    out
}

/// DOJ011: two members of one project with one name (results are sorted by path, so the
/// first by path is "first defined here"). DojOps 1.1.0 and later load skills only, so a pair
/// with a `tool.yaml` tool holds for the releases before it.
fn duplicate_names(members: &[Member<'_>]) -> Vec<Diagnostic> {
    let is_manifest = |m: &Member<'_>| m.file.format == FormatId::DojopsTool;
    let skills: Vec<&Member<'_>> = members.iter().filter(|m| !is_manifest(m)).collect();
    let mut out = duplicate_pairs(&skills, &|_, _| true, None);
    if skills.len() < members.len() {
        let all: Vec<&Member<'_>> = members.iter().collect();
        let with_manifest = |a: &Member<'_>, b: &Member<'_>| is_manifest(a) || is_manifest(b);
        let before = Releases::before("dojops", crate::runtimes::dojops::TOOL_YAML_REMOVED);
        out.extend(duplicate_pairs(&all, &with_manifest, Some(before)));
    }
    out
}

/// DOJ011 for each pair of `members` with one name that `keep` accepts.
fn duplicate_pairs(
    members: &[&Member<'_>],
    keep: &dyn Fn(&Member<'_>, &Member<'_>) -> bool,
    releases: Option<Releases>,
) -> Vec<Diagnostic> {
    // The caller passes one project's members: the project is the scope.
    registry::duplicates(members.iter().map(|m| Some(((), m.name.value.as_str()))))
        .into_iter()
        .filter(|dup| keep(members[dup.first], members[dup.again]))
        .map(|dup| {
            let (f, m) = (members[dup.first], members[dup.again]);
            let d = Diagnostic::new(
                &rules::DUPLICATE_TOOL_NAME,
                m.file,
                m.name.span,
                format!(
                    "a tool named `{}` is already defined in this project",
                    m.name.value
                ),
            )
            .label("duplicate name")
            .related(f.file, f.name.span, "first defined here")
            .note("DojOps registers one tool per name; one of the two silently replaces the other")
            .help("rename one of them");
            match releases {
                Some(r) => d.for_releases(r),
                None => d,
            }
        })
        .collect()
}
