//! The boundary: what configuration and the command line may name, read and write.

use super::*;

/// A fresh repository (with `.git`) and a folder outside it, for one test.
fn layout(name: &str) -> (PathBuf, PathBuf) {
    let base = std::env::temp_dir().join(format!("toolc-boundary-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("repo/.git/hooks")).expect("mkdir");
    std::fs::create_dir_all(base.join("outside")).expect("mkdir");
    std::fs::write(base.join("outside/secret"), "hunter2").expect("write");
    let base = std::fs::canonicalize(&base).expect("real path");
    (base.join("repo"), base.join("outside"))
}

/// The names of what `folder` holds.
fn names_in(folder: &Path) -> Vec<String> {
    std::fs::read_dir(folder)
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect()
}

#[test]
fn configuration_names_nothing_outside_or_in_git() {
    let (repo, outside) = layout("configured");
    let repository = Repository::of(&repo);
    let at = |raw: &str| repository.configured(Path::new(raw), &repo);
    assert!(at("toolc-baseline.json").is_ok());
    assert!(at("reports/new/baseline.json").is_ok());
    assert_eq!(at(".git/hooks/pre-commit"), Err(Refused::IntoGit));
    assert_eq!(at("a/../.GIT/config"), Err(Refused::IntoGit));
    assert!(matches!(
        at("../outside/secret"),
        Err(Refused::Outside { .. })
    ));
    assert!(matches!(
        at(outside.join("secret").to_str().expect("UTF-8")),
        Err(Refused::Outside { .. })
    ));
}

#[cfg(unix)]
#[test]
fn links_are_followed_inside_only_and_never_written_through() {
    use std::os::unix::fs::symlink;
    let (repo, outside) = layout("links");
    std::fs::write(repo.join("real.json"), "{}").expect("write");
    symlink(outside.join("secret"), repo.join("out.json")).expect("link");
    symlink(&outside, repo.join("out-dir")).expect("link");
    symlink(repo.join(".git/hooks"), repo.join("hooks")).expect("link");
    symlink(repo.join("real.json"), repo.join("in.json")).expect("link");
    let repository = Repository::of(&repo);
    let at = |raw: &str| repository.configured(Path::new(raw), &repo);
    assert!(matches!(at("out.json"), Err(Refused::LinkOut { .. })));
    assert!(matches!(
        at("out-dir/new.json"),
        Err(Refused::LinkOut { .. })
    ));
    assert_eq!(at("hooks/pre-commit"), Err(Refused::LinkIntoGit));
    let inside = at("in.json").expect("a link that stays inside");
    assert_eq!(inside.read().as_deref(), Ok(&b"{}"[..]));
    let refused = inside
        .write(b"[]")
        .expect_err("never written through a link");
    assert!(refused.to_string().contains("symbolic link"), "{refused}");
    assert_eq!(std::fs::read(repo.join("real.json")).expect("read"), b"{}");
    // The same names on the command line: a link out is refused there too.
    assert!(matches!(
        named(Path::new("out.json"), &repo),
        Err(Refused::LinkOut { .. })
    ));
    assert!(matches!(
        named(Path::new("out-dir/secret"), &repo),
        Err(Refused::LinkOut { .. })
    ));
    // Named outside every repository, through no link: allowed (the user said so).
    assert!(named(&outside.join("secret"), &repo).is_ok());
    assert_eq!(
        std::fs::read(outside.join("secret")).expect("read"),
        b"hunter2"
    );
}

#[test]
fn a_write_replaces_the_file_whole_and_creates_its_folders() {
    let (repo, _) = layout("write");
    let repository = Repository::of(&repo);
    let at = repository
        .configured(Path::new("reports/b.json"), &repo)
        .expect("inside");
    at.write(b"one").expect("write");
    at.write(b"two").expect("write again");
    assert_eq!(
        std::fs::read(repo.join("reports/b.json")).expect("read"),
        b"two"
    );
    assert_eq!(names_in(&repo.join("reports")), ["b.json"]);
    // A plain name below a path; never `..`.
    assert!(at.join(Path::new("x")).is_some());
    assert!(at.join(Path::new("../x")).is_none());
    assert!(at.join(Path::new(".git/x")).is_none());
}

/// A write that fails, or panics, while it is being made leaves the file as it was and no
/// temporary file beside it (the cache's archive is encoded while it is written).
#[test]
fn a_write_that_stops_halfway_leaves_nothing_behind() {
    let (repo, _) = layout("halfway");
    let at = Repository::of(&repo)
        .configured(Path::new("cache/files.bin"), &repo)
        .expect("inside");
    at.write(b"whole").expect("write");
    let failed = at.write_with(|f| {
        std::io::Write::write_all(f, b"half")?;
        Err(std::io::Error::other("encoding failed"))
    });
    assert!(failed.is_err());
    let panicked = std::panic::catch_unwind(|| {
        let _ = at.write_with(|f| {
            std::io::Write::write_all(f, b"half").expect("write");
            panic!("encoding panicked");
        });
    });
    assert!(panicked.is_err());
    assert_eq!(
        std::fs::read(repo.join("cache/files.bin")).expect("read"),
        b"whole"
    );
    assert_eq!(names_in(&repo.join("cache")), ["files.bin"]);
}

/// A device or FIFO at the path is written to, never replaced by a file: a report sent to
/// `/dev/null` must leave `/dev/null` a device. Shown with a FIFO nobody reads: the write
/// fails at once (no reader), and the FIFO is still there.
#[cfg(unix)]
#[test]
fn a_special_file_is_never_replaced_and_a_fifo_never_waited_on() {
    use std::os::unix::fs::FileTypeExt;
    let (repo, _) = layout("special");
    let fifo = repo.join("report.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let at = named(Path::new("report.fifo"), &repo).expect("named");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(at.write(b"{}").is_err()));
    let failed = rx.recv_timeout(std::time::Duration::from_secs(10));
    assert_eq!(failed, Ok(true), "the write must fail at once, not wait");
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("still there")
        .file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced");
}

#[cfg(unix)]
#[test]
fn a_named_path_may_not_go_up_out_of_a_link() {
    let (repo, outside) = layout("up-through-link");
    std::os::unix::fs::symlink(".", repo.join("l")).expect("link");
    std::os::unix::fs::symlink(&outside, repo.join("o")).expect("link");
    std::fs::create_dir_all(repo.join("d")).expect("mkdir");
    for raw in ["l/..", "l/../repo", "l/d/../..", "o/..", "d/../l/.."] {
        assert_eq!(
            named(Path::new(raw), &repo).err(),
            Some(Refused::UpThroughLink),
            "{raw}"
        );
    }
    for raw in ["d/..", "l/d/..", "l/d", "./d"] {
        assert!(named(Path::new(raw), &repo).is_ok(), "{raw}");
    }
}
