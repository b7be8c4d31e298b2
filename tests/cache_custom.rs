//! Custom rules and the content cache: a file's custom findings are cached with it, under
//! the custom rules that read it, so a warm run loads nothing and says what `--no-cache`
//! says; a change to a rule (in the root file, a file it `extend`s, or a nested
//! `toolc.toml`) loads again exactly the files that rule reads.

mod common;

use common::Repo;
use common::cache::{counts, json, run};

const SHARED: &str = r#"[[custom-rules]]
code = "ORG001"
name = "description-too-short"
severity = "warning"
message = "tool `{name}`: describe it in at least 40 characters"
formats = ["cycod-tool"]
then = { field = "description", function = "length", options = { min = 40 } }
"#;

const ROOT: &str = r#"extend = "policy/shared.toml"

[[custom-rules]]
code = "ORG002"
name = "skill-license"
severity = "info"
message = "skill `{name}` names no license"
subject = "file"
formats = ["agent-skill"]
then = { field = "license", function = "truthy" }
"#;

const NESTED: &str = r#"[[custom-rules]]
code = "ORG003"
name = "cycod-timeout"
severity = "error"
message = "cycod tool `{name}` sets no timeout"
subject = "file"
formats = ["cycod-tool"]
then = { field = "timeout", function = "defined" }
"#;

const SHORT_TOOL: &str = "name: list\ndescription: Lists files\nbash: ls -1\n";
const SKILL: &str = "---\nname: notes\ndescription: Writes release notes from merged pull requests. Use when preparing a release.\n---\n\nGroup the merges.\n";

/// Two cycod tools (one at the root, one under `team/` with its own `toolc.toml`) and a
/// skill, with rules from the root file, a shared file it extends and the nested file.
fn repo() -> Repo {
    Repo::with(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("toolc.toml", ROOT),
        ("policy/shared.toml", SHARED),
        (".cycod/tools/list.yaml", SHORT_TOOL),
        (
            "team/toolc.toml",
            &format!("extend = \"../toolc.toml\"\n{NESTED}"),
        ),
        ("team/.cycod/tools/list.yaml", SHORT_TOOL),
        (".claude/skills/notes/SKILL.md", SKILL),
    ])
}

/// The run with the cache, checked against `--no-cache`.
fn same_as_uncached(repo: &Repo) -> (String, (usize, usize)) {
    let out = run(&repo.root, &[]);
    assert_eq!(
        json(&out),
        json(&run(&repo.root, &["--no-cache"])),
        "cached and uncached differ"
    );
    (json(&out), counts(&out))
}

fn findings(report: &str, code: &str) -> usize {
    report.matches(&format!("\"code\": \"{code}\"")).count()
}

#[test]
fn custom_findings_are_cached_and_a_warm_run_loads_nothing() {
    let repo = repo();
    let (cold, loaded) = same_as_uncached(&repo);
    assert_eq!(loaded, (0, 3), "{cold}");
    assert_eq!(findings(&cold, "ORG001"), 2, "{cold}");
    assert_eq!(findings(&cold, "ORG002"), 1, "{cold}");
    assert_eq!(findings(&cold, "ORG003"), 1, "{cold}");
    let (warm, counted) = same_as_uncached(&repo);
    assert_eq!(counted, (3, 0), "{warm}");
    assert_eq!(warm, cold);
}

#[test]
fn a_change_to_an_extended_rule_loads_again_the_files_it_reads() {
    let repo = repo();
    same_as_uncached(&repo);
    repo.write(
        "policy/shared.toml",
        SHARED.replace("min = 40", "min = 5").as_bytes(),
    );
    let (report, counted) = same_as_uncached(&repo);
    // Both cycod tools: the skill is read by no rule of that file.
    assert_eq!(counted, (1, 2), "{report}");
    assert_eq!(findings(&report, "ORG001"), 0, "{report}");
    assert_eq!(findings(&report, "ORG003"), 1, "{report}");
}

#[test]
fn a_change_to_a_nested_rule_loads_again_only_its_files() {
    let repo = repo();
    same_as_uncached(&repo);
    let nested = format!("extend = \"../toolc.toml\"\n{NESTED}").replace("\"timeout\"", "\"tags\"");
    repo.write("team/toolc.toml", nested.as_bytes());
    let (report, counted) = same_as_uncached(&repo);
    assert_eq!(counted, (2, 1), "{report}");
    assert!(report.contains("`tags` is missing"), "{report}");
    // A rule taken away takes its findings with it.
    repo.write("team/toolc.toml", b"extend = \"../toolc.toml\"\n");
    let (report, counted) = same_as_uncached(&repo);
    assert_eq!(counted, (2, 1), "{report}");
    assert_eq!(findings(&report, "ORG003"), 0, "{report}");
    assert_eq!(findings(&report, "ORG001"), 2, "{report}");
}

#[test]
fn a_run_that_selects_only_custom_rules_says_the_same_cached() {
    let repo = repo();
    for _ in 0..2 {
        let out = run(&repo.root, &["--select", "ORG"]);
        let uncached = run(&repo.root, &["--select", "ORG", "--no-cache"]);
        assert_eq!(json(&out), json(&uncached));
        assert_eq!(findings(&json(&out), "ORG001"), 2, "{}", json(&out));
    }
}

/// A rule whose `given` selects nothing in the files it reads: `$.frontmatter` of a skill
/// (its keys are the front matter's own), next to one that selects something.
const NOTHING: &str = r#"[[custom-rules]]
code = "ORG004"
name = "skill-owner"
severity = "error"
message = "skill names no owner"
subject = "file"
formats = ["agent-skill"]
given = "$.frontmatter"
then = { field = "owner", function = "truthy" }

[[custom-rules]]
code = "ORG005"
name = "no-mcp-servers"
severity = "error"
message = "no MCP server"
subject = "file"
formats = ["mcp-config"]
given = "$.mcpServers"
then = { function = "falsy" }
"#;

#[test]
fn a_rule_that_selects_nothing_is_warned_of_at_its_given_with_the_cache_too() {
    let repo = repo();
    let root = repo.root.join("toolc.toml");
    std::fs::write(&root, format!("{ROOT}\n{NOTHING}")).expect("write");
    let (cold, _) = same_as_uncached(&repo);
    assert_eq!(findings(&cold, "TLC007"), 1, "{cold}");
    assert!(cold.contains("custom rule ORG004"), "{cold}");
    // ORG002 selects the skill's front matter; ORG005 reads no file (there is no MCP
    // configuration): neither is reported.
    assert!(!cold.contains("custom rule ORG002"), "{cold}");
    assert!(!cold.contains("custom rule ORG005"), "{cold}");
    // At the `given` of toolc.toml.
    let text = std::fs::read_to_string(&root).expect("read");
    let line = text
        .lines()
        .position(|l| l.contains("$.frontmatter"))
        .expect("given")
        + 1;
    assert!(cold.contains(&format!("\"line\": {line}")), "{cold}");
    // A warm run, which loads nothing, says the same.
    let (warm, loaded) = same_as_uncached(&repo);
    assert_eq!(loaded.1, 0, "the warm run loaded files");
    assert_eq!(warm, cold);

    // Fixed: the warning goes.
    let fixed = NOTHING.replace("$.frontmatter", "$");
    std::fs::write(&root, format!("{ROOT}\n{fixed}")).expect("write");
    let (after, _) = same_as_uncached(&repo);
    assert_eq!(findings(&after, "TLC007"), 0, "{after}");
}

#[test]
fn a_rule_that_selects_wherever_something_appears_may_select_nothing() {
    let repo = repo();
    let anywhere = NOTHING
        .replace("$.frontmatter", "$..image")
        .replace("$.mcpServers", "$.x");
    std::fs::write(repo.root.join("toolc.toml"), format!("{ROOT}\n{anywhere}")).expect("write");
    let (report, _) = same_as_uncached(&repo);
    assert_eq!(findings(&report, "TLC007"), 0, "{report}");
}
