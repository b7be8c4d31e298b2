//! Files whose many small members a check kept in maps of its own (issue 29, row 10): the
//! definitions of reference links, paths looked up in a project, names an agentcli tool
//! passes through and an environment's variables. Measured as `dense.rs` measures, with the
//! debug binary; the figures are the release build's, at ten times the size.

use super::dense::assert_bounded;
use super::*;

fn skill(body: &str) -> String {
    format!("---\nname: big\ndescription: Summarise reports for the user.\n---\n\n{body}")
}

/// A body of nothing but link reference definitions (`[N]:b`, six bytes each): each was held
/// as its label and destination in a map, forty times its bytes at its peak (20x of the file
/// at a million); a hash of its label and the place of its destination now (3.8x).
#[test]
fn a_skill_of_three_hundred_thousand_link_definitions() {
    let defs: String = (0..300_000).map(|i| format!("[{i}]:b\n")).collect();
    let (small, dense) = (skill("[0]:b\n"), skill(&defs));
    assert_bounded("skills/big/SKILL.md", &small, &dense, 8.0);
}

/// Links to 300,000 missing files from a project's own skill: whether each is in the project
/// was remembered for every path (9.1x, release); for the first 4,096 only now (4.6x).
#[test]
fn a_project_skill_of_300_thousand_links_to_missing_files() {
    let links: String = (0..300_000).map(|i| format!("[a](b{i}.md) ")).collect();
    let (small, dense) = (skill("[a](b.md)\n"), skill(&links));
    assert_bounded(".claude/skills/big/SKILL.md", &small, &dense, 7.0);
}

fn agentcli_passing(names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    format!(
        r#"{{"tools":[{{"name":"t","description":"d","command":["./tools/bin/t"],"envPassthrough":[{}]}}]}}"#,
        names.join(",")
    )
}

/// `envPassthrough` of 950,000 names: their repeats were found through a map of every
/// name's hash (9.5x, release); by sorting the hashes now (3.4x). A repeat is still reported
/// with its first.
#[test]
fn an_agentcli_tool_passing_950_thousand_names() {
    let n = 950_000;
    let mut names: Vec<String> = (0..n).map(|i| format!("E{i}")).collect();
    let (small, dense) = (agentcli_passing(&names[..1]), agentcli_passing(&names));
    assert_bounded("tools.json", &small, &dense, 7.0);
    names.extend((n - 2..n).map(|i| format!("e{i}")));
    // The last two names and their repeats, in order: each repeat is named with its first.
    let repo = Repo::new();
    let last = &names[n - 2..];
    repo.write("tools.json", agentcli_passing(last).as_bytes());
    let output = run(&repo, &["check", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let repeats: Vec<&str> = doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["code"] == "ACL009")
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert_eq!(
        repeats,
        [
            r#"tool[0] "t": envPassthrough[2] "e949998" duplicates envPassthrough[0] once normalised to "E949998""#,
            r#"tool[0] "t": envPassthrough[3] "e949999" duplicates envPassthrough[1] once normalised to "E949999""#,
        ]
    );
}

/// A cycod `environment` of 400,000 variables: sorted for the lock's record of the tool as
/// entries built whole, and written out as a hash for each (11x at a million, release);
/// sorted by their places and kept as one digest now (2.3x).
#[test]
fn a_cycod_environment_of_four_hundred_thousand_variables() {
    let tool = |n: usize| {
        let vars: String = (0..n).map(|i| format!("  K{i}: v\n")).collect();
        format!("name: t\ndescription: d\nbash: echo hi\ntags: [read]\nenvironment:\n{vars}")
    };
    assert_bounded(".cycod/tools/t.yaml", &tool(1), &tool(400_000), 6.0);
}
