//! Long lists a tool's texts are read from a batch at a time ([`Values`]), rather than held
//! as a text each: a schema's `enum`, tags, the names of a long mapping of parameters.

use std::borrow::Cow;
use std::sync::Arc;

use super::{Text, TextKind};
use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Seq};

/// A long list of schema values or tags (a packed [`Seq`]), or the names of a long map of
/// parameters: each string a text of `kind`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Values<'a> {
    /// What each string is.
    pub kind: TextKind,
    /// Where the strings are.
    pub source: Source<'a>,
    /// The file it is written in.
    pub file: &'a Arc<SourceFile>,
}

/// Where the strings of [`Values`] are.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source<'a> {
    /// The string items of a list.
    Strings(&'a Seq),
    /// The keys of a mapping.
    Keys(&'a [Entry]),
}

/// Mappings of more parameters than this have their names read in batches.
pub(super) const LONG_MAP: usize = 256;

impl<'a> Values<'a> {
    /// A text for each string that is not empty, made as it is read.
    pub(crate) fn texts(self) -> impl Iterator<Item = Text<'a>> {
        // One box for the whole list, not one for each string.
        let strings: Box<dyn Iterator<Item = (&'a str, Span)>> = match self.source {
            Source::Strings(list) => Box::new(list.strings()),
            Source::Keys(entries) => {
                Box::new(entries.iter().map(|e| (e.key.as_str(), e.key_span())))
            }
        };
        strings
            .filter(|(s, _)| !s.is_empty())
            .map(move |(s, span)| Text {
                kind: self.kind,
                value: Cow::Borrowed(s),
                file: Arc::clone(self.file),
                span,
            })
    }
}
