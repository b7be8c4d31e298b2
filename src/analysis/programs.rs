//! Programs a definition runs from inside the repository, as the run's file system finds
//! them: one that is a symbolic link, or lies in a linked folder, whose real path is outside
//! the repository runs code that no review of the repository sees. The link is resolved to
//! say where it leads; what is there is never opened or read.

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, visible};
use crate::fs::FileSystem;

/// A program that leads out of the repository through a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LinkedOut {
    /// Where the program really is.
    pub target: PathBuf,
}

/// The program at `path` (absolute), when a link on its way leads out of the repository.
/// A dangling link leads nowhere: that is a missing program, for the format's own rule.
pub(crate) fn linked_out(fs: &dyn FileSystem, path: &Path) -> Option<LinkedOut> {
    fs.link_out(path).map(|target| LinkedOut { target })
}

impl LinkedOut {
    /// Where the program really is, for a message (control characters made visible).
    pub(crate) fn shown(&self) -> String {
        visible(&self.target.to_string_lossy()).into_owned()
    }
}

/// `d`, a finding on the name of a program that leads out of the repository, with what every
/// such finding says: the label, how `runs` (the format's runtime) runs the program, why it
/// matters, and how to fix it or keep it quiet for the file the finding is in.
pub(crate) fn explain(d: Diagnostic, runs: &str) -> Diagnostic {
    let help = help(d.rule.code, &d.file.path, d.file.display());
    d.label("a link on this path leads outside the repository")
        .note(runs.to_string())
        .note(WHY)
        .help(help)
}

/// Why a program outside the repository matters, whichever format runs it.
const WHY: &str = "the definition is reviewed with the repository, but what it runs is not in it: no review sees what the program does or when it changes, and it is whatever that path holds on each machine";

/// How to fix it, or keep a deliberate link quiet for the file at `file` (absolute, shown as
/// `display`) with the rule `code`: an override in the `toolc.toml` that configures the file
/// (or would: at the top of its repository), whose `paths` are relative to that folder, not
/// to where toolc was run; written as a TOML string.
fn help(code: &str, file: &Path, display: &str) -> String {
    let folder = file.parent().unwrap_or(file);
    let top = crate::fs::project::project_of(folder).unwrap_or(folder);
    let rel = crate::fs::display_path(file, top);
    // Where that toolc.toml is, as the file is shown (relative to the working directory).
    let config = match display.strip_suffix(rel.as_str()) {
        Some(above) => format!("`{}{}`", visible(above), crate::fs::project::CONFIG_FILE),
        None => crate::fs::project::CONFIG_FILE.to_string(),
    };
    let quoted = toml::Value::String(rel).to_string();
    format!(
        "commit the program itself (or link to a file inside the repository); if the link is deliberate (a program every machine installs there), turn {code} off for this file in {config}: `[[overrides]]` with `paths = [{}]` and `rules = {{ {code} = \"off\" }}`",
        visible(&quoted)
    )
}
