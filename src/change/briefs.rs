//! What a diff keeps of every lowered tool until it knows which it compares: its name, its
//! place and a digest of its definition. A tool is lowered in full a second time only when
//! it is compared: paired with a tool whose definition differs, or renamed. Both sides of a
//! `tools.json` of 300,000 tiny tools were held lowered (about 1 KB a tool) to find that
//! none changed.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::formats::FileResult;
use crate::ir::{LeftOut, Lowered, Lowering, Sink};
use crate::lock::canonical;
use crate::source::{SourceFile, Span};

/// One lowered tool, briefly.
struct Brief {
    /// Where its name is in [`Briefs::names`].
    name: (usize, usize),
    /// Its name's span, in its file (files are at most 64 MiB).
    span: (u32, u32),
    /// Its file, in [`Briefs::files`].
    file: u32,
    /// Its place in the order the formats lower tools.
    at: u32,
    /// Its entry's index in its file's list, plus one (zero: none).
    index: u32,
    /// Its format, in [`Briefs::formats`].
    format: u8,
    /// SHA-256 of its canonical definition without its name: tools paired by name are the
    /// same when these are, and a tool is renamed when another's is the same.
    unnamed: [u8; 32],
}

/// A side's tools, briefly, sorted as [`crate::formats::lower_all`] sorts them (by name, path
/// and index), and the tools the runtime would not load.
#[derive(Default)]
pub(super) struct Briefs<'a> {
    list: Vec<Brief>,
    names: String,
    /// Each file a tool is defined in, with its path relative to the repository's root.
    files: Vec<(&'a Arc<SourceFile>, String)>,
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
    /// SHA-256 of its definition without its name.
    pub unnamed: &'b [u8; 32],
}

impl<'a> Briefs<'a> {
    /// The tools of `results`, briefly; paths relative to `root`.
    pub(super) fn of(results: &'a [FileResult], root: &Path) -> Briefs<'a> {
        let mut sink = Making {
            briefs: Briefs::default(),
            root,
            file_ids: HashMap::new(),
        };
        crate::formats::lower_each(results, &|_| true, &mut sink);
        let mut briefs = sink.briefs;
        let mut list = std::mem::take(&mut briefs.list);
        list.sort_unstable_by(|a, b| {
            (
                briefs.name_of(a),
                &briefs.files[a.file as usize].1,
                a.index,
                a.at,
            )
                .cmp(&(
                    briefs.name_of(b),
                    &briefs.files[b.file as usize].1,
                    b.index,
                    b.at,
                ))
        });
        briefs.list = list;
        briefs
            .left_out
            .sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
        briefs
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
            unnamed: &b.unnamed,
        }
    }

    /// Every tool, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = Named<'_, 'a>> {
        (0..self.len()).map(|i| self.get(i))
    }

    fn name_of(&self, b: &Brief) -> &str {
        self.names.get(b.name.0..b.name.1).unwrap_or_default()
    }

    /// Tools `wanted` (indices in the sorted order), lowered in full again: in the order of
    /// `wanted`'s places, with the lowering's positions to find them by.
    pub(super) fn lower(&self, results: &'a [FileResult], wanted: &[usize]) -> Full<'a> {
        let mut at: Vec<u32> = wanted.iter().map(|&i| self.list[i].at).collect();
        at.sort_unstable();
        at.dedup();
        let mut sink = Picking {
            wanted: &at,
            seen: 0,
            kept: Lowering::default(),
        };
        crate::formats::lower_each(results, &|_| true, &mut sink);
        let mut tools = sink.kept.tools;
        let paths: HashMap<*const SourceFile, &String> = self
            .files
            .iter()
            .map(|(file, path)| (Arc::as_ptr(file), path))
            .collect();
        for lowered in &mut tools {
            if let Some(path) = paths.get(&Arc::as_ptr(lowered.file)) {
                lowered.tool.provenance.path = (*path).clone();
            }
        }
        Full { at, tools }
    }

    /// The lowering position of tool `i`.
    pub(super) fn at(&self, i: usize) -> u32 {
        self.list[i].at
    }
}

/// Tools lowered in full again, by their lowering positions.
pub(super) struct Full<'a> {
    at: Vec<u32>,
    tools: Vec<Lowered<'a>>,
}

impl<'a> Full<'a> {
    /// The tool lowered at position `at`.
    pub(super) fn get(&self, at: u32) -> Option<&Lowered<'a>> {
        let i = self.at.binary_search(&at).ok()?;
        self.tools.get(i)
    }
}

/// The sink that makes the briefs.
struct Making<'a, 'r> {
    briefs: Briefs<'a>,
    root: &'r Path,
    file_ids: HashMap<*const SourceFile, u32>,
}

impl<'a> Sink<'a> for Making<'a, '_> {
    fn tool(&mut self, lowered: Lowered<'a>) {
        let briefs = &mut self.briefs;
        let file = *self
            .file_ids
            .entry(Arc::as_ptr(lowered.file))
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
        let unnamed = canonical::digest(&canonical::without_name(&lowered.tool));
        let span = lowered.name_span;
        briefs.list.push(Brief {
            name: (start, briefs.names.len()),
            span: (span.start as u32, span.end as u32),
            file,
            at: briefs.list.len() as u32,
            index: lowered.tool.provenance.index.map_or(0, |i| i as u32 + 1),
            format: format as u8,
            unnamed,
        });
    }

    fn left_out(&mut self, left_out: LeftOut) {
        self.briefs.left_out.push(left_out);
    }

    fn reserve(&mut self, additional: usize) {
        self.briefs.list.reserve(additional);
    }
}

/// The sink that keeps the tools lowered at the positions `wanted` (sorted).
struct Picking<'a, 'w> {
    wanted: &'w [u32],
    seen: u32,
    kept: Lowering<'a>,
}

impl<'a> Sink<'a> for Picking<'a, '_> {
    fn tool(&mut self, lowered: Lowered<'a>) {
        if self.wanted.binary_search(&self.seen).is_ok() {
            self.kept.tools.push(lowered);
        }
        self.seen += 1;
    }
}
