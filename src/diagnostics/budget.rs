//! A bound on the findings a whole run holds to its report. The cap of [`super::cap`] is per
//! rule and file, so thousands of small files of hundreds of findings each (2,000
//! `tools.json` of 603: 6.5 MB) held 1.2 million findings, 792 MB. Past [`MAX_HELD`] the
//! run shows fewer findings of each rule in each file, the same number in every file: the
//! highest of [`LEVELS`] that keeps it within the bound (or the lowest). A line still stands
//! for the rest of each rule in each file and counts them.
//!
//! Files are capped as they are loaded, at the level what was loaded so far needs, which
//! only falls as files come (so while loading, at most [`MAX_HELD`] entries are held at each
//! level). The report brings every file to the level the whole load reached
//! ([`to_level`]) before anything drops a finding, then caps again at the level its own
//! findings need. A file's findings are sorted before each cap, so whatever the order the
//! files were loaded in, the report is the same from run to run.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::Diagnostic;
use super::cap::{MAX_PER_RULE, cap_per_file};
use crate::rules::Rule;

/// Findings (and lines standing for the rest) a run holds before it shows fewer of each rule
/// in each file: about 30 MB of findings, and more than anyone reads (GitHub's code
/// scanning takes 25,000 results from a SARIF run).
pub(crate) const MAX_HELD: usize = 50_000;

/// The findings of a rule shown in a file, from the usual cap down: the run takes the first
/// that keeps it within [`MAX_HELD`], else the last.
pub(crate) const LEVELS: [usize; 8] = [MAX_PER_RULE, 100, 50, 20, 10, 5, 2, 1];

/// What a run held so far, counted at each of [`LEVELS`]: shared by the threads that load.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    held: [AtomicUsize; LEVELS.len()],
}

impl Budget {
    /// Count the findings of one loaded file (rules that `runs` says do not run on a path are
    /// not counted: they are dropped before the report), then cap them at the level the run
    /// has reached.
    pub(crate) fn hold(
        &self,
        mut diags: Vec<Diagnostic>,
        runs: &dyn Fn(&Rule, &Path) -> bool,
    ) -> Vec<Diagnostic> {
        if diags.is_empty() {
            return diags;
        }
        let groups = Groups::of(&diags, runs);
        let level = self.add(&groups);
        let max = LEVELS[level.unwrap_or(LEVELS.len() - 1)];
        if max < MAX_PER_RULE && groups.held_at(max) < diags.len() {
            diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            diags = cap_per_file(diags, max);
        }
        diags
    }

    /// Count one file's findings `diags` as held, as they are (an editor's re-check counts
    /// every file again, the one it reloaded whole).
    pub(crate) fn count(&self, diags: &[Diagnostic], runs: &dyn Fn(&Rule, &Path) -> bool) {
        self.add(&Groups::of(diags, runs));
    }

    /// Add `groups` at every level: the first level within the bound with them counted is
    /// the run's so far.
    fn add(&self, groups: &Groups) -> Option<usize> {
        let mut level = None;
        for (i, counter) in self.held.iter().enumerate() {
            let added = groups.held_at(LEVELS[i]);
            let after = counter.fetch_add(added, Ordering::Relaxed) + added;
            if level.is_none() && after <= MAX_HELD {
                level = Some(i);
            }
        }
        level
    }

    /// The level every file loaded so far was capped at, or above.
    pub(crate) fn level(&self) -> usize {
        let at = self
            .held
            .iter()
            .position(|n| n.load(Ordering::Relaxed) <= MAX_HELD);
        LEVELS[at.unwrap_or(LEVELS.len() - 1)]
    }
}

/// `diags` at `level`, when it is below the usual cap: each file's first findings of each
/// rule (by position), and a line for the rest. The report does this before anything drops
/// a finding (configuration, comments, scope): files capped as they loaded, at whatever
/// level the run had reached by then, all come to the level the whole run reached, so what
/// is shown never depends on the order the threads loaded them in.
pub(crate) fn to_level(mut diags: Vec<Diagnostic>, level: usize) -> Vec<Diagnostic> {
    if level >= MAX_PER_RULE {
        return diags;
    }
    diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    cap_per_file(diags, level)
}

/// The highest of [`LEVELS`] no higher than `ceiling` at which `diags` (sorted by file) hold
/// at most [`MAX_HELD`] entries.
pub(crate) fn level_of(diags: &[Diagnostic], ceiling: usize) -> usize {
    let groups = Groups::of(diags, &|_, _| true);
    LEVELS
        .into_iter()
        .filter(|&max| max <= ceiling)
        .find(|&max| groups.held_at(max) <= MAX_HELD)
        .unwrap_or(LEVELS[LEVELS.len() - 1])
}

/// Per file and rule, how many findings there are, and whether a line already stands for
/// more.
struct Groups(Vec<Group>);

#[derive(Clone, Copy)]
struct Group {
    findings: usize,
    lines: bool,
}

impl Groups {
    fn of(diags: &[Diagnostic], runs: &dyn Fn(&Rule, &Path) -> bool) -> Groups {
        let mut at: HashMap<(&Path, &'static str), usize> = HashMap::new();
        let mut groups = Vec::new();
        for d in diags {
            let key = (d.file.path.as_path(), d.rule.code);
            let i = match at.get(&key) {
                Some(&i) => i,
                None => {
                    if !runs(d.rule, &d.file.path) {
                        continue;
                    }
                    at.insert(key, groups.len());
                    groups.push(Group {
                        findings: 0,
                        lines: false,
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[i];
            if d.omitted == 0 {
                group.findings += 1;
            } else {
                group.lines = true;
            }
        }
        Groups(groups)
    }

    /// The entries the groups keep when each shows at most `max` findings: those, and one
    /// line for the rest where there is a rest.
    fn held_at(&self, max: usize) -> usize {
        self.0
            .iter()
            .map(|g| g.findings.min(max) + usize::from(g.lines || g.findings > max))
            .sum()
    }
}

#[cfg(test)]
mod tests;
