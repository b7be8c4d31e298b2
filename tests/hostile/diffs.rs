//! `toolc diff` of a pull request that adds, or changes, every tool of a large file: both
//! sides were held lowered whole (a `tools.json` of tiny tools took 49 times its size), and
//! the version check looked through every finding for each changed tool (300,000 changed
//! tools took 497 s in the release build).

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
/// found. Release build: 12x and 13x the larger file (49x and 73x before).
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
            ratio <= 20.0,
            "{old} -> {new} tools: {ratio:.1}x the larger file"
        );
    }
}

/// Every one of 30,000 tools runs another program: each change is still found and counted,
/// 200 are shown with one line for the rest, as `check` caps a rule in a file.
#[test]
fn a_diff_changing_every_tool_of_a_large_file() {
    let n = 30_000;
    let repo = common::change::history(&[("tools.json", &manifest(n, "x"))], &[]);
    repo.write("tools.json", manifest(n, "y").as_bytes());
    let out = run(&repo, &["diff", "--against", "HEAD", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let shown: Vec<&Value> = report["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|d| d["code"] == "BRK030")
        .collect();
    assert_eq!(shown.len(), 201, "200 and a line for the rest");
    assert!(
        shown[200]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("29800 more")),
        "{}",
        shown[200]
    );
    let out = run(
        &repo,
        &["diff", "--against", "HEAD", "--stat", "--format", "json"],
    );
    let stat: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let changed = stat["tools"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|t| t["kind"] == "changed" && t["findings"][1] == 1)
        .count();
    assert_eq!(changed, n, "every tool changed, each with its finding");
}
