//! `[[overrides]]`: rule settings for the files their globs match. A path is matched
//! against the globs of all overrides at once, one set for each folder they are relative to:
//! asked one override at a time for each finding, 2,000 overrides over 20,000 files of a
//! finding each took 14 s.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::RuleSetting;

/// Rule settings that apply to paths matching some globs.
#[derive(Debug, Clone)]
pub(super) struct Override {
    /// The folder the globs are relative to (its configuration file's folder).
    pub root: PathBuf,
    /// The globs, as compiled.
    pub globs: Vec<Glob>,
    /// The settings, in order.
    pub rules: Vec<RuleSetting>,
}

/// A configuration's overrides, in order (an extending file's after those it extends).
#[derive(Debug, Clone, Default)]
pub(super) struct Overrides {
    list: Vec<Override>,
    /// Made when a path is first asked about.
    index: OnceLock<Vec<Group>>,
}

/// The globs of the overrides relative to one folder, in one set.
#[derive(Debug, Clone)]
struct Group {
    root: PathBuf,
    set: GlobSet,
    /// The overrides of each glob of the set.
    owners: Vec<Vec<usize>>,
}

impl Overrides {
    /// Add `o` after the others.
    pub(super) fn push(&mut self, o: Override) {
        self.list.push(o);
        self.index = OnceLock::new();
    }

    /// Add `more` after the others.
    pub(super) fn extend(&mut self, more: Overrides) {
        self.list.extend(more.list);
        self.index = OnceLock::new();
    }

    /// The overrides whose globs match `path` (absolute, or relative to their folder), in
    /// order.
    pub(super) fn matching(&self, path: &Path) -> impl Iterator<Item = &Override> {
        let mut hits: Vec<usize> = Vec::new();
        for g in self.index.get_or_init(|| groups(&self.list)) {
            let rel = path.strip_prefix(&g.root).unwrap_or(path);
            let owners = g
                .set
                .matches(rel)
                .into_iter()
                .filter_map(|i| g.owners.get(i));
            hits.extend(owners.flatten());
        }
        hits.sort_unstable();
        hits.dedup();
        hits.into_iter().filter_map(|i| self.list.get(i))
    }
}

/// One set of globs for each folder the overrides of `list` are relative to; a set too large
/// to build as one (its globs' expressions past the crate's limit) is one set per override,
/// as it was.
fn groups(list: &[Override]) -> Vec<Group> {
    let mut roots: Vec<&Path> = list.iter().map(|o| o.root.as_path()).collect();
    roots.sort_unstable();
    roots.dedup();
    let mut out = Vec::new();
    for root in roots {
        let members: Vec<usize> = (0..list.len()).filter(|&i| list[i].root == root).collect();
        match group(list, root, &members) {
            Some(g) => out.push(g),
            None => out.extend(members.iter().filter_map(|&i| group(list, root, &[i]))),
        }
    }
    out
}

/// The globs of the overrides `members` of `list`, relative to `root`, in one set.
fn group(list: &[Override], root: &Path, members: &[usize]) -> Option<Group> {
    // A glob written by several overrides is matched once, for all of them.
    let mut at: HashMap<&str, usize> = HashMap::new();
    let mut builder = GlobSetBuilder::new();
    let mut owners: Vec<Vec<usize>> = Vec::new();
    for &i in members {
        for glob in list.get(i).map_or(&[][..], |o| &o.globs) {
            let k = *at.entry(glob.glob()).or_insert_with(|| {
                builder.add(glob.clone());
                owners.push(Vec::new());
                owners.len() - 1
            });
            owners[k].push(i);
        }
    }
    Some(Group {
        root: root.to_path_buf(),
        set: builder.build().ok()?,
        owners,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Setting;
    use crate::rules::Severity;

    fn o(root: &str, glob: &str, setting: Setting) -> Override {
        Override {
            root: PathBuf::from(root),
            globs: vec![Glob::new(glob).expect("glob")],
            rules: vec![RuleSetting {
                selector: "SEC".into(),
                setting,
            }],
        }
    }

    #[test]
    fn overrides_match_in_order_whatever_their_folders_and_repeats() {
        let mut all = Overrides::default();
        all.push(o("/r", "a/**", Setting::Off));
        all.push(o("/r/a", "t.yaml", Setting::Level(Severity::Info)));
        all.push(o("/r", "a/**", Setting::Level(Severity::Warning)));
        all.push(o("/r", "b/**", Setting::Level(Severity::Error)));
        let order = |all: &Overrides, path: &str| -> Vec<Setting> {
            all.matching(Path::new(path))
                .map(|o| o.rules[0].setting)
                .collect()
        };
        assert_eq!(
            order(&all, "/r/a/t.yaml"),
            [
                Setting::Off,
                Setting::Level(Severity::Info),
                Setting::Level(Severity::Warning)
            ]
        );
        assert_eq!(
            order(&all, "/r/b/t.yaml"),
            [Setting::Level(Severity::Error)]
        );
        assert!(order(&all, "/elsewhere/t.yaml").is_empty());
        // Added later: asked again, the index is made anew.
        let mut more = Overrides::default();
        more.push(o("/r", "b/**", Setting::Off));
        all.extend(more);
        assert_eq!(
            order(&all, "/r/b/t.yaml"),
            [Setting::Level(Severity::Error), Setting::Off]
        );
    }
}
