//! Which old tool is which new tool: the same format and name (the same file first), else a
//! tool that is now left out (disabled, refused by policy), else a tool of the same format
//! whose definition is equal but for its name (a rename); what is left was removed or added.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ir::{LeftOut, Lowered};
use crate::lock::canonical;
use crate::lock::claims::Claims;

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
    let homes: Vec<PathBuf> = old.iter().map(|o| home(&o.file.path)).collect();
    let by_name = Claims::new(
        new.iter()
            .enumerate()
            .map(|(j, n)| (j, key(n), n.file.path.as_path())),
    );
    let wants = old.iter().zip(&homes).map(|(o, h)| (key(o), h.as_path()));
    for (i, found) in by_name.pair(wants, &mut taken).into_iter().enumerate() {
        match found {
            Some(j) => out.push(Pairing::Same { old: i, new: j }),
            None => unmatched.push(i),
        }
    }
    let mut gone = Vec::new();
    let left: HashMap<(&str, String), usize> = left_out
        .iter()
        .enumerate()
        .rev()
        .map(|(l, out)| ((out.name.as_str(), out.path.clone()), l))
        .collect();
    for i in unmatched {
        let o = &old[i];
        match left.get(&(o.tool.name.as_str(), display(&homes[i]))) {
            Some(&l) => out.push(Pairing::Disabled {
                old: i,
                left_out: l,
            }),
            None => gone.push(i),
        }
    }
    // Renames: definitions without their names, hashed, among what is left.
    let definition = |l: &Lowered<'_>| canonical::sha256(&canonical::without_name(&l.tool));
    let by_definition = Claims::new((0..new.len()).filter(|&j| !taken[j]).map(|j| {
        let key = (new[j].tool.provenance.format, definition(&new[j]));
        (j, key, new[j].file.path.as_path())
    }));
    let wants = gone.iter().map(|&i| {
        let key = (old[i].tool.provenance.format, definition(&old[i]));
        (key, homes[i].as_path())
    });
    let found = by_definition.pair(wants, &mut taken);
    for (&i, found) in gone.iter().zip(found) {
        match found {
            Some(j) => out.push(Pairing::Renamed { old: i, new: j }),
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
