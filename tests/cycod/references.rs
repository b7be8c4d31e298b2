//! References to other tools and MCP servers: resolution, include patterns, cycles (REF010 to
//! REF012).

use super::*;

// REF010 unknown-tool-reference, REF011 tool-reference-cycle, REF012 unknown-mcp-reference

#[test]
fn tool_references_resolve_in_the_folder_or_inline() {
    let caller = "steps:\n  - bash: ls\n  - tool: serch\ntags: [read]\n";
    assert_eq!(
        check_files(&[(T, BASE), (".cycod/tools/caller.yaml", caller)]),
        [
            ".cycod/tools/caller.yaml:3:11 REF010 error `steps[1].tool` names tool `serch`, which is not defined in this `.cycod/tools` folder or in `with.tools`"
        ]
    );
    let caller = "uses:\n  tools: [search]\ntool: search\ntags: [read]\n";
    assert_eq!(
        check_files(&[(T, BASE), (".cycod/tools/caller.yaml", caller)]),
        Vec::<String>::new()
    );
    silent(&format!(
        "{BASE}uses:\n  tool: helper\nwith:\n  tools:\n    - name: helper\n      bash: ls\n"
    ));
    // A tool in another scope folder is not visible.
    assert_eq!(
        check_files(&[
            (&format!("a/{T}"), BASE),
            ("b/.cycod/tools/caller.yaml", caller)
        ])
        .len(),
        2
    );
}

#[test]
fn include_pattern_folders_are_loaded_beside_the_scope() {
    let config = "[formats.cycod-tool]\ninclude = [\"my-tools/*.yaml\"]\n";
    let helper = "name: helper\nbash: ls\ntags: [read]\n";
    let uses_scope = "name: wrapper\ntool: search\ntags: [read]\n";
    let caller = "steps:\n  - tool: helper\n  - tool: helpr\ntags: [read]\n";
    assert_eq!(
        check_files(&[
            ("toolc.toml", config),
            (T, BASE),
            ("my-tools/helper.yaml", helper),
            ("my-tools/wrapper.yaml", uses_scope),
            (".cycod/tools/caller.yaml", caller),
        ]),
        [
            ".cycod/tools/caller.yaml:3:11 REF010 error `steps[1].tool` names tool `helpr`, which is not defined in this `.cycod/tools` folder or in `with.tools`"
        ]
    );
}

#[test]
fn reference_cycles() {
    let a = "tool: b\ntags: [run]\n";
    let b = "steps:\n  - tool: c\ntags: [run]\n";
    let c = "uses:\n  tools: [a]\nbash: ls\ntags: [run]\n";
    assert_eq!(
        check_files(&[
            (".cycod/tools/a.yaml", a),
            (".cycod/tools/b.yaml", b),
            (".cycod/tools/c.yaml", c),
        ]),
        [".cycod/tools/c.yaml:2:11 REF011 error tool reference cycle `a → b → c → a`"]
    );
    expect(
        "tool: search\ntags: [run]\n",
        &["1:7 REF011 error tool reference cycle `search → search`"],
    );
    let c = "bash: ls\ntags: [run]\n";
    assert_eq!(
        check_files(&[
            (".cycod/tools/a.yaml", a),
            (".cycod/tools/b.yaml", b),
            (".cycod/tools/c.yaml", c),
        ]),
        Vec::<String>::new()
    );
}

#[test]
fn mcp_names_are_checked_against_mcp_json_when_there_is_one() {
    let tool = format!("{BASE}uses:\n  mcps: [github, gitlab]\n");
    assert_eq!(check(&tool), Vec::<String>::new());
    let found = check_files(&[
        (T, &tool),
        (
            ".cycod/mcp/mcp.json",
            r#"{"mcpServers": {"github": {"command": "npx"}}}"#,
        ),
    ]);
    assert_eq!(
        found,
        [format!(
            "{T}:17:18 REF012 error MCP server `gitlab` is not defined in this scope's `mcp/mcp.json` or in `with.mcps`"
        )]
    );
}

/// Unknown references are capped per file as the file's own findings are: the first 200,
/// then one line that counts the rest (a tool naming 300,000 unknown tools printed each).
#[test]
fn unknown_tool_references_are_capped_per_file() {
    let names: Vec<String> = (0..300).map(|i| format!("u{i}")).collect();
    let caller = format!(
        "uses:\n  tools: [{}]\nbash: ls\ntags: [read]\n",
        names.join(", ")
    );
    let found = check_files(&[(T, BASE), (".cycod/tools/caller.yaml", &caller)]);
    assert_eq!(found.len(), 201, "{found:?}");
    assert!(found[..200].iter().all(|l| l.contains(" REF010 error ")));
    assert!(found[0].contains("names tool `u0`"), "{}", found[0]);
    assert!(found[199].contains("names tool `u199`"), "{}", found[199]);
    assert!(
        found[200].ends_with("100 more findings of this rule in this file are not shown"),
        "{}",
        found[200]
    );
}
