//! Fixed-width little-endian fields, written and read back: what the index's and the walks'
//! encodings are made of.

use super::Stat;

/// Append `n`.
pub fn put_u32(buf: &mut Vec<u8>, n: u32) {
    buf.extend_from_slice(&n.to_le_bytes());
}

/// Append `text`, its length first.
pub fn put_str(buf: &mut Vec<u8>, text: &str) {
    put_u32(buf, text.len() as u32);
    buf.extend_from_slice(text.as_bytes());
}

/// Append `s`.
pub fn put_stat(buf: &mut Vec<u8>, s: &Stat) {
    buf.extend_from_slice(&s.len.to_le_bytes());
    buf.extend_from_slice(&s.mtime_secs.to_le_bytes());
    buf.extend_from_slice(&s.mtime_nanos.to_le_bytes());
    buf.extend_from_slice(&s.inode.to_le_bytes());
}

/// The bytes of a [`Stat`].
pub const STAT: usize = 8 + 8 + 4 + 8;

/// The variant of a field-less enum whose number is `n`: its place in the declaration, which
/// is what `as u8` writes and serde's derive numbers (so a new variant needs nothing here).
pub fn variant<T: for<'a> serde::Deserialize<'a>>(n: u8) -> Option<T> {
    // A byte above 127 is the start of a longer number to postcard: no variant.
    postcard::from_bytes(&[n]).ok()
}

/// What is left to decode: each read is none when the bytes run out.
pub struct Reader<'a>(pub &'a [u8]);

impl<'a> Reader<'a> {
    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    /// The next `N` bytes.
    pub fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    /// A byte.
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }

    /// A byte that is 0 or 1.
    pub fn flag(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// A `u32`.
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }

    /// A `u64`.
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }

    /// An `i64`.
    pub fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.array()?))
    }

    /// A list's length, when that many records of at least `each` bytes can be there (a
    /// damaged count allocates nothing).
    pub fn count(&mut self, each: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(each)? <= self.0.len()).then_some(n)
    }

    /// Text written by [`put_str`].
    pub fn str(&mut self) -> Option<&'a str> {
        let len = self.u32()? as usize;
        std::str::from_utf8(self.take(len)?).ok()
    }

    /// A [`Stat`] written by [`put_stat`].
    pub fn stat(&mut self) -> Option<Stat> {
        Some(Stat {
            len: self.u64()?,
            mtime_secs: self.i64()?,
            mtime_nanos: self.u32()?,
            inode: self.u64()?,
        })
    }

    /// True when every byte was read.
    pub fn is_done(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::variant;
    use crate::discover::Kind;
    use crate::source::FormatId;

    #[test]
    fn every_variant_reads_back_from_its_number() {
        let mut formats = 0;
        for n in 0u8.. {
            let Some(format) = variant::<FormatId>(n) else {
                break;
            };
            assert_eq!(format as u8, n);
            formats += 1;
        }
        assert!(formats > FormatId::Config as usize);
        assert_eq!(
            variant::<FormatId>(FormatId::Config as u8),
            Some(FormatId::Config)
        );
        for kind in [Kind::File, Kind::Dir, Kind::Link, Kind::Other] {
            assert_eq!(variant::<Kind>(kind as u8), Some(kind));
        }
        assert_eq!(variant::<Kind>(Kind::Other as u8 + 1), None);
        assert_eq!(variant::<FormatId>(127), None);
        assert_eq!(variant::<FormatId>(255), None);
    }
}
