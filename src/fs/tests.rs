//! The file systems: buffers over the disk, and the disk confined to a repository.

use super::*;

/// A fresh folder for one test (no temp-dir crate is a dependency).
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolc-fs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_buffer_wins_over_the_disk_and_removing_it_reads_the_disk_again() {
    let dir = temp_dir("wins");
    let path = dir.join("a.txt");
    std::fs::write(&path, "disk").expect("write");
    let mut fs = Overlay::default();
    fs.set(path.clone(), b"buffer".to_vec());
    assert_eq!(fs.read(&path).as_deref(), Ok(&b"buffer"[..]));
    assert!(fs.remove(&path));
    assert_eq!(fs.read(&path).as_deref(), Ok(&b"disk"[..]));
}

#[test]
fn a_buffer_makes_a_missing_file_exist() {
    let dir = temp_dir("missing");
    let path = dir.join("new.json");
    let mut fs = Overlay::default();
    assert!(!fs.is_file(&path));
    assert!(matches!(fs.read(&path), Err(ReadError::Missing(_))));
    fs.set(path.clone(), b"{}".to_vec());
    assert!(fs.is_file(&path));
}

#[test]
fn listings_name_links_without_following_them_and_include_buffers() {
    let dir = temp_dir("listing");
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    std::fs::write(dir.join("b.txt"), "b").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc", dir.join("link")).expect("link");
    let mut fs = Overlay::default();
    fs.set(dir.join("a.md"), b"new".to_vec());
    let found: Vec<(String, EntryKind)> = fs
        .list_dir(&dir)
        .into_iter()
        .map(|e| (e.name, e.kind))
        .collect();
    let mut want = vec![
        ("a.md".to_string(), EntryKind::File),
        ("b.txt".to_string(), EntryKind::File),
    ];
    #[cfg(unix)]
    want.push(("link".to_string(), EntryKind::Link));
    want.push(("sub".to_string(), EntryKind::Dir));
    assert_eq!(found, want);
    assert!(Disk.list_dir(&dir.join("b.txt")).is_empty());
}

#[test]
fn the_disk_refuses_a_directory() {
    let dir = temp_dir("directory");
    assert_eq!(Disk.read(&dir), Err(ReadError::Directory));
    assert!(!Disk.is_file(&dir));
}

#[cfg(unix)]
#[test]
fn confined_reads_within_and_refuses_links_out_and_special_files() {
    use std::os::unix::fs::symlink;
    let outside = temp_dir("confined-outside");
    std::fs::write(outside.join("secret.txt"), "hunter2").expect("write");
    let repo = temp_dir("confined-repo");
    std::fs::create_dir_all(repo.join("a/b")).expect("mkdir");
    std::fs::write(repo.join("a/b/tool.yaml"), "name: x").expect("write");
    symlink(&outside, repo.join("out")).expect("link");
    symlink(repo.join("a"), repo.join("in")).expect("link");
    symlink(repo.join("a/b/tool.yaml"), repo.join("alias.yaml")).expect("link");
    let fifo = repo.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let fs = Confined::new([repo.as_path()]);
    let repo = std::fs::canonicalize(&repo).expect("real path");

    assert_eq!(
        fs.read(&repo.join("a/b/tool.yaml")).as_deref(),
        Ok(&b"name: x"[..])
    );
    // Through a link that stays inside: read.
    assert_eq!(
        fs.read(&repo.join("in/b/tool.yaml")).as_deref(),
        Ok(&b"name: x"[..])
    );
    // Through a link that leaves: never read.
    assert_eq!(
        fs.read(&repo.join("out/secret.txt")),
        Err(ReadError::LeavesRepository)
    );
    // The metadata from before a read is the path's own, never a link's target's: the
    // cache keys what it stores by it.
    let plain = fs.read_noted(&repo.join("a/b/tool.yaml"));
    assert!(plain.before.is_some_and(|m| m.is_file() && m.len() == 7));
    let linked = fs.read_noted(&repo.join("alias.yaml"));
    assert!(linked.bytes.is_ok());
    assert!(!linked.before.is_some_and(|m| m.is_file()));
    // `..` out of the root is never read, even with no link on the way.
    let climbing = repo
        .join("..")
        .join(outside.file_name().expect("a name"))
        .join("secret.txt");
    assert_eq!(fs.read(&climbing), Err(ReadError::LeavesRepository));
    assert_eq!(fs.read(&repo.join("a")), Err(ReadError::Directory));
    assert!(matches!(
        fs.read(&repo.join("a/nope.yaml")),
        Err(ReadError::Missing(_))
    ));
    // A FIFO is refused at once (opening it for reading must not wait for a writer), read
    // directly and through a link (the slow way: the path resolved, then read as it is).
    if made.is_ok_and(|s| s.success()) {
        symlink(repo.join("fifo"), repo.join("fifo-link")).expect("link");
        for name in ["fifo", "fifo-link"] {
            // On a thread: were the open to block, the test fails instead of hanging.
            let (tx, rx) = std::sync::mpsc::channel();
            let (reader, path) = (fs.clone(), repo.join(name));
            std::thread::spawn(move || tx.send(reader.read(&path)));
            let read = rx.recv_timeout(std::time::Duration::from_secs(10));
            assert_eq!(
                read,
                Ok(Err(ReadError::Special)),
                "reading `{name}` must not block"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn confined_says_where_a_link_out_leads_without_reading_it() {
    use std::os::unix::fs::symlink;
    let outside = temp_dir("link-out-outside");
    std::fs::write(outside.join("deploy"), "#!/bin/sh").expect("write");
    let repo = temp_dir("link-out-repo");
    std::fs::create_dir_all(repo.join("bin")).expect("mkdir");
    std::fs::write(repo.join("bin/plain"), "#!/bin/sh").expect("write");
    symlink(outside.join("deploy"), repo.join("bin/out")).expect("link");
    symlink("plain", repo.join("bin/in")).expect("link");
    symlink(outside.join("nothing"), repo.join("bin/dangling")).expect("link");
    symlink(&outside, repo.join("linked")).expect("link");
    let fs = Confined::new([repo.as_path()]);
    let repo = std::fs::canonicalize(&repo).expect("real path");
    let outside = std::fs::canonicalize(&outside).expect("real path");

    assert_eq!(fs.link_out(&repo.join("bin/plain")), None);
    assert_eq!(fs.link_out(&repo.join("bin/in")), None);
    assert_eq!(fs.link_out(&repo.join("bin/dangling")), None);
    assert_eq!(fs.link_out(&repo.join("bin/missing")), None);
    assert_eq!(
        fs.link_out(&repo.join("bin/out")),
        Some(outside.join("deploy"))
    );
    // Through a linked folder on the way.
    assert_eq!(
        fs.link_out(&repo.join("linked/deploy")),
        Some(outside.join("deploy"))
    );
    // A buffer is the file itself; other file systems have no links.
    let mut overlay = Overlay::new(Box::new(fs));
    overlay.set(repo.join("bin/out"), b"buffer".to_vec());
    assert_eq!(overlay.link_out(&repo.join("bin/out")), None);
    assert_eq!(
        overlay.link_out(&repo.join("linked/deploy")),
        Some(outside.join("deploy"))
    );
    assert_eq!(Disk.link_out(&repo.join("bin/out")), None);
}

#[cfg(target_os = "linux")]
#[test]
fn a_root_named_through_a_link_above_it_is_another_spelling_of_it() {
    let real = Path::new("/srv/real/repo");
    // Named as `/home/me/link/repo/tools` where `/home/me/link` leads to `/srv/real`.
    assert_eq!(
        spelling_of(
            real,
            &real.join("tools"),
            Path::new("/home/me/link/repo/tools")
        ),
        Some(PathBuf::from("/home/me/link/repo"))
    );
    assert_eq!(spelling_of(real, real, real), None);
    // Not the same parts below the root: no spelling.
    assert_eq!(
        spelling_of(real, &real.join("tools"), Path::new("/home/me/other")),
        None
    );
}

#[cfg(unix)]
#[test]
fn a_repository_named_through_a_link_reads_inside_and_refuses_links_out() {
    use std::os::unix::fs::symlink;
    let base = temp_dir("spelt");
    std::fs::create_dir_all(base.join("real/repo/.git")).expect("mkdir");
    std::fs::write(base.join("real/repo/tool.yaml"), "name: x").expect("write");
    std::fs::write(base.join("secret.txt"), "hunter2").expect("write");
    symlink(base.join("secret.txt"), base.join("real/repo/leak.yaml")).expect("link");
    symlink(base.join("real"), base.join("link")).expect("link");
    let named = base.join("link/repo");
    let fs = Confined::for_paths(std::slice::from_ref(&named), &base);
    assert_eq!(
        fs.read(&named.join("tool.yaml")).as_deref(),
        Ok(&b"name: x"[..])
    );
    assert_eq!(
        fs.read(&named.join("leak.yaml")),
        Err(ReadError::LeavesRepository)
    );
    // Climbing out from under the spelling.
    let climbing = named.join("..").join("..").join("secret.txt");
    assert_eq!(fs.read(&climbing), Err(ReadError::LeavesRepository));
}

#[test]
fn a_folder_too_large_is_listed_by_its_first_names_whatever_order_they_were_made_in() {
    let dir = temp_dir("large-listing");
    let total = 2 * MAX_DIR_ENTRIES + 500;
    // Made last to first, so that the disk's order is not the names' order.
    for i in (0..total).rev() {
        std::fs::write(dir.join(format!("f{i:06}")), "").expect("write");
    }
    let names: Vec<String> = Disk.list_dir(&dir).into_iter().map(|e| e.name).collect();
    let want: Vec<String> = (0..MAX_DIR_ENTRIES).map(|i| format!("f{i:06}")).collect();
    assert_eq!(names, want);
}

#[cfg(target_os = "linux")]
#[test]
fn a_folder_listed_from_its_descriptor_lists_as_the_disk_does() {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = temp_dir("descriptor-listing");
    std::fs::write(dir.join("plain.txt"), "a").expect("write");
    std::fs::write(dir.join("run.sh"), "#!/bin/sh").expect("write");
    std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755))
        .expect("chmod");
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    symlink("/etc", dir.join("link")).expect("link");
    let latin1 = std::ffi::OsStr::from_bytes(b"caf\xe9.md");
    std::fs::write(dir.join(latin1), "b").expect("write");
    let dir = std::fs::canonicalize(&dir).expect("real path");

    let disk = Disk.list_dir(&dir);
    let named: Vec<(&str, EntryKind, Option<bool>)> = disk
        .iter()
        .map(|e| (e.name.as_str(), e.kind, e.executable))
        .collect();
    assert_eq!(
        named,
        [
            ("caf\u{fffd}.md", EntryKind::File, Some(false)),
            ("link", EntryKind::Link, None),
            ("plain.txt", EntryKind::File, Some(false)),
            ("run.sh", EntryKind::File, Some(true)),
            ("sub", EntryKind::Dir, None),
        ]
    );
    let roots: Vec<beneath::Root> = beneath::Root::open(&dir).into_iter().collect();
    let Some(opened) = beneath::list_dir(&roots, &dir) else {
        // Only where `openat2` is missing or refused (old kernels, some sandboxes).
        assert!(!beneath::no_link(&roots, &dir), "`openat2` works here");
        return;
    };
    assert_eq!(opened, disk);
    assert_eq!(Confined::new([dir.as_path()]).list_dir(&dir), disk);
    assert_eq!(
        beneath::list_dir(&roots, &dir.join("plain.txt")),
        Some(vec![])
    );
    assert_eq!(beneath::list_dir(&roots, &dir.join("none")), Some(vec![]));
    // Through a link: proved by the slow way, not by the descriptor.
    assert_eq!(beneath::list_dir(&roots, &dir.join("link")), None);
    // A file system that gives no kind in its listing: the entry's own `stat` tells it.
    let flags = rustix::fs::OFlags::PATH | rustix::fs::OFlags::CLOEXEC;
    let folder = rustix::fs::open(&dir, flags, rustix::fs::Mode::empty()).expect("open");
    let unknown = |name: &str| {
        let name = std::ffi::CString::new(name).expect("a name");
        beneath::kind_at(
            rustix::fd::AsFd::as_fd(&folder),
            &name,
            rustix::fs::FileType::Unknown,
        )
    };
    assert_eq!(unknown("link"), Some(EntryKind::Link));
    assert_eq!(unknown("sub"), Some(EntryKind::Dir));
    assert_eq!(unknown("run.sh"), Some(EntryKind::File));
    assert_eq!(unknown("gone"), None);
}

#[cfg(unix)]
#[test]
fn confined_lists_no_folder_a_link_leads_out_to() {
    use std::os::unix::fs::symlink;
    let outside = temp_dir("listing-outside");
    std::fs::write(outside.join("secret.txt"), "hunter2").expect("write");
    let repo = temp_dir("listing-repo");
    std::fs::create_dir_all(repo.join("a/b")).expect("mkdir");
    std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
    std::fs::write(repo.join("a/b/tool.yaml"), "name: x").expect("write");
    std::fs::write(repo.join(".git/config"), "[core]").expect("write");
    symlink(&outside, repo.join("out")).expect("link");
    symlink(repo.join("a"), repo.join("in")).expect("link");
    let fs = Confined::new([repo.as_path()]);
    let repo = std::fs::canonicalize(&repo).expect("real path");
    let names =
        |path: &Path| -> Vec<String> { fs.list_dir(path).into_iter().map(|e| e.name).collect() };

    assert_eq!(names(&repo.join("a/b")), ["tool.yaml"]);
    assert_eq!(names(&repo), [".git", "a", "in", "out"]);
    // Through a link that stays inside: listed.
    assert_eq!(names(&repo.join("in/b")), ["tool.yaml"]);
    // Through a link that leaves, `..` out of the root, or into `.git`: nothing.
    assert!(names(&repo.join("out")).is_empty());
    let climbing = repo.join("..").join(outside.file_name().expect("a name"));
    assert!(names(&climbing).is_empty());
    assert!(names(&repo.join(".git")).is_empty());
    assert!(names(&repo.join("a/b/tool.yaml")).is_empty());
}
