//! Runs of the real binary with the cache's counters on stderr, for the cache's tests.

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

use super::{Repo, VALID_SCHEMA, VALID_TOOL};

/// `toolc check ARGS --format json` in `dir` (with `stdin` as its input when given), with the
/// cache counters on stderr.
pub fn run_with(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::cargo_bin("toolc").expect("the toolc binary is built");
    cmd.current_dir(dir)
        .env("TOOLC_DEBUG_CACHE", "1")
        .arg("check")
        .args(args)
        .args(["--format", "json"]);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    cmd.output().expect("toolc runs")
}

/// [`run_with`] without input.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    run_with(dir, args, None)
}

/// (files taken from the cache, files loaded) as the run reported them.
pub fn counts(out: &Output) -> (usize, usize) {
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("toolc: cache: "))
        .unwrap_or_else(|| panic!("no cache line in {err}"));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

/// The JSON report, as text.
pub fn json(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A git repository of three DojOps tools (`tool-a`, `tool-b`, `Tool_C`: one finding), for
/// a DojOps release that loads `tool.yaml` tools.
pub fn three_tools() -> Repo {
    let repo = Repo::with(&[(".git/HEAD", "ref: refs/heads/main\n"), super::DOJOPS_1_0]);
    for (name, tool) in [
        ("a", VALID_TOOL.replace("my-tool", "tool-a")),
        ("b", VALID_TOOL.replace("my-tool", "tool-b")),
        ("c", VALID_TOOL.replace("my-tool", "Tool_C")),
    ] {
        repo.write(&format!(".dojops/tools/{name}/tool.yaml"), tool.as_bytes());
        repo.write(
            &format!(".dojops/tools/{name}/input.schema.json"),
            VALID_SCHEMA.as_bytes(),
        );
    }
    repo
}

/// Copy the folder `from` to `to`, files and folders only.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from)
        .expect("read dir")
        .filter_map(Result::ok)
    {
        let target = to.join(entry.file_name());
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// The files of `report` that hold a credential its findings name (`SEC013`, `MCP019`): the
/// cache stores none of them.
pub fn holding_credentials(report: &toolc::Report) -> std::collections::BTreeSet<&str> {
    report
        .diagnostics
        .iter()
        .filter(|d| matches!(d.rule.code, "SEC013" | "MCP019"))
        .map(|d| d.file.display())
        .collect()
}

/// Each format has a file of `report` that holds no credential (of `holding`): in a warm run
/// where every other file was a hit, each format's stored form was read back.
pub fn assert_every_format_stored(
    report: &toolc::Report,
    holding: &std::collections::BTreeSet<&str>,
) {
    for format in toolc::FormatId::CONFIGURABLE {
        let stored = report
            .files
            .iter()
            .any(|f| f.format.as_str() == *format && !holding.contains(f.display()));
        assert!(stored, "every file of {format} holds a credential");
    }
}
