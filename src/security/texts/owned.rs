//! Texts that outlive the tree they were read from: a packed list's item is built for the
//! asking alone ([`crate::syntax::Seq::maps_unbuilt`]), and what is read of it is copied.

use std::borrow::Cow;

use super::{Collector, Text, ToolTexts};

impl Text<'_> {
    /// The same text, owning its value.
    pub(crate) fn into_owned(self) -> Text<'static> {
        Text {
            kind: self.kind,
            value: Cow::Owned(self.value.into_owned()),
            file: self.file,
            span: self.span,
        }
    }
}

impl Collector<'_> {
    /// Texts of nodes built for the asking (a packed item's), which they outlive: copied in.
    pub(crate) fn owned(&mut self, texts: Vec<Text<'_>>) {
        for text in texts {
            self.texts.push(text.into_owned());
        }
    }
}

impl ToolTexts<'_> {
    /// The same texts, owning their strings: the texts of nodes built for one tool alone (a
    /// packed small tree's, [`crate::syntax::Seq::maps_unbuilt`]) outlive the nodes. A long
    /// list's strings become a text each (a small tree holds no long list).
    pub(crate) fn into_owned(self) -> ToolTexts<'static> {
        let ToolTexts {
            name,
            callable,
            texts,
            credentials,
            handed,
            values,
            fences,
        } = self;
        let listed = values
            .into_iter()
            .flat_map(|v| v.texts().map(Text::into_owned).collect::<Vec<_>>());
        ToolTexts {
            name: name.map(Text::into_owned),
            callable,
            texts: texts
                .into_iter()
                .map(Text::into_owned)
                .chain(listed)
                .collect(),
            credentials,
            handed,
            values: Vec::new(),
            fences,
        }
    }
}
