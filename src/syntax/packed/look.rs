//! Reading a packed tree where it is, without building it: what a node is, a mapping's
//! keys, its entries in the order of their keys (what a `NodeAt` reads through).

use super::{FALSE, FLOAT, INT, MAP, NULL, NodeKind, Number, Reader, SEQ, STRING, TRUE};
use crate::source::Span;

/// What a packed node is ([`Reader::look`]).
pub(in crate::syntax) enum Look<'a> {
    /// `null`, a boolean or a number.
    Scalar(NodeKind),
    /// A string, borrowed.
    Str(&'a str),
    /// A list: a reader at its first item, and how many.
    Seq(Reader<'a>, usize),
    /// A mapping: a reader at its first entry, and how many.
    Map(Reader<'a>, usize),
}

impl<'a> Reader<'a> {
    /// The next node's span and what it is, read without moving on: a list or mapping with
    /// a reader at its first item or entry.
    pub(in crate::syntax) fn look(mut self) -> Option<(Span, Look<'a>)> {
        let tag = self.byte()?;
        let span = self.span()?;
        let look = match tag {
            NULL => Look::Scalar(NodeKind::Null),
            FALSE => Look::Scalar(NodeKind::Bool(false)),
            TRUE => Look::Scalar(NodeKind::Bool(true)),
            INT => Look::Scalar(NodeKind::Number(Number::Int(self.zigzag()?))),
            FLOAT => Look::Scalar(NodeKind::Number(Number::Float(self.float()?))),
            STRING => Look::Str(self.str()?),
            SEQ => {
                let n = self.len()?;
                Look::Seq(self, n)
            }
            MAP => {
                let n = self.len()?;
                Look::Map(self, n)
            }
            _ => return None,
        };
        Some((span, look))
    }

    /// A reader of the same bytes at `place` ([`Reader::place`]).
    pub(in crate::syntax) fn at_place(self, (at, last): (u32, u32)) -> Reader<'a> {
        Reader::resume(self.bytes, (at as usize, last as usize))
    }

    /// Where each of the `len` entries from here (a mapping's first) is written, in the
    /// order of their keys: eight bytes an entry, nothing built.
    pub(in crate::syntax) fn places_by_key(mut self, len: usize) -> Vec<(u32, u32)> {
        let mut places = Vec::with_capacity(len);
        for _ in 0..len {
            let (at, last) = self.place();
            // The bytes of a file read whole are far within 4 GiB.
            let (Ok(at), Ok(last)) = (u32::try_from(at), u32::try_from(last)) else {
                break;
            };
            places.push((at, last));
            if self.skip_entry(1).is_none() {
                break;
            }
        }
        let bytes = self.bytes;
        let key = |at: u32| Reader::key_at(bytes, at as usize);
        places.sort_unstable_by(|a, b| key(a.0).cmp(&key(b.0)));
        places
    }

    /// The key of the next entry of a mapping and its span, the reader then at its value.
    pub(in crate::syntax) fn key(&mut self) -> Option<(&'a str, Span)> {
        let key = self.str()?;
        Some((key, self.span()?))
    }
}
