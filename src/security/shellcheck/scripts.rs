//! The POSIX scripts of one file's tools, kept for ShellCheck until the whole repository is
//! loaded: each distinct script once, and every place it is written. A cycod tool of
//! millions of steps `bash: a` held a text of its own for each step (about 70 bytes and an
//! allocation) for the whole run; a place is 12 bytes. A script past the file's budget for
//! ShellCheck is counted as it is added, never kept: one of a million different steps held
//! every one of them, 70 bytes and an allocation each, to hand 500 to ShellCheck.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::budget::{Admit, FileBudget};
use crate::security::texts::Text;
use crate::source::Span;

/// A file's scripts for ShellCheck (none, in most files: boxed, so that every format's
/// item stays small).
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Scripts(Option<Box<Held>>);

#[derive(Debug, Default, Serialize, Deserialize)]
struct Held {
    /// Each distinct script (its text and file), at its first place.
    texts: Vec<Text<'static>>,
    /// Every place a script is written, in the order they were added.
    #[serde(deserialize_with = "crate::memory::exact::deserialize")]
    places: Vec<Place>,
    /// Distinct scripts past the file's budget (not kept).
    over: u32,
    /// Places of scripts past the budget.
    over_places: u32,
    /// The first place of a script past the budget, written there.
    first_over: Option<Box<Text<'static>>>,
    /// What only adding needs, let go when it is done: every file with a script is held
    /// until the report.
    #[serde(skip)]
    adding: Option<Box<Adding>>,
}

/// What adding scripts to a file needs.
#[derive(Debug, Default)]
struct Adding {
    /// Distinct scripts by a hash of their file and text ([`OVER`] for one past the
    /// budget).
    index: HashMap<u64, u32>,
    /// The file's budget.
    budget: FileBudget,
}

/// The index of a script past the budget: a hash names it, no text is kept to compare
/// (two such scripts of one hash are counted as one).
const OVER: u32 = u32::MAX;

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
        let held = self.0.get_or_insert_with(Box::default);
        let mut h = DefaultHasher::new();
        (Arc::as_ptr(&text.file) as usize).hash(&mut h);
        text.value.hash(&mut h);
        let key = h.finish();
        let adding = held.adding.get_or_insert_with(Box::default);
        let same = |t: &Text<'_>| Arc::ptr_eq(&t.file, &text.file) && t.value == text.value;
        let index = match adding.index.get(&key) {
            Some(&OVER) => {
                held.over_places = held.over_places.saturating_add(1);
                return;
            }
            Some(&i) if held.texts.get(i as usize).is_some_and(same) => i,
            // A new script (or, rarely, one whose hash another has: kept as a text of its own).
            found => {
                if adding.budget.admit(text.value.len()) == Admit::Over {
                    held.over = held.over.saturating_add(1);
                    held.over_places = held.over_places.saturating_add(1);
                    held.first_over
                        .get_or_insert_with(|| Box::new(text.clone().into_owned()));
                    adding.index.entry(key).or_insert(OVER);
                    return;
                }
                let i = u32::try_from(held.texts.len()).unwrap_or(u32::MAX - 1);
                held.texts.push(text.clone().into_owned());
                if found.is_none() {
                    adding.index.insert(key, i);
                }
                i
            }
        };
        let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
        held.places.push(Place {
            text: index,
            start: offset(text.span.start),
            end: offset(text.span.end),
        });
    }

    /// Done adding: the index let go, no spare room kept for the whole run.
    pub(crate) fn finish(&mut self) {
        if let Some(held) = &mut self.0 {
            held.adding = None;
            held.texts.shrink_to_fit();
            held.places.shrink_to_fit();
        }
    }

    /// Each distinct script.
    pub(super) fn texts(&self) -> &[Text<'static>] {
        self.0.as_ref().map_or(&[], |h| &h.texts)
    }

    /// Every place a script is written.
    pub(super) fn places(&self) -> &[Place] {
        self.0.as_ref().map_or(&[], |h| &h.places)
    }

    /// How many places, those past the budget too.
    pub(super) fn len(&self) -> usize {
        let over = self.0.as_ref().map_or(0, |h| h.over_places as usize);
        self.places().len() + over
    }

    /// The first script past the file's budget, written there, and how many distinct
    /// scripts were.
    pub(super) fn over(&self) -> Option<(&Text<'static>, usize)> {
        let held = self.0.as_ref()?;
        Some((held.first_over.as_deref()?, held.over as usize))
    }

    /// The script at `place`, written there.
    pub(super) fn at(&self, place: &Place) -> Option<Text<'_>> {
        let t = self.texts().get(place.text as usize)?;
        Some(Text {
            kind: t.kind,
            value: Cow::Borrowed(&t.value),
            file: Arc::clone(&t.file),
            span: Span::new(place.start as usize, place.end as usize),
        })
    }

    /// The first place of a script whose index in [`Scripts::texts`] `left` holds, written
    /// there (where the `SHC004` for scripts left out of a budget goes).
    pub(super) fn first_of(&self, left: impl Fn(usize) -> bool) -> Option<Text<'_>> {
        let place = self.places().iter().find(|p| left(p.text as usize))?;
        self.at(place)
    }
}
