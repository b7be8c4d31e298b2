//! Writing a cache file: the blobs of each file loaded by the run as it goes, then at the end
//! the blobs of the old file still good (copied in runs), what else the cache keeps, the
//! index and the footer; renamed into place once whole.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::super::track::{Dep, Seen};
use super::super::{Stat, disk};
use super::{Blob, DepEntry, END, Entry, FOOTER, FileEntry, Header, Index, LAYOUT, MAGIC, Name};
use super::{Old, name_in};
use crate::source::{Digest, FormatId, sha256};

/// What a new record says of its file (its path, dependencies and result apart).
#[derive(Clone, Copy)]
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

/// An entry of the new index, until the index is written.
struct New {
    path: String,
    cwd: Arc<str>,
    meta: Meta,
    deps: Vec<(String, Seen)>,
    files: Vec<NewFile>,
    notes: Option<Blob>,
    item: Option<Blob>,
    tools: u32,
    sum: Digest,
}

/// A cache file being written.
pub struct Writer {
    tmp: PathBuf,
    /// This run's working directory.
    cwd: Arc<str>,
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
            cwd: Arc::from(cwd.to_str()?),
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

    /// True when no record was added.
    pub fn is_empty(&self) -> bool {
        self.new.is_empty()
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

    /// Add the record of the file at `path`; returns what identifies the stored result.
    pub fn record(&mut self, path: &Path, meta: Meta, deps: &[Dep], parts: Parts) -> Digest {
        let notes = self.blob(parts.notes.as_deref());
        let item = self.blob(parts.item.as_deref());
        let sum = result_sum(notes.as_ref(), item.as_ref(), &parts.files, parts.tools);
        if let Some(path) = path.to_str() {
            let deps = deps
                .iter()
                .filter_map(|d| Some((d.path().to_str()?.to_string(), d.seen().clone())))
                .collect();
            self.new.push(New {
                path: path.to_string(),
                cwd: Arc::clone(&self.cwd),
                meta,
                deps,
                files: parts.files,
                notes,
                item,
                tools: parts.tools,
                sum,
            });
        }
        sum
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
        if let Some(old) = old {
            let (carried, _) = old.carried(elsewhere);
            self.copy(old, &carried, restat);
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

    /// Copy the blobs of the entries `which` of `old`, neighbours in one go, noting their
    /// new offsets.
    fn copy(&mut self, old: &Old, which: &[usize], restat: &HashMap<usize, (Stat, bool)>) {
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
        let names = &old.index.names;
        let name = |n: Name| name_in(names, n).to_string();
        for &i in which {
            let e = &entries[i];
            let at = |b: Option<Blob>, is_item: bool| {
                b.and_then(|b| {
                    Some(Blob {
                        at: *moved.get(&(i, is_item))?,
                        ..b
                    })
                })
            };
            let mut meta = Meta {
                format: e.format,
                claimed: e.claimed,
                stat: e.stat,
                digest: e.digest,
                racy: e.racy,
            };
            if let Some((stat, racy)) = restat.get(&i) {
                (meta.stat, meta.racy) = (*stat, *racy);
            }
            let (from, to) = e.files;
            let files = old.index.files[from as usize..to as usize]
                .iter()
                .map(|f| NewFile {
                    path: name(f.path),
                    format: f.format,
                    bom_len: f.bom_len as usize,
                    digest: f.digest,
                })
                .collect();
            let (from, to) = e.deps;
            let deps = old.index.deps[from as usize..to as usize]
                .iter()
                .map(|d| (name(d.path), d.seen.clone()))
                .collect();
            self.new.push(New {
                path: name(e.path),
                cwd: Arc::from(name_in(names, e.cwd)),
                meta,
                deps,
                files,
                notes: at(e.notes, false),
                item: at(e.item, true),
                tools: e.tools,
                sum: e.sum,
            });
        }
    }

    /// The index of every entry, sorted by path (a path written twice: the last).
    fn index(&mut self) -> Index {
        let mut new = std::mem::take(&mut self.new);
        // The last record of a path wins: stable sort, then keep the last of each run.
        new.sort_by(|a, b| a.path.cmp(&b.path));
        let mut index = Index::default();
        let mut names: HashMap<String, Name> = HashMap::new();
        let mut push = |index: &mut Index, s: &str| -> Name {
            if let Some(n) = names.get(s) {
                return *n;
            }
            let from = index.names.len() as u32;
            index.names.push_str(s);
            let n = (from, index.names.len() as u32);
            names.insert(s.to_string(), n);
            n
        };
        let count = new.len();
        for (k, n) in new.iter().enumerate() {
            if k + 1 < count && new[k + 1].path == n.path {
                continue;
            }
            let path = push(&mut index, &n.path);
            let cwd = push(&mut index, &n.cwd);
            let deps_from = index.deps.len() as u32;
            for (p, seen) in &n.deps {
                let path = push(&mut index, p);
                index.deps.push(DepEntry {
                    path,
                    seen: seen.clone(),
                });
            }
            let files_from = index.files.len() as u32;
            for f in &n.files {
                let path = push(&mut index, &f.path);
                index.files.push(FileEntry {
                    path,
                    format: f.format,
                    bom_len: f.bom_len as u32,
                    digest: f.digest,
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
                deps: (deps_from, index.deps.len() as u32),
                files: (files_from, index.files.len() as u32),
                notes: n.notes,
                item: n.item,
                tools: n.tools,
                sum: n.sum,
            });
        }
        index
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
