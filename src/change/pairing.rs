//! Which old tool is which new tool: the same format and name (the same file first), else a
//! tool that is now left out (disabled, refused by policy), else a tool of the same format
//! whose definition is equal but for its name (a rename); what is left was removed or added.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::briefs::{Briefs, Named};
use crate::lock::claims::Claims;
use crate::source::SourceFile;

/// What became of one tool that changed. Indices as `u32`s, as the briefs hold them (every
/// tool is bytes of a file held in memory, far fewer than 2³²): a pairing of every change of a
/// large diff is held while the tools are compared and listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pairing {
    /// The same tool on both sides, changed (indices into the old and new tools).
    Same {
        /// The old tool.
        old: u32,
        /// The new tool.
        new: u32,
    },
    /// The old tool under a new name, otherwise equal.
    Renamed {
        /// The old tool.
        old: u32,
        /// The new tool.
        new: u32,
    },
    /// The old tool is now left out of what the runtime loads.
    Disabled {
        /// The old tool.
        old: u32,
        /// Why it is left out (index into the new side's left-out tools).
        left_out: u32,
    },
    /// The old tool is gone.
    Removed {
        /// The old tool.
        old: u32,
    },
    /// A tool the old side did not have.
    Added {
        /// The new tool.
        new: u32,
    },
}

/// Which side's tool a change is named by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ToolOf {
    /// The old side's (the tool is gone or left out).
    Old(u32),
    /// The new side's.
    New(u32),
}

impl Pairing {
    /// The old and new tools, when the change is of a tool on both sides (compared).
    pub(super) fn compared(self) -> Option<(u32, u32)> {
        match self {
            Pairing::Same { old, new } | Pairing::Renamed { old, new } => Some((old, new)),
            _ => None,
        }
    }

    /// The tool that names the change: the new one, else the old one.
    pub(super) fn named(self) -> ToolOf {
        match self {
            Pairing::Same { new, .. } | Pairing::Renamed { new, .. } | Pairing::Added { new } => {
                ToolOf::New(new)
            }
            Pairing::Disabled { old, .. } | Pairing::Removed { old } => ToolOf::Old(old),
        }
    }
}

/// Pair the tools of both sides: what became of each tool that changed (one defined the same
/// on both sides is not listed). `home` maps an old file's path to where it is in the working
/// tree; `display` says a path as the new side's left-out tools name their file. Both sides'
/// digests are let go once they are paired ([`Briefs::paired`]): nothing pairs after.
pub(super) fn pair(
    old: &mut Briefs<'_>,
    new: &mut Briefs<'_>,
    home: &dyn Fn(&Path) -> PathBuf,
    display: &dyn Fn(&Path) -> String,
) -> Vec<Pairing> {
    let out = pairings(old, new, home, display);
    old.paired();
    new.paired();
    out
}

fn pairings(
    old: &Briefs<'_>,
    new: &Briefs<'_>,
    home: &dyn Fn(&Path) -> PathBuf,
    display: &dyn Fn(&Path) -> String,
) -> Vec<Pairing> {
    let mut taken = vec![false; new.len()];
    // Room for a pairing of each old tool: what a change to every tool needs (grown by
    // doubling, its copies were the peak of such a diff); of a diff with few changes the
    // room is never written, and memory never written to is not taken.
    let mut out = Vec::with_capacity(old.len());
    let mut unmatched = Vec::new();
    // Places as numbers: the new side's files, and where each old file is now (a file that
    // is not on the new side is no new tool's place).
    let mut places: HashMap<&Path, u32> = HashMap::new();
    for n in new.iter() {
        let next = places.len() as u32;
        places.entry(n.file.path.as_path()).or_insert(next);
    }
    let mut homes: HashMap<*const SourceFile, (PathBuf, u32)> = HashMap::new();
    for o in old.iter() {
        homes.entry(Arc::as_ptr(o.file)).or_insert_with(|| {
            let h = home(&o.file.path);
            let place = places.get(h.as_path()).copied().unwrap_or(u32::MAX);
            (h, place)
        });
    }
    let home_of = |o: &Named<'_, '_>| &homes[&Arc::as_ptr(o.file)];
    let place = |n: &Named<'_, '_>| {
        places
            .get(n.file.path.as_path())
            .copied()
            .unwrap_or(u32::MAX)
    };
    // By name: both lists are sorted by name, so a name's tools on each side are a run, paired
    // with each other alone (an index of every new tool took 64 bytes a tool at its peak).
    let mut j = 0;
    for (olds, name) in runs(old, 0) {
        while j < new.len() && new.get(j).name < name {
            j += 1;
        }
        let news = j..runs(new, j)
            .next()
            .filter(|r| r.1 == name)
            .map_or(j, |r| r.0.end);
        j = news.end;
        // A tool whose definition is the same on both sides is no change: not kept.
        let mut record = |i: usize, found: Option<usize>| match found {
            Some(j) if old.get(i).unnamed == new.get(j).unnamed => {}
            Some(j) => out.push(Pairing::Same {
                old: at(i),
                new: at(j),
            }),
            None => unmatched.push(i),
        };
        if olds.len() == 1 && news.len() == 1 {
            // Most names are one tool on each side.
            let same = old.get(olds.start).format == new.get(news.start).format;
            if same {
                taken[news.start] = true;
            }
            record(olds.start, same.then_some(news.start));
            continue;
        }
        let claims = Claims::new(news.map(|j| {
            let n = new.get(j);
            (j, n.format, place(&n))
        }));
        let wants = olds.clone().map(|i| {
            let o = old.get(i);
            (o.format, home_of(&o).1)
        });
        for (i, found) in olds.zip(claims.pair(wants, &mut taken)) {
            record(i, found);
        }
    }
    let mut gone = Vec::new();
    let left: HashMap<(&str, String), usize> = new
        .left_out
        .iter()
        .enumerate()
        .rev()
        .map(|(l, out)| ((out.name.as_str(), out.path.clone()), l))
        .collect();
    for i in unmatched {
        let o = old.get(i);
        match left.get(&(o.name, display(&home_of(&o).0))) {
            Some(&l) => out.push(Pairing::Disabled {
                old: at(i),
                left_out: at(l),
            }),
            None => gone.push(i),
        }
    }
    // Renames: definitions without their names, among what is left.
    if !gone.is_empty() {
        let by_definition = Claims::new((0..new.len()).filter(|&j| !taken[j]).map(|j| {
            let n = new.get(j);
            (j, (n.format, n.unnamed), place(&n))
        }));
        let wants = gone.iter().map(|&i| {
            let o = old.get(i);
            ((o.format, o.unnamed), home_of(&o).1)
        });
        let found = by_definition.pair(wants, &mut taken);
        for (&i, found) in gone.iter().zip(found) {
            match found {
                Some(j) => out.push(Pairing::Renamed {
                    old: at(i),
                    new: at(j),
                }),
                None => out.push(Pairing::Removed { old: at(i) }),
            }
        }
    }
    out.extend(
        (0..new.len())
            .filter(|&j| !taken[j])
            .map(|j| Pairing::Added { new: at(j) }),
    );
    out
}

/// The runs of tools of one name in `briefs` from `start` on: their indices, and the name.
fn runs<'b>(
    briefs: &'b Briefs<'_>,
    start: usize,
) -> impl Iterator<Item = (std::ops::Range<usize>, &'b str)> {
    let mut at = start;
    std::iter::from_fn(move || {
        if at >= briefs.len() {
            return None;
        }
        let name = briefs.get(at).name;
        let from = at;
        while at < briefs.len() && briefs.get(at).name == name {
            at += 1;
        }
        Some((from..at, name))
    })
}

/// An index as the pairings hold it.
fn at(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
