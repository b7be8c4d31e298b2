//! Where parts of a long text are written, with what earlier placings of parts of the same
//! text learnt ([`scalar::Marks`]): a text of thousands of findings is placed from the last
//! mark before each, not from its start. What is learnt is kept on the thread for the few
//! long texts placed last, not in each text: a field in every text took 48 bytes a string
//! (a tool of 300,000 parameters grew by a third).

use std::cell::RefCell;
use std::ops::Range;
use std::sync::{Arc, Weak};

use super::Text;
use crate::source::{SourceFile, Span};
use crate::syntax::scalar::{self, MARK_EVERY, Marks};

/// Long texts whose marks are kept on a thread: findings are placed a text at a time.
const KEPT: usize = 4;

/// The marks of one long text, and what tells it apart: its file (a weak reference keeps a
/// dropped file's address from being another's), where it is written, and its value.
struct Known {
    file: Weak<SourceFile>,
    span: Span,
    value: (usize, usize),
    marks: Marks,
}

impl Known {
    fn is(&self, text: &Text<'_>) -> bool {
        self.span == text.span
            && self.value == (text.value.as_ptr() as usize, text.value.len())
            && std::ptr::eq(self.file.as_ptr(), Arc::as_ptr(&text.file))
    }
}

thread_local! {
    static KNOWN: RefCell<Vec<Known>> = const { RefCell::new(Vec::new()) };
}

/// The bytes of `raw` (`text`'s source) that hold bytes `range` of its value.
pub(super) fn source_range(text: &Text<'_>, raw: &str, range: Range<usize>) -> Range<usize> {
    if text.value.len() <= MARK_EVERY {
        return scalar::source_range(raw, &text.value, range);
    }
    KNOWN.with(|known| {
        let mut known = known.borrow_mut();
        let at = match known.iter().position(|k| k.is(text)) {
            Some(at) => at,
            None => {
                if known.len() == KEPT {
                    known.remove(0);
                }
                known.push(Known {
                    file: Arc::downgrade(&text.file),
                    span: text.span,
                    value: (text.value.as_ptr() as usize, text.value.len()),
                    marks: Marks::default(),
                });
                known.len() - 1
            }
        };
        let marks = &mut known[at].marks;
        scalar::source_range_marked(raw, &text.value, range, marks)
    })
}
