//! Going to definitions and listing symbols: every kind of reference, and cross-file findings that
//! follow the unsaved buffers.

use super::*;

#[test]
fn definitions_symbols_and_cross_file_findings_follow_the_buffers() {
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", TOOL),
        ("agents/triage.agent.md", AGENT),
    ]);
    let tool = uri(&repo.root.join("tools/search-docs.tool.md"));
    let agent = uri(&repo.root.join("agents/triage.agent.md"));
    let mut client = Client::start(&repo.root);

    // The agent's `ref` goes to the tool file's `tool_id`.
    client.open(&agent, AGENT);
    let at = AGENT.find("\"search-docs\"").expect("ref") + 3;
    let target = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": agent}, "position": position(AGENT, at)}),
    );
    assert_eq!(target["uri"], tool, "{target}");
    let id_at = TOOL.find("\"search-docs\"").expect("tool_id");
    assert_eq!(target["range"]["start"], position(TOOL, id_at), "{target}");

    // The tool's outline: the tool and its parameter.
    client.open(&tool, TOOL);
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": tool}}),
    );
    assert_eq!(symbols[0]["name"], "search-docs", "{symbols}");
    assert_eq!(symbols[0]["children"][0]["name"], "query", "{symbols}");

    // Disabling the tool in its buffer reports the agent, which is not edited.
    let disabled = TOOL.replace("status: \"active\"", "status: \"disabled\"");
    client.change(&tool, 2, &disabled);
    let found = client.diagnostics(&agent, |d| !d.is_empty());
    assert_eq!(codes(&found), ["REF021"], "{found:#?}");

    // Enabling it again clears the agent.
    client.change(&tool, 3, TOOL);
    let cleared = client.diagnostics(&agent, <[Value]>::is_empty);
    assert!(cleared.is_empty());

    client.shutdown();
}

#[test]
fn every_kind_of_reference_goes_to_its_definition() {
    let proxy = SKILL
        .replace("name: nginx", "name: proxy")
        .replace("files:", "dependencies:\n  - skill: nginx\nfiles:");
    let caller = "steps:\n  - bash: ls\n  - tool: search\ntags: [read]\n";
    let policy = "allowedTools: [my-tool, nginx, proxy]\n";
    let repo = Repo::with(&[
        (".dojops/tools/my-tool/tool.yaml", common::VALID_TOOL),
        (
            ".dojops/tools/my-tool/input.schema.json",
            common::VALID_SCHEMA,
        ),
        (".dojops/skills/nginx.dops", SKILL),
        (".dojops/skills/proxy.dops", &proxy),
        (".dojops/policy.yaml", policy),
        (".cycod/tools/search.yaml", CYCOD),
        (".cycod/tools/caller.yaml", caller),
        ("tools.json", MANIFEST),
    ]);
    let mut client = Client::start(&repo.root);
    // (file, its text, the reference in it, the file it goes to, the text there)
    let cases = [
        (
            ".dojops/tools/my-tool/tool.yaml",
            common::VALID_TOOL,
            "\"input.schema.json\"",
            ".dojops/tools/my-tool/input.schema.json",
            None,
        ),
        (
            ".dojops/skills/proxy.dops",
            proxy.as_str(),
            "skill: nginx",
            ".dojops/skills/nginx.dops",
            Some((SKILL, "nginx\n  version")),
        ),
        (
            ".dojops/policy.yaml",
            policy,
            "my-tool",
            ".dojops/tools/my-tool/tool.yaml",
            Some((common::VALID_TOOL, "my-tool")),
        ),
        (
            ".cycod/tools/caller.yaml",
            caller,
            "tool: search",
            ".cycod/tools/search.yaml",
            Some((CYCOD, "search")),
        ),
    ];
    for (path, text, reference, target, name) in cases {
        let doc = uri(&repo.root.join(path));
        client.open(&doc, text);
        let at = text.find(reference).expect("reference") + reference.len() - 2;
        let found = client.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": doc}, "position": position(text, at)}),
        );
        assert_eq!(
            found["uri"],
            uri(&repo.root.join(target)),
            "{path}: {found}"
        );
        let start = name.map_or(json!({"line": 0, "character": 0}), |(text, name)| {
            position(text, text.find(name).expect("name"))
        });
        assert_eq!(found["range"]["start"], start, "{path}: {found}");
    }

    // Outlines of a cycod tool and an agentcli manifest: each tool with its parameters.
    for (path, tool, parameter) in [
        (".cycod/tools/search.yaml", "search", "PATTERN"),
        ("tools.json", "get_time", "tz"),
    ] {
        let symbols = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri(&repo.root.join(path))}}),
        );
        assert_eq!(symbols[0]["name"], tool, "{path}: {symbols}");
        assert_eq!(
            symbols[0]["children"][0]["name"], parameter,
            "{path}: {symbols}"
        );
    }
    client.shutdown();
}

const MANIFEST: &str = r#"{
  "tools": [
    {
      "name": "get_time",
      "description": "Get the current time for an IANA timezone",
      "schema": {"type": "object", "properties": {"tz": {"type": "string"}}},
      "command": ["./tools/bin/get_time"]
    }
  ]
}
"#;
