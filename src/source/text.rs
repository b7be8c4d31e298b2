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
    pub(super) replaced: Box<[Replaced]>,
}

/// One U+FFFD of a lossily decoded file and how many stored bytes it stands for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Replaced {
    /// Offset of the U+FFFD in the decoded text.
    pub(super) at: usize,
    /// Length of the invalid byte sequence it replaced.
    pub(super) stored_len: usize,
}

/// The three bytes of U+FFFD in UTF-8.
pub(super) const REPLACEMENT_LEN: usize = '\u{fffd}'.len_utf8();

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
                    replaced: Box::default(),
                };
                return (decoded, None);
            }
            Err(e) => e.into_bytes(),
        };
        let mut text = String::with_capacity(bytes.len());
        let mut replaced = Vec::new();
        let mut first_invalid = None;
        let mut stored = 0;
        for chunk in bytes.utf8_chunks() {
            text.push_str(chunk.valid());
            stored += chunk.valid().len();
            let invalid = chunk.invalid();
            if !invalid.is_empty() {
                first_invalid.get_or_insert(stored);
                replaced.push(Replaced {
                    at: text.len(),
                    stored_len: invalid.len(),
                });
                text.push('\u{fffd}');
                stored += invalid.len();
            }
        }
        let decoded = Decoded {
            text,
            replaced: replaced.into_boxed_slice(),
        };
        (decoded, first_invalid)
    }

    fn empty() -> Decoded {
        Decoded {
            text: String::new(),
            replaced: Box::default(),
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
