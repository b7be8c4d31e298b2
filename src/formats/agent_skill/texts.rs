//! What a skill gives the agent to read and run, for the security pass: its `name` and
//! `description` (the agent picks skills by them), the instructions of `SKILL.md`, the
//! files they lead to, and the programs of `scripts/`, each read in its language.

use std::sync::Arc;

use crate::security::texts::{Collector, Shell, TextKind, ToolTexts};
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind};

/// The texts of one skill: the front matter `root`, the body from `body_start`, and every
/// other file of the skill that was read (`scripts` among them).
pub(super) fn skill<'a>(
    file: &'a Arc<SourceFile>,
    root: Option<&'a Node>,
    body_start: usize,
    companions: &'a [Arc<SourceFile>],
    scripts: &[Arc<SourceFile>],
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
    vec![ToolTexts {
        name: name.finish().pop(),
        // An agent picks a skill by its description, not by a call to its name.
        callable: false,
        texts,
        credentials: None,
    }]
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

/// Extensions of the scripts a skill ships, read as programs wherever they are in it.
const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "ksh", "py", "js", "mjs", "cjs", "ts", "mts", "cts", "ps1", "psm1", "rb",
    "pl",
];

/// Whether `file` is a script by its extension or its `#!` line.
fn is_script(file: &SourceFile) -> bool {
    file.body().starts_with("#!")
        || file
            .path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SCRIPT_EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// The language a script is written in: its `#!` line, else its extension.
fn language(file: &SourceFile) -> Shell {
    let body = file.body();
    let shebang = body
        .strip_prefix("#!")
        .map(|l| l.lines().next().unwrap_or(""));
    let interpreter = shebang.map(|l| {
        let mut words = l.split_whitespace();
        let first = words.next().unwrap_or("");
        let program = first.rsplit('/').next().unwrap_or(first);
        // `#!/usr/bin/env -S python3 -u` names the program after `env` and its flags.
        if program == "env" {
            words.find(|w| !w.starts_with('-')).unwrap_or("")
        } else {
            program
        }
    });
    let ext = file
        .path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match (interpreter, ext.as_deref()) {
        (Some(p), _) if p.starts_with("python") => Shell::Python,
        (Some("node" | "deno" | "bun" | "tsx" | "ts-node"), _) => Shell::Node,
        (Some("pwsh" | "powershell"), _) => Shell::Pwsh,
        (Some("sh" | "bash" | "zsh" | "ksh" | "dash" | "ash"), _) => Shell::Posix,
        (Some(_), _) => Shell::Source,
        (None, Some("sh" | "bash" | "zsh" | "ksh")) => Shell::Posix,
        (None, Some("py")) => Shell::Python,
        (None, Some("js" | "mjs" | "cjs" | "ts" | "mts" | "cts")) => Shell::Node,
        (None, Some("ps1" | "psm1")) => Shell::Pwsh,
        (None, Some("cmd" | "bat")) => Shell::Cmd,
        (None, _) => Shell::Source,
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
