//! The GitHub Action's installer (`scripts/install-toolc.sh`) against a fake release served
//! from a local HTTP server: a binary whose checksum matches is installed, one whose checksum
//! does not is refused (and not replaced by a build), and a release that cannot be fetched
//! falls back to `cargo install` (a stub `cargo` records how it was called).

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
    "aarch64-unknown-linux-gnu",
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

/// Run the installer with `version` against `url`, with a stub `cargo` first on PATH.
fn install(dir: &Path, version: &str, url: &str) -> (Output, PathBuf, PathBuf) {
    let stub = dir.join("stub-bin");
    std::fs::create_dir_all(&stub).expect("mkdir");
    let log = dir.join("cargo-calls");
    std::fs::write(
        stub.join("cargo"),
        format!("#!/bin/sh\necho \"$@\" >> '{}'\n", log.display()),
    )
    .expect("write stub");
    chmod_x(&stub.join("cargo"));
    let root = dir.join("root");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install-toolc.sh");
    let path = format!(
        "{}:{}",
        stub.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(&script)
        .env("VERSION", version)
        .env("ROOT", &root)
        .env("ACTION_PATH", "/action/source")
        .env("RELEASE_URL", url)
        .env("PATH", path)
        .output()
        .expect("run the installer");
    (out, root.join("bin/toolc"), log)
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

#[test]
fn a_missing_release_falls_back_to_cargo_install() {
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
    assert!(!exe.exists());
    let calls = std::fs::read_to_string(&log).expect("cargo was called");
    let root = dir.0.join("root");
    assert_eq!(
        calls.trim(),
        format!(
            "install --locked --root {} --version 9.9.9 toolc",
            root.display()
        )
    );
}

#[test]
fn without_a_version_the_action_source_is_built() {
    if !supported() {
        return;
    }
    let dir = Temp::new("source");
    let (out, _, log) = install(&dir.0, "", "http://127.0.0.1:9");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let calls = std::fs::read_to_string(&log).expect("cargo was called");
    assert!(calls.trim().ends_with("--path /action/source"), "{calls}");
}
