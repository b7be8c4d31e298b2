//! Whether the git folder git reads for a working tree is that tree's own. A `.git` that is a
//! link, or a file whose `gitdir:` names a folder elsewhere, makes git read another
//! repository's history as this tree's: a diff would then print that repository's
//! definitions. git never checks out a `.git` path, so only a tree that came some other way
//! (an archive, an artifact) can carry one; a linked worktree and a submodule have their git
//! folder elsewhere too, and that folder names them back.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use super::{GitError, run, text};

/// The longest `gitdir` back-reference read: a path.
const MAX_BACK_REFERENCE: u64 = 4096;

/// `Ok` when the git folder of the repository whose top is `top` (asked in `cwd`) is its
/// own: inside it, a linked worktree's folder that names `top/.git` back, a submodule's
/// folder under `.git/modules/` of a folder around `top`, or one the user's own `GIT_DIR`
/// names.
pub(super) fn check(cwd: &Path, top: &Path) -> Result<(), GitError> {
    if std::env::var_os("GIT_DIR").is_some() {
        return Ok(());
    }
    let named = PathBuf::from(text(run(cwd, &["rev-parse", "--absolute-git-dir"])?));
    let (Ok(git_dir), Ok(top_real)) = (named.canonicalize(), top.canonicalize()) else {
        return Err(refused(top, &named));
    };
    if git_dir.starts_with(&top_real)
        || names_back(&git_dir, &top_real)
        || submodule_of(&git_dir, &top_real)
    {
        return Ok(());
    }
    Err(refused(top, &named))
}

fn refused(top: &Path, git_dir: &Path) -> GitError {
    GitError(format!(
        "the git folder of {} is elsewhere (`{}`) and does not name this folder as its worktree: its history is not this folder's; compare with a folder instead (`--against DIR`)",
        crate::diagnostics::visible(&top.display().to_string()),
        crate::diagnostics::visible(&git_dir.display().to_string())
    ))
}

/// A linked worktree's git folder (`git worktree add`) holds a `gitdir` file naming the
/// worktree's `.git` file.
fn names_back(git_dir: &Path, top: &Path) -> bool {
    let Ok(file) = std::fs::File::open(git_dir.join("gitdir")) else {
        return false;
    };
    let mut line = String::new();
    if file
        .take(MAX_BACK_REFERENCE)
        .read_to_string(&mut line)
        .is_err()
    {
        return false;
    }
    let named = Path::new(line.trim_end_matches(['\n', '\r']));
    let named = if named.is_relative() {
        git_dir.join(named)
    } else {
        named.to_path_buf()
    };
    named.canonicalize().is_ok_and(|n| n == top.join(".git"))
}

/// A submodule's git folder lies in `.git/modules/` of a repository around it.
fn submodule_of(git_dir: &Path, top: &Path) -> bool {
    let parts: Vec<Component> = git_dir.components().collect();
    parts.windows(2).enumerate().any(|(i, w)| {
        w[0].as_os_str() == ".git" && w[1].as_os_str() == "modules" && {
            let around: PathBuf = parts[..i].iter().collect();
            top.starts_with(&around) && top != around
        }
    })
}
