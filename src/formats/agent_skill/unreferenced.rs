//! SKL018: files of the skill's folder that nothing `SKILL.md` leads to names. A folder none
//! of whose files is reached is one finding (`src/`, 12 files), not one per file, so a skill
//! at the root of a whole project says so once per folder. Each finding is on the file (or
//! folder) it is about.

use std::collections::{BTreeMap, BTreeSet};

use super::folder::ancestors;
use super::references::Reach;
use super::{Cx, rules};
use crate::diagnostics::Diagnostic;
use crate::source::{FormatId, SourceFile, Span};

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
    // A Python package's marker, run by any import of the package.
    "__init__.py",
];

impl Cx<'_> {
    /// Report each file (or whole folder) that nothing of `reach` leads to, on the file
    /// itself, with the skill's `anchor` beside it.
    pub(super) fn unreferenced(&mut self, reach: &Reach, anchor: Span) {
        let license = self.license.clone().unwrap_or_default();
        let all_reached = reach.dirs.contains("");
        let is_reached = |f: &str| {
            all_reached
                || reach.files.contains_key(f)
                || ancestors(f).any(|d| reach.dirs.contains(d))
        };
        // Folders with at least one reached file: the ones a finding may not stand for.
        let mut touched: BTreeSet<&str> = BTreeSet::new();
        for f in self.folder.files.keys().filter(|f| is_reached(f.as_str())) {
            touched.extend(ancestors(f));
        }
        let mut findings: BTreeMap<String, Vec<&String>> = BTreeMap::new();
        for f in self.folder.files.keys() {
            if is_reached(f) || is_conventional(f) || named_by(&license, f) {
                continue;
            }
            let group = ancestors(f)
                .find(|d| !touched.contains(d))
                .map_or_else(|| f.clone(), |d| format!("{d}/"));
            findings.entry(group).or_default().push(f);
        }
        let mut out = Vec::new();
        let mut unread = Vec::new();
        for (group, members) in findings {
            // A folder of one file is named by that file.
            let (shown, what) = match members.as_slice() {
                [only] => ((*only).clone(), format!("`{only}`")),
                _ => (
                    group.clone(),
                    format!("`{group}` ({} files)", members.len()),
                ),
            };
            // The finding is on the file (or folder) itself, which is not read: the skill's
            // `name` is shown beside it.
            let rel = shown.trim_end_matches('/');
            let file = SourceFile::new(
                self.root.join(rel),
                format!("{}{rel}", self.display_dir),
                FormatId::AgentSkill,
                String::new(),
            );
            let d = Diagnostic::new(
                &rules::UNREFERENCED_FILE,
                &file,
                Span::point(0),
                format!("{what} ships with the skill, but neither `SKILL.md` nor a file it links names it"),
            )
            .label("nothing leads here")
            .related(self.file, anchor, "the skill it ships with")
            .note("whoever installs the skill gets every file of its folder, but the agent is never told to read or run this, and a review of `SKILL.md` does not see it")
            .help(format!("link `{shown}` from `SKILL.md` (or from a file it links), or move it out of the skill's folder"));
            out.push(d);
            unread.push(file);
        }
        self.diags.extend(out);
        self.unread.extend(unread);
    }
}

/// A file every repository or package has, not meant for the agent (`LICENSE`, `README.md`,
/// `package.json`).
fn is_conventional(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    CONVENTIONAL.iter().any(|c| name.starts_with(c))
}

/// Whether the front matter's `license` names the file `f` (`license: see LICENSE.txt`). A
/// license is a name or a sentence: one longer than [`MAX_LICENSE`] names no file, and
/// searching it for each of thousands of files was quadratic.
fn named_by(license: &str, f: &str) -> bool {
    license.len() <= MAX_LICENSE && license.contains(f)
}

/// The longest `license` searched for file names.
const MAX_LICENSE: usize = 4096;

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
