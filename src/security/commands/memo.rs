//! What the reading of commands found in a piece of code, kept by the code's text for the
//! rest of a file: a skill of a million identical blocks, or a tool of a million tags that
//! each say the same thing, was read a million times over, each reading building its
//! statements and words afresh. The readings are pure functions of the text, so a text
//! seen before gives what it gave then; only short texts are kept, and only so many.

use std::collections::HashMap;

use super::Place;
use crate::analysis::runnable::Code;
use crate::analysis::shell::Danger;

/// Texts longer than this are read every time: repeated code is short, and keeping long
/// texts would hold a file's worth of them.
const MAX_TEXT: usize = 512;

/// Texts kept per kind of reading; past it the memo starts over (a file of a million
/// distinct blocks costs what it did, plus a lookup each).
const MAX_ENTRIES: usize = 2048;

/// Which reading a text was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    /// The dangers of code in this language ([`crate::analysis::shell::dangers`] and
    /// [`crate::analysis::shell::script_dangers`]).
    Code(Code),
    /// A line of prose read for downloads run.
    Prose,
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
}

impl Memo {
    /// The dangers `read` finds in `text` with `reading`, read once per text.
    pub(super) fn dangers(
        &mut self,
        reading: Reading,
        text: &str,
        read: impl FnOnce(&str) -> Vec<Danger>,
    ) -> Vec<Danger> {
        if text.len() > MAX_TEXT {
            return read(text);
        }
        let at = match self.code.iter().position(|(r, _)| *r == reading) {
            Some(at) => at,
            None => {
                self.code.push((reading, HashMap::new()));
                self.code.len() - 1
            }
        };
        let Some((_, map)) = self.code.get_mut(at) else {
            return read(text);
        };
        if let Some(found) = map.get(text) {
            return found.clone();
        }
        let found = read(text);
        if map.len() >= MAX_ENTRIES {
            map.clear();
        }
        map.insert(text.into(), found.clone());
        found
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
