//! The cache's entries read back as what was stored, and only then.

use super::*;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

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

fn disk() -> Arc<dyn FileSystem> {
    Arc::new(Disk)
}

/// `cache`'s answer for `path` read as `format` (claimed by content), run from `dir`, with
/// `buffered` the files an editor holds.
fn lookup(
    cache: &Cache,
    path: &Path,
    format: FormatId,
    dir: &Path,
    buffered: &HashSet<&Path>,
) -> Option<Hit> {
    let fs = disk();
    let lookup = Lookup {
        path,
        format,
        claim: Claim::ByContent,
        cwd: dir,
        fs: &fs,
        buffered,
        track: false,
        reported: None,
    };
    match cache.get(&lookup)? {
        Found::Hit(hit) => Some(hit),
        Found::Deferred(_) => panic!("a lookup that does not defer got a deferred file"),
    }
}

fn load_and_store(cache: &Cache, path: &Path) -> FileResult {
    let stat = Stat::of(path);
    let tracker = Tracker::new(&Disk);
    let result = crate::formats::load_judged(
        &tracker,
        path,
        "a".into(),
        FormatId::DojopsTool,
        Claim::ByContent,
    );
    let (deps, _) = tracker.finish(path);
    assert!(!deps.is_empty(), "the schema file is a dependency");
    cache.put(path, stat, Claim::ByContent, result.as_ref(), &deps);
    result.expect("claimed")
}

#[test]
fn an_entry_reads_back_as_the_file_it_was_made_from() {
    let dir = temp("roundtrip");
    let path = tool(&dir);
    let cache = Cache::open_as(&dir, &dir, "build A".into());
    let fresh = load_and_store(&cache, &path);
    cache.save(std::slice::from_ref(&dir));
    let cache = Cache::open_as(&dir, &dir, "build A".into());
    let hit = lookup(&cache, &path, FormatId::DojopsTool, &dir, &HashSet::new())
        .and_then(|h| h.result)
        .expect("a hit");
    assert_eq!(
        cache.stats(),
        CacheStats {
            hits: 1,
            loaded: 0,
            left: 0
        }
    );
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
    let other = Cache::open_as(&dir, &dir, "build B".into());
    assert!(lookup(&other, &path, FormatId::DojopsTool, &dir, &HashSet::new()).is_none());
    let cache = Cache::open_as(&dir, &dir, "build A".into());
    assert!(
        lookup(&cache, &path, FormatId::CycodTool, &dir, &HashSet::new()).is_none(),
        "another format is a miss"
    );
    // A schema file with an editor's buffer over it is read as the buffer says.
    let schema = dir.join(".dojops/tools/a/input.schema.json");
    let buffered = HashSet::from([schema.as_path()]);
    assert!(lookup(&cache, &path, FormatId::DojopsTool, &dir, &buffered).is_none());
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
        &disk(),
    );
    std::fs::write(&path, "name: changed\n").expect("write");
    // Changed since it was checked: no stale text under old spans.
    assert_eq!(file.text.as_str(), "");
    assert_eq!(file.position(10).line, 1);
}

/// The tool of `tool`, in folder `name` (its name `name`), written anew.
fn tool_named(dir: &Path, name: &str) -> PathBuf {
    let folder = dir.join(".dojops/tools").join(name);
    std::fs::create_dir_all(&folder).expect("mkdir");
    let path = folder.join("tool.yaml");
    let text = std::fs::read_to_string(tool(dir))
        .expect("read")
        .replace("Tool_A", name);
    std::fs::write(&path, text).expect("write");
    std::fs::copy(
        dir.join(".dojops/tools/a/input.schema.json"),
        folder.join("input.schema.json"),
    )
    .expect("copy");
    path
}

/// One run over `paths`: each from the cache when it is there, else loaded and stored;
/// returns how many came from the cache.
fn run_over(dir: &Path, paths: &[PathBuf]) -> usize {
    let cache = Cache::open_as(dir, dir, "build A".into());
    let mut hits = 0;
    for path in paths {
        match lookup(&cache, path, FormatId::DojopsTool, dir, &HashSet::new()) {
            Some(hit) => {
                hits += 1;
                let fresh = std::fs::read_to_string(path).expect("read");
                let hit = hit.result.expect("a result");
                assert_eq!(hit.file.text.as_str(), fresh, "{}", path.display());
            }
            None => {
                load_and_store(&cache, path);
            }
        }
    }
    cache.save(&[dir.to_path_buf()]);
    hits
}

#[test]
fn a_saved_index_carries_the_old_entries_whether_in_place_or_copied() {
    let dir = temp("carried");
    // Dated back: a file of the last two seconds is always hashed again, a hit either way.
    let names: Vec<String> = (0..8).map(|i| format!("t{i}")).collect();
    let paths: Vec<PathBuf> = names.iter().map(|n| tool_named(&dir, n)).collect();
    assert_eq!(run_over(&dir, &paths), 0);
    assert_eq!(run_over(&dir, &paths), paths.len());
    // One file changed: the old index is carried in place, the new record wins.
    std::fs::write(
        &paths[3],
        std::fs::read_to_string(&paths[3]).expect("read") + "# edited\n",
    )
    .expect("write");
    assert_eq!(run_over(&dir, &paths), paths.len() - 1);
    assert_eq!(run_over(&dir, &paths), paths.len());
    // Most files gone: what the old index holds for them is dropped, the rest copied.
    assert_eq!(run_over(&dir, &paths[..2]), 2);
    assert_eq!(run_over(&dir, &paths[..2]), 2);
    assert_eq!(run_over(&dir, &paths), 2);
    assert_eq!(run_over(&dir, &paths), paths.len());
}

#[test]
fn files_stated_ahead_answer_their_lookups_and_changes_still_show() {
    let dir = temp("ahead");
    let names = ["t0", "t1", "t2"];
    let paths: Vec<PathBuf> = names.iter().map(|n| tool_named(&dir, n)).collect();
    assert_eq!(run_over(&dir, &paths), 0);
    assert_eq!(run_over(&dir, &paths), 3);
    // Only the run's roots are stated ahead: here, one tool's folder.
    let cache = Cache::open_as(&dir, &dir, "build A".into());
    let old = cache.old().expect("the cache file");
    let t0 = dir.join(".dojops/tools/t0");
    old.prefetch(std::slice::from_ref(&t0), &AtomicBool::new(false));
    let stated = |p: &Path| old.stated(old.find(p).expect("an entry").0);
    assert!(stated(&paths[0]));
    assert!(!stated(&paths[1]) && !stated(&paths[2]));
    drop(cache);
    // A file and another's schema changed: stated ahead (on the cache's own thread, racing
    // the lookups), both are misses, and the cache saved after it keeps every entry.
    std::fs::write(
        &paths[1],
        std::fs::read_to_string(&paths[1]).expect("read") + "# edited\n",
    )
    .expect("write");
    std::fs::write(dir.join(".dojops/tools/t2/input.schema.json"), "{}").expect("write");
    let cache = Cache::open_as(&dir, &dir, "build A".into());
    cache.prefetch(std::slice::from_ref(&dir));
    let hits: Vec<bool> = paths
        .iter()
        .map(|p| lookup(&cache, p, FormatId::DojopsTool, &dir, &HashSet::new()).is_some())
        .collect();
    assert_eq!(hits, [true, false, false]);
    for path in &paths[1..] {
        load_and_store(&cache, path);
    }
    cache.save(std::slice::from_ref(&dir));
    assert_eq!(run_over(&dir, &paths), 3);
}

/// A file changed between two reads of one load: the load is not stored (its result may
/// come from either), and the first read's record stays.
#[test]
fn a_dependency_read_twice_with_other_bytes_makes_the_load_unstorable() {
    let dir = temp("read-twice");
    let own = dir.join("tool.yaml");
    let schema = dir.join("input.schema.json");
    std::fs::write(&own, "name: x\n").expect("write");
    std::fs::write(&schema, "{}").expect("write");
    let tracker = Tracker::for_file(&Disk, &own);
    assert!(tracker.read(&schema).is_ok());
    assert!(tracker.read(&schema).is_ok());
    let (deps, comparable) = Tracker::finish(tracker, &own);
    assert!(comparable, "the same bytes twice: storable");
    assert_eq!(deps.len(), 1);

    let tracker = Tracker::for_file(&Disk, &own);
    assert!(tracker.read(&schema).is_ok());
    std::fs::write(&schema, "{\"type\": \"object\"}").expect("write");
    assert!(tracker.read(&schema).is_ok());
    let (deps, comparable) = tracker.finish(&own);
    assert!(!comparable, "other bytes the second time: not storable");
    // Written just now: its metadata is not trusted next time (the same clock tick).
    assert!(
        matches!(deps[0].seen(), track::Seen::Read(stat, _) if *stat == track::Stat::UNTRUSTED)
    );
}

#[test]
fn a_result_is_identified_by_what_its_load_read_not_by_when() {
    let sum = |seen: track::Seen| {
        let parts = store::Parts {
            tools: 1,
            ..Default::default()
        };
        let dep = track::Dep::new(PathBuf::from("/r/a/input.schema.json"), seen);
        *parts.checked(&[dep]).sum()
    };
    let read = |mtime_secs, byte| {
        let stat = Stat {
            len: 2,
            mtime_secs,
            mtime_nanos: 0,
            inode: 1,
        };
        sum(track::Seen::Read(stat, [byte; 32]))
    };
    // Touched with the same bytes: the same result; other bytes: another one.
    assert_eq!(read(1, 7), read(2, 7));
    assert_ne!(read(1, 7), read(1, 8));
    assert_ne!(sum(track::Seen::Absent), sum(track::Seen::Present));
    assert_ne!(
        sum(track::Seen::LinkOut(None)),
        sum(track::Seen::LinkOut(Some(String::new())))
    );
}

/// A read of what is not a file (nothing there, a folder) is noted as its absence, which a
/// later run can compare, so the load stays storable; a read that failed otherwise is not.
#[test]
fn reading_what_is_not_a_file_notes_its_absence() {
    let dir = temp("read-absent");
    let own = dir.join("tool.yaml");
    let missing = dir.join("output.schema.json");
    let folder = dir.join("input.schema.json");
    std::fs::write(&own, "name: x\n").expect("write");
    std::fs::create_dir_all(&folder).expect("mkdir");
    let tracker = Tracker::for_file(&Disk, &own);
    assert!(tracker.read(&missing).is_err_and(|e| e.is_not_a_file()));
    assert!(tracker.read(&folder).is_err_and(|e| e.is_not_a_file()));
    let (deps, comparable) = tracker.finish(&own);
    assert!(comparable, "absences are compared again: storable");
    assert!(
        deps.iter()
            .all(|d| matches!(d.seen(), track::Seen::Absent) && d.seen().unchanged(d.path(), &Disk))
    );
    // Created since: no longer what was seen.
    std::fs::write(&missing, "{}").expect("write");
    assert!(!deps.iter().all(|d| d.seen().unchanged(d.path(), &Disk)));

    // A read the system refused (not an absence): a later run could not compare it.
    struct Refusing;
    impl FileSystem for Refusing {
        fn read(&self, _: &Path) -> Result<Vec<u8>, crate::fs::ReadError> {
            Err(crate::fs::ReadError::Io("permission denied".into()))
        }
        fn is_file(&self, _: &Path) -> bool {
            true
        }
    }
    let tracker = Tracker::for_file(&Refusing, &own);
    assert!(tracker.read(&missing).is_err_and(|e| !e.is_not_a_file()));
    let (_, comparable) = tracker.finish(&own);
    assert!(!comparable, "a refused read: not storable");
}
