//! A repository of many files of many findings each (issue 29): the cap of a rule's
//! findings in a file bounds one file, not a run, so 2,000 `tools.json` of 603 findings
//! each (6.5 MB) held 1.2 million findings to the report: 792 MB and 11 s. Past 50,000
//! findings a run shows fewer of each rule in every file, and still counts them all.

use super::dense::peak_memory_in;
use super::*;

/// Bytes a run may hold for each byte of the repository beyond what a run over one of its
/// files takes: 23.6 here, when each of the 402,000 nameless tools (16 bytes each in the
/// files) was held as a whole lowered tool and the files checked before the run's level
/// fell came to the report with all their findings; 10.0 now.
const PER_BYTE: f64 = 14.0;

/// `n` files of 201 tools that have no name, description or command: three findings each.
fn nameless(n: usize) -> Repo {
    let repo = Repo::new();
    let tools = vec![r#"{"command":[]}"#; 201].join(",\n");
    let text = format!("{{\"tools\":[\n{tools}]}}\n");
    for i in 0..n {
        repo.write(&format!("m{i}/tools.json"), text.as_bytes());
    }
    repo
}

fn json(repo: &Repo, args: &[&str]) -> Value {
    let output = run(repo, args);
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

/// Write the baseline of `repo`.
fn record(repo: &Repo) {
    let written = run(repo, &["check", "--write-baseline"]);
    assert_eq!(written.status.code(), Some(0));
}

/// The JSON report of `repo` with its baseline.
fn with_baseline(repo: &Repo) -> Value {
    let args = [
        "check",
        "--baseline",
        "toolc-baseline.json",
        "--format",
        "json",
        ".",
    ];
    json(repo, &args)
}

/// How many findings of `code` the diagnostics stand for: each, and each line's count.
fn standing_for(doc: &Value, code: &str) -> u64 {
    let more = |m: &str| {
        m.strip_suffix(" more findings of this rule in this file are not shown")
            .and_then(|n| n.parse().ok())
    };
    doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["code"] == code)
        .map(|d| d["message"].as_str().and_then(more).unwrap_or(1))
        .sum()
}

#[test]
fn two_thousand_files_of_six_hundred_findings_each() {
    const FILES: usize = 2_000;
    let repo = nameless(FILES);
    let doc = json(&repo, &["check", "--no-cache", "--format", "json", "."]);
    // Each file shows the same first findings of each rule, and a line counts the rest.
    assert_eq!(doc["summary"]["shown_per_rule"], 5, "{}", doc["summary"]);
    let shown = doc["diagnostics"].as_array().map_or(0, Vec::len);
    assert!(shown <= 50_000, "{shown} findings shown");
    assert_eq!(standing_for(&doc, "ACL001"), (FILES * 201) as u64);
    let first = doc["diagnostics"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["code"] == "ACL001"))
        .expect("a finding");
    assert_eq!(first["message"], "tool[0]: name is required");
    // The human summary says so.
    let human = run(&repo, &["check", "--no-cache", "."]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("each file shows its first 5 findings of each rule"),
        "{}",
        text.lines().rev().take(3).collect::<Vec<_>>().join("\n")
    );

    let peak = |repo: &Repo| {
        let mut command = Command::cargo_bin("toolc").expect("binary");
        command
            .args(["check", "--no-cache", "-q", "."])
            .current_dir(&repo.root);
        peak_memory_in(command)
    };
    let Some(one) = peak(&nameless(1)) else {
        return;
    };
    let all = peak(&repo).expect("measured before");
    let bytes = (FILES * 3_227) as f64;
    let per_byte = (all - one) / bytes;
    assert!(
        per_byte <= PER_BYTE,
        "{FILES} files took {:.1} MiB beyond one: {per_byte:.1} times their size",
        (all - one) / 1048576.0
    );
}

/// Past the findings a run holds, a comment suppressing a finding of a rule only counted in
/// its file is not called unused: it may cover one of those not shown. Within the cap, an
/// unused one still is.
#[test]
fn a_suppression_among_findings_past_the_cap_is_not_called_unused() {
    let repo = Repo::new();
    let keys = |n: usize, commented: usize| -> String {
        (0..n)
            .map(|i| match i == commented {
                true => format!("extra_{i}: 1 # toolc: ignore CYC001\n"),
                false => format!("extra_{i}: 1\n"),
            })
            .collect()
    };
    let tool =
        |keys: String| format!("name: t\ndescription: d\nbash: echo hi\ntags: [read]\n{keys}");
    repo.write(".cycod/tools/t.yaml", tool(keys(260, 250)).as_bytes());
    repo.write(".cycod/tools/u.yaml", tool(keys(3, 99)).as_bytes());
    repo.write(
        ".cycod/tools/v.yaml",
        format!("{}# toolc: ignore CYC001\n", tool(keys(3, 99))).as_bytes(),
    );
    let doc = json(&repo, &["check", "--format", "json", "."]);
    let unused: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("matches no diagnostic"))
        })
        .collect();
    assert_eq!(unused.len(), 1, "{unused:#?}");
    assert_eq!(unused[0]["path"], ".cycod/tools/v.yaml");
}

/// A baseline keeps hiding a file's findings past the cap when the run shows a different
/// number of them: fewer, once the repository holds more findings than a run shows, and
/// more again once they are fixed elsewhere. It hides no more than it recorded.
#[test]
fn a_baseline_hides_what_it_recorded_whatever_the_run_shows_of_it() {
    let repo = Repo::new();
    let tool = |name: &str, n: usize| {
        let keys: String = (0..n).map(|i| format!("extra_{i}: 1\n")).collect();
        format!("name: {name}\ndescription: d\nbash: echo hi\ntags: [read]\n{keys}")
    };
    let crowd = |repo: &Repo, on: bool| {
        for i in 0..260 {
            let path = repo.root.join(format!(".cycod/tools/c{i}.yaml"));
            if on {
                repo.write(
                    &format!(".cycod/tools/c{i}.yaml"),
                    tool(&format!("c{i}"), 201).as_bytes(),
                );
            } else {
                let _ = std::fs::remove_file(path);
            }
        }
    };
    // The level the run showed, the findings of `t` shown, and the stale entries.
    let shown = |repo: &Repo| {
        let doc = with_baseline(repo);
        let all = doc["diagnostics"].as_array().cloned().unwrap_or_default();
        let of = |keep: &dyn Fn(&Value) -> bool| all.iter().filter(|d| keep(d)).count();
        let of_t: Vec<Value> = all
            .iter()
            .filter(|d| d["path"] == ".cycod/tools/t.yaml")
            .cloned()
            .collect();
        let level = doc["summary"]["shown_per_rule"].as_u64();
        (level, of_t, of(&|d| d["code"] == "TLC004"))
    };
    repo.write(".cycod/tools/t.yaml", tool("t", 250).as_bytes());
    // Recorded at the usual cap: 200 findings and a line for 50.
    record(&repo);
    crowd(&repo, true);
    assert_eq!(shown(&repo), (Some(100), Vec::new(), 0));
    crowd(&repo, false);
    assert_eq!(shown(&repo), (None, Vec::new(), 0));
    // Recorded at a lower cap: 100 findings and a line for 150, then shown at 200 (the
    // other files' entries are stale then).
    crowd(&repo, true);
    record(&repo);
    crowd(&repo, false);
    let (level, of_t, _) = shown(&repo);
    assert_eq!((level, of_t), (None, Vec::new()));
    // Recorded where the rule was not capped in the file, then counted by the run's line
    // once the repository holds more findings: still hidden, and no entry is stale.
    repo.write(".cycod/tools/t.yaml", tool("t", 150).as_bytes());
    record(&repo);
    crowd(&repo, true);
    assert_eq!(shown(&repo), (Some(100), Vec::new(), 0));
    crowd(&repo, false);
    // One more finding than recorded is shown: the line for the rest, which says how many
    // of them the baseline still hides.
    repo.write(".cycod/tools/t.yaml", tool("t", 250).as_bytes());
    crowd(&repo, true);
    record(&repo);
    crowd(&repo, false);
    repo.write(".cycod/tools/t.yaml", tool("t", 251).as_bytes());
    let (_, of_t, _) = shown(&repo);
    assert_eq!(of_t.len(), 1, "{of_t:#?}");
    assert!(
        of_t[0]["notes"]
            .to_string()
            .contains("the baseline hides 50 of them"),
        "{of_t:#?}"
    );
}

/// A line standing for findings past the cap hides all it counts: a comment on its line, or
/// the baseline, hides that many findings, and every summary says that many (it said one).
#[test]
fn what_a_line_for_the_rest_hides_is_counted_whole() {
    let keys = |commented: Option<usize>| -> String {
        (0..250)
            .map(|i| match Some(i) == commented {
                true => format!("extra_{i}: 1 # toolc: ignore CYC001\n"),
                false => format!("extra_{i}: 1\n"),
            })
            .collect()
    };
    let tool =
        |keys: String| format!("name: t\ndescription: d\nbash: echo hi\ntags: [read]\n{keys}");
    let repo = Repo::new();
    // The 201st finding is where the line for the other 49 and itself is.
    repo.write(".cycod/tools/t.yaml", tool(keys(Some(200))).as_bytes());
    let doc = json(&repo, &["check", "--format", "json", "."]);
    assert_eq!(doc["summary"]["suppressed"], 50, "{}", doc["summary"]);
    let sarif = run(&repo, &["check", "--format", "sarif", "."]);
    let sarif: Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    assert_eq!(sarif["runs"][0]["properties"]["toolc/suppressed"], 50);

    repo.write(".cycod/tools/t.yaml", tool(keys(None)).as_bytes());
    record(&repo);
    let doc = with_baseline(&repo);
    assert_eq!(doc["summary"]["baselined"], 250, "{}", doc["summary"]);
}

/// Findings far below the key their lines are nested under: a skill's `metadata` of 400,000
/// plain entries, then 300 flow mappings (not strings, and not portable). A finding's fingerprint (SARIF, GitLab, a
/// baseline) searched the lines above it one by one for that key, so its 200 findings walked
/// the whole list each (2.4 million entries: 23 s for SARIF in the release build, 2.6 s
/// without fingerprints; as fast with them now). The fingerprints stay what they were: the
/// baseline written hides every finding it recorded.
#[test]
fn fingerprints_of_findings_far_below_their_key() {
    let repo = Repo::new();
    let mut skill =
        String::from("---\nname: big\ndescription: Summarise reports for the user.\nmetadata:\n");
    skill.extend((0..400_000).map(|i| format!("  k{i}: v\n")));
    skill.extend((0..300).map(|i| format!("  z{i}: {{a: b}}\n")));
    skill.push_str("---\n\n# Big\n");
    repo.write("skills/big/SKILL.md", skill.as_bytes());
    for format in ["sarif", "gitlab"] {
        let started = Instant::now();
        let out = run(&repo, &["check", "--format", format]);
        assert!(
            started.elapsed().as_secs() < 30,
            "{format}: {:?}",
            started.elapsed()
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.matches("SKL002").count() >= 200,
            "{format}: {text:.2000}"
        );
    }
    let started = Instant::now();
    record(&repo);
    let doc = with_baseline(&repo);
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    assert_eq!(standing_for(&doc, "SKL002"), 0, "{doc:#}");
    assert_eq!(standing_for(&doc, "SKL010"), 0, "{doc:#}");
}
