//! The text of a source file: held, or read again from disk when first needed (with the map
//! of where decoding replaced bytes that are not UTF-8), and the digest that checks it.

use std::sync::{Arc, OnceLock, Weak};

use super::SourceFile;
use crate::fs::FileSystem;

/// SHA-256 of a file's bytes: what the cache keys a file by, and what a text read again from
/// disk must match.
pub(crate) type Digest = [u8; 32];

/// The text of a [`SourceFile`]: held, or read again from disk when first needed. A file
/// whose findings are all known lets its text go to bound memory on large repositories (and a
/// file from the cache never reads it): rendering a finding on it reads it back. Reading back
/// checks the bytes against the digest the file was checked with; a file that changed since
/// (or cannot be read) gives the empty text, so a stale span is never shown over new content.
pub struct Text {
    // Boxed: most files of a large repository let their text go, and hold this empty.
    pub(super) cell: OnceLock<Box<Decoded>>,
    /// Set once, when the text is let go (or was never read).
    pub(super) origin: OnceLock<Origin>,
}

/// Where a text let go is read again, and what its bytes must hash to.
pub(super) struct Origin {
    /// The file whose text this is: its path and digest say where to read and what the
    /// bytes must hash to (held once, by the file: a repository's released files are many).
    pub(super) owner: Weak<SourceFile>,
    /// The run's file system (the disk confined to the repository): a path that became a
    /// link out of the repository since is not read back either.
    pub(super) fs: Arc<dyn FileSystem>,
}

/// A file's bytes decoded: the text, and where U+FFFD stands for bytes that are not UTF-8
/// (spans are offsets into the text, but every output gives offsets into the file as stored).
pub(super) struct Decoded {
    pub(super) text: String,
    pub(super) replaced: Replacements,
}

/// Where the U+FFFDs of a lossily decoded file stand and how many stored bytes each replaced:
/// as runs of U+FFFDs one after another that each replaced as many bytes (megabytes of bytes
/// that are not UTF-8 are one run, where an entry each took 16 bytes for each byte), with
/// the shift at every [`CHECKPOINT`]th run, so an offset is mapped from the nearest one.
#[derive(Default)]
pub(super) struct Replacements {
    runs: Vec<Run>,
    /// The stored file's bytes less the text's, before run `k * CHECKPOINT`.
    shifts: Vec<i64>,
    /// The same after the last run so far.
    shift: i64,
}

/// U+FFFDs one after another in the text, from `at`, each for the same number of stored
/// bytes (1 to 3: the longest sequence `utf8_chunks` calls invalid). Eight bytes: offsets fit
/// 32 bits (no file over 64 MiB is read, and its text is at most three times it), and the
/// count and the length share a word (where runs of one alternate with text, each run is
/// held for every two bytes of the file).
#[derive(Debug, Clone, Copy)]
struct Run {
    at: u32,
    /// The count, shifted past the two bits of the length.
    count_len: u32,
}

impl Run {
    fn count(self) -> u32 {
        self.count_len >> 2
    }

    fn stored_len(self) -> u8 {
        (self.count_len & 3) as u8
    }

    /// Bytes the stored file holds more than the text for this run (at most none).
    fn shift(self) -> i64 {
        i64::from(self.count()) * (i64::from(self.stored_len()) - REPLACEMENT_LEN as i64)
    }
}

/// Runs between two kept shifts.
const CHECKPOINT: usize = 64;

/// The three bytes of U+FFFD in UTF-8.
pub(super) const REPLACEMENT_LEN: usize = '\u{fffd}'.len_utf8();

impl Replacements {
    /// Note a U+FFFD at `at` of the text for `stored_len` stored bytes (in order).
    fn push(&mut self, at: usize, stored_len: usize) {
        let (Ok(at), Ok(len)) = (u32::try_from(at), u8::try_from(stored_len)) else {
            return;
        };
        if !(1..=3).contains(&len) {
            return;
        }
        let before = self.shift;
        self.shift += i64::from(len) - REPLACEMENT_LEN as i64;
        if let Some(last) = self.runs.last_mut()
            && last.stored_len() == len
            && last.count() < u32::MAX >> 2
            && u64::from(last.at) + u64::from(last.count()) * REPLACEMENT_LEN as u64
                == u64::from(at)
        {
            last.count_len += 1 << 2;
            return;
        }
        if self.runs.len().is_multiple_of(CHECKPOINT) {
            self.shifts.push(before);
        }
        self.runs.push(Run {
            at,
            count_len: 1 << 2 | u32::from(len),
        });
    }

    /// The offset in the stored file of `offset` in the text. Inside a U+FFFD, the start
    /// maps to the start of the bytes it replaced and any later offset to their end.
    pub(super) fn stored_offset(&self, offset: usize) -> usize {
        // The last run that starts before `offset`.
        let before = self.runs.partition_point(|r| (r.at as usize) < offset);
        let Some(k) = before.checked_sub(1) else {
            return offset;
        };
        let from = k - k % CHECKPOINT;
        let mut shift = self.shifts.get(k / CHECKPOINT).copied().unwrap_or(0);
        shift += self.runs[from..k].iter().map(|r| r.shift()).sum::<i64>();
        let r = self.runs[k];
        let (len, count) = (r.stored_len() as usize, r.count() as usize);
        let rel = offset - r.at as usize;
        let (whole, inside) = (rel / REPLACEMENT_LEN, rel % REPLACEMENT_LEN);
        let placed = |text_at: usize, shift: i64| {
            usize::try_from(text_at as i64 + shift).unwrap_or_default()
        };
        if whole >= count {
            return placed(offset, shift + r.shift());
        }
        let run_start = placed(r.at as usize, shift);
        if inside == 0 {
            run_start + whole * len
        } else {
            run_start + (whole + 1) * len
        }
    }
}

impl Decoded {
    /// `bytes` as text, each invalid UTF-8 sequence one U+FFFD; with the stored offset of the
    /// first one.
    pub(super) fn of(bytes: Vec<u8>) -> (Decoded, Option<usize>) {
        // Valid UTF-8 (nearly every file) becomes the text without a copy: a copy held the
        // file twice while it was made.
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => {
                let decoded = Decoded {
                    text,
                    replaced: Replacements::default(),
                };
                return (decoded, None);
            }
            Err(e) => e.into_bytes(),
        };
        let mut text = String::with_capacity(bytes.len());
        let mut replaced = Replacements::default();
        let mut first_invalid = None;
        let mut stored = 0;
        for chunk in bytes.utf8_chunks() {
            text.push_str(chunk.valid());
            stored += chunk.valid().len();
            let invalid = chunk.invalid();
            if !invalid.is_empty() {
                first_invalid.get_or_insert(stored);
                replaced.push(text.len(), invalid.len());
                text.push('\u{fffd}');
                stored += invalid.len();
            }
        }
        replaced.runs.shrink_to_fit();
        let decoded = Decoded { text, replaced };
        (decoded, first_invalid)
    }

    fn empty() -> Decoded {
        Decoded {
            text: String::new(),
            replaced: Replacements::default(),
        }
    }
}

impl Text {
    pub(super) fn held(decoded: Decoded) -> Text {
        Text {
            cell: OnceLock::from(Box::new(decoded)),
            origin: OnceLock::new(),
        }
    }

    /// The text as a `&str`.
    pub fn as_str(&self) -> &str {
        self
    }

    /// True when the text is in memory (not to be read back).
    pub fn is_held(&self) -> bool {
        self.cell.get().is_some()
    }

    pub(super) fn decoded(&self) -> &Decoded {
        self.cell.get_or_init(|| {
            Box::new(match self.origin.get() {
                Some(origin) => origin.read_back(),
                None => Decoded::empty(),
            })
        })
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.decoded().text
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cell.get() {
            Some(decoded) => std::fmt::Debug::fmt(&decoded.text, f),
            None => f.write_str("<not read yet>"),
        }
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Origin {
    /// The text of the file when its bytes still hash to the digest, else empty.
    fn read_back(&self) -> Decoded {
        // The owner is alive: its text is being read.
        let Some(file) = self.owner.upgrade() else {
            return Decoded::empty();
        };
        let Some(digest) = file.digest.get() else {
            return Decoded::empty();
        };
        let Ok(bytes) = self.fs.read(&file.path) else {
            return Decoded::empty();
        };
        if sha256(&bytes) != *digest {
            return Decoded::empty();
        }
        Decoded::of(bytes).0
    }
}

/// SHA-256 of `bytes`.
pub(crate) fn sha256(bytes: &[u8]) -> Digest {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of texts decoded from bytes with invalid sequences of each length, alone
    /// and in runs, maps to the stored offset a walk over each U+FFFD in turn gives.
    #[test]
    fn stored_offsets_match_a_walk_over_every_replacement() {
        let pieces: [&[u8]; 7] = [
            b"a",
            "\u{e9}".as_bytes(),
            b"\xff",
            b"\xc3",
            b"\xe2\x82",
            b"\xf0\x9f\x98",
            b"\n",
        ];
        let mut seed: u64 = 0x5eed_0f0f_1234_5678;
        let mut most_runs = 0;
        for _ in 0..60 {
            let mut bytes = Vec::new();
            // Up to 300 pieces: past the checkpoint of 64 runs.
            for _ in 0..(seed % 300) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let piece = pieces[(seed % pieces.len() as u64) as usize];
                // One piece in eight repeated up to 40 times: a run.
                let times = if (seed >> 20).is_multiple_of(8) {
                    (seed >> 30) % 40
                } else {
                    1
                };
                for _ in 0..times {
                    bytes.extend_from_slice(piece);
                }
            }
            let mut walk: Vec<(usize, usize)> = Vec::new();
            let mut at = 0;
            for chunk in bytes.utf8_chunks() {
                at += chunk.valid().len();
                if !chunk.invalid().is_empty() {
                    walk.push((at, chunk.invalid().len()));
                    at += REPLACEMENT_LEN;
                }
            }
            let expected = |offset: usize| {
                let mut shift: isize = 0;
                for &(at, len) in &walk {
                    if offset <= at {
                        break;
                    }
                    if offset < at + REPLACEMENT_LEN {
                        return at.saturating_add_signed(shift) + len;
                    }
                    shift += len as isize - REPLACEMENT_LEN as isize;
                }
                offset.saturating_add_signed(shift)
            };
            let (decoded, _) = Decoded::of(bytes.clone());
            most_runs = most_runs.max(decoded.replaced.runs.len());
            for offset in 0..=decoded.text.len() {
                assert_eq!(
                    decoded.replaced.stored_offset(offset),
                    expected(offset),
                    "offset {offset} of {bytes:?}"
                );
            }
        }
        assert!(most_runs > 2 * CHECKPOINT, "{most_runs} runs at most");
    }

    /// Megabytes of bytes that are not UTF-8 are one run.
    #[test]
    fn a_run_of_invalid_bytes_is_held_once() {
        let (decoded, first) = Decoded::of([b"ok ".as_slice(), &[0xff; 100_000]].concat());
        assert_eq!(first, Some(3));
        assert_eq!(decoded.replaced.runs.len(), 1);
        assert_eq!(decoded.replaced.stored_offset(decoded.text.len()), 100_003);
    }
}
