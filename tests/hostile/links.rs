//! A hostile repository's links and special files: symlink loops, links out of the repository,
//! devices, FIFOs and a folder named like a file are never followed or read; `build` and report
//! files never write through a committed link, and a rebuild replaces every bundle file or none.

use super::*;

#[cfg(unix)]
#[test]
fn symlink_loops() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    tool(
        &repo,
        "looping",
        VALID_TOOL.replace("my-tool", "looping").as_bytes(),
    );
    symlink("..", repo.root.join(".dojops/tools/looping/parent")).expect("symlink");
    std::fs::create_dir_all(repo.root.join(".dojops/tools/self")).expect("mkdir");
    symlink("tool.yaml", repo.root.join(".dojops/tools/self/tool.yaml")).expect("symlink");
    let diags = diagnostics(&repo);
    find(&diags, "SYN012", ".dojops/tools/self/tool.yaml");
    assert!(
        !diags
            .iter()
            .any(|d| d["path"].as_str().is_some_and(|p| p.contains("parent"))),
        "a directory symlink is not followed: {diags:#?}"
    );
}

#[cfg(unix)]
#[test]
fn links_out_of_the_repository_are_never_followed() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    // A secrets file outside the repository, and committed links to it.
    let outside = std::env::temp_dir().join(format!("toolc-outside-{}", std::process::id()));
    std::fs::create_dir_all(&outside).expect("mkdir");
    let secret = outside.join("secrets");
    std::fs::write(&secret, "name: hunter2-do-not-print\n").expect("write");
    std::fs::write(outside.join("schema.json"), "{\"hunter2-do-not-print\": 1").expect("write");
    std::fs::create_dir_all(repo.root.join(".dojops/tools/leak")).expect("mkdir");
    symlink(&secret, repo.root.join(".dojops/tools/leak/tool.yaml")).expect("symlink");
    tool(
        &repo,
        "schema-leak",
        VALID_TOOL.replace("my-tool", "schema-leak").as_bytes(),
    );
    let schema = repo
        .root
        .join(".dojops/tools/schema-leak/input.schema.json");
    std::fs::remove_file(&schema).expect("unlink");
    symlink(outside.join("schema.json"), &schema).expect("symlink");
    // A link that stays inside the repository is read as usual.
    tool(
        &repo,
        "inside",
        VALID_TOOL.replace("my-tool", "inside").as_bytes(),
    );
    std::fs::create_dir_all(repo.root.join(".dojops/tools/alias")).expect("mkdir");
    symlink(
        repo.root.join(".dojops/tools/inside/tool.yaml"),
        repo.root.join(".dojops/tools/alias/tool.yaml"),
    )
    .expect("symlink");

    let output = run(&repo, &["check", "--no-color"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        !text.contains("hunter2"),
        "a linked file's content was printed:\n{text}"
    );
    let diags = diagnostics(&repo);
    let leak = find(&diags, "SYN012", ".dojops/tools/leak/tool.yaml");
    assert!(
        leak[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("leads out of the repository")),
        "{leak:#?}"
    );
    let schema_findings: Vec<&Value> = diags
        .iter()
        .filter(|d| {
            d["path"]
                .as_str()
                .is_some_and(|p| p.contains("schema-leak"))
        })
        .collect();
    assert!(
        schema_findings.iter().any(|d| d["message"]
            .as_str()
            .is_some_and(|m| m.contains("out of the repository"))),
        "{schema_findings:#?}"
    );
    // The alias inside the repository is read: it duplicates `inside`'s name.
    find(&diags, "DOJ011", ".dojops/tools/inside/tool.yaml");
    let _ = std::fs::remove_dir_all(&outside);
}

/// A definition reads nothing in `.git`, through a committed link to it or to a file in it:
/// a DojOps schema linked to `.git/config` printed `[core]` and the remotes in a snippet.
#[cfg(unix)]
#[test]
fn a_schema_linked_into_git_is_not_read() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    repo.write(
        ".git/config",
        b"[remote \"origin\"]\n\turl = https://example.com/private-remote\n",
    );
    for (name, schema) in [("file-link", "input.schema.json"), ("dir-link", "g/config")] {
        tool(
            &repo,
            name,
            VALID_TOOL
                .replace("my-tool", name)
                .replace("input.schema.json", schema)
                .as_bytes(),
        );
        let folder = repo.root.join(".dojops/tools").join(name);
        let _ = std::fs::remove_file(folder.join("input.schema.json"));
        if schema == "g/config" {
            symlink("../../../.git", folder.join("g")).expect("symlink");
        } else {
            symlink("../../../.git/config", folder.join(schema)).expect("symlink");
        }
    }
    let output = run(&repo, &["check", "--no-color"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains("private-remote"), "{text}");
    let diags = diagnostics(&repo);
    for path in [
        ".dojops/tools/file-link/input.schema.json",
        ".dojops/tools/dir-link/g/config",
    ] {
        let refused = find(&diags, "SYN012", path);
        assert!(
            refused[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains("leads into `.git`")),
            "{refused:#?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn special_files_do_not_block() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    // Reading /dev/zero never ends and a FIFO blocks until someone writes: neither may hang.
    if std::path::Path::new("/dev/zero").exists() {
        std::fs::create_dir_all(repo.root.join(".dojops/tools/zero")).expect("mkdir");
        symlink("/dev/zero", repo.root.join(".dojops/tools/zero/tool.yaml")).expect("symlink");
    }
    std::fs::create_dir_all(repo.root.join(".dojops/tools/fifo")).expect("mkdir");
    let fifo = std::process::Command::new("mkfifo")
        .arg(repo.root.join(".dojops/tools/fifo/tool.yaml"))
        .status()
        .is_ok_and(|s| s.success());
    let diags = diagnostics(&repo);
    if std::path::Path::new("/dev/zero").exists() {
        find(&diags, "SYN012", ".dojops/tools/zero/tool.yaml");
    }
    if fifo {
        find(&diags, "SYN012", ".dojops/tools/fifo/tool.yaml");
    }
}

#[test]
fn directory_named_tool_yaml() {
    let repo = repo();
    std::fs::create_dir_all(repo.root.join(".dojops/tools/dir/tool.yaml")).expect("mkdir");
    let diags = diagnostics(&repo);
    find(&diags, "SYN012", ".dojops/tools/dir/tool.yaml");
}

#[cfg(unix)]
#[test]
fn build_never_writes_or_deletes_through_a_committed_link() {
    use std::os::unix::fs::symlink;
    let repo = Repo::new();
    tool(&repo, "my-tool", VALID_TOOL.as_bytes());
    let outside = std::env::temp_dir().join(format!("toolc-outside-build-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(outside.join("keep.json"), "{}").expect("write");
    for linked in ["dist", "dist/agents"] {
        let _ = std::fs::remove_dir_all(repo.root.join("dist"));
        if linked == "dist/agents" {
            std::fs::create_dir_all(repo.root.join("dist")).expect("mkdir");
        }
        symlink(&outside, repo.root.join(linked)).expect("symlink");
        let out = Command::cargo_bin("toolc")
            .expect("binary")
            .current_dir(&repo.root)
            .args(["build", "--out", "dist"])
            .timeout(HANG_LIMIT)
            .output()
            .expect("toolc runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{linked}: {stderr}");
        assert!(stderr.contains("symbolic link"), "{linked}: {stderr}");
        let mut left: Vec<String> = std::fs::read_dir(&outside)
            .expect("outside")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["keep.json"],
            "{linked}: something was written or deleted outside"
        );
    }
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn a_rebuild_replaces_every_bundle_file_or_none() {
    let repo = Repo::new();
    tool(&repo, "my-tool", VALID_TOOL.as_bytes());
    let build = || {
        Command::cargo_bin("toolc")
            .expect("binary")
            .current_dir(&repo.root)
            .args(["build", "--out", "dist"])
            .output()
            .expect("toolc runs")
    };
    assert!(build().status.success());
    // A second build over the first leaves no temporary or set-aside file behind.
    assert!(build().status.success());
    let names: Vec<String> = std::fs::read_dir(repo.root.join("dist"))
        .expect("dist")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert!(names.iter().all(|n| !n.contains("toolc-tmp")), "{names:?}");
    assert!(names.iter().any(|n| n == "openai.tools.json"), "{names:?}");
}

#[cfg(unix)]
#[test]
fn report_files_are_never_written_through_a_committed_link() {
    use std::os::unix::fs::symlink;
    let repo = repo();
    let outside = std::env::temp_dir().join(format!("toolc-outside-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).expect("mkdir");
    symlink(&outside, repo.root.join("reports")).expect("symlink");
    let out = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .args(["check", "--output-format", "sarif:reports/toolc.sarif"])
        .output()
        .expect("toolc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(!outside.join("toolc.sarif").exists());
    let _ = std::fs::remove_dir_all(&outside);
}
