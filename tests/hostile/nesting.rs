//! Documents built to exhaust a parser: YAML alias bombs, deep nesting in YAML and JSON, `$ref`
//! cycles in a schema.

use super::*;

#[test]
fn yaml_alias_bomb_is_cut_off() {
    let repo = repo();
    let mut bomb = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let p = format!("*a{}", i - 1);
        let items = [p.as_str(); 10].join(", ");
        bomb.push_str(&format!("a{i}: &a{i} [{items}]\n"));
    }
    tool(&repo, "bomb", bomb.as_bytes());
    // Wide, not deep: many aliases of one anchor that is just under the budget on its own.
    let mut wide = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..5 {
        let p = format!("*a{}", i - 1);
        let items = [p.as_str(); 10].join(", ");
        wide.push_str(&format!("a{i}: &a{i} [{items}]\n"));
    }
    for i in 0..1000 {
        wide.push_str(&format!("b{i}: *a4\n"));
    }
    tool(&repo, "wide", wide.as_bytes());
    let diags = diagnostics(&repo);
    find(&diags, "SYN004", ".dojops/tools/bomb/tool.yaml");
    find(&diags, "SYN004", ".dojops/tools/wide/tool.yaml");
}

#[test]
fn deeply_nested_yaml_is_an_error() {
    let repo = repo();
    let flow = "[".repeat(100_000) + &"]".repeat(100_000);
    tool(&repo, "flow", flow.as_bytes());
    let block = "- ".repeat(100_000) + "x\n";
    tool(&repo, "block", block.as_bytes());
    let mapping: String = "{a: ".repeat(100_000) + &"}".repeat(100_000);
    tool(&repo, "mapping", mapping.as_bytes());
    let diags = diagnostics(&repo);
    for name in ["flow", "block", "mapping"] {
        find(&diags, "SYN005", &format!(".dojops/tools/{name}/tool.yaml"));
    }
}

#[test]
fn deeply_nested_json_schema_is_an_error() {
    let repo = repo();
    tool(
        &repo,
        "deep",
        VALID_TOOL.replace("my-tool", "deep").as_bytes(),
    );
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    repo.write(".dojops/tools/deep/input.schema.json", deep.as_bytes());
    tool(
        &repo,
        "deep-object",
        VALID_TOOL.replace("my-tool", "deep-object").as_bytes(),
    );
    let deep = r#"{"a": "#.repeat(100_000) + "1" + &"}".repeat(100_000);
    repo.write(
        ".dojops/tools/deep-object/input.schema.json",
        deep.as_bytes(),
    );
    let diags = diagnostics(&repo);
    find(&diags, "SYN005", ".dojops/tools/deep/input.schema.json");
    find(
        &diags,
        "SYN005",
        ".dojops/tools/deep-object/input.schema.json",
    );
}

#[test]
fn ref_cycles_in_an_input_schema_terminate() {
    let repo = repo();
    tool(
        &repo,
        "self-ref",
        VALID_TOOL.replace("my-tool", "self-ref").as_bytes(),
    );
    repo.write(
        ".dojops/tools/self-ref/input.schema.json",
        br##"{"$ref": "#"}"##,
    );
    tool(
        &repo,
        "mutual",
        VALID_TOOL.replace("my-tool", "mutual").as_bytes(),
    );
    repo.write(
        ".dojops/tools/mutual/input.schema.json",
        br##"{
  "type": "object",
  "definitions": {
    "a": {"type": "object", "properties": {"b": {"$ref": "#/definitions/b"}}},
    "b": {"type": "object", "properties": {"a": {"$ref": "#/definitions/a"}}}
  },
  "properties": {"start": {"$ref": "#/definitions/a"}}
}"##,
    );
    let diags = diagnostics(&repo);
    // A cycle is legal JSON Schema: it must neither hang nor be called invalid.
    for d in &diags {
        let code = d["code"].as_str().unwrap_or_default();
        assert!(
            !(code.starts_with("SYN") || code == "SCH001")
                || d["path"] == ".dojops/tools/sentinel/tool.yaml",
            "a `$ref` cycle is valid JSON Schema: {d:#}"
        );
    }
}
