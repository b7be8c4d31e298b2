//! A repository's own custom rules cannot make a run unbounded (issue 29, docs/security.md):
//! a rule's findings are capped per file like every other rule's, and what a rule reads of a
//! file has a budget, past which it stops and says so (TLC008). Each test runs the built
//! binary on a repository written as the attack, and bounds its peak memory (time is the
//! CI machine's; a hang runs into the limit).

mod common;

use std::time::Duration;

use assert_cmd::Command;
use common::Repo;
use serde_json::Value;

/// Generous: the debug binary on a shared machine. Before the budget the attack at depth
/// 150 ran for over 20 seconds in the release binary, and past 9 GB.
const HANG_LIMIT: Duration = Duration::from_secs(90);

/// The red team's rule (repro 5): `$..*..*..*` selects each node once for every pair of
/// nodes above it.
const BOMB: &str = r#"[[custom-rules]]
code = "ORGA001"
name = "bomb"
severity = "warning"
message = "x"
subject = "file"
given = "$..*..*..*"
then = { function = "falsy" }
"#;

/// A skill whose front matter holds a list of fifty `1`s nested `depth` deep (392 bytes at
/// depth 100).
fn nested_skill(depth: usize) -> String {
    format!(
        "---\nname: s\ndescription: A skill that does a thing. Use when asked.\nmetadata:\n  x: {}{}{}\n---\nbody\n",
        "[".repeat(depth),
        vec!["1"; 50].join(","),
        "]".repeat(depth)
    )
}

/// What `toolc check --no-cache --format json` reports in `repo`: the diagnostics, and the
/// peak resident memory in bytes where toolc can read it (Linux).
fn run(repo: &Repo) -> (Vec<Value>, Option<f64>) {
    run_with(repo, &[])
}

/// [`run`] with more arguments.
fn run_with(repo: &Repo, more: &[&str]) -> (Vec<Value>, Option<f64>) {
    let output = Command::cargo_bin("toolc")
        .expect("binary")
        .args(["check", "--no-cache", "--format", "json", "."])
        .args(more)
        .env("TOOLC_DEBUG_TIMES", "1")
        .current_dir(&repo.root)
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "toolc must finish, got {:?}\n{}",
        output.status,
        &stderr[stderr.len().saturating_sub(2_000)..]
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let diagnostics = report["diagnostics"]
        .as_array()
        .cloned()
        .expect("diagnostics");
    let peak = stderr
        .lines()
        .rev()
        .filter_map(|l| l.split("peak").nth(1)?.trim().strip_suffix("MiB"))
        .find_map(|n| n.trim().parse::<f64>().ok())
        .map(|mib| mib * 1024.0 * 1024.0);
    (diagnostics, peak)
}

fn of<'a>(diagnostics: &'a [Value], code: &str) -> Vec<&'a Value> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

fn message(d: &Value) -> &str {
    d["message"].as_str().unwrap_or_default()
}

/// No custom rule stopped on any file: each read its files to the end (no `TLC008`).
fn assert_read_to_the_end(found: &[Value]) {
    let stopped = of(found, "TLC008");
    assert!(stopped.is_empty(), "{stopped:#?}");
}

/// The attack at depth 150 (492 bytes): 2.4 GB and 419,150 findings at depth 100 before,
/// over 9 GB and past 20 seconds at 150. Now the walk stops at its budget, the rule keeps
/// its first findings and counts the rest, and TLC008 says the file was not fully checked.
#[test]
fn a_rule_that_selects_each_node_again_and_again_stops_at_its_budget_and_says_so() {
    let small = Repo::new();
    small.write("toolc.toml", BOMB.as_bytes());
    small.write(".claude/skills/s/SKILL.md", nested_skill(3).as_bytes());
    let (found, base) = run(&small);
    assert!(of(&found, "TLC008").is_empty(), "{found:#?}");

    let repo = Repo::new();
    repo.write("toolc.toml", BOMB.as_bytes());
    repo.write(".claude/skills/s/SKILL.md", nested_skill(150).as_bytes());
    let (found, peak) = run(&repo);
    let bomb = of(&found, "ORGA001");
    // Capped as it is found: at most 200 (alike ones are shown once) and the line that
    // counts the rest.
    assert!(bomb.len() <= 201, "{}", bomb.len());
    let rest: Vec<&&Value> = bomb
        .iter()
        .filter(|d| message(d).ends_with("more findings of this rule in this file are not shown"))
        .collect();
    assert_eq!(rest.len(), 1, "{bomb:#?}");
    let counted: u64 = message(rest[0])
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // The rules of a file read 10,000 nodes of it together, and 2 more per byte: the
    // walk enters about two nodes for each it selects, and the function reads one.
    assert!(counted > 3_000, "{}", message(rest[0]));
    let stopped = of(&found, "TLC008");
    assert_eq!(stopped.len(), 1, "{found:#?}");
    assert!(
        message(stopped[0]).starts_with(
            "custom rule ORGA001 was not fully checked in this file: the custom rules read the"
        ),
        "{}",
        message(stopped[0])
    );
    assert_eq!(stopped[0]["path"], ".claude/skills/s/SKILL.md");
    assert_eq!(stopped[0]["severity"], "warning");
    // Memory: 200 findings and a small tree, whatever the rule selects (2.4 GB before, at
    // depth 100).
    if let (Some(base), Some(peak)) = (base, peak) {
        let beyond = (peak - base) / 1048576.0;
        assert!(
            beyond < 24.0,
            "{beyond:.1} MiB beyond the {:.1} MiB of the same rule on a small file",
            base / 1048576.0
        );
    }
}

/// A budget per subject would be multiplied by the subjects of a file: 2,000 tools of one
/// `tools.json`, each within any per-tool budget, are one budget, one stop, one TLC008.
#[test]
fn the_subjects_of_a_file_share_one_budget_and_one_finding() {
    let nest = format!("{}1,2,3{}", "[".repeat(25), "]".repeat(25));
    let tools: Vec<String> = (0..2_000)
        .map(|i| {
            format!(
                r#"{{"name": "t{i}", "description": "Tool number {i} of the many", "schema": {{"type": "object", "properties": {{"p": {{"type": "array", "default": {nest}}}}}}}, "command": ["true"]}}"#
            )
        })
        .collect();
    let repo = Repo::new();
    repo.write(
        "toolc.toml",
        br#"[[custom-rules]]
code = "ORGB001"
name = "no-empty-parameter-values"
severity = "warning"
message = "an empty value in the parameters of `{name}`"
given = "$.parameters..*..*..*..*"
then = { function = "truthy" }
"#,
    );
    repo.write(
        "tools.json",
        format!("{{\"tools\": [\n{}\n]}}\n", tools.join(",\n")).as_bytes(),
    );
    let (found, _) = run(&repo);
    assert!(of(&found, "ORGB001").is_empty(), "nothing is empty");
    let stopped = of(&found, "TLC008");
    assert_eq!(stopped.len(), 1, "{stopped:#?}");
    assert!(message(stopped[0]).contains("ORGB001"));
    assert_eq!(stopped[0]["path"], "tools.json");
    // The note says why: the `given` reads the nodes below each node again and again.
    let note = format!("{:?}", stopped[0]["notes"]);
    assert!(
        note.contains("selects the nodes below each node again"),
        "{note}"
    );
}

/// A `given` that selects each node once can still read more than the budget with what
/// its `then` reads: `enumeration` on every value of a list nested 150 deep reads each
/// level's whole list. The note says so, not that the path reads nodes again.
#[test]
fn a_rule_that_reads_each_node_once_says_its_then_read_too_much() {
    let repo = Repo::new();
    repo.write(
        "toolc.toml",
        br#"[[custom-rules]]
code = "ORGD001"
name = "no-empty-lists"
severity = "warning"
message = "an empty list"
subject = "file"
given = "$..*"
then = { function = "enumeration", options = { values = [[]] } }
"#,
    );
    let zeros = vec!["0"; 10_000].join(",");
    let nested = format!("{}{zeros}{}", "[".repeat(150), "]".repeat(150));
    repo.write(
        "tools.json",
        format!(r#"{{"tools": [{{"name": "t", "command": ["true"], "x": {nested}}}]}}"#).as_bytes(),
    );
    let (found, _) = run(&repo);
    let stopped = of(&found, "TLC008");
    assert_eq!(stopped.len(), 1, "{found:#?}");
    assert!(
        message(stopped[0]).contains("it would read more of it than the"),
        "{}",
        message(stopped[0])
    );
    let note = format!("{:?}", stopped[0]["notes"]);
    assert!(note.contains("what its `then` reads"), "{note}");
    assert!(!note.contains("again"), "{note}");
}

/// A path left to the JSONPath engine (here a slice) runs only when the estimate of what it
/// would read fits: this one would make billions of entries before its first node.
#[test]
fn a_path_too_costly_for_the_engine_is_not_run_and_says_so() {
    let repo = Repo::new();
    repo.write(
        "toolc.toml",
        BOMB.replace("$..*..*..*", "$..*..*..[0:1]").as_bytes(),
    );
    repo.write(".claude/skills/s/SKILL.md", nested_skill(150).as_bytes());
    let (found, _) = run(&repo);
    assert!(of(&found, "ORGA001").is_empty());
    let stopped = of(&found, "TLC008");
    assert_eq!(stopped.len(), 1, "{found:#?}");
    assert!(
        message(stopped[0]).contains("would have the JSONPath engine read about"),
        "{}",
        message(stopped[0])
    );
}

/// Honest rules never meet the budget: the recipe "no TODO in anything the model reads"
/// (`$..description`) and a rule on every value (`$..*`) read a `tools.json` of 3,000 tools
/// (about 1 MB) to its end, every finding counted, and no TLC008.
#[test]
fn honest_rules_read_a_large_file_to_its_end() {
    let tools: Vec<String> = (0..3_000)
        .map(|i| {
            let todo = if i % 20 == 0 { "TODO say which" } else { "Which" };
            format!(
                r#"{{"name": "t{i}", "description": "Tool number {i} of the many", "schema": {{"type": "object", "properties": {{"dir": {{"type": "string", "description": "{todo} folder to list"}}, "depth": {{"type": "integer", "description": "How deep"}}}}}}, "command": ["true"]}}"#
            )
        })
        .collect();
    let repo = Repo::new();
    repo.write(
        "toolc.toml",
        br#"[[custom-rules]]
code = "ORG004"
name = "no-todo"
severity = "warning"
message = "a TODO is left where the model reads it"
given = "$..description"
then = { function = "notPattern", options = { pattern = "\\b(TODO|FIXME|XXX)\\b" } }

[[custom-rules]]
code = "ORG009"
name = "no-todo-anywhere"
severity = "warning"
message = "a TODO is left in the file"
subject = "file"
given = "$..*"
then = { function = "notPattern", options = { pattern = "\\bTODO\\b" } }
"#,
    );
    repo.write(
        "tools.json",
        format!("{{\"tools\": [\n{}\n]}}\n", tools.join(",\n")).as_bytes(),
    );
    let (found, _) = run(&repo);
    assert_read_to_the_end(&found);
    // 150 tools with a TODO: each tool's own findings, under the cap.
    assert_eq!(of(&found, "ORG004").len(), 150);
    // The file rule: 150 findings in one file, all kept.
    assert_eq!(of(&found, "ORG009").len(), 150);
}

/// A tool's schema in a file of its own is read by the tool's rules: its bytes count for
/// the budget as the tool's own do. A DojOps tool of 300 bytes whose `input.schema.json`
/// is 3 MB is read to the end by `$.parameters..*`.
#[test]
fn a_schema_in_its_own_file_is_read_to_its_end() {
    let properties: Vec<String> = (0..40_000)
        .map(|i| {
            format!(
                r#""p{i}": {{"type": "array", "description": "Item {i}", "items": {{"type": "string", "enum": ["a", "b", "c", "d", "e"]}}}}"#
            )
        })
        .collect();
    let schema = format!(
        "{{\"type\": \"object\", \"properties\": {{{}}}}}",
        properties.join(",\n")
    );
    assert!(schema.len() > 3_000_000);
    let repo = Repo::new();
    repo.write(
        "toolc.toml",
        format!(
            "{}\n{}",
            common::DOJOPS_1_0.1,
            r#"[[custom-rules]]
code = "ORGC001"
name = "no-todo-in-parameters"
severity = "warning"
message = "a TODO in the parameters"
given = "$.parameters..*"
then = { function = "notPattern", options = { pattern = "\\bTODO\\b" } }
"#
        )
        .as_bytes(),
    );
    repo.write(
        ".dojops/tools/big/tool.yaml",
        common::VALID_TOOL.replace("my-tool", "big").as_bytes(),
    );
    repo.write(".dojops/tools/big/input.schema.json", schema.as_bytes());
    let (found, _) = run(&repo);
    assert_read_to_the_end(&found);
    assert!(of(&found, "ORGC001").is_empty());
}

/// The recipe's own files: the finding it fires, and no other.
#[test]
fn a_recipe_is_unaffected() {
    let repo = Repo::new();
    repo.write(
        "toolc.toml",
        br#"[[custom-rules]]
code = "ORG004"
name = "no-todo"
severity = "warning"
message = "a TODO is left where the model reads it"
given = "$..description"
then = { function = "notPattern", options = { pattern = "\\b(TODO|FIXME|XXX)\\b" } }
"#,
    );
    repo.write(
        ".cycod/tools/fetch.yaml",
        b"name: fetch\ndescription: Downloads a page and prints it as text\nbash: curl -sL {URL}\nparameters:\n  URL:\n    description: TODO say which pages\ntags: [read]\n",
    );
    let (found, _) = run(&repo);
    let codes: Vec<&str> = found.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["ORG004"], "{found:#?}");
    assert_eq!(found[0]["span"]["start"]["line"], 6);
    assert_eq!(
        found[0]["label"],
        "the value matches `\\b(TODO|FIXME|XXX)\\b` (`TODO`)"
    );
}

/// A custom rule the run does not show (`--ignore`, or a `--select` without it) still runs,
/// but nothing it found is shown: that it stopped is no news, and TLC008 said so anyway.
#[test]
fn a_rule_the_run_does_not_show_is_not_said_to_have_stopped() {
    let repo = Repo::new();
    repo.write("toolc.toml", BOMB.as_bytes());
    repo.write(".claude/skills/s/SKILL.md", nested_skill(150).as_bytes());
    let (found, _) = run_with(&repo, &["--select", "ORGA001,TLC"]);
    assert_eq!(of(&found, "TLC008").len(), 1, "{found:#?}");
    for hidden in [&["--ignore", "ORGA001"][..], &["--select", "TLC,SKL"]] {
        let (found, _) = run_with(&repo, hidden);
        assert!(of(&found, "ORGA001").is_empty(), "{hidden:?}: {found:#?}");
        assert!(of(&found, "TLC008").is_empty(), "{hidden:?}: {found:#?}");
    }
    // A baseline that recorded it: not stale in a run that does not show the rule, kept
    // when such a run writes the baseline again, and still hiding it in a full run.
    let write = |more: &[&str]| {
        Command::cargo_bin("toolc")
            .expect("binary")
            .args(["check", "--no-cache", "--write-baseline", "bl.json", "."])
            .args(more)
            .current_dir(&repo.root)
            .timeout(HANG_LIMIT)
            .assert()
            .success();
    };
    write(&[]);
    let (found, _) = run_with(&repo, &["--baseline", "bl.json", "--ignore", "ORGA001"]);
    assert!(of(&found, "TLC004").is_empty(), "{found:#?}");
    write(&["--ignore", "ORGA001"]);
    let (found, _) = run_with(&repo, &["--baseline", "bl.json"]);
    assert!(of(&found, "TLC008").is_empty(), "{found:#?}");
    assert!(of(&found, "TLC004").is_empty(), "{found:#?}");
}

/// A repository writes its rules and its files both: 3,000 rules that each read a small
/// tool's few nodes, over 2,000 tools, took 13 s (the work is rules times files). The rules
/// of a file read within one share of it, in the order they are written: the first run, and
/// each one past the share says so, capped like any rule's findings.
#[test]
fn thousands_of_rules_share_what_they_may_read_of_each_file() {
    const RULES: usize = 1_500;
    const TOOLS: usize = 40;
    let mut toml = String::new();
    for i in 0..RULES {
        // Codes have three digits: the second thousand under another prefix.
        let prefix = if i < 1_000 { "ORGC" } else { "ORGD" };
        let n = i % 1_000;
        toml.push_str(&format!(
            "[[custom-rules]]\ncode = \"{prefix}{n:03}\"\nname = \"rule-{i}\"\nseverity = \"info\"\nmessage = \"m\"\ngiven = \"$..*\"\nthen = {{ function = \"falsy\" }}\n"
        ));
    }
    let repo = Repo::new();
    repo.write("toolc.toml", toml.as_bytes());
    for i in 0..TOOLS {
        repo.write(
            &format!(".cycod/tools/t{i}.yaml"),
            format!("name: t{i}\ndescription: Print {i}\nbash: echo {i}\ntags: [read]\n")
                .as_bytes(),
        );
    }
    let (found, _) = run(&repo);
    let in_first = |d: &&Value| d["path"] == ".cycod/tools/t0.yaml";
    // The first rule read the whole tool; the last was stopped before it read it.
    assert!(
        of(&found, "ORGC000").iter().any(in_first),
        "the first rule ran"
    );
    let stopped: Vec<&Value> = of(&found, "TLC008").into_iter().filter(in_first).collect();
    assert!(!stopped.is_empty(), "{found:#?}");
    assert!(
        stopped
            .iter()
            .any(|d| message(d).contains("the custom rules read the")),
        "{stopped:#?}"
    );
    assert!(
        of(&found, "ORGD499").is_empty(),
        "the last rule did not run"
    );
}

/// All the rules of a file read within one budget together (10,000 nodes, 2 a byte of its
/// first MiB and one a byte past that), so that the rules of a repository take at most
/// about twice as long as its check whatever the size of its files: eight rules of `$..*` over a `tools.json` of 60 MB took 13.4 s at 64
/// nodes a byte, where the check alone took 5.1; 48 over 20 files of 1 MB, 13.7 s at 16 a
/// byte, where the check took 1.4. The first rules read the file to its end; the one
/// that would read past what is left says how much it read, and those after it that the
/// others read it all before their turn.
#[test]
fn the_rules_of_a_file_read_it_about_once_together() {
    let toml = many_rules("ORGE", 20, "subject = \"file\"\n", |_| "$..*");
    let text = small_tools(2_000);
    let repo = Repo::new();
    repo.write("toolc.toml", toml.as_bytes());
    repo.write("tools.json", text.as_bytes());
    let (found, _) = run(&repo);
    let stopped = of(&found, "TLC008");
    let stopped_code = |d: &&Value| message(d).split(' ').nth(2).unwrap_or_default().to_string();
    let codes: Vec<String> = stopped.iter().map(stopped_code).collect();
    // Each `$..*` reads three a node: several read the file to its end, the last do not.
    assert!(codes.iter().all(|c| c.as_str() > "ORGE005"), "{codes:?}");
    assert!(codes.iter().any(|c| c == "ORGE019"), "{codes:?}");
    let total = grouped(10_000 + 2 * text.len());
    let partly = format!("the custom rules read the {total} nodes they may read of it together (");
    let before = format!(
        "the other custom rules read the {total} nodes they may read of it together before its turn"
    );
    assert_eq!(
        stopped
            .iter()
            .filter(|d| message(d).contains(&partly))
            .count(),
        1,
        "{stopped:#?}"
    );
    assert!(
        stopped
            .iter()
            .filter(|d| !message(d).contains(&partly))
            .all(|d| message(d).contains(&before)),
        "{stopped:#?}"
    );
    // The note says how much all the rules may read together.
    let note = format!("{:?}", stopped[0]["notes"]);
    assert!(
        note.contains(
            "may read 10,000 nodes of it together, 2 more per byte of its first 1 MiB and 1 per byte past that"
        ),
        "{note}"
    );
}

/// Once the rules on each tool stopped on their file, the tools after are not read: each
/// rule says where it stopped, at that tool's name, once (a filter at the root made the JSON
/// of each of 1.7 million tools after its rule had stopped: 4 s).
#[test]
fn tool_rules_stopped_on_a_file_say_so_once_at_the_tool_where_they_stopped() {
    // Six filters at the root (the engine reads each tool's whole view) and six `$..*`.
    let toml = many_rules("ORGF", 12, "", |i| match i % 2 {
        0 => "$[?@ != 'none']",
        _ => "$..*",
    });
    let repo = Repo::new();
    repo.write("toolc.toml", toml.as_bytes());
    repo.write("tools.json", small_tools(2_000).as_bytes());
    let (found, _) = run(&repo);
    let stopped = of(&found, "TLC008");
    assert_eq!(stopped.len(), 12, "{stopped:#?}");
    for d in &stopped {
        // On a tool's name, well before the end of the list.
        let line = d["span"]["start"]["line"].as_u64().unwrap_or(0);
        assert!(line > 2 && line < 2_000, "{d:#?}");
        assert!(
            message(d).contains("the custom rules read the")
                || message(d).contains("the custom rules may still read"),
            "{d:#?}"
        );
    }
    // What they read was checked: a finding of each on the first tool.
    for code in ["ORGF000", "ORGF011"] {
        assert!(
            of(&found, code)
                .iter()
                .any(|d| d["span"]["start"]["line"] == 2),
            "{code}: {found:#?}"
        );
    }
}

/// Ten rules a team might write, two of them on every value (`$..*`) and three more with a
/// descendant segment, read every file of the real-world corpus (published definitions of
/// every format) to its end: none of them meets the budget. (Measured, they read at most
/// half a node a byte of those files, and less than the 10,000 every file has on all but
/// the largest: the budget leaves them four times the room.)
#[test]
fn a_team_s_rules_read_every_published_file_to_its_end() {
    let Some(corpus) = common::corpus("") else {
        return;
    };
    let repo = Repo::new();
    common::cache::copy_dir(&corpus, &repo.root);
    repo.write("toolc.toml", TEAM_RULES.as_bytes());
    let (found, _) = run(&repo);
    assert_read_to_the_end(&found);
    // The rules ran: the short descriptions of the corpus are found.
    assert!(!of(&found, "ORG001").is_empty(), "{found:#?}");
}

/// The rules of [`a_team_s_rules_read_every_published_file_to_its_end`].
const TEAM_RULES: &str = include_str!("data/team-rules.toml");

/// An agentcli `tools.json` of `n` small tools, one a line (tool `tN` on line N + 2).
fn small_tools(n: usize) -> String {
    let tools: Vec<String> = (0..n)
        .map(|i| {
            format!(r#"{{"name": "t{i}", "description": "Print {i}", "command": ["echo", "{i}"]}}"#)
        })
        .collect();
    format!("{{\"tools\": [\n{}\n]}}\n", tools.join(",\n"))
}

/// `n` rules of codes `{prefix}000` on, each with the `subject` line given (or none) and
/// the `given` of its index, each failing on every value it selects (`falsy`).
fn many_rules(
    prefix: &str,
    n: usize,
    subject: &str,
    given: impl Fn(usize) -> &'static str,
) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[[custom-rules]]\ncode = \"{prefix}{i:03}\"\nname = \"rule-{i}\"\nseverity = \"info\"\nmessage = \"m\"\n{subject}given = \"{}\"\nthen = {{ function = \"falsy\" }}\n",
                given(i)
            )
        })
        .collect()
}

/// `n` with a comma between each three digits, as toolc's messages write a count.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
