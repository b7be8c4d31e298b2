//! Long lists of deeper trees, and data a schema carries under keys no meta-schema reads
//! (issue 29, row 10): each test holds the peak memory beyond a small file's to a multiple
//! of the dense file's size, as `dense.rs` does.

use super::dense::assert_bounded;
use super::dense_tools::tool_list;

/// MCP tools as they are written: a description and a schema of two described properties
/// and a `required` list. Larger than a small tree (16 nodes), the list was held as nodes
/// (9.1x with the release binary at 58 MB); any item of a long list is packed now, and each
/// tool built for its readers alone (4.9x).
#[test]
fn an_mcp_tool_list_of_100_thousand_tools_with_described_properties() {
    let tool = |i: usize| {
        format!(
            r#"{{"name":"t{i}","description":"d","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string","description":"d"}},"b":{{"type":"string","enum":["c","f"]}}}},"required":["a"]}}}}"#
        )
    };
    assert_bounded(
        "tools.json",
        &tool_list(1, tool),
        &tool_list(100_000, tool),
        7.0,
    );
}

/// A skill's `metadata` listing mappings nested nine deep: as nodes, a node and an
/// allocation for each level of each item (14.4x with the release binary at 58 MB); packed
/// now, and read an item at a time (5.3x).
#[test]
fn a_skill_metadata_list_of_200_thousand_deep_mappings() {
    let skill = |n: usize| {
        let items: String = (0..n)
            .map(|i| {
                format!(
                    "    - {{a: {{b: {{c: {{d: {{e: {{f: {{g: {{h: {{i: c{i}}}}}}}}}}}}}}}}}}}\n"
                )
            })
            .collect();
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\nmetadata:\n  x:\n{items}---\n\nBody.\n"
        )
    };
    assert_bounded("skills/big/SKILL.md", &skill(1), &skill(200_000), 7.0);
}

/// A schema carrying a long list of deep mappings under a key that is no keyword: the
/// meta-validation copied it whole into JSON values (105x with the release binary at 58 MB,
/// 17 s); no meta-schema reads such a key, and its value is left out now (5.2x).
#[test]
fn a_schema_carrying_300_thousand_mappings_under_a_key_that_is_no_keyword() {
    let schema = |n: usize| {
        let item = r#"{"a":{"b":{"c":{"d":{"e":1}}}}}"#;
        let data = vec![item; n].join(",");
        tool_list(1, |_| {
            format!(r#"{{"name":"t","inputSchema":{{"type":"object","x-data":[{data}]}}}}"#)
        })
    };
    assert_bounded("tools.json", &schema(1), &schema(300_000), 7.0);
}

/// A skill's front matter of many flow mappings: the scan for constructs the reference
/// validator refuses masked every key and scalar it had read (8 bytes each, and a sort of
/// them), four times the front matter's size beside its tree (5.0x with the release binary
/// at 58 MB); it masks only those that hold a character it looks for now (3.6x).
#[test]
fn a_skill_metadata_list_of_300_thousand_flow_mappings() {
    let skill = |n: usize| {
        let items: String = (0..n)
            .map(|i| format!("    - {{a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: {i}}}\n"))
            .collect();
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\nmetadata:\n  x:\n{items}---\n\nBody.\n"
        )
    };
    assert_bounded("skills/big/SKILL.md", &skill(1), &skill(300_000), 4.0);
}

/// MCP tools whose every schema is wrong (a misspelt `type`, a `required` key not among the
/// properties): each tool's findings were held to the end of the file before the cap of a
/// rule's findings applied (14.1x with the release binary at 43 MB); capped as they are
/// found now (4.6x).
#[test]
fn an_mcp_tool_list_of_100_thousand_tools_with_a_wrong_schema_each() {
    let tool = |i: usize| {
        format!(
            r#"{{"name":"t{i}","description":"d","inputSchema":{{"type":"object","properties":{{"a":{{"type":"strin"}}}},"required":["z"]}}}}"#
        )
    };
    assert_bounded(
        "tools.json",
        &tool_list(1, tool),
        &tool_list(100_000, tool),
        7.0,
    );
}

/// `toolc build` of tiny valid MCP tools, which it bundles and writes for every target: each
/// bundled tool was held lowered, some 850 bytes, until the bundles were written (18x with
/// the release binary at 55 MB); only each tool's place is kept now, and a target's file
/// lowers its tools again as it is written.
#[test]
fn a_build_of_200_thousand_tiny_mcp_tools() {
    let peak = |n: usize| {
        let repo = super::Repo::new();
        repo.write("tools.json", tool_list(n, tiny_valid_tool).as_bytes());
        super::dense::peak_memory_of(&repo, &["build", "--out", "dist", "-q"])
    };
    let Some(small) = peak(1) else {
        return;
    };
    let size = tool_list(200_000, tiny_valid_tool).len();
    let ratio = (peak(200_000).expect("measured before") - small) / size as f64;
    assert!(ratio <= 10.0, "{ratio:.1}x the file");
}

/// An MCP tool every target takes as it is.
fn tiny_valid_tool(i: usize) -> String {
    format!(r#"{{"name":"t{i}","description":"d","inputSchema":{{"type":"object"}}}}"#)
}

/// A schema's `anyOf` of many small subschemas: the walk over subschemas built every item of
/// the packed list as a node and held them all (18x here); it reads each item while it
/// visits it now (7.3x with the release binary).
#[test]
fn a_schema_of_600_thousand_small_subschemas_in_a_list() {
    let schema = |n: usize| {
        let items = vec![r#"{"a":1}"#; n].join(",");
        tool_list(1, |_| {
            format!(
                r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{"x":{{"anyOf":[{items}]}}}}}}}}"#
            )
        })
    };
    assert_bounded("tools.json", &schema(1), &schema(600_000), 10.0);
}

/// A skill's `metadata` of many small flow mappings: each mapping of two entries, grown to
/// room for four, was shrunk in place and kept that room (the allocator keeps a block still
/// half used), 16.8x at 58 MB with the release binary; each is moved into room of exactly
/// its entries now. The strict-YAML check (SKL010) then held a finding for every flow
/// mapping to sort them (11x); it holds the first few by place now (9.6x: a 24-byte line
/// still held a 64-byte entry, its mapping's two of 64 bytes and two strings). Entries are
/// 56 bytes and short strings held in them now (8.6x).
#[test]
fn a_skill_metadata_mapping_of_400_thousand_small_flow_mappings() {
    let skill = |n: usize| {
        let entries: String = (0..n)
            .map(|i| format!("  k{i}: {{a: b, c: d}}\n"))
            .collect();
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\nmetadata:\n{entries}---\n\nBody.\n"
        )
    };
    assert_bounded("big/SKILL.md", &skill(1), &skill(400_000), 10.0);
}

/// Mappings of one-letter entries (`"a":"a",`, eight bytes of text an entry): an entry was
/// 64 bytes with its key in place and its value's string in an allocation of its own (10.7x
/// with the release binary at 12 MB); an entry is 56 bytes now, its short value in place
/// too (7.8x).
#[test]
fn an_mcp_server_holding_40_thousand_mappings_of_one_letter_entries() {
    let config = |n: usize| {
        let letters = "abcdefghijklmnopqrstuvwxyz0123456789";
        let inner: Vec<String> = letters.chars().map(|c| format!(r#""{c}":"{c}""#)).collect();
        let inner = inner.join(",");
        let data: Vec<String> = (0..n).map(|i| format!(r#""k{i}":{{{inner}}}"#)).collect();
        format!(
            r#"{{"mcpServers":{{"s":{{"command":"node","args":["x.js"],"x-data":{{{}}}}}}}}}"#,
            data.join(",")
        )
    };
    assert_bounded(".mcp.json", &config(1), &config(40_000), 9.0);
}

/// Mappings whose entries are a few bytes of text each, in a mapping long enough to be
/// packed: as entries and nodes, 56 bytes an entry, a skill's `metadata` of flow mappings of
/// one-letter keys without values took 18 times its size (17.9x with the release binary at
/// 4.7 MB), values nested forty deep 13 times in YAML and 11 in JSON. The long mapping is
/// packed as it is parsed and read an entry at a time now (2.2 to 3.0x).
#[test]
fn mappings_of_entries_of_a_few_bytes() {
    let letters = "abcdefghijklmnopqrstuvwxyz0123456789";
    let no_values: Vec<String> = letters.chars().map(String::from).collect();
    let no_values = no_values.join(", ");
    let skill = |n: usize| {
        let entries: String = (0..n)
            .map(|i| format!("  k{i}: {{{no_values}}}\n"))
            .collect();
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\nmetadata:\n{entries}---\n\nBody.\n"
        )
    };
    assert_bounded("big/SKILL.md", &skill(1), &skill(40_000), 6.0);
    let deep = |n: usize| {
        let value = format!("{}0{}", r#"{"a":"#.repeat(40), "}".repeat(40));
        let data: Vec<String> = (0..n).map(|i| format!(r#""k{i}":{value}"#)).collect();
        format!(
            r#"{{"mcpServers":{{"s":{{"command":"node","args":["x.js"],"x-data":{{{}}}}}}}}}"#,
            data.join(",")
        )
    };
    assert_bounded(".mcp.json", &deep(1), &deep(40_000), 6.0);
    let yaml_deep = |n: usize| {
        let value = format!("{}0{}", "{a: ".repeat(40), "}".repeat(40));
        let entries: String = (0..n).map(|i| format!("  k{i}: {value}\n")).collect();
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\nmetadata:\n{entries}---\n\nBody.\n"
        )
    };
    assert_bounded("big/SKILL.md", &yaml_deep(1), &yaml_deep(40_000), 6.0);
}
