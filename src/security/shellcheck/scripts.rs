//! The POSIX scripts of one file's tools, kept for ShellCheck until the whole repository is
//! loaded: each distinct script once, and every place it is written. A cycod tool of
//! millions of steps `bash: a` held a text of its own for each step (about 70 bytes and an
//! allocation) for the whole run; a place is 12 bytes.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::security::texts::Text;
use crate::source::Span;

/// A file's scripts for ShellCheck.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Scripts {
    /// Each distinct script (its text and file), at its first place.
    pub(super) texts: Vec<Text<'static>>,
    /// Every place a script is written, in the order they were added.
    pub(super) places: Vec<Place>,
    /// Distinct scripts by a hash of their file and text, while they are added.
    #[serde(skip)]
    index: HashMap<u64, u32>,
}

/// Where one script is written: which of [`Scripts::texts`], and its bytes (files are read
/// up to 64 MiB).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(super) struct Place {
    pub(super) text: u32,
    start: u32,
    end: u32,
}

impl Scripts {
    /// Add the script `text`.
    pub(crate) fn add(&mut self, text: &Text<'_>) {
        let mut h = DefaultHasher::new();
        (Arc::as_ptr(&text.file) as usize).hash(&mut h);
        text.value.hash(&mut h);
        let key = h.finish();
        let same = |t: &Text<'_>| Arc::ptr_eq(&t.file, &text.file) && t.value == text.value;
        let index = match self.index.get(&key) {
            Some(&i) if self.texts.get(i as usize).is_some_and(same) => i,
            // A new script (or, rarely, one whose hash another has: kept as a text of its own).
            found => {
                let i = u32::try_from(self.texts.len()).unwrap_or(u32::MAX);
                self.texts.push(text.clone().into_owned());
                if found.is_none() {
                    self.index.insert(key, i);
                }
                i
            }
        };
        let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
        self.places.push(Place {
            text: index,
            start: offset(text.span.start),
            end: offset(text.span.end),
        });
    }

    /// Done adding: the index let go, no spare room kept for the whole run.
    pub(crate) fn finish(&mut self) {
        self.index = HashMap::new();
        self.texts.shrink_to_fit();
        self.places.shrink_to_fit();
    }

    /// How many places.
    pub(super) fn len(&self) -> usize {
        self.places.len()
    }

    /// The script at `place`, written there.
    pub(super) fn at(&self, place: &Place) -> Option<Text<'_>> {
        let t = self.texts.get(place.text as usize)?;
        Some(Text {
            kind: t.kind,
            value: Cow::Borrowed(&t.value),
            file: Arc::clone(&t.file),
            span: Span::new(place.start as usize, place.end as usize),
        })
    }
}
