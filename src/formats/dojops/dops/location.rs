//! DOJ025: a `.dops` skill inside a `.dojops/` folder where current DojOps never looks. It
//! reads a project's skills from the files directly in `.dojops/skills/` (not its subfolders)
//! and the ones an installed pack lists (`.dojops/packs/`); the 1.0 folders (`tools/`,
//! `modules/`, `plugins/`) are read no more.

use std::path::{Component, Path};
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::formats::dojops::Name;
use crate::rules::dojops as doj;
use crate::runtimes::dojops::TOOL_YAML_REMOVED;
use crate::source::{SourceFile, Span};

/// Where a skill below `.dojops/` stands, seen from DojOps's loader.
#[derive(Debug, PartialEq, Eq)]
enum Place<'p> {
    /// Directly in `.dojops/skills/`, or in an installed pack: loaded.
    Loaded,
    /// Not below any `.dojops/` folder (a catalog, a template): not this rule's business.
    Outside,
    /// Below `.dojops/`, in the folder named here (relative to `.dojops/`).
    Unread(String, &'p str),
}

fn place(path: &Path) -> Place<'_> {
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    let Some(at) = parts.iter().rposition(|p| *p == ".dojops") else {
        return Place::Outside;
    };
    let inside = &parts[at + 1..];
    match inside {
        ["skills", _file] => Place::Loaded,
        ["packs", ..] => Place::Loaded,
        [folders @ .., file] => Place::Unread(folders.join("/"), file),
        [] => Place::Outside,
    }
}

/// DOJ025 for the skill in `file` (its `meta.name` when valid), or none where DojOps loads it.
pub(crate) fn not_loaded(file: &Arc<SourceFile>, name: Option<&Name>) -> Option<Diagnostic> {
    let Place::Unread(folder, file_name) = place(&file.path) else {
        return None;
    };
    let shown = if folder.is_empty() {
        "`.dojops/`".to_string()
    } else {
        format!("`.dojops/{folder}/`")
    };
    let what = name.map_or_else(|| "this skill".to_string(), |n| format!("`{}`", n.value));
    let span = name.map_or(Span::point(file.bom_len), |n| n.span);
    Some(
        Diagnostic::new(
            &doj::DOPS_NOT_LOADED,
            file,
            span,
            format!("DojOps never reads skills from {shown}: {what} is not loaded"),
        )
        .label("not in `.dojops/skills/`")
        .note(format!(
            "DojOps {TOOL_YAML_REMOVED} and later load a project's skills from the `.dops` files directly in `.dojops/skills/` (and from installed packs); other folders, and folders inside `skills/`, are not read"
        ))
        .help(format!(
            "move it to `.dojops/skills/{file_name}`; if you run DojOps 1.0.9 or older, say so in toolc.toml (`[runtimes] dojops = \"1.0.9\"`)"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_skills_folder_and_packs_are_read() {
        assert_eq!(place(Path::new("r/.dojops/skills/a.dops")), Place::Loaded);
        assert_eq!(
            place(Path::new("r/.dojops/packs/p/skills/a.dops")),
            Place::Loaded
        );
        assert_eq!(place(Path::new("catalog/ci/a.dops")), Place::Outside);
        assert_eq!(
            place(Path::new("r/.dojops/tools/a.dops")),
            Place::Unread("tools".into(), "a.dops")
        );
        assert_eq!(
            place(Path::new("r/.dojops/skills/ci/a.dops")),
            Place::Unread("skills/ci".into(), "a.dops")
        );
        assert_eq!(
            place(Path::new(".dojops/a.dops")),
            Place::Unread(String::new(), "a.dops")
        );
    }
}
