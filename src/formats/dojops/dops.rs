//! `.dops` v2 skills (see `../shared/specs/dojops-dops-v2.md`).

use std::sync::Arc;

use super::{Item, Name};
use crate::diagnostics::Diagnostic;
use crate::formats::{FileResult, Item as FileItem};
use crate::source::{SourceFile, Span};

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
    /// `meta.name`, when present and a string.
    pub name: Option<Name>,
    /// `dependencies`.
    pub dependencies: Vec<Dependency>,
}

/// Parse, lower, validate and lint one `.dops` file.
pub fn load(file: Arc<SourceFile>) -> FileResult {
    FileResult {
        file,
        companions: Vec::new(),
        diagnostics: Vec::new(),
        item: FileItem::Dojops(Item::Skill(Skill::default())),
    }
}

/// REF001/REF002: dependencies of the skills of one project.
pub fn resolve(_skills: &[(&Arc<SourceFile>, &Skill)]) -> Vec<Diagnostic> {
    Vec::new()
}
