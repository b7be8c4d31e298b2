//! Which old tool is which new tool: the same format and name (the same file first), else a
//! tool that is now left out (disabled, refused by policy), else a tool of the same format
//! whose definition is equal but for its name (a rename); what is left was removed or added.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ir::{LeftOut, Lowered};
use crate::lock::canonical;

/// What became of one tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// The same tool on both sides (indices into the old and new tools).
    Same {
        /// The old tool.
        old: usize,
        /// The new tool.
        new: usize,
    },
    /// The old tool under a new name, otherwise equal.
    Renamed {
        /// The old tool.
        old: usize,
        /// The new tool.
        new: usize,
    },
    /// The old tool is now left out of what the runtime loads.
    Disabled {
        /// The old tool.
        old: usize,
        /// Why it is left out (index into the new side's left-out tools).
        left_out: usize,
    },
    /// The old tool is gone.
    Removed {
        /// The old tool.
        old: usize,
    },
    /// A tool the old side did not have.
    Added {
        /// The new tool.
        new: usize,
    },
}

/// Pair the tools of both sides. `home` maps an old file's path to where it is in the working
/// tree; `display` says a path as the new side's left-out tools name their file.
pub fn pair(
    old: &[Lowered<'_>],
    new: &[Lowered<'_>],
    left_out: &[LeftOut],
    home: &dyn Fn(&Path) -> PathBuf,
    display: &dyn Fn(&Path) -> String,
) -> Vec<Pairing> {
    let mut taken = vec![false; new.len()];
    let mut out = Vec::new();
    let mut unmatched = Vec::new();
    fn key<'l>(l: &'l Lowered<'_>) -> (&'static str, &'l str) {
        (l.tool.provenance.format, l.tool.name.as_str())
    }
    for (i, o) in old.iter().enumerate() {
        let o_home = home(&o.file.path);
        let candidates: Vec<usize> = (0..new.len())
            .filter(|&j| !taken[j] && key(&new[j]) == key(o))
            .collect();
        let best = candidates
            .iter()
            .copied()
            .find(|&j| new[j].file.path == o_home)
            .or_else(|| candidates.first().copied());
        match best {
            Some(j) => {
                taken[j] = true;
                out.push(Pairing::Same { old: i, new: j });
            }
            None => unmatched.push(i),
        }
    }
    let mut gone = Vec::new();
    for i in unmatched {
        let o = &old[i];
        let path = display(&home(&o.file.path));
        match left_out
            .iter()
            .position(|l| l.name == o.tool.name && l.path == path)
        {
            Some(l) => out.push(Pairing::Disabled { old: i, left_out: l }),
            None => gone.push(i),
        }
    }
    // Renames: compare definitions only among what is left, each computed once.
    let old_defs: Vec<(usize, Value)> = gone
        .iter()
        .map(|&i| (i, canonical::without_name(&old[i].tool)))
        .collect();
    let new_defs: Vec<Option<Value>> = (0..new.len())
        .map(|j| (!taken[j]).then(|| canonical::without_name(&new[j].tool)))
        .collect();
    for (i, def) in old_defs {
        let o = &old[i];
        let same = |j: usize| {
            !taken[j]
                && new[j].tool.provenance.format == o.tool.provenance.format
                && new_defs[j].as_ref() == Some(&def)
        };
        let o_home = home(&o.file.path);
        let found = (0..new.len())
            .find(|&j| same(j) && new[j].file.path == o_home)
            .or_else(|| (0..new.len()).find(|&j| same(j)));
        match found {
            Some(j) => {
                taken[j] = true;
                out.push(Pairing::Renamed { old: i, new: j });
            }
            None => out.push(Pairing::Removed { old: i }),
        }
    }
    out.extend(
        (0..new.len())
            .filter(|&j| !taken[j])
            .map(|j| Pairing::Added { new: j }),
    );
    out
}
