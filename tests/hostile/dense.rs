//! Files dense with tiny values (issue 29, row 10): memory follows the input's size. Each
//! test measures toolc's peak resident memory (its own report of `VmHWM` under
//! `TOOLC_DEBUG_TIMES`, Linux only) on a repository holding one dense file, against the
//! same run on a small file of the same kind (the binary, its tables and threads), and
//! holds the difference to a multiple of the dense file's size. The files are a tenth of
//! those measured in docs/performance.md, so the debug binary takes seconds.

use super::*;

/// Peak resident memory of `toolc check --no-cache -q` in `repo`, in bytes; `None` where
/// toolc cannot read it (not Linux).
pub(super) fn peak_memory(repo: &Repo) -> Option<f64> {
    peak_memory_of(repo, &["check", "--no-cache", "-q", "."])
}

/// Peak resident memory of `toolc ARGS` in `repo`, in bytes, as [`peak_memory`].
pub(super) fn peak_memory_of(repo: &Repo, args: &[&str]) -> Option<f64> {
    let mut command = Command::cargo_bin("toolc").expect("binary");
    command.args(args).current_dir(&repo.root);
    peak_memory_in(command)
}

/// Peak resident memory of the toolc `command`, in bytes, as [`peak_memory`].
pub(super) fn peak_memory_in(mut command: Command) -> Option<f64> {
    let output = command
        .env("TOOLC_DEBUG_TIMES", "1")
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    // 2: a configuration refused, which must cost as little.
    assert!(
        matches!(output.status.code(), Some(0..=2)),
        "toolc must finish, got {:?}\nstderr tail: {}",
        output.status,
        tail(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mib: f64 = stderr
        .lines()
        .rev()
        .filter_map(|l| l.split("peak").nth(1)?.trim().strip_suffix("MiB"))
        .find_map(|n| n.trim().parse().ok())?;
    Some(mib * 1024.0 * 1024.0)
}

fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let start = text.len().saturating_sub(2_000);
    text.get(start..).unwrap_or_default().to_string()
}

/// `dense` (a file of `path`) may take at most `times` its size beyond what `small` (the
/// same kind of file, a few lines) takes.
pub(super) fn assert_bounded(path: &str, small: &str, dense: &str, times: f64) {
    let base = Repo::new();
    base.write(path, small.as_bytes());
    let Some(fixed) = peak_memory(&base) else {
        return;
    };
    let repo = Repo::new();
    repo.write(path, dense.as_bytes());
    let peak = peak_memory(&repo).expect("measured before");
    let size = dense.len() as f64;
    let ratio = (peak - fixed) / size;
    // Seen with `--nocapture`: how near each bound a run came.
    eprintln!("{path}: {ratio:.2}x of at most {times}x");
    assert!(
        ratio <= times,
        "{path} of {:.1} MB took {:.1} MiB beyond the {:.1} MiB of a small one: {ratio:.1}x its size, more than {times}x",
        size / 1e6,
        (peak - fixed) / 1048576.0,
        fixed / 1048576.0
    );
}

/// 6.4x here when the tree took a 32-byte node for each 6-byte item; a list of 256 plain
/// items or more is packed now (1.1x here).
#[test]
fn a_yaml_list_of_four_hundred_thousand_items() {
    let head = "name: many\ndescription: d\nbash: echo hi\ntags:\n";
    assert_bounded(
        ".cycod/tools/many.yaml",
        &format!("{head}  - read\n"),
        &format!("{head}{}", "  - 1\n".repeat(400_000)),
        8.0,
    );
}

/// An agentcli manifest whose one schema (of `kind`) has an `enum` of `values` copies of
/// `value`.
fn manifest_with_enum(kind: &str, value: &str, values: usize) -> String {
    let values = vec![value; values].join(",");
    format!(
        r#"{{"tools":[{{"name":"pick","description":"Pick one value","schema":{{"type":"object","properties":{{"v":{{"type":"{kind}","enum":[{values}]}}}},"required":["v"],"additionalProperties":false}},"command":["./pick"],"timeoutSec":3}}]}}"#
    )
}

/// A long list of only numbers (and nulls and booleans) is held packed, a few bytes an
/// item, not a 32-byte node each (16 times the text of `1,`): 42x, then 23x and 19.2x, now
/// 5.0x here (the text, the packed list and the packed copy of the schema kept for the
/// bundles).
#[test]
fn a_schema_enum_of_a_million_values() {
    assert_bounded(
        "tools.json",
        &manifest_with_enum("integer", "1", 1),
        &manifest_with_enum("integer", "1", 1_000_000),
        7.0,
    );
}

/// Every value breaks the schema's own `type` (SCH003): the schema check kept a finding
/// for each before the file's cap dropped all but 200 (about 650 bytes a value, over 100
/// times the file's size); it counts them past the cap now (2.4x here).
#[test]
fn a_schema_enum_of_half_a_million_values_of_the_wrong_type() {
    assert_bounded(
        "tools.json",
        &manifest_with_enum("string", "true", 1),
        &manifest_with_enum("string", "true", 500_000),
        5.0,
    );
}

/// An agentcli manifest whose one schema requires `names` keys its `properties` lack.
fn manifest_requiring(names: usize) -> String {
    let required: Vec<String> = (0..names).map(|i| format!("\"r{i}\"")).collect();
    format!(
        r#"{{"tools":[{{"name":"pick","description":"Pick one value","schema":{{"type":"object","properties":{{}},"required":[{}]}},"command":["./pick"]}}]}}"#,
        required.join(",")
    )
}

/// Every name of `required` is missing from `properties` (SCH002): the schema check built a
/// finding for each, with its help and fix, before the file's cap dropped all but 200 (a
/// 40 MB list took 3.5 GB, 88 times its size); each rule's findings are capped as they are
/// found now, as SCH003's were (7.0x here). A million names (9.9 MB): at 300,000 (2.7 MB)
/// what a run's threads take at random moments (a few MiB) was as much as the margin.
#[test]
fn a_schema_requiring_a_million_undefined_names() {
    assert_bounded(
        "tools.json",
        &manifest_requiring(1),
        &manifest_requiring(1_000_000),
        8.0,
    );
}

/// A long list of short strings is packed too (a string and its span in a few bytes, read
/// from there by the security pass), and the security pass reads such a list of values a
/// batch at a time instead of holding a 56-byte text for each: 26.6x, now 3.3x here.
#[test]
fn a_schema_enum_of_half_a_million_short_strings() {
    assert_bounded(
        "tools.json",
        &manifest_with_enum("string", "\"a\"", 1),
        &manifest_with_enum("string", "\"a\"", 450_000),
        5.0,
    );
}

/// The same with distinct strings (`"a0"`, `"a1"`, …): 12.8x, now 3.3x here.
#[test]
fn a_schema_enum_of_distinct_short_strings() {
    let values: Vec<String> = (0..200_000).map(|i| format!("\"a{i}\"")).collect();
    let dense = manifest_with_enum("string", "\"a\"", 1).replace("\"a\"", &values.join(","));
    assert_bounded(
        "tools.json",
        &manifest_with_enum("string", "\"a\"", 1),
        &dense,
        5.0,
    );
}

/// An agentcli manifest whose one schema's `properties` map `n` short names to `value`.
fn manifest_with_properties(n: usize, value: &str) -> String {
    let properties: Vec<String> = (0..n).map(|i| format!(r#""k{i}":{value}"#)).collect();
    manifest_with_enum("string", "\"a\"", 1).replace(
        r#""properties":{"v":"#,
        &format!(r#""properties":{{{},"v":"#, properties.join(",")),
    )
}

/// The meta-schema validator built an error for every property that is not a schema at once
/// (before the first 50 were kept), beside a copy of the map, and the security pass held a
/// text for each name: 41x. A long map of schemas is validated a schema at a time, and its
/// names read in batches (8.3x here): what is left is mostly the tree (a 64-byte member and
/// two strings for each 14 bytes).
#[test]
fn a_schema_of_150_thousand_properties_that_are_not_schemas() {
    assert_bounded(
        "tools.json",
        &manifest_with_properties(1, r#""v""#),
        &manifest_with_properties(150_000, r#""v""#),
        10.0,
    );
}

/// Each property an empty schema: the schema walk held a place for each subschema twice
/// over (in its list and on its stack); it walks again instead, and its memory follows the
/// depth: 7.7x here before, 6.6-7.0x now, mostly the tree (a 64-byte member for each 13
/// bytes). Over 4 MiB, so freed memory goes back at once and the peak does not depend on
/// how busy the machine is (at half this size it ranged from 7.7x to 8.6x).
#[test]
fn a_schema_of_360_thousand_empty_properties() {
    assert_bounded(
        "tools.json",
        &manifest_with_properties(1, "{}"),
        &manifest_with_properties(360_000, "{}"),
        8.0,
    );
}

/// An `.mcp.json` of `n` servers.
fn servers(n: usize) -> String {
    let servers: Vec<String> = (0..n)
        .map(|i| format!(r#""s{i}":{{"command":"npx","args":["-y","pkg{i}@1.0.0"]}}"#))
        .collect();
    format!(r#"{{"mcpServers":{{{}}}}}"#, servers.join(","))
}

/// The security pass reads one server's texts at a time beside the tree (it held every
/// server's, about 300 bytes a server, at once: 18x), and the check of names equal but for
/// case sorts positions instead of hashing a copy of every name (6.6x here).
#[test]
fn an_mcp_json_of_fifty_thousand_servers() {
    assert_bounded(".mcp.json", &servers(1), &servers(50_000), 8.0);
}

// Dense files, sixth pass: cycod tags (docs/performance.md).

/// A cycod tool whose `tags` are `lines` (each a whole `  - …` line).
fn cycod_tags(lines: &str, n: usize) -> String {
    format!(
        "name: many\ndescription: d\nbash: echo hi\ntags:\n{}",
        lines.repeat(n)
    )
}

/// A YAML list of 256 plain scalars or more is packed (a few bytes an item, not a 32-byte
/// node and a string each), the cycod checks read the tags through it, the tool keeps them
/// in one buffer and the security pass reads them in batches (it held a 56-byte text for
/// each): 25.9x, now 2.6x here.
#[test]
fn cycod_tags_of_four_hundred_thousand_short_strings() {
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod_tags("  - read\n", 1),
        &cycod_tags("  - a\n", 400_000),
        4.0,
    );
}

/// The same list as one flow sequence (`tags: [a, a, …]`): 52x, now 4.6x here. Measured on
/// 4.5 MB: at 0.9 MB, a peak a few MiB above the small file's moved with the machine's load
/// (7.1x once in a clean CI run).
#[test]
fn cycod_tags_of_one_and_a_half_million_in_a_flow_sequence() {
    let flow = |n| {
        format!(
            "name: many\ndescription: d\nbash: echo hi\ntags: [{}]\n",
            vec!["a"; n].join(", ")
        )
    };
    assert_bounded(".cycod/tools/many.yaml", &flow(1), &flow(1_500_000), 6.0);
}

/// A cycod tool with a mapping of `n` short keys (under a key cycod does not have, so only
/// the parse, the checks of the tree and the security pass read it).
fn cycod_mapping(n: usize) -> String {
    let keys: String = (0..n).map(|i| format!("  k{i}: a\n")).collect();
    format!("name: many\ndescription: d\nbash: echo hi\nextra:\n{keys}")
}

/// A mapping's repeated keys were found through a map holding a copy of every key (13.2x
/// at 700,000 keys, release); they are found by sorting the entries' places when the
/// mapping ends, as in JSON (7.9x release; here 10.8x before, 6.3x now).
#[test]
fn a_yaml_mapping_of_four_hundred_thousand_keys() {
    let (small, dense) = (cycod_mapping(1), cycod_mapping(400_000));
    assert_bounded(".cycod/tools/many.yaml", &small, &dense, 8.5);
}

/// A flow mapping of `n` distinct five-letter keys (`{aaaaa: a, aaaab: a, …}`) under a key
/// cycod does not have.
fn cycod_flow_mapping(n: usize) -> String {
    let key = |mut i: usize| {
        let mut key = [b'a'; 5];
        for place in key.iter_mut().rev() {
            *place = b'a' + (i % 26) as u8;
            i /= 26;
        }
        String::from_utf8_lossy(&key).into_owned()
    };
    let keys: Vec<String> = (0..n).map(|i| format!("{}: a", key(i))).collect();
    format!(
        "name: many\ndescription: d\nbash: echo hi\nextra: {{{}}}\n",
        keys.join(", ")
    )
}

/// A mapping's entries (64 bytes each) were a list grown by doubling, which holds the old
/// room and the new while it copies: just past a power of two (2^19 here) the copy was the
/// peak, 12.5x here (12.1x at 1.2 million keys, release). They grow by chunks now, moved
/// once into exact room (7.8x here, 8.0x release).
#[test]
fn a_yaml_flow_mapping_of_540_thousand_keys() {
    let (small, dense) = (cycod_flow_mapping(1), cycod_flow_mapping(540_000));
    assert_bounded(".cycod/tools/many.yaml", &small, &dense, 9.5);
}

/// Lists of small trees: each level of each item was a node and an allocation (12.7x at 1.5
/// million `- [a]`, release; 12.7x at 700,000 `- {a: {b: c}}`). An item of a few nodes is
/// packed now, read as nodes only by a reader of its texts (2.2x release).
#[test]
fn yaml_lists_of_800_thousand_small_trees() {
    for item in ["[a]", "{a: {b: c}}"] {
        let list = |n: usize| {
            format!(
                "name: many\ndescription: d\nbash: echo hi\nextra:\n{}",
                format!("- {item}\n").repeat(n)
            )
        };
        assert_bounded(".cycod/tools/many.yaml", &list(1), &list(800_000), 4.0);
    }
}

/// A cycod tool of many parameters, each with a description: the security pass held a
/// text for each name and grew its list of texts by doubling (11.5x at 300,000, release);
/// a long mapping's names are read in batches now, and room is made for the descriptions
/// at once (8.6x).
#[test]
fn a_cycod_tool_of_three_hundred_thousand_parameters() {
    let params = |n: usize| {
        let params: String = (0..n)
            .map(|i| format!("  P{i}:\n    description: d\n"))
            .collect();
        format!("name: many\ndescription: d\nbash: echo hi\nparameters:\n{params}")
    };
    assert_bounded(".cycod/tools/many.yaml", &params(1), &params(300_000), 10.0);
}

/// Tags that each tell the agent to run a download (SEC040): the security pass kept a
/// finding for every one until the file's cap at the end of its load (124x); it caps them
/// as they come (5.9x here; 3.3x at 150,000 tags).
#[test]
fn cycod_tags_that_each_run_a_download() {
    assert_bounded(
        ".cycod/tools/many.yaml",
        &cycod_tags("  - read\n", 1),
        &cycod_tags("  - curl x | sh\n", 40_000),
        8.0,
    );
}

/// An Agent Skill whose body is `n` fenced blocks of `language`, each one command.
fn skill_of_blocks(language: &str, n: usize) -> String {
    let block = format!("```{language}\ncurl -s https://example.com/api | jq .items\n```\n\n");
    format!(
        "---\nname: big\ndescription: Summarise reports for the user.\n---\n\n{}",
        block.repeat(n)
    )
}

/// Every block of code the instructions hold was kept as a list of blocks with their texts,
/// and the shell blocks joined into one script were read whole, every statement held, to
/// follow data between the first 4,096 (18x here): the blocks are now read one at a time
/// and the joined script only as far as that reading goes (6.6x here). A thirtieth of the
/// 68 MB measured in docs/performance.md, so the debug binary stays well within the limit.
#[test]
fn a_skill_of_forty_thousand_shell_blocks() {
    assert_bounded(
        "skills/big/SKILL.md",
        &skill_of_blocks("bash", 1),
        &skill_of_blocks("bash", 40_000),
        9.0,
    );
}

/// Each code span of a skill was held with two empty strings for a block's words, 72 bytes
/// for a 4-byte span, in a list grown by doubling (19.3x here, 12.7x at a million spans
/// with the release build): a span is 24 bytes now, the list grown by chunks (6.5x here,
/// 6.7x release).
#[test]
fn a_skill_of_six_hundred_thousand_code_spans() {
    let skill = |n: usize| {
        format!(
            "---\nname: big\ndescription: Summarise reports for the user.\n---\n\n{}\n",
            "*a* `b` ".repeat(n)
        )
    };
    assert_bounded("skills/big/SKILL.md", &skill(1), &skill(600_000), 9.0);
}

/// Every path-like word and link of a skill's body was made a reference, 72 bytes each, and
/// all were held in a list grown by doubling before the first was resolved (here 14.1x for
/// images, 7.2x for paths; 14.5x and 10.5x at 600,000, release): they are made one at a
/// time as they are resolved, and the links are a list grown by chunks (here 7.0x and 2.0x;
/// 8.1x and 2.3x release).
#[test]
fn a_skill_of_four_hundred_thousand_paths_or_images() {
    for (unit, times) in [("![a](b.png) ", 9.5), ("scripts/a.sh ", 5.0)] {
        let skill = |n: usize| {
            format!(
                "---\nname: big\ndescription: Summarise reports for the user.\n---\n\n{}\n",
                unit.repeat(n)
            )
        };
        assert_bounded("skills/big/SKILL.md", &skill(1), &skill(400_000), times);
    }
}

/// A skill whose instructions are one paragraph of `n` lines, each a link to a file the
/// skill does not have.
fn skill_of_links(n: usize) -> String {
    format!(
        "---\nname: big\ndescription: Summarise reports for the user.\n---\n\n{}",
        "See [a](references/a.md).\n".repeat(n)
    )
}

/// pulldown-cmark builds the tree of all it reads before its first event, and the skill
/// reader built a broken-reference finding for every link before the cap kept 200 (18x
/// here): the body is now read a piece of 256 KiB at a time, and past the cap a finding is
/// only counted (4.9x here; a piece's tree is a fixed cost, 8.6x at half this size).
#[test]
fn a_skill_of_two_hundred_thousand_broken_links() {
    assert_bounded(
        "skills/big/SKILL.md",
        &skill_of_links(1),
        &skill_of_links(200_000),
        8.0,
    );
}

/// A skill whose instructions are one line of two million `[` (or of `_a* `): pieces were
/// cut only between lines, so pulldown-cmark built the tree of the whole line, a node or
/// more for every mark (130x its size at full size, release). A piece now holds a bounded
/// number of such marks, and a line denser than that is cut inside (113x here before; 3.6x
/// and 4.3x now).
#[test]
fn a_skill_of_one_line_of_two_million_marks() {
    let skill = |body: &str| {
        format!("---\nname: big\ndescription: Summarise reports for the user.\n---\n\n{body}\n")
    };
    for mark in ["[", "_a* "] {
        let n = 2_000_000 / mark.len();
        assert_bounded(
            "skills/big/SKILL.md",
            &skill(mark),
            &skill(&mark.repeat(n)),
            10.0,
        );
    }
}

/// A tool request whose body holds `n` `### Note` headings.
fn request_of_headings(n: usize) -> String {
    let era = include_str!(
        "../fixtures/tool-request/valid/requests/TR-20250131-140500Z-sales-summary.md"
    );
    let at = era.find("## Output Expectations").unwrap_or(era.len());
    format!("{}{}{}", &era[..at], "### Note\n".repeat(n), &era[at..])
}

/// The same pulldown-cmark tree, for headings (about 17x before; 6.2x now on an idle
/// machine, 7.7x at half this size). Its peak still moves with the machine's load (8.1x and
/// 8.2x while the whole suite ran on two cores), so the bound is the goal's, with a margin.
#[test]
fn a_request_of_six_hundred_thousand_headings() {
    assert_bounded(
        "requests/TR-20250131-140500Z-sales-summary.md",
        &request_of_headings(1),
        &request_of_headings(600_000),
        9.5,
    );
}

/// A tool request of `n` inputs in its front matter, `n` in its `## Input Files` and `n` host
/// paths in its prose.
fn request_of_paths(n: usize) -> String {
    let declared: String = (0..n).map(|i| format!("  - path: /in/g{i}\n")).collect();
    let listed: String = (0..n).map(|i| format!("- /in/f{i}\n")).collect();
    let prose: Vec<String> = (0..n).map(|i| format!("/etc/x{i}")).collect();
    format!(
        "---\nrequest_type: tool_request\nschema_version: \"1\"\nrequest_id: TR-20250131-140500Z-x\ncreated_utc: 2025-01-31T14:05:00Z\nrequested_by: core\npurpose: p\nbackend: ERA\nlanguage: python\nnetwork: none\ninputs:\n{declared}---\n\n## Command\n\npython -u /in/a.py\n\n## Input Files\n\n{listed}\n## Notes\n\n{}\n",
        prose.join(" ")
    )
}

/// Every path token of the request was found, copied and held before any was read, the
/// listed inputs' tokens again, and each input under `/in/` was kept among the paths not to
/// report as the host's, which none of them could be (11.0x here, 12.6x release at 3.8 MB);
/// the tokens are read as they are found now (7.3x here, 8.2x release).
#[test]
fn a_tool_request_of_100_thousand_paths() {
    assert_bounded(
        "requests/TR-20250131-140500Z-x.md",
        &request_of_paths(1),
        &request_of_paths(100_000),
        9.0,
    );
}
