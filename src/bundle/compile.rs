//! Compiling the bundles. Every selected tool is lowered once, for the provider-compatibility
//! (CMP) rules, and only its place is kept: a build of a million tiny tools held each one
//! lowered (some 850 bytes) until the bundles were written, thirty times the file they came
//! from. The bundles' writer lowers them again, a few thousand at a time, from the loaded
//! files the compilation keeps.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use rayon::prelude::*;

use super::{Target, agents, compat};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::cap::Findings;
use crate::formats::FileResult;
use crate::ir::{LeftOut, Lowered, Sink, SkillEntry, Tool};
use crate::rules::Rule;
use crate::source::{SourceFile, Span};

/// Tools lowered at a time: in parallel, and never a whole list of them at once.
const CHUNK: usize = 4096;
/// Tools lowered by one task, and handed on together.
const FEW: usize = 64;

/// Everything a build writes, computed during the check.
#[derive(Default)]
pub struct Compiled {
    /// Every agent with an id, sorted by id.
    pub agents: Vec<agents::AgentBundle>,
    /// Tools left out of the bundles, and why.
    pub left_out: Vec<LeftOut>,
    /// Agent Skills, listed in `toolc.bundle.json`, sorted by name then path.
    pub skills: Vec<SkillEntry>,
    /// The id of every agent file of the repository, built or not (out of the paths built,
    /// or with errors): an agent file in the output folder is stale only when its id is not
    /// here.
    pub agent_ids: BTreeSet<String>,
    /// Where every bundled tool is, sorted by name, then path, then place in its file.
    places: Vec<Place>,
    /// The display path of each result's file that has a bundled tool, by result index.
    paths: Vec<Option<Box<str>>>,
    /// The loaded files the places are in, given once the check's report is made.
    results: Vec<FileResult>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("tools", &self.places.len())
            .field("agents", &self.agents)
            .field("left_out", &self.left_out)
            .finish_non_exhaustive()
    }
}

impl Compiled {
    /// How many tools the bundles hold.
    pub fn tool_count(&self) -> usize {
        self.places.len()
    }

    /// Every bundled tool in bundle order (name, then path), lowered again as it is asked for.
    pub fn tools(&self) -> impl Iterator<Item = Tool> + '_ {
        self.map_tools(|tools| tools).flatten().flatten()
    }

    /// What `f` makes of the bundled tools, in bundle order, given a few at a time: each few
    /// lowered again and handed to `f` in parallel, a few thousand tools' worth at once.
    pub(crate) fn map_tools<'s, R: Send>(
        &'s self,
        f: impl Fn(Vec<Tool>) -> R + Sync + 's,
    ) -> impl Iterator<Item = Vec<R>> + 's {
        self.places.chunks(CHUNK).map(move |some| {
            some.par_chunks(FEW)
                .map(|few| {
                    let tools = few
                        .iter()
                        .filter_map(|p| lower_again(&self.results, &self.paths, p))
                        .collect();
                    f(tools)
                })
                .collect()
        })
    }

    /// Keep `results`, the files the places were found in (the same list, in its order).
    pub(crate) fn hold(&mut self, results: Vec<FileResult>) {
        self.results = results;
    }
}

/// Where a bundled tool is: 48 bytes besides its name.
struct Place {
    name: Box<str>,
    /// Into the results.
    result: u32,
    /// Its entry in its file's list, for formats that number them.
    index: Option<u32>,
    name_span: Span,
}

/// Which files a build compiles.
pub(crate) struct Selection<'a> {
    /// The file, or a file it reads (a schema), has an error: it contributes nothing, the
    /// check already says why.
    pub has_error: &'a (dyn Fn(&SourceFile) -> bool + Sync),
    /// The file is among the paths built (a file named on the command line builds alone).
    pub in_scope: &'a (dyn Fn(&SourceFile) -> bool + Sync),
    /// The repository root: paths in bundles are relative to it.
    pub root: &'a std::path::Path,
}

impl Selection<'_> {
    /// True when the tools or agent of `r` go into the bundles.
    pub(crate) fn takes(&self, r: &FileResult) -> bool {
        (self.in_scope)(&r.file)
            && !(self.has_error)(&r.file)
            && !r.companions.iter().any(|c| (self.has_error)(c))
    }
}

/// Lower every selected tool of `results` and assemble the selected agents; the diagnostics
/// are the provider-compatibility (CMP) findings for `targets`. The result holds no files:
/// [`Compiled::hold`] gives it `results` before its tools are read.
pub(crate) fn compile(
    results: &[FileResult],
    selection: &Selection<'_>,
    targets: &[Target],
) -> (Compiled, Vec<Diagnostic>) {
    let takes = |r: &FileResult| selection.takes(r);
    let providers = compat::providers(targets);
    let mut sink = Compiling {
        index_of: results
            .iter()
            .enumerate()
            .map(|(i, r)| (Arc::as_ptr(&r.file), u32::try_from(i).unwrap_or(u32::MAX)))
            .collect(),
        root: selection.root,
        providers: (!targets.is_empty()).then_some(&providers[..]),
        pending: Vec::new(),
        found: Findings::default(),
        findings: Vec::new(),
        places: Vec::new(),
        paths: vec![None; results.len()],
        left_out: Vec::new(),
        skills: Vec::new(),
    };
    crate::formats::lower_each(results, &takes, &mut sink);
    sink.flush(true);
    let Compiling {
        mut findings,
        mut places,
        paths,
        mut left_out,
        mut skills,
        ..
    } = sink;
    let path = |p: &Place| paths[p.result as usize].as_deref().unwrap_or_default();
    places.sort_by(|a, b| (&a.name, path(a), a.index).cmp(&(&b.name, path(b), b.index)));
    left_out.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    skills.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    if !targets.is_empty() {
        findings.extend(compat::bundle_findings(
            &Placed {
                places: &places,
                results,
                paths: &paths,
            },
            &providers,
        ));
    }
    // Agents name `*.tool.md` tools, a file each: few enough to hold.
    let tool_md: Vec<Tool> = places
        .iter()
        .filter(|p| results[p.result as usize].file.format.as_str() == "tool-md")
        .filter_map(|p| lower_again(results, &paths, p))
        .collect();
    let compiled = Compiled {
        agents: agents::compile(results, selection, &tool_md),
        left_out,
        skills,
        agent_ids: agents::all_ids(results),
        places,
        paths,
        results: Vec::new(),
    };
    (compiled, findings)
}

/// The tool at `place`, lowered again from its file (the format lowers only that entry).
fn lower_again(results: &[FileResult], paths: &[Option<Box<str>>], place: &Place) -> Option<Tool> {
    let r = results.get(place.result as usize)?;
    let mut one = One {
        index: place.index,
        found: None,
    };
    crate::formats::lower_each(std::slice::from_ref(r), &|_| true, &mut one);
    let mut tool = one.found?;
    tool.provenance.path = paths.get(place.result as usize)?.as_deref()?.to_string();
    Some(tool)
}

/// The sink of the compilation: each file's tools checked a chunk at a time (their findings
/// capped per file and rule as they are found), then only their places kept.
struct Compiling<'a, 'c> {
    index_of: HashMap<*const SourceFile, u32>,
    root: &'c std::path::Path,
    /// The targets other than `bundle`; `None` when no target is checked.
    providers: Option<&'c [Target]>,
    /// Tools of one file not checked yet.
    pending: Vec<Lowered<'a>>,
    /// The CMP findings of the file of `pending`.
    found: Findings,
    findings: Vec<Diagnostic>,
    places: Vec<Place>,
    paths: Vec<Option<Box<str>>>,
    left_out: Vec<LeftOut>,
    skills: Vec<SkillEntry>,
}

impl Compiling<'_, '_> {
    /// Check the pending tools and keep their places; at the end of their file, its findings.
    fn flush(&mut self, file_ends: bool) {
        if let Some(providers) = self.providers {
            // A rule whose cap is full now stays full: its findings need not be built.
            let full = self.found.full_codes();
            let full = |rule: &Rule| full.contains(&rule.code);
            let each: Vec<compat::ToolFindings> = self
                .pending
                .par_iter()
                .map(|t| compat::tool_findings(t, providers, &full))
                .collect();
            for one in each {
                one.add_to(&mut self.found);
            }
        }
        for t in self.pending.drain(..) {
            let Some(&result) = self.index_of.get(&Arc::as_ptr(t.file)) else {
                continue;
            };
            let path = &mut self.paths[result as usize];
            if path.is_none() {
                *path = Some(crate::fs::display_path(&t.file.path, self.root).into());
            }
            self.places.push(Place {
                name: t.tool.name.into_boxed_str(),
                result,
                index: t.tool.provenance.index.and_then(|i| u32::try_from(i).ok()),
                name_span: t.name_span,
            });
        }
        if file_ends {
            self.findings
                .extend(std::mem::take(&mut self.found).into_vec());
        }
    }
}

impl<'a> Sink<'a> for Compiling<'a, '_> {
    fn tool(&mut self, tool: Lowered<'a>) {
        let same_file = self
            .pending
            .first()
            .is_none_or(|p| Arc::ptr_eq(p.file, tool.file));
        if !same_file {
            self.flush(true);
        } else if self.pending.len() >= CHUNK {
            self.flush(false);
        }
        self.pending.push(tool);
    }

    fn left_out(&mut self, left_out: LeftOut) {
        self.left_out.push(left_out);
    }

    fn skill(&mut self, skill: SkillEntry) {
        self.skills.push(skill);
    }
}

/// A sink that keeps one tool of one file: the entry `index` of a numbered list, else the
/// file's tool.
struct One {
    index: Option<u32>,
    found: Option<Tool>,
}

impl<'a> Sink<'a> for One {
    fn tool(&mut self, tool: Lowered<'a>) {
        let index = tool
            .tool
            .provenance
            .index
            .and_then(|i| u32::try_from(i).ok());
        if self.found.is_none() && index == self.index {
            self.found = Some(tool.tool);
        }
    }

    fn wants(&mut self, _file: &Arc<SourceFile>, index: usize) -> bool {
        self.index.is_some_and(|i| i as usize == index)
    }

    fn entries(&mut self, _file: &Arc<SourceFile>) -> std::ops::Range<usize> {
        match self.index {
            Some(i) => i as usize..i as usize + 1,
            None => 0..usize::MAX,
        }
    }
}

/// The bundled tools in bundle order, as the CMP rules about the whole bundle read them.
struct Placed<'p> {
    places: &'p [Place],
    results: &'p [FileResult],
    paths: &'p [Option<Box<str>>],
}

impl compat::Bundled for Placed<'_> {
    fn len(&self) -> usize {
        self.places.len()
    }

    fn name(&self, i: usize) -> &str {
        &self.places[i].name
    }

    fn site(&self, i: usize) -> (&Arc<SourceFile>, Span) {
        let p = &self.places[i];
        (&self.results[p.result as usize].file, p.name_span)
    }

    fn path(&self, i: usize) -> &str {
        let p = &self.places[i];
        self.paths[p.result as usize].as_deref().unwrap_or_default()
    }
}
