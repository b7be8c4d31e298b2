//! The files git tracks, read from the repository's index: an ignore file hides only the
//! files git does not track (as git itself has it), so a committed definition that a
//! `.gitignore` or `.ignore` names (added with `git add -f`) is still checked. The agents'
//! runtimes load it whatever an ignore file says; a pull request must not be able to hide
//! one from the check that gates it by adding an ignore line.
//!
//! The index is read directly, not through the `git` program: a run needs no git, starts no
//! hook a repository's own git configuration names, and reads one file. Only what a path
//! needs is taken from it (the index format is git's `gitformat-index`, versions 2 to 4).
//! An index that cannot be read this way (a worktree's or a submodule's, whose git folder lies
//! outside the repository; one past the read cap; a damaged one) adds nothing: the walk alone
//! decides, as before.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

/// The largest index read: the same cap as any file toolc reads (about 700,000 paths).
const MAX_INDEX_BYTES: u64 = crate::fs::MAX_READ_BYTES;

/// The longest path an index may hold (the longest a Linux path may be): a hand-made
/// version-4 index of one path of 32 MiB, shared by every later entry, had each entry
/// compared and copied whole (hours for 64 MiB).
const MAX_PATH_BYTES: usize = 4096;

/// Bytes of paths an index may spell out, for each byte of it, and beyond: a version-4 index
/// shares each path's start with the path before, so a hand-made one of 70 bytes an entry
/// spelt 4 KiB paths (400,000 of them: 56 s, each path looked at on the disk). An entry of
/// git's own takes 64 bytes and the end of its path that differs from the one before: paths
/// of 500 bytes that differ in their last ten spell about seven times the index. Past it, the
/// index is not believed (the walk alone decides), and that is known before any path is
/// looked at.
const PATH_BYTES_PER_BYTE: usize = 8;
const PATH_BYTES_BEYOND: usize = 1 << 20;

/// Every file under `root` that the index of `root`'s repository tracks, whose name `named`
/// accepts, that `keep` keeps and that is on the disk (a regular file or a link), as absolute
/// paths spelt from `root`'s repository top, in the index's order. Most tracked files are not
/// definitions: their names rule them out before a path is made or the disk asked (a
/// repository of 100,000 files is read in a few milliseconds).
pub(super) fn files_under(
    root: &Path,
    named: impl Fn(&OsStr) -> bool,
    keep: impl Fn(&Path) -> bool,
) -> Vec<PathBuf> {
    let top = crate::fs::project::repository_of(root);
    // The index's paths under `root` start with this (`/`-separated, with a final `/`).
    let Some(under) = root.strip_prefix(&top).ok().and_then(prefix_of) else {
        return Vec::new();
    };
    let Some(bytes) = read_index(&top) else {
        return Vec::new();
    };
    // SHA-1 object names first, then SHA-256: an index read with the wrong length fails on
    // its first entry, whose length is in its flags. A damaged index is believed for nothing.
    for hash in OBJECT_NAME_BYTES {
        // Read through once first: whole, and within its budget of paths, before any path
        // costs a look at the disk.
        if for_each_path(&bytes, hash, |_| {}).is_none() {
            continue;
        }
        let mut files = Vec::new();
        let mut last: Vec<u8> = Vec::new();
        let parsed = for_each_path(&bytes, hash, |path| {
            // A path in conflict is listed once per stage, one after another.
            if last == path || !path.starts_with(under.as_bytes()) {
                return;
            }
            last.clear();
            last.extend_from_slice(path);
            let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
            let Some(relative) = std::str::from_utf8(name)
                .is_ok_and(|n| named(OsStr::new(n)))
                .then(|| relative_path(path))
                .flatten()
            else {
                return;
            };
            let file = top.join(relative);
            if keep(&file) && std::fs::symlink_metadata(&file).is_ok_and(|m| !m.is_dir()) {
                files.push(file);
            }
        });
        if parsed.is_some() {
            return files;
        }
    }
    Vec::new()
}

/// The index's spelling of the folder `relative` (to the repository's top) as a prefix of
/// the paths under it: empty for the top itself; none when it is not plain UTF-8 parts.
fn prefix_of(relative: &Path) -> Option<String> {
    let mut prefix = String::new();
    for part in relative.components() {
        let Component::Normal(part) = part else {
            return None;
        };
        prefix.push_str(part.to_str()?);
        prefix.push('/');
    }
    Some(prefix)
}

/// The bytes of the index of the repository at `top`, when it is git's own folder there (not a
/// `.git` file or link leading elsewhere) and its index a regular file within the cap.
fn read_index(top: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let git = top.join(".git");
    if !std::fs::symlink_metadata(&git).ok()?.is_dir() {
        return None;
    }
    let index = git.join("index");
    let meta = std::fs::symlink_metadata(&index).ok()?;
    if !meta.is_file() || meta.len() > MAX_INDEX_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(&index)
        .ok()?
        .take(MAX_INDEX_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// `path` (an index path: `/`-separated, relative) when it is one git would write: UTF-8,
/// no empty, `.` or `..` part, nothing inside a `.git` folder. Anything else (a hand-made
/// index naming `../x`) is passed over.
fn relative_path(path: &[u8]) -> Option<&Path> {
    let text = std::str::from_utf8(path).ok()?;
    let parts_ok = !text.is_empty()
        && text
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != ".." && part != ".git");
    let relative = Path::new(text);
    let normal = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    (parts_ok && normal).then_some(relative)
}

/// The kinds of entry in a checkout: a file (`100644`, `100755`) or a link (`120000`); not a
/// submodule (`160000`) nor a sparse index's folder (`040000`).
fn on_disk(mode: u32) -> bool {
    matches!(mode >> 12, 0o10 | 0o12)
}

/// The lengths an object name may have in an index: SHA-1's, then SHA-256's.
const OBJECT_NAME_BYTES: [usize; 2] = [20, 32];

/// Calls `each` with the path of every entry of the index `bytes`, read with object names of
/// `hash` bytes, that stands for a file in the checkout; `None` when the bytes are not such an
/// index (then some paths may have been given already).
fn for_each_path(bytes: &[u8], hash: usize, mut each: impl FnMut(&[u8])) -> Option<()> {
    let header = bytes.get(..12)?;
    if &header[..4] != b"DIRC" {
        return None;
    }
    let version = be32(header, 4)?;
    let count = be32(header, 8)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let mut at = 12;
    let mut path: Vec<u8> = Vec::new();
    let mut spelt = bytes
        .len()
        .saturating_mul(PATH_BYTES_PER_BYTE)
        .saturating_add(PATH_BYTES_BEYOND);
    for _ in 0..count {
        let entry = bytes.get(at..)?;
        let mode = be32(entry, 24)?;
        let flags = be16(entry, 40 + hash)?;
        let extended = version >= 3 && flags & 0x4000 != 0;
        let name_at = 40 + hash + 2 + if extended { 2 } else { 0 };
        // Not in the checkout: a sparse checkout leaves the file out of the worktree.
        let skip_worktree = extended && be16(entry, 40 + hash + 2)? & 0x4000 != 0;
        let used = if version == 4 {
            let (strip, varint) = varint(entry.get(name_at..)?)?;
            let tail = entry.get(name_at + varint..)?;
            let nul = tail.iter().position(|b| *b == 0)?;
            path.truncate(path.len().checked_sub(strip)?);
            if path.len() + nul > MAX_PATH_BYTES {
                return None;
            }
            path.extend_from_slice(&tail[..nul]);
            name_at + varint + nul + 1
        } else {
            let name = entry.get(name_at..)?;
            let nul = name.iter().take(MAX_PATH_BYTES + 1).position(|b| *b == 0)?;
            path.clear();
            path.extend_from_slice(&name[..nul]);
            // Entries are padded with NULs to a multiple of eight bytes.
            (name_at + nul + 8) & !7
        };
        // The flags hold the path's length (or 0xfff for "that long or longer"): an entry
        // read with the wrong length of object name does not agree with them, or has no
        // path (git writes none empty).
        let length = usize::from(flags & 0xfff);
        if path.is_empty() || path.len() != length && !(length == 0xfff && path.len() >= length) {
            return None;
        }
        spelt = spelt.checked_sub(path.len())?;
        if on_disk(mode) && !skip_worktree {
            each(&path);
        }
        at = at.checked_add(used)?;
    }
    Some(())
}

/// Git's variable-length number of the index version 4 (each byte past the first adds one
/// before shifting), and how many bytes it took.
fn varint(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut value: usize = 0;
    for (i, byte) in bytes.iter().take(9).enumerate() {
        if i > 0 {
            value = value.checked_add(1)?.checked_mul(128)?;
        }
        value = value.checked_add(usize::from(byte & 0x7f))?;
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index entry of `version` for `path` with `mode`, SHA-1 names. In version 4 `path`
    /// is what follows the previous path less its last `strip` bytes, `full` the whole
    /// path's length (the flags hold it).
    fn entry(version: u32, path: &[u8], mode: u32, strip: Option<u8>) -> Vec<u8> {
        entry_of(version, path, mode, strip, path.len())
    }

    fn entry_of(version: u32, path: &[u8], mode: u32, strip: Option<u8>, full: usize) -> Vec<u8> {
        let mut e = vec![0u8; 24];
        e.extend_from_slice(&mode.to_be_bytes());
        e.extend_from_slice(&[0u8; 12]);
        e.extend_from_slice(&[0u8; 20]);
        let length = u16::try_from(full.min(0xfff)).unwrap_or(0xfff);
        e.extend_from_slice(&length.to_be_bytes());
        if version == 4 {
            e.push(strip.unwrap_or(0));
            e.extend_from_slice(path);
            e.push(0);
        } else {
            e.extend_from_slice(path);
            let size = (62 + path.len() + 8) & !7;
            e.resize(size, 0);
        }
        e
    }

    fn index(version: u32, entries: &[Vec<u8>]) -> Vec<u8> {
        let mut bytes = b"DIRC".to_vec();
        bytes.extend_from_slice(&version.to_be_bytes());
        bytes.extend_from_slice(&u32::try_from(entries.len()).unwrap_or(0).to_be_bytes());
        for e in entries {
            bytes.extend_from_slice(e);
        }
        bytes
    }

    /// The paths of `bytes` as [`files_under`] reads them: with the first object name length
    /// that reads the whole index.
    fn paths(bytes: &[u8]) -> Option<Vec<String>> {
        OBJECT_NAME_BYTES.into_iter().find_map(|hash| {
            let mut out = Vec::new();
            for_each_path(bytes, hash, |p| {
                out.push(String::from_utf8_lossy(p).into_owned())
            })?;
            Some(out)
        })
    }

    #[test]
    fn version_two_paths_and_kinds() {
        let bytes = index(
            2,
            &[
                entry(2, b"a/SKILL.md", 0o100644, None),
                entry(2, b"lib", 0o160000, None),
                entry(2, b"link.yaml", 0o120000, None),
                entry(2, b"run.sh", 0o100755, None),
            ],
        );
        assert_eq!(
            paths(&bytes),
            Some(vec![
                "a/SKILL.md".into(),
                "link.yaml".into(),
                "run.sh".into()
            ])
        );
    }

    #[test]
    fn version_four_paths_share_a_prefix() {
        let bytes = index(
            4,
            &[
                entry(4, b".cycod/tools/a.yaml", 0o100644, None),
                // Strip "a.yaml", add "evil.yaml".
                entry_of(4, b"evil.yaml", 0o100644, Some(6), 22),
            ],
        );
        assert_eq!(
            paths(&bytes),
            Some(vec![
                ".cycod/tools/a.yaml".into(),
                ".cycod/tools/evil.yaml".into()
            ])
        );
    }

    #[test]
    fn a_path_longer_than_any_path_is_refused() {
        let long = vec![b'a'; MAX_PATH_BYTES + 1];
        assert_eq!(paths(&index(2, &[entry(2, &long, 0o100644, None)])), None);
        assert_eq!(paths(&index(4, &[entry(4, &long, 0o100644, None)])), None);
        let most = vec![b'a'; MAX_PATH_BYTES];
        assert_eq!(
            paths(&index(4, &[entry(4, &most, 0o100644, None)])).map(|p| p.len()),
            Some(1)
        );
    }

    #[test]
    fn an_index_spelling_far_more_path_than_it_holds_is_refused() {
        // Each entry keeps all but the last 8 bytes of a path of 4,000: 70 bytes of index
        // spell 4,000 of path.
        let spelt = |n: usize| {
            let mut first = vec![b'a'; 3992];
            first.extend_from_slice(b"t00000.y");
            let mut entries = vec![entry(4, &first, 0o100644, None)];
            for i in 1..n {
                let suffix = format!("t{i:05}.y");
                entries.push(entry_of(4, suffix.as_bytes(), 0o100644, Some(8), 4000));
            }
            paths(&index(4, &entries)).map(|p| p.len())
        };
        assert_eq!(spelt(200), Some(200));
        assert_eq!(spelt(20_000), None);
    }

    /// A SHA-256 repository's index: its object names are 32 bytes, read as such.
    #[test]
    fn sha256_object_names_are_read() {
        let mut e = entry(2, b"a/SKILL.md", 0o100644, None);
        // Twelve more bytes of name before the flags, and the padding of the longer entry.
        e.splice(60..60, [0u8; 12]);
        e.resize((74 + 10 + 8) & !7, 0);
        assert_eq!(paths(&index(2, &[e])), Some(vec!["a/SKILL.md".into()]));
    }

    #[test]
    fn damaged_indexes_are_refused() {
        assert_eq!(paths(b"DIRC"), None);
        assert_eq!(paths(b"JUNKJUNKJUNKJUNK"), None);
        let mut bytes = index(2, &[entry(2, b"a.yaml", 0o100644, None)]);
        // Says two entries, holds one.
        bytes[11] = 2;
        assert_eq!(paths(&bytes), None);
        // Strips more than the previous path holds.
        let bytes = index(4, &[entry(4, b"x", 0o100644, Some(100))]);
        assert_eq!(paths(&bytes), None);
    }

    #[test]
    fn paths_git_would_not_write_are_passed_over() {
        for bad in [
            "../x",
            "/etc/passwd",
            "a//b",
            "a/./b",
            ".git/config",
            "a/.git/x",
            "",
        ] {
            assert_eq!(relative_path(bad.as_bytes()), None, "{bad}");
        }
        assert_eq!(
            relative_path(b".cycod/tools/a.yaml"),
            Some(Path::new(".cycod/tools/a.yaml"))
        );
    }

    #[test]
    fn varints_are_git_s() {
        assert_eq!(varint(&[0x05]), Some((5, 1)));
        // 0x80 0x00: (0 + 1) * 128 + 0.
        assert_eq!(varint(&[0x80, 0x00]), Some((128, 2)));
        assert_eq!(varint(&[0xff; 12]), None);
    }
}
