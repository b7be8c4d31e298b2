//! The content cache: what each definition file contributed when it was last loaded, kept in
//! `.toolc_cache/` at the repository root so that a re-check loads only the files that
//! changed.
//!
//! - **What is stored.** Per definition file: its diagnostics, suppression comments and the
//!   format's typed item (the facts resolve, the bundles and an editor read), without its
//!   text, plus the companion files its load read (DojOps schema files). Everything the
//!   configuration decides (severities, `select`/`ignore`, suppression, cross-file rules,
//!   CMP targets) runs after the cache on every run, so a configuration change never needs
//!   an invalidation; what the configuration decides *before* a load, the file's format, is
//!   part of the entry and a mismatch is a miss.
//! - **Keys.** An entry is for one path and holds the file's size, modification time and
//!   inode (a first filter, as ruff does) and the SHA-256 of its bytes. A file whose metadata
//!   is unchanged is not read; one whose metadata changed is hashed, and is a hit when its
//!   bytes did not. A file modified within a second of the run that stored it is always
//!   hashed (a change in the same clock tick keeps its mtime). Every other path the load read
//!   or looked for is checked the same way (a schema file created, changed or deleted is a
//!   miss).
//! - **Versions.** The cache file lives under the toolc version and records the build (the
//!   version, the commit and the executable's size and time): any other build ignores it.
//! - **Trust.** The file ends with a SHA-256 of its content; a damaged, truncated or foreign
//!   file is ignored as a whole, an entry that does not decode completely is a miss. Nothing
//!   read from the cache can make a check fail differently than without it.
//! - **Concurrency.** A run writes a new cache file beside the old one and renames it into
//!   place: a reader sees the old file or the new one, never half of one; of two runs ending
//!   together the last rename wins, and both files are whole.

mod codec;
mod serde_helpers;
mod track;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

pub use serde_helpers::{StaticStr, json_option, static_str};
pub use track::{Dep, Stat, Tracker};

use crate::formats::FileResult;
use crate::fs::FileSystem;
use crate::source::{Digest, FormatId, sha256};
use codec::Stored;

/// The cache folder's name, at the repository root.
pub const DIR: &str = ".toolc_cache";

/// Bumped when the layout of the cache file changes.
const LAYOUT: u32 = 1;

/// How the cache file starts.
const MAGIC: &[u8; 8] = b"toolc\0c\0";

/// One cached file.
#[derive(Serialize, Deserialize)]
struct Entry {
    format: FormatId,
    stat: Stat,
    digest: Digest,
    /// Stored within a second of its modification: the metadata filter is not trusted.
    racy: bool,
    deps: Vec<Dep>,
    /// A [`Stored`], encoded: decoded only when the entry is used.
    result: Blob,
}

/// Bytes that serde writes as one byte string (not one element per byte).
#[derive(Clone)]
struct Blob(Vec<u8>);

impl Serialize for Blob {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Blob {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Blob, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Blob;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Blob, E> {
                Ok(Blob(v.to_vec()))
            }
        }
        d.deserialize_bytes(V)
    }
}

/// The whole cache file, before its checksum.
#[derive(Serialize, Deserialize)]
struct CacheFile {
    layout: u32,
    build: String,
    entries: Vec<(PathBuf, Entry)>,
}

/// What one run did with the cache, for `--statistics` and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Files taken from the cache.
    pub hits: usize,
    /// Files loaded (and stored, when their format is cached).
    pub loaded: usize,
}

/// The cache of one repository for one run: the entries read at the start, and what the run
/// adds; [`Cache::save`] writes them back.
pub struct Cache {
    file: PathBuf,
    build: String,
    started: SystemTime,
    old: HashMap<PathBuf, Entry>,
    /// Old entries that were used as they are.
    kept: Mutex<HashSet<PathBuf>>,
    /// Entries made (or whose metadata was refreshed) in this run.
    fresh: Mutex<Vec<(PathBuf, Entry)>>,
    /// True when the file on disk no longer says what this run found.
    changed: AtomicBool,
    hits: AtomicUsize,
    loaded: AtomicUsize,
}

/// The build that writes and reads a cache: another build never trusts its entries.
fn build_id() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| Stat::of_metadata(&m))
        .map(|s| format!("{}.{}.{}", s.len, s.mtime_secs, s.mtime_nanos))
        .unwrap_or_default();
    format!("{} {exe}", env!("TOOLC_VERSION"))
}

impl Cache {
    /// The cache of the repository at `root`; empty when there is none yet or it cannot be
    /// used (another build's, damaged, unreadable).
    pub fn open(root: &Path) -> Cache {
        Cache::open_as(root, build_id())
    }

    /// [`Cache::open`] for the build called `build`.
    fn open_as(root: &Path, build: String) -> Cache {
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
        let file = root.join(DIR).join(version).join("files.bin");
        let old = std::fs::read(&file)
            .ok()
            .and_then(|bytes| read_entries(&bytes, &build))
            .unwrap_or_default();
        Cache {
            file,
            build,
            started: SystemTime::now(),
            old,
            kept: Mutex::new(HashSet::new()),
            fresh: Mutex::new(Vec::new()),
            changed: AtomicBool::new(false),
            hits: AtomicUsize::new(0),
            loaded: AtomicUsize::new(0),
        }
    }

    /// What this run did so far.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            loaded: self.loaded.load(Ordering::Relaxed),
        }
    }

    /// The file at `path`, read as `format`, from the cache, when neither it nor anything its
    /// load read has changed (and none of that has a buffer in `buffered`). `fs` is where the
    /// run reads files; `cwd` what paths are shown relative to.
    pub fn get(
        &self,
        path: &Path,
        format: FormatId,
        cwd: &Path,
        fs: &dyn FileSystem,
        buffered: &HashSet<&Path>,
    ) -> Option<FileResult> {
        let entry = self.old.get(path)?;
        if entry.format != format || entry.deps.iter().any(|d| buffered.contains(d.path())) {
            return None;
        }
        let now = Stat::of(path)?;
        let same = !entry.racy && now == entry.stat;
        if !same && sha256(&fs.read(path).ok()?) != entry.digest {
            return None;
        }
        if !entry.deps.iter().all(|d| d.unchanged(fs)) {
            return None;
        }
        let stored: Stored = postcard::from_bytes(&entry.result.0).ok()?;
        let result = stored.load(path, format, cwd)?;
        if result.file.digest() != entry.digest {
            return None;
        }
        self.hits.fetch_add(1, Ordering::Relaxed);
        let racy = self.is_racy(&now);
        if same && !racy {
            lock(&self.kept).insert(path.to_path_buf());
        } else {
            // Same bytes under new metadata: remember the new metadata, so the next run
            // does not hash the file again.
            self.changed.store(true, Ordering::Relaxed);
            let entry = Entry {
                format,
                stat: now,
                digest: entry.digest,
                racy,
                deps: entry.deps.clone(),
                result: entry.result.clone(),
            };
            lock(&self.fresh).push((path.to_path_buf(), entry));
        }
        Some(result)
    }

    /// Remember `result`, loaded from the file at `path` whose metadata was `stat` before it
    /// was read, and whose load read or looked for `deps`.
    pub fn put(&self, path: &Path, stat: Option<Stat>, result: &FileResult, deps: Vec<Dep>) {
        self.loaded.fetch_add(1, Ordering::Relaxed);
        self.changed.store(true, Ordering::Relaxed);
        let Some(stat) = stat else { return };
        let Some(stored) = Stored::of(result) else {
            return;
        };
        let Ok(bytes) = postcard::to_allocvec(&stored) else {
            return;
        };
        let entry = Entry {
            format: result.file.format,
            racy: self.is_racy(&stat),
            stat,
            digest: result.file.digest(),
            deps,
            result: Blob(bytes),
        };
        lock(&self.fresh).push((path.to_path_buf(), entry));
    }

    /// Modified too close to now for its metadata to tell a later change apart.
    fn is_racy(&self, stat: &Stat) -> bool {
        let mtime =
            SystemTime::UNIX_EPOCH + Duration::new(stat.mtime_secs.max(0) as u64, stat.mtime_nanos);
        mtime + Duration::from_secs(2) >= self.started
    }

    /// Write the cache back when this run changed it: its own entries, and the old entries
    /// of files outside the walked `roots` (an old entry under them that was not used is of
    /// a file that is gone or changed).
    pub fn save(self, roots: &[PathBuf]) {
        let mut entries = self.fresh.into_inner().unwrap_or_else(|e| e.into_inner());
        let kept = self.kept.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut changed = self.changed.into_inner();
        let renewed: HashSet<PathBuf> = entries.iter().map(|(p, _)| p.clone()).collect();
        for (path, entry) in self.old {
            if renewed.contains(&path) {
                continue;
            }
            if kept.contains(&path) || !roots.iter().any(|r| path.starts_with(r)) {
                entries.push((path, entry));
            } else {
                changed = true;
            }
        }
        if !changed {
            return;
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|a, b| a.0 == b.0);
        let file = CacheFile {
            layout: LAYOUT,
            build: self.build,
            entries,
        };
        // A cache that cannot be written costs the next run time, never a result.
        let _ = write(&self.file, &file);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The entries of a cache file's bytes, when they are whole and of this `build`.
fn read_entries(bytes: &[u8], build: &str) -> Option<HashMap<PathBuf, Entry>> {
    let body = bytes.strip_prefix(MAGIC.as_slice())?;
    let (body, sum) = body.split_at_checked(body.len().checked_sub(32)?)?;
    if sha256(body).as_slice() != sum {
        return None;
    }
    let file: CacheFile = postcard::from_bytes(body).ok()?;
    if file.layout != LAYOUT || file.build != build {
        return None;
    }
    Some(file.entries.into_iter().collect())
}

/// Write `file` to `path` through a temporary file renamed into place.
fn write(path: &Path, file: &CacheFile) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    if let Some(top) = dir.parent() {
        mark(top)?;
    }
    let body = postcard::to_allocvec(file).map_err(std::io::Error::other)?;
    let mut bytes = Vec::with_capacity(MAGIC.len() + body.len() + 32);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&body);
    bytes.extend_from_slice(&sha256(&body));
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".files.{}.{nanos}.tmp", std::process::id()));
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Make `dir` (the `.toolc_cache` folder) ignored by git and by backup tools.
fn mark(dir: &Path) -> std::io::Result<()> {
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(
            ignore,
            "# Written by toolc: the whole folder is a cache.\n*\n",
        )?;
    }
    let tag = dir.join("CACHEDIR.TAG");
    if !tag.exists() {
        std::fs::write(
            tag,
            "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by toolc.\n",
        )?;
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Disk;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("toolc-cache-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".dojops/tools/a")).expect("mkdir");
        dir
    }

    /// One tool with a finding (a name that is not kebab-case) and its schema.
    fn tool(dir: &Path) -> PathBuf {
        let path = dir.join(".dojops/tools/a/tool.yaml");
        std::fs::write(
            &path,
            "spec: 1\nname: Tool_A\nversion: \"1.0.0\"\ntype: tool\ndescription: \"x\"\ninputSchema: \"input.schema.json\"\ngenerator:\n  strategy: llm\n  systemPrompt: \"p\"\nfiles:\n  - path: \"out/a.yaml\"\n    serializer: yaml\n",
        )
        .expect("write");
        std::fs::write(
            dir.join(".dojops/tools/a/input.schema.json"),
            r#"{"type": "object", "properties": {"x": {"type": "string"}}}"#,
        )
        .expect("write");
        path
    }

    fn load_and_store(cache: &Cache, path: &Path) -> FileResult {
        let stat = Stat::of(path);
        let tracker = Tracker::new(&Disk);
        let result = crate::formats::load_with(&tracker, path, "a".into(), FormatId::DojopsTool);
        let (deps, _) = tracker.finish(path);
        assert!(!deps.is_empty(), "the schema file is a dependency");
        cache.put(path, stat, &result, deps);
        result
    }

    #[test]
    fn an_entry_reads_back_as_the_file_it_was_made_from() {
        let dir = temp("roundtrip");
        let path = tool(&dir);
        let cache = Cache::open_as(&dir, "build A".into());
        let fresh = load_and_store(&cache, &path);
        cache.save(std::slice::from_ref(&dir));
        let cache = Cache::open_as(&dir, "build A".into());
        let hit = cache
            .get(&path, FormatId::DojopsTool, &dir, &Disk, &HashSet::new())
            .expect("a hit");
        assert_eq!(cache.stats(), CacheStats { hits: 1, loaded: 0 });
        let show = |r: &FileResult| -> Vec<String> {
            r.diagnostics
                .iter()
                .map(|d| {
                    format!(
                        "{} {:?} {} {:?} {:?}",
                        d.rule.code, d.span, d.message, d.help, d.fix
                    )
                })
                .collect()
        };
        assert_eq!(show(&hit), show(&fresh));
        assert!(!show(&hit).is_empty());
        assert_eq!(hit.companions.len(), fresh.companions.len());
        assert_eq!(hit.tool_count(), 1);
        // The text is read back from disk only when asked for, and is the file's.
        assert!(!hit.file.text.is_held());
        assert_eq!(hit.file.text.as_str(), fresh.file.text.as_str());
        // Another build, or the same build with a file gone wrong, never uses it.
        let other = Cache::open_as(&dir, "build B".into());
        assert!(
            other
                .get(&path, FormatId::DojopsTool, &dir, &Disk, &HashSet::new())
                .is_none()
        );
        let cache = Cache::open_as(&dir, "build A".into());
        assert!(
            cache
                .get(&path, FormatId::CycodTool, &dir, &Disk, &HashSet::new())
                .is_none(),
            "another format is a miss"
        );
        // A schema file with an editor's buffer over it is read as the buffer says.
        let schema = dir.join(".dojops/tools/a/input.schema.json");
        let buffered = HashSet::from([schema.as_path()]);
        assert!(
            cache
                .get(&path, FormatId::DojopsTool, &dir, &Disk, &buffered)
                .is_none()
        );
    }

    #[test]
    fn text_read_back_must_match_the_digest() {
        let dir = temp("digest");
        let path = tool(&dir);
        let bytes = std::fs::read(&path).expect("read");
        let file = crate::source::SourceFile::unread(
            path.clone(),
            "a".into(),
            FormatId::DojopsTool,
            0,
            sha256(&bytes),
            Vec::new(),
        );
        std::fs::write(&path, "name: changed\n").expect("write");
        // Changed since it was checked: no stale text under old spans.
        assert_eq!(file.text.as_str(), "");
        assert_eq!(file.position(10).line, 1);
    }
}
