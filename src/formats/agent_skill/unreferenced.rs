//! SKL018: files of the skill's folder that nothing `SKILL.md` leads to names. A folder none
//! of whose files is reached is one finding (`src/`, 12 files), not one per file, so a skill
//! at the root of a whole project says so once per folder.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{Cx, rules};
use crate::source::Span;

/// File names that ship with any repository or package and are not meant for the agent.
const CONVENTIONAL: &[&str] = &[
    "readme",
    "license",
    "licence",
    "copying",
    "notice",
    "changelog",
    "changes",
    "history",
    "contributing",
    "code_of_conduct",
    "security",
    "authors",
    "contributors",
    "codeowners",
    "maintainers",
    "requirements",
    "package.json",
    "package-lock.json",
    "pyproject.toml",
    "uv.lock",
    "poetry.lock",
    "pipfile",
    "go.mod",
    "go.sum",
    "gemfile",
    "tsconfig.json",
];

impl Cx<'_> {
    /// Report, at `anchor`, each file (or whole folder) that neither `SKILL.md` nor a file
    /// reached from it names. `reached` holds the files reached, `reached_dirs` the folders
    /// named (all their files count as reached).
    pub(super) fn unreferenced(
        &mut self,
        reached: &HashMap<String, usize>,
        reached_dirs: &BTreeSet<String>,
        anchor: Span,
    ) {
        let license = self.license.clone().unwrap_or_default();
        let is_reached = |f: &str| {
            reached.contains_key(f)
                || reached_dirs.iter().any(|d| {
                    d.is_empty()
                        || f.strip_prefix(d.as_str())
                            .is_some_and(|r| r.starts_with('/'))
                })
        };
        let files: Vec<String> = self.folder.files.keys().cloned().collect();
        // Folders with at least one reached file: the ones a finding may not stand for.
        let mut touched: BTreeSet<&str> = BTreeSet::new();
        for f in files.iter().filter(|f| is_reached(f.as_str())) {
            touched.extend(ancestors(f));
        }
        let mut findings: BTreeMap<String, Vec<&String>> = BTreeMap::new();
        for f in &files {
            if is_reached(f) || is_conventional(f) || license.contains(f.as_str()) {
                continue;
            }
            let group = ancestors(f)
                .find(|d| !touched.contains(d))
                .map_or_else(|| f.clone(), |d| format!("{d}/"));
            findings.entry(group).or_default().push(f);
        }
        for (group, members) in findings {
            // A folder of one file is named by that file.
            let (shown, what) = match members.as_slice() {
                [only] => ((*only).clone(), format!("`{only}`")),
                _ => (
                    group.clone(),
                    format!("`{group}` ({} files)", members.len()),
                ),
            };
            let d = self
                .diag(
                    &rules::UNREFERENCED_FILE,
                    anchor,
                    format!("{what} ships with the skill, but neither `SKILL.md` nor a file it links names it"),
                )
                .label("this skill")
                .note("whoever installs the skill gets every file of its folder, but the agent is never told to read or run this, and a review of `SKILL.md` does not see it")
                .help(format!("link `{shown}` from `SKILL.md` (or from a file it links), or move it out of the skill's folder"));
            self.push(d);
        }
    }
}

/// The folders holding `rel`, shallowest first (`a`, `a/b` for `a/b/c.md`).
fn ancestors(rel: &str) -> impl Iterator<Item = &str> {
    rel.match_indices('/').map(move |(i, _)| &rel[..i])
}

/// A file every repository or package has, not meant for the agent (`LICENSE`, `README.md`,
/// `package.json`).
fn is_conventional(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    CONVENTIONAL.iter().any(|c| name.starts_with(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventional_files_and_ancestors() {
        assert!(is_conventional("LICENSE.txt") && is_conventional("docs/README_CN.md"));
        assert!(!is_conventional("test_cases.md"));
        assert_eq!(ancestors("a/b/c.md").collect::<Vec<_>>(), ["a", "a/b"]);
        assert_eq!(ancestors("c.md").count(), 0);
    }
}
