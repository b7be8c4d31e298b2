//! Custom rules wherever toolc's own go: selection, suppression comments, `explain` and `rules`,
//! SARIF and statistics, the editor's unsaved buffers and the cache.

use super::*;

fn toolc(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run toolc")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn select_and_ignore_take_the_family_and_the_code() {
    let repo = policy_repo();
    let o = toolc(
        &repo.root,
        &["check", "--select", "ORG", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let mut codes: Vec<&str> = json["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    codes.sort_unstable();
    assert_eq!(codes, ["ORG001", "ORG002", "ORG003", "ORGX004", "ORGX004"]);
    let o = toolc(
        &repo.root,
        &[
            "check",
            "--select",
            "ORG",
            "--ignore",
            "ORGX004",
            "--ignore",
            "skill-license",
            "--format",
            "json",
        ],
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let codes: Vec<&str> = json["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(codes, ["ORG002", "ORG001"]);
    assert_eq!(json["summary"]["errors"], 1);
    // A family no rule has is still a usage error.
    let o = toolc(&repo.root, &["check", "--select", "ZZZ"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_suppression_comment_silences_a_custom_rule() {
    let repo = Repo::with(&[
        ("toolc.toml", POLICY),
        (
            ".cycod/tools/short.yaml",
            "name: short # toolc: ignore ORG002 -- set by the runner\ndescription: Too short\nbash: echo hi\ntags: [read]\n",
        ),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        custom_lines(&repo),
        [
            ".cycod/tools/short.yaml:2:14 ORG001 warning tool `short`: describe it in at least 40 characters"
        ]
    );
    assert_eq!(report.summary.suppressed, 1);
}

#[test]
fn explain_and_rules_know_the_repository_rules() {
    let repo = policy_repo();
    let with_description = POLICY.replace(
        "code = \"ORG002\"",
        "code = \"ORG002\"\ndescription = \"The runner kills a tool after its timeout; without one it hangs the agent.\"",
    );
    repo.write("toolc.toml", with_description.as_bytes());
    let o = toolc(&repo.root, &["explain", "ORG002"]);
    assert!(o.status.success());
    let page = stdout(&o);
    assert!(
        page.starts_with("ORG002 · cycod-timeout · error · formats: cycod-tool\n"),
        "{page}"
    );
    assert!(
        page.contains("The runner kills a tool after its timeout"),
        "{page}"
    );
    assert!(page.contains("- `timeout` is present"), "{page}");
    let o = toolc(&repo.root, &["explain", "description-too-short"]);
    assert!(stdout(&o).contains("- `description` has a length of at least 40"));
    let o = toolc(&repo.root, &["rules", "ORG", "--format", "json"]);
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let codes: Vec<&str> = list
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|r| r["code"].as_str())
        .collect();
    assert_eq!(codes, ["ORG001", "ORG002", "ORG003", "ORGX004"]);
    assert_eq!(
        list[1]["summary"],
        "The runner kills a tool after its timeout; without one it hangs the agent."
    );
}

#[test]
fn sarif_and_statistics_carry_the_code() {
    let repo = policy_repo();
    let o = toolc(
        &repo.root,
        &["check", "--select", "ORG002", "--format", "sarif"],
    );
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).expect("sarif");
    let run = &sarif["runs"][0];
    assert_eq!(run["results"][0]["ruleId"], "ORG002");
    assert_eq!(run["results"][0]["level"], "error");
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert!(
        rules
            .iter()
            .any(|r| r["id"] == "ORG002" && r["name"] == "cycod-timeout")
    );
    let o = toolc(&repo.root, &["check", "--select", "ORG", "--statistics"]);
    let text = format!("{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("ORGX004"), "{text}");
    assert_one_name_column(&text);
    let o = toolc(&repo.root, &["rules", "ORG"]);
    assert_one_name_column(&stdout(&o));
}

/// A five-letter code does not push its line's columns out of line with the others: every
/// table line's rule name starts at the same place.
fn assert_one_name_column(text: &str) {
    let starts: std::collections::BTreeSet<usize> = text
        .lines()
        .filter(|l| l.contains("ORG"))
        .filter_map(|l| {
            let code = l.find("ORG")?;
            let after = code + l[code..].find(' ')?;
            Some(after + l[after..].find(|c: char| c != ' ')?)
        })
        .collect();
    assert_eq!(starts.len(), 1, "{text}");
}

#[test]
fn the_editor_gets_the_findings_of_an_unsaved_buffer() {
    let repo = Repo::with(&[
        ("toolc.toml", POLICY),
        (".cycod/tools/good.yaml", GOOD_TOOL),
    ]);
    let config = toolc::Config::discover(&repo.root, None).expect("config");
    let mut ws = toolc::Workspace::new(config, repo.root.clone());
    let custom = |report: &toolc::Report| -> Vec<String> {
        lines(report)
            .into_iter()
            .filter(|l| l.contains(" ORG"))
            .collect()
    };
    assert_eq!(
        custom(&ws.check_file(".cycod/tools/good.yaml")),
        Vec::<String>::new()
    );
    // The buffer drops the timeout: the editor sees ORG002 before the file is saved.
    ws.set_buffer(
        ".cycod/tools/good.yaml",
        GOOD_TOOL.replace("timeout: 30000\n", ""),
    );
    assert_eq!(
        custom(&ws.check_file(".cycod/tools/good.yaml")),
        [".cycod/tools/good.yaml:1:1 ORG002 error cycod tool `good` sets no timeout"]
    );
}

#[test]
fn a_run_from_the_cache_finds_what_a_fresh_run_finds() {
    let repo = policy_repo();
    let org = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter(|l| l.contains("(ORG"))
            .map(str::to_string)
            .collect()
    };
    let fresh = org(&toolc(
        &repo.root,
        &["check", "--no-cache", "--format", "github"],
    ));
    assert_eq!(fresh.len(), 5, "{fresh:?}");
    let cold = toolc(&repo.root, &["check", "--format", "github"]);
    let warm = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .env("TOOLC_DEBUG_CACHE", "1")
        .env("NO_COLOR", "1")
        .args(["check", "--format", "github"])
        .output()
        .expect("run toolc");
    // Every file came from the cache: their texts were let go and are read back.
    let err = String::from_utf8_lossy(&warm.stderr);
    assert!(
        err.contains("toolc: cache: 6 files from the cache, 0 loaded"),
        "{err}"
    );
    assert_eq!(org(&cold), fresh);
    assert_eq!(org(&warm), fresh);
}
