//! What the model reads of a DojOps manifest or skill, and what it runs, for the security
//! pass: names, descriptions, the generator's prompts, the input schema's strings, a skill's
//! context and prompt sections, and the verification command.

use std::sync::Arc;

use crate::security::texts::{Collector, Shell, Text, TextKind, ToolTexts};
use crate::source::SourceFile;
use crate::syntax::Node;
use crate::syntax::sections::h2_sections;

/// The texts of a `tool.yaml` (`root`) and of the schema files its load read (`schemas`:
/// each file and its tree).
pub(super) fn tool_yaml<'a>(
    file: &'a Arc<SourceFile>,
    root: &'a Node,
    schemas: &'a [(Arc<SourceFile>, Node)],
) -> Vec<ToolTexts<'a>> {
    let mut c = Collector::new(file);
    c.scalar(TextKind::Description, root.value("description"));
    if let Some(generator) = root.value("generator") {
        c.scalar(TextKind::Prompt, generator.value("systemPrompt"));
        c.scalar(TextKind::Prompt, generator.value("userPromptTemplate"));
    }
    c.strings(TextKind::Instructions, root.value("tags"));
    if let Some(verification) = root.value("verification") {
        // DojOps hands the command to a shell: SEC002 is about what that lets through.
        c.scalar(
            TextKind::Command(Shell::Posix),
            verification.value("command"),
        );
    }
    let (mut texts, values) = c.finish_with_values();
    for (schema_file, doc) in schemas {
        let mut s = Collector::new(schema_file);
        s.schema(doc);
        texts.extend(s.finish());
    }
    vec![ToolTexts {
        fences: None,
        values,
        name: name(file, root.value("name")),
        callable: true,
        texts,
        credentials: None,
        handed: None,
    }]
}

/// The texts of a `.dops` skill: its front matter `root` and the body from `body_start`.
pub(super) fn skill<'a>(
    file: &'a Arc<SourceFile>,
    root: Option<&'a Node>,
    body_start: usize,
) -> Vec<ToolTexts<'a>> {
    let mut c = Collector::new(file);
    let meta = root.and_then(|r| r.value("meta"));
    if let Some(meta) = meta {
        c.scalar(TextKind::Description, meta.value("description"));
        c.strings(TextKind::Instructions, meta.value("tags"));
    }
    if let Some(context) = root.and_then(|r| r.value("context")) {
        c.scalar(TextKind::Prompt, context.value("outputGuidance"));
        c.strings(TextKind::Prompt, context.value("bestPractices"));
    }
    if let Some(binary) = root
        .and_then(|r| r.value("verification"))
        .and_then(|v| v.value("binary"))
    {
        // DojOps runs a skill's verification as one process, without a shell.
        c.scalar(TextKind::Command(Shell::Process), binary.value("command"));
    }
    for section in h2_sections(&file.text, body_start) {
        let kind = if section.title.eq_ignore_ascii_case("keywords") {
            TextKind::Instructions
        } else {
            TextKind::Prompt
        };
        c.verbatim(kind, section.content);
    }
    let (texts, values) = c.finish_with_values();
    vec![ToolTexts {
        fences: None,
        values,
        name: name(file, meta.and_then(|m| m.value("name"))),
        callable: true,
        texts,
        credentials: None,
        handed: None,
    }]
}

/// A name scalar as a [`TextKind::Name`] text.
fn name<'a>(file: &'a Arc<SourceFile>, node: Option<&'a Node>) -> Option<Text<'a>> {
    let mut c = Collector::new(file);
    c.scalar(TextKind::Name, node);
    c.finish().pop()
}
