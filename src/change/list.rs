//! The list `toolc diff --stat` prints: every tool, Agent Skill and MCP server that changed.
//! A diff of 1.8 million changed tools lists 1.8 million, so the list is compact: names in
//! one buffer, paths and formats by index, about 40 bytes a change (a change with its own
//! name and path strings took three times that and held the largest diffs past ten times
//! their file).

use std::collections::HashMap;

use serde::Serialize;

use crate::lock::record::Kind;

/// What became of a tool between the versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChangeKind<'a> {
    /// New in the working tree.
    Added,
    /// Gone.
    Removed,
    /// Now left out (disabled, refused by policy).
    Disabled,
    /// The same definition under a new name.
    Renamed {
        /// The old name.
        from: &'a str,
    },
    /// Its definition changed.
    Changed,
}

/// One tool's, skill's or MCP server's change, for the `--stat` summary.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ToolChange<'a> {
    /// Its name (the new one when renamed).
    pub name: &'a str,
    /// What it is: `tool`, `skill` or `server`.
    pub definition: Kind,
    /// Its format id.
    pub format: &'static str,
    /// Its file (the old one's new home when removed), relative to the working directory.
    pub path: &'a str,
    /// What happened to it.
    #[serde(flatten)]
    pub change: ChangeKind<'a>,
    /// Some error-level finding is about it (suppressed ones included: an accepted break is
    /// still a break).
    pub breaking: bool,
    /// Findings about it, by severity: errors, warnings, infos.
    pub findings: [usize; 3],
}

/// Where a string is in [`ToolChanges::words`].
#[derive(Debug, Clone, Copy, Default)]
struct Words {
    start: u32,
    end: u32,
}

/// What became of it, without the old name (which is in [`Entry::from`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum What {
    Added,
    Removed,
    Disabled,
    Renamed,
    Changed,
}

/// One change, compact.
#[derive(Debug, Clone, Copy)]
struct Entry {
    name: Words,
    /// The old name, when renamed.
    from: Words,
    /// In [`ToolChanges::paths`].
    path: u32,
    /// In [`ToolChanges::formats`].
    format: u8,
    definition: Kind,
    what: What,
}

/// Findings about one change, by severity: errors, warnings, infos.
pub(crate) type FindingCounts = [u32; 3];

/// Every tool, skill and server added, removed or changed, sorted by name then path (once
/// the diff has made it: what is listed is what [`ToolChanges::finish`] kept).
#[derive(Default)]
pub struct ToolChanges {
    entries: Vec<Entry>,
    /// Each entry's findings, by the entry's index.
    counts: Vec<FindingCounts>,
    /// The entries listed, in order (a stable sort of indices: the entries stay where their
    /// counts are).
    order: Vec<u32>,
    words: String,
    paths: Vec<String>,
    formats: Vec<&'static str>,
    /// Each path's place in `paths`.
    path_ids: HashMap<String, u32>,
}

/// A change to add: what [`ToolChanges::push`] copies.
pub(crate) struct New<'s> {
    pub name: &'s str,
    pub definition: Kind,
    pub format: &'static str,
    /// In the list's paths ([`ToolChanges::path`]).
    pub path: u32,
    pub change: ChangeKind<'s>,
}

impl ToolChanges {
    /// How many changes are listed.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no change is listed.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Change `i` of the list, in order.
    pub fn get(&self, i: usize) -> Option<ToolChange<'_>> {
        let index = *self.order.get(i)? as usize;
        Some(self.change(index))
    }

    /// Every change listed, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ToolChange<'_>> + '_ {
        self.order.iter().map(|&i| self.change(i as usize))
    }

    fn change(&self, index: usize) -> ToolChange<'_> {
        let e = &self.entries[index];
        let counts = self.counts.get(index).copied().unwrap_or_default();
        let change = match e.what {
            What::Added => ChangeKind::Added,
            What::Removed => ChangeKind::Removed,
            What::Disabled => ChangeKind::Disabled,
            What::Renamed => ChangeKind::Renamed {
                from: self.text(e.from),
            },
            What::Changed => ChangeKind::Changed,
        };
        ToolChange {
            name: self.text(e.name),
            definition: e.definition,
            format: self.formats.get(usize::from(e.format)).unwrap_or(&""),
            path: self.paths.get(e.path as usize).map_or("", String::as_str),
            change,
            breaking: counts[0] > 0,
            findings: counts.map(|n| n as usize),
        }
    }

    fn text(&self, w: Words) -> &str {
        self.words
            .get(w.start as usize..w.end as usize)
            .unwrap_or_default()
    }

    fn words(&mut self, text: &str) -> Words {
        let start = self.words.len();
        self.words.push_str(text);
        // Past 4 GiB of names, none: every name is bytes of a file held in memory.
        match (u32::try_from(start), u32::try_from(self.words.len())) {
            (Ok(start), Ok(end)) => Words { start, end },
            _ => Words::default(),
        }
    }

    /// Room for `n` more changes of names `words` bytes long in all: grown by doubling, the
    /// list of a large diff held up to twice its changes at its peak.
    pub(crate) fn reserve(&mut self, n: usize, words: usize) {
        self.entries.reserve_exact(n);
        self.words.reserve_exact(words);
    }

    /// Room for the findings of `n` changes, counted as they are compared ([`Self::counts`]).
    pub(crate) fn count_for(&mut self, n: usize) {
        self.counts.resize(n, [0; 3]);
    }

    /// Each change's findings, by the index it was (or will be) pushed at.
    pub(crate) fn counts(&mut self) -> &mut [FindingCounts] {
        &mut self.counts
    }

    /// The index of `path` in the list's paths (each path is held once).
    pub(crate) fn path(&mut self, path: String) -> u32 {
        if let Some(&id) = self.path_ids.get(&path) {
            return id;
        }
        let id = self.paths.len() as u32;
        self.paths.push(path.clone());
        self.path_ids.insert(path, id);
        id
    }

    /// How many changes were added.
    pub(crate) fn entries(&self) -> usize {
        self.entries.len()
    }

    /// Add a change; its index.
    pub(crate) fn push(&mut self, new: New<'_>) -> usize {
        let format = match self.formats.iter().position(|f| *f == new.format) {
            Some(i) => i,
            None => {
                self.formats.push(new.format);
                self.formats.len() - 1
            }
        };
        let (what, from) = match new.change {
            ChangeKind::Added => (What::Added, Words::default()),
            ChangeKind::Removed => (What::Removed, Words::default()),
            ChangeKind::Disabled => (What::Disabled, Words::default()),
            ChangeKind::Renamed { from } => (What::Renamed, self.words(from)),
            ChangeKind::Changed => (What::Changed, Words::default()),
        };
        let entry = Entry {
            name: self.words(new.name),
            from,
            path: new.path,
            // Formats are a few dozen.
            format: u8::try_from(format).unwrap_or(u8::MAX),
            definition: new.definition,
            what,
        };
        self.entries.push(entry);
        if self.counts.len() < self.entries.len() {
            self.counts.resize(self.entries.len(), [0; 3]);
        }
        self.entries.len() - 1
    }

    /// Sort the list by name then path, keeping the changes whose path `reported` and those
    /// with findings.
    pub(crate) fn finish(&mut self, reported: &dyn Fn(&str) -> bool) {
        let reported: Vec<bool> = self.paths.iter().map(|p| reported(p)).collect();
        self.path_ids = HashMap::new();
        self.entries.shrink_to_fit();
        let mut order: Vec<u32> = (0..self.entries.len() as u32)
            .filter(|&i| {
                let i = i as usize;
                reported.get(self.entries[i].path as usize) == Some(&true)
                    || self.counts.get(i).is_some_and(|c| c.iter().any(|&n| n > 0))
            })
            .collect();
        let key = |i: u32| {
            let e = &self.entries[i as usize];
            let path = self.paths.get(e.path as usize).map_or("", String::as_str);
            (self.text(e.name), path, i)
        };
        order.sort_unstable_by(|&a, &b| key(a).cmp(&key(b)));
        self.order = order;
    }
}

impl std::fmt::Debug for ToolChanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for ToolChanges {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(list: &mut ToolChanges, name: &str, path: &str, change: ChangeKind<'_>) -> usize {
        let path = list.path(path.to_string());
        list.push(New {
            name,
            definition: Kind::Tool,
            format: "agentcli",
            path,
            change,
        })
    }

    #[test]
    fn a_list_is_sorted_by_name_then_path_and_keeps_what_it_was_given() {
        let mut list = ToolChanges::default();
        push(&mut list, "b", "x.json", ChangeKind::Added);
        let renamed = push(
            &mut list,
            "a",
            "y.json",
            ChangeKind::Renamed { from: "old" },
        );
        push(&mut list, "a", "x.json", ChangeKind::Removed);
        push(&mut list, "c", "hidden.json", ChangeKind::Changed);
        // One name removed from a file and added to it again: in the order they came.
        push(&mut list, "a", "x.json", ChangeKind::Added);
        list.counts()[renamed] = [1, 2, 0];
        list.finish(&|p| p != "hidden.json");
        let got: Vec<(&str, &str, ChangeKind<'_>)> =
            list.iter().map(|c| (c.name, c.path, c.change)).collect();
        assert_eq!(
            got,
            [
                ("a", "x.json", ChangeKind::Removed),
                ("a", "x.json", ChangeKind::Added),
                ("a", "y.json", ChangeKind::Renamed { from: "old" }),
                ("b", "x.json", ChangeKind::Added)
            ]
        );
        let a = list.get(2).expect("third");
        assert_eq!(a.change, ChangeKind::Renamed { from: "old" });
        assert!(a.breaking);
        assert_eq!(a.findings, [1, 2, 0]);
        assert_eq!(list.get(0).map(|c| c.breaking), Some(false));
        assert!(list.get(4).is_none());
    }

    #[test]
    fn a_change_outside_the_paths_reported_is_kept_when_it_has_findings() {
        let mut list = ToolChanges::default();
        let hidden = push(&mut list, "c", "hidden.json", ChangeKind::Changed);
        list.counts()[hidden] = [0, 0, 1];
        list.finish(&|_| false);
        assert_eq!(list.len(), 1);
        assert_eq!(list.get(0).map(|c| c.findings), Some([0, 0, 1]));
    }
}
