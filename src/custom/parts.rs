//! The compiled pieces of a custom rule that its functions, pages and reach read: what it
//! reads, its `then`s and its message.

use super::function::Function;

/// What a rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubjectKind {
    /// toolc's format-neutral view of each tool (and of each Agent Skill).
    Tool,
    /// Each file's own tree, as JSON.
    File,
}

impl SubjectKind {
    /// The name written in `subject`.
    pub fn as_str(self) -> &'static str {
        match self {
            SubjectKind::Tool => "tool",
            SubjectKind::File => "file",
        }
    }
}

/// A step of a field path (`risk.level`).
pub(crate) type FieldPath = Vec<String>;

/// One compiled `then`.
#[derive(Debug)]
pub struct Then {
    /// The field of the node to check (`None`: the node itself).
    pub field: Option<FieldPath>,
    /// The field as written.
    pub field_text: Option<String>,
    /// What must hold of it.
    pub function: Function,
}

/// A piece of a message: text, or a field of the node in `{…}`.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Text as written.
    Text(String),
    /// `{field}` (a dotted path).
    Field(FieldPath),
}

/// Split a dotted field path; `None` when a step is empty.
pub(crate) fn field_path(text: &str) -> Option<FieldPath> {
    let steps: Vec<String> = text.split('.').map(str::to_string).collect();
    (!steps.iter().any(String::is_empty)).then_some(steps)
}
