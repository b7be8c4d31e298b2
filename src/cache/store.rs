//! The cache file: a header naming the build that wrote it, each file's stored result (a
//! record), what else the cache keeps (the walks, the cross-file findings), and an index of
//! the records at the end, found through a footer.
//!
//! ```text
//! MAGIC | header length (u32) | header | records… | extra | index | footer
//! footer: extra offset, extra length, index offset, index length (u64 each),
//!         SHA-256 of extra and index, END
//! ```
//!
//! Opening the cache reads the footer and the index (one allocation for all the paths, one
//! for the entries, one for their dependencies); a record is read when its file is looked up,
//! and checked against its SHA-256 then. Anything that does not read back whole (another
//! build, a short file, a bad digest) is no cache at all.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use super::track::{Dep, Seen};
use super::{Stat, disk};
use crate::source::{Digest, FormatId, sha256};

/// How the cache file starts.
const MAGIC: &[u8; 8] = b"toolc\0c\0";
/// How it ends.
const END: &[u8; 8] = b"toolc\0i\0";
/// Bumped when the layout of the cache file changes.
const LAYOUT: u32 = 4;
const FOOTER: usize = 8 * 4 + 32 + 8;

/// What the cache file says first: which build wrote it.
#[derive(Serialize, Deserialize)]
struct Header {
    layout: u32,
    build: String,
}

/// A byte range in [`Index::names`].
type Name = (u32, u32);

/// Every record's entry, sorted by path.
#[derive(Serialize, Deserialize, Default)]
struct Index {
    /// Every path, one after the other.
    names: String,
    entries: Vec<Entry>,
    deps: Vec<DepEntry>,
}

/// What the cache knows of one file before its record is read.
#[derive(Serialize, Deserialize, Clone)]
pub struct Entry {
    path: Name,
    /// The working directory of the run that stored it: messages name files relative to it.
    cwd: Name,
    /// The format it was read as.
    pub format: FormatId,
    /// Whether its content has the format's shape, when that was asked ([`Claim::ByContent`]);
    /// a file not claimed has an empty record.
    ///
    /// [`Claim::ByContent`]: crate::discover::Claim::ByContent
    pub claimed: Option<bool>,
    /// Its metadata when it was read.
    pub stat: Stat,
    /// The SHA-256 of its bytes.
    pub digest: Digest,
    /// Stored within two seconds of its modification: the metadata filter is not trusted.
    pub racy: bool,
    deps: (u32, u32),
    at: u64,
    len: u32,
    sum: Digest,
}

impl Entry {
    /// The SHA-256 of its record.
    pub fn sum(&self) -> &Digest {
        &self.sum
    }
}

#[derive(Serialize, Deserialize)]
struct DepEntry {
    path: Name,
    seen: Seen,
}

/// What a new record says of its file (its path and dependencies apart).
pub struct Meta {
    /// The format it was read as.
    pub format: FormatId,
    /// See [`Entry::claimed`].
    pub claimed: Option<bool>,
    /// Its metadata before it was read.
    pub stat: Stat,
    /// The SHA-256 of its bytes.
    pub digest: Digest,
    /// See [`Entry::racy`].
    pub racy: bool,
}

/// The cache file as it was when the run started.
pub struct Old {
    file: File,
    index: Index,
    /// Used as it is by this run: copied into the next file.
    kept: Vec<AtomicBool>,
    /// A new record replaces it.
    replaced: Vec<AtomicBool>,
    extra: Vec<u8>,
}

impl Old {
    /// The cache file `path`, when it is whole and was written by `build`.
    pub fn open(path: &Path, build: &str) -> Option<Old> {
        let file = disk::open(path)?;
        let len = file.metadata().ok()?.len();
        let mut head = [0; 12];
        read_at(&file, &mut head, 0)?;
        if &head[..8] != MAGIC {
            return None;
        }
        let header_len = u32::from_le_bytes(head[8..12].try_into().ok()?) as usize;
        if header_len > 4096 {
            return None;
        }
        let mut header = vec![0; header_len];
        read_at(&file, &mut header, 12)?;
        let header: Header = postcard::from_bytes(&header).ok()?;
        if header.layout != LAYOUT || header.build != build {
            return None;
        }
        let mut footer = [0; FOOTER];
        read_at(&file, &mut footer, len.checked_sub(FOOTER as u64)?)?;
        if &footer[FOOTER - 8..] != END {
            return None;
        }
        let number = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                footer.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        let (extra_at, extra_len, index_at, index_len) =
            (number(0)?, number(1)?, number(2)?, number(3)?);
        if extra_at.checked_add(extra_len)? != index_at
            || index_at.checked_add(index_len)? != len - FOOTER as u64
        {
            return None;
        }
        let mut tail = vec![0; usize::try_from(extra_len + index_len).ok()?];
        read_at(&file, &mut tail, extra_at)?;
        if sha256(&tail) != footer[32..64] {
            return None;
        }
        let index_bytes = tail.split_off(extra_len as usize);
        let index: Index = postcard::from_bytes(&index_bytes).ok()?;
        let names_len = index.names.len();
        let whole = index.entries.iter().all(|e| {
            in_range(e.path, names_len)
                && in_range(e.cwd, names_len)
                && (e.deps.0 as usize) <= (e.deps.1 as usize)
                && (e.deps.1 as usize) <= index.deps.len()
                && e.at
                    .checked_add(u64::from(e.len))
                    .is_some_and(|end| end <= extra_at)
        }) && index.deps.iter().all(|d| in_range(d.path, names_len))
            && index
                .entries
                .windows(2)
                .all(|w| name(&index.names, w[0].path) < name(&index.names, w[1].path));
        if !whole {
            return None;
        }
        let n = index.entries.len();
        Some(Old {
            file,
            index,
            kept: (0..n).map(|_| AtomicBool::new(false)).collect(),
            replaced: (0..n).map(|_| AtomicBool::new(false)).collect(),
            extra: tail,
        })
    }

    /// What is stored besides the records.
    pub fn extra(&self) -> &[u8] {
        &self.extra
    }

    /// The entry of the file at `path`, and its number.
    pub fn find(&self, path: &Path) -> Option<(usize, &Entry)> {
        let path = path.to_str()?;
        let i = self
            .index
            .entries
            .binary_search_by(|e| name(&self.index.names, e.path).cmp(path))
            .ok()?;
        Some((i, &self.index.entries[i]))
    }

    /// The working directory of the run that stored entry `i`.
    pub fn cwd(&self, i: usize) -> &str {
        name(&self.index.names, self.index.entries[i].cwd)
    }

    /// The paths entry `i`'s load asked about, with what it found.
    pub fn deps(&self, i: usize) -> impl Iterator<Item = (&Path, &Seen)> {
        let (from, to) = self.index.entries[i].deps;
        self.index.deps[from as usize..to as usize]
            .iter()
            .map(|d| (Path::new(name(&self.index.names, d.path)), &d.seen))
    }

    /// The record of entry `i`, when it reads back whole.
    pub fn record(&self, i: usize) -> Option<Vec<u8>> {
        let e = &self.index.entries[i];
        let mut bytes = vec![0; e.len as usize];
        read_at(&self.file, &mut bytes, e.at)?;
        (sha256(&bytes) == e.sum).then_some(bytes)
    }

    /// Entry `i` is used as it is.
    pub fn keep(&self, i: usize) {
        self.kept[i].store(true, Ordering::Relaxed);
    }

    /// True when entry `i` is used as it is.
    pub fn is_kept(&self, i: usize) -> bool {
        self.kept[i].load(Ordering::Relaxed)
    }

    /// Entry `i` has a new record.
    pub fn replace(&self, i: usize) {
        self.replaced[i].store(true, Ordering::Relaxed);
    }

    /// The entries to carry over into the next file: kept, or (not replaced) of a file
    /// `elsewhere` says this run did not look at; and whether any entry is dropped.
    fn carried(&self, elsewhere: &dyn Fn(&Path) -> bool) -> (Vec<usize>, bool) {
        let mut carried = Vec::new();
        let mut dropped = false;
        for (i, e) in self.index.entries.iter().enumerate() {
            if self.replaced[i].load(Ordering::Relaxed) {
                continue;
            }
            let path = Path::new(name(&self.index.names, e.path));
            if self.kept[i].load(Ordering::Relaxed) || elsewhere(path) {
                carried.push(i);
            } else {
                dropped = true;
            }
        }
        (carried, dropped)
    }
}

/// Fill `buf` from `file` at `offset`, without moving a shared position (threads read at
/// once).
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> Option<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset).ok()
}

#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> Option<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_read(file, buf, offset).ok()?;
        if n == 0 {
            return None;
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Some(())
}

fn in_range((from, to): Name, len: usize) -> bool {
    from <= to && to as usize <= len
}

fn name(names: &str, (from, to): Name) -> &str {
    names.get(from as usize..to as usize).unwrap_or("")
}

/// A new record, until the index is written.
struct New {
    path: String,
    cwd: String,
    meta: Meta,
    deps: Vec<Dep>,
    at: u64,
    len: u32,
    sum: Digest,
}

/// A cache file being written.
pub struct Writer {
    tmp: PathBuf,
    /// This run's working directory.
    cwd: String,
    out: BufWriter<File>,
    at: u64,
    new: Vec<New>,
    /// False after a failed write: the file is then not used.
    ok: bool,
}

impl Writer {
    /// A new file beside the cache file `dest`, for `build`, by a run in `cwd`.
    pub fn create(dest: &Path, build: &str, cwd: &Path) -> Option<Writer> {
        let (tmp, file) = disk::create_beside(dest)?;
        let header = postcard::to_allocvec(&Header {
            layout: LAYOUT,
            build: build.to_string(),
        })
        .ok()?;
        let mut w = Writer {
            tmp,
            cwd: cwd.to_str()?.to_string(),
            out: BufWriter::with_capacity(256 * 1024, file),
            at: 0,
            new: Vec::new(),
            ok: true,
        };
        w.write(MAGIC);
        w.write(&(header.len() as u32).to_le_bytes());
        w.write(&header);
        Some(w)
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.ok {
            self.ok = self.out.write_all(bytes).is_ok();
            self.at += bytes.len() as u64;
        }
    }

    /// Add the record of the file at `path`, `blob` whose SHA-256 is `sum`.
    pub fn record(&mut self, path: &Path, meta: Meta, deps: Vec<Dep>, blob: &[u8], sum: Digest) {
        let (Some(path), Ok(len)) = (path.to_str(), u32::try_from(blob.len())) else {
            return;
        };
        let at = self.at;
        self.write(blob);
        self.new.push(New {
            path: path.to_string(),
            cwd: self.cwd.clone(),
            meta,
            deps,
            at,
            len,
            sum,
        });
    }

    /// Complete the file with the records of `old` to carry over (see [`Old::carried`]) and
    /// `extra`, and put it in place of `dest`.
    pub fn finish(
        mut self,
        dest: &Path,
        old: Option<&Old>,
        elsewhere: &dyn Fn(&Path) -> bool,
        extra: &[u8],
    ) -> bool {
        if let Some(old) = old {
            let (carried, _) = old.carried(elsewhere);
            self.copy(old, &carried);
        }
        let extra_at = self.at;
        self.write(extra);
        let index = self.index();
        let index_at = self.at;
        let Ok(index_bytes) = postcard::to_allocvec(&index) else {
            let _ = std::fs::remove_file(&self.tmp);
            return false;
        };
        self.write(&index_bytes);
        let mut sum = sha2::Sha256::default();
        sha2::Digest::update(&mut sum, extra);
        sha2::Digest::update(&mut sum, &index_bytes);
        let sum: Digest = sha2::Digest::finalize(sum).into();
        let mut footer = Vec::with_capacity(FOOTER);
        for n in [
            extra_at,
            extra.len() as u64,
            index_at,
            index_bytes.len() as u64,
        ] {
            footer.extend_from_slice(&n.to_le_bytes());
        }
        footer.extend_from_slice(&sum);
        footer.extend_from_slice(END);
        self.write(&footer);
        let Writer { tmp, out, ok, .. } = self;
        // A cache that cannot be written costs the next run time, never a result.
        if ok && out.into_inner().is_ok() {
            disk::commit(&tmp, dest)
        } else {
            let _ = std::fs::remove_file(&tmp);
            false
        }
    }

    /// Copy the records `which` of `old`, neighbours in one go, noting their new offsets.
    fn copy(&mut self, old: &Old, which: &[usize]) {
        let mut order: Vec<usize> = which.to_vec();
        order.sort_by_key(|&i| old.index.entries[i].at);
        let mut source = &old.file;
        let mut i = 0;
        self.ok &= self.out.flush().is_ok();
        while i < order.len() && self.ok {
            let first = &old.index.entries[order[i]];
            let start = first.at;
            let mut end = start + u64::from(first.len);
            let mut j = i + 1;
            while j < order.len() && old.index.entries[order[j]].at == end {
                end += u64::from(old.index.entries[order[j]].len);
                j += 1;
            }
            let base = self.at;
            // Straight into the file (the kernel copies), past the writer's empty buffer.
            let copied = source
                .seek(SeekFrom::Start(start))
                .and_then(|_| std::io::copy(&mut source.take(end - start), self.out.get_mut()));
            self.ok &= copied.is_ok_and(|n| n == end - start);
            self.at += end - start;
            for &k in &order[i..j] {
                let e = &old.index.entries[k];
                let deps = old
                    .deps(k)
                    .map(|(p, s)| Dep::new(p.to_path_buf(), s.clone()))
                    .collect();
                self.new.push(New {
                    path: name(&old.index.names, e.path).to_string(),
                    cwd: name(&old.index.names, e.cwd).to_string(),
                    meta: Meta {
                        format: e.format,
                        claimed: e.claimed,
                        stat: e.stat,
                        digest: e.digest,
                        racy: e.racy,
                    },
                    deps,
                    at: base + (e.at - start),
                    len: e.len,
                    sum: e.sum,
                });
            }
            i = j;
        }
    }

    /// The index of every record written, sorted by path (a path written twice: the last).
    fn index(&mut self) -> Index {
        let mut new = std::mem::take(&mut self.new);
        // The last record of a path wins: stable sort, then keep the last of each run.
        new.sort_by(|a, b| a.path.cmp(&b.path));
        let mut index = Index::default();
        let push = |names: &mut String, s: &str| -> Name {
            let from = names.len() as u32;
            names.push_str(s);
            (from, names.len() as u32)
        };
        let count = new.len();
        let mut cwds: Vec<(String, Name)> = Vec::new();
        for (k, n) in new.iter().enumerate() {
            if k + 1 < count && new[k + 1].path == n.path {
                continue;
            }
            let path = push(&mut index.names, &n.path);
            let cwd = match cwds.iter().find(|(c, _)| *c == n.cwd) {
                Some((_, at)) => *at,
                None => {
                    let at = push(&mut index.names, &n.cwd);
                    cwds.push((n.cwd.clone(), at));
                    at
                }
            };
            let from = index.deps.len() as u32;
            for d in &n.deps {
                let p = push(&mut index.names, &d.path().to_string_lossy());
                index.deps.push(DepEntry {
                    path: p,
                    seen: d.seen().clone(),
                });
            }
            index.entries.push(Entry {
                path,
                cwd,
                format: n.meta.format,
                claimed: n.meta.claimed,
                stat: n.meta.stat,
                digest: n.meta.digest,
                racy: n.meta.racy,
                deps: (from, index.deps.len() as u32),
                at: n.at,
                len: n.len,
                sum: n.sum,
            });
        }
        index
    }
}

/// Whether a cache built from `old` and `writer` would differ from `old`: new records, or old
/// ones dropped.
pub fn differs(
    old: Option<&Old>,
    writer: Option<&Writer>,
    elsewhere: &dyn Fn(&Path) -> bool,
) -> bool {
    writer.is_some_and(|w| !w.new.is_empty()) || old.is_some_and(|o| o.carried(elsewhere).1)
}
