//! Long YAML lists and argument lists that earlier passes left over ten times their size
//! (issue 29, row 10; docs/performance.md, "Dense files, seventh pass"): a cycod tool of
//! many steps, many `uses.tools` or `platforms`, a `SKILL.md` front-matter list under an
//! unknown key, and `toolc lock` on a server of many arguments. Each file is over 4 MiB
//! (below that, freed memory goes back to the system only after a delay and peaks depend
//! on the machine's load), measured as `dense.rs` measures, with the debug binary.

use super::dense::{assert_bounded, peak_memory_of};
use super::*;

/// A cycod tool named `many` with `body` after its name, description and tags.
fn cycod(body: &str) -> String {
    format!("name: many\ndescription: d\ntags: [read]\n{body}")
}

/// Each step held its name twice (a list and a table of names), a level with its commands,
/// an `Action` of 80 bytes with two strings, a text for the security pass in a list grown
/// by doubling and an owned copy for ShellCheck: 29x at 2.4 MB, 52x at full size; then
/// the tree (a mapping node and a member for each 12-byte step) was most of it (15x here).
/// A long list of small mappings is packed now, and the item encoded and decoded in exact
/// room (8.1x here).
#[test]
fn a_cycod_tool_of_350_thousand_steps() {
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod("steps:\n  - bash: a\n"),
        &cycod(&format!("steps:\n{}", "  - bash: a\n".repeat(350_000))),
        10.0,
    );
}

/// Steps that are small trees (`bash: a` with an `env` mapping) are packed, and reading
/// each step's command and settings built the whole list's nodes and kept them while the
/// file loaded (11.6x with the release binary at 58 MB); each step is read where it is
/// packed now (4.6x).
#[test]
fn a_cycod_tool_of_150_thousand_steps_with_environments() {
    let steps: String = (0..150_000)
        .map(|i| format!("  - bash: a\n    env: {{A: b{i}}}\n"))
        .collect();
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod("steps:\n  - bash: a\n    env: {A: b}\n"),
        &cycod(&format!("steps:\n{steps}")),
        7.0,
    );
}

/// Each different script was kept for ShellCheck until the whole repository was loaded,
/// although a file hands it 500 at most: a million steps `bash: echo N` took 10.5x (release,
/// 22 MB), 10.1x here. Scripts past the file's budget are only counted now (5.5x with the
/// release binary at this size).
#[test]
fn a_cycod_tool_of_200_thousand_different_steps() {
    let steps: String = (0..200_000)
        .map(|i| format!("  - bash: echo {i}\n"))
        .collect();
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod("steps:\n  - bash: echo 0\n"),
        &cycod(&format!("steps:\n{steps}")),
        7.5,
    );
}

/// The tool's document for the bundles held every parameter twice: its name, type and
/// description as strings, and the whole mapping packed (10.1x here, 11.1x at 25 MB with
/// the release build); the bundle's schema is made from the packed mapping now (8.9x here).
#[test]
fn a_cycod_tool_of_200_thousand_parameters() {
    let parameter =
        |i: usize| format!("  p{i}: {{type: string, description: parameter number {i}}}\n");
    assert_mapping_bounded("parameters", parameter, 200_000, 9.5);
}

/// The settings kept for the lock held the environment as a `serde_json::Value` beside the
/// tree (10.0x at 31 MB with the release build, 9.1x here); they are written as JSON from
/// the tree now (7.1x here).
#[test]
fn a_cycod_tool_of_300_thousand_environment_variables() {
    let variable = |i: usize| format!("  K{i}: value number {i}\n");
    assert_mapping_bounded("environment", variable, 300_000, 8.0);
}

/// A cycod tool (`bash: ls`) whose mapping `key` has `n` members written by `member` stays
/// within `times` its size, against one with the first member alone.
fn assert_mapping_bounded(key: &str, member: impl Fn(usize) -> String, n: usize, times: f64) {
    let many: String = (0..n).map(&member).collect();
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod(&format!("bash: ls\n{key}:\n{}", member(0))),
        &cycod(&format!("bash: ls\n{key}:\n{many}")),
        times,
    );
}

/// Each reference was a name and a copy of its key, `uses.tools`, as two `String`s (20x at
/// 2.4 MB); they are one buffer with an 8-byte span each now (3.1x here).
#[test]
fn a_cycod_tool_naming_550_thousand_tools() {
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod("uses:\n  tools:\n    - a\n"),
        &cycod(&format!("uses:\n  tools:\n{}", "    - a\n".repeat(550_000))),
        5.0,
    );
}

/// `platforms` was collected into a list of every item and its nodes built (about 10x);
/// it is read item by item, and past the cap an unknown platform is only counted (1.6x
/// here).
#[test]
fn a_cycod_tool_of_700_thousand_platforms() {
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod("platforms:\n  - a\n"),
        &cycod(&format!(
            "bash: echo hi\nplatforms:\n{}",
            "  - a\n".repeat(700_000)
        )),
        3.0,
    );
}

/// A front matter's list under an unknown key: the scan for unportable YAML built the
/// packed list's nodes and kept them (about 10x; 2.1x here).
#[test]
fn a_skill_front_matter_list_of_700_thousand_items() {
    let skill = |n: usize| {
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\nextra:\n{}---\n\nBody.\n",
            "  - a\n".repeat(n)
        )
    };
    assert_bounded("skills/big/SKILL.md", &skill(1), &skill(700_000), 3.5);
}

/// A list of small mappings under a `metadata` key: asking whether the value was a list
/// built the whole list's nodes and kept them (19.8x with the release binary at 58 MB, as
/// nodes from the parser; 11.3x packed); it is asked of the list as packed now (5.3x).
#[test]
fn a_skill_metadata_list_of_150_thousand_small_mappings() {
    let skill = |n: usize| {
        let items: String = (0..n)
            .map(|i| format!("    - {{a: {{b: c, d: e}}, f: g{i}}}\n"))
            .collect();
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\nmetadata:\n  x:\n{items}---\n\nBody.\n"
        )
    };
    assert_bounded("skills/big/SKILL.md", &skill(1), &skill(150_000), 7.0);
}

/// `toolc lock` read a server's `args` whole, as nodes and as JSON (about 40x); it reads
/// them as `check` does, as far as a command line can be, and hashes the rest an argument
/// at a time (2.3x here).
#[test]
fn a_lock_of_a_server_of_1_1_million_arguments() {
    let server = |n: usize| {
        let args = vec!["\"a\""; n].join(",");
        format!(r#"{{"mcpServers":{{"s":{{"command":"npx","args":[{args}]}}}}}}"#)
    };
    let lock = ["lock", "-q"];
    let base = Repo::new();
    base.write(".mcp.json", server(1).as_bytes());
    let Some(fixed) = peak_memory_of(&base, &lock) else {
        return;
    };
    let repo = Repo::new();
    let dense = server(1_100_000);
    repo.write(".mcp.json", dense.as_bytes());
    let peak = peak_memory_of(&repo, &lock).expect("measured before");
    let ratio = (peak - fixed) / dense.len() as f64;
    assert!(ratio <= 3.5, "toolc lock took {ratio:.1}x the file's size");
    let written = std::fs::read_to_string(repo.root.join("toolc.lock")).expect("lock written");
    assert!(written.contains("[server.parts]\nargs = "), "{written}");
    assert!(
        written.contains("package = "),
        "the package is still found: {written}"
    );
}

/// Every reference to a step was looked for among all the steps, and one to a missing step
/// compared with every step's name for a "did you mean" and listed them all in its help:
/// 50,000 steps each reading a missing step's output took over two minutes (release). They
/// are looked up by name, "did you mean" stops at a budget, and the help names 50.
#[test]
fn a_cycod_tool_of_50_thousand_steps_reading_missing_steps() {
    let repo = Repo::new();
    repo.write(
        ".cycod/tools/many.yaml",
        cycod(&format!(
            "steps:\n{}",
            "  - bash: echo {zz.output}\n".repeat(50_000)
        ))
        .as_bytes(),
    );
    let output = run(&repo, &["check", "--no-cache", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let found: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .map(|d| d.iter().filter(|d| d["code"] == "CYC014").collect())
        .unwrap_or_default();
    assert_eq!(found.len(), 201, "200 and the line for the rest");
    let help = found[0]["help"].as_str().unwrap_or_default();
    assert!(help.ends_with("step49, step50, and 49950 more"), "{help}");
}

/// A repository of many small broken files has findings far larger than its text (a 70-byte
/// cycod tool gives six). The JSON and SARIF documents are written as they are made: SARIF
/// held every result and then the whole document (60 MiB more than `-q` here with the
/// release build; 424 MB of SARIF for 300,000 findings), JSON the whole document.
#[test]
fn the_reports_of_thirty_thousand_findings_are_not_held_whole() {
    let repo = broken_tools(5_000);
    let Some(quiet) = peak_memory_of(&repo, &["check", "--no-cache", "-q", "."]) else {
        return;
    };
    for format in ["sarif", "json"] {
        let peak = peak_memory_of(&repo, &["check", "--no-cache", "--format", format, "."])
            .expect("measured before");
        let beyond = (peak - quiet) / 1048576.0;
        assert!(
            beyond <= 12.0,
            "--format {format} took {beyond:.1} MiB more than -q for the same findings"
        );
    }
}

/// A repository of `count` small cycod tools with six findings each.
fn broken_tools(count: usize) -> Repo {
    let repo = Repo::new();
    for i in 0..count {
        let tool =
            format!("name: T {i}\ndescripton: x\nbash: rm -rf /\ntags: [nope]\ntimeout: -1\n");
        repo.write(&format!(".cycod/tools/t{i}.yaml"), tool.as_bytes());
    }
    repo
}

/// What a finding costs a plain `check` (human output, a cache made anew), measured as what
/// 15,000 more findings of 2,500 more files add to the peak. Each took 3.2 KB (release
/// build): the report copied the files' findings, a finding was 272 bytes with its fixed
/// notes copied, the human output was held whole, and the cache's archive was made in
/// memory grown by doubling before it was written. Now 1.9 KB.
#[test]
fn each_of_thirty_thousand_findings_costs_little() {
    let (fewer, more) = (broken_tools(2_500), broken_tools(5_000));
    let Some(before) = peak_memory_of(&fewer, &["check", "."]) else {
        return;
    };
    let after = peak_memory_of(&more, &["check", "."]).expect("measured before");
    let each = (after - before) / 15_000.0;
    assert!(
        each <= 2_500.0,
        "each finding took {each:.0} bytes of the peak"
    );
}

/// A tool list whose one schema property has `examples` of `n` small mappings.
fn examples_of_mappings(n: usize, item: &str) -> String {
    let items = vec![item; n].join(",");
    format!(
        r#"{{"tools":[{{"name":"t","description":"d","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string","examples":[{items}]}}}}}}}}]}}"#
    )
}

/// Every string of a schema's `examples` (each key and value of each mapping) was a text of
/// its own for the security pass, and the packed list was built into nodes to walk it: 35x
/// here, 28x at 7.8 MB. A long list of values is read a batch at a time now, an item's
/// strings as they are read (3.7x here).
#[test]
fn a_schema_example_list_of_200_thousand_mappings() {
    let item = r#"{"a":"b","c":"d","e":"f"}"#;
    assert_bounded(
        "tools.json",
        &examples_of_mappings(1, item),
        &examples_of_mappings(200_000, item),
        8.0,
    );
}

/// The same for a cycod parameter's `default` of small lists: 28.7x here, now 2.5x.
#[test]
fn a_cycod_default_of_350_thousand_small_lists() {
    let tool = |n: usize| {
        cycod(&format!(
            "bash: echo {{P}}\nparameters:\n  P:\n    description: p\n    default:\n{}",
            "      - [a, b, c]\n".repeat(n)
        ))
    };
    assert_bounded(".cycod/tools/many.yaml", &tool(1), &tool(350_000), 8.0);
}

/// Read a batch at a time, a long list of examples is still read whole: a hidden character
/// in a key of its last mapping is found.
#[test]
fn a_hidden_character_deep_in_long_examples_is_found() {
    let mut items = vec![r#"{"a":"b"}"#.to_string(); 999];
    items.push("{\"k\u{200b}ey\":\"v\"}".to_string());
    let manifest = examples_of_mappings(1, "1").replace("[1]", &format!("[{}]", items.join(",")));
    let repo = repo();
    repo.write("tools.json", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let hidden = find(&diags, "SEC061", "tools.json");
    assert!(!hidden.is_empty(), "{diags:#?}");
}

/// A DojOps policy whose allowlist names `n` tools the project does not define.
fn policy_of_unknown_tools(n: usize) -> String {
    let entries: String = (0..n).map(|i| format!("  - tool{i}\n")).collect();
    format!("allowedTools:\n{entries}")
}

/// Each allowlist entry that matches no tool (DOJ016) was a finding built with its note and
/// help in the cross-file pass, all before the file's cap dropped them (a 40 MB list took
/// 1.9 GB); the first 200 are built now, and the rest counted.
#[test]
fn a_policy_of_400_thousand_unknown_tools() {
    assert_bounded(
        ".dojops/policy.yaml",
        &policy_of_unknown_tools(1),
        &policy_of_unknown_tools(400_000),
        10.0,
    );
}

/// An agent whose `tools.refs` names `n` tools no `*.tool.md` registers.
fn agent_of_unknown_refs(n: usize) -> String {
    let refs: String = (0..n)
        .map(|i| format!("    - ref: \"tool{i}\"\n      max_calls_per_run: 1\n"))
        .collect();
    format!(
        "---\nspec_version: \"1.2\"\nagent_id: \"ag\"\nversion: \"1.0.0\"\nstatus: \"active\"\nmeta:\n  name: \"A\"\n  owner: \"o\"\ntools:\n  tool_choice: auto\n  refs:\n{refs}---\n"
    )
}

/// Each ref to an unregistered tool was a finding built in the cross-file pass before the
/// file's cap dropped all but 200 (40 MB of refs took 665 MB); they are capped per agent as
/// they are found now.
#[test]
fn an_agent_of_100_thousand_refs_to_unknown_tools() {
    assert_bounded(
        "agents/ag.agent.md",
        &agent_of_unknown_refs(1),
        &agent_of_unknown_refs(100_000),
        10.0,
    );
}

/// A skill whose `allowed-tools` is a flow list of `n` one-letter tools.
fn skill_allowing(n: usize) -> String {
    let items = vec!["a"; n].join(", ");
    format!(
        "---\nname: big\ndescription: Summarise reports for the user.\nallowed-tools: [{items}]\n---\n\nSummarise.\n"
    )
}

/// The entries of a long `allowed-tools` list were read through the list's nodes, which a
/// packed list builds for the asking (17 times the file's size at 40 MB); they are read
/// where the list packed them.
#[test]
fn a_skill_allowing_1_5_million_tools() {
    assert_bounded(
        "skills/big/SKILL.md",
        &skill_allowing(1),
        &skill_allowing(1_500_000),
        8.0,
    );
}

/// An agentcli manifest of one tool whose `command` holds `args` copies of `arg`, and whose
/// `envPassthrough` holds `env` copies of `name`.
fn agentcli_tool(arg: &str, args: usize, name: &str, env: usize) -> String {
    let args = vec![format!("{arg:?}"); args].join(",");
    let env = vec![format!("{name:?}"); env].join(",");
    format!(
        r#"{{"tools":[{{"name":"t","description":"Count words","command":["./tools/bin/t",{args}],"envPassthrough":[{env}]}}]}}"#
    )
}

/// A command of 800,000 arguments: the load built a node and a string for each (from the
/// packed list), and the security pass a text for each (25x in the release build at 20 MB);
/// now the arguments are kept as one vector, and read for commands only as far as a command
/// line starts (ACL016).
#[test]
fn an_agentcli_command_of_800_thousand_arguments() {
    assert_bounded(
        "tools.json",
        &agentcli_tool("ab", 1, "TZ", 1),
        &agentcli_tool("ab", 800_000, "TZ", 1),
        6.0,
    );
}

/// An `envPassthrough` of 800,000 repeats of one name: a record and a string were kept for
/// each name agentcli drops (26x in the release build at 20 MB); the list is read twice now.
#[test]
fn an_agentcli_env_list_of_800_thousand_repeats() {
    assert_bounded(
        "tools.json",
        &agentcli_tool("ab", 1, "TZ", 1),
        &agentcli_tool("ab", 1, "TZ", 800_000),
        6.0,
    );
}

/// `["sh", "-c", SCRIPT]` where the script is a pipeline of 600,000 stages (5 MB): no
/// system starts an argument that long, and the security pass no longer reads it as the
/// statements it would be (34x in the release build at 20 MB).
#[test]
fn an_agentcli_script_longer_than_any_system_starts() {
    let tool = |stages: usize| {
        format!(
            r#"{{"tools":[{{"name":"t","description":"Count words","command":["sh","-c","{}cat"]}}]}}"#,
            "cat x | ".repeat(stages)
        )
    };
    assert_bounded("tools.json", &tool(1), &tool(600_000), 6.0);
}

/// An agent asking confirmation for 1.5 million tools, a flow list of one-letter ids: each
/// was a string and a span in the agent, a tuple in a list read first, and another for each
/// id no ref names (40x in the release build at 20 MB); they are one buffer now (8x).
#[test]
fn an_agent_confirming_a_million_and_a_half_tools() {
    let agent = |n: usize| {
        format!(
            "---\nspec_version: \"1.2\"\nagent_id: \"a\"\nversion: \"1.0.0\"\nstatus: \"active\"\nmeta:\n  name: \"A\"\n  owner: \"o\"\nguardrails:\n  tool_calls:\n    require_user_confirmation_for: [{}b]\n---\n# A\n",
            "a, ".repeat(n)
        )
    };
    assert_bounded("agents/a.agent.md", &agent(1), &agent(1_500_000), 10.0);
}

/// A tool's `use_when` of 1.5 million one-letter items: a string each in the tool, and the
/// list's nodes built back from its packed form (28x in the release build at 20 MB); one
/// buffer now, read where it is packed (5x).
#[test]
fn a_tool_md_guidance_list_of_a_million_and_a_half_items() {
    let tool = |n: usize| {
        format!(
            "---\nspec_version: \"1.2\"\ntool_id: \"t\"\nversion: \"1.0.0\"\nstatus: \"active\"\nmeta:\n  name: \"T\"\n  description: \"Search things.\"\n  owner: \"o\"\ntype: \"retrieval\"\nuse_guidance:\n  use_when: [{}b]\n---\n# T\n",
            "a, ".repeat(n)
        )
    };
    assert_bounded("tools/t.tool.md", &tool(1), &tool(1_500_000), 8.0);
}

/// An agent of 400,000 refs to one tool, each `- ref: a`: the list, packed as it is parsed,
/// had its nodes built back all at once to be read (11x in the release build at 20 MB); it
/// is read an item at a time now (4.5x).
#[test]
fn an_agent_of_400_thousand_short_refs() {
    let agent = |n: usize| {
        format!(
            "---\nspec_version: \"1.2\"\nagent_id: \"ag\"\nversion: \"1.0.0\"\nstatus: \"active\"\nmeta:\n  name: \"A\"\n  owner: \"o\"\ntools:\n  refs:\n{}---\n",
            "    - ref: a\n".repeat(n)
        )
    };
    assert_bounded("agents/ag.agent.md", &agent(1), &agent(400_000), 7.0);
}

/// `toolc build` of a valid manifest of 20,000 small tools: every target's file was made
/// before the first was written, five copies of the manifest's tools at once (34x), then
/// each file whole in turn, with every schema a tree of JSON maps (26x). Now each file is
/// written as it is made, a schema is held as its text, and the lowered tools are sorted
/// without a copy of half of them (7.9x in the release build).
#[test]
fn a_build_of_twenty_thousand_tools_holds_one_target_file_at_a_time() {
    let manifest = |n: usize| {
        let tools: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"name":"t{i}","description":"Fetch the thing the user asked for.","schema":{{"type":"object","properties":{{"q":{{"type":"string"}}}},"required":["q"],"additionalProperties":false}},"command":["./tools/bin/x","--q"],"timeoutSec":5}}"#))
            .collect();
        format!(r#"{{"tools":[{}]}}"#, tools.join(","))
    };
    let build = ["build", "--out", "dist", "-q", "."];
    let peak = |n: usize| {
        let repo = Repo::new();
        repo.write("tools.json", manifest(n).as_bytes());
        repo.write("tools/bin/x", b"#!/bin/sh\n");
        let peak = peak_memory_of(&repo, &build);
        assert!(repo.root.join("dist/openai.tools.json").is_file(), "built");
        peak
    };
    let Some(fixed) = peak(1) else {
        return;
    };
    let size = manifest(20_000).len() as f64;
    let ratio = (peak(20_000).expect("measured before") - fixed) / size;
    assert!(
        ratio <= 10.0,
        "toolc build took {ratio:.1}x the manifest's size"
    );
}

/// An agent of 400,000 refs to knowledge bases no `*.kb.md` defines, each `- ref: a`: the
/// list's nodes were built back all at once, each ref kept its field's path as a string of
/// its own, and the check across files built a finding for each before the file's cap (91x
/// in the release build at 20 MB); now 8.7x.
#[test]
fn an_agent_of_400_thousand_refs_to_unknown_knowledge() {
    let agent = |n: usize| {
        format!(
            "---\nspec_version: \"1.2\"\nagent_id: \"a\"\nversion: \"1.0.0\"\nstatus: \"active\"\nmeta:\n  name: \"A\"\n  owner: \"o\"\nknowledge:\n  refs:\n{}---\n# A\n",
            "    - ref: a\n".repeat(n)
        )
    };
    let measure = |n: usize| {
        let repo = Repo::new();
        repo.write("agents/a.agent.md", agent(n).as_bytes());
        repo.write(
            "knowledge/k.kb.md",
            b"---\nkb_id: \"k\"\nstatus: \"active\"\n---\n# K\n",
        );
        super::dense::peak_memory(&repo)
    };
    let Some(fixed) = measure(1) else {
        return;
    };
    let size = agent(400_000).len() as f64;
    let ratio = (measure(400_000).expect("measured before") - fixed) / size;
    assert!(ratio <= 10.0, "took {ratio:.1}x the agent's size");
}

/// A VS Code `mcp.json` of 120,000 repeated inputs: the list, packed as it is parsed, had
/// its nodes built back all at once to be checked (11x in the release build at 15 MB); it is
/// read an item at a time now (5.5x), as a tool request's `inputs`, a cycod tool's inline
/// `mcps` and `tools`, and a `server.json`'s `icons` are.
#[test]
fn a_vs_code_configuration_of_120_thousand_inputs() {
    let config = |n: usize| {
        let inputs = vec![r#"{"type":"promptString","id":"a","description":"d"}"#; n].join(",");
        format!(
            r#"{{"inputs":[{inputs}],"servers":{{"s":{{"command":"npx","args":["-y","pkg@1.0.0"]}}}}}}"#
        )
    };
    assert_bounded(".vscode/mcp.json", &config(1), &config(120_000), 8.0);
}

/// A cycod tool whose `bash` is one pipeline of 600,000 stages (5 MB): each stage was held
/// by the reader of data flow, and every simple command by the two readers that look at
/// one command at a time, all at once (35x in the release build at 10 MB). Those look at
/// each command as it is read now, and data flow is read for the first 16,384 stages (7x).
#[test]
fn a_cycod_command_of_600_thousand_pipeline_stages() {
    let tool = |stages: usize| cycod(&format!("bash: \"{}cat\"\n", "curl x | ".repeat(stages)));
    assert_bounded(".cycod/tools/many.yaml", &tool(1), &tool(600_000), 10.0);
}

/// The same for a script of 600,000 lines (35x in the release build at 10 MB; 6x).
#[test]
fn a_cycod_script_of_600_thousand_lines() {
    let tool = |lines: usize| cycod(&format!("bash: |\n{}", "  curl x\n".repeat(lines)));
    assert_bounded(".cycod/tools/many.yaml", &tool(1), &tool(600_000), 10.0);
}

/// A line of 300,000 suppression comments that name no rule: each looked for `-->` to the end
/// of the line (80,000: 8.5 s in the release build). The first `--` ends the list either way.
#[test]
fn a_line_of_300_thousand_empty_suppressions() {
    let repo = Repo::new();
    let tool = format!(
        "name: t\ndescription: Says hi.\nbash: echo hi\ntags: [read]\nx: 1 {}\n",
        "# toolc: ignore --".repeat(300_000)
    );
    repo.write(".cycod/tools/t.yaml", tool.as_bytes());
    let started = std::time::Instant::now();
    run(&repo, &["check", "--no-cache", "-q"]);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

/// A schema's `oneOf` of 60,000 small schemas: it was copied whole into the value the
/// meta-schema validates (40 MB: 1.3 GB, 33 times; 10 times now, a schema at a time, and
/// 11.4 times here with the debug binary).
#[test]
fn a_schema_one_of_60_thousand_small_schemas() {
    let tools = |n: usize| {
        let one_of: Vec<serde_json::Value> = (0..n)
            .map(|i| {
                serde_json::json!({"type": "object", "required": ["k0"],
                    "properties": {"k0": {"const": i}, "k1": {"const": i}, "k2": {"const": i}}})
            })
            .collect();
        let schema = serde_json::json!({"type": "object", "properties": {"a": {"oneOf": one_of}}});
        serde_json::json!({"tools": [{"name": "helper", "description": "Does a thing.",
            "inputSchema": schema}]})
        .to_string()
    };
    assert_bounded("tools.json", &tools(1), &tools(60_000), 14.0);
}
