//! DojOps: `tool.yaml` (spec 1), `.dops` v2 skills and `.dojops/policy.yaml`.
//!
//! Name scope is one `.dojops/` project: tools and skills of one project share a registry,
//! and the policy of that project applies to them.

pub mod dops;
pub mod policy;
pub mod tool_yaml;
pub mod zod;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{FileResult, Item as FileItem};
use crate::diagnostics::Diagnostic;
use crate::rules::dojops as rules;
use crate::source::{FormatId, SourceFile, Span};

/// The shape rules every DojOps file shares (missing, wrong type, bad value, length, unknown key).
pub static SHAPE: crate::formats::fields::ShapeRules = crate::formats::fields::ShapeRules {
    missing: &rules::MISSING_REQUIRED_FIELD,
    wrong_type: &rules::WRONG_FIELD_TYPE,
    bad_value: &rules::INVALID_ENUM_VALUE,
    length: &rules::INVALID_FIELD_LENGTH,
    unknown_key: &rules::UNKNOWN_KEY,
};

/// A lowered DojOps file.
#[derive(Debug)]
pub enum Item {
    /// A `tool.yaml` manifest.
    Tool(tool_yaml::Tool),
    /// A `.dops` skill.
    Skill(dops::Skill),
    /// A `.dojops/policy.yaml`.
    Policy(policy::Policy),
}

impl Item {
    /// Tool definitions in this item.
    pub fn tool_count(&self) -> usize {
        usize::from(!matches!(self, Item::Policy(_)))
    }
}

/// A tool or skill name with where it is written.
#[derive(Debug, Clone)]
pub struct Name {
    /// The name.
    pub value: String,
    /// The span of the name's value.
    pub span: Span,
}

/// The `.dojops/` project folder a file belongs to: the nearest `.dojops` ancestor, or the
/// folder above the tool's own folder for manifests found through include patterns.
pub fn project_of(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == ".dojops"))
        .map(Path::to_path_buf)
        .or_else(|| path.parent().and_then(Path::parent).map(Path::to_path_buf))
        .unwrap_or_default()
}

/// Parse and lower one DojOps file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    match file.format {
        FormatId::DojopsTool => tool_yaml::load(file),
        FormatId::DojopsDops => dops::load(file),
        _ => policy::load(file),
    }
}

/// A tool or skill of a project, for cross-file checks.
pub struct Member<'a> {
    /// Its file.
    pub file: &'a Arc<SourceFile>,
    /// Its name.
    pub name: &'a Name,
}

/// Cross-file checks, per `.dojops/` project: duplicate names, policy, skill dependencies.
pub fn resolve(results: &[FileResult]) -> Vec<Diagnostic> {
    #[derive(Default)]
    struct Project<'a> {
        members: Vec<Member<'a>>,
        skills: Vec<(&'a Arc<SourceFile>, &'a dops::Skill)>,
        policies: Vec<(&'a Arc<SourceFile>, &'a policy::Policy)>,
    }
    let mut projects: BTreeMap<PathBuf, Project<'_>> = BTreeMap::new();
    for r in results {
        let FileItem::Dojops(item) = &r.item else {
            continue;
        };
        let project = projects.entry(project_of(&r.file.path)).or_default();
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
    let mut out = Vec::new();
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
/// first by path is "first defined here").
fn duplicate_names(members: &[Member<'_>]) -> Vec<Diagnostic> {
    let mut first: BTreeMap<&str, &Member<'_>> = BTreeMap::new();
    let mut out = Vec::new();
    for m in members {
        match first.get(m.name.value.as_str()) {
            Some(f) => out.push(
                Diagnostic::new(&rules::DUPLICATE_TOOL_NAME, m.file, m.name.span, format!("a tool named `{}` is already defined in this project", m.name.value))
                    .label("duplicate name")
                    .related(f.file, f.name.span, "first defined here")
                    .note("DojOps registers one tool per name; one of the two silently replaces the other")
                    .help("rename one of them"),
            ),
            None => {
                first.insert(&m.name.value, m);
            }
        }
    }
    out
}
