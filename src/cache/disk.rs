//! Where the cache lives and how its files are written: real folders only (never through a
//! link), new files created exclusively and renamed into place.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The cache folder's name, at the repository root.
pub const DIR: &str = ".toolc_cache";

/// The folder of this toolc version's cache files under the repository at `root`.
pub fn version_dir(root: &Path) -> PathBuf {
    let version: String = env!("CARGO_PKG_VERSION")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    root.join(DIR).join(version)
}

/// True when the folders of the cache file `file` (the version folder and `.toolc_cache`)
/// are real folders or not there yet: never links.
pub fn usable(file: &Path) -> bool {
    file.ancestors().skip(1).take(2).all(|dir| {
        std::fs::symlink_metadata(dir).map_or_else(
            |e| e.kind() == std::io::ErrorKind::NotFound,
            |m| m.file_type().is_dir(),
        )
    })
}

/// The cache file `file`, opened when it is a regular file in real folders: a committed link
/// must not lead the cache's reads out of the repository.
pub fn open(file: &Path) -> Option<File> {
    let regular = std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_file());
    if usable(file) && regular {
        File::open(file).ok()
    } else {
        None
    }
}

/// The folders of the cache file `file`, created (and marked) when they are not there yet;
/// false when they cannot be used.
pub fn prepare(file: &Path) -> bool {
    let Some(dir) = file.parent() else {
        return false;
    };
    if !usable(file) || std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    // Created between the check and here is no different from created before it.
    usable(file) && dir.parent().is_some_and(|d| mark(d).is_ok())
}

/// A new temporary file beside the cache file `file` (its folders created and marked), never
/// one that is there already nor a link.
pub fn create_beside(file: &Path) -> Option<(PathBuf, File)> {
    if !prepare(file) {
        return None;
    }
    let dir = file.parent()?;
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let name = file.file_name()?.to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let created = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .ok()?;
    Some((tmp, created))
}

/// Put the finished temporary file `tmp` in place of `file`; false (and `tmp` removed) when
/// it could not be. Readers see the old file or the new one, never a part of one.
pub fn commit(tmp: &Path, file: &Path) -> bool {
    let done = std::fs::rename(tmp, file).is_ok();
    if !done {
        let _ = std::fs::remove_file(tmp);
    }
    done
}

/// Make `dir` (the `.toolc_cache` folder) ignored by git and by backup tools. Each file is
/// created only when nothing is at its path, so nothing there is written through.
fn mark(dir: &Path) -> std::io::Result<()> {
    let create = |name: &str, text: &str| match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.join(name))
    {
        Ok(mut f) => f.write_all(text.as_bytes()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    };
    create(
        ".gitignore",
        "# Written by toolc: the whole folder is a cache.\n*\n",
    )?;
    create(
        "CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by toolc.\n",
    )
}

/// The folder whose `.toolc_cache/` a run in `cwd` with `config` uses: the git repository
/// around the configuration (or `cwd`), else the configuration's folder, else `cwd`; the same
/// for `check .` and `check FILE` run from one place.
pub fn root_for(config: &crate::config::Config, cwd: &Path) -> PathBuf {
    let from = if config.file.is_some() {
        crate::discover::normalize(&config.root)
    } else {
        cwd.to_path_buf()
    };
    from.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&from)
        .to_path_buf()
}

/// Remove the cache of the repository at `root`. Returns the folder when there was one.
pub fn clean(root: &Path) -> std::io::Result<Option<PathBuf>> {
    let dir = root.join(DIR);
    match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.is_dir() => {
            std::fs::remove_dir_all(&dir)?;
            Ok(Some(dir))
        }
        Ok(_) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}
