//! `toolc diff`: change control on the canonical IR. Both versions of a repository are loaded
//! by the same formats and lowered into [`crate::ir::Tool`]s; tools are paired by format and
//! name (`pairing.rs`), then compared whole (`tools.rs`), schema by schema (`schema.rs`,
//! `constraints.rs`), by behaviour (`behaviour.rs`) and by version (`version.rs`). Findings are
//! ordinary diagnostics of the `BRK` rules, configured and suppressed like `check`'s
//! (`report.rs`), on the new side with the old side as a related place.

mod behaviour;
mod briefs;
mod constraints;
mod digest;
pub(crate) mod git;
mod input;
mod list;
pub(crate) mod locate;
pub(crate) mod output;
mod pairing;
mod properties;
mod record_briefs;
mod records;
mod report;
pub(crate) mod schema;
mod tools;
mod version;
mod words;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::fs::{Confined, Overlay};
use crate::ir::Lowered;
use crate::pipeline;
use crate::pipeline::{CheckOptions, Report};
use crate::rules::Rule;
use crate::source::Span;

pub(crate) use input::Against;
pub use list::{ChangeKind, ToolChange, ToolChanges};
use pairing::Pairing;

/// What to compare and how to filter the findings.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// Files or directories to report on (relative to `cwd` or absolute); empty: all.
    pub paths: Vec<PathBuf>,
    /// The working directory.
    pub cwd: PathBuf,
    /// `--against`: a git revision or a folder; `None`: the merge base with the default branch,
    /// else `HEAD`.
    pub against: Option<String>,
    /// Only these rules (codes, names or prefixes); empty means all.
    pub select: Vec<String>,
    /// Never these rules.
    pub ignore: Vec<String>,
    /// `--preview`: preview rules run too.
    pub preview: bool,
    /// Count the tools that changed without listing them ([`DiffReport::tools`] is left
    /// empty): all a report without `--stat` needs, and a line for each of 300,000 added
    /// tools took more than their file.
    pub summary_only: bool,
}

/// Why a diff could not run (exit code 2): no repository, an unknown revision, no git.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffError(pub String);

impl std::fmt::Display for DiffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DiffError {}

/// The outcome of a diff.
#[derive(Debug)]
pub struct DiffReport {
    /// The findings, as `check` reports them.
    pub report: Report,
    /// Every tool added, removed or changed, sorted by name then path.
    pub tools: ToolChanges,
    /// How the old version is named (`` `HEAD` ``, a folder).
    pub base: String,
}

/// The two versions of one tool.
pub(crate) struct Pair<'a> {
    /// The old tool.
    pub old: &'a Lowered<'a>,
    /// The new tool.
    pub new: &'a Lowered<'a>,
    /// How messages name the old version.
    pub base: &'a str,
}

/// Whether a finding of a rule at a place of a file would be shown: one that would only be
/// counted is made without its words (the report keeps a rule's first 200 of a file, and a
/// change to each of a million tools made a message for each).
pub(crate) type Shown<'s> = dyn Fn(&'static Rule, &Path, Span) -> bool + 's;

impl Pair<'_> {
    /// A finding of `rule` at `span` of the new tool's file, when it would be shown; else
    /// the same finding without words, which the report only counts (it still points at the
    /// old file, as a run on some paths reports what points into them). Always whole when
    /// both versions have a version, whose check quotes the breaking findings.
    pub(crate) fn finding(
        &self,
        shown: &Shown<'_>,
        rule: &'static Rule,
        span: Span,
        make: impl FnOnce() -> Diagnostic,
    ) -> Diagnostic {
        let versioned = self.old.tool.version.is_some() && self.new.tool.version.is_some();
        match versioned || shown(rule, &self.new.file.path, span) {
            true => {
                let d = make();
                // Counted under the rule asked about: a finding made under another would
                // be shown or counted against the wrong rule's cap.
                debug_assert_eq!(d.rule.code, rule.code);
                d
            }
            false => Diagnostic::new(rule, self.new.file, span, String::new()).related(
                self.old.file,
                self.old.name_span,
                String::new(),
            ),
        }
    }

    /// `site` in the new tool's file, else its name.
    pub(crate) fn new_site(&self, site: Option<Span>) -> Span {
        site.unwrap_or(self.new.name_span)
    }

    /// `site` in the old tool's file, else its name.
    pub(crate) fn old_site(&self, site: Option<Span>) -> Span {
        site.unwrap_or(self.old.name_span)
    }
}

/// The tools that changed, listed for `--stat` or only counted.
struct Changes {
    list: ToolChanges,
    /// How many were found (the index of the next).
    count: usize,
    /// Whether they are listed.
    listed: bool,
}

impl Changes {
    /// Count a change, and list it (`add` pushes it and says where) when they are listed; its
    /// index.
    fn push(&mut self, add: impl FnOnce(&mut ToolChanges) -> usize) -> usize {
        if self.listed {
            let listed = add(&mut self.list);
            debug_assert_eq!(listed, self.count, "a change is listed at its index");
        }
        self.count += 1;
        self.count - 1
    }
}

/// A finding before configuration: which tool (index into the changes) it is about.
pub(crate) struct Finding {
    pub tool: usize,
    /// Where the finding is in the working tree, for scoping (an old file's new home).
    pub home: PathBuf,
    pub diagnostic: Diagnostic,
}

/// Compare the repository at `options.against` with the working tree.
pub fn diff(options: &DiffOptions, config: &Config) -> Result<DiffReport, DiffError> {
    // Both sides are lowered again, a round at a time, after their load.
    crate::memory::give_back_at_once();
    let check = CheckOptions {
        paths: options.paths.clone(),
        cwd: options.cwd.clone(),
        preview: options.preview,
        // The working tree's own findings are `check`'s to report: selecting only the diff's
        // rules leaves out every pass that looks for them (a quarter of a large diff's time).
        select: vec!["BRK".into()],
        ..CheckOptions::default()
    };
    // Links out of the repository are never followed, as in `check`.
    let fs = Overlay::new(Box::new(Confined::for_paths(&options.paths, &options.cwd)));
    let against = Against::parse(options.against.as_deref(), &options.cwd)?;
    // Files whose records are made from their text keep it: not read twice.
    let keeps_text = crate::lock::record::made_from_text;
    // Both sides at once: a large file is loaded by one core.
    let (mut new, old) =
        pipeline::load_definitions_beside(&check, config, &fs, keeps_text, |scope, found| {
            input::load(&against, &options.cwd, scope, config, found)
        });
    let mut old = old?;
    crate::timing::mark("old side");
    // A folder compared with may sit in the working tree (`--against old/`): it is not part of
    // the new version.
    if let Against::Dir(dir) = &against {
        new.results.retain(|r| !r.file.path.starts_with(dir));
    }
    old.keep_found(&new.results);
    let root = config.project_root();
    let (mut old_tools, mut new_tools) = rayon::join(
        || briefs::Briefs::of(&old.results, &root),
        || briefs::Briefs::of(&new.results, &root),
    );
    crate::timing::mark("lower");
    let base = old.label.as_str();
    let home = |p: &std::path::Path| old.home(p);
    let display = |p: &std::path::Path| crate::fs::display_path(p, &options.cwd);
    let pairings = pairing::pair(&mut old_tools, &mut new_tools, &home, &display);
    crate::timing::mark("pair");
    let homes = Homes {
        old: &old,
        old_files: old
            .results
            .iter()
            .flat_map(|r| std::iter::once(&r.file).chain(&r.companions))
            .map(std::sync::Arc::as_ptr)
            .collect(),
    };
    let mut changes = Changes {
        list: ToolChanges::default(),
        count: 0,
        listed: !options.summary_only,
    };
    let mut collector = report::Collector::new(report::Inputs {
        options,
        configs: &new.configs,
        scope: &new.scope,
        results: &new.results,
        tools: new_tools.len(),
    });
    let sides = Sides {
        old: briefs::Side {
            briefs: &old_tools,
            results: &old.results,
        },
        new: briefs::Side {
            briefs: &new_tools,
            results: &new.results,
        },
        base,
        cwd: &options.cwd,
    };
    let renamed = tool_changes(&sides, pairings, &homes, &mut changes, &mut collector);
    crate::timing::mark("compare");
    // Skills and servers: the old side's folders are listed in what it was read from.
    let old_records = record_briefs::Briefs::of(&old.results, old.fs.as_ref());
    let new_records = record_briefs::Briefs::of(&new.results, &fs);
    records::compare(&old_records, &new_records, &home, base, &mut |c| {
        let tool = changes.push(|list| {
            let path = list.path(display(&c.home));
            list.push(list::New {
                name: c.record.name,
                definition: c.record.kind,
                format: c.record.file.format.as_str(),
                path,
                change: c.change,
            })
        });
        let found = homes.findings(tool, c.diagnostics, &c.home);
        collector.add(found, None, changes.list.counts());
    });
    crate::timing::mark("records");
    let agents = tools::agents(&new.results, &old_tools, &new_tools, &renamed, base)
        .into_iter()
        .map(|d| Finding {
            tool: usize::MAX,
            home: d.file.path.clone(),
            diagnostic: d,
        })
        .collect();
    collector.add(agents, None, changes.list.counts());
    // What was compared is done with: the report reads texts back, and a large diff's briefs
    // and old side would be held beside them.
    drop((old_tools, new_tools));
    old.results = Vec::new();
    let report = collector.report();
    crate::timing::mark("report");
    let mut changes = changes.list;
    changes.finish(&|path| new.scope.reports_on(&options.cwd.join(path)));
    Ok(DiffReport {
        report,
        tools: changes,
        base: old.label.clone(),
    })
}

/// Where findings belong in the working tree: the old side's files have new homes.
struct Homes<'o> {
    old: &'o input::OldSide,
    /// The old side's files.
    old_files: HashSet<*const crate::source::SourceFile>,
}

impl Homes<'_> {
    /// Each finding about change `tool`, with where it belongs: its own file when that is
    /// on the new side, else the new home of the old file it points at (`fallback` for a
    /// finding about no file).
    fn findings(&self, tool: usize, diags: Vec<Diagnostic>, fallback: &Path) -> Vec<Finding> {
        diags
            .into_iter()
            .map(|d| {
                let home = if self.old_files.contains(&std::sync::Arc::as_ptr(&d.file)) {
                    self.old.home(&d.file.path)
                } else if d.file.path.as_os_str().is_empty() {
                    fallback.to_path_buf()
                } else {
                    d.file.path.clone()
                };
                Finding {
                    tool,
                    home,
                    diagnostic: d,
                }
            })
            .collect()
    }
}

/// Both sides' tools, and how messages name the old one.
struct Sides<'b, 'a> {
    old: briefs::Side<'b, 'a>,
    new: briefs::Side<'b, 'a>,
    base: &'b str,
    /// The working directory, which the changes' paths are relative to.
    cwd: &'b Path,
}

/// The tools that changed and their findings: the findings about whole tools (removed,
/// disabled) in the pairings' order, then the tools compared (a different definition under
/// the same name, or a rename) lowered again a round at a time; then, for `--stat`, each
/// change listed. The renames, old name to new.
fn tool_changes<'b>(
    sides: &Sides<'b, '_>,
    pairings: Vec<Pairing>,
    homes: &Homes<'_>,
    changes: &mut Changes,
    collector: &mut report::Collector<'_>,
) -> HashMap<&'b str, &'b str> {
    let (old_tools, new_tools, base) = (sides.old.briefs, sides.new.briefs, sides.base);
    // Each pairing is a change, numbered as it stands: the first changes are the tools'.
    debug_assert_eq!(changes.count, 0);
    changes.count = pairings.len();
    if changes.listed {
        changes.list.count_for(pairings.len());
    }
    let mut renamed = HashMap::new();
    for (tool, p) in pairings.iter().enumerate() {
        let (home, d) = match *p {
            Pairing::Renamed { old: o, new: n } => {
                renamed.insert(
                    old_tools.get(o as usize).name,
                    new_tools.get(n as usize).name,
                );
                continue;
            }
            Pairing::Disabled { old: o, left_out } => {
                let l = old_tools.get(o as usize);
                let d = tools::disabled(&l, &new_tools.left_out[left_out as usize], base);
                (homes.old.home(&l.file.path), d)
            }
            Pairing::Removed { old: o } => {
                let l = old_tools.get(o as usize);
                let home = homes.old.home(&l.file.path);
                let results = sides.new.results;
                let now = results
                    .binary_search_by(|r| r.file.path.as_path().cmp(&home))
                    .ok()
                    .map(|i| &results[i]);
                let d = tools::removed(&l, now, base);
                (home, d)
            }
            Pairing::Same { .. } | Pairing::Added { .. } => continue,
        };
        let found = homes.findings(tool, vec![d], &home);
        collector.add(found, None, changes.list.counts());
    }
    let compared = |i: usize| pairings[i].compared();
    briefs::each_pair(
        sides.old,
        sides.new,
        pairings.len(),
        &compared,
        &mut |tool, old, new| {
            let pair = Pair { old, new, base };
            let diags = if matches!(pairings[tool], Pairing::Renamed { .. }) {
                vec![tools::renamed(&pair)]
            } else {
                compare(&pair, &|rule, path, span| collector.shows(rule, path, span))
            };
            let found = homes.findings(tool, diags, &new.file.path);
            collector.add(found, Some((tool, &pair)), changes.list.counts());
        },
    );
    if changes.listed {
        list_tools(sides, &pairings, homes, &mut changes.list);
    }
    renamed
}

/// Each tool change into the list, in the order of its pairing (its findings are counted
/// at that index).
fn list_tools(
    sides: &Sides<'_, '_>,
    pairings: &[Pairing],
    homes: &Homes<'_>,
    list: &mut ToolChanges,
) {
    let (old_tools, new_tools) = (sides.old.briefs, sides.new.briefs);
    let named = |p: Pairing| match p.named() {
        pairing::ToolOf::Old(o) => (true, old_tools.get(o as usize)),
        pairing::ToolOf::New(n) => (false, new_tools.get(n as usize)),
    };
    let from = |p: Pairing| match p {
        Pairing::Renamed { old, .. } => Some(old_tools.get(old as usize).name),
        _ => None,
    };
    // Room for exactly what is listed: grown by doubling, the list of a large diff held up to
    // twice what it needs at its peak.
    let words = pairings
        .iter()
        .map(|&p| named(p).1.name.len() + from(p).map_or(0, str::len))
        .sum();
    list.reserve(pairings.len(), words);
    // A file's path is said once: a file of a million tools has one.
    let mut paths: HashMap<(bool, *const crate::source::SourceFile), u32> = HashMap::new();
    for &p in pairings {
        let change = match p {
            Pairing::Same { .. } => ChangeKind::Changed,
            Pairing::Renamed { .. } => ChangeKind::Renamed {
                from: from(p).unwrap_or_default(),
            },
            Pairing::Disabled { .. } => ChangeKind::Disabled,
            Pairing::Removed { .. } => ChangeKind::Removed,
            Pairing::Added { .. } => ChangeKind::Added,
        };
        let (old, named) = named(p);
        let key = (old, std::sync::Arc::as_ptr(named.file));
        let path = match paths.get(&key) {
            Some(&id) => id,
            None => {
                let home = match old {
                    true => homes.old.home(&named.file.path),
                    false => named.file.path.clone(),
                };
                let id = list.path(crate::fs::display_path(&home, sides.cwd));
                paths.insert(key, id);
                id
            }
        };
        list.push(list::New {
            name: named.name,
            definition: crate::lock::record::Kind::Tool,
            format: named.format,
            path,
            change,
        });
    }
    debug_assert_eq!(
        list.entries(),
        pairings.len(),
        "each tool change listed at its index"
    );
}

/// Every finding about one tool present on both sides (made whole where `shown`).
fn compare(pair: &Pair<'_>, shown: &Shown<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut input = schema::Walk {
        direction: schema::Direction::Input,
        old: locate::Located::input(pair.old),
        new: locate::Located::input(pair.new),
        base: pair.base,
        out: Vec::new(),
    };
    // An equal schema (most changes leave it be) has nothing to compare: neither read back
    // into values nor walked.
    let (old_input, new_input) = (&pair.old.tool.input_schema, &pair.new.tool.input_schema);
    if old_input != new_input {
        input.node(&old_input.value(), &new_input.value(), &mut Vec::new());
    }
    out.append(&mut input.out);
    if let Some(old_output) = &pair.old.tool.output_schema {
        let mut output = schema::Walk {
            direction: schema::Direction::Output,
            old: locate::Located::output(pair.old),
            new: locate::Located::output(pair.new),
            base: pair.base,
            out: Vec::new(),
        };
        match &pair.new.tool.output_schema {
            Some(new_output) if new_output == old_output => {}
            Some(new_output) => {
                output.node(&old_output.value(), &new_output.value(), &mut Vec::new())
            }
            None => output.output_removed(),
        }
        out.append(&mut output.out);
    }
    behaviour::compare(pair, shown, &mut out);
    out
}
