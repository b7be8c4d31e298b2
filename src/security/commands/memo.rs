//! What the reading of commands found in a piece of code, kept by the code's text for the
//! rest of a file: a skill of a million identical blocks, or a tool of a million tags that
//! each say the same thing, was read a million times over, each reading building its
//! statements and words afresh. The readings are pure functions of the text, so a text
//! seen before gives what it gave then; only short texts are kept, and only so many.
//!
//! It also keeps the file's budget: a text not read before costs its length, and past
//! [`READ_BUDGET`] nothing more is read (SEC057 says where the reading stopped).

use std::collections::HashMap;
use std::sync::Arc;

use super::Place;
use crate::analysis::runnable::Code;
use crate::analysis::shell::Danger;
use crate::diagnostics::Diagnostic;
use crate::rules::security::COMMANDS_NOT_READ;
use crate::security::texts::Shell;
use crate::source::{SourceFile, Span};

/// Texts longer than this are read every time: repeated code is short, and keeping long
/// texts would hold a file's worth of them.
const MAX_TEXT: usize = 512;

/// Texts kept per kind of reading; past it the memo starts over (a file of a million
/// distinct blocks costs what it did, plus a lookup each).
const MAX_ENTRIES: usize = 2048;

/// Bytes of code and command lines one file's instructions are read for the first time:
/// twenty times the code blocks of the largest real skill seen (49 KB). A Markdown file of
/// a million different blocks cost seconds for each ten megabytes; an honest one never
/// comes near, and one that does is told where its reading stopped.
pub(crate) const READ_BUDGET: usize = 1 << 20;

/// Which reading a text was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    /// The dangers of code in this language ([`crate::analysis::shell::dangers`] and
    /// [`crate::analysis::shell::script_dangers`]).
    Code(Code),
    /// A line of prose read for downloads run.
    Prose,
    /// A command a definition runs, in its language (outside the budget: what runs is
    /// read to its end).
    Runs(Shell),
}

/// One report of a whole text's reading: dangers at `base`, standing at `place`.
#[derive(Debug, Clone)]
pub(super) struct Said {
    /// The offset the dangers' places are relative to.
    pub base: usize,
    /// Where the commands stand.
    pub place: Place,
    /// What was found.
    pub dangers: Vec<Danger>,
}

/// The dangers found in each text, by the text.
type ByText = HashMap<Box<str>, Vec<Danger>>;

/// The readings of one file's short texts.
#[derive(Default)]
pub(crate) struct Memo {
    /// Per reading, the dangers found in each text.
    code: Vec<(Reading, ByText)>,
    /// What the instructions of each whole text said, in order.
    texts: HashMap<Box<str>, Vec<Said>>,
    /// Bytes of texts read for the first time.
    spent: usize,
    /// Where the reading stopped, past the budget.
    stopped: Option<(Arc<SourceFile>, Span)>,
}

impl Memo {
    /// The dangers `read` finds in `text` with `reading`, read once per text; `None` when
    /// the text was not read before and the file's budget has no room for it.
    pub(super) fn dangers(
        &mut self,
        reading: Reading,
        text: &str,
        read: impl FnOnce(&str) -> Vec<Danger>,
    ) -> Option<Vec<Danger>> {
        self.look_up(reading, text, read, true)
    }

    /// The dangers `read` finds in a command a definition runs, read once per text and
    /// always read (a cycod tool of two million steps `bash: a` read each one afresh).
    pub(super) fn runs(
        &mut self,
        shell: Shell,
        text: &str,
        read: impl FnOnce(&str) -> Vec<Danger>,
    ) -> Vec<Danger> {
        self.look_up(Reading::Runs(shell), text, read, false)
            .unwrap_or_default()
    }

    /// [`Memo::dangers`], counted against the budget when `budgeted`.
    fn look_up(
        &mut self,
        reading: Reading,
        text: &str,
        read: impl FnOnce(&str) -> Vec<Danger>,
        budgeted: bool,
    ) -> Option<Vec<Danger>> {
        if text.len() > MAX_TEXT {
            return (!budgeted || self.spend(text.len())).then(|| read(text));
        }
        let at = match self.code.iter().position(|(r, _)| *r == reading) {
            Some(at) => at,
            None => {
                self.code.push((reading, HashMap::new()));
                self.code.len() - 1
            }
        };
        if let Some(found) = self.code.get(at).and_then(|(_, map)| map.get(text)) {
            return Some(found.clone());
        }
        if budgeted && !self.spend(text.len()) {
            return None;
        }
        let found = read(text);
        if let Some((_, map)) = self.code.get_mut(at) {
            if map.len() >= MAX_ENTRIES {
                map.clear();
            }
            map.insert(text.into(), found.clone());
        }
        Some(found)
    }

    /// Take `len` bytes from the budget, if it has them.
    fn spend(&mut self, len: usize) -> bool {
        if self.stopped.is_some() || self.spent.saturating_add(len) > READ_BUDGET {
            return false;
        }
        self.spent += len;
        true
    }

    /// Whether the reading stopped (nothing more of the file is read).
    pub(super) fn has_stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// The reading stopped at `span` of `file`; the first place is the one reported.
    pub(super) fn stop(&mut self, file: &Arc<SourceFile>, span: Span) {
        self.stopped.get_or_insert_with(|| (Arc::clone(file), span));
    }

    /// The finding that says where the reading stopped, if it did.
    pub(crate) fn not_read(&self) -> Option<Diagnostic> {
        let (file, span) = self.stopped.as_ref()?;
        let mib = READ_BUDGET >> 20;
        Some(
            Diagnostic::new(
                &COMMANDS_NOT_READ,
                file,
                *span,
                format!(
                    "the code from here on was not checked for dangerous commands: this file's instructions hold more than {mib} MiB of different code"
                ),
            )
            .label("not read from here on")
            .note(format!(
                "toolc reads at most {mib} MiB of different code blocks, code spans and command lines of one file; a download run, a reverse shell or an exfiltration past it goes unreported"
            ))
            .help("move long code into script files of their own, or split the instructions into several files"),
        )
    }

    /// What a whole text of instructions said, if the same text was read before.
    pub(super) fn said(&self, text: &str) -> Option<&[Said]> {
        self.texts.get(text).map(Vec::as_slice)
    }

    /// Whether [`Memo::keep_said`] would keep what `text` says.
    pub(super) fn keeps(text: &str) -> bool {
        text.len() <= MAX_TEXT
    }

    /// Keep what the whole text `text` said.
    pub(super) fn keep_said(&mut self, text: &str, said: Vec<Said>) {
        if !Memo::keeps(text) {
            return;
        }
        if self.texts.len() >= MAX_ENTRIES {
            self.texts.clear();
        }
        self.texts.insert(text.into(), said);
    }
}
