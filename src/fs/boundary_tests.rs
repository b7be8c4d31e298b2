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

#[test]
fn configuration_names_nothing_outside_or_in_git() {
    let (repo, outside) = layout("configured");
    let repository = Repository::of(&repo);
    let at = |raw: &str| repository.configured(Path::new(raw), &repo);
    assert!(at("toolc-baseline.json").is_ok());
    assert!(at("reports/new/baseline.json").is_ok());
    assert_eq!(at(".git/hooks/pre-commit"), Err(Refused::IntoGit));
    assert_eq!(at("a/../.GIT/config"), Err(Refused::IntoGit));
    assert!(matches!(at("../outside/secret"), Err(Refused::Outside { .. })));
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
    assert!(matches!(at("out-dir/new.json"), Err(Refused::LinkOut { .. })));
    assert_eq!(at("hooks/pre-commit"), Err(Refused::LinkIntoGit));
    let inside = at("in.json").expect("a link that stays inside");
    assert_eq!(inside.read().as_deref(), Ok(&b"{}"[..]));
    let refused = inside.write(b"[]").expect_err("never written through a link");
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
    assert_eq!(std::fs::read(outside.join("secret")).expect("read"), b"hunter2");
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
    assert_eq!(std::fs::read(repo.join("reports/b.json")).expect("read"), b"two");
    let names: Vec<String> = std::fs::read_dir(repo.join("reports"))
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert_eq!(names, ["b.json"]);
    // A plain name below a path; never `..`.
    assert!(at.join(Path::new("x")).is_some());
    assert!(at.join(Path::new("../x")).is_none());
    assert!(at.join(Path::new(".git/x")).is_none());
}
