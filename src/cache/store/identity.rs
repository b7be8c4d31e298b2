//! What checks a stored result's blobs and what identifies the result across runs, worked
//! out on each core before the single writer is taken.

use super::super::hash::{self, Check};
use super::super::track::{Dep, Seen};
use super::write::{NewFile, Parts};
use crate::source::Digest;

/// A result to store with what checks and identifies it, worked out before the writer is
/// taken (the writer is one for all the cores).
pub struct Checked {
    /// The result.
    pub parts: Parts,
    pub(super) notes: Option<Check>,
    pub(super) item: Option<Check>,
    pub(super) sum: Digest,
}

impl Checked {
    /// What identifies the result.
    #[cfg(test)]
    pub fn sum(&self) -> &Digest {
        &self.sum
    }
}

impl Parts {
    /// The result with the checks of its blobs and its identity (which `deps`, what its
    /// load read besides its files, are part of).
    pub fn checked(self, deps: &[Dep]) -> Checked {
        let notes = self.notes.as_deref().map(hash::check);
        let item = self.item.as_deref().map(hash::check);
        let sum = result_sum(notes, item, &self.files, self.tools, deps);
        Checked {
            parts: self,
            notes,
            item,
            sum,
        }
    }
}

/// What identifies a stored result: the checks of its blobs, and the digests of its files
/// and of what else its load read (a result changes only with what it was made from, and
/// these say so in SHA-256, which no one can make collide on purpose).
fn result_sum(
    notes: Option<Check>,
    item: Option<Check>,
    files: &[NewFile],
    tools: u32,
    deps: &[Dep],
) -> Digest {
    let mut hash = sha2::Sha256::default();
    for check in [notes, item] {
        match check {
            Some(c) => sha2::Digest::update(&mut hash, c),
            None => sha2::Digest::update(&mut hash, [0; 16]),
        }
    }
    for f in files {
        sha2::Digest::update(&mut hash, f.path.as_bytes());
        sha2::Digest::update(&mut hash, [0, f.format as u8]);
        sha2::Digest::update(&mut hash, (f.bom_len as u32).to_le_bytes());
        sha2::Digest::update(&mut hash, f.digest);
    }
    sha2::Digest::update(&mut hash, tools.to_le_bytes());
    for d in deps {
        let path = d.path().as_os_str().as_encoded_bytes();
        sha2::Digest::update(&mut hash, (path.len() as u64).to_le_bytes());
        sha2::Digest::update(&mut hash, path);
        // What was there, not when: a file touched but the same leaves the result the same.
        match d.seen() {
            Seen::Absent => sha2::Digest::update(&mut hash, [1]),
            Seen::Present => sha2::Digest::update(&mut hash, [2]),
            Seen::Read(_, digest) => {
                sha2::Digest::update(&mut hash, [3]);
                sha2::Digest::update(&mut hash, digest);
            }
            Seen::Listed(digest) => {
                sha2::Digest::update(&mut hash, [4]);
                sha2::Digest::update(&mut hash, digest);
            }
            Seen::LinkOut(None) => sha2::Digest::update(&mut hash, [5]),
            Seen::LinkOut(Some(to)) => {
                sha2::Digest::update(&mut hash, [6]);
                sha2::Digest::update(&mut hash, (to.len() as u64).to_le_bytes());
                sha2::Digest::update(&mut hash, to.as_bytes());
            }
        }
    }
    sha2::Digest::finalize(hash).into()
}
