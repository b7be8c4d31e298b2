//! A hostile repository choosing paths: through its `toolc.toml`, its committed links and
//! the values a workflow passes on the command line, it tries to make toolc read a file
//! outside it, write into `.git` or outside, or compare with the wrong version. Every attack
//! runs the built binary and checks that nothing outside was read, printed or written.

use super::*;

/// What stands for a secret outside the repository.
const SECRET: &str = "GITHUB_TOKEN=ghp_not_a_real_secret_value";

/// A folder outside every test repository, with `environ` holding [`SECRET`]; removed on drop.
struct Outside {
    root: std::path::PathBuf,
}

impl Outside {
    fn new(name: &str) -> Outside {
        let root =
            std::env::temp_dir().join(format!("toolc-outside-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("mkdir");
        std::fs::write(root.join("environ"), format!("{SECRET}\n")).expect("write");
        Outside { root }
    }

    /// The names of the files in it, sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.root)
            .expect("outside")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A git repository (a `.git` folder with a hook) holding the sentinel tool.
fn git_repo() -> Repo {
    let repo = repo();
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    repo.write(".git/hooks/pre-commit", b"#!/bin/sh\nexit 0\n");
    repo
}

/// Run toolc in `repo`: exit code and everything it printed.
fn attack(repo: &Repo, args: &[&str]) -> (Option<i32>, String) {
    let output = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(&repo.root)
        .args(args)
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !all.contains("ghp_not_a_real"),
        "a file outside was echoed: {all}"
    );
    (output.status.code(), all)
}

#[cfg(unix)]
fn link(target: &std::path::Path, at: &std::path::Path) {
    if let Some(parent) = at.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::os::unix::fs::symlink(target, at).expect("symlink");
}

/// Row 1: `[baseline] path` naming a git hook (or a link to one, or a place outside) is a
/// configuration error, and `--write-baseline` writes nothing.
#[cfg(unix)]
#[test]
fn a_configured_baseline_never_writes_into_git_or_outside() {
    let outside = Outside::new("baseline-write");
    let repo = git_repo();
    link(
        &repo.root.join(".git/hooks/pre-commit"),
        &repo.root.join("hook.json"),
    );
    let elsewhere = outside.root.join("baseline.json");
    for path in [
        ".git/hooks/pre-commit",
        "sub/../.git/hooks/pre-commit",
        "hook.json",
        "../outside.json",
        elsewhere.to_str().expect("UTF-8"),
    ] {
        repo.write(
            "toolc.toml",
            format!("[baseline]\npath = {path:?}\n").as_bytes(),
        );
        let (code, all) = attack(&repo, &["check", "--write-baseline"]);
        assert_eq!(code, Some(2), "{path}: {all}");
        assert!(all.contains("`[baseline] path`"), "{path}: {all}");
        assert_eq!(
            std::fs::read_to_string(repo.root.join(".git/hooks/pre-commit")).expect("hook"),
            "#!/bin/sh\nexit 0\n",
            "{path}: the hook was overwritten"
        );
    }
    assert_eq!(outside.names(), ["environ"]);
    assert!(!repo.root.join("../outside.json").exists());
}

/// Row 2: a baseline outside the repository, configured or reached through a committed link
/// named by `--baseline`, is never read, so its first line is never printed.
#[cfg(unix)]
#[test]
fn a_baseline_outside_the_repository_is_never_read_or_echoed() {
    let outside = Outside::new("baseline-read");
    let repo = git_repo();
    let environ = outside.root.join("environ");
    repo.write(
        "toolc.toml",
        format!(
            "[baseline]\npath = {:?}\n",
            environ.to_str().expect("UTF-8")
        )
        .as_bytes(),
    );
    let (code, all) = attack(&repo, &["check"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(all.contains("outside the repository"), "{all}");
    std::fs::remove_file(repo.root.join("toolc.toml")).expect("rm");
    link(&environ, &repo.root.join("toolc-baseline.json"));
    let (code, all) = attack(&repo, &["check", "--baseline", "toolc-baseline.json"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(all.contains("symbolic link"), "{all}");
}

/// Row 8: `--write-baseline` never writes through a committed `toolc-baseline.json` link,
/// wherever it leads.
#[cfg(unix)]
#[test]
fn write_baseline_never_writes_through_a_committed_link() {
    let outside = Outside::new("baseline-link");
    let repo = git_repo();
    for target in [
        outside.root.join("stolen.json"),
        repo.root.join(".git/hooks/pre-commit"),
        repo.root.join("elsewhere.json"),
    ] {
        let at = repo.root.join("toolc-baseline.json");
        let _ = std::fs::remove_file(&at);
        link(&target, &at);
        let (code, all) = attack(&repo, &["check", "--write-baseline"]);
        assert_eq!(code, Some(2), "{}: {all}", target.display());
        assert!(all.contains("symbolic link"), "{all}");
        assert!(
            std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()),
            "the link was replaced"
        );
    }
    assert_eq!(outside.names(), ["environ"]);
    assert!(!repo.root.join("elsewhere.json").exists());
    assert_eq!(
        std::fs::read_to_string(repo.root.join(".git/hooks/pre-commit")).expect("hook"),
        "#!/bin/sh\nexit 0\n"
    );
    // A plain file is written in place, atomically: no temporary file is left beside it.
    std::fs::remove_file(repo.root.join("toolc-baseline.json")).expect("rm");
    let (code, all) = attack(&repo, &["check", "--write-baseline"]);
    assert_eq!(code, Some(0), "{all}");
    let names: Vec<String> = std::fs::read_dir(&repo.root)
        .expect("repo")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert!(names.iter().all(|n| !n.contains("toolc-tmp")), "{names:?}");
    assert!(
        names.iter().any(|n| n == "toolc-baseline.json"),
        "{names:?}"
    );
}

/// Row 4: `[build] out` outside the repository, or through a committed link, writes and
/// deletes nothing there.
#[cfg(unix)]
#[test]
fn a_configured_build_folder_never_leaves_the_repository() {
    let outside = Outside::new("build-out");
    std::fs::create_dir_all(outside.root.join("agents")).expect("mkdir");
    std::fs::write(outside.root.join("agents/victim.json"), "{}").expect("write");
    let repo = Repo::new();
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    tool(&repo, "my-tool", VALID_TOOL.as_bytes());
    link(&outside.root, &repo.root.join("linked"));
    let absolute = outside.root.to_str().expect("UTF-8").to_string();
    for out in [
        absolute.as_str(),
        "../elsewhere",
        "linked/dist",
        ".git/dist",
    ] {
        repo.write("toolc.toml", format!("[build]\nout = {out:?}\n").as_bytes());
        let (code, all) = attack(&repo, &["build"]);
        assert_eq!(code, Some(2), "{out}: {all}");
        assert!(all.contains("`[build] out`"), "{out}: {all}");
    }
    assert_eq!(outside.names(), ["agents", "environ"]);
    assert!(outside.root.join("agents/victim.json").exists());
    assert!(!repo.root.join(".git/dist").exists());
    // `--out` through the committed link is refused as well.
    std::fs::remove_file(repo.root.join("toolc.toml")).expect("rm");
    let (code, all) = attack(&repo, &["build", "--out", "linked/dist"]);
    assert_eq!(code, Some(2), "{all}");
    assert_eq!(outside.names(), ["agents", "environ"]);
}

/// Row 5: a file or folder named on the command line that is a committed link out of the
/// repository is neither read nor printed, and `--fix` writes through no link at all.
#[cfg(unix)]
#[test]
fn named_paths_that_link_out_are_refused_and_fix_writes_through_no_link() {
    let outside = Outside::new("named");
    let cycod = "name: leaked\ndescription: ghp_not_a_real_secret_value\nbash: echo hi\ntags: [read]\nverison: 1\n";
    std::fs::create_dir_all(outside.root.join(".cycod/tools")).expect("mkdir");
    std::fs::write(outside.root.join(".cycod/tools/leaked.yaml"), cycod).expect("write");
    // A configuration there, which an error would quote: never looked for through the link.
    std::fs::write(
        outside.root.join("toolc.toml"),
        format!("[rules]\nDOJ003 = \"{SECRET}\"\n"),
    )
    .expect("write");
    let repo = git_repo();
    link(
        &outside.root.join(".cycod/tools/leaked.yaml"),
        &repo.root.join(".cycod/tools/evil.yaml"),
    );
    link(&outside.root, &repo.root.join("evildir"));
    for named in [
        ".cycod/tools/evil.yaml",
        "evildir",
        "evildir/.cycod/tools/leaked.yaml",
    ] {
        for args in [vec!["check", named], vec!["check", "--fix", named]] {
            let (code, all) = attack(&repo, &args);
            assert_eq!(code, Some(2), "{args:?}: {all}");
            assert!(all.contains("symbolic link"), "{args:?}: {all}");
        }
        let (code, all) = attack(&repo, &["build", "--out", "dist", named]);
        assert_eq!(code, Some(2), "build {named}: {all}");
    }
    assert_eq!(
        std::fs::read_to_string(outside.root.join(".cycod/tools/leaked.yaml")).expect("read"),
        cycod
    );
    // A link that stays inside is read, but `--fix` does not write through it: it fixes
    // the file it leads to only when that file is named.
    let misspelt = VALID_TOOL.replace("version:", "verison:");
    repo.write("shared/tool.yaml", misspelt.as_bytes());
    repo.write(
        ".dojops/tools/linked/input.schema.json",
        VALID_SCHEMA.as_bytes(),
    );
    link(
        &repo.root.join("shared/tool.yaml"),
        &repo.root.join(".dojops/tools/linked/tool.yaml"),
    );
    let (code, all) = attack(&repo, &["check", "--fix", ".dojops/tools/linked"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(all.contains("symbolic link"), "{all}");
    assert_eq!(
        std::fs::read_to_string(repo.root.join("shared/tool.yaml")).expect("read"),
        misspelt
    );
}

/// A named path whose `..` steps back out of a committed link (`l/..` with `l` linked to the
/// repository): toolc read it as written, the repository, where the system goes up from
/// where the link leads, its parent; the parent became readable, and a second committed
/// link into a folder beside the repository was followed. Refused before anything is read.
#[cfg(unix)]
#[test]
fn a_named_path_that_goes_up_out_of_a_link_is_refused() {
    let outside = Outside::new("up-through-link");
    std::fs::write(
        outside.root.join("tools.json"),
        r#"{"tools": [{"name": "leak", "command": ["ghp_not_a_real_secret_value"]}]}"#,
    )
    .expect("write");
    let repo = git_repo();
    link(std::path::Path::new("."), &repo.root.join("l"));
    link(
        &outside.root.join("tools.json"),
        &repo.root.join("d/tools.json"),
    );
    for named in ["l/..", "l/../d", "./l/d/../.."] {
        let (code, all) = attack(&repo, &["check", named]);
        assert_eq!(code, Some(2), "check {named}: {all}");
        assert!(
            all.contains("steps back out of a symbolic link"),
            "{named}: {all}"
        );
    }
    // A `..` that stays where it is written is fine.
    let (code, all) = attack(&repo, &["check", "d/.."]);
    assert!(matches!(code, Some(0 | 1)), "check d/..: {all}");
}

/// Row 6: `--config` (the Action's `config:` input) naming a committed link out of the
/// repository is refused before anything is read.
#[cfg(unix)]
#[test]
fn a_config_named_on_the_command_line_is_not_followed_out() {
    let outside = Outside::new("config");
    let repo = git_repo();
    link(
        &outside.root.join("environ"),
        &repo.root.join("ci/toolc.toml"),
    );
    let (code, all) = attack(&repo, &["check", "--config", "ci/toolc.toml"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(all.contains("symbolic link"), "{all}");
    // A link to a configuration inside the repository is still read.
    repo.write("real.toml", b"[rules]\nDOJ003 = \"off\"\n");
    link(
        &repo.root.join("real.toml"),
        &repo.root.join("ci/inside.toml"),
    );
    let (code, all) = attack(&repo, &["check", "--config", "ci/inside.toml"]);
    assert_eq!(code, Some(0), "{all}");
}

/// A repository whose `main` has two tools and whose `feature` branch removes one and
/// commits, as the folder `decoy`, a copy of today's tools under the name of the revision a
/// workflow compares with (so that the removal would be hidden).
fn history_with_decoy(decoy: &str) -> Repo {
    use common::change::git;
    let tool_md = |id: &str| {
        common::BASE_TOOL.replacen("tool_id: \"search-docs\"", &format!("tool_id: {id}"), 1)
    };
    let repo = Repo::with(&[
        ("tools/kb-search.tool.md", &tool_md("kb-search")),
        ("tools/kb-other.tool.md", &tool_md("kb-other")),
    ]);
    git(&repo.root, &["init", "-q", "-b", "main"]);
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "-m", "v1"]);
    git(&repo.root, &["checkout", "-q", "-b", "feature"]);
    std::fs::remove_file(repo.root.join("tools/kb-other.tool.md")).expect("rm");
    repo.write(
        &format!("{decoy}/tools/kb-search.tool.md"),
        tool_md("kb-search").as_bytes(),
    );
    git(&repo.root, &["add", "-A"]);
    git(&repo.root, &["commit", "-q", "-m", "v2"]);
    repo
}

/// Row 7: `--against 'main...'` is the merge base even when the repository commits a folder
/// of that very name holding a copy of the new version (which would hide the removal).
#[test]
fn a_committed_folder_never_shadows_the_revision_it_is_named_after() {
    let repo = history_with_decoy("main...");
    let (code, stdout, stderr) =
        common::change::toolc(&repo.root, &["diff", "--against", "main...", "--stat"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("kb-other"),
        "the removal is hidden: {stdout}"
    );
    assert!(
        stdout.contains("merge base") || stderr.contains("merge base"),
        "{stdout}{stderr}"
    );
}

/// Row 7 where git does not know the base branch: the pull request's shallow clone (the
/// checkout's default) holds no `origin/main`, and a folder committed as `origin/main...`
/// was compared with instead, so the removal of a tool passed. `REF...` is always a
/// revision now: the run fails, and says how to fetch the base.
#[test]
fn a_committed_folder_never_stands_in_for_a_base_the_clone_lacks() {
    use common::change::{git, toolc};
    let origin = history_with_decoy("origin/main...");
    let clone = Repo::new();
    let url = format!("file://{}", origin.root.display());
    let into = clone.root.join("pr");
    let into = into.to_str().expect("a UTF-8 path");
    git(
        &clone.root,
        &[
            "clone", "-q", "--depth", "1", "--branch", "feature", &url, into,
        ],
    );
    let pr = clone.root.join("pr");
    let (code, stdout, stderr) = toolc(&pr, &["diff", "--against", "origin/main...", "--stat"]);
    assert_eq!(
        code, 2,
        "the decoy folder was compared with: {stdout}{stderr}"
    );
    assert!(
        stderr.contains("`origin/main` is not a commit") && stderr.contains("fetch-depth: 0"),
        "{stderr}"
    );
}

/// Row 7 for any name: a workflow comparing with a tag (`--against v1`) in a clone that does
/// not hold it compared with a folder the repository committed as `v1/`. A bare name is
/// always a revision; a folder is written as a path (`./v1`).
#[test]
fn a_bare_name_is_never_a_committed_folder() {
    use common::change::toolc;
    let repo = Repo::with(&[
        ("tools/kb.tool.md", common::BASE_TOOL),
        ("v1/tools/kb.tool.md", common::BASE_TOOL),
    ]);
    common::change::git(&repo.root, &["init", "-q", "-b", "main"]);
    let (code, stdout, stderr) = toolc(&repo.root, &["diff", "--against", "v1"]);
    assert_eq!(code, 2, "the folder was compared with: {stdout}{stderr}");
    assert!(stderr.contains("`--against ./v1`"), "{stderr}");
    let (code, stdout, stderr) = toolc(&repo.root, &["diff", "--against", "./v1"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

/// git runs within limits in `toolc diff`: a git that never answers (a repository's history
/// can make one take that long) is stopped after its time limit with everything it started,
/// and the error says so.
#[cfg(target_os = "linux")]
#[test]
fn a_git_that_never_answers_is_stopped_and_the_error_says_so() {
    let repo = Repo::with(&[("tools/kb.tool.md", common::BASE_TOOL)]);
    let bin = Repo::new();
    let pid_file = bin.root.join("pid");
    bin.write(
        "git",
        format!(
            "#!/bin/sh\necho $$ > '{}'\nexec sleep 600\n",
            pid_file.display()
        )
        .as_bytes(),
    );
    let fake = bin.root.join("git");
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let path = format!(
        "{}:{}",
        bin.root.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let started = Instant::now();
    let output = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .env("PATH", path)
        .args(["diff", "--against", "HEAD"])
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(60), "{stderr}");
    assert!(stderr.contains("limit and was stopped"), "{stderr}");
    let pid = std::fs::read_to_string(&pid_file).expect("the fake git ran");
    assert!(
        !std::path::Path::new("/proc").join(pid.trim()).exists(),
        "git {pid} is still running"
    );
}
