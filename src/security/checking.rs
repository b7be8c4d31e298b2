//! The security pass over one file's tools, given one at a time ([`Checking`]): what each
//! tool's texts say, and what the cross-file checks keep of it.

use super::texts::{FileTexts, Found, Handoff, Shell, TextKind, ToolTexts};
use super::{
    Passes, check_values, commands, context, hidden, instructions, kept, names, patterns, transport,
};

/// The security pass over one file's tools, given one at a time: a tool built for the asking
/// (a packed list's) is checked while it lives, its texts not copied out of it.
pub(crate) struct Checking {
    out: FileTexts,
    found: Found,
    context: context::Context,
    joined: String,
    memo: commands::Memo,
    wanted: bool,
}

impl Checking {
    /// Before the first of about `tools` tools.
    pub(crate) fn new(passes: Passes, tools: usize) -> Checking {
        let mut out = FileTexts::default();
        // Nothing, the tools not even listed, when no `SEC` rule is to report and
        // ShellCheck (which reads the scripts gathered here) does not run.
        let wanted = passes.texts || passes.shellcheck;
        // Room for every tool at once (a list says how long it is): grown by doubling, a
        // list of many small tools held up to twice what it keeps.
        if wanted {
            out.kept.reserve(tools);
        }
        Checking {
            out,
            found: Found::default(),
            context: context::Context::default(),
            joined: String::new(),
            memo: commands::Memo::default(),
            wanted,
        }
    }

    /// Whether the tools are to be read at all.
    pub(crate) fn wanted(&self) -> bool {
        self.wanted
    }

    /// Check one tool: one at a time, a file of a million servers never holds all their
    /// texts at once.
    pub(crate) fn tool(&mut self, tool: &ToolTexts<'_>) {
        if !self.wanted {
            return;
        }
        let (found, out) = (&mut self.found, &mut self.out);
        hidden::check_texts(tool.all(), &mut found.covered, &mut found.findings);
        names::mixed_scripts(tool.all(), &mut found.findings);
        self.joined.clear();
        for t in tool
            .all()
            .filter(|t| t.kind.is_schema_value() || instructions::is_prose(t.kind))
        {
            self.joined.push_str(&t.value);
            self.joined.push('\n');
        }
        let look = patterns::look(&self.joined);
        let commands = commands::check(tool, &mut found.findings, &mut self.memo);
        let mut signals = Vec::new();
        let mut calling = Vec::new();
        for list in &tool.values {
            check_values(
                tool,
                *list,
                &commands.chains,
                found,
                &mut signals,
                &mut self.memo,
                &mut calling,
            );
        }
        instructions::check(
            tool,
            look.instructions,
            commands,
            signals,
            &mut self.context,
            &mut found.findings,
        );
        transport::check(tool, &mut found.findings);
        // Only a tool a model calls by name can be impersonated or shadowed: the
        // cross-file checks read no other (a million servers' names were kept for nothing).
        // Built afresh rather than collected in place: a collected `Vec` would keep the
        // capacity of every text the tool had, for each file, for the whole run.
        if tool.callable {
            let own = kept(tool, look.calls, calling);
            // A tool with no name and no text that names a call gives them nothing to
            // compare (80 bytes each: a `tools.json` of 400,000 nameless tools held 32 MB).
            if own.name.is_some() || !own.texts.is_empty() {
                out.kept.push(own);
            }
        }
        tool.texts
            .iter()
            .filter(|t| t.kind == TextKind::Command(Shell::Posix))
            .for_each(|t| out.scripts.add(t));
    }

    /// What the cross-file checks keep, the findings handed over with it.
    pub(crate) fn finish(self) -> FileTexts {
        let Checking {
            mut out,
            mut found,
            memo,
            wanted,
            ..
        } = self;
        if !wanted {
            return FileTexts::default();
        }
        if let Some(finding) = memo.not_read() {
            found.findings.push(finding);
        }
        // Held for the whole run, for every file: without the spare room a push leaves.
        out.kept.shrink_to_fit();
        out.scripts.finish();
        out.found = Handoff::new(found);
        out
    }
}
