//! The files an ignore decision reads (`.gitignore`, `.ignore`, git's exclude files and
//! global configuration), each with its metadata: a walk is remembered only while they are
//! what they were.

use std::path::{Path, PathBuf};

use super::super::Stat;

/// A file an ignore decision reads, and what was there (`None`: nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Input {
    pub(super) path: PathBuf,
    pub(super) stat: Option<Stat>,
}

impl Input {
    pub(super) fn now(path: PathBuf) -> Input {
        let stat = std::fs::metadata(&path).ok().map(|m| Stat::of_metadata(&m));
        Input { path, stat }
    }

    /// Unchanged; an input that was not there, in the folder `dir` whose entries are
    /// unchanged, is still not there.
    pub(super) fn unchanged_in(&self, dir: &Path) -> bool {
        (self.stat.is_none() && self.path.parent() == Some(dir)) || self.unchanged()
    }

    pub(super) fn unchanged(&self) -> bool {
        std::fs::metadata(&self.path)
            .ok()
            .map(|m| Stat::of_metadata(&m))
            == self.stat
    }
}

/// The ignore files a walk reads for the folder `dir`; those not there in `dir` itself
/// only with `keep_absent` (a file created there changes the folder's time).
fn folder_inputs(dir: &Path, keep_absent: bool) -> Vec<Input> {
    folder_inputs_and_git(dir, keep_absent).0
}

/// [`folder_inputs`], and whether `dir` holds a `.git` (as `config::tree::git_root` asks:
/// a link there counts when it leads somewhere).
pub(super) fn folder_inputs_and_git(dir: &Path, keep_absent: bool) -> (Vec<Input>, bool) {
    let mut out: Vec<Input> = [".gitignore", ".ignore"]
        .into_iter()
        .map(|name| Input::now(dir.join(name)))
        .filter(|input| keep_absent || input.stat.is_some())
        .collect();
    let git = dir.join(".git");
    let meta = std::fs::symlink_metadata(&git);
    let has_git = match &meta {
        Ok(m) if m.file_type().is_symlink() => git.exists(),
        Ok(_) => true,
        Err(_) => false,
    };
    match meta {
        Ok(m) if m.is_dir() => out.push(Input::now(git.join("info/exclude"))),
        Ok(_) => {
            // A worktree: `.git` names the real git folder, whose common folder holds the
            // exclude file.
            out.push(Input::now(git.clone()));
            if let Some(gitdir) = first_line(&git)
                .and_then(|l| l.strip_prefix("gitdir: ").map(|d| dir.join(d.trim_end())))
            {
                let commondir = gitdir.join("commondir");
                out.push(Input::now(commondir.clone()));
                if let Some(common) = first_line(&commondir) {
                    out.push(Input::now(
                        gitdir.join(common.trim_end()).join("info/exclude"),
                    ));
                }
            }
        }
        Err(_) => {}
    }
    (out, has_git)
}

/// The first line of a small regular file (a worktree's `.git`, git's `commondir`): a link
/// to a device or a FIFO is not opened, and no more than a few KiB are read.
fn first_line(path: &Path) -> Option<String> {
    use std::io::Read;
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_end(&mut bytes)
        .ok()?;
    let text = String::from_utf8_lossy(&bytes);
    Some(text.lines().next()?.to_string())
}

/// The ignore files above `root` and git's global configuration, as the walker reads them.
pub(super) fn root_inputs(root: &Path) -> Vec<Input> {
    let mut out: Vec<Input> = root
        .ancestors()
        .skip(1)
        .flat_map(|dir| folder_inputs(dir, true))
        .collect();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|x| !x.as_os_str().is_empty())
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let global = [
        std::env::var_os("GIT_CONFIG_GLOBAL").map(PathBuf::from),
        home.map(|h| h.join(".gitconfig")),
        xdg.as_ref().map(|x| x.join("git/config")),
        xdg.map(|x| x.join("git/ignore")),
        ignore::gitignore::gitconfig_excludes_path(),
    ];
    out.extend(global.into_iter().flatten().map(Input::now));
    out
}
