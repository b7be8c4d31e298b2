//! The cache file: one archive per repository, `.toolc_cache/<version>/files.bin`. Its bytes
//! are a magic word, a check of the rest (XXH3-128: it finds damage; forgery is what the
//! build in the key stops), then the [`Key`] and the [`Archive`] in postcard. A file whose
//! check fails, that does not decode completely, or whose key is not the run's is not read
//! at all. It is written through the file-system boundary: never through a link, a new file
//! renamed into place, so a reader sees the old archive or the new one, never half of one.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::bytes::Blob;
use super::resolve::Resolved;
use super::track::{Dep, Stat};
use super::walk::Walk;
use crate::config::Config;
use crate::fs::boundary::{RepoPath, Repository};
use crate::source::{Digest, FormatId};

/// The cache folder's name, at the repository root.
pub(crate) const DIR: &str = ".toolc_cache";

/// What begins every cache file (and says which layout follows).
const MAGIC: &[u8; 8] = b"toolc\x00c3";

/// What an archive is for: another key, and nothing in it is used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Key {
    /// The build that wrote it ([`build_id`]).
    pub build: String,
    /// The repository it was written for (a copy or a move starts afresh).
    pub root: String,
    /// The working directory: messages name files relative to it.
    pub cwd: String,
    /// The configuration ([`config_digest`]).
    pub config: Digest,
}

/// One definition file as its last load saw it.
#[derive(Serialize, Deserialize)]
pub(super) struct Entry {
    /// Its path (UTF-8: another path is not stored).
    pub path: String,
    /// The format it was read as.
    pub format: FormatId,
    /// Claimed by its content: whether it was (none: it was read whatever its content).
    pub claimed: Option<bool>,
    /// Its metadata before it was read (compared before its bytes are hashed).
    pub stat: Stat,
    /// Modified too close to the run that stored it for its metadata to be trusted.
    pub racy: bool,
    /// The SHA-256 of its bytes.
    pub digest: Digest,
    /// Every other path the load read, looked for or listed, with what was there.
    pub deps: Vec<Dep>,
    /// The fingerprint of the custom rules its findings include ([`super::Lookup::custom`]).
    pub custom: u64,
    /// Its result ([`super::stored::Stored`], encoded), when its content was its format's.
    pub result: Option<Blob>,
    /// What identifies the result (its encoding's check): cross-file findings are kept
    /// under the results they came from.
    pub sum: u128,
}

/// What the cache file holds after its key and walks, as read back.
#[derive(Serialize, Deserialize, Default)]
pub(super) struct Archive<Said = crate::security::shellcheck::Said> {
    /// The files, sorted by path.
    pub entries: Vec<Entry>,
    /// The cross-file findings of the last runs.
    pub resolved: Vec<Resolved>,
    /// What ShellCheck said of the scripts resolve checked.
    pub shellcheck: Said,
}

impl Archive {
    /// The number of the entry of `path`.
    pub(super) fn find(&self, path: &str) -> Option<usize> {
        self.entries
            .binary_search_by(|e| e.path.as_str().cmp(path))
            .ok()
    }
}

/// The archive as written: the walks first (a run replays them while the rest is decoded),
/// the entries borrowed, ShellCheck's memory written in place.
#[derive(Serialize)]
pub(super) struct ArchiveOut<'a> {
    pub walks: Vec<&'a Walk>,
    pub entries: Vec<&'a Entry>,
    pub resolved: &'a [Resolved],
    pub shellcheck: crate::security::shellcheck::SaidNow,
}

/// The build that writes and reads a cache: its version, and the executable's size, mtime,
/// inode and status-change time (creation time on Windows), which no one knows ahead: a
/// cache committed to a repository (to make CI say nothing) cannot name the build reading it.
pub(super) fn build_id() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| {
            let s = Stat::of_metadata(&m);
            #[cfg(windows)]
            let born = std::os::windows::fs::MetadataExt::creation_time(&m);
            #[cfg(not(windows))]
            let born = 0;
            format!("{}.{}.{}.{}.{born}", s.len, s.mtime, s.changed, s.inode)
        })
        // An executable that cannot be named is a build no cache file names.
        .unwrap_or_else(|| format!("unknown.{}.{:?}", std::process::id(), SystemTime::now()));
    format!("{} {exe}", env!("TOOLC_VERSION"))
}

/// What of the configuration the key holds: the configuration file's bytes, the flags that
/// decide before a load how a file is claimed, and the costly passes the loads run. Custom
/// rules are keyed per file (`Entry::custom`); the rest of the configuration runs after.
pub(super) fn config_digest(config: &Config, passes: crate::security::Passes) -> Digest {
    let mut text = Vec::new();
    if let Some(file) = &config.file {
        text.extend_from_slice(&file.digest());
    }
    text.push(u8::from(config.named_by_content));
    text.push(u8::from(config.explicit));
    text.push(passes.bits());
    crate::source::sha256(&text)
}

/// The folder of this toolc version's cache under the repository at `root`.
pub(super) fn version_dir(root: &Path) -> PathBuf {
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

/// The cache file of the repository at `root`, through the boundary (none when it cannot
/// be named there).
fn file_of(root: &Path) -> Option<RepoPath> {
    let rel = version_dir(Path::new("")).join("files.bin");
    Repository::of(root).configured(&rel, root).ok()
}

/// Whether git tracks a file of the cache of the repository at `root`. A committed cache is
/// one whoever made the commit wrote, and its checksum and key can be made to order (the key
/// is guessed where a runner's paths and build are): it is neither read nor written.
pub(super) fn committed(root: &Path) -> bool {
    crate::discover::tracks_any_under(&root.join(DIR))
}

/// The archive of the repository at `root`, when its file is whole and its key is `key`;
/// its walks are sent through `walks` as soon as they are decoded. None, with `is_committed`
/// set, when git tracks the cache ([`committed`]: asked here, off the walk's way).
pub(super) fn read(
    root: &Path,
    key: &Key,
    walks: Sender<Vec<Walk>>,
    is_committed: &AtomicBool,
) -> Option<Archive> {
    if committed(root) {
        is_committed.store(true, Ordering::Relaxed);
        return None;
    }
    let file = file_of(root)?;
    // Never read through a link: a committed one could lead to a cache made to order.
    file.refuse_links().ok()?;
    if !std::fs::symlink_metadata(file.path()).ok()?.is_file() {
        return None;
    }
    let bytes = read_if_ours(file.path(), key)?;
    let body = bytes.strip_prefix(MAGIC)?;
    let (check, body) = body.split_at_checked(16)?;
    if check != xxhash_rust::xxh3::xxh3_128(body).to_le_bytes() {
        return None;
    }
    let (stored, rest): (Key, _) = postcard::take_from_bytes(body).ok()?;
    if stored != *key {
        return None;
    }
    let (walked, rest) = postcard::take_from_bytes(rest).ok()?;
    let _ = walks.send(walked);
    let archive = match postcard::take_from_bytes::<Archive>(rest) {
        Ok((archive, [])) => Some(archive),
        _ => None,
    };
    crate::timing::mark("archive read");
    archive
}

/// The bytes of the archive at `path` when its key is `key`: its head is read first, and a
/// file written for another build, repository or configuration (or not by toolc at all: a
/// committed `files.bin` of a gigabyte of zeros) is not read further.
fn read_if_ours(path: &Path, key: &Key) -> Option<Vec<u8>> {
    use std::io::Read;
    // The key is the build's id, two paths and a digest: a few kilobytes at most.
    const HEAD_BYTES: u64 = 64 * 1024;
    let mut file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    (&mut file).take(HEAD_BYTES).read_to_end(&mut bytes).ok()?;
    let body = bytes.strip_prefix(MAGIC)?.get(16..)?;
    let (stored, _): (Key, _) = postcard::take_from_bytes(body).ok()?;
    if stored != *key {
        return None;
    }
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Write `archive` under `key` as the cache of the repository at `root` (nothing when it
/// cannot: a cache costs time, never a result). It is written as it is encoded, its check
/// filled in last: the archive is tens of bytes a finding, and was held whole.
pub(super) fn write(root: &Path, key: &Key, archive: &ArchiveOut<'_>) {
    use std::io::{Seek, Write};
    let Some(file) = file_of(root) else {
        return;
    };
    let written = file.write_with(|f| {
        f.write_all(MAGIC)?;
        f.write_all(&[0; 16])?;
        // Summed below the buffer: in its chunks, not the few bytes postcard writes at once.
        let mut body = std::io::BufWriter::new(Checked {
            out: &mut *f,
            check: xxhash_rust::xxh3::Xxh3::new(),
        });
        postcard::to_io(key, &mut body)
            .and_then(|b| postcard::to_io(archive, b))
            .map_err(std::io::Error::other)?;
        let check = body
            .into_inner()
            .map_err(|e| e.into_error())?
            .check
            .digest128()
            .to_le_bytes();
        f.seek(std::io::SeekFrom::Start(MAGIC.len() as u64))?;
        f.write_all(&check)
    });
    if written.is_ok() {
        mark(root);
    }
}

/// A writer that also sums what goes through it.
struct Checked<W> {
    out: W,
    check: xxhash_rust::xxh3::Xxh3,
}

impl<W: std::io::Write> std::io::Write for Checked<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(bytes)?;
        self.check.update(bytes.get(..n).unwrap_or_default());
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Make the `.toolc_cache` folder ignored by git and by backup tools (each file written
/// only when nothing is there yet, and never through a link).
fn mark(root: &Path) {
    let repo = Repository::of(root);
    for (name, text) in [
        (
            ".gitignore",
            "# Written by toolc: the whole folder is a cache.\n*\n",
        ),
        (
            "CACHEDIR.TAG",
            "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by toolc.\n",
        ),
    ] {
        let Ok(path) = repo.configured(&Path::new(DIR).join(name), root) else {
            continue;
        };
        if std::fs::symlink_metadata(path.path()).is_err() {
            let _ = path.write(text.as_bytes());
        }
    }
}

/// The folder whose `.toolc_cache/` a run in `cwd` with `config` uses: the git repository
/// around the configuration (or `cwd`), else the configuration's folder, else `cwd`; the same
/// for `check .` and `check FILE` run from one place. A configuration named with `--config`
/// that lies neither in the repository of `cwd` nor, outside git, above `cwd`
/// (`--config ../common/toolc.toml`) is only read: the cache goes in the repository of `cwd`,
/// never beside it.
pub(crate) fn root_for(config: &Config, cwd: &Path) -> PathBuf {
    let from = match (&config.home, &config.file) {
        (Some(home), _) => home.clone(),
        (None, Some(_)) => crate::discover::normalize(&config.root),
        (None, None) => cwd.to_path_buf(),
    };
    from.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&from)
        .to_path_buf()
}

/// Remove the cache of the repository at `root`. Returns the folder when there was one.
pub(crate) fn clean(root: &Path) -> std::io::Result<Option<PathBuf>> {
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
