//! Which old tool is which new tool: the same format and name (the same file first), else a
//! tool that is now left out (disabled, refused by policy), else a tool of the same format
//! whose definition is equal but for its name (a rename); what is left was removed or added.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ir::{LeftOut, Lowered};
use crate::lock::canonical;

/// What became of one tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pairing {
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
pub(super) fn pair(
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
    let mut by_key: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for (j, n) in new.iter().enumerate() {
        by_key.entry(key(n)).or_default().push(j);
    }
    for (i, o) in old.iter().enumerate() {
        let o_home = home(&o.file.path);
        let candidates = by_key.get(&key(o)).map_or(&[][..], Vec::as_slice);
        let free = || candidates.iter().copied().filter(|&j| !taken[j]);
        let best = free()
            .find(|&j| new[j].file.path == o_home)
            .or_else(|| free().next());
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
            Some(l) => out.push(Pairing::Disabled {
                old: i,
                left_out: l,
            }),
            None => gone.push(i),
        }
    }
    // Renames: definitions without their names, hashed, among what is left.
    let mut by_definition: HashMap<(&str, String), Vec<usize>> = HashMap::new();
    for j in (0..new.len()).filter(|&j| !taken[j]) {
        let def = canonical::sha256(&canonical::without_name(&new[j].tool));
        by_definition
            .entry((new[j].tool.provenance.format, def))
            .or_default()
            .push(j);
    }
    for i in gone {
        let o = &old[i];
        let def = canonical::sha256(&canonical::without_name(&o.tool));
        let candidates = by_definition
            .get(&(o.tool.provenance.format, def))
            .map_or(&[][..], Vec::as_slice);
        let o_home = home(&o.file.path);
        let free = || candidates.iter().copied().filter(|&j| !taken[j]);
        let found = free()
            .find(|&j| new[j].file.path == o_home)
            .or_else(|| free().next());
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
