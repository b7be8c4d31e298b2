//! What a file's load depends on besides its own bytes: every other path it read or looked
//! for, with what was there, so that a later run can tell whether any of it changed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::fs::{DirEntry, EntryKind, FileSystem, Noted, ReadError};
use crate::source::{Digest, sha256};

/// The metadata compared before a file is hashed: size, mtime, inode and status-change time
/// (which no one can set: a restore with `cp -p` keeps size and mtime, not that).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stat {
    /// Size in bytes.
    pub len: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime: i64,
    /// Status-change time, nanoseconds since the epoch (0 where there is none).
    pub changed: i64,
    /// The inode (0 where there is none): an editor's save by rename gives a new one.
    pub inode: u64,
}

impl Stat {
    /// Metadata no file has: a dependency recorded with it is hashed on every later check.
    pub(crate) const UNTRUSTED: Stat = Stat {
        len: u64::MAX,
        mtime: i64::MIN,
        changed: i64::MIN,
        inode: u64::MAX,
    };

    /// True when the file was modified or changed within two seconds of `now` (or after
    /// it): an edit within the timestamp's granularity keeps its metadata.
    pub(crate) fn is_recent(&self, now: SystemTime) -> bool {
        let now = nanos(Ok(now));
        self.mtime.max(self.changed).saturating_add(2_000_000_000) >= now
    }

    /// The metadata of the regular file at `path`, if it is one: a link is not (what it
    /// leads to is read, when it may be, through the run's file system, never from the cache).
    pub(crate) fn of(path: &Path) -> Option<Stat> {
        let m = std::fs::symlink_metadata(path).ok()?;
        m.is_file().then(|| Stat::of_metadata(&m))
    }

    /// The fields of `m`.
    pub(crate) fn of_metadata(m: &std::fs::Metadata) -> Stat {
        #[cfg(unix)]
        let (changed, inode) = {
            use std::os::unix::fs::MetadataExt;
            (
                m.ctime().saturating_mul(1_000_000_000) + m.ctime_nsec(),
                m.ino(),
            )
        };
        #[cfg(not(unix))]
        let (changed, inode) = (0, 0);
        Stat {
            len: m.len(),
            mtime: nanos(m.modified()),
            changed,
            inode,
        }
    }
}

/// A time as nanoseconds since the epoch (negative before it, 0 when unknown).
fn nanos(t: std::io::Result<SystemTime>) -> i64 {
    match t.map(|t| t.duration_since(UNIX_EPOCH)) {
        Ok(Ok(d)) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Ok(Err(e)) => -i64::try_from(e.duration().as_nanos()).unwrap_or(i64::MAX),
        Err(_) => 0,
    }
}

/// One other path a load asked about, and what it found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Dep {
    path: PathBuf,
    /// What was found there.
    pub(super) seen: Seen,
}

/// What a load found at a path it asked about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Seen {
    /// No file there.
    Absent,
    /// A file there, only asked about.
    Present,
    /// A file there, read: its metadata before the read and the digest of what was read.
    Read(Stat, Digest),
    /// A folder there, listed: the digest of its listing.
    Listed(Digest),
    /// Asked whether a link on its way leads out of the repository: where to, if it does
    /// (as text: a path that is not UTF-8 would make the whole index unwritable).
    LinkOut(Option<String>),
}

/// The question a [`Seen`] answers: each is compared apart from the others at one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Question {
    /// Is there a file (and what is in it)?
    File,
    /// What does the folder hold?
    Listing,
    /// Does a link lead out?
    LinkOut,
}

impl Seen {
    fn question(&self) -> Question {
        match self {
            Seen::Absent | Seen::Present | Seen::Read(..) => Question::File,
            Seen::Listed(_) => Question::Listing,
            Seen::LinkOut(_) => Question::LinkOut,
        }
    }
}

/// The digest of a folder listing: names, kinds and execute bits.
fn listing_digest(entries: &[DirEntry]) -> Digest {
    let mut text = Vec::new();
    for e in entries {
        text.extend_from_slice(e.name.as_bytes());
        text.push(0);
        text.push(match e.kind {
            EntryKind::File => b'f',
            EntryKind::Dir => b'd',
            EntryKind::Link => b'l',
            EntryKind::Other => b'o',
        });
        text.push(match e.executable {
            Some(true) => b'x',
            Some(false) => b'-',
            None => b'?',
        });
    }
    sha256(&text)
}

/// Where a link out leads, as [`Seen::LinkOut`] keeps it.
fn target_text(target: Option<PathBuf>) -> Option<String> {
    target.map(|t| t.to_string_lossy().into_owned())
}

impl Dep {
    /// The path asked about.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The path asked about, owned.
    pub(crate) fn into_path(self) -> PathBuf {
        self.path
    }
}

impl Seen {
    /// True when `fs` still shows this at `path` (a file read: the same metadata, or else
    /// the same bytes).
    pub(crate) fn unchanged(&self, path: &Path, fs: &dyn FileSystem) -> bool {
        match self {
            Seen::Absent => !fs.is_file(path),
            Seen::Present => fs.is_file(path),
            Seen::Read(stat_then, digest) => {
                Stat::of(path) == Some(*stat_then)
                    || fs.read(path).is_ok_and(|b| sha256(&b) == *digest)
            }
            Seen::Listed(digest) => listing_digest(&fs.list_dir(path)) == *digest,
            Seen::LinkOut(target) => target_text(fs.link_out(path)) == *target,
        }
    }
}

/// A file system that notes every path a load asks about, with what it found.
pub(crate) struct Tracker<'a> {
    fs: &'a dyn FileSystem,
    /// The file whose load this is: its own bytes are the cache's key already.
    own: Option<&'a Path>,
    /// What was found, by path and question: one look-up per ask, however many were made
    /// (a list scanned per ask made a file of 60,000 tools quadratic).
    seen: Mutex<HashMap<(PathBuf, Question), Seen>>,
    /// A read failed in a way that a later run cannot compare: the load is not cached.
    opaque: Mutex<bool>,
    /// The metadata of `own` before it was first read (set by the first read; `None` in it:
    /// not a regular file, or its file system has no metadata).
    own_stat: OnceLock<Option<Stat>>,
}

impl<'a> Tracker<'a> {
    /// Track the asks made of `fs`.
    pub(crate) fn new(fs: &'a dyn FileSystem) -> Tracker<'a> {
        Tracker {
            fs,
            own: None,
            seen: Mutex::new(HashMap::new()),
            opaque: Mutex::new(false),
            own_stat: OnceLock::new(),
        }
    }

    /// Track the asks made of `fs` by the load of the file at `own` (whose reads are not
    /// noted: the cache keys the file by its own metadata and bytes).
    pub(crate) fn for_file(fs: &'a dyn FileSystem, own: &'a Path) -> Tracker<'a> {
        Tracker {
            own: Some(own),
            ..Tracker::new(fs)
        }
    }

    fn note(&self, path: &Path, seen: Seen) {
        let mut list = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        // A listing (or a link's target) is compared apart from what was read or looked for
        // at the same path.
        let question = seen.question();
        match list.get_mut(&(path.to_path_buf(), question)) {
            // Read twice, and not the same bytes: what the load made of them cannot be told
            // from one record. The first read's record stays; the load is not stored.
            Some(Seen::Read(_, first)) if matches!(&seen, Seen::Read(_, again) if again != first) =>
            {
                drop(list);
                *self.opaque.lock().unwrap_or_else(|e| e.into_inner()) = true;
            }
            Some(Seen::Read(..)) => {}
            // A read says more than a look.
            Some(d) if matches!(seen, Seen::Read(..)) || *d == Seen::Absent => *d = seen,
            Some(_) => {}
            None => {
                list.insert((path.to_path_buf(), question), seen);
            }
        }
    }

    /// The metadata of the file whose load this is, from before the load first read it;
    /// none when it was not read or is not a regular file on the disk.
    pub(crate) fn own_stat(&self) -> Option<Stat> {
        self.own_stat.get().copied().flatten()
    }

    /// The paths asked about other than `own`, sorted, and whether a later run can check
    /// all of them again (false when a read failed: what failed is not compared).
    pub(crate) fn finish(self, own: &Path) -> (Vec<Dep>, bool) {
        let opaque = self.opaque.into_inner().unwrap_or_else(|e| e.into_inner());
        let seen = self.seen.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut deps: Vec<((PathBuf, Question), Seen)> =
            seen.into_iter().filter(|((p, _), _)| p != own).collect();
        deps.sort_by(|a, b| a.0.cmp(&b.0));
        let deps = deps
            .into_iter()
            .map(|((path, _), seen)| Dep { path, seen })
            .collect();
        (deps, !opaque)
    }
}

impl FileSystem for Tracker<'_> {
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        self.read_noted(path).bytes
    }

    fn read_noted(&self, path: &Path) -> Noted {
        let noted = self.fs.read_noted(path);
        // Taken before the read: a change during the load shows as new metadata next time.
        let before = noted
            .before
            .as_ref()
            .filter(|m| m.is_file())
            .map(Stat::of_metadata);
        if self.own == Some(path) {
            if noted.bytes.is_err() {
                *self.opaque.lock().unwrap_or_else(|e| e.into_inner()) = true;
            }
            // The first read's: a second one may see a later change.
            let _ = self.own_stat.set(before);
            return noted;
        }
        match (&noted.bytes, before) {
            // As for the definition itself: a file modified in the clock tick of this read is
            // hashed next time, whatever its metadata says then.
            (Ok(bytes), Some(stat)) => {
                let stat = if stat.is_recent(SystemTime::now()) {
                    Stat::UNTRUSTED
                } else {
                    stat
                };
                self.note(path, Seen::Read(stat, sha256(bytes)));
            }
            // What `is_file` would have said no to (a reader that reads without asking
            // first): a later run compares it the same way.
            (Err(e), _) if e.is_not_a_file() => self.note(path, Seen::Absent),
            _ => {
                self.note(path, Seen::Absent);
                *self.opaque.lock().unwrap_or_else(|e| e.into_inner()) = true;
            }
        }
        noted
    }

    fn is_file(&self, path: &Path) -> bool {
        let found = self.fs.is_file(path);
        self.note(path, if found { Seen::Present } else { Seen::Absent });
        found
    }

    fn list_dir(&self, path: &Path) -> Vec<DirEntry> {
        let entries = self.fs.list_dir(path);
        self.note(path, Seen::Listed(listing_digest(&entries)));
        entries
    }

    fn link_out(&self, path: &Path) -> Option<PathBuf> {
        let target = self.fs.link_out(path);
        self.note(path, Seen::LinkOut(target_text(target.clone())));
        target
    }
}
