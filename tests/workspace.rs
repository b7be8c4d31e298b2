//! The library an editor drives: buffers over the disk, and re-checks of one changed file.

mod common;

use common::{
    BASE_TOOL as TOOL, DOJOPS_1_0, Repo, TRIAGE_AGENT as AGENT, VALID_SCHEMA, VALID_TOOL,
};
use toolc::Config;
use toolc::Workspace;

fn workspace(repo: &Repo) -> Workspace {
    let config = Config::discover(&repo.root, None).expect("config");
    Workspace::new(config, repo.root.clone())
}

/// `path CODE` per diagnostic of the report.
fn codes(report: &toolc::Report) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.file.display(), d.rule.code))
        .collect()
}

fn files(report: &toolc::Report) -> Vec<&str> {
    report.files.iter().map(|f| f.display()).collect()
}

#[test]
fn an_unsaved_buffer_is_checked_in_place_of_the_file_on_disk() {
    let repo = Repo::with(&[("tools/search-docs.tool.md", TOOL)]);
    let mut ws = workspace(&repo);
    assert_eq!(codes(&ws.check()), Vec::<String>::new());

    let broken = TOOL.replace("type: \"retrieval\"", "type: \"retreival\"");
    ws.set_buffer("tools/search-docs.tool.md", broken);
    let report = ws.check_file("tools/search-docs.tool.md");
    assert_eq!(codes(&report), ["tools/search-docs.tool.md TMD006"]);
    // The disk still holds the valid file: only the buffer is broken.
    assert!(
        common::check_dir(&repo.root)
            .expect("config")
            .diagnostics
            .is_empty()
    );

    ws.set_buffer("tools/search-docs.tool.md", TOOL);
    let report = ws.check_file("tools/search-docs.tool.md");
    assert_eq!(codes(&report), Vec::<String>::new());
    assert_eq!(files(&report), ["tools/search-docs.tool.md"]);
}

#[test]
fn disabling_a_tool_reports_the_agent_that_references_it_and_enabling_clears_it() {
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", TOOL),
        ("agents/triage.agent.md", AGENT),
    ]);
    let mut ws = workspace(&repo);
    assert_eq!(codes(&ws.check()), Vec::<String>::new());

    let disabled = TOOL.replace("status: \"active\"", "status: \"disabled\"");
    ws.set_buffer("tools/search-docs.tool.md", disabled);
    let report = ws.check_file("tools/search-docs.tool.md");
    assert_eq!(codes(&report), ["agents/triage.agent.md REF021"]);

    assert!(ws.remove_buffer("tools/search-docs.tool.md"));
    let report = ws.check_file("tools/search-docs.tool.md");
    assert_eq!(codes(&report), Vec::<String>::new());
    // The agent is named, so an editor clears the finding it showed.
    assert_eq!(
        files(&report),
        ["agents/triage.agent.md", "tools/search-docs.tool.md"]
    );
}

#[test]
fn a_buffer_for_a_file_not_on_disk_adds_it_and_removing_the_buffer_removes_it() {
    let repo = Repo::with(&[("tools/search-docs.tool.md", TOOL)]);
    let mut ws = workspace(&repo);
    ws.check();
    ws.set_buffer("tools/copy.tool.md", TOOL);
    let report = ws.check_file("tools/copy.tool.md");
    // The new file's own finding, and the duplicate id now reported on the other file.
    assert_eq!(
        codes(&report),
        [
            "tools/copy.tool.md TMD028",
            "tools/search-docs.tool.md TMD024"
        ]
    );

    // Closing the buffer of a file that is not on disk removes it from the repository.
    ws.remove_buffer("tools/copy.tool.md");
    let report = ws.check_file("tools/copy.tool.md");
    assert_eq!(codes(&report), Vec::<String>::new());
    assert_eq!(files(&report), ["tools/search-docs.tool.md"]);
}

#[test]
fn a_change_to_a_schema_file_rechecks_the_manifest_that_reads_it() {
    let repo = Repo::with(&[
        DOJOPS_1_0,
        (".dojops/tools/my-tool/tool.yaml", VALID_TOOL),
        (".dojops/tools/my-tool/input.schema.json", VALID_SCHEMA),
    ]);
    let mut ws = workspace(&repo);
    assert_eq!(codes(&ws.check()), Vec::<String>::new());

    let schema = ".dojops/tools/my-tool/input.schema.json";
    ws.set_buffer(schema, r#"{"type": "object", "properties": {}"#);
    let report = ws.check_file(schema);
    assert_eq!(
        codes(&report),
        [".dojops/tools/my-tool/input.schema.json SYN002"]
    );

    ws.remove_buffer(schema);
    assert_eq!(codes(&ws.check_file(schema)), Vec::<String>::new());
}

/// `count` nameless, commandless tools: three findings each (no name, no description, no
/// command).
fn nameless_tools(count: usize) -> String {
    format!(
        r#"{{"tools":[{}]}}"#,
        vec![r#"{"command":[]}"#; count].join(",")
    )
}

/// How many findings of `code` in `path` the report shows one by one.
fn shown(report: &toolc::Report, path: &str, code: &str) -> usize {
    report
        .diagnostics
        .iter()
        .filter(|d| d.file.display() == path && d.rule.code == code && d.omitted == 0)
        .count()
}

/// A workspace past the findings a run holds shows fewer of each rule in each file; once
/// an edit fixes enough of them, a re-check shows as many as a new check would.
#[test]
fn a_re_check_shows_as_many_findings_as_the_workspace_now_needs() {
    let files: Vec<(String, String)> = (0..100)
        .map(|i| (format!("m{i}/tools.json"), nameless_tools(201)))
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let repo = Repo::with(&refs);
    let mut ws = workspace(&repo);
    // 100 files of 603 findings: past 50,000 at 200 of a rule in a file, within it at 100.
    let full = ws.check();
    assert_eq!(full.summary.shown_per_rule, Some(100));
    assert_eq!(shown(&full, "m99/tools.json", "ACL001"), 100);
    let fixed = r#"{"tools":[]}"#;
    for i in 0..30 {
        ws.set_buffer(format!("m{i}/tools.json"), fixed);
        ws.check_file(format!("m{i}/tools.json"));
    }
    ws.set_buffer("m99/tools.json", nameless_tools(202));
    let report = ws.check_file("m99/tools.json");
    assert_eq!(shown(&report, "m99/tools.json", "ACL001"), 200);
    assert_eq!(report.summary.shown_per_rule, None);
}
