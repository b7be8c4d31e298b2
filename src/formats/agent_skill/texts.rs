//! What a skill gives the agent to read and run, for the security pass: its `name` and
//! `description` (the agent picks skills by them), the instructions of `SKILL.md`, the
//! files they lead to, the programs of `scripts/`, each read in its language, and the
//! commands of the service files it ships.

use std::sync::Arc;

use crate::security::texts::{
    Collector, KnownFences, Shell, TextKind, ToolTexts, is_script, language,
};
use crate::security::units;
use crate::source::{SourceFile, Span};
use crate::syntax::markdown::Fence;
use crate::syntax::{Node, NodeKind};

/// The texts of one skill: the front matter `root`, the body from `body_start`, and every
/// other file of the skill that was read (`scripts` among them).
pub(super) fn skill<'a>(
    file: &'a Arc<SourceFile>,
    root: Option<&'a Node>,
    body_start: usize,
    companions: &'a [Arc<SourceFile>],
    scripts: &[Arc<SourceFile>],
    fences: Vec<Fence>,
) -> Vec<ToolTexts<'a>> {
    let mut c = Collector::new(file);
    c.scalar(
        TextKind::Description,
        root.and_then(|r| r.value("description")),
    );
    if let Some(hooks) = root.and_then(|r| r.value("hooks")) {
        hook_commands(&mut c, hooks);
    }
    if body_start < file.text.len() {
        c.verbatim(
            TextKind::Instructions,
            Span::new(body_start, file.text.len()),
        );
    }
    let mut texts = c.finish();
    for companion in companions {
        // A service file runs its commands once installed (`units.rs`).
        if units::is_service_file(&companion.path.to_string_lossy()) {
            texts.extend(units::commands(companion));
            continue;
        }
        // A program the skill ships runs, whether it is run by its path or through an
        // interpreter; Markdown and other text is read.
        let kind = if scripts.iter().any(|s| Arc::ptr_eq(s, companion)) || is_script(companion) {
            TextKind::Command(language(companion))
        } else {
            TextKind::Instructions
        };
        let mut c = Collector::new(companion);
        c.verbatim(kind, Span::new(companion.bom_len, companion.text.len()));
        texts.extend(c.finish());
    }
    let mut name = Collector::new(file);
    name.scalar(TextKind::Name, root.and_then(|r| r.value("name")));
    // The body's fenced blocks, which the reading of its references found: the security
    // pass does not parse the body again for them.
    let fences = (body_start < file.text.len()).then(|| KnownFences {
        file: Arc::clone(file),
        span: Span::new(body_start, file.text.len()),
        fences: in_body(fences, body_start),
    });
    vec![ToolTexts {
        fences,
        values: Vec::new(),
        name: name.finish().pop(),
        // An agent picks a skill by its description, not by a call to its name.
        callable: false,
        texts,
        credentials: None,
        handed: None,
    }]
}

/// `fences` (file offsets) with offsets into the body that starts at `body_start`, moved in
/// place.
fn in_body(mut fences: Vec<Fence>, body_start: usize) -> Vec<Fence> {
    let shift = |s: Span| {
        Span::new(
            s.start.saturating_sub(body_start),
            s.end.saturating_sub(body_start),
        )
    };
    for f in &mut fences {
        f.span = shift(f.span);
        f.info = f.info.map(shift);
    }
    fences
}

/// The `command` of every hook in the front matter (Claude Code runs them on its events,
/// before the model has a say).
fn hook_commands<'a>(c: &mut Collector<'a>, node: &'a Node) {
    match &node.kind {
        NodeKind::Map(entries) => {
            for e in entries {
                if e.key.as_str() == "command" {
                    c.scalar(TextKind::Command(Shell::Posix), Some(&e.value));
                } else {
                    hook_commands(c, &e.value);
                }
            }
        }
        NodeKind::Seq(items) => items.iter().for_each(|n| hook_commands(c, n)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FormatId;

    fn shell(path: &str, text: &str) -> Shell {
        let file = SourceFile::new(path.into(), path.into(), FormatId::AgentSkill, text.into());
        language(&file)
    }

    #[test]
    fn scripts_are_read_in_their_language() {
        assert_eq!(shell("s/run", "#!/bin/bash\necho"), Shell::Posix);
        assert_eq!(shell("s/run.py", "#!/usr/bin/env python3\n"), Shell::Python);
        assert_eq!(shell("s/run", "#!/usr/bin/env -S node --x\n"), Shell::Node);
        assert_eq!(shell("s/run.ts", "const x = 1"), Shell::Node);
        assert_eq!(shell("s/run.sh", "echo"), Shell::Posix);
        assert_eq!(shell("s/run.ps1", "Write-Host"), Shell::Pwsh);
        assert_eq!(shell("s/run.bat", "echo"), Shell::Cmd);
        assert_eq!(shell("s/run.rb", "puts 1"), Shell::Source);
    }
}
