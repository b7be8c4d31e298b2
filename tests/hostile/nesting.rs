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

/// Few aliases of one long string stay far within the node budget but copy the string each
/// time: 20,000 aliases of a 300 KB description (a file of 360 KB) took 11.7 GB and a
/// minute. The text aliases copy is budgeted too, in every YAML format; a document that
/// uses an anchor a few times is read as it is.
#[test]
fn aliases_of_one_long_string_are_cut_off() {
    let repo = repo();
    let long = "word ".repeat(60_000);
    let aliases = ["*d"; 20_000].join(",");
    repo.write(
        ".cycod/tools/long.yaml",
        format!(
            "name: long\ndescription: Lists the files of the folder.\nbash: ls\ntags: [read]\nnotes: &d \"{long}\"\nmore: [{aliases}]\n"
        )
        .as_bytes(),
    );
    repo.write(
        ".claude/skills/long/SKILL.md",
        format!(
            "---\nname: long\ndescription: &d \"{long}\"\nmetadata:\n  x: [{aliases}]\n---\nBody.\n"
        )
        .as_bytes(),
    );
    let few = ["*d"; 3].join(",");
    repo.write(
        ".cycod/tools/few.yaml",
        format!(
            "name: few\ndescription: Lists the files of the folder.\nbash: ls\ntags: [read]\nnotes: &d \"{long}\"\nmore: [{few}]\n"
        )
        .as_bytes(),
    );
    let started = Instant::now();
    let diags = diagnostics(&repo);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    find(&diags, "SYN004", ".cycod/tools/long.yaml");
    find(&diags, "SYN004", ".claude/skills/long/SKILL.md");
    assert!(
        !diags
            .iter()
            .any(|d| d["path"] == ".cycod/tools/few.yaml" && d["code"] == "SYN004"),
        "{diags:#?}"
    );
    let peak = super::dense::peak_memory(&repo).expect("peak memory");
    assert!(peak < 200e6, "peak {peak} bytes");
}

/// Each anchor keeps a copy of its node for the aliases to come: three million `&a x`
/// (15 MB) took 392 MB. A document keeps one anchor per KiB of it (at least 10,000).
#[test]
fn a_document_of_millions_of_anchors_is_cut_off() {
    let repo = repo();
    let anchors = vec!["&a x"; 2_000_000].join(",");
    let text = format!("name: many\ndescription: d\nbash: echo hi\ntags: [read]\nx: [{anchors}]\n");
    repo.write(".cycod/tools/many.yaml", text.as_bytes());
    let diags = diagnostics(&repo);
    find(&diags, "SYN004", ".cycod/tools/many.yaml");
    let peak = super::dense::peak_memory(&repo).expect("peak memory");
    let small = super::dense::peak_memory(&super::repo()).expect("peak memory");
    assert!(
        peak - small < 3.0 * text.len() as f64,
        "{peak} against {small}"
    );
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
