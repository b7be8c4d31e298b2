//! What a diff keeps of every skill and MCP server until it knows which it compares: its kind,
//! name, place and the digest of its fields. A record is made in full a second time only when
//! a version of the same name with other fields is compared with it: an `.mcp.json` of 400,000
//! small servers was held as records on both sides (80 bytes and the fields of each).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crate::formats::FileResult;
use crate::fs::FileSystem;
use crate::lock::record::{Kind, Record, each_record};
use crate::source::{SourceFile, Span};

/// Skills whose records a side keeps whole, at most (a record is its fields and a digest per
/// file of the skill's folder: a few KB).
const SKILLS_KEPT: usize = 4096;

/// One record, briefly.
struct Brief {
    /// Where its name is in [`Briefs::names`].
    name: (usize, usize),
    /// Its name's span, in its file (files are at most 64 MiB).
    span: (u32, u32),
    /// Its file, in [`Briefs::files`].
    file: u32,
    /// Its place among its file's records, in the order [`each_record`] makes them.
    at: u32,
    kind: Kind,
    /// SHA-256 of its fields ([`Record::identity`]).
    identity: [u8; 32],
}

/// A side's skills and servers, briefly, sorted by file and name (as
/// [`crate::lock::record::records`] sorts them), with what they are made from.
pub(super) struct Briefs<'a> {
    list: Vec<Brief>,
    /// The first skills' records, kept whole by (file, place): making one again reads its
    /// folder again. Servers are many and cheap to make from their file; skills are few.
    skills: HashMap<(u32, u32), Record<'a>>,
    names: String,
    files: Vec<&'a Arc<SourceFile>>,
    results: &'a [FileResult],
    fs: &'a dyn FileSystem,
}

/// What a brief tells of its record.
#[derive(Clone, Copy)]
pub(super) struct Seen<'b, 'a> {
    /// Skill or server.
    pub kind: Kind,
    /// The file that defines it.
    pub file: &'a Arc<SourceFile>,
    /// Its name.
    pub name: &'b str,
    /// Where its name is written.
    pub name_span: Span,
    /// SHA-256 of its fields.
    pub identity: &'b [u8; 32],
}

impl<'a> Briefs<'a> {
    /// The records of `results`, briefly; `fs` reads skill folders.
    pub(super) fn of(results: &'a [FileResult], fs: &'a dyn FileSystem) -> Briefs<'a> {
        let mut briefs = Briefs {
            list: Vec::new(),
            skills: HashMap::new(),
            names: String::new(),
            files: Vec::new(),
            results,
            fs,
        };
        let mut last: Option<*const SourceFile> = None;
        let mut at = 0;
        each_record(results, fs, &mut |r| {
            // Records come file by file.
            if last != Some(Arc::as_ptr(r.file)) {
                last = Some(Arc::as_ptr(r.file));
                briefs.files.push(r.file);
                at = 0;
            }
            let start = briefs.names.len();
            briefs.names.push_str(&r.name);
            let file = (briefs.files.len() - 1) as u32;
            briefs.list.push(Brief {
                name: (start, briefs.names.len()),
                span: (r.name_span.start as u32, r.name_span.end as u32),
                file,
                at,
                kind: r.kind,
                identity: r.identity(),
            });
            if r.kind == Kind::Skill && briefs.skills.len() < SKILLS_KEPT {
                briefs.skills.insert((file, at), r);
            }
            at += 1;
        });
        let mut list = std::mem::take(&mut briefs.list);
        list.sort_unstable_by(|a, b| {
            let key = |x: &Brief| (&briefs.files[x.file as usize].path, briefs.name_of(x), x.at);
            key(a).cmp(&key(b))
        });
        briefs.list = list;
        briefs
    }

    /// How many records.
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// Record `i` (in the sorted order), briefly.
    pub(super) fn get(&self, i: usize) -> Seen<'_, 'a> {
        let b = &self.list[i];
        Seen {
            kind: b.kind,
            file: self.files[b.file as usize],
            name: self.name_of(b),
            name_span: Span::new(b.span.0 as usize, b.span.1 as usize),
            identity: &b.identity,
        }
    }

    fn name_of(&self, b: &Brief) -> &str {
        self.names.get(b.name.0..b.name.1).unwrap_or_default()
    }

    /// Records `wanted` (indices in the sorted order) in full, by index: a kept skill's as
    /// kept, the others made again (only their files are read again).
    pub(super) fn full(&self, wanted: impl Iterator<Item = usize>) -> HashMap<usize, Record<'a>> {
        let mut out = HashMap::new();
        let mut by_place: HashMap<(*const SourceFile, u32), usize> = HashMap::new();
        for i in wanted {
            let b = &self.list[i];
            match self.skills.get(&(b.file, b.at)) {
                Some(kept) => {
                    out.insert(i, kept.clone());
                }
                None => {
                    by_place.insert((Arc::as_ptr(self.files[b.file as usize]), b.at), i);
                }
            }
        }
        if by_place.is_empty() {
            return out;
        }
        let files: HashSet<*const SourceFile> = by_place.keys().map(|k| k.0).collect();
        let mut last: Option<*const SourceFile> = None;
        let mut at = 0;
        let results = self
            .results
            .iter()
            .filter(|r| files.contains(&Arc::as_ptr(&r.file)));
        each_record(results, self.fs, &mut |r| {
            if last != Some(Arc::as_ptr(r.file)) {
                last = Some(Arc::as_ptr(r.file));
                at = 0;
            }
            if let Some(&i) = by_place.get(&(Arc::as_ptr(r.file), at)) {
                out.insert(i, r);
            }
            at += 1;
        });
        out
    }

    /// Each file that holds records.
    pub(super) fn files(&self) -> impl Iterator<Item = &'a Arc<SourceFile>> + '_ {
        self.files.iter().copied()
    }

    /// The file of record `i`, in [`Briefs::files`]' order.
    pub(super) fn file_id(&self, i: usize) -> usize {
        self.list[i].file as usize
    }

    /// The file path of record `i`.
    pub(super) fn path(&self, i: usize) -> &'a Path {
        &self.files[self.list[i].file as usize].path
    }
}
