//! Texts that outlive the tree they were read from: a packed list's item is built for the
//! asking alone ([`crate::syntax::Seq::maps_unbuilt`]), and what is read of it is copied.

use std::borrow::Cow;

use super::{Collector, Text};
use crate::syntax::{Node, Seq};

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

impl<'a> Collector<'a> {
    /// Texts of nodes built for the asking (a packed item's), which they outlive: copied in.
    pub(crate) fn owned(&mut self, texts: Vec<Text<'_>>) {
        for text in texts {
            self.texts.push(text.into_owned());
        }
    }

    /// What `read` collects of `node`: in place when it is a node of the tree, else (an item
    /// a packed list built for the asking) into a collector of its own, copied in.
    pub(crate) fn read_item(
        &mut self,
        node: Cow<'a, Node>,
        read: impl for<'n> Fn(&mut Collector<'n>, &'n Node),
    ) {
        match node {
            Cow::Borrowed(node) => read(self, node),
            Cow::Owned(node) => {
                let mut own = Collector::new(self.file);
                read(&mut own, &node);
                self.owned(own.finish());
            }
        }
    }

    /// The texts of each schema of the list `list` (`anyOf`, `items`): a packed item is
    /// built for itself alone and its texts copied, not the whole list into nodes kept
    /// beside its bytes (the schema check's walk still builds it: a `oneOf` of 600,000 small
    /// schemas takes ten times its file).
    pub(crate) fn schemas(&mut self, list: &'a Node) {
        for item in list.as_list().into_iter().flat_map(Seq::scan) {
            self.read_item(item, |c, schema| c.schema(schema));
        }
    }
}
