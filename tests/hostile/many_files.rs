//! A repository of very many small definitions (issue 29): a run holds each file's result
//! (its path, its lowered tool, its findings) until the report, so its memory is bounded per
//! file rather than by the files' bytes. docs/security.md promises the bound this holds.

use super::dense::peak_memory_in;
use super::*;

/// Bytes a run may hold for each small tool file beyond what a run over one such file takes.
/// Measured with the debug binary: 2.9 KiB a file when each file past ShellCheck's budget
/// of a run had its own `SHC004` (with ShellCheck installed), 2.0 KiB since there is one for
/// the run, 1.7 KiB since an item decoded for the run is held bare and a cycod tool holds no
/// room for references and script indexes it does not have.
const PER_FILE: f64 = 2.1 * 1024.0;

/// A repository of `n` valid cycod tools of one short script each (about 70 bytes).
fn tools(n: usize) -> Repo {
    let repo = Repo::new();
    for i in 0..n {
        repo.write(
            &format!(".cycod/tools/t{i}.yaml"),
            format!("name: t{i}\ndescription: Print {i}\nbash: echo {i}\ntags: [read]\n")
                .as_bytes(),
        );
    }
    repo
}

/// Peak memory of `toolc check --no-cache -q` over `repo`, with ShellCheck when it is
/// installed: the run's budget of scripts is then spent, and the rest of the files are past it.
fn peak(repo: &Repo) -> Option<f64> {
    let mut command = Command::cargo_bin("toolc").expect("binary");
    command
        .args(["check", "--no-cache", "-q", "."])
        .current_dir(&repo.root);
    let installed = std::process::Command::new("shellcheck")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if installed {
        command.env_remove("TOOLC_SHELLCHECK");
    }
    peak_memory_in(command)
}

#[test]
fn a_repository_of_twenty_thousand_small_tools() {
    const FILES: usize = 20_000;
    let Some(fixed) = peak(&tools(1)) else {
        return;
    };
    let peak = peak(&tools(FILES)).expect("measured before");
    let per_file = (peak - fixed) / FILES as f64;
    assert!(
        per_file <= PER_FILE,
        "{FILES} small tools took {:.1} MiB beyond one: {per_file:.0} bytes a file, more than {PER_FILE}",
        (peak - fixed) / 1048576.0
    );
}
