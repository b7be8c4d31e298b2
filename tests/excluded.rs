//! Files the configuration excludes: named on the command line or through `--stdin-filename`
//! they are said to be excluded (a warning, exit 0 as ruff does with `--force-exclude`), and
//! their baseline entries are kept, not reported stale as if their findings were fixed.

mod common;

use std::path::Path;

use common::Repo;

const BROKEN: &str = "name: a\ndescription: Print a value\nbash: echo {X}\n";
const GOOD: &str = "name: b\ndescription: Print the date\nbash: date\ntags: [read]\n";
const EXCLUDE: &str = "[discovery]\nexclude = [\".cycod/tools/a.yaml\"]\n";

fn toolc(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SAID: &str = "`.cycod/tools/a.yaml` is excluded";

#[test]
fn a_named_excluded_file_is_said_to_be_excluded() {
    let repo = Repo::with(&[
        (".cycod/tools/a.yaml", BROKEN),
        (".cycod/tools/b.yaml", GOOD),
        ("toolc.toml", EXCLUDE),
    ]);
    let (code, out, err) = toolc(&repo.root, &["check", ".cycod/tools/a.yaml"], b"");
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains(SAID), "{err}");
    assert!(!err.contains("no tool definition found"), "{err}");
    assert!(!out.contains("All checks passed"), "{out}");
    // The same path as an editor's buffer.
    let args = ["check", "--stdin-filename", ".cycod/tools/a.yaml"];
    let (code, out, err) = toolc(&repo.root, &args, BROKEN.as_bytes());
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains(SAID), "{err}");
    assert!(!out.contains("0 files"), "{out}");
    // Beside a file that is checked: that one is, and the excluded one is named.
    let args = ["check", ".cycod/tools/a.yaml", ".cycod/tools/b.yaml"];
    let (code, out, err) = toolc(&repo.root, &args, b"");
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains(SAID), "{err}");
    assert!(out.contains("1 file"), "{out}");
    // Not excluded: checked, and its finding reported.
    std::fs::remove_file(repo.root.join("toolc.toml")).expect("rm");
    let (code, out, err) = toolc(&repo.root, &["check", ".cycod/tools/a.yaml"], b"");
    assert_eq!(code, 1, "{out}{err}");
    assert!(!err.contains("is excluded"), "{err}");
}

#[test]
fn baseline_entries_of_an_excluded_file_are_not_stale() {
    let repo = Repo::with(&[
        (".cycod/tools/a.yaml", BROKEN),
        (".cycod/tools/b.yaml", GOOD),
    ]);
    let (code, _, err) = toolc(&repo.root, &["check", "--write-baseline"], b"");
    assert_eq!(code, 0, "{err}");
    let baseline = ["check", "--baseline", "toolc-baseline.json"];
    repo.write("toolc.toml", EXCLUDE.as_bytes());
    let (code, out, err) = toolc(&repo.root, &baseline, b"");
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("TLC004"), "{out}");
    assert!(!out.contains("fixed"), "{out}");
    // Without the exclusion, a fixed file's entries are stale.
    std::fs::remove_file(repo.root.join("toolc.toml")).expect("rm");
    repo.write(
        ".cycod/tools/a.yaml",
        GOOD.replace("name: b", "name: a").as_bytes(),
    );
    let (_, out, _) = toolc(&repo.root, &baseline, b"");
    assert!(out.contains("TLC004"), "{out}");
}
