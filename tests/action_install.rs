//! The GitHub Action's installer (`scripts/install-toolc.sh`) against a fake release served
//! from a local HTTP server: a binary whose checksum matches is installed, one whose checksum
//! does not is refused (and not replaced by a build), and a release that cannot be fetched
//! falls back to a build of the action's own source with `cargo build --release --locked` (a
//! stub `cargo` records how it was called); the release is the action's own repository's.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use sha2::{Digest, Sha256};

/// Every target a release publishes for the runners the installer knows.
const TARGETS: &[&str] = &[
    "x86_64-unknown-linux-musl",
    "aarch64-unknown-linux-musl",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
];

/// A folder that is removed when the test ends.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let dir = std::env::temp_dir().join(format!(
            "toolc-install-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp folder");
        Temp(dir)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Serve `files` (URL path → bytes) over HTTP on 127.0.0.1; returns the base URL.
fn serve(files: HashMap<String, Vec<u8>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let files = Arc::new(files);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let files = Arc::clone(&files);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut request = String::new();
                if reader.read_line(&mut request).is_err() {
                    return;
                }
                // Headers end at the first empty line.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = request.split_whitespace().nth(1).unwrap_or("/");
                let mut out = &stream;
                let _ = match files.get(path) {
                    Some(body) => out
                        .write_all(
                            format!(
                                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                                body.len()
                            )
                            .as_bytes(),
                        )
                        .and_then(|()| out.write_all(body)),
                    None => out.write_all(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    ),
                };
            });
        }
    });
    format!("http://127.0.0.1:{port}")
}

/// `toolc-TARGET.tar.gz` for every target: a `toolc` script that says it is the fake.
fn release(dir: &Path) -> HashMap<String, Vec<u8>> {
    let mut files = HashMap::new();
    for target in TARGETS {
        let folder = dir.join(format!("toolc-{target}"));
        std::fs::create_dir_all(&folder).expect("mkdir");
        let exe = folder.join("toolc");
        std::fs::write(&exe, "#!/bin/sh\necho fake toolc 9.9.9\n").expect("write");
        let archive = format!("toolc-{target}.tar.gz");
        let status = Command::new("tar")
            .current_dir(dir)
            .args(["-czf", &archive, &format!("toolc-{target}")])
            .status()
            .expect("tar");
        assert!(status.success());
        let bytes = std::fs::read(dir.join(&archive)).expect("archive");
        files.insert(format!("/v9.9.9/{archive}"), bytes);
    }
    files
}

/// SHA256SUMS for `files`, each checksum computed over `corrupt(bytes)`.
fn sums(files: &HashMap<String, Vec<u8>>, corrupt: bool) -> Vec<u8> {
    let mut out = String::new();
    for (path, bytes) in files {
        let mut hashed = bytes.clone();
        if corrupt {
            hashed.push(0);
        }
        let digest = Sha256::digest(&hashed);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let name = path.rsplit('/').next().unwrap_or_default();
        out.push_str(&format!("{hex}  {name}\n"));
    }
    out.into_bytes()
}

/// Run the installer with `version` against `url` (none: the default, from the action's
/// repository), with a stub `cargo` (and, with `fake_curl`, a stub `curl`) first on PATH.
fn run_installer(
    dir: &Path,
    env: &[(&str, &str)],
    url: Option<&str>,
    fake_curl: bool,
) -> (Output, PathBuf, PathBuf) {
    let stub = dir.join("stub-bin");
    std::fs::create_dir_all(&stub).expect("mkdir");
    let log = dir.join("cargo-calls");
    // The stub builds a fake binary where cargo would put it.
    std::fs::write(
        stub.join("cargo"),
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nmkdir -p \"$CARGO_TARGET_DIR/release\"\nprintf '#!/bin/sh\\necho built toolc\\n' > \"$CARGO_TARGET_DIR/release/toolc\"\n",
            log.display()
        ),
    )
    .expect("write stub");
    chmod_x(&stub.join("cargo"));
    if fake_curl {
        let urls = dir.join("curl-urls");
        std::fs::write(
            stub.join("curl"),
            format!(
                "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in http*) echo \"$a\" >> '{}';; esac; done\nexit 22\n",
                urls.display()
            ),
        )
        .expect("write stub");
        chmod_x(&stub.join("curl"));
    }
    let root = dir.join("root");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install-toolc.sh");
    let path = format!(
        "{}:{}",
        stub.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("bash");
    cmd.arg(&script)
        .env("ROOT", &root)
        .env("ACTION_PATH", "/action/source")
        .env_remove("ACTION_REPOSITORY")
        .env_remove("ACTION_REF")
        .env_remove("VERSION")
        .env_remove("RELEASE_URL")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("GITHUB_SERVER_URL")
        .env("PATH", path);
    if let Some(url) = url {
        cmd.env("RELEASE_URL", url);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the installer");
    (out, root.join("bin/toolc"), log)
}

/// Run the installer with `version` against `url`.
fn install(dir: &Path, version: &str, url: &str) -> (Output, PathBuf, PathBuf) {
    run_installer(dir, &[("VERSION", version)], Some(url), false)
}

#[cfg(unix)]
fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[cfg(not(unix))]
fn chmod_x(_: &Path) {}

/// The platforms this test can stand in for (the installer picks a target from `uname`).
fn supported() -> bool {
    let tools = ["bash", "curl", "tar"].iter().all(|t| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !tools || !(cfg!(target_os = "linux") || cfg!(target_os = "macos")) {
        eprintln!("skipped: needs bash, curl and tar on Linux or macOS");
        return false;
    }
    true
}

#[test]
fn a_release_with_the_right_checksum_is_installed() {
    if !supported() {
        return;
    }
    let dir = Temp::new("right");
    let mut files = release(&dir.0);
    let sums = sums(&files, false);
    files.insert("/v9.9.9/SHA256SUMS".into(), sums);
    let url = serve(files);
    let (out, exe, log) = install(&dir.0, "v9.9.9", &url);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("installed the v9.9.9 release binary"),
        "{stdout}"
    );
    let ran = Command::new(&exe).output().expect("installed binary runs");
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "fake toolc 9.9.9\n");
    assert!(
        !log.exists(),
        "cargo was called although the release installed"
    );
}

#[test]
fn a_checksum_mismatch_fails_closed() {
    if !supported() {
        return;
    }
    let dir = Temp::new("wrong");
    let mut files = release(&dir.0);
    let sums = sums(&files, true);
    files.insert("/v9.9.9/SHA256SUMS".into(), sums);
    let url = serve(files);
    let (out, exe, log) = install(&dir.0, "9.9.9", &url);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(stdout.contains("checksum mismatch"), "{stdout}");
    assert!(
        !exe.exists(),
        "a binary with a wrong checksum was installed"
    );
    assert!(
        !log.exists(),
        "a wrong checksum must not fall back to a build"
    );
}

/// The one cargo call a build of the action's source makes.
fn built_from_source(log: &Path) {
    let calls = std::fs::read_to_string(log).expect("cargo was called");
    assert_eq!(
        calls.trim(),
        "build --release --locked --manifest-path /action/source/Cargo.toml"
    );
}

#[test]
fn a_missing_release_falls_back_to_a_build_of_the_action_source() {
    if !supported() {
        return;
    }
    let dir = Temp::new("missing");
    let url = serve(HashMap::new());
    let (out, exe, log) = install(&dir.0, "9.9.9", &url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    built_from_source(&log);
    let ran = Command::new(&exe).output().expect("the build is installed");
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "built toolc\n");
}

#[test]
fn without_a_release_tag_the_action_source_is_built() {
    if !supported() {
        return;
    }
    let dir = Temp::new("source");
    let env = [
        ("ACTION_REPOSITORY", "acme/toolc-fork"),
        ("ACTION_REF", "main"),
    ];
    let (out, _, log) = run_installer(&dir.0, &env, None, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    built_from_source(&log);
    assert!(
        !dir.0.join("curl-urls").exists(),
        "nothing is downloaded for a branch"
    );
}

#[test]
fn the_release_is_the_action_repository_own() {
    if !supported() {
        return;
    }
    // From the action's context.
    let dir = Temp::new("context");
    let env = [
        ("ACTION_REPOSITORY", "acme/toolc-fork"),
        ("ACTION_REF", "v9.9.9"),
    ];
    let (out, _, log) = run_installer(&dir.0, &env, None, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let urls = std::fs::read_to_string(dir.0.join("curl-urls")).expect("a download was tried");
    assert!(
        urls.starts_with("https://github.com/acme/toolc-fork/releases/download/v9.9.9/toolc-"),
        "{urls}"
    );
    // The download failed: the action's own source is built, no package by name.
    built_from_source(&log);
    // From where the runner checked the action out, when the context is empty.
    let dir = Temp::new("path");
    let env = [
        (
            "ACTION_PATH",
            "/home/runner/work/_actions/other-owner/toolc/v1.2.3",
        ),
        ("GITHUB_SERVER_URL", "https://ghe.example.com"),
    ];
    let (out, _, _) = run_installer(&dir.0, &env, None, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let urls = std::fs::read_to_string(dir.0.join("curl-urls")).expect("a download was tried");
    assert!(
        urls.starts_with("https://ghe.example.com/other-owner/toolc/releases/download/v1.2.3/"),
        "{urls}"
    );
}

#[test]
fn the_action_and_its_scripts_name_no_owner_and_install_no_package_by_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "action.yml",
        "scripts/install-toolc.sh",
        "scripts/github-action.sh",
    ] {
        let text = std::fs::read_to_string(root.join(file)).expect("read");
        assert!(!text.contains("github.com/toolc"), "{file} names an owner");
        assert!(!text.contains("toolc/toolc"), "{file} names an owner");
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            assert!(!line.contains("cargo install"), "{file}: {line}");
            assert!(!line.contains("pip install"), "{file}: {line}");
        }
    }
}

#[test]
fn the_release_builds_every_binary_the_installer_downloads_on_runners_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workflow =
        std::fs::read_to_string(root.join(".github/workflows/release.yml")).expect("read");
    let installer = std::fs::read_to_string(root.join("scripts/install-toolc.sh")).expect("read");
    for target in TARGETS.iter().chain(&["x86_64-pc-windows-msvc"]) {
        assert!(
            installer.contains(target),
            "the installer never picks {target}"
        );
        assert!(
            workflow.contains(&format!("target: {target},")),
            "the release builds no {target}"
        );
    }
    // Images GitHub has retired never start a job.
    for retired in ["macos-13", "macos-12", "ubuntu-20.04", "windows-2019"] {
        assert!(!workflow.contains(retired), "{retired} is retired");
    }
    assert!(workflow.contains("sha256sum toolc-* > SHA256SUMS"));
    assert!(workflow.contains("cargo publish --locked --dry-run"));
}
