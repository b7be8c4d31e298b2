//! Writing a cache file: the blobs of each file loaded by the run as it goes, then at the end
//! the blobs of the old file still good (copied in runs), what else the cache keeps, the
//! index and the footer; renamed into place once whole.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;
use serde::{Deserialize, Serialize};

use super::super::hash::{ByHash, Check, Checker, QuickSet};
use super::super::track::Dep;
use super::super::{Stat, disk};
use super::Old;
use super::identity::Checked;
use super::sink::Sink;
use super::{
    Blob, DepEntry, END, Entry, FOOTER, FileEntry, Header, Index, LAYOUT, MAGIC, Name, hash,
    name_in,
};
use crate::source::{Digest, FormatId};

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

/// A cache file being written.
pub struct Writer {
    tmp: PathBuf,
    out: BufWriter<File>,
    at: u64,
    /// The new entries, as the index holds them (in the order they came, sorted when the
    /// file is finished): a large repository's entries are a few large buffers, not many
    /// small allocations among the ones parsing makes and frees, and not held twice.
    index: Index,
    names: Names,
    /// This run's working directory, in `index.names`.
    cwd: Name,
    /// The last new entry of each path, by a hash of the path.
    by_path: ByHash<u32>,
    /// False after a failed write: the file is then not used.
    ok: bool,
}

impl Writer {
    /// A new file beside the cache file `dest`, for `build` and the repository at
    /// `repository`, by a run in `cwd`.
    pub fn create(dest: &Path, build: &str, repository: &Path, cwd: &Path) -> Option<Writer> {
        let cwd = cwd.to_str()?;
        let (tmp, file) = disk::create_beside(dest)?;
        let header = postcard::to_allocvec(&Header {
            layout: LAYOUT,
            build: build.to_string(),
            repository: repository.to_string_lossy().into_owned(),
        })
        .ok()?;
        let mut index = Index::default();
        let mut names = Names::default();
        let cwd = names.push(&mut index.names, cwd);
        let mut w = Writer {
            tmp,
            out: BufWriter::with_capacity(256 * 1024, file),
            at: 0,
            index,
            names,
            cwd,
            by_path: ByHash::default(),
            ok: true,
        };
        w.write(MAGIC);
        w.write(&(header.len() as u32).to_le_bytes());
        w.write(&header);
        Some(w)
    }

    /// True when no record was added.
    pub fn is_empty(&self) -> bool {
        self.index.entries.is_empty()
    }

    /// What identifies the stored result of the last new entry of `path`, if any.
    pub fn sum(&self, path: &str) -> Option<Digest> {
        let entries = &self.index.entries;
        let named = |e: &&Entry| name_in(&self.index.names, e.path) == path;
        match self.by_path.get(&hash::of(path)) {
            None => None,
            Some(&i) if named(&&entries[i as usize]) => Some(entries[i as usize].sum),
            // Another path with the same hash.
            Some(_) => entries.iter().rev().find(named).map(|e| e.sum),
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.ok {
            self.ok = self.out.write_all(bytes).is_ok();
            self.at += bytes.len() as u64;
        }
    }

    /// Write `bytes` (checked by `check`); none when there are none. Err when they cannot be
    /// (longer than a blob can be).
    fn blob(&mut self, bytes: Option<&[u8]>, check: Option<Check>) -> Result<Option<Blob>, ()> {
        let (Some(bytes), Some(sum)) = (bytes, check) else {
            return Ok(None);
        };
        let blob = Blob {
            at: self.at,
            len: u32::try_from(bytes.len()).map_err(|_| ())?,
            sum,
        };
        self.write(bytes);
        Ok(Some(blob))
    }

    /// Make room for `records` more records at once (a first run stores one for every file
    /// it finds: grown by doubling, the index would copy itself over and over and end with
    /// up to half of it unused).
    pub fn reserve(&mut self, records: usize) {
        self.index.entries.reserve_exact(records);
        self.index.files.reserve_exact(records);
        self.by_path.reserve(records);
        self.names.at.reserve(records);
    }

    /// Add the record of the file at `path`.
    /// None when it cannot be recorded (a path that is not UTF-8, a blob too long).
    pub fn record(
        &mut self,
        path: &Path,
        meta: Meta,
        deps: &[Dep],
        checked: &Checked,
    ) -> Option<()> {
        let path = path.to_str()?;
        if !deps.iter().all(|d| d.path().to_str().is_some()) {
            return None;
        }
        let parts = &checked.parts;
        let notes = self.blob(parts.notes.as_deref(), checked.notes).ok()?;
        let item = self.blob(parts.item.as_deref(), checked.item).ok()?;
        let sum = checked.sum;
        let Writer { index, names, .. } = self;
        let deps_from = index.deps.len() as u32;
        for d in deps {
            let path = names.push(&mut index.names, d.path().to_str().unwrap_or_default());
            index.deps.push(DepEntry {
                path,
                seen: d.seen().clone(),
            });
        }
        let files_from = index.files.len() as u32;
        for f in &parts.files {
            let path = names.push(&mut index.names, &f.path);
            index.files.push(FileEntry {
                path,
                format: f.format,
                bom_len: f.bom_len as u32,
                digest: f.digest,
            });
        }
        let entry = Entry {
            path: names.push(&mut index.names, path),
            cwd: self.cwd,
            format: meta.format,
            claimed: meta.claimed,
            stat: meta.stat,
            digest: meta.digest,
            racy: meta.racy,
            deps: (deps_from, index.deps.len() as u32),
            files: (files_from, index.files.len() as u32),
            notes,
            item,
            tools: parts.tools,
            sum,
        };
        self.by_path
            .insert(hash::of(path), self.index.entries.len() as u32);
        self.index.entries.push(entry);
        Some(())
    }

    /// Complete the file with the entries of `old` to carry over (see [`Old::carried`]; with
    /// the new metadata of `restat`) and `extra`, and put it in place of `dest`.
    pub fn finish(
        mut self,
        dest: &Path,
        old: Option<Old>,
        restat: &HashMap<usize, (Stat, bool)>,
        elsewhere: &dyn Fn(&Path) -> bool,
        extra: &impl Serialize,
    ) -> bool {
        self.by_path = ByHash::default();
        if let Some(old) = old {
            let (carried, _) = old.carried(elsewhere);
            let moved = self.copy(&old, &carried);
            if old.mostly_carried(&carried) {
                if !self.carry_in_place(old, &carried, &moved, restat) {
                    let _ = std::fs::remove_file(&self.tmp);
                    return false;
                }
            } else {
                // The last record of a path wins: the new ones latest first, then the
                // carried ones, sorted stably, and the first of each path kept.
                self.index.entries.reverse();
                for i in carried {
                    let c = Carried {
                        old: &old,
                        i,
                        notes: moved.get(&(i, false)).copied(),
                        item: moved.get(&(i, true)).copied(),
                        restat: restat.get(&i).copied(),
                    };
                    let entry = c.entry(&mut self.index, &mut self.names);
                    self.index.entries.push(entry);
                }
            }
        } else {
            self.index.entries.reverse();
        }
        self.names = Names::default();
        first_of_each_path_sorted(&mut self.index);
        let extra_at = self.at;
        // Both straight into the file while they are hashed: neither what else the cache
        // keeps nor the index of a large repository is held twice.
        let sink = Sink {
            out: &mut self.out,
            hash: Checker::default(),
            buf: Vec::with_capacity(64 * 1024),
            len: 0,
            ok: self.ok,
        };
        // Checked apart: a run checks what else the cache keeps first, and the index on the
        // thread that decodes it.
        let Ok(mut sink) = postcard::serialize_with_flavor(extra, sink).map(Sink::flushed) else {
            let _ = std::fs::remove_file(&self.tmp);
            return false;
        };
        let (extra_len, extra_sum) = (sink.len, std::mem::take(&mut sink.hash).finish());
        super::flat::encode(&self.index, &mut |part| sink.put(part));
        let sink = sink.flushed();
        let index_at = extra_at + extra_len;
        let index_len = sink.len - extra_len;
        self.ok = sink.ok;
        self.at += sink.len;
        let index_sum = sink.hash.finish();
        let mut footer = Vec::with_capacity(FOOTER);
        for n in [extra_at, extra_len, index_at, index_len] {
            footer.extend_from_slice(&n.to_le_bytes());
        }
        footer.extend_from_slice(&extra_sum);
        footer.extend_from_slice(&index_sum);
        footer.extend_from_slice(END);
        self.write(&footer);
        let Writer {
            tmp,
            out,
            ok,
            index,
            ..
        } = self;
        drop(index);
        // A cache that cannot be written costs the next run time, never a result.
        if ok && out.into_inner().is_ok() {
            disk::commit(&tmp, dest)
        } else {
            let _ = std::fs::remove_file(&tmp);
            false
        }
    }

    /// Make the old index the new one: the entries `carried` stay where they are (with the
    /// blobs' new offsets `moved` and the new metadata of `restat`), with the paths and lists
    /// they point into, and this run's records are added after them, ahead of the carried
    /// entries of the same paths. Nothing is copied: a large repository's index is not held
    /// twice while the file is written. False when the index grew past what it can address.
    fn carry_in_place(
        &mut self,
        old: Old,
        carried: &[usize],
        moved: &HashMap<(usize, bool), u64>,
        restat: &HashMap<usize, (Stat, bool)>,
    ) -> bool {
        let Old {
            index: mut base, ..
        } = old;
        let mut keep = carried.iter().copied().peekable();
        let mut i = 0;
        base.entries.retain_mut(|e| {
            let this = i;
            i += 1;
            if keep.next_if_eq(&this).is_none() {
                return false;
            }
            let at = |b: Option<Blob>, is_item| {
                Some(Blob {
                    at: *moved.get(&(this, is_item))?,
                    ..b?
                })
            };
            e.notes = at(e.notes, false);
            e.item = at(e.item, true);
            if let Some(&(stat, racy)) = restat.get(&this) {
                e.stat = stat;
                e.racy = racy;
            }
            true
        });
        let new = std::mem::take(&mut self.index);
        let (Ok(names_at), Ok(files_at), Ok(deps_at)) = (
            u32::try_from(base.names.len()),
            u32::try_from(base.files.len()),
            u32::try_from(base.deps.len()),
        ) else {
            return false;
        };
        if u32::try_from(base.names.len() + new.names.len()).is_err() {
            return false;
        }
        let name = |(from, to): Name| (from + names_at, to + names_at);
        base.names.push_str(&new.names);
        base.files.extend(new.files.into_iter().map(|f| FileEntry {
            path: name(f.path),
            ..f
        }));
        base.deps.extend(new.deps.into_iter().map(|d| DepEntry {
            path: name(d.path),
            seen: d.seen,
        }));
        // After the carried ones: of a path's entries, the last wins (see `finish`), so the
        // newest come first once reversed.
        base.entries.extend(new.entries.into_iter().map(|e| Entry {
            path: name(e.path),
            cwd: name(e.cwd),
            deps: (e.deps.0 + deps_at, e.deps.1 + deps_at),
            files: (e.files.0 + files_at, e.files.1 + files_at),
            ..e
        }));
        base.entries.reverse();
        first_of_each_path_sorted(&mut base);
        self.index = base;
        true
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
}

impl Old {
    /// True when the entries `carried` use most of the lists of the index (what the others
    /// used is of files gone or changed): the index is then carried over in place, its
    /// unused part kept until it is a quarter of it, when the carried entries are copied
    /// into a compact index instead.
    fn mostly_carried(&self, carried: &[usize]) -> bool {
        let used: usize = carried
            .iter()
            .map(|&i| {
                let e = &self.index.entries[i];
                (e.files.1 - e.files.0) as usize + (e.deps.1 - e.deps.0) as usize
            })
            .sum();
        let held = self.index.files.len() + self.index.deps.len();
        used * 4 >= held * 3
    }
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

impl Carried<'_> {
    fn path(&self) -> &str {
        self.old.name(self.old.index.entries[self.i].path)
    }

    fn entry(&self, index: &mut Index, names: &mut Names) -> Entry {
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

/// The paths of an index being built, each written once (but for two paths of one hash,
/// each then written apart).
#[derive(Default)]
struct Names {
    at: ByHash<Name>,
}

impl Names {
    fn push(&mut self, names: &mut String, s: &str) -> Name {
        let h = hash::of(s);
        if let Some(&n) = self.at.get(&h)
            && name_in(names, n) == s
        {
            return n;
        }
        let from = names.len() as u32;
        names.push_str(s);
        let n = (from, names.len() as u32);
        self.at.insert(h, n);
        n
    }
}

/// Keep the first entry of each path in `index` and sort them by path, in place: a stable
/// sort would hold half the entries again (12 MiB at 100,000 tools, where the first run and
/// a run after a change peak).
fn first_of_each_path_sorted(index: &mut Index) {
    let Index { names, entries, .. } = index;
    let names = &*names;
    let mut seen: QuickSet<&str> = QuickSet::default();
    seen.reserve(entries.len());
    entries.retain(|e| seen.insert(name_in(names, e.path)));
    drop(seen);
    entries.par_sort_unstable_by(|a, b| name_in(names, a.path).cmp(name_in(names, b.path)));
}
