//! `toolc diff` of a pull request that adds, or changes, every tool of a large file: both
//! sides were held lowered whole (a `tools.json` of tiny tools took 49 times its size, 98
//! times when every tool changed), and the version check looked through every finding for
//! each changed tool (300,000 changed tools took 497 s in the release build). And `toolc
//! diff` and `toolc lock` ran ShellCheck on the repository's scripts for findings they never
//! report.

use super::*;

/// A `tools.json` of `n` tiny tools that run `program`.
fn manifest(n: usize, program: &str) -> String {
    let tools: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"name":"t{i}","command":["{program}"]}}"#))
        .collect();
    format!(r#"{{"tools":[{}]}}"#, tools.join(","))
}

/// 60,000 tools added to a file of one, or removed from it: held briefly (a name, a place and
/// a digest each), not lowered whole, and the findings of the removed capped as they are
/// found. Release build: 5x and 9x the larger file (49x and 73x before).
#[test]
fn a_diff_adding_or_removing_sixty_thousand_tools_is_held_briefly() {
    let peak = |old: usize, new: usize| {
        let repo = common::change::history(&[("tools.json", &manifest(old, "x"))], &[]);
        repo.write("tools.json", manifest(new, "x").as_bytes());
        dense::peak_memory_of(&repo, &["diff", "--against", "HEAD", "-q"])
    };
    let Some(small) = peak(1, 1) else {
        return;
    };
    let size = manifest(60_000, "x").len() as f64;
    for (old, new) in [(1, 60_000), (60_000, 1)] {
        let ratio = (peak(old, new).expect("measured before") - small) / size;
        assert!(
            ratio <= 15.0,
            "{old} -> {new} tools: {ratio:.1}x the larger file"
        );
    }
}

/// Every one of 60,000 tools runs another program: the pairs are compared a round at a time,
/// a bounded number of new tools held lowered while the old side is lowered past them.
/// Release build: 13x the larger file, both sides' loads included (98x when both sides were
/// held lowered whole). `--stat` lists each of the 60,000 changes within the same bound, for
/// at most twice the file more than the run without it: about 1x (a change with its own name
/// and path strings, held beside the compare, and the text summary's six strings of each
/// made before a line was written took 3x).
#[test]
fn a_diff_changing_sixty_thousand_tools_compares_them_a_round_at_a_time() {
    let peak = |n: usize, args: &[&str]| {
        let repo = common::change::history(&[("tools.json", &manifest(n, "x"))], &[]);
        repo.write("tools.json", manifest(n, "y").as_bytes());
        dense::peak_memory_of(&repo, &[&["diff", "--against", "HEAD"], args].concat())
    };
    let Some(small) = peak(1, &["-q"]) else {
        return;
    };
    let size = manifest(60_000, "y").len() as f64;
    let plain = (peak(60_000, &["-q"]).expect("measured before") - small) / size;
    assert!(plain <= 20.0, "{plain:.1}x the larger file");
    for format in ["human", "json", "markdown"] {
        let args = ["--stat", "--format", format];
        let stat = (peak(60_000, &args).expect("measured before") - small) / size;
        assert!(
            stat <= 20.0 && stat - plain <= 2.0,
            "--stat --format {format}: {stat:.1}x the larger file, {plain:.1}x without --stat"
        );
    }
}

/// `toolc diff` and `toolc lock` report no finding of `check`'s: they never run ShellCheck
/// on what a pull request brings (it ran on every script of the working tree, and its output
/// was dropped). `toolc check` runs the same stand-in, so the stand-in is seen to work.
#[cfg(unix)]
#[test]
fn a_diff_and_a_lock_run_no_program_on_the_repository_s_scripts() {
    use std::os::unix::fs::PermissionsExt;
    let tool = |script: &str| {
        format!(
            "name: show\ndescription: Show a thing\nsteps:\n  - name: show\n    bash: {script}\ntags: [read]\n"
        )
    };
    let repo = common::change::history(
        &[(".cycod/tools/show.yaml", &tool("echo one"))],
        &[(".cycod/tools/show.yaml", Some(&tool("echo two")))],
    );
    let stand_in = Repo::new();
    let program = stand_in.root.join("shellcheck");
    let marker = stand_in.root.join("ran");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\ntouch '{}'\necho '{{\"comments\":[]}}'\n",
            marker.display()
        ),
    )
    .expect("write the stand-in");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let toolc = |args: &[&str]| {
        Command::cargo_bin("toolc")
            .expect("binary")
            .current_dir(&repo.root)
            .env("TOOLC_SHELLCHECK", &program)
            .args(args)
            .timeout(HANG_LIMIT)
            .output()
            .expect("toolc runs")
    };
    let diff = toolc(&["diff", "--against", "HEAD~1", "--stat"]);
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(text.contains("show"), "the change is found: {text}");
    assert!(toolc(&["lock"]).status.success());
    assert!(!marker.exists(), "ShellCheck ran for diff or lock");
    toolc(&["check", "--no-cache"]);
    assert!(marker.exists(), "the stand-in runs for check");
}

/// The findings of a rule `report` shows: each of the first 200 whole (a finding that is only
/// counted is made without its words), the line for the rest counting `rest`.
fn shown_whole(report: &Value, code: &str, rest: usize) -> Vec<String> {
    let shown: Vec<&Value> = report["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|d| d["code"] == code)
        .collect();
    assert_eq!(shown.len(), 201, "200 and a line for the rest");
    for d in &shown[..200] {
        let notes = d["notes"].as_array().map_or(0, Vec::len);
        assert!(
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("runs program"))
                && notes == 2,
            "{d}"
        );
    }
    let last = shown[200]["message"].as_str().unwrap_or_default();
    assert!(last.starts_with(&format!("{rest} more")), "{last}");
    shown[..200]
        .iter()
        .map(|d| d["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// How many tools `diff --stat` of `repo` against `HEAD` lists as changed and `with` holds of.
fn changed_tools(repo: &Repo, with: impl Fn(&Value) -> bool) -> usize {
    let out = run(
        repo,
        &["diff", "--against", "HEAD", "--stat", "--format", "json"],
    );
    let stat: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    stat["tools"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|t| t["kind"] == "changed" && with(t))
        .count()
}

/// Every one of 30,000 tools runs another program: each change is still found and counted,
/// 200 are shown with one line for the rest, as `check` caps a rule in a file; the same 200,
/// whole, when the new file lists its tools the other way round (the changes are then found
/// last first).
#[test]
fn a_diff_changing_every_tool_of_a_large_file() {
    let n = 30_000;
    let repo = common::change::history(&[("tools.json", &manifest(n, "x"))], &[]);
    repo.write("tools.json", manifest(n, "y").as_bytes());
    let out = run(&repo, &["diff", "--against", "HEAD", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let first = shown_whole(&report, "BRK030", n - 200);
    assert_eq!(first[199], "`t199` now runs program `y` instead of `x`");
    let reversed: Vec<String> = (0..n)
        .rev()
        .map(|i| format!(r#"{{"name":"t{i}","command":["y"]}}"#))
        .collect();
    repo.write(
        "tools.json",
        format!(r#"{{"tools":[{}]}}"#, reversed.join(",")).as_bytes(),
    );
    let out = run(&repo, &["diff", "--against", "HEAD", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let last = shown_whole(&report, "BRK030", n - 200);
    assert_eq!(
        last[0],
        format!("`t{}` now runs program `y` instead of `x`", n - 1)
    );
    repo.write("tools.json", manifest(n, "y").as_bytes());
    let changed = changed_tools(&repo, |t| t["findings"][1] == 1);
    assert_eq!(changed, n, "every tool changed, each with its finding");
}

/// 100,000 MCP servers added to an `.mcp.json` of one: each is held briefly (its name, place
/// and a digest of its fields) and its change handed on as it is found, not made and held for
/// all of them first, and no server is looked up by content when no old one is left to be
/// renamed. Release build: 15x the file (44x before; 13x and 38x at 400,000 servers, where
/// the binary's own memory counts less).
#[test]
fn a_diff_adding_a_hundred_thousand_servers_holds_no_list_of_changes() {
    let config = |n: usize| {
        let servers: Vec<String> = (0..n).map(|i| format!(r#""s{i}":{{}}"#)).collect();
        format!(r#"{{"mcpServers":{{{}}}}}"#, servers.join(","))
    };
    let peak = |n: usize| {
        let repo = common::change::history(&[(".mcp.json", &config(1))], &[]);
        repo.write(".mcp.json", config(n).as_bytes());
        dense::peak_memory_of(&repo, &["diff", "--against", "HEAD", "-q"])
    };
    let Some(small) = peak(1) else {
        return;
    };
    let size = config(100_000).len() as f64;
    let ratio = (peak(100_000).expect("measured before") - small) / size;
    assert!(ratio <= 25.0, "{ratio:.1}x the file");
}

/// How many files toolc's repository facade read in `repo` for `args` (its last
/// `TOOLC_DEBUG_TIMES` line says).
fn files_read(repo: &Repo, args: &[&str]) -> usize {
    let output = Command::cargo_bin("toolc")
        .expect("binary")
        .args(args)
        .current_dir(&repo.root)
        .env("TOOLC_DEBUG_TIMES", "wall")
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .rev()
        .find_map(|l| {
            l.split("files read")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no count of files read in: {stderr}"))
}

/// A `tools.json` of `n` tools without a finding (each file lets its text go once loaded),
/// the descriptions ending with `word`, and the program they run.
fn clean_tools(repo: &Repo, dir: &str, n: usize, word: &str) {
    let tools: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"name":"t{i}","description":"Print the greeting for user {i} {word}","command":["./tools/bin/hello"],"schema":{{"type":"object","properties":{{}},"additionalProperties":false}}}}"#
            )
        })
        .collect();
    repo.write(
        &format!("{dir}/tools.json"),
        format!(r#"{{"tools":[{}]}}"#, tools.join(",")).as_bytes(),
    );
    let program = format!("{dir}/tools/bin/hello");
    repo.write(&program, b"#!/bin/sh\necho hello\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            repo.root.join(&program),
            std::fs::Permissions::from_mode(0o755),
        )
        .expect("chmod");
    }
}

/// `toolc diff` and `toolc lock` read each definition of the working tree once, as `check`
/// does: a diff read back every file without a finding (which had let its text go) for the
/// suppression comments it had kept, and sized its rounds by reading them back too; both read
/// back an MCP configuration and a `server.json` without findings to make their servers'
/// records. The file of a changed tool is read once more, to show the change.
#[test]
fn a_diff_and_a_lock_read_each_file_of_the_working_tree_once() {
    let manifests = 12;
    let repo = Repo::new();
    for i in 0..manifests {
        clean_tools(&repo, &format!("m{i}"), 30, "today");
    }
    repo.write(
        ".mcp.json",
        br#"{"mcpServers":{"files":{"command":"node","args":["./servers/files.js"]}}}"#,
    );
    repo.write("servers/files.js", b"console.log('files');\n");
    repo.write(
        "server.json",
        br#"{"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.example/weather", "description": "Weather forecasts for a city",
  "version": "1.0.2", "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}"#,
    );
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &["commit", "-q", "-m", "v1"],
    ] {
        common::change::git(&repo.root, args);
    }
    // The manifests, the MCP configuration with the script its server runs, the server.json.
    let files = manifests + 3;
    let check = files_read(&repo, &["check", "--no-cache", "-q"]);
    assert_eq!(check, files, "check reads each file once");
    assert_eq!(
        files_read(&repo, &["diff", "--against", "HEAD", "-q"]),
        files
    );
    clean_tools(&repo, "m3", 30, "now");
    let changed = files_read(&repo, &["diff", "--against", "HEAD", "-q"]);
    assert_eq!(
        changed,
        files + 1,
        "the changed file is read again to show it"
    );
    assert_eq!(files_read(&repo, &["lock"]), files, "lock");
}

/// A skill whose description changed is compared with its old version without its folder
/// being read again: the record made when the skills were first listed is kept (it was made
/// again, reading every file of the folder a second time).
#[test]
fn a_diff_of_a_changed_skill_reads_its_folder_once() {
    let skill = |how: &str| {
        format!(
            "---\nname: review\ndescription: Review a pull request and list the problems found, {how}.\n---\n\n# Review\n\nRead `notes.md` first.\n"
        )
    };
    let mut files = vec![("skills/review/SKILL.md".to_string(), skill("by file"))];
    for i in 0..8 {
        files.push((format!("skills/review/notes{i}.md"), format!("note {i}\n")));
    }
    files.push(("skills/review/notes.md".to_string(), "notes\n".to_string()));
    let v1: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = common::change::history(&v1, &[]);
    let unchanged = files_read(&repo, &["diff", "--against", "HEAD", "-q"]);
    repo.write(
        "skills/review/SKILL.md",
        skill("by file and line").as_bytes(),
    );
    let changed = files_read(&repo, &["diff", "--against", "HEAD", "-q"]);
    assert!(
        changed <= unchanged + 1,
        "{changed} files read for a changed skill, {unchanged} for none"
    );
}

/// A one-line MCP tool list whose every tool's description changed: where each changed
/// tool's schema is pointed at, the end of the schema's first line was searched for to the
/// end of the file, once a tool (a 58 MB file of 330,000 such tools ran past 15 minutes in
/// the release build; 4.4 s now). Each change is still found and counted.
#[test]
fn a_diff_of_a_one_line_tool_list_whose_every_tool_changed() {
    let n = 150_000;
    let list = |description: &str| {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name":"t{i}","description":"{description}","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string","description":"d"}}}}}}}}"#
                )
            })
            .collect();
        format!(r#"{{"tools":[{}]}}"#, tools.join(","))
    };
    let repo = common::change::history(&[("tools.json", &list("Reads a file."))], &[]);
    repo.write("tools.json", list("Reads a file or a folder.").as_bytes());
    let changed = changed_tools(&repo, |_| true);
    assert_eq!(changed, n, "every tool changed");
}

/// A tree whose `.git` names another repository's git folder (a `gitdir:` file, or a link):
/// git would read that repository's history as the tree's, and the diff print its
/// definitions. git never checks one out, but a tree unpacked from an archive can carry one.
/// The diff is refused; a linked worktree, whose git folder names it back, is compared.
#[test]
fn a_dot_git_naming_another_repositorys_history_is_refused() {
    let private =
        "name: deploy\ndescription: PRIVATE-CANARY deploys to production\nbash: ./deploy.sh\n";
    let other = common::change::history(&[(".cycod/tools/deploy.yaml", private)], &[]);
    let other_git = other.root.join(".git");
    let tool = "name: deploy\ndescription: Deploys the site when asked\nbash: ./deploy.sh\n";
    for link in [false, true] {
        let tree = Repo::with(&[(".cycod/tools/deploy.yaml", tool)]);
        if link {
            std::os::unix::fs::symlink(&other_git, tree.root.join(".git")).expect("link");
        } else {
            tree.write(
                ".git",
                format!("gitdir: {}\n", other_git.display()).as_bytes(),
            );
        }
        let out = run_exiting(&tree, &["diff", "--against", "HEAD"], &[2]);
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(2), "link {link}: {said}");
        assert!(!said.contains("PRIVATE-CANARY"), "{said}");
        assert!(said.contains("does not name this folder"), "{said}");
    }
    let worktree = Repo::new();
    let at = worktree.root.join("wt");
    common::change::git(
        &other.root,
        &["worktree", "add", "-q", &at.to_string_lossy()],
    );
    let out = Command::cargo_bin("toolc")
        .expect("binary")
        .args(["diff", "--against", "HEAD"])
        .current_dir(&at)
        .output()
        .expect("toolc runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}
