//! `.dops` v2 skills (DojOps, https://github.com/dojops/dojops; docs/formats/dojops-dops.md):
//! the front matter lowered field by field against the runtime's schema, the required body
//! sections, and the dependencies between the skills of one project.

mod access;
mod command;
mod dependencies;
mod files;
mod front_matter;
mod location;
mod sections;
mod verification;
mod version;

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use self::access::SkillLowerer;
use self::sections::check_sections;
use super::{Item, Name, SHAPE};
use crate::diagnostics::Diagnostic;
use crate::formats::fields::Lowerer;
use crate::formats::format::{FileResult, syntax_diagnostics};
use crate::formats::front_matter::{FrontMatterWording, front_matter_error};
use crate::formats::item::Item as FileItem;
use crate::rules::dojops as doj;
use crate::source::{SourceFile, Span};
use crate::syntax::front_matter::split_front_matter;
use crate::syntax::{Node, NodeKind, yaml};

pub(crate) use self::dependencies::resolve;
pub(crate) use self::location::not_loaded;

/// DojOps refuses to read a `.dops` file larger than this.
const MAX_FILE_BYTES: usize = 1024 * 1024;

const REJECTED: &str = "DojOps refuses to load a skill whose front matter breaks its schema";

/// A skill dependency (`dependencies[]`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Dependency {
    /// The skill depended on.
    pub skill: String,
    /// Span of the skill name.
    pub span: Span,
    /// `optional: true`.
    pub optional: bool,
}

/// A lowered `.dops` file.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Skill {
    /// `meta.name`, when present and a valid skill name.
    pub name: Option<Name>,
    /// `dependencies` whose `skill` is a valid skill name.
    pub dependencies: Vec<Dependency>,
    /// What the bundle lowering needs of the front matter (`ir.rs`).
    pub doc: Option<super::doc::SkillDoc>,
    /// What the model reads and what runs, for the security pass (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
}

/// Parse, lower, validate and lint one `.dops` file.
pub(crate) fn load(file: Arc<SourceFile>, passes: crate::security::Passes) -> FileResult {
    let mut tree = None;
    let (skill, diagnostics) = check_file(&file, &mut tree, passes);
    let mut result = FileResult::new(
        file,
        diagnostics,
        FileItem::new(Item::Skill(Box::new(skill))),
    );
    result.trees = crate::formats::format::Trees::of_root(tree);
    result
}

/// Check one `.dops` file; its front matter's tree is left in `tree` (for the custom rules).
fn check_file(
    file: &Arc<SourceFile>,
    tree: &mut Option<Node>,
    passes: crate::security::Passes,
) -> (Skill, Vec<Diagnostic>) {
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
            *tree = Some(Node::new(
                fm.open,
                NodeKind::Map(crate::syntax::Map::default()),
            ));
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
    skill.texts = crate::security::texts::FileTexts::check(
        passes,
        super::texts::skill(file, parsed.root.as_ref(), fm.body_start),
    );
    diags.extend(lw.diags.into_iter().map(with_consequence));
    if gate == Gate::Continue {
        diags.extend(check_sections(file, &fm));
    }
    if parsed.root.is_some() {
        *tree = parsed.root;
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
