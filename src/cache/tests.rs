//! The cache's entries read back as what was stored, and only then.

use super::*;
use std::collections::HashSet;

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
    let text = "spec: 1\nname: Tool_A\nversion: \"1.0.0\"\ntype: tool\ndescription: \"x\"\ninputSchema: \"input.schema.json\"\ngenerator:\n  strategy: llm\n  systemPrompt: \"p\"\nfiles:\n  - path: \"out/a.yaml\"\n    serializer: yaml\n";
    std::fs::write(&path, text).expect("write");
    let schema = r#"{"type": "object", "properties": {"x": {"type": "string"}}}"#;
    std::fs::write(dir.join(".dojops/tools/a/input.schema.json"), schema).expect("write");
    path
}

fn open(dir: &Path, build: &str) -> Cache {
    let config = Config::default();
    Cache::open_as(dir, dir, &config, Passes::default(), build.into())
}

/// `cache`'s answer for `path` read as `f` (claimed by content), with `b` the files an
/// editor holds.
fn lookup<'c>(cache: &'c Cache, path: &Path, f: FormatId, b: &HashSet<&Path>) -> Option<Hit<'c>> {
    let fs: Arc<dyn FileSystem> = Arc::new(Disk);
    let lookup = Lookup {
        path,
        format: f,
        claim: Claim::ByContent,
        fs: &fs,
        buffered: b,
        custom: 0,
    };
    cache.get(&lookup)
}

fn load_and_store(cache: &Cache, path: &Path) -> FileResult {
    let stat = Stat::of(path);
    let tracker = Tracker::new(&Disk);
    let result = crate::formats::load_judged_with(
        &tracker,
        path,
        "a".into(),
        FormatId::DojopsTool,
        Claim::ByContent,
        Passes::default(),
    );
    let (deps, _) = tracker.finish(path);
    assert!(!deps.is_empty(), "the schema file is a dependency");
    cache.put(
        (path, FormatId::DojopsTool),
        stat,
        Claim::ByContent,
        result.as_ref(),
        &deps,
        0,
    );
    result.expect("claimed")
}

#[test]
fn an_entry_reads_back_as_the_file_it_was_made_from() {
    let dir = temp("roundtrip");
    let path = tool(&dir);
    let cache = open(&dir, "build A");
    let fresh = load_and_store(&cache, &path);
    cache.save(std::slice::from_ref(&dir));
    let cache = open(&dir, "build A");
    let hit = lookup(&cache, &path, FormatId::DojopsTool, &HashSet::new())
        .and_then(|h| h.result)
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
    // Another build never uses it, nor a lookup as another format.
    let other = open(&dir, "build B");
    assert!(lookup(&other, &path, FormatId::DojopsTool, &HashSet::new()).is_none());
    let cache = open(&dir, "build A");
    assert!(
        lookup(&cache, &path, FormatId::CycodTool, &HashSet::new()).is_none(),
        "another format is a miss"
    );
    // A schema file with an editor's buffer over it is read as the buffer says.
    let schema = dir.join(".dojops/tools/a/input.schema.json");
    let buffered = HashSet::from([schema.as_path()]);
    assert!(lookup(&cache, &path, FormatId::DojopsTool, &buffered).is_none());
    // Nor does another configuration.
    let file = crate::source::SourceFile::new(
        dir.join("toolc.toml"),
        "toolc.toml".into(),
        FormatId::Config,
        "[rules]\nDOJ003 = \"off\"\n".into(),
    );
    let configured = Config::parse(file, dir.clone()).expect("a configuration");
    let cache = Cache::open_as(&dir, &dir, &configured, Passes::default(), "build A".into());
    assert!(lookup(&cache, &path, FormatId::DojopsTool, &HashSet::new()).is_none());
}

/// Files written within two seconds of a run are hashed by the next one: the same bytes
/// are a hit, other bytes of the same size and time a miss.
#[test]
fn a_file_of_the_runs_clock_tick_is_hashed_again() {
    let dir = temp("racy");
    let path = tool(&dir);
    let cache = open(&dir, "build A");
    load_and_store(&cache, &path);
    cache.save(std::slice::from_ref(&dir));
    let text = std::fs::read_to_string(&path).expect("read");
    let mtime = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");
    let same_size = text.replace("Tool_A", "Tool_B");
    let f = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&path)
        .expect("open");
    std::io::Write::write_all(&mut &f, same_size.as_bytes()).expect("write");
    f.set_modified(mtime).expect("set mtime");
    drop(f);
    let cache = open(&dir, "build A");
    assert!(lookup(&cache, &path, FormatId::DojopsTool, &HashSet::new()).is_none());
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
        Arc::new([]),
        &(Arc::new(Disk) as Arc<dyn FileSystem>),
    );
    std::fs::write(&path, "name: changed\n").expect("write");
    // Changed since it was checked: no stale text under old spans.
    assert_eq!(file.text.as_str(), "");
    assert_eq!(file.position(10).line, 1);
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
    assert!(matches!(deps[0].seen, track::Seen::Read(stat, _) if stat == track::Stat::UNTRUSTED));
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
            .all(|d| matches!(d.seen, track::Seen::Absent) && d.seen.unchanged(d.path(), &Disk))
    );
    // Created since: no longer what was seen.
    std::fs::write(&missing, "{}").expect("write");
    assert!(!deps.iter().all(|d| d.seen.unchanged(d.path(), &Disk)));

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
