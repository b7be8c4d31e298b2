//! What a diff keeps of every lowered tool until it knows which it compares: its name, its
//! place and a digest of its definition. A tool is lowered in full a second time only when
//! it is compared (paired with a tool whose definition differs, or renamed), and then a round
//! of pairs at a time. Both sides of a `tools.json` of 300,000 tiny tools were held lowered
//! (about 1 KB a tool) to find that none changed, or to compare each.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::digest::unnamed;
use crate::formats::FileResult;
use crate::ir::{LeftOut, Lowered, Sink};
use crate::source::{SourceFile, Span};

/// One lowered tool, briefly.
struct Brief {
    /// Where its name is in [`Briefs::names`] (start and end; past 4 GiB of names, none).
    name: (u32, u32),
    /// Its name's span, in its file (files are at most 64 MiB).
    span: (u32, u32),
    /// Its file, in [`Briefs::files`].
    file: u32,
    /// Its entry's index in its file's list, plus one (zero: none).
    index: u32,
    /// Its format, in [`Briefs::formats`].
    format: u8,
    /// Its digest, in [`Briefs::digests`].
    digest: u32,
}

/// A side's tools, briefly, sorted as [`crate::formats::lower_all`] sorts them (by name, path
/// and index), and the tools the runtime would not load.
#[derive(Default)]
pub(super) struct Briefs<'a> {
    list: Vec<Brief>,
    names: String,
    /// SHA-256 of each tool's canonical definition without its name, in the order the
    /// tools were made: tools paired by name are the same when these are, and a tool is
    /// renamed when another's is the same. Apart from the tools, to be let go once they are
    /// paired (two sides of 1.8 million tools held 115 MB of them through the compare).
    digests: Vec<[u8; 32]>,
    /// Each file a tool is defined in, with its path relative to the repository's root.
    files: Vec<(&'a Arc<SourceFile>, String)>,
    /// Each file's place in `files`, by the file's address (a number, not a pointer: both
    /// sides' briefs are made at once, on two threads).
    file_ids: HashMap<usize, u32>,
    formats: Vec<&'static str>,
    /// The tools left out, sorted by name and path.
    pub left_out: Vec<LeftOut>,
}

/// What a brief tells of its tool.
#[derive(Clone, Copy)]
pub(super) struct Named<'b, 'a> {
    /// Its name.
    pub name: &'b str,
    /// Its format id.
    pub format: &'static str,
    /// The file that defines it.
    pub file: &'a Arc<SourceFile>,
    /// The span of its name.
    pub name_span: Span,
    /// SHA-256 of its definition without its name (none once [`Briefs::paired`]).
    pub unnamed: Option<&'b [u8; 32]>,
}

impl<'a> Briefs<'a> {
    /// The tools of `results`, briefly; paths relative to `root`.
    pub(super) fn of(results: &'a [FileResult], root: &Path) -> Briefs<'a> {
        let mut sink = Making {
            briefs: Briefs::default(),
            root,
        };
        crate::formats::lower_each(results, &|_| true, &mut sink);
        let mut briefs = sink.briefs;
        let mut list = std::mem::take(&mut briefs.list);
        list.sort_unstable_by(|a, b| {
            (briefs.name_of(a), &briefs.files[a.file as usize].1, a.index).cmp(&(
                briefs.name_of(b),
                &briefs.files[b.file as usize].1,
                b.index,
            ))
        });
        briefs.list = list;
        briefs
            .left_out
            .sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
        briefs
    }

    /// The tools are paired: their digests are let go.
    pub(super) fn paired(&mut self) {
        self.digests = Vec::new();
    }

    /// How many tools.
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// Tool `i` (in the sorted order).
    pub(super) fn get(&self, i: usize) -> Named<'_, 'a> {
        let b = &self.list[i];
        Named {
            name: self.name_of(b),
            format: self.formats[usize::from(b.format)],
            file: self.files[b.file as usize].0,
            name_span: Span::new(b.span.0 as usize, b.span.1 as usize),
            unnamed: self.digests.get(b.digest as usize),
        }
    }

    /// Every tool, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = Named<'_, 'a>> {
        (0..self.len()).map(|i| self.get(i))
    }

    fn name_of(&self, b: &Brief) -> &str {
        self.names
            .get(b.name.0 as usize..b.name.1 as usize)
            .unwrap_or_default()
    }

    /// Where tool `i` is lowered: its file and entry.
    fn key(&self, i: usize) -> Key {
        let b = &self.list[i];
        (Arc::as_ptr(self.files[b.file as usize].0), b.index)
    }

    /// `lowered` with its file's path relative to the repository's root, as the briefs
    /// name it.
    fn relative(&self, mut lowered: Lowered<'a>) -> Lowered<'a> {
        if let Some(&id) = self.file_ids.get(&address(lowered.file)) {
            lowered.tool.provenance.path = self.files[id as usize].1.clone();
        }
        lowered
    }
}

/// Where a tool is lowered: its file and its entry's index plus one (zero: the file's one
/// tool). List formats number their entries and the others lower at most one tool a file, so
/// this names one tool.
type Key = (*const SourceFile, u32);

fn key_of(lowered: &Lowered<'_>) -> Key {
    (
        Arc::as_ptr(lowered.file),
        entry(lowered.tool.provenance.index),
    )
}

/// Where `file` is in memory: the same number for the same file.
fn address(file: &Arc<SourceFile>) -> usize {
    Arc::as_ptr(file) as usize
}

fn entry(index: Option<usize>) -> u32 {
    index.map_or(0, |i| u32::try_from(i + 1).unwrap_or(u32::MAX))
}

/// One side of a diff: its tools, briefly, and what they are lowered from.
#[derive(Clone, Copy)]
pub(super) struct Side<'b, 'a> {
    /// Its tools.
    pub briefs: &'b Briefs<'a>,
    /// Its files.
    pub results: &'a [FileResult],
}

impl<'a> Side<'_, 'a> {
    /// Hand each tool `wanted` to `visit` as it is lowered (with its pair's index).
    fn lower(&self, mut wanted: Wanted, visit: &mut dyn FnMut(usize, Lowered<'a>)) {
        let files: HashSet<*const SourceFile> = wanted.files.iter().map(|f| f.0).collect();
        let mut sink = Picking {
            wanted: &mut wanted,
            briefs: self.briefs,
            visit,
        };
        crate::formats::lower_each(
            self.results,
            &|r| files.contains(&Arc::as_ptr(&r.file)),
            &mut sink,
        );
    }
}

/// Each pair of tools (old and new indices; `pair(i)` for `i` below `count`, `None` for an
/// index that is not a pair) lowered in full again and handed to `visit` with its index. A
/// round at a time: a round keeps a bounded number of the new side's tools, then lowers the
/// old side past them and visits each pair as its old tool is made, while another core
/// lowers the next round's new tools (two rounds held at most). Both sides of a change to
/// every one of 300,000 tools were held lowered at once (about 1 KB a tool, 50 times their
/// files).
pub(super) fn each_pair<'a>(
    old: Side<'_, 'a>,
    new: Side<'_, 'a>,
    count: usize,
    pair: &dyn Fn(usize) -> Option<(u32, u32)>,
    visit: &mut dyn FnMut(usize, &Lowered<'a>, &Lowered<'a>),
) {
    // A lowered tool takes about 1 KB however small its entry: one kept for every 2 KiB of
    // the new side's files holds at most half their size (a few MB for small ones; one for
    // every 512 bytes made a round the peak of a diff changing every tool of a file). Only
    // the texts in hand are measured: a file without findings of its own let its text go,
    // and is not read back for this (it counts as none: smaller rounds).
    let bytes: usize = new
        .briefs
        .files
        .iter()
        .filter(|(f, _)| f.text.is_held())
        .map(|(f, _)| f.text.as_str().len())
        .sum();
    let per_round = (bytes / 2048).max(4096);
    // The pairs, as `u32`s as the briefs count tools; a round's new tools are neighbours:
    // few files to lower for them.
    let pairs = |p: u32| pair(p as usize).unwrap_or_default();
    let mut order: Vec<u32> = (0..count as u32)
        .filter(|&p| pair(p as usize).is_some())
        .collect();
    order.sort_unstable_by_key(|&p| {
        let b = &new.briefs.list[pairs(p).1 as usize];
        (b.file, b.index)
    });
    let new_of: Vec<u32> = order.iter().map(|&p| pairs(p).1).collect();
    let (order, new_of) = (&order, &new_of);
    // The new side of the next round is lowered on another core while this one's pairs are
    // compared; a compared round goes back to be let go where its tools were made.
    std::thread::scope(|scope| {
        let (made, next) = std::sync::mpsc::sync_channel::<Round<'a>>(0);
        let (done, spent) = std::sync::mpsc::channel::<Round<'a>>();
        scope.spawn(move || {
            for (round, news) in order.chunks(per_round).zip(new_of.chunks(per_round)) {
                spent.try_iter().for_each(drop);
                let mut ids: Vec<usize> = round.iter().map(|&p| p as usize).collect();
                ids.sort_unstable();
                let mut kept: Vec<Option<Lowered<'a>>> = Vec::new();
                kept.resize_with(round.len(), || None);
                let keys = round.iter().zip(news);
                let wanted =
                    Wanted::new(keys.map(|(&p, &n)| (new.briefs.key(n as usize), p as usize)));
                new.lower(wanted, &mut |p, tool| {
                    if let Ok(i) = ids.binary_search(&p) {
                        kept[i] = Some(tool);
                    }
                });
                if made.send(Round { ids, kept }).is_err() {
                    return;
                }
            }
        });
        for round in order.chunks(per_round) {
            let Ok(new_tools) = next.recv() else {
                return;
            };
            let wanted = Wanted::new(
                round
                    .iter()
                    .map(|&p| (old.briefs.key(pairs(p).0 as usize), p as usize)),
            );
            old.lower(wanted, &mut |p, old_tool| {
                if let Some(new_tool) = new_tools.get(p) {
                    visit(p, &old_tool, new_tool);
                }
            });
            // Past the other side's last round, let go here.
            let _ = done.send(new_tools);
        }
    });
}

/// A round's new tools, by their pair's index.
struct Round<'a> {
    /// The pairs' indices, sorted (found by a binary search: hashing each index was a tenth
    /// of a change to every tool).
    ids: Vec<usize>,
    /// Pair `ids[i]`'s new tool.
    kept: Vec<Option<Lowered<'a>>>,
}

impl<'a> Round<'a> {
    fn get(&self, p: usize) -> Option<&Lowered<'a>> {
        let i = self.ids.binary_search(&p).ok()?;
        self.kept.get(i)?.as_ref()
    }
}

/// The entries wanted of each file, sorted by index, each with its pair's index: looked up as
/// a format lowers a file's entries in order, without hashing each of them (300,000 entries
/// are passed in each round).
struct Wanted {
    files: Vec<(*const SourceFile, Vec<(u32, usize)>)>,
    /// The file last asked about, in `files`.
    file: usize,
    /// In that file's list: the first entry not below the index last asked about.
    cursor: usize,
}

impl Wanted {
    fn new(keys: impl Iterator<Item = (Key, usize)>) -> Wanted {
        let mut all: Vec<(Key, usize)> = keys.collect();
        all.sort_unstable();
        let mut files: Vec<(*const SourceFile, Vec<(u32, usize)>)> = Vec::new();
        for ((file, index), p) in all {
            match files.last_mut() {
                Some((f, list)) if *f == file => list.push((index, p)),
                _ => files.push((file, vec![(index, p)])),
            }
        }
        Wanted {
            files,
            file: usize::MAX,
            cursor: 0,
        }
    }

    /// The entries of `file`'s list wanted, by index (none of a file not wanted).
    fn entries(&mut self, file: *const SourceFile) -> std::ops::Range<usize> {
        self.select(file);
        let list = self.files.get(self.file).map_or(&[][..], |f| &f.1[..]);
        match (list.first(), list.last()) {
            // Entries are numbered from one: zero is a file's one tool.
            (Some(first), Some(last)) => first.0.saturating_sub(1) as usize..last.0 as usize,
            _ => 0..0,
        }
    }

    /// Remember `file` for the questions about its entries.
    fn select(&mut self, file: *const SourceFile) {
        if self.files.get(self.file).map(|f| f.0) != Some(file) {
            self.file = self
                .files
                .binary_search_by_key(&file, |f| f.0)
                .unwrap_or(usize::MAX);
            self.cursor = 0;
        }
    }

    /// The pair whose tool is at `key`, if it is wanted.
    fn get(&mut self, (file, index): Key) -> Option<usize> {
        self.select(file);
        let list = &self.files.get(self.file)?.1;
        if self.cursor > 0 && list[self.cursor - 1].0 >= index {
            // Asked out of order: looked up.
            self.cursor = list.partition_point(|e| e.0 < index);
        }
        while list.get(self.cursor).is_some_and(|e| e.0 < index) {
            self.cursor += 1;
        }
        list.get(self.cursor).filter(|e| e.0 == index).map(|e| e.1)
    }
}

/// The sink that makes the briefs.
struct Making<'a, 'r> {
    briefs: Briefs<'a>,
    root: &'r Path,
}

impl<'a> Sink<'a> for Making<'a, '_> {
    fn tool(&mut self, lowered: Lowered<'a>) {
        let briefs = &mut self.briefs;
        let file = *briefs
            .file_ids
            .entry(address(lowered.file))
            .or_insert_with(|| {
                let path = crate::fs::display_path(&lowered.file.path, self.root);
                briefs.files.push((lowered.file, path));
                (briefs.files.len() - 1) as u32
            });
        let format = lowered.tool.provenance.format;
        let format = match briefs.formats.iter().position(|f| *f == format) {
            Some(i) => i,
            None => {
                briefs.formats.push(format);
                briefs.formats.len() - 1
            }
        };
        let start = briefs.names.len();
        briefs.names.push_str(&lowered.tool.name);
        let name = match (u32::try_from(start), u32::try_from(briefs.names.len())) {
            (Ok(start), Ok(end)) => (start, end),
            _ => (u32::MAX, u32::MAX),
        };
        let span = lowered.name_span;
        let index = entry(lowered.tool.provenance.index);
        let digest = briefs.digests.len() as u32;
        briefs.digests.push(unnamed(&lowered.tool));
        briefs.list.push(Brief {
            name,
            span: (span.start as u32, span.end as u32),
            file,
            index,
            format: format as u8,
            digest,
        });
    }

    fn left_out(&mut self, left_out: LeftOut) {
        self.briefs.left_out.push(left_out);
    }

    fn reserve(&mut self, additional: usize) {
        self.briefs.list.reserve(additional);
        self.briefs.digests.reserve(additional);
    }
}

/// The sink that hands the tools `wanted` on as they are made.
struct Picking<'a, 'k, 'v> {
    wanted: &'k mut Wanted,
    briefs: &'k Briefs<'a>,
    visit: &'v mut dyn FnMut(usize, Lowered<'a>),
}

impl<'a> Sink<'a> for Picking<'a, '_, '_> {
    fn wants(&mut self, file: &Arc<SourceFile>, index: usize) -> bool {
        self.wanted
            .get((Arc::as_ptr(file), entry(Some(index))))
            .is_some()
    }

    fn entries(&mut self, file: &Arc<SourceFile>) -> std::ops::Range<usize> {
        self.wanted.entries(Arc::as_ptr(file))
    }

    fn tool(&mut self, lowered: Lowered<'a>) {
        if let Some(p) = self.wanted.get(key_of(&lowered)) {
            (self.visit)(p, self.briefs.relative(lowered));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries asked in order, twice each (a format asks, then lowers), out of order, and in a
    /// file with none wanted: each wanted one found with its pair, no other.
    #[test]
    fn wanted_entries_are_found_in_any_order() {
        let (a, b, c) = (
            std::ptr::without_provenance::<SourceFile>(8),
            std::ptr::without_provenance::<SourceFile>(16),
            std::ptr::without_provenance::<SourceFile>(24),
        );
        let mut wanted =
            Wanted::new([((b, 3), 30), ((a, 5), 50), ((a, 1), 10), ((b, 0), 0)].into_iter());
        let asked: Vec<Option<usize>> = [(a, 0), (a, 1), (a, 1), (a, 2), (a, 5), (a, 5), (a, 6)]
            .into_iter()
            .map(|k| wanted.get(k))
            .collect();
        assert_eq!(
            asked,
            [None, Some(10), Some(10), None, Some(50), Some(50), None]
        );
        assert_eq!(wanted.get((c, 1)), None);
        assert_eq!(wanted.get((b, 3)), Some(30));
        assert_eq!(wanted.get((b, 0)), Some(0), "asked after a later entry");
        assert_eq!(wanted.get((a, 1)), Some(10), "back to an earlier file");
        assert_eq!(wanted.get((a, 4)), None);
        assert_eq!(wanted.get((a, 5)), Some(50));
    }
}
