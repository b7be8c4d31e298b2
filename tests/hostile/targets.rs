//! One tool of many thousands of parameters, checked or built for the providers
//! (`--target`). Each provider's walk read the schema into a tree of maps of eleven times its
//! text, and Gemini's made a second, converted one; every problem found was then placed in
//! the file by unpacking the whole schema again. Timed with the debug binary; the release
//! build's figures before the fix are in each test.

use super::dense::peak_memory_of;
use super::*;

/// Within the suite's bound for the debug binary.
const BOUND: Duration = Duration::from_secs(20);

/// An agentcli manifest of one tool whose schema has `n` string properties, each with the
/// members `extra` (JSON, after a comma), all required when `required`.
fn one_wide_tool(n: usize, extra: &str, required: bool) -> String {
    let properties: Vec<String> = (0..n)
        .map(|i| format!(r#""p{i}":{{"type":"string","description":"param {i}"{extra}}}"#))
        .collect();
    let names: Vec<String> = (0..n).map(|i| format!(r#""p{i}""#)).collect();
    let required = if required {
        format!(r#","required":[{}]"#, names.join(","))
    } else {
        String::new()
    };
    format!(
        r#"{{"tools":[{{"name":"wide","description":"Tell the time in a zone","schema":{{"type":"object","properties":{{{}}}{required},"additionalProperties":false}},"command":["./tools/bin/now"]}}]}}"#,
        properties.join(",")
    )
}

/// A repository of the manifest `tools` and the program its tool runs.
fn repo_of(tools: &str) -> Repo {
    let repo = Repo::new();
    repo.write("tools.json", tools.as_bytes());
    repo.write("tools/bin/now", b"#!/bin/sh\ndate\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let program = repo.root.join("tools/bin/now");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755))
            .expect("made executable");
    }
    repo
}

/// 100,000 parameters (7 MB) took 207 MB to check for Gemini and 142 MB for OpenAI (release
/// build: 30x and 20x the file, 9x without a target); a build for Gemini 208 MB. Each walk
/// reads a lean tree borrowing the schema's text, and the lowering writes the schema's text
/// straight from the file's tree.
#[test]
fn one_tool_of_sixty_thousand_parameters_for_every_provider() {
    let small = one_wide_tool(1, "", true);
    let wide = one_wide_tool(60_000, "", true);
    let targets = "gemini,openai,anthropic,mcp,bundle";
    let check = ["check", "--no-cache", "-q", "--target", targets, "."];
    let build = ["build", "-q", "--target", targets, "--out", "dist", "."];
    for args in [&check[..], &build[..]] {
        let base = repo_of(&small);
        let Some(fixed) = peak_memory_of(&base, args) else {
            return;
        };
        let repo = repo_of(&wide);
        let peak = peak_memory_of(&repo, args).expect("measured before");
        let ratio = (peak - fixed) / wide.len() as f64;
        eprintln!("{}: {ratio:.2}x of at most 10x", args[0]);
        assert!(ratio <= 10.0, "{}: {ratio:.1}x the file", args[0]);
    }
    // What was built is the whole schema, for each provider.
    let repo = repo_of(&wide);
    let output = run(&repo, &build);
    assert!(output.status.success(), "{:?}", output.status);
    for file in ["gemini.tools.json", "openai.tools.json", "mcp.tools.json"] {
        let text = std::fs::read_to_string(repo.root.join("dist").join(file)).expect(file);
        assert!(text.contains("\"p59999\""), "{file}");
    }
}

/// 20,000 parameters that each say `format: uri`, none required: Gemini refuses each format
/// and OpenAI's strict mode each optional property. Every one of the 20,000 Gemini problems
/// was made a finding, each placed by unpacking the schema again, to keep 200 (release
/// build: 90 s; 0.15 s now). The findings shown and the counts of the rest are as before.
#[test]
fn twenty_thousand_schema_problems_for_gemini_and_openai() {
    let repo = repo_of(&one_wide_tool(20_000, r#","format":"uri""#, false));
    let started = Instant::now();
    let output = run(
        &repo,
        &["check", "--no-cache", "--target", "gemini,openai", "."],
    );
    let took = started.elapsed();
    assert!(took < BOUND, "{took:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(said.matches("error[CMP004]").count(), 201, "{said:.3000}");
    assert!(
        said.contains("19800 more findings of this rule in this file are not shown"),
        "{said:.3000}"
    );
    assert_eq!(said.matches("info[CMP005]").count(), 1, "{said:.3000}");
    // Each optional property, and 20,000 properties in all (over strict mode's 5,000).
    assert!(
        said.contains("19992 more places are not listed"),
        "{said:.3000}"
    );
}

/// A repository's own rule that reads each parameter of its one tool of 60,000: the schema
/// was read into a JSON value for the rule (release build: 19 times the file), and is now
/// read as a tree, the one the load packed or one parsed from the schema's text (release:
/// 9.5 times). That tree was unpacked to lower the tool and its packed mapping of properties
/// built for the walk (this debug build: 10.4 times); both are read where they are packed
/// now (8.2). What the rule finds is unchanged: each parameter without a description.
#[test]
fn a_custom_rule_reading_each_parameter_of_one_tool_of_sixty_thousand() {
    let rule = r#"[[custom-rules]]
code = "ORGA001"
name = "described"
severity = "warning"
message = "every parameter says what it is"
subject = "tool"
given = "$.parameters.properties.*.description"
then = { function = "truthy" }
"#;
    let args = ["check", "--no-cache", "-q", "."];
    let base = repo_of(&one_wide_tool(1, "", true));
    base.write("toolc.toml", rule.as_bytes());
    let Some(fixed) = peak_memory_of(&base, &args) else {
        return;
    };
    let wide = one_wide_tool(60_000, "", true);
    let repo = repo_of(&wide);
    repo.write("toolc.toml", rule.as_bytes());
    let peak = peak_memory_of(&repo, &args).expect("measured before");
    let ratio = (peak - fixed) / wide.len() as f64;
    eprintln!("custom rule: {ratio:.2}x of at most 10x");
    assert!(ratio <= 10.0, "{ratio:.1}x the file");
    // A finding on each of the 60,000 parameters: each of the 200 shown was placed by
    // unpacking the whole schema again (release build: 4.1 s; 0.2 s now).
    let repo = repo_of(&wide);
    let each = rule.replace(r#"function = "truthy""#, r#"function = "falsy""#);
    repo.write("toolc.toml", each.as_bytes());
    let started = Instant::now();
    let output = run(&repo, &["check", "--no-cache", "."]);
    let took = started.elapsed();
    assert!(took < BOUND, "{took:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("59800 more findings of this rule in this file are not shown"),
        "{said:.2000}"
    );
    // Three parameters, one with an empty description.
    let few = one_wide_tool(3, "", true).replacen("\"param 1\"", "\"\"", 1);
    let repo = repo_of(&few);
    repo.write("toolc.toml", rule.as_bytes());
    let found = findings_of(
        &repo,
        &["check", "--no-cache", "--format", "json", "."],
        "ORGA001",
    );
    assert_eq!(found.len(), 1, "{found:?}");
}

/// The findings of rule `code` that `toolc ARGS` (with `--format json`) prints in `repo`.
fn findings_of(repo: &Repo, args: &[&str], code: &str) -> Vec<Value> {
    let output = run(repo, args);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["code"] == code)
        .cloned()
        .collect()
}

/// A manifest of `n` tools of a few bytes each (`{"name":"tN","command":["x"]}`).
fn tiny_tools(n: usize) -> String {
    let tools: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"name":"t{i}","command":["x"]}}"#))
        .collect();
    format!(r#"{{"tools":[{}]}}"#, tools.join(","))
}

/// Custom rules whose JSON would be many times the file: a `given` left to the JSONPath
/// engine reads its subject as a JSON value, and `enumeration` and `schema` compare a list
/// whole as JSON; such a value of small maps takes 16 to 60 times their text (60,000 tiny
/// tools, 2 MB: 28 times the file; 300,000 rules on tools lowered and held at once, 36).
/// Past what a rule may make of a file at once the rule stops and says so; each tool is
/// checked as it is lowered.
#[test]
fn custom_rules_that_would_make_json_of_a_list_many_times_its_file_stop_and_say_so() {
    let rule = |subject: &str, given: &str, then: &str| {
        format!(
            "[[custom-rules]]\ncode = \"ORGA001\"\nname = \"x\"\nseverity = \"warning\"\nmessage = \"m\"\nsubject = \"{subject}\"\ngiven = \"{given}\"\nthen = {then}\n"
        )
    };
    let truthy = r#"{ function = "truthy" }"#;
    let rules = [
        rule("file", "$.tools[?@.name == 'x']", truthy),
        rule(
            "file",
            "$",
            r#"{ field = "tools", function = "enumeration", options = { values = [[]] } }"#,
        ),
        rule(
            "file",
            "$",
            r#"{ field = "tools", function = "schema", options = { schema = { type = "array", maxItems = 1 } } }"#,
        ),
    ];
    let args = ["check", "--no-cache", "--format", "json", "."];
    let many = tiny_tools(60_000);
    for toml in &rules {
        let base = repo_of(&tiny_tools(1));
        base.write("toolc.toml", toml.as_bytes());
        let Some(fixed) = peak_memory_of(&base, &args) else {
            return;
        };
        let repo = repo_of(&many);
        repo.write("toolc.toml", toml.as_bytes());
        let peak = peak_memory_of(&repo, &args).expect("measured before");
        let ratio = (peak - fixed) / many.len() as f64;
        eprintln!("{toml}: {ratio:.2}x of at most 12x");
        // The file's own tree, which a rule on the file walks, is about six times its text
        // of tiny values; the rest is the check's.
        assert!(ratio <= 12.0, "{ratio:.1}x the file");
        let stopped = findings_of(&repo, &args, "TLC008");
        let said: Vec<&str> = stopped
            .iter()
            .filter_map(|d| d["message"].as_str())
            .collect();
        assert_eq!(said.len(), 1, "{toml}: {said:?}");
        assert!(
            said[0].contains("more JSON of it at once than"),
            "{}",
            said[0]
        );
        // On a small file the same rule runs, and finds what it finds.
        let stopped = findings_of(&base, &args, "TLC008");
        assert!(stopped.is_empty(), "{toml}: {stopped:?}");
    }
    // A rule on each tool reads one tool's JSON at a time: no stop, and a finding on each
    // tool whose name does not match, counted past the first 200.
    let toml = rule(
        "tool",
        "$['name','title']",
        r#"{ function = "pattern", options = { pattern = "^t[0-9]$" } }"#,
    );
    let base = repo_of(&tiny_tools(1));
    base.write("toolc.toml", toml.as_bytes());
    let fixed = peak_memory_of(&base, &args).expect("measured before");
    let repo = repo_of(&many);
    repo.write("toolc.toml", toml.as_bytes());
    let peak = peak_memory_of(&repo, &args).expect("measured before");
    let ratio = (peak - fixed) / many.len() as f64;
    eprintln!("a rule on each tool: {ratio:.2}x of at most 10x");
    assert!(ratio <= 10.0, "{ratio:.1}x the file");
    let output = run(&repo, &["check", "--no-cache", "."]);
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("59790 more findings of this rule in this file are not shown"),
        "{said:.3000}"
    );
    assert!(!said.contains("TLC008"), "{said:.3000}");
}

/// A repository's rules that walk its whole file (`$..*`, `$.tools[*].name`, a tool near the
/// end by index) over 60,000 tiny tools: the walk asked the packed list of tools for its
/// items as nodes, which built them all and kept them (release build, 60 MB: 366 MB with no
/// rule, 679 MB with one; this debug build, 2 MB: 7 times the file more). Each item is
/// read where it is packed now: the rules add about the file's size at most (release, 60 MB:
/// 375 MB), and still find what they find.
#[test]
fn custom_rules_walking_a_list_of_tiny_tools_read_it_where_it_is_packed() {
    let rule = |given: &str, then: &str| {
        format!(
            "[[custom-rules]]\ncode = \"ORGA001\"\nname = \"x\"\nseverity = \"warning\"\nmessage = \"m\"\nsubject = \"file\"\ngiven = \"{given}\"\nthen = {then}\n"
        )
    };
    let args = ["check", "--no-cache", "--format", "json", "."];
    let many = tiny_tools(60_000);
    let plain = repo_of(&many);
    let Some(without) = peak_memory_of(&plain, &args) else {
        return;
    };
    let truthy = r#"{ function = "truthy" }"#;
    for given in ["$..*", "$.tools[*].name", "$.tools[59998].command[0]"] {
        let repo = repo_of(&many);
        repo.write("toolc.toml", rule(given, truthy).as_bytes());
        let peak = peak_memory_of(&repo, &args).expect("measured before");
        let ratio = (peak - without) / many.len() as f64;
        eprintln!("{given}: {ratio:.2}x beyond the check's, of at most 2x");
        assert!(
            ratio <= 2.0,
            "{given}: {ratio:.1}x the file beyond the check's"
        );
    }
    // A finding deep in the list is placed on its token.
    let repo = repo_of(&many);
    let toml = rule(
        "$.tools[59998].name",
        r#"{ function = "notPattern", options = { pattern = "^t59998$" } }"#,
    );
    repo.write("toolc.toml", toml.as_bytes());
    let found = findings_of(&repo, &args, "ORGA001");
    assert_eq!(found.len(), 1, "{found:?}");
    let start = found[0]["span"]["start"]["offset"]
        .as_u64()
        .expect("offset") as usize;
    assert!(
        many[start..].starts_with("\"t59998\""),
        "{}",
        &many[start..start + 20]
    );
}
