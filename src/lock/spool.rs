//! `toolc lock` writes the lock as its entries are made. An entry's text is some seven times
//! what a small definition takes in its file (a hash, short hashes of each part), so the lock
//! of a repository of many small tools is many times its largest file: each entry's text goes
//! to a scratch file as soon as it is made, only its place in the lock's order is kept, and
//! the lock is copied from the scratch file in that order.

use std::io::{SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

use sha2::{Digest as _, Sha256};

use super::record::Kind;
use super::{Entry, file};
use crate::fs::boundary::{RepoPath, Scratch};
use crate::ir::{Lowered, Sink};
use crate::source::SourceFile;

/// Where entries' texts wait: a scratch file, or memory when none can be made (a folder
/// toolc may not write in, where a lock that is already up to date is still checked).
trait Store: std::io::Read + Write + std::io::Seek {}

impl<T: std::io::Read + Write + std::io::Seek> Store for T {}

/// Where one entry's text is in the scratch file, and what orders it in the lock: by its
/// file's [`Owner`], then name, then where it is in its file. 24 bytes, its name in
/// [`Spool::names`]: a lock may have hundreds of thousands (a boxed name each took twice
/// what an empty server `"s":{}` takes in its file).
struct Pending {
    /// Where its name starts in [`Spool::names`], and how long it is.
    name: u32,
    name_len: u32,
    /// Into [`Spool::owners`].
    owner: u32,
    /// 0, or one more than the entry's place among its file's definitions.
    index: u32,
    /// Where its text starts in the scratch file: also the order entries were made in.
    at: u32,
    len: u32,
}

/// What an entry's file makes of it, in the order the lock sorts by: tools, then skills,
/// then servers, each by file path and format.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Owner {
    kind: Kind,
    path: String,
    format: String,
}

/// The entries of a lock being written.
pub(super) struct Spool<'r> {
    /// The lock's folder: entry paths are relative to it.
    root: &'r Path,
    scratch: std::io::BufWriter<Box<dyn Store>>,
    owners: Vec<Owner>,
    pending: Vec<Pending>,
    /// The names of the entries pending, one after another.
    names: String,
    /// Where the next entry's text goes in the scratch file.
    end: u32,
    /// The most the entries' texts may take: past it nothing more is kept.
    limit: u32,
    /// An entry's text, reused.
    text: String,
    /// The first error writing the scratch file: the lock is then not written.
    failed: Option<std::io::Error>,
}

impl<'r> Spool<'r> {
    /// A lock of no entries yet, for the folder `root`, of at most `limit` bytes, its scratch
    /// file in `folder` (the lock's; none, the texts wait in memory).
    pub(super) fn new(root: &'r Path, folder: Option<&Path>, limit: u32) -> Spool<'r> {
        let scratch = folder.and_then(|f| Scratch::new(f, file::FILE_NAME).ok());
        let store: Box<dyn Store> = match scratch {
            Some(scratch) => Box::new(scratch),
            None => Box::new(std::io::Cursor::new(Vec::new())),
        };
        Spool {
            root,
            scratch: std::io::BufWriter::new(store),
            owners: Vec::new(),
            pending: Vec::new(),
            names: String::new(),
            end: 0,
            limit: limit.saturating_sub(file::head().len() as u32),
            text: String::new(),
            failed: None,
        }
    }

    /// Add `entry`, the `index`th definition of its file when its format counts them.
    pub(super) fn add(&mut self, entry: &Entry, index: Option<usize>) {
        if self.failed.is_some() {
            return;
        }
        let same =
            |o: &Owner| o.kind == entry.kind && o.path == entry.path && o.format == entry.format;
        // A file's entries come together: only the last file is looked at.
        if !self.owners.last().is_some_and(same) {
            self.owners.push(Owner {
                kind: entry.kind,
                path: entry.path.clone(),
                format: entry.format.clone(),
            });
        }
        self.text.clear();
        file::render_entry(entry, &mut self.text);
        let len = match u32::try_from(self.text.len()) {
            Ok(len) if len <= self.limit - self.end => len,
            _ => {
                self.failed = Some(std::io::Error::other(format!(
                    "it would be more than the {} MiB toolc reads of a file",
                    (self.limit as usize + file::head().len()) >> 20
                )));
                return;
            }
        };
        if let Err(e) = self.scratch.write_all(self.text.as_bytes()) {
            self.failed = Some(e);
            return;
        }
        // The names are in the entries' texts, which the limit holds.
        let name = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push_str(entry.name.as_str());
        self.pending.push(Pending {
            name,
            name_len: u32::try_from(entry.name.len()).unwrap_or(u32::MAX),
            owner: u32::try_from(self.owners.len() - 1).unwrap_or(u32::MAX),
            // A file within the limit holds fewer definitions.
            index: index.map_or(0, |i| {
                u32::try_from(i).map_or(u32::MAX, |i| i.saturating_add(1))
            }),
            at: self.end,
            len,
        });
        self.end += len;
    }

    /// How many entries of `kind` there are.
    pub(super) fn count(&self, kind: Kind) -> usize {
        let owners = &self.owners;
        self.pending
            .iter()
            .filter(|p| owners.get(p.owner as usize).is_some_and(|o| o.kind == kind))
            .count()
    }

    /// Write the lock at `at` unless it already says exactly this; true when written.
    pub(super) fn finish(mut self, at: &RepoPath) -> std::io::Result<bool> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let owners = &self.owners;
        let owner = |p: &Pending| owners.get(p.owner as usize);
        let names = &self.names;
        let name = |p: &Pending| names.get(p.name as usize..p.name as usize + p.name_len as usize);
        // Entries alike in all the rest stay in the order they were made (`at`), as a stable
        // sort keeps them, without its room for half of them.
        self.pending.sort_unstable_by(|a, b| {
            (owner(a), name(a), a.index, a.at).cmp(&(owner(b), name(b), b.index, b.at))
        });
        let mut scratch = self.scratch.into_inner().map_err(|e| e.into_error())?;
        let mut digest = Digest::default();
        copy(&self.pending, &mut scratch, &mut digest)?;
        if same_as(at, &digest) {
            return Ok(false);
        }
        at.write_with(|f| {
            let mut out = std::io::BufWriter::new(f);
            copy(&self.pending, &mut scratch, &mut out)?;
            out.flush()
        })?;
        Ok(true)
    }

    /// A sink of lowered tools that adds each one's entry as it comes.
    pub(super) fn tools(&mut self) -> Tools<'_, 'r> {
        Tools(self)
    }
}

/// Adds each lowered tool's entry to a [`Spool`].
pub(super) struct Tools<'s, 'r>(&'s mut Spool<'r>);

impl<'a> Sink<'a> for Tools<'_, '_> {
    fn tool(&mut self, tool: Lowered<'a>) {
        let entry = super::entry(&tool, self.0.root);
        self.0.add(&entry, tool.tool.provenance.index);
    }

    fn reserve(&mut self, additional: usize) {
        self.0.pending.reserve(additional);
    }

    // A lock that cannot be written wants no more tools: lowering the rest of a manifest of
    // millions only to drop them took most of the time of its refusal.
    fn wants(&mut self, _file: &Arc<SourceFile>, _index: usize) -> bool {
        self.0.failed.is_none()
    }

    fn entries(&mut self, _file: &Arc<SourceFile>) -> std::ops::Range<usize> {
        match self.0.failed {
            None => 0..usize::MAX,
            Some(_) => 0..0,
        }
    }
}

/// Write the lock's head, then the text of each of `pending` read from `scratch`, to `out`.
fn copy(pending: &[Pending], scratch: &mut dyn Store, out: &mut dyn Write) -> std::io::Result<()> {
    out.write_all(file::head().as_bytes())?;
    let mut text = Vec::new();
    for p in pending {
        text.resize(p.len as usize, 0);
        scratch.seek(SeekFrom::Start(u64::from(p.at)))?;
        scratch.read_exact(&mut text)?;
        out.write_all(&text)?;
    }
    Ok(())
}

/// The SHA-256 and length of what is written.
#[derive(Default)]
struct Digest {
    hash: Sha256,
    len: u64,
}

impl Write for Digest {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.hash.update(bytes);
        self.len += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// True when the file at `at` holds what `digest` was taken of (read a piece at a time: a
/// lock may be larger than anything toolc reads whole).
fn same_as(at: &RepoPath, digest: &Digest) -> bool {
    let Ok(mut old) = at.open() else {
        return false;
    };
    if old.metadata().map_or(true, |m| m.len() != digest.len) {
        return false;
    }
    let mut hash = Digest::default();
    std::io::copy(&mut old, &mut hash).is_ok()
        && hash.len == digest.len
        && hash.hash.finalize() == digest.hash.clone().finalize()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("toolc-spool-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".git")).expect("made");
        dir
    }

    fn entry(kind: Kind, path: &str, name: &str, part: &str) -> Entry {
        Entry {
            kind,
            format: "f".into(),
            path: path.into(),
            name: name.into(),
            sha256: "0".repeat(64),
            parts: BTreeMap::from([("run".to_string(), part.to_string())]),
            texts: BTreeMap::new(),
        }
    }

    /// Made in any order, the entries are written as the lock orders them: tools, skills,
    /// servers, each by file and name, then by where they are in their file, and entries
    /// alike in all of that in the order they were made. Written again unchanged, the file
    /// is left alone; a lock larger than the limit is refused and nothing is written.
    #[test]
    fn entries_are_written_in_the_locks_order() {
        let dir = folder("order");
        let at = crate::fs::Repository::of(&dir)
            .configured(Path::new(file::FILE_NAME), &dir)
            .expect("inside");
        let made = [
            (entry(Kind::Server, "a.json", "s", "1"), None),
            (entry(Kind::Tool, "b.json", "x", "2"), Some(1)),
            (entry(Kind::Tool, "b.json", "x", "3"), Some(0)),
            (entry(Kind::Skill, "a/SKILL.md", "k", "4"), None),
            (entry(Kind::Tool, "a.md", "z", "5"), None),
            (entry(Kind::Tool, "a.md", "z", "6"), None),
            (entry(Kind::Tool, "a.md", "y", "7"), None),
        ];
        let order = [6, 4, 5, 2, 1, 3, 0];
        let spool_in = |folder: Option<&Path>, limit: u32| {
            let mut spool = Spool::new(&dir, folder, limit);
            for (e, index) in &made {
                spool.add(e, *index);
            }
            spool.finish(&at)
        };
        let spool = |limit: u32| spool_in(Some(&dir), limit);
        assert!(spool(u32::MAX).expect("written"));
        let sorted: Vec<Entry> = order.iter().map(|&i| made[i].0.clone()).collect();
        let text = std::fs::read_to_string(at.path()).expect("read");
        assert_eq!(text, file::render(&sorted));
        assert!(!spool(u32::MAX).expect("checked"), "the same lock again");
        // Where no scratch file can be made, the texts wait in memory: the same lock.
        let missing = dir.join("missing");
        assert!(!spool_in(Some(&missing), u32::MAX).expect("checked"));
        std::fs::remove_file(at.path()).expect("removed");
        assert!(spool_in(None, u32::MAX).expect("written"));
        assert_eq!(std::fs::read_to_string(at.path()).expect("read"), text);
        let left: Vec<_> = std::fs::read_dir(&dir).expect("listed").collect();
        assert_eq!(left.len(), 2, "only .git and the lock: {left:?}");

        std::fs::remove_file(at.path()).expect("removed");
        assert!(spool(text.len() as u32).is_ok(), "a lock of just the limit");
        std::fs::remove_file(at.path()).expect("removed");
        let refused = spool(text.len() as u32 - 1).expect_err("too large");
        assert!(refused.to_string().contains("more than"), "{refused}");
        assert!(!at.path().exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Once the lock is refused, lowering asks for no more tools: a manifest of millions
    /// past the limit is not lowered to the end only to be dropped.
    #[test]
    fn a_refused_lock_wants_no_more_tools() {
        let dir = folder("refused");
        let file = SourceFile::new(
            dir.join("tools.json"),
            "tools.json".into(),
            crate::source::FormatId::AgentcliManifest,
            String::new(),
        );
        let mut spool = Spool::new(&dir, None, u32::MAX);
        assert!(spool.tools().wants(&file, 1));
        assert_eq!(spool.tools().entries(&file), 0..usize::MAX);
        let mut small = Spool::new(&dir, None, file::head().len() as u32 + 1);
        small.add(&entry(Kind::Tool, "tools.json", "t", "x"), Some(0));
        assert!(!small.tools().wants(&file, 1));
        assert!(small.tools().entries(&file).is_empty());
        assert!(
            small
                .finish(
                    &crate::fs::Repository::of(&dir)
                        .configured(Path::new(file::FILE_NAME), &dir)
                        .expect("inside")
                )
                .is_err()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
