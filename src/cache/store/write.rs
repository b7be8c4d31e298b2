//! Writing a cache file: the blobs of each file loaded by the run as it goes, then at the end
//! the blobs of the old file still good (copied in runs), what else the cache keeps, the
//! index and the footer; renamed into place once whole.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::super::track::{Dep, Seen};
use super::super::{Stat, disk};
use super::Old;
use super::{Blob, DepEntry, END, Entry, FOOTER, FileEntry, Header, Index, LAYOUT, MAGIC, Name};
use crate::source::{Digest, FormatId, sha256};

/// What a new record says of its file (its path, dependencies and result apart).
#[derive(Clone, Copy, Serialize, Deserialize)]
pub struct Meta {
    /// The format it was read as.
    pub format: FormatId,
    /// See [`Entry::claimed`].
    pub claimed: Option<bool>,
    /// Its metadata before it was read.
    pub stat: Stat,
    /// The SHA-256 of its bytes.
    #[serde(with = "super::super::serde_helpers::digest")]
    pub digest: Digest,
    /// See [`Entry::racy`].
    pub racy: bool,
}

/// A file of a result to store.
pub struct NewFile {
    /// Its path.
    pub path: String,
    /// The format it was read as.
    pub format: FormatId,
    /// The length of its byte-order mark.
    pub bom_len: usize,
    /// The SHA-256 of its bytes.
    pub digest: Digest,
}

/// A result to store: its files, its findings and comments (none when there are none), its
/// item (none when there is none) and how many tools it holds.
#[derive(Default)]
pub struct Parts {
    /// The file, then its companions.
    pub files: Vec<NewFile>,
    /// The encoded findings and suppression comments.
    pub notes: Option<Vec<u8>>,
    /// The encoded item.
    pub item: Option<Vec<u8>>,
    /// Tool definitions held.
    pub tools: u32,
}

/// An entry of the new index, until the index is written: kept encoded, one after the
/// other in one buffer (a large repository's entries are not many small allocations among
/// the ones parsing makes and frees).
#[derive(Serialize, Deserialize)]
struct New<'a> {
    path: &'a str,
    cwd: &'a str,
    meta: Meta,
    #[serde(borrow)]
    deps: Vec<(&'a str, Seen)>,
    #[serde(borrow)]
    files: Vec<FileRec<'a>>,
    notes: Option<Blob>,
    item: Option<Blob>,
    tools: u32,
    #[serde(with = "super::super::serde_helpers::digest")]
    sum: Digest,
}

/// A file of a new entry.
#[derive(Serialize, Deserialize)]
struct FileRec<'a> {
    path: &'a str,
    format: FormatId,
    bom_len: u32,
    #[serde(with = "super::super::serde_helpers::digest")]
    digest: Digest,
}

/// A cache file being written.
pub struct Writer {
    tmp: PathBuf,
    /// This run's working directory.
    cwd: Arc<str>,
    out: BufWriter<File>,
    at: u64,
    /// The new entries ([`New`]), encoded, and where each starts.
    new: Vec<u8>,
    starts: Vec<usize>,
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
            cwd: Arc::from(cwd.to_str()?),
            out: BufWriter::with_capacity(256 * 1024, file),
            at: 0,
            new: Vec::new(),
            starts: Vec::new(),
            ok: true,
        };
        w.write(MAGIC);
        w.write(&(header.len() as u32).to_le_bytes());
        w.write(&header);
        Some(w)
    }

    /// True when no record was added.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The new entries, decoded (borrowing their text from the buffer).
    fn entries(&self) -> impl Iterator<Item = New<'_>> {
        let ends = self.starts.iter().skip(1).copied().chain([self.new.len()]);
        self.starts
            .iter()
            .zip(ends)
            .filter_map(|(&from, to)| postcard::from_bytes(self.new.get(from..to)?).ok())
    }

    /// What identifies each new entry's stored result, by path.
    pub fn sums(&self) -> HashMap<&str, Digest> {
        self.entries().map(|n| (n.path, n.sum)).collect()
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.ok {
            self.ok = self.out.write_all(bytes).is_ok();
            self.at += bytes.len() as u64;
        }
    }

    fn blob(&mut self, bytes: Option<&[u8]>) -> Option<Blob> {
        let bytes = bytes?;
        let blob = Blob {
            at: self.at,
            len: u32::try_from(bytes.len()).ok()?,
            sum: sha256(bytes),
        };
        self.write(bytes);
        Some(blob)
    }

    /// Add the record of the file at `path`.
    pub fn record(&mut self, path: &Path, meta: Meta, deps: &[Dep], parts: Parts) {
        let notes = self.blob(parts.notes.as_deref());
        let item = self.blob(parts.item.as_deref());
        let sum = result_sum(notes.as_ref(), item.as_ref(), &parts.files, parts.tools);
        let deps: Option<Vec<(&str, Seen)>> = deps
            .iter()
            .map(|d| Some((d.path().to_str()?, d.seen().clone())))
            .collect();
        if let (Some(path), Some(deps)) = (path.to_str(), deps) {
            let files = parts
                .files
                .iter()
                .map(|f| FileRec {
                    path: &f.path,
                    format: f.format,
                    bom_len: f.bom_len as u32,
                    digest: f.digest,
                })
                .collect();
            let new = New {
                path,
                cwd: &self.cwd,
                meta,
                deps,
                files,
                notes,
                item,
                tools: parts.tools,
                sum,
            };
            let start = self.new.len();
            match postcard::to_extend(&new, std::mem::take(&mut self.new)) {
                Ok(buffer) => {
                    self.new = buffer;
                    self.starts.push(start);
                }
                // Not encoded: the cache is not written (this run's results stand).
                Err(_) => self.ok = false,
            }
        }
    }

    /// Complete the file with the entries of `old` to carry over (see [`Old::carried`]; with
    /// the new metadata of `restat`) and `extra`, and put it in place of `dest`.
    pub fn finish(
        mut self,
        dest: &Path,
        old: Option<&Old>,
        restat: &HashMap<usize, (Stat, bool)>,
        elsewhere: &dyn Fn(&Path) -> bool,
        extra: &[u8],
    ) -> bool {
        let carried = match old {
            Some(old) => {
                let (carried, _) = old.carried(elsewhere);
                let moved = self.copy(old, &carried);
                carried
                    .into_iter()
                    .map(|i| Carried {
                        old,
                        i,
                        notes: moved.get(&(i, false)).copied(),
                        item: moved.get(&(i, true)).copied(),
                        restat: restat.get(&i).copied(),
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        let extra_at = self.at;
        self.write(extra);
        let index = self.index(&carried);
        let index_at = self.at;
        // Straight into the file while it is hashed: the index of a large repository is not
        // held twice.
        let mut sink = Sink {
            out: &mut self.out,
            hash: sha2::Sha256::default(),
            buf: Vec::with_capacity(64 * 1024),
            len: 0,
            ok: self.ok,
        };
        sha2::Digest::update(&mut sink.hash, extra);
        let sink = match postcard::to_extend(&index, sink) {
            Ok(sink) => sink.flushed(),
            Err(_) => {
                let _ = std::fs::remove_file(&self.tmp);
                return false;
            }
        };
        drop(index);
        self.ok = sink.ok;
        self.at += sink.len;
        let sum: Digest = sha2::Digest::finalize(sink.hash).into();
        let mut footer = Vec::with_capacity(FOOTER);
        for n in [extra_at, extra.len() as u64, index_at, sink.len] {
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

    /// Copy the blobs of the entries `which` of `old`, neighbours in one go; returns their
    /// new offsets (by entry, and whether the blob is the item).
    fn copy(&mut self, old: &Old, which: &[usize]) -> HashMap<(usize, bool), u64> {
        let entries = &old.index.entries;
        // Every blob to copy, in file order: (offset, length, entry, is the item).
        let mut blobs: Vec<(u64, u32, usize, bool)> = which
            .iter()
            .flat_map(|&i| {
                let e = &entries[i];
                [(e.notes, false), (e.item, true)]
                    .into_iter()
                    .filter_map(move |(b, is_item)| b.map(|b| (b.at, b.len, i, is_item)))
            })
            .collect();
        blobs.sort_unstable();
        let mut moved: HashMap<(usize, bool), u64> = HashMap::with_capacity(blobs.len());
        self.ok &= self.out.flush().is_ok();
        let mut source: &File = &old.file;
        let mut k = 0;
        while k < blobs.len() && self.ok {
            let start = blobs[k].0;
            let mut end = start + u64::from(blobs[k].1);
            let mut j = k + 1;
            while j < blobs.len() && blobs[j].0 == end {
                end += u64::from(blobs[j].1);
                j += 1;
            }
            let base = self.at;
            // Straight into the file (the kernel copies), past the writer's empty buffer.
            let copied = source
                .seek(SeekFrom::Start(start))
                .and_then(|_| std::io::copy(&mut source.take(end - start), self.out.get_mut()));
            self.ok &= copied.is_ok_and(|n| n == end - start);
            self.at += end - start;
            for &(at, _, i, is_item) in &blobs[k..j] {
                moved.insert((i, is_item), base + (at - start));
            }
            k = j;
        }
        moved
    }

    /// The index of every entry, new and `carried`, sorted by path (a path written twice:
    /// the last).
    fn index(&self, carried: &[Carried<'_>]) -> Index {
        let new: Vec<New<'_>> = self.entries().collect();
        let mut all: Vec<(&str, Source<'_>)> = carried
            .iter()
            .map(|c| (c.path(), Source::Carried(c)))
            .chain(new.iter().map(|n| (n.path, Source::New(n))))
            .collect();
        // The last record of a path wins: stable sort, then keep the last of each run.
        all.sort_by(|a, b| a.0.cmp(b.0));
        let mut index = Index::default();
        // Each path once (a schema file is a dependency and a companion).
        let mut names = Names::default();
        let count = all.len();
        for k in 0..count {
            if k + 1 < count && all[k + 1].0 == all[k].0 {
                continue;
            }
            let entry = match &all[k].1 {
                Source::New(n) => n.entry(&mut index, &mut names),
                Source::Carried(c) => c.entry(&mut index, &mut names),
            };
            index.entries.push(entry);
        }
        index
    }
}

/// Where an entry of a new index comes from.
enum Source<'a> {
    New(&'a New<'a>),
    Carried(&'a Carried<'a>),
}

/// An entry of the old file carried into the new one: its number, its blobs' new offsets
/// and its new metadata, if any.
struct Carried<'a> {
    old: &'a Old,
    i: usize,
    notes: Option<u64>,
    item: Option<u64>,
    restat: Option<(Stat, bool)>,
}

impl<'a> Carried<'a> {
    fn path(&self) -> &'a str {
        self.old.name(self.old.index.entries[self.i].path)
    }

    fn entry(&self, index: &mut Index, names: &mut Names<'a>) -> Entry {
        let old = self.old;
        let e = &old.index.entries[self.i];
        let moved = |b: Option<Blob>, at: Option<u64>| Some(Blob { at: at?, ..b? });
        let deps_from = index.deps.len() as u32;
        for d in &old.index.deps[e.deps.0 as usize..e.deps.1 as usize] {
            let path = names.push(&mut index.names, old.name(d.path));
            index.deps.push(DepEntry {
                path,
                seen: d.seen.clone(),
            });
        }
        let files_from = index.files.len() as u32;
        for f in &old.index.files[e.files.0 as usize..e.files.1 as usize] {
            let path = names.push(&mut index.names, old.name(f.path));
            index.files.push(FileEntry { path, ..*f });
        }
        let (stat, racy) = self.restat.unwrap_or((e.stat, e.racy));
        Entry {
            path: names.push(&mut index.names, self.path()),
            cwd: names.push(&mut index.names, old.name(e.cwd)),
            stat,
            racy,
            deps: (deps_from, index.deps.len() as u32),
            files: (files_from, index.files.len() as u32),
            notes: moved(e.notes, self.notes),
            item: moved(e.item, self.item),
            ..e.clone()
        }
    }
}

impl<'a> New<'a> {
    fn entry(&self, index: &mut Index, names: &mut Names<'a>) -> Entry {
        let deps_from = index.deps.len() as u32;
        for (p, seen) in &self.deps {
            let path = names.push(&mut index.names, p);
            index.deps.push(DepEntry {
                path,
                seen: seen.clone(),
            });
        }
        let files_from = index.files.len() as u32;
        for f in &self.files {
            let path = names.push(&mut index.names, f.path);
            index.files.push(FileEntry {
                path,
                format: f.format,
                bom_len: f.bom_len,
                digest: f.digest,
            });
        }
        Entry {
            path: names.push(&mut index.names, self.path),
            cwd: names.push(&mut index.names, self.cwd),
            format: self.meta.format,
            claimed: self.meta.claimed,
            stat: self.meta.stat,
            digest: self.meta.digest,
            racy: self.meta.racy,
            deps: (deps_from, index.deps.len() as u32),
            files: (files_from, index.files.len() as u32),
            notes: self.notes,
            item: self.item,
            tools: self.tools,
            sum: self.sum,
        }
    }
}

/// The paths of an index being built, each written once.
#[derive(Default)]
struct Names<'n> {
    at: HashMap<&'n str, Name>,
}

impl<'n> Names<'n> {
    fn push(&mut self, names: &mut String, s: &'n str) -> Name {
        *self.at.entry(s).or_insert_with(|| {
            let from = names.len() as u32;
            names.push_str(s);
            (from, names.len() as u32)
        })
    }
}

/// Bytes on their way into the cache file, hashed as they go.
struct Sink<'a> {
    out: &'a mut BufWriter<File>,
    hash: sha2::Sha256,
    buf: Vec<u8>,
    len: u64,
    ok: bool,
}

impl Sink<'_> {
    fn flush(&mut self) {
        sha2::Digest::update(&mut self.hash, &self.buf);
        self.ok &= self.out.write_all(&self.buf).is_ok();
        self.len += self.buf.len() as u64;
        self.buf.clear();
    }

    fn flushed(mut self) -> Self {
        self.flush();
        self
    }
}

impl Extend<u8> for Sink<'_> {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, bytes: I) {
        for b in bytes {
            self.buf.push(b);
            if self.buf.len() == self.buf.capacity() {
                self.flush();
            }
        }
    }
}

/// What identifies a stored result: the digests of its blobs and of its files.
fn result_sum(notes: Option<&Blob>, item: Option<&Blob>, files: &[NewFile], tools: u32) -> Digest {
    let mut hash = sha2::Sha256::default();
    for blob in [notes, item] {
        match blob {
            Some(b) => sha2::Digest::update(&mut hash, b.sum),
            None => sha2::Digest::update(&mut hash, [0; 32]),
        }
    }
    for f in files {
        sha2::Digest::update(&mut hash, f.path.as_bytes());
        sha2::Digest::update(&mut hash, [0, f.format as u8]);
        sha2::Digest::update(&mut hash, (f.bom_len as u32).to_le_bytes());
        sha2::Digest::update(&mut hash, f.digest);
    }
    sha2::Digest::update(&mut hash, tools.to_le_bytes());
    sha2::Digest::finalize(hash).into()
}
