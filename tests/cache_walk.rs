//! The cache beyond one file's content: what the walk finds (a new file, a changed ignore
//! file, a folder excluded and entered again), paths shown from where the run is, a
//! link out of the repository (never read, cached or not), an editor's buffer (never stored),
//! the cache of another version left alone, and the fixtures saying the same with and without
//! the cache. The trees are dated an hour back, so that the folders' and files' times are
//! trusted as they are in a repository nobody touched in the last seconds.

mod common;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

use common::cache::{copy_dir, counts, json, run, run_with, three_tools};
use common::{Repo, VALID_SCHEMA, VALID_TOOL};

/// Date every file and folder under `dir` an hour back.
fn age(dir: &Path) {
    let then = SystemTime::now() - Duration::from_secs(3600);
    for entry in std::fs::read_dir(dir).expect("list").filter_map(Result::ok) {
        let path = entry.path();
        let kind = entry.file_type().expect("kind");
        if kind.is_symlink() {
            continue;
        }
        if kind.is_dir() {
            age(&path);
        }
        let file = if kind.is_dir() {
            std::fs::File::open(&path)
        } else {
            std::fs::OpenOptions::new().write(true).open(&path)
        };
        file.and_then(|f| f.set_modified(then))
            .expect("set the time");
    }
    std::fs::File::open(dir)
        .and_then(|f| f.set_modified(then))
        .expect("set the time");
}

/// Three DojOps tools, one with a finding, dated an hour back.
fn repo() -> Repo {
    let repo = three_tools();
    warm(&repo);
    repo
}

/// Run until the cache has settled (the first run writes it, the second notes what the
/// folders said), the tree dated back in between.
fn warm(repo: &Repo) {
    run(&repo.root, &[]);
    age(&repo.root);
    run(&repo.root, &[]);
    run(&repo.root, &[]);
}

fn uncached(repo: &Repo, args: &[&str]) -> String {
    let mut args = args.to_vec();
    args.push("--no-cache");
    json(&run(&repo.root, &args))
}

#[test]
fn an_unchanged_repository_is_read_from_the_cache_and_its_walk() {
    let repo = repo();
    let out = run(&repo.root, &[]);
    assert_eq!(counts(&out), (3, 0));
    assert!(json(&out).contains("DOJ003"));
    assert_eq!(json(&out), uncached(&repo, &[]));
}

#[test]
fn a_new_tool_in_an_unchanged_tree_is_found() {
    let repo = repo();
    repo.write(
        ".dojops/tools/d/tool.yaml",
        VALID_TOOL.replace("my-tool", "tool-a").as_bytes(),
    );
    repo.write(".dojops/tools/d/input.schema.json", VALID_SCHEMA.as_bytes());
    let out = run(&repo.root, &[]);
    assert_eq!(counts(&out), (3, 1));
    assert!(json(&out).contains("DOJ011"), "{}", json(&out));
    assert_eq!(json(&out), uncached(&repo, &[]));
}

#[test]
fn a_schema_file_created_where_a_tool_looked_for_it_is_seen() {
    let repo = repo();
    // Tool c names an output schema that is not there yet.
    let tool = VALID_TOOL.replace("my-tool", "tool-c") + "outputSchema: \"output.schema.json\"\n";
    repo.write(".dojops/tools/c/tool.yaml", tool.as_bytes());
    warm(&repo);
    assert!(json(&run(&repo.root, &[])).contains("DOJ009"));
    repo.write(
        ".dojops/tools/c/output.schema.json",
        VALID_SCHEMA.as_bytes(),
    );
    let out = run(&repo.root, &[]);
    assert_eq!(counts(&out), (2, 1));
    assert!(!json(&out).contains("DOJ009"), "{}", json(&out));
    assert_eq!(json(&out), uncached(&repo, &[]));
}

#[test]
fn an_ignore_file_changed_in_place_changes_the_walk() {
    let repo = repo();
    repo.write(".gitignore", b"# nothing yet\n");
    warm(&repo);
    assert!(json(&run(&repo.root, &[])).contains("DOJ003"));
    // The same file written again: the folder's time does not change, the file's does.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(repo.root.join(".gitignore"))
        .expect("open");
    file.write_all(b".dojops/tools/c/\n").expect("write");
    drop(file);
    let out = run(&repo.root, &[]);
    assert!(!json(&out).contains("DOJ003"), "{}", json(&out));
    assert_eq!(counts(&out), (2, 0));
    assert_eq!(json(&out), uncached(&repo, &[]));
}

#[test]
fn a_folder_excluded_and_entered_again_is_walked() {
    let repo = repo();
    let out = run(&repo.root, &["--exclude", ".dojops/tools/c"]);
    assert!(!json(&out).contains("DOJ003"), "{}", json(&out));
    let out = run(&repo.root, &[]);
    assert!(json(&out).contains("DOJ003"), "{}", json(&out));
    assert_eq!(json(&out), uncached(&repo, &[]));
}

#[test]
fn paths_in_messages_are_shown_from_where_the_run_is() {
    let repo = repo();
    // A missing schema: its message names the schema file relative to the working folder.
    std::fs::remove_file(repo.root.join(".dojops/tools/b/input.schema.json")).expect("rm");
    let inside = repo.root.join(".dojops");
    for dir in [&repo.root, &inside, &repo.root] {
        let out = run(dir, &["."]);
        let plain = json(&run(dir, &[".", "--no-cache"]));
        assert_eq!(json(&out), plain, "from {}", dir.display());
    }
}

/// A tool whose manifest and schema are links out of the repository: never read, with or
/// without the cache, and never taken from it either.
#[cfg(unix)]
#[test]
fn a_link_out_of_the_repository_is_never_read() {
    let repo = repo();
    let outside = Repo::new();
    outside.write(
        "secret.yaml",
        VALID_TOOL.replace("my-tool", "tool-secret-xyz").as_bytes(),
    );
    outside.write("schema.json", b"{\"secret-key-xyz\": 1}");
    std::fs::create_dir_all(repo.root.join(".dojops/tools/e")).expect("mkdir");
    std::os::unix::fs::symlink(
        outside.root.join("secret.yaml"),
        repo.root.join(".dojops/tools/e/tool.yaml"),
    )
    .expect("link");
    let schema = repo.root.join(".dojops/tools/a/input.schema.json");
    std::fs::remove_file(&schema).expect("rm");
    std::os::unix::fs::symlink(outside.root.join("schema.json"), &schema).expect("link");
    for _ in 0..3 {
        let out = run(&repo.root, &[]);
        let text = json(&out);
        assert_eq!(text.matches("\"SYN012\"").count(), 2, "{text}");
        assert!(!text.contains("xyz"), "{text}");
        assert_eq!(text, uncached(&repo, &[]));
    }
}

#[test]
fn an_editors_buffer_is_checked_and_never_stored() {
    let repo = repo();
    let fixed = VALID_TOOL.replace("my-tool", "tool-c");
    let args = ["--stdin-filename", ".dojops/tools/c/tool.yaml"];
    let out = run_with(&repo.root, &args, Some(&fixed));
    assert!(!json(&out).contains("DOJ003"), "{}", json(&out));
    // The disk still holds the broken name, and the next run says so.
    let out = run(&repo.root, &[]);
    assert!(json(&out).contains("DOJ003"), "{}", json(&out));
    assert_eq!(json(&out), uncached(&repo, &[]));
}

#[test]
fn another_versions_cache_is_left_alone() {
    let repo = repo();
    let other = repo.root.join(".toolc_cache/0.0.0-other");
    std::fs::create_dir_all(&other).expect("mkdir");
    std::fs::write(other.join("files.bin"), b"toolc\0c\0 from another version").expect("write");
    let out = run(&repo.root, &[]);
    assert_eq!(counts(&out), (3, 0));
    assert_eq!(
        std::fs::read(other.join("files.bin")).expect("read"),
        b"toolc\0c\0 from another version"
    );
}

#[test]
fn the_fixtures_say_the_same_with_and_without_the_cache() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for entry in std::fs::read_dir(fixtures)
        .expect("fixtures")
        .filter_map(Result::ok)
    {
        if !entry.path().is_dir() {
            continue;
        }
        let repo = Repo::new();
        copy_dir(&entry.path(), &repo.root);
        let plain = uncached(&repo, &[]);
        // Fresh, then settled with trusted times.
        assert_eq!(
            json(&run(&repo.root, &[])),
            plain,
            "{}",
            entry.path().display()
        );
        age(&repo.root);
        for _ in 0..2 {
            assert_eq!(
                json(&run(&repo.root, &[])),
                plain,
                "{}",
                entry.path().display()
            );
        }
    }
}

#[test]
fn a_nested_configuration_the_walk_ignores_still_governs_its_folder() {
    let repo = repo();
    repo.write(".gitignore", b".dojops/tools/c/toolc.toml\n");
    repo.write(
        ".dojops/tools/c/toolc.toml",
        b"[runtimes]\ndojops = \"1.0.9\"\n[rules]\nDOJ003 = \"off\"\n",
    );
    warm(&repo);
    // The walk is replayed: it knows the folder holds a configuration it does not list.
    let out = run(&repo.root, &[]);
    assert!(!json(&out).contains("DOJ003"), "{}", json(&out));
    assert_eq!(json(&out), uncached(&repo, &[]));
}

#[test]
fn a_nested_configuration_changed_in_place_changes_the_releases_reported() {
    let repo = repo();
    repo.write(
        ".dojops/tools/a/toolc.toml",
        b"[runtimes]\ndojops = \"1.0.9\"\n",
    );
    warm(&repo);
    assert!(!json(&run(&repo.root, &[])).contains("DOJ024"));
    // Written again in place: the folder's time does not change; the project now targets
    // current DojOps, which no longer loads `tool.yaml` (a cross-file finding).
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(repo.root.join(".dojops/tools/a/toolc.toml"))
        .expect("open");
    file.write_all(b"# current DojOps\n").expect("write");
    drop(file);
    let out = run(&repo.root, &[]);
    assert!(json(&out).contains("DOJ024"), "{}", json(&out));
    assert_eq!(json(&out), uncached(&repo, &[]));
}
