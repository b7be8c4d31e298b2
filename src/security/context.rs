//! The context of a finding in Markdown: a command or instruction quoted in a passage about
//! attacks or about what not to do ([`crate::analysis::passages`]) is a mention, not an
//! instruction the agent follows. Such findings of the content heuristics are kept as
//! information, and such signals do not add up to a poisoned tool.

use std::sync::Arc;

use crate::analysis::passages::{Mentions, Why};
use crate::diagnostics::Diagnostic;
use crate::rules::{Severity, security as sec};
use crate::source::SourceFile;

/// The heuristics judged by their context: what text *says*. Credentials, hidden characters
/// in names and look-alike names are what they are wherever they are written.
const JUDGED_BY_CONTEXT: &[&str] = &[
    sec::DOWNLOAD_AND_EXECUTE.code,
    sec::DECODE_AND_EXECUTE.code,
    sec::REVERSE_SHELL.code,
    sec::DESTRUCTIVE_COMMAND.code,
    sec::WORLD_WRITABLE.code,
    sec::PRIVILEGE_ESCALATION.code,
    sec::EXFILTRATION_CHAIN.code,
    sec::UNTRUSTED_INSTALL.code,
    sec::PERSISTENCE.code,
    sec::INSTRUCTION_OVERRIDE.code,
    sec::SENSITIVE_FILE_ACCESS.code,
    sec::EXFILTRATION.code,
    sec::TOOL_POISONING.code,
    sec::INSTRUCTION_IN_VALUE.code,
    sec::HIDDEN_CHARACTER.code,
];

/// The mention passages of the Markdown files seen so far, each read once.
#[derive(Default)]
pub(super) struct Context {
    files: Vec<(Arc<SourceFile>, Option<Mentions>)>,
}

impl Context {
    /// Why the byte at `at` of `file` is a mention, when `file` is Markdown and it is one.
    pub(super) fn mention(&mut self, file: &Arc<SourceFile>, at: usize) -> Option<Why> {
        let i = match self.files.iter().position(|(f, _)| Arc::ptr_eq(f, file)) {
            Some(i) => i,
            None => {
                let mentions = is_markdown(file).then(|| {
                    let text: &str = &file.text;
                    Mentions::of(text, file.bom_len.min(text.len()))
                });
                self.files.push((Arc::clone(file), mentions));
                self.files.len() - 1
            }
        };
        self.files[i].1.as_ref()?.at(at)
    }

    /// Keep as information the findings in `out` that a mention passage holds.
    pub(super) fn judge(&mut self, out: &mut [Diagnostic]) {
        for d in out.iter_mut() {
            if d.severity == Severity::Info || !JUDGED_BY_CONTEXT.contains(&d.rule.code) {
                continue;
            }
            if let Some(why) = self.mention(&d.file, d.span.start) {
                d.severity = Severity::Info;
                d.notes.push(format!(
                    "kept as information: {}, so an agent reads it as an example rather than an instruction",
                    why.says()
                ).into());
            }
        }
    }
}

fn is_markdown(file: &SourceFile) -> bool {
    file.path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| {
            ["md", "mdx", "markdown"]
                .iter()
                .any(|m| e.eq_ignore_ascii_case(m))
        })
}
