//! The old side of a diff read from git with the `git` program: which commit, which files,
//! and their bytes, never through a checkout and never over the network.
//!
//! Why the `git` program and not a library: it is on every machine that has a repository to
//! compare (CI checkouts included), reads every repository layout git itself writes (packs,
//! worktrees, alternates, split indexes, new object formats), and adds no dependency; `gix`
//! would add about a hundred crates to build for three read-only plumbing calls. What git
//! must not do here is asked explicitly: no lazy fetch of missing objects in a partial clone
//! (`GIT_NO_LAZY_FETCH`), no prompt, no optional lock on the index, no pager. Only plumbing
//! that reads objects and refs runs (`rev-parse`, `merge-base`, `ls-tree`, `cat-file`), none of
//! which refreshes the index, so a repository's `core.fsmonitor` hook is never started; links
//! and submodules in the tree are skipped, never followed. Every call runs within limits
//! (time, memory, output: `git/limits.rs`), and an error says when one stopped it.

mod limits;
mod owner;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use crate::fs::{DirEntry, EntryKind, FileSystem, MAX_READ_BYTES, ReadError};

/// Why git could not give the old side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GitError(pub String);

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A git command run in `cwd`, with everything that could reach the network, block on a
/// prompt or write to the repository turned off.
fn git(cwd: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(cwd)
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_PAGER", "cat")
        .stdin(Stdio::null());
    cmd
}

/// Run a git command to completion within its limits; its stdout, or its stderr's first line
/// (or the limit that stopped it) as the error.
fn run(cwd: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let mut command = git(cwd);
    command.args(args);
    let ran = limits::run(command).map_err(|e| {
        GitError(if e.kind() == std::io::ErrorKind::NotFound {
            "`git` is not installed or not on PATH; compare with a folder instead (`--against DIR`)"
                .to_string()
        } else {
            format!("cannot run git: {e}")
        })
    })?;
    match ran {
        limits::Ran::Exited {
            success: true,
            stdout,
            ..
        } => Ok(stdout),
        limits::Ran::Exited { stderr, .. } => {
            let stderr = String::from_utf8_lossy(&stderr);
            let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            Err(GitError(format!(
                "`git {}` failed: {}",
                args.join(" "),
                crate::diagnostics::visible(first.trim())
            )))
        }
        limits::Ran::Stopped(why) => Err(GitError(format!("`git {}`: {why}", args.join(" ")))),
    }
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim().to_string()
}

/// The repository `cwd` is in: its top folder as seen from `cwd` (the working directory with
/// git's prefix taken off, so a symlinked path stays what the user typed), when its git
/// folder is its own ([`owner::check`]).
pub(crate) fn top_level(cwd: &Path) -> Result<PathBuf, GitError> {
    let prefix = run(cwd, &["rev-parse", "--show-prefix"]).map_err(|e| {
        if e.0.starts_with("`git` is not installed") || e.0.contains("was stopped") {
            return e;
        }
        let said = e.0.split_once(" failed: ").map_or("", |(_, said)| said);
        GitError(format!(
            "{} is not in a git repository that git will read ({said}); compare with a folder instead (`--against DIR`)",
            cwd.display()
        ))
    })?;
    let prefix = text(prefix);
    let depth = Path::new(&prefix).components().count();
    let mut top = cwd.to_path_buf();
    for _ in 0..depth {
        top.pop();
    }
    owner::check(cwd, &top)?;
    Ok(top)
}

/// The commit `rev` names (a branch, tag, hash, `HEAD~1`…), as a full hash.
pub(crate) fn resolve(cwd: &Path, rev: &str) -> Result<String, GitError> {
    // `--end-of-options`: a revision that starts with `-` is a name, never an option.
    let spec = format!("{rev}^{{commit}}");
    run(
        cwd,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ],
    )
    .map(text)
    .map_err(|_| {
        // A CI checkout is shallow by default and holds no other branch: say how to get it.
        let shallow = run(cwd, &["rev-parse", "--is-shallow-repository"])
            .is_ok_and(|out| text(out) == "true");
        let hint = if shallow {
            " (this clone is shallow: fetch the revision, or check out with `fetch-depth: 0`)"
        } else {
            ""
        };
        GitError(format!("`{rev}` is not a commit of this repository{hint}"))
    })
}

/// True when git names a commit `rev` in the repository `cwd` is in (false outside one, or
/// without git).
pub(crate) fn is_commit(cwd: &Path, rev: &str) -> bool {
    resolve(cwd, rev).is_ok()
}

/// What a diff compares with when no `--against` is given: the merge base of `HEAD` with the
/// default branch (the remote's `HEAD`, else `main`, else `master`), else `HEAD` itself. With
/// the commit, a label saying how it was chosen.
pub(crate) fn default_base(cwd: &Path) -> Result<(String, String), GitError> {
    let head = resolve(cwd, "HEAD").map_err(|_| {
        GitError("the repository has no commit yet: there is nothing to compare with".into())
    })?;
    let mut candidates = Vec::new();
    if let Ok(remote_head) = run(
        cwd,
        &["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"],
    ) {
        let name = text(remote_head);
        candidates.push(
            name.strip_prefix("refs/remotes/")
                .unwrap_or(&name)
                .to_string(),
        );
    }
    for name in ["main", "master", "origin/main", "origin/master"] {
        candidates.push(name.to_string());
    }
    for branch in candidates {
        let Ok(tip) = resolve(cwd, &branch) else {
            continue;
        };
        if let Ok(base) = run(cwd, &["merge-base", &head, &tip]) {
            let base = text(base);
            let label = if base == head {
                "HEAD".to_string()
            } else {
                format!("the merge base with `{branch}` (`{}`)", short(&base))
            };
            return Ok((base, label));
        }
    }
    Ok((head, "HEAD".to_string()))
}

/// The merge base of `HEAD` and `rev` (what `git diff REV...` compares with).
pub(crate) fn merge_base(cwd: &Path, rev: &str) -> Result<String, GitError> {
    let head = resolve(cwd, "HEAD")?;
    let tip = resolve(cwd, rev)?;
    run(cwd, &["merge-base", &head, &tip]).map(text).map_err(|_| {
        GitError(format!(
            "`HEAD` and `{rev}` have no common commit (a shallow clone? fetch the history, e.g. `fetch-depth: 0`)"
        ))
    })
}

/// The first 10 hex digits of a hash.
pub(crate) fn short(hash: &str) -> &str {
    hash.get(..10).unwrap_or(hash)
}

/// One blob of a tree.
#[derive(Debug, Clone)]
struct Blob {
    oid: String,
    size: u64,
}

/// A commit's tree, read as a file system: absolute paths under the repository's top folder
/// map to the blobs of the commit. Nothing is read from the disk.
pub(crate) struct Tree {
    blobs: HashMap<PathBuf, Blob>,
    reader: Mutex<Option<BlobReader>>,
    cwd: PathBuf,
    /// Each folder's entries, made on the first listing (a skill's folder is listed).
    dirs: OnceLock<HashMap<PathBuf, Vec<DirEntry>>>,
}

impl Tree {
    /// The tree of `commit`, its paths placed under `top` (the repository's top folder). A
    /// link to a file of the tree reads as that file, as it does on the disk (a link out of
    /// the tree, to a folder or to nothing is left out).
    pub(crate) fn read(cwd: &Path, top: &Path, commit: &str) -> Result<Tree, GitError> {
        let listing = run(cwd, &["ls-tree", "-r", "-l", "-z", "--full-tree", commit])?;
        let mut files: HashMap<PathBuf, Blob> = HashMap::new();
        let mut links: Vec<(PathBuf, Blob)> = Vec::new();
        for record in listing.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            match parse_entry(record) {
                Some((path, Entry::File(blob))) => {
                    files.insert(path, blob);
                }
                Some((path, Entry::Link(blob))) => links.push((path, blob)),
                None => {}
            }
        }
        let mut reader = None;
        // Without `git cat-file`, links are left out (a read through one fails later anyway).
        if !links.is_empty()
            && let Ok(mut git) = BlobReader::start(cwd)
        {
            // A link's blob is its target: each blob read once (links may share one), none
            // longer than a path can be.
            let mut by_blob: HashMap<String, Option<String>> = HashMap::new();
            let mut targets = HashMap::new();
            let mut in_step = true;
            for (path, blob) in links.iter().filter(|(_, b)| b.size <= 4096) {
                if !by_blob.contains_key(&blob.oid) {
                    let target = match git.read_or_missing(&blob.oid, blob.size) {
                        Ok(bytes) => bytes.and_then(|b| String::from_utf8(b).ok()),
                        // Out of step with git: the links after it are left out.
                        Err(_) => {
                            in_step = false;
                            break;
                        }
                    };
                    by_blob.insert(blob.oid.clone(), target);
                }
                if let Some(Some(target)) = by_blob.get(&blob.oid) {
                    targets.insert(path.clone(), target.clone());
                }
            }
            reader = in_step.then_some(git);
            let mut memo = HashMap::new();
            for (path, _) in &links {
                if let Some(blob) = follow(path, &targets, &files, &mut memo) {
                    files.insert(path.clone(), blob);
                }
            }
        }
        Ok(Tree {
            blobs: files
                .into_iter()
                .map(|(path, blob)| (top.join(path), blob))
                .collect(),
            reader: Mutex::new(reader),
            cwd: cwd.to_path_buf(),
            dirs: OnceLock::new(),
        })
    }

    /// Every file of the tree (absolute), sorted.
    pub(crate) fn paths(&self) -> Vec<&Path> {
        let mut paths: Vec<&Path> = self.blobs.keys().map(PathBuf::as_path).collect();
        paths.sort();
        paths
    }
}

/// The file the link at `path` leads to, through other links of the tree (`targets`, each
/// link's target text) but never out of it: a target is taken on its text, relative to the
/// link's folder. What each link leads to is noted in `memo`, so that many links through the
/// same ones are followed once.
fn follow(
    path: &Path,
    targets: &HashMap<PathBuf, String>,
    files: &HashMap<PathBuf, Blob>,
    memo: &mut HashMap<PathBuf, Option<Blob>>,
) -> Option<Blob> {
    let mut chain: Vec<PathBuf> = Vec::new();
    let mut at = path.to_path_buf();
    // As many links as the operating system follows before it gives up.
    let found = loop {
        if let Some(known) = memo.get(&at) {
            break known.clone();
        }
        if chain.len() == 40 || chain.contains(&at) {
            break None;
        }
        let Some(target) = targets.get(&at) else {
            break None;
        };
        chain.push(at.clone());
        let Some(next) = beside(&at, target) else {
            break None;
        };
        if let Some(blob) = files.get(&next) {
            break Some(blob.clone());
        }
        at = next;
    };
    for link in chain {
        memo.insert(link, found.clone());
    }
    found
}

/// The path `target` names from the link at `link`, on its text; none when it leaves the
/// tree (absolute, or climbing above its top).
fn beside(link: &Path, target: &str) -> Option<PathBuf> {
    let mut next = link.parent()?.to_path_buf();
    for part in Path::new(target).components() {
        match part {
            std::path::Component::Normal(name) => next.push(name),
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !next.pop() {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(next)
}

/// What a tree entry is: a regular file, or a link (whose blob is its target).
enum Entry {
    File(Blob),
    Link(Blob),
}

/// `<mode> SP <type> SP <oid> SP <size> TAB <path>`; regular files and links only (a
/// submodule has no blob).
fn parse_entry(record: &[u8]) -> Option<(PathBuf, Entry)> {
    let tab = record.iter().position(|b| *b == b'\t')?;
    let head = std::str::from_utf8(&record[..tab]).ok()?;
    let path = std::str::from_utf8(&record[tab + 1..]).ok()?;
    let mut fields = head.split_whitespace();
    let mode = fields.next()?;
    let kind = fields.next()?;
    let oid = fields.next()?;
    let size = fields.next()?.parse().ok()?;
    let link = match (kind, mode) {
        ("blob", "100644" | "100755") => false,
        ("blob", "120000") => true,
        _ => return None,
    };
    // A path that climbs out of the tree is not a path git writes; never follow one.
    if Path::new(path)
        .components()
        .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return None;
    }
    let blob = Blob {
        oid: oid.to_string(),
        size,
    };
    Some((
        PathBuf::from(path),
        if link {
            Entry::Link(blob)
        } else {
            Entry::File(blob)
        },
    ))
}

impl FileSystem for Tree {
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        let Some(blob) = self.blobs.get(path) else {
            return Err(ReadError::Missing("not in the compared commit".into()));
        };
        if blob.size > MAX_READ_BYTES {
            return Err(ReadError::TooLarge(Some(blob.size)));
        }
        let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        if reader.is_none() {
            *reader = Some(BlobReader::start(&self.cwd).map_err(|e| ReadError::Io(e.0))?);
        }
        let result = match reader.as_mut() {
            Some(r) => r.read(&blob.oid, blob.size),
            None => Err(GitError("git is not running".into())),
        };
        // A reader that failed mid-object is out of step with git: start a new one next time.
        if result.is_err() {
            *reader = None;
        }
        result.map_err(|e| ReadError::Io(e.0))
    }

    fn is_file(&self, path: &Path) -> bool {
        self.blobs.contains_key(path)
    }

    fn list_dir(&self, path: &Path) -> Vec<DirEntry> {
        let dirs = self.dirs.get_or_init(|| {
            let mut dirs: HashMap<PathBuf, Vec<DirEntry>> = HashMap::new();
            let mut seen = std::collections::HashSet::new();
            for file in self.blobs.keys() {
                let mut kind = EntryKind::File;
                let mut at = file.as_path();
                while let (Some(parent), Some(name)) = (at.parent(), at.file_name()) {
                    if seen.insert(at.to_path_buf()) {
                        dirs.entry(parent.to_path_buf())
                            .or_default()
                            .push(DirEntry {
                                name: name.to_string_lossy().into_owned(),
                                kind,
                                executable: None,
                            });
                    } else {
                        break;
                    }
                    kind = EntryKind::Dir;
                    at = parent;
                }
            }
            dirs
        });
        dirs.get(path).cloned().unwrap_or_default()
    }
}

/// One `git cat-file --batch` for every read of a diff, instead of a process per file.
struct BlobReader {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Stops `cat-file` when one read runs over its time.
    watchdog: limits::Watchdog,
}

impl BlobReader {
    fn start(cwd: &Path) -> Result<BlobReader, GitError> {
        let mut command = git(cwd);
        command
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        limits::confine(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| GitError(format!("cannot run `git cat-file`: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            crate::fs::child::stop(&mut child);
            return Err(GitError("cannot talk to `git cat-file`".into()));
        };
        let watchdog = limits::Watchdog::start(child.id());
        Ok(BlobReader {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            watchdog,
        })
    }

    /// The bytes of blob `oid`, which the listing says is `size` bytes long.
    fn read(&mut self, oid: &str, size: u64) -> Result<Vec<u8>, GitError> {
        self.read_or_missing(oid, size)?
            .ok_or_else(|| GitError(format!("`git cat-file` found no blob for {oid}")))
    }

    /// [`BlobReader::read`], with a blob git does not have (a partial clone's) as none: git
    /// is still in step after it.
    fn read_or_missing(&mut self, oid: &str, size: u64) -> Result<Option<Vec<u8>>, GitError> {
        self.watchdog.begin();
        let read = self.read_watched(oid, size);
        match self.watchdog.end() {
            Some(why) => Err(GitError(format!("`git cat-file` over {oid}: {why}"))),
            None => read,
        }
    }

    /// [`BlobReader::read_or_missing`] while the watchdog runs.
    fn read_watched(&mut self, oid: &str, size: u64) -> Result<Option<Vec<u8>>, GitError> {
        let fail = |what: &str| GitError(format!("`git cat-file` {what} for {oid}"));
        writeln!(self.stdin, "{oid}").map_err(|_| fail("stopped"))?;
        self.stdin.flush().map_err(|_| fail("stopped"))?;
        let mut header = String::new();
        self.stdout
            .read_line(&mut header)
            .map_err(|_| fail("stopped"))?;
        // `<oid> blob <size>`, or `<oid> missing`.
        let mut fields = header.split_whitespace();
        let (Some(_), Some("blob"), Some(len)) = (fields.next(), fields.next(), fields.next())
        else {
            return match header.split_whitespace().nth(1) {
                Some("missing") => Ok(None),
                _ => Err(fail("found no blob")),
            };
        };
        let len: u64 = len.parse().map_err(|_| fail("gave a bad header"))?;
        if len != size || len > MAX_READ_BYTES {
            return Err(fail("gave an unexpected size"));
        }
        let mut bytes = Vec::with_capacity(len as usize);
        (&mut self.stdout)
            .take(len)
            .read_to_end(&mut bytes)
            .map_err(|_| fail("stopped"))?;
        let mut newline = [0u8; 1];
        self.stdout
            .read_exact(&mut newline)
            .map_err(|_| fail("stopped"))?;
        if bytes.len() as u64 != len {
            return Err(fail("stopped"));
        }
        Ok(Some(bytes))
    }
}

impl Drop for BlobReader {
    fn drop(&mut self) {
        // Killed with its process group; waited for, so no zombie is left.
        let _ = self.stdin.flush();
        crate::fs::child::stop(&mut self.child);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_entries_keep_regular_files_and_links_only() {
        let blob = b"100644 blob 0123abcd 12\ttools/a.tool.md";
        let (path, entry) = parse_entry(blob).expect("a file");
        assert_eq!(path, PathBuf::from("tools/a.tool.md"));
        assert!(matches!(entry, Entry::File(b) if b.size == 12));
        let (path, entry) = parse_entry(b"120000 blob 0123abcd 5\tlink").expect("a link");
        assert_eq!(path, PathBuf::from("link"));
        assert!(matches!(entry, Entry::Link(b) if b.size == 5));
        assert!(parse_entry(b"160000 commit 0123abcd -\tsub").is_none());
        assert!(parse_entry(b"100644 blob 0123abcd 5\t../escape").is_none());
        assert!(parse_entry(b"garbage").is_none());
    }

    #[test]
    fn a_link_leads_to_a_file_of_the_tree_and_never_out_of_it() {
        let blob = |oid: &str| Blob {
            oid: oid.into(),
            size: 1,
        };
        let files: HashMap<PathBuf, Blob> = [("common/a.md", "a"), ("b.md", "b")]
            .into_iter()
            .map(|(p, o)| (PathBuf::from(p), blob(o)))
            .collect();
        let targets: HashMap<PathBuf, String> = [
            ("tools/a.md", "../common/a.md"),
            ("tools/chain.md", "./a.md"),
            ("tools/up.md", "../../b.md"),
            ("tools/abs.md", "/etc/passwd"),
            ("tools/loop.md", "loop.md"),
            ("tools/ping.md", "pong.md"),
            ("tools/pong.md", "./ping.md"),
            ("tools/dangling.md", "nothing.md"),
            ("tools/folder.md", "../common"),
            ("top.md", "b.md"),
        ]
        .into_iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
        let mut memo = HashMap::new();
        let mut oid = |p: &str| follow(Path::new(p), &targets, &files, &mut memo).map(|b| b.oid);
        assert_eq!(oid("tools/a.md").as_deref(), Some("a"));
        assert_eq!(oid("tools/chain.md").as_deref(), Some("a"));
        assert_eq!(oid("top.md").as_deref(), Some("b"));
        for out in [
            "tools/up.md",
            "tools/abs.md",
            "tools/loop.md",
            "tools/ping.md",
            "tools/pong.md",
            "tools/dangling.md",
            "tools/folder.md",
        ] {
            assert_eq!(oid(out), None, "{out}");
        }
    }
}
