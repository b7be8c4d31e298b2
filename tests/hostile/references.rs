//! Many names and many references to them in one file: each reference was looked for among
//! every parameter, compared the whole command with its source to place itself, and a
//! default naming a parameter searched the parameters before it (quadratic: a cycod tool of
//! 50,000 parameters each referenced took over a minute of CPU, debug).

use super::*;

/// A cycod tool of `count` parameters `P0…`, each with a default naming itself (CYC023),
/// and one command referring to every parameter and to as many undeclared `Q` names
/// (CYC012).
fn many_parameters(count: usize) -> String {
    let params: String = (0..count)
        .map(|i| format!("  P{i}: {{type: string, description: d, default: '{{P{i}}}'}}\n"))
        .collect();
    let command: Vec<String> = (0..count).map(|i| format!("{{P{i}}} {{Q{i}}}")).collect();
    format!(
        "name: many\ndescription: d\nparameters:\n{params}bash: echo {}\n",
        command.join(" ")
    )
}

/// Codes of the findings, with how many of each.
fn counts(found: &[Value]) -> std::collections::BTreeMap<String, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for d in found {
        *counts
            .entry(d["code"].as_str().unwrap_or_default().to_string())
            .or_insert(0) += 1;
    }
    counts
}

/// A registry `server.json` with one remote, `remote`.
fn server_json(remote: Value) -> String {
    serde_json::json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": "io.github.example/weather",
        "description": "Weather",
        "version": "1.0.0",
        "remotes": [remote]
    })
    .to_string()
}

/// `count` variables `v0…`, each described.
fn variables(count: usize) -> serde_json::Map<String, Value> {
    (0..count)
        .map(|i| (format!("v{i}"), serde_json::json!({"description": "d"})))
        .collect()
}

/// A repository of one DojOps tool whose `files` path is `path`, with `schema` as its
/// input schema.
fn dojops_repo(path: &str, schema: &Value) -> Repo {
    let tool = format!(
        "spec: 1\nname: t\nversion: \"1.0.0\"\ntype: tool\ndescription: \"Generates a config file\"\ninputSchema: \"input.schema.json\"\ngenerator:\n  strategy: llm\n  systemPrompt: \"x\"\nfiles:\n  - path: \"{path}\"\n    serializer: yaml\n"
    );
    let repo = Repo::new();
    repo.write("toolc.toml", b"[runtimes]\ndojops = \"1.0.9\"\n");
    repo.write(".dojops/tools/t/tool.yaml", tool.as_bytes());
    repo.write(
        ".dojops/tools/t/input.schema.json",
        schema.to_string().as_bytes(),
    );
    repo
}

#[test]
fn a_cycod_tool_of_100_thousand_parameters_each_referenced() {
    let repo = Repo::new();
    repo.write(
        ".cycod/tools/many.yaml",
        many_parameters(100_000).as_bytes(),
    );
    let output = run(&repo, &["check", "--no-cache", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let found = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    let counts = counts(&found);
    // 200 of each shown and one line for the rest; no parameter is unused.
    assert_eq!(counts.get("CYC012"), Some(&201), "{counts:?}");
    assert_eq!(counts.get("CYC023"), Some(&201), "{counts:?}");
    assert_eq!(counts.get("CYC013"), None, "{counts:?}");
    // The first undeclared reference is placed on its own braces in the command.
    let first = found
        .iter()
        .find(|d| d["code"] == "CYC012")
        .expect("a CYC012");
    assert_eq!(first["message"], "`{Q0}` is not a parameter of this tool");
    let line = 100_004;
    assert_eq!(first["span"]["start"]["line"], line, "{first}");
    assert_eq!(first["span"]["start"]["column"], 17, "{first}");
}

/// A command written with an escape is not its value byte for byte: a reference is placed
/// by its occurrence in the source, also when the command holds many.
#[test]
fn references_in_an_escaped_command_are_placed_by_occurrence() {
    let repo = Repo::new();
    let refs: Vec<String> = (0..2_000).map(|i| format!("{{Q{i}}}")).collect();
    let tool = format!(
        "name: many\ndescription: d\nbash: \"echo '\\\\t' {}\"\n",
        refs.join(" ")
    );
    repo.write(".cycod/tools/many.yaml", tool.as_bytes());
    let output = run(&repo, &["check", "--no-cache", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let found = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    let second = found
        .iter()
        .filter(|d| d["code"] == "CYC012")
        .nth(1)
        .expect("a second CYC012");
    assert_eq!(second["message"], "`{Q1}` is not a parameter of this tool");
    // `bash: "echo '\\t' {Q0} {Q1}`: `{Q1}` starts at column 24.
    assert_eq!(second["span"]["start"]["line"], 3, "{second}");
    assert_eq!(second["span"]["start"]["column"], 24, "{second}");
}

/// A registry `server.json` whose header value names 50,000 declared `variables` and as many
/// undeclared: each name was searched for among the variables, and compared with all of them
/// for a "did you mean" (over two minutes, debug).
#[test]
fn an_mcp_header_of_50_thousand_variables_each_named() {
    let count = 50_000;
    let value: Vec<String> = (0..count).map(|i| format!("{{v{i}}} {{w{i}}}")).collect();
    let repo = Repo::new();
    repo.write(
        "server.json",
        server_json(serde_json::json!({
            "type": "streamable-http",
            "url": "https://example.com/mcp",
            "headers": [{"name": "X", "value": value.join(" "), "variables": variables(count)}]
        }))
        .as_bytes(),
    );
    let output = run(&repo, &["check", "--no-cache", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let found = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    let counts = counts(&found);
    assert_eq!(counts.get("MCP012"), Some(&201), "{counts:?}");
    let first = found
        .iter()
        .find(|d| d["code"] == "MCP012")
        .expect("an MCP012");
    assert_eq!(first["message"], "`{w0}` names no entry of `variables`");
}

/// Codes of the findings of `check --no-cache --format json` in `repo`, with how many of each.
fn check_counts(repo: &Repo) -> std::collections::BTreeMap<String, usize> {
    counts(&findings(repo))
}

/// An object schema of `count` string properties `p0…`.
fn string_properties(count: usize) -> Value {
    let properties: serde_json::Map<String, Value> = (0..count)
        .map(|i| (format!("p{i}"), serde_json::json!({"type": "string"})))
        .collect();
    serde_json::json!({"type": "object", "properties": properties})
}

/// A DojOps `files` path of 50,000 placeholders naming properties of an input schema of
/// 50,000, and as many naming none: each was searched for among the properties and compared
/// with all of them (over three minutes, debug).
#[test]
fn a_dojops_path_of_50_thousand_placeholders() {
    let count = 50_000;
    let schema = string_properties(count);
    let path: Vec<String> = (0..count).map(|i| format!("{{p{i}}}{{q{i}}}")).collect();
    let counts = check_counts(&dojops_repo(&path.join("/"), &schema));
    assert_eq!(counts.get("DOJ012"), Some(&201), "{counts:?}");
}

/// A DojOps tool of 20,000 `files` paths, each with a placeholder naming a property of an
/// input schema of 50,000 and one naming none: the properties were indexed again for every
/// path (70 s in the release build; 0.1 s now), and each finding's help listed all 50,000
/// (390 KB); it lists twenty and counts the rest.
#[test]
fn a_dojops_tool_of_20_thousand_paths_with_placeholders() {
    let schema = string_properties(50_000);
    let repo = dojops_repo("{p0}/{q0}", &schema);
    let entries = "  - path: \"{p1}/{q1}\"\n    serializer: yaml\n".repeat(20_000);
    let tool = std::fs::read_to_string(repo.root.join(".dojops/tools/t/tool.yaml"))
        .expect("written")
        + &entries;
    repo.write(".dojops/tools/t/tool.yaml", tool.as_bytes());
    let found = findings(&repo);
    assert_eq!(counts(&found).get("DOJ012"), Some(&201));
    let first = found.iter().find(|d| d["code"] == "DOJ012");
    let help = first.and_then(|d| d["help"].as_str()).unwrap_or_default();
    assert!(
        help.starts_with("input properties: p0, p1,") && help.ends_with(", and 49980 more"),
        "{help}"
    );
}

/// A registry remote whose URL is 50,000 declared `variables` and as many undeclared (over
/// three minutes, debug).
#[test]
fn an_mcp_url_of_50_thousand_variables() {
    let count = 50_000;
    let host: String = (0..count).map(|i| format!("{{v{i}}}{{w{i}}}")).collect();
    let repo = Repo::new();
    repo.write(
        "server.json",
        server_json(serde_json::json!({
            "type": "streamable-http",
            "url": format!("https://{host}.example.com/mcp"),
            "variables": variables(count)
        }))
        .as_bytes(),
    );
    let counts = check_counts(&repo);
    assert_eq!(counts.get("MCP012"), Some(&201), "{counts:?}");
}

/// A cycod tool of 150,000 inline tools, the last named like the first: each name was
/// compared with every name before it (a minute of CPU at 100,000, debug).
#[test]
fn a_cycod_tool_of_150_thousand_inline_tools() {
    let count = 150_000;
    let tools: String = (0..count)
        .map(|i| format!("    - {{name: t{i}, description: d, tags: [read], bash: echo}}\n"))
        .collect();
    let tool = format!(
        "name: many\ndescription: d\ntags: [read]\nbash: echo hi\nwith:\n  tools:\n{tools}    - {{name: t0, description: d, tags: [read], bash: echo}}\n"
    );
    let repo = Repo::new();
    repo.write(".cycod/tools/many.yaml", tool.as_bytes());
    let counts = check_counts(&repo);
    assert_eq!(counts.get("CYC004"), Some(&1), "{counts:?}");
}

/// A JSON Schema of 30,000 properties and twice as many `required` names, half of them
/// undefined: each name was searched for among the properties and compared with all of them
/// (109 s of CPU at 10,000, debug).
#[test]
fn a_schema_requiring_60_thousand_names() {
    let count = 30_000;
    let properties: serde_json::Map<String, Value> = (0..count)
        .map(|i| {
            (
                format!("p{i}"),
                serde_json::json!({"type": "string", "description": "d"}),
            )
        })
        .collect();
    let required: Vec<String> = (0..count)
        .flat_map(|i| [format!("p{i}"), format!("q{i}")])
        .collect();
    let schema =
        serde_json::json!({"type": "object", "properties": properties, "required": required});
    let counts = check_counts(&dojops_repo("a", &schema));
    assert_eq!(counts.get("SCH002"), Some(&201), "{counts:?}");
}

/// A JSON Schema of 20,000 definitions, each a `$ref` to the next (resolved) or to one that
/// is not there (dangling), and as many anchors with references a letter off: each pointer
/// was looked up member by member and each dangling one compared with every member (60,000
/// took over a minute, release).
#[test]
fn a_schema_of_60_thousand_local_references() {
    let count = 20_000;
    let mut definitions = serde_json::Map::new();
    for i in 0..count {
        let next = serde_json::json!({"$ref": format!("#/definitions/d{}", i + 1)});
        definitions.insert(format!("d{i}"), next);
        let dangling = serde_json::json!({"$ref": format!("#/definitions/x{i}")});
        definitions.insert(format!("g{i}"), dangling);
        definitions.insert(
            format!("a{i}"),
            serde_json::json!({"$anchor": format!("an{i}")}),
        );
        let off = serde_json::json!({"$ref": format!("#an{i}x")});
        definitions.insert(format!("r{i}"), off);
    }
    definitions.insert(format!("d{count}"), serde_json::json!({"type": "string"}));
    let schema = serde_json::json!({"type": "object", "definitions": definitions});
    let counts = check_counts(&dojops_repo("a", &schema));
    // Only the dangling and the off-by-a-letter references are reported, capped.
    assert_eq!(counts.get("SCH001"), Some(&201), "{counts:?}");
}

/// A cycod chain of 1,000 tools whose last calls the first 100,000 times: each reference
/// closed the same cycle again, copying the whole chain each time (27 s and 10.8 GB in the
/// release build). A target named again closes no new cycle, and the cycles given whole
/// hold at most 100,000 steps in all.
#[test]
fn a_cycod_chain_closed_a_hundred_thousand_times() {
    let repo = Repo::new();
    let count = 1_000;
    for i in 0..count {
        let uses = if i + 1 < count {
            format!("t{}", i + 1)
        } else {
            vec!["t0"; 100_000].join(", ")
        };
        repo.write(
            &format!(".cycod/tools/t{i}.yaml"),
            format!("name: t{i}\ndescription: Runs step {i} of the job.\nuses:\n  tools: [{uses}]\nbash: echo {i}\n").as_bytes(),
        );
    }
    let counts = check_counts(&repo);
    assert_eq!(counts.get("REF011"), Some(&1), "{counts:?}");
}

/// A schema whose `required` lists 200,000 names and then the first again: the repeat was
/// looked for by comparing each name with every one before it (50 s in the release build).
#[test]
fn a_schema_requiring_200_thousand_names_one_twice() {
    let mut required: Vec<String> = (0..200_000).map(|i| format!("p{i}")).collect();
    required.push("p0".into());
    let schema = serde_json::json!({"type": "object", "properties": {"p0": {"type": "string"}}, "required": required});
    let found = findings(&dojops_repo("a", &schema));
    let repeat = found.iter().find(|d| d["code"] == "SCH001");
    assert_eq!(
        repeat.and_then(|d| d["message"].as_str()),
        Some("`required` lists `\"p0\"` more than once")
    );
}

/// A `default` mapping of 100,000 keys beside an `enum` of one mapping that differs in the
/// last: each key was looked for among all the other's (8 s in the release build).
#[test]
fn a_default_mapping_of_100_thousand_keys() {
    let keys: serde_json::Map<String, Value> = (0..100_000)
        .map(|i| (format!("k{i}"), Value::from(i)))
        .collect();
    let mut other = keys.clone();
    other.insert("k99999".into(), Value::from(-1));
    let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "object", "default": keys, "enum": [other]}}});
    let counts = check_counts(&dojops_repo("a", &schema));
    assert_eq!(counts.get("SCH003"), Some(&1), "{counts:?}");
}

/// A schema of 150,000 embedded `$id`s and as many `$ref`s to a remote schema none of them
/// is: each reference was compared with every `$id` (3 s in the release build for 6.6 MB
/// at 100,000).
#[test]
fn a_schema_of_150_thousand_ids_and_remote_refs() {
    let mut properties = serde_json::Map::new();
    for i in 0..150_000 {
        properties.insert(
            format!("i{i}"),
            serde_json::json!({"$id": format!("http://y/{i}")}),
        );
        properties.insert(format!("r{i}"), serde_json::json!({"$ref": "http://x"}));
    }
    let schema = serde_json::json!({"type": "object", "properties": properties});
    let counts = check_counts(&dojops_repo("a", &schema));
    assert_eq!(counts.get("SCH005"), Some(&201), "{counts:?}");
}

/// 3,000 knowledge bases and 150 AML agents of 200 references each to ids none defines: each
/// reference was compared with every knowledge base id for a "did you mean" (300 agents:
/// 35 s in the release build). The run now spends one budget of comparisons; the first
/// misspelling still gets its hint.
#[test]
fn agents_of_30_thousand_unknown_references_among_3_thousand_knowledge_bases() {
    let repo = Repo::new();
    for i in 0..3_000 {
        repo.write(
            &format!("knowledge/k{i}.kb.md"),
            format!(
                "---\nspec_version: \"1.2\"\nkb_id: \"kb-{i}\"\nstatus: \"active\"\n---\n# KB\n"
            )
            .as_bytes(),
        );
    }
    for a in 0..150 {
        let first = if a == 0 {
            "kb-41x".to_string()
        } else {
            format!("zz-{a}")
        };
        let refs: String = std::iter::once(first)
            .chain((1..200).map(|j| format!("zz-{a}-{j}")))
            .map(|id| format!("    - ref: \"{id}\"\n"))
            .collect();
        repo.write(
            &format!("agents/a{a:03}.agent.md"),
            format!("---\nspec_version: \"1.2\"\nagent_id: \"agent-{a}\"\nknowledge:\n  refs:\n{refs}---\n# Purpose\nx\n").as_bytes(),
        );
    }
    let started = std::time::Instant::now();
    let found = findings(&repo);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert_eq!(counts(&found).get("REF024"), Some(&30_000));
    let hinted = found.iter().find(|d| {
        d["message"]
            .as_str()
            .is_some_and(|m| m.contains("`kb-41x`"))
    });
    let help = hinted.and_then(|d| d["help"].as_str()).unwrap_or_default();
    assert!(help.contains("`kb-41`"), "{hinted:?}");
}

/// A cycod scope whose `mcp/mcp.json` defines 40,000 servers (2.5 MB): it was parsed whole
/// under a cap of its own (1 MiB), past which every `uses.mcps` reference of the scope went
/// unchecked without a word. It is now read for its server names only, under the read cap
/// of every file, and 500 tools of 200 unknown names each are each reported: past the
/// 50,000 findings a run shows, the first of each tool are, and a line counts the rest.
#[test]
fn a_cycod_scope_of_40_thousand_mcp_servers_checks_its_references() {
    let repo = Repo::new();
    let servers: serde_json::Map<String, Value> = (0..40_000)
        .map(|i| {
            let server = serde_json::json!({"command": "npx", "args": ["-y", format!("pkg-{i}")]});
            (format!("server-{i}"), server)
        })
        .collect();
    let mcp = serde_json::json!({ "mcpServers": servers }).to_string();
    assert!(mcp.len() > 2 << 20, "{}", mcp.len());
    repo.write(".cycod/mcp/mcp.json", mcp.as_bytes());
    for t in 0..500 {
        let names: Vec<String> = (0..200).map(|j| format!("zz-{t}-{j}")).collect();
        repo.write(
            &format!(".cycod/tools/t{t}.yaml"),
            format!(
                "name: t{t}\ndescription: Runs step {t}.\nuses:\n  mcps: [{}, server-7, server-39999]\nbash: echo {t}\ntags: [read]\n",
                names.join(", ")
            )
            .as_bytes(),
        );
    }
    let found = findings(&repo);
    let unknown: Vec<&Value> = found.iter().filter(|d| d["code"] == "REF012").collect();
    let more = |d: &&Value| {
        d["message"].as_str().and_then(|m| {
            m.strip_suffix(" more findings of this rule in this file are not shown")?
                .parse::<usize>()
                .ok()
        })
    };
    let (lines, shown): (Vec<&Value>, Vec<&Value>) =
        unknown.iter().partition(|d| more(d).is_some());
    assert_eq!(lines.len(), 500);
    assert_eq!(
        shown.len() + lines.iter().filter_map(more).sum::<usize>(),
        100_000
    );
    assert!(shown.iter().all(|d| {
        let message = d["message"].as_str().unwrap_or_default();
        message.contains("`zz-")
    }));
}

/// A tool request whose command reads `/in/` through 200,000 folders: each folder of the path
/// was hashed to see whether a declared input covers it (320,000: 22 s in the release build).
/// Only folders as long as a declared input are looked up; the undeclared read is reported.
#[test]
fn a_tool_request_reading_a_path_of_200_thousand_folders() {
    let hash = "3f0a8c2d9b7e41f6a5c8d0e2b4f6a8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2";
    let request = format!(
        "---\nrequest_type: tool_request\nschema_version: \"1\"\nrequest_id: TR-20250301-120000Z-count-rows\ncreated_utc: 2025-03-01T12:00:00Z\nrequested_by: core\napproved_by: dana\napproved_utc: 2025-03-01T12:10:00Z\npurpose: Count rows\nbackend: ERA\nlanguage: python\nnetwork: none\ncpu_limit: \"1\"\nmemory_limit_mb: 256\ntime_limit_sec: 60\ninputs:\n  - path: /in/count.py\n    sha256: {hash}\n---\n\n## Command\n\npython -u /in/count.py /in/{}x.csv\n\n## Input Files\n\n- `/in/count.py` — sha256 `{hash}`\n\n## Output Expectations\n\n- `/out/count.json`: one JSON object\n\n## Risk Assessment\n\nRisk level: low\nJustification: reads one mounted file\nData sensitivity: internal\nNetwork rationale: none needed\n",
        "a/".repeat(200_000)
    );
    let repo = Repo::new();
    repo.write(
        "requests/TR-20250301-120000Z-count-rows.md",
        request.as_bytes(),
    );
    let started = std::time::Instant::now();
    let counts = check_counts(&repo);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert_eq!(counts.get("TRQ016"), Some(&1), "{counts:?}");
}

/// An input schema of 100,000 properties, all required, checked for OpenAI's strict mode:
/// each property was looked for in the `required` list (160,000: 14 s in the release build).
#[test]
fn a_strict_mode_check_of_100_thousand_required_properties() {
    let names: Vec<String> = (0..100_000).map(|i| format!("p{i}")).collect();
    let properties: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| (n.clone(), serde_json::json!({"type": "string"})))
        .collect();
    let required: Vec<&String> = names.iter().rev().collect();
    let tools = serde_json::json!({"tools": [{"name": "t", "description": "Does a thing.", "command": ["./tools/bin/t"], "schema": {"type": "object", "properties": properties, "required": required, "additionalProperties": false}}]});
    let repo = Repo::new();
    repo.write("tools.json", tools.to_string().as_bytes());
    let started = std::time::Instant::now();
    let output = run(
        &repo,
        &[
            "check",
            "--no-cache",
            "--format",
            "json",
            "--target",
            "openai",
        ],
    );
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        !text.contains("is not in `required`"),
        "every property is required"
    );
    assert!(text.contains("\"summary\""), "{text}");
}

/// 20,000 tool names that all look like one another (`a` and Cyrillic `а` in twenty places):
/// each looked through the whole group for the name it imitates (40,000: 17 s in the release
/// build). The group is sorted once; each is still reported against the first of another
/// spelling.
#[test]
fn twenty_thousand_look_alike_tool_names() {
    let name = |i: usize| -> String {
        (0..20)
            .map(|b| if (i >> b) & 1 == 1 { '\u{430}' } else { 'a' })
            .collect()
    };
    let tools: Vec<Value> = (0..20_000)
        .map(|i| serde_json::json!({"name": name(i), "description": "Adds.", "inputSchema": {"type": "object", "properties": {}}}))
        .collect();
    let repo = Repo::new();
    repo.write(
        "tools.json",
        serde_json::json!({ "tools": tools }).to_string().as_bytes(),
    );
    let started = std::time::Instant::now();
    let found = findings(&repo);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let first = found.iter().find(|d| d["code"] == "SEC063");
    let message = first
        .and_then(|d| d["message"].as_str())
        .unwrap_or_default();
    assert!(
        message.contains(&format!("looks the same as `{}`", name(0))),
        "{message}"
    );
}

/// 20,000 tools of one minified `tools.json` whose names are variants of each other (case,
/// `-` for `_`, Cyrillic letters, a zero-width space): the line is not all ASCII, and the
/// column of each place was counted from the line's start (14 s with the release build, and
/// as long with every SEC rule ignored). Columns are counted from a mark every 4 KiB now.
#[test]
fn twenty_thousand_variant_names_on_one_line_that_is_not_ascii() {
    let name = |i: usize| -> String {
        let base = format!("get_cap_{}_ox", i / 6);
        match i % 6 {
            0 => base,
            1 => base.to_uppercase(),
            2 => base.replace('_', "-"),
            3 => base.replace('a', "\u{430}").replace('o', "\u{43e}"),
            4 => format!("{base}\u{200b}"),
            _ => format!("Get_Cap_{}_Ox", i / 6),
        }
    };
    let tools: Vec<Value> = (0..20_000)
        .map(|i| serde_json::json!({"name": name(i), "description": "Fetch a record.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}))
        .collect();
    let repo = Repo::new();
    repo.write(
        "tools.json",
        serde_json::json!({ "tools": tools }).to_string().as_bytes(),
    );
    for ignore in [None, Some("SEC")] {
        let mut command = Command::cargo_bin("toolc").expect("binary");
        command
            .args(["check", "--no-cache", "--format", "json", "."])
            .args(ignore.map(|rules| format!("--ignore={rules}")))
            .current_dir(&repo.root)
            .timeout(HANG_LIMIT);
        let started = std::time::Instant::now();
        let output = command.output().expect("toolc runs");
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
    }
    // The look-alike of the fourth tool is placed on its name (the string with its quotes),
    // its column counted in characters.
    let found = findings(&repo);
    let at = found.iter().find(|d| d["code"] == "SEC063").map(|d| {
        (
            d["span"]["start"]["line"].clone(),
            d["span"]["start"]["column"].clone(),
        )
    });
    let text = serde_json::json!({ "tools": tools }).to_string();
    let offset = text.find(&format!("\"{}\"", name(3))).unwrap_or_default();
    let column = text[..offset].chars().count() as u64 + 1;
    assert_eq!(at, Some((Value::from(1), Value::from(column))));
}
