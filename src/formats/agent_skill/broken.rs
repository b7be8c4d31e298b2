//! References that lead nowhere: a file missing (SKL011), named in another letter case than
//! the file's (SKL021) or without its extension (SKL011, with the file meant), a link out of
//! the skill's folder (SKL012), and a file reached only two steps from `SKILL.md` (SKL015).

use std::path::PathBuf;
use std::sync::Arc;

use super::commands::interpreter;
use super::mentions::{Form, Reference, Run, has_extension};
use super::paths::{self, Resolved, dir_of};
use super::references::Doc;
use super::{Cx, rules};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::{Applicability, Diagnostic, DidYouMean, Fix};
use crate::source::SourceFile;

/// Files of one folder compared with a broken path at most, for the closest name.
const MAX_SUGGESTED_FROM: usize = 200;

/// Paths whose place in a project's folder is remembered, at most: past them each is
/// looked up again.
const MAX_REMEMBERED: usize = 4_096;

/// Folders of agents that hold a project's own skills (`<project>/.claude/skills/<name>`).
const PROJECT_SKILLS: &str = "skills";

impl Cx<'_> {
    /// `r` of `doc` leads to nothing in the folder: report it when the agent is sent there,
    /// and give the file it meant when there is one (another case, an extension left out).
    pub(super) fn missing(
        &mut self,
        doc: &Doc,
        r: &Reference,
        resolved: &Resolved,
    ) -> Option<String> {
        if !doc.markdown() || r.aside || self.folder.truncated {
            return None;
        }
        let named = r.written.rsplit('/').next().unwrap_or(&r.written);
        if r.form == Form::Link || has_extension(named) {
            for c in &resolved.candidates {
                if let Some(actual) = self.folder.other_case(c).map(str::to_string) {
                    self.case_mismatch(doc, r, &actual);
                    return Some(actual);
                }
            }
        }
        // A path (not a bare word such as `docker`) that a command runs, naming a script
        // but for its extension.
        if !has_extension(named)
            && r.written.contains('/')
            && matches!(r.run, Run::Direct { .. } | Run::Through(_))
        {
            for c in &resolved.candidates {
                if let Some(file) = self.with_extension(c, &r.run) {
                    self.broken(doc, r, c, Some(&file));
                    return Some(file);
                }
            }
        }
        let rel = resolved.candidates.first()?;
        if !resolved.checkable || !self.meant(doc, r, rel) || self.in_project(rel) {
            return None;
        }
        self.broken(doc, r, rel, None);
        None
    }

    /// The one file that is `rel` plus an extension the program of `run` runs.
    fn with_extension(&self, rel: &str, run: &Run) -> Option<String> {
        let files = self.folder.with_stem(rel);
        let exts = match run {
            Run::Through(program) => interpreter(program)?,
            _ => &[][..],
        };
        let fitting: Vec<&String> = files
            .iter()
            .filter(|f| {
                let ext = f.rsplit_once('.').map_or("", |(_, e)| e);
                if exts.is_empty() {
                    paths::is_program(f)
                } else {
                    exts.iter().any(|x| x.eq_ignore_ascii_case(ext))
                }
            })
            .collect();
        match fitting.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        }
    }

    /// True when the skill is a project's own (`<project>/.claude/skills/<name>/`) and `rel`
    /// is in the project: agents run a project's skills from the project's folder.
    fn in_project(&mut self, rel: &str) -> bool {
        let Some(project) = project_of(&self.root) else {
            return false;
        };
        if let Some(&known) = self.in_project.get(rel) {
            return known;
        }
        let found = self.fs.exists(&project.join(rel));
        // The first paths only: a body of half a million broken links held a path each.
        if self.in_project.len() < MAX_REMEMBERED {
            self.in_project.insert(rel.to_string(), found);
        }
        found
    }

    /// SKL011, with the file meant (`suggested`) or the closest file of the skill.
    fn broken(&mut self, doc: &Doc, r: &Reference, rel: &str, suggested: Option<&str>) {
        // Past the cap a finding is only counted: no closest file is looked for.
        if self.diags.counted(&rules::BROKEN_REFERENCE) {
            return;
        }
        let suggestion = suggested.map(str::to_string).or_else(|| self.closest(rel));
        let written = doc.file.slice(r.span) == r.written;
        let fix = suggestion.as_ref().and_then(|s| {
            // A script named without its extension: the extension is added. Otherwise only a
            // plain path written from the skill's folder is replaced as it is.
            if suggested.is_some() && written {
                let ext = s.rsplit_once('.').map_or("", |(_, e)| e);
                return Some(
                    Fix::replace(Applicability::Safe, r.span, format!("{}.{ext}", r.written))
                        .with_message(format!("name the file `{s}`")),
                );
            }
            (doc.depth == 0
                && written
                && crate::analysis::paths::clean(&r.written) == rel
                && !r.written.contains(['#', '?', '%']))
            .then(|| {
                Fix::replace(Applicability::Unsafe, r.span, s.clone())
                    .with_message(format!("point it at `{s}`"))
            })
        });
        let what = if r.form == Form::Link {
            "links to"
        } else {
            "names"
        };
        let d = Diagnostic::new(
            &rules::BROKEN_REFERENCE,
            &doc.file,
            r.span,
            format!("`{}` {what} `{rel}`, which is not in the skill's folder", doc.rel),
        )
        .label("no such file")
        .note("the agent follows this path when it uses the skill and finds nothing there")
        .did_you_mean_or(
            suggestion.as_ref().and_then(|s| DidYouMean::fixed_by(s, fix)),
            match &suggestion {
                Some(s) => format!("correct the path (the skill has `{s}`; paths are relative to the file that names them)"),
                None => "add the file to the skill, or correct the path (paths are relative to the file that names them, and case matters)".to_string(),
            },
        );
        self.push(d);
    }

    /// The file of the skill closest to `rel`: in its folder, or of its name elsewhere.
    fn closest(&self, rel: &str) -> Option<String> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let dir = dir_of(rel);
        let beside: Vec<&String> = self
            .folder
            .files_in(dir)
            .take(MAX_SUGGESTED_FROM + 1)
            .collect();
        if beside.len() <= MAX_SUGGESTED_FROM
            && let Some(s) = did_you_mean(rel, beside.iter().map(|s| s.as_str()))
        {
            return Some(s.to_string());
        }
        self.folder.named(name).first().cloned()
    }

    /// SKL021: a reference that names `actual` in other letter case.
    fn case_mismatch(&mut self, doc: &Doc, r: &Reference, actual: &str) {
        // The written path, fragment and query left out, is the end of the file's path but
        // for case: that end, in the file's case, replaces it.
        let path = r.written.split(['#', '?']).next().unwrap_or("");
        let fix = (doc.file.slice(r.span).starts_with(path) && !path.is_empty())
            .then(|| actual.get(actual.len().checked_sub(path.len())?..))
            .flatten()
            .filter(|tail| tail.eq_ignore_ascii_case(path) && *tail != path)
            .map(|tail| {
                let span = crate::source::Span::new(r.span.start, r.span.start + path.len());
                Fix::replace(Applicability::Safe, span, tail)
                    .with_message(format!("write it as the file is named, `{tail}`"))
            });
        let what = if r.form == Form::Link {
            "links to"
        } else {
            "names"
        };
        let d = Diagnostic::new(
            &rules::REFERENCE_CASE_MISMATCH,
            &doc.file,
            r.span,
            format!(
                "`{}` {what} `{path}`, but the skill's file is `{actual}`: the names differ only in case",
                doc.rel
            ),
        )
        .label("another case than the file's")
        .note("file systems on Linux tell upper from lower case: the agent finds the file on macOS and Windows, and nothing on Linux, where agents often run (CI, containers, cloud sandboxes)")
        .help(format!("write the path as the file is named (`{actual}`), or rename the file to match"))
        .maybe_fix(fix);
        self.push(d);
    }

    /// SKL012.
    pub(super) fn outside(&mut self, file: &Arc<SourceFile>, r: &Reference, why: &str) {
        let d = Diagnostic::new(
            &rules::REFERENCE_OUTSIDE_SKILL,
            file,
            r.span,
            format!("`{}` {why}", r.written),
        )
        .label("outside the skill")
        .note("a skill is installed by copying its folder (into `~/.claude/skills/`, a plugin, another repository): a file outside it is not there")
        .help("copy the file into the skill (under `references/` or `assets/`) and link it by a path inside the folder");
        self.push(d);
    }

    /// SKL015.
    pub(super) fn too_deep(&mut self, doc: &Doc, r: &Reference, rel: &str) {
        let d = Diagnostic::new(
            &rules::DEEP_REFERENCE_CHAIN,
            &doc.file,
            r.span,
            format!("`{rel}` is reached only through `{}`, two steps from `SKILL.md`", doc.rel),
        )
        .label("second-level reference")
        .note("agents load referenced files on demand and may not follow a chain: the spec keeps references one level deep from `SKILL.md`")
        .help(format!("link `{rel}` from `SKILL.md` directly"));
        self.push(d);
    }
}

/// The project whose own skill lives at `root` (`<project>/.claude/skills/<name>`, any
/// agent's hidden folder): `<project>`.
fn project_of(root: &std::path::Path) -> Option<PathBuf> {
    let skills = root.parent()?;
    let agent = skills.parent()?;
    let hidden = agent.file_name()?.to_str()?.starts_with('.');
    (skills.file_name()? == PROJECT_SKILLS && hidden).then(|| agent.parent().map(PathBuf::from))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_project_holds_its_own_skills() {
        assert_eq!(
            project_of(Path::new("/p/.claude/skills/deploy")),
            Some(PathBuf::from("/p"))
        );
        assert_eq!(project_of(Path::new("/p/skills/deploy")), None);
        assert_eq!(project_of(Path::new("/p/.claude/commands/deploy")), None);
    }
}
