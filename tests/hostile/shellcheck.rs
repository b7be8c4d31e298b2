//! ShellCheck on a hostile repository's scripts: never longer than its limits allow, never
//! left running, and a finding (`SHC004`) for every script it said nothing of. A stand-in
//! ShellCheck (`TOOLC_SHELLCHECK`) hangs on the scripts that say `HANG`, so the attack runs
//! without ShellCheck installed; the last test uses the real one when it is there.

#![cfg(target_os = "linux")]

use super::*;
use std::path::PathBuf;

/// A folder for one test's stand-in ShellCheck, its log and the temporary folders toolc
/// makes (`TMPDIR`); outside every repository, removed on drop.
struct Stage {
    root: PathBuf,
}

impl Stage {
    fn new(name: &str) -> Stage {
        Stage::with(name, true)
    }

    /// A stage whose stand-in ShellCheck names the files that do not exist on its standard
    /// error as it comes to them, as ShellCheck does (`names_missing`), or says nothing.
    fn with(name: &str, names_missing: bool) -> Stage {
        let root = std::env::temp_dir().join(format!("toolc-shc-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("tmp")).expect("mkdir");
        let missing = if names_missing {
            "-*) ;;\n*) [ -e \"$f\" ] || echo \"$f: does not exist\" >&2;;\n"
        } else {
            ""
        };
        let fake = format!(
            "#!/bin/sh\n\
            echo $$ >> \"$TOOLC_TEST_LOG/pids\"\n\
            ulimit -d >> \"$TOOLC_TEST_LOG/data\"\n\
            for f in \"$@\"; do case \"$f\" in *.sh)\n\
              wc -c < \"$f\" >> \"$TOOLC_TEST_LOG/sizes\"\n\
              while IFS= read -r l || [ -n \"$l\" ]; do\n\
                case \"$l\" in *HANG*) exec sleep 600;; *SLOW*) sleep 1;; esac\n\
              done < \"$f\";;\n\
            {missing}\
            esac; done\n\
            printf '{{\"comments\":[]}}'\n"
        );
        let program = root.join("shellcheck");
        std::fs::write(&program, fake).expect("write");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        Stage { root }
    }

    /// `toolc check --format json --no-cache` in `repo` with the stand-in ShellCheck (or the
    /// real one).
    fn command(&self, repo: &Repo, fake: bool) -> std::process::Command {
        let mut c = self.command_cached(repo, fake);
        c.arg("--no-cache");
        c
    }

    /// [`Stage::command`] with the repository's cache.
    fn command_cached(&self, repo: &Repo, fake: bool) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("toolc"));
        c.current_dir(&repo.root)
            .args(["check", "--format", "json"])
            .env("TMPDIR", self.root.join("tmp"))
            .env("TOOLC_TEST_LOG", &self.root);
        if fake {
            c.env("TOOLC_SHELLCHECK", self.root.join("shellcheck"));
        } else {
            c.env_remove("TOOLC_SHELLCHECK");
        }
        c
    }

    /// The process ids the stand-in logged.
    fn pids(&self) -> Vec<u32> {
        std::fs::read_to_string(self.root.join("pids"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// toolc's temporary folders left in `TMPDIR`.
    fn left(&self) -> Vec<String> {
        std::fs::read_dir(self.root.join("tmp"))
            .map(|d| {
                d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter(|n| n.starts_with("toolc-shellcheck-"))
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// True while `pid` runs (a zombie does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit(')')
                .next()
                .map(|rest| rest.trim_start().to_string())
        })
        .is_some_and(|rest| !rest.starts_with('Z'))
}

fn cycod(repo: &Repo, name: &str, script: &str) {
    let script = script.replace('\n', "\n  ");
    repo.write(
        &format!(".cycod/tools/{name}.yaml"),
        format!("name: {name}\ndescription: d\nbash: |\n  {script}\ntags: [read]\n").as_bytes(),
    );
}

/// The diagnostics of a finished run, and how long it took.
fn finish(command: std::process::Command) -> (Vec<Value>, Duration) {
    let started = Instant::now();
    let output = Command::from_std(command)
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    let elapsed = started.elapsed();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    (
        doc["diagnostics"].as_array().cloned().unwrap_or_default(),
        elapsed,
    )
}

/// Rows 11 and 23: a script ShellCheck never finishes is stopped (the process and what it
/// started killed), the batch's other scripts are still checked, and `SHC004` says which
/// one was not; nothing is left running or on disk, and each process had a memory limit.
#[test]
fn shellcheck_is_stopped_on_a_script_it_cannot_finish() {
    let stage = Stage::new("hang");
    let repo = Repo::new();
    cycod(&repo, "fine", "ls -la");
    cycod(&repo, "stuck", "echo HANG");
    let (diags, elapsed) = finish(stage.command(&repo, true));
    assert!(elapsed < Duration::from_secs(40), "{elapsed:?}");
    let stopped = find(&diags, "SHC004", ".cycod/tools/stuck.yaml");
    assert!(
        stopped[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("was stopped"),
        "{stopped:?}"
    );
    assert!(
        !diags
            .iter()
            .any(|d| d["code"] == "SHC004" && d["path"] == ".cycod/tools/fine.yaml"),
        "{diags:#?}"
    );
    let pids = stage.pids();
    assert_eq!(pids.len(), 2, "the batch, then the rest again: {pids:?}");
    assert!(pids.iter().all(|p| !alive(*p)), "left running: {pids:?}");
    assert_eq!(stage.left(), Vec::<String>::new());
    // Each process may take 256 MiB of data (16 KB of script takes ShellCheck 2.9 GB).
    let data = std::fs::read_to_string(stage.root.join("data")).unwrap_or_default();
    assert_eq!(data.lines().collect::<Vec<_>>(), ["262144"; 2], "{data}");
}

/// `honest` tools of scripts ShellCheck finishes and one it never does, checked with the
/// stand-in of `stage`: the only `SHC004` is the stalling one's. How long it took.
fn one_stuck_among(stage: &Stage, honest: usize) -> Duration {
    let repo = Repo::new();
    for i in 0..honest {
        cycod(&repo, &format!("fine{i}"), &format!("ls -la /tmp/dir{i}"));
    }
    cycod(&repo, "stuck", "echo HANG");
    let (diags, elapsed) = finish(stage.command(&repo, true));
    let skipped: Vec<&Value> = diags.iter().filter(|d| d["code"] == "SHC004").collect();
    assert_eq!(skipped.len(), 1, "{skipped:#?}");
    assert_eq!(skipped[0]["path"], ".cycod/tools/stuck.yaml");
    let pids = stage.pids();
    assert!(pids.iter().all(|p| !alive(*p)), "left running: {pids:?}");
    elapsed
}

/// Row 23 among honest scripts: a script that stalls ShellCheck, in a batch with 150 others,
/// is the only one not checked, and costs its own time, not one process per script of its
/// batch (200 processes, 20 s with the real ShellCheck).
#[test]
fn a_stalling_script_among_many_is_the_only_one_left_unchecked() {
    let stage = Stage::new("among");
    let elapsed = one_stuck_among(&stage, 150);
    let pids = stage.pids();
    assert_eq!(pids.len(), 2, "the batch, then the rest again: {pids:?}");
    assert!(elapsed < Duration::from_secs(40), "{elapsed:?}");
}

/// A ShellCheck that does not say how far it got is held to its batch's time as a whole,
/// and then run on one script at a time: the script at fault is still the only one left.
#[test]
fn a_shellcheck_that_names_no_file_is_run_script_by_script_after_a_stop() {
    let stage = Stage::with("quiet", false);
    one_stuck_among(&stage, 3);
    let pids = stage.pids();
    assert_eq!(
        pids.len(),
        1 + 4,
        "the batch, then one per script: {pids:?}"
    );
}

/// Row 11: a script over 16 KiB is never handed to ShellCheck, and `SHC004` says so.
#[test]
fn a_script_too_long_for_shellcheck_is_reported_not_run() {
    let stage = Stage::new("long");
    let repo = Repo::new();
    cycod(
        &repo,
        "long",
        &"echo 'a fairly ordinary line of shell'\n".repeat(600),
    );
    let (diags, _) = finish(stage.command(&repo, true));
    let skipped = find(&diags, "SHC004", ".cycod/tools/long.yaml");
    assert!(
        skipped[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("at most 16 KiB"),
        "{skipped:?}"
    );
    let sizes = std::fs::read_to_string(stage.root.join("sizes")).unwrap_or_default();
    assert!(
        sizes
            .lines()
            .all(|s| s.trim().parse::<usize>().unwrap_or(0) <= 16 * 1024),
        "{sizes}"
    );
}

/// Row 23: toolc killed while ShellCheck runs (an editor closing its server) leaves no
/// ShellCheck running, and the next run removes the temporary folder it left.
#[test]
fn a_killed_toolc_leaves_no_shellcheck_behind() {
    let stage = Stage::new("killed");
    let repo = Repo::new();
    cycod(&repo, "stuck", "echo HANG");
    let mut child = stage.command(&repo, true).spawn().expect("toolc starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    while stage.pids().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let pids = stage.pids();
    assert!(!pids.is_empty(), "ShellCheck never started");
    child.kill().expect("kill");
    let _ = child.wait();
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|p| alive(*p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(pids.iter().all(|p| !alive(*p)), "left running: {pids:?}");
    assert_eq!(stage.left().len(), 1, "the killed run's folder is there");
    // The next run that starts ShellCheck sweeps it away.
    let repo = Repo::new();
    cycod(&repo, "fine", "ls -la");
    finish(stage.command(&repo, true));
    assert_eq!(stage.left(), Vec::<String>::new());
}

/// Row 23 with the real ShellCheck, when installed: six kilobytes of `[` keep its parser busy
/// for minutes; toolc stops it and says so within seconds, and the scripts beside it in its
/// batch are checked.
#[test]
fn the_real_shellcheck_is_stopped_on_a_script_that_stalls_its_parser() {
    let installed = shellcheck_installed();
    if !installed {
        return;
    }
    let stage = Stage::new("real");
    let repo = Repo::new();
    cycod(&repo, "brackets", &"[".repeat(6000));
    for i in 0..20 {
        cycod(&repo, &format!("fine{i}"), &format!("ls $dir{i}"));
    }
    let (diags, elapsed) = finish(stage.command(&repo, false));
    find(&diags, "SHC004", ".cycod/tools/brackets.yaml");
    let skipped = diags.iter().filter(|d| d["code"] == "SHC004").count();
    assert_eq!(skipped, 1, "{diags:#?}");
    // The batch's other scripts were checked: each says its variable is not quoted.
    for i in 0..20 {
        find(&diags, "SHC003", &format!(".cycod/tools/fine{i}.yaml"));
    }
    assert!(elapsed < Duration::from_secs(40), "{elapsed:?}");
    assert_eq!(stage.left(), Vec::<String>::new());
}

/// A cycod tool of many steps with the same script: ShellCheck is handed each distinct
/// script once, and what it says of one is reported at every step that has it (toolc kept
/// an owned copy of every step's script for the whole run).
#[test]
fn the_same_script_in_many_steps_is_checked_once_and_reported_at_each() {
    let stage = Stage::new("repeated");
    let repo = Repo::new();
    let steps = |n: usize| "  - bash: echo $HOME\n".repeat(n) + "  - bash: ls -la\n";
    repo.write(
        ".cycod/tools/many.yaml",
        format!(
            "name: many\ndescription: d\ntags: [read]\nsteps:\n{}",
            steps(3000)
        )
        .as_bytes(),
    );
    finish(stage.command(&repo, true));
    let sizes = std::fs::read_to_string(stage.root.join("sizes")).unwrap_or_default();
    assert_eq!(
        sizes.lines().count(),
        2,
        "scripts handed to ShellCheck: {sizes}"
    );
    let installed = shellcheck_installed();
    if !installed {
        return;
    }
    let repo = Repo::new();
    repo.write(
        ".cycod/tools/few.yaml",
        format!(
            "name: few\ndescription: d\ntags: [read]\nsteps:\n{}",
            steps(3)
        )
        .as_bytes(),
    );
    let (diags, _) = finish(stage.command(&repo, false));
    let lines: Vec<u64> = diags
        .iter()
        .filter(|d| d["code"] == "SHC003")
        .filter_map(|d| d["span"]["start"]["line"].as_u64())
        .collect();
    assert_eq!(lines, [5, 6, 7], "{diags:?}");
}

/// True when the real ShellCheck is on PATH.
fn shellcheck_installed() -> bool {
    std::process::Command::new("shellcheck")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A cycod tool of 5,000 steps, each a different script: ShellCheck is handed the first 500
/// (three processes, not 25), and one `SHC004` at the first step left says how many were
/// not checked; a tool of 500 different scripts is checked whole, with no such finding.
#[test]
fn a_file_of_thousands_of_different_scripts_is_checked_up_to_its_budget() {
    let stage = Stage::new("budget");
    let repo = Repo::new();
    let steps =
        |n: usize| -> String { (0..n).map(|i| format!("  - bash: echo $v{i}\n")).collect() };
    let tool = |name: &str, n: usize| {
        format!(
            "name: {name}\ndescription: d\ntags: [read]\nsteps:\n{}",
            steps(n)
        )
    };
    repo.write(".cycod/tools/many.yaml", tool("many", 5000).as_bytes());
    let (diags, _) = finish(stage.command(&repo, true));
    let sizes = std::fs::read_to_string(stage.root.join("sizes")).unwrap_or_default();
    assert_eq!(sizes.lines().count(), 500, "scripts handed to ShellCheck");
    assert_eq!(stage.pids().len(), 3, "one process per 200 scripts");
    let skipped = find(&diags, "SHC004", ".cycod/tools/many.yaml");
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(start(skipped[0]).0, 5 + 500, "at the 501st step");
    let message = skipped[0]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("4500 scripts of this file") && message.contains("at most 500"),
        "{message}"
    );

    let stage = Stage::new("budget-whole");
    let repo = Repo::new();
    repo.write(".cycod/tools/whole.yaml", tool("whole", 500).as_bytes());
    let (diags, _) = finish(stage.command(&repo, true));
    let sizes = std::fs::read_to_string(stage.root.join("sizes")).unwrap_or_default();
    assert_eq!(sizes.lines().count(), 500, "scripts handed to ShellCheck");
    assert!(!diags.iter().any(|d| d["code"] == "SHC004"), "{diags:?}");

    if !shellcheck_installed() {
        println!("shellcheck is not installed: the budget not tried with the real one");
        return;
    }
    // The real ShellCheck on 50,000 different scripts: within seconds, the first ones'
    // findings reported, the rest counted.
    let repo = Repo::new();
    repo.write(".cycod/tools/many.yaml", tool("many", 50_000).as_bytes());
    let (diags, elapsed) = finish(stage.command(&repo, false));
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let warned = find(&diags, "SHC002", ".cycod/tools/many.yaml");
    assert_eq!(start(warned[0]).0, 5, "{warned:?}");
    let skipped = find(&diags, "SHC004", ".cycod/tools/many.yaml");
    assert_eq!(start(skipped[0]).0, 5 + 500);
}

/// A repository of six cycod tools `f0`…`f5`, each of 500 different one-line scripts: 3,000
/// in all, past the run's budget of 2,000.
fn six_files_of_500_scripts() -> Repo {
    let repo = Repo::new();
    for f in 0..6 {
        let steps: String = (0..500)
            .map(|i| format!("  - bash: echo $v{f}_{i}\n"))
            .collect();
        repo.write(
            &format!(".cycod/tools/f{f}.yaml"),
            format!("name: f{f}\ndescription: d\ntags: [read]\nsteps:\n{steps}").as_bytes(),
        );
    }
    repo
}

/// Across files: a repository of many files, each of 500 different scripts (within a file's
/// budget), took as long as their number (50 such files: 24 s). ShellCheck is handed 2,000
/// distinct scripts of a run, in the files' order; one `SHC004`, at the first script left,
/// counts the scripts and files left and names the first of them (one in each file left was
/// 48,000 findings on a repository of 50,000 one-script tools).
#[test]
fn a_repository_of_many_files_of_scripts_is_checked_up_to_the_run_budget() {
    let stage = Stage::new("run-budget");
    let repo = six_files_of_500_scripts();
    let (diags, _) = finish(stage.command(&repo, true));
    let sizes = std::fs::read_to_string(stage.root.join("sizes")).unwrap_or_default();
    assert_eq!(sizes.lines().count(), 2000, "scripts handed to ShellCheck");
    let skipped: Vec<&Value> = diags.iter().filter(|d| d["code"] == "SHC004").collect();
    let paths: Vec<&str> = skipped.iter().filter_map(|d| d["path"].as_str()).collect();
    assert_eq!(paths, [".cycod/tools/f4.yaml"]);
    assert_eq!(start(skipped[0]).0, 5, "at the file's first script");
    let message = skipped[0]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("1000 scripts of 2 files")
            && message.contains("2000 distinct scripts (256 KiB) in one run"),
        "{message}"
    );
    let notes = skipped[0]["notes"].to_string();
    assert!(
        notes.contains("the files left: .cycod/tools/f4.yaml, .cycod/tools/f5.yaml"),
        "{notes}"
    );
}

/// The same repository with one file named (as pre-commit names the staged files): the
/// run's budget was spent on the files before it in path order, so the named file's scripts
/// went unchecked and it had an `SHC004` instead of ShellCheck's findings. ShellCheck reads
/// only the scripts of the files a run reports on.
#[test]
fn a_named_file_of_a_large_repository_is_checked_by_shellcheck() {
    let stage = Stage::new("run-budget-named");
    let repo = six_files_of_500_scripts();
    let mut command = stage.command(&repo, true);
    command.arg(".cycod/tools/f5.yaml");
    let (diags, _) = finish(command);
    let sizes = std::fs::read_to_string(stage.root.join("sizes")).unwrap_or_default();
    assert_eq!(
        sizes.lines().count(),
        500,
        "the named file's scripts, no others"
    );
    assert!(!diags.iter().any(|d| d["code"] == "SHC004"), "{diags:?}");

    // With the cache: a run over the whole repository first, whose cross-file findings
    // (f5's SHC004 among them) must not be reused by the run naming f5.
    let stage = Stage::new("run-budget-named-cached");
    let cached = |named: Option<&str>| {
        let mut command = stage.command_cached(&repo, true);
        command.args(named);
        finish(command).0
    };
    let whole = cached(None);
    let left = find(&whole, "SHC004", ".cycod/tools/f4.yaml");
    assert!(left[0]["notes"].to_string().contains("f5.yaml"), "{left:?}");
    let named = cached(Some(".cycod/tools/f5.yaml"));
    assert!(!named.iter().any(|d| d["code"] == "SHC004"), "{named:?}");
    // The named run keeps its entry of cross-file findings beside the whole run's: the
    // whole run again reuses its own, and hands ShellCheck nothing.
    let handed = || {
        std::fs::read_to_string(stage.root.join("sizes"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    let before = handed();
    assert_eq!(cached(None), whole);
    assert_eq!(handed(), before, "ShellCheck was handed scripts again");
    // And it keeps what ShellCheck said of the other files' scripts: with a new file (of a
    // script already checked) the cross-file findings are found again from what ShellCheck
    // said before; it is handed f4's 500, which no run has checked yet, and no other.
    cached(Some(".cycod/tools/f5.yaml"));
    repo.write(
        ".cycod/tools/g.yaml",
        b"name: g\ndescription: d\ntags: [read]\nbash: echo $v0_0\n",
    );
    cached(None);
    assert_eq!(
        handed(),
        before + 500,
        "ShellCheck was handed scripts again"
    );
}

/// Rows 11 and 23 with scripts that each take ShellCheck just under their own time (1,300
/// `[` take the real one about a second): none is stopped, and 30 of them took 30 s, one
/// after another. ShellCheck has 6 s of a run; what is left then is one `SHC004`.
#[test]
fn scripts_that_each_take_shellcheck_a_second_share_the_run_s_time() {
    let stage = Stage::new("slow");
    let repo = Repo::new();
    for i in 0..16 {
        cycod(&repo, &format!("slow{i:02}"), &format!("echo SLOW {i}"));
    }
    let (diags, elapsed) = finish(stage.command(&repo, true));
    // 6 s of a run on two cores or more, 12 s on one.
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
    let skipped: Vec<&Value> = diags.iter().filter(|d| d["code"] == "SHC004").collect();
    assert_eq!(skipped.len(), 1, "{skipped:#?}");
    assert_eq!(skipped[0]["path"], ".cycod/tools/slow00.yaml");
    let message = skipped[0]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("16 scripts of 16 files") && message.contains(" s of a run"),
        "{message}"
    );
    let pids = stage.pids();
    assert!(pids.iter().all(|p| !alive(*p)), "left running: {pids:?}");
}

/// Rows 11 and 23 across a repository: scripts that each stall ShellCheck were run one after
/// another, each costing its own time. Once ShellCheck has been stopped on two scripts of a
/// run, no more are handed to it, and each script left says so.
#[test]
fn after_two_stalled_scripts_no_more_are_handed_to_shellcheck() {
    let stage = Stage::new("stalls");
    let repo = Repo::new();
    for i in 0..12 {
        cycod(&repo, &format!("stuck{i}"), &format!("echo HANG {i}"));
    }
    let mut command = stage.command(&repo, true);
    command.env("RAYON_NUM_THREADS", "2");
    let (diags, elapsed) = finish(command);
    let messages: Vec<&str> = (0..12)
        .map(|i| find(&diags, "SHC004", &format!(".cycod/tools/stuck{i}.yaml"))[0])
        .map(|d| d["message"].as_str().unwrap_or(""))
        .collect();
    let stopped = messages
        .iter()
        .filter(|m| m.contains("and was stopped"))
        .count();
    let left = messages
        .iter()
        .filter(|m| m.contains("no more were handed"))
        .count();
    assert_eq!(stopped + left, 12, "{messages:#?}");
    assert_eq!(stopped, 2, "{messages:#?}");
    // The batch, stopped on its first script that ran, then the rest, stopped on the next.
    let pids = stage.pids();
    assert_eq!(pids.len(), 2, "{pids:?}");
    assert!(pids.iter().all(|p| !alive(*p)), "left running: {pids:?}");
    assert!(elapsed < Duration::from_secs(40), "{elapsed:?}");
}
