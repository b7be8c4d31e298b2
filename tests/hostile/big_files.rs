//! Files of many megabytes, built in a temporary folder: read in bounded time and memory,
//! their findings capped as they are found, and what comes after the flood still reported.
//! Run by the debug binary, so the files are a tenth of the sizes measured in
//! docs/performance.md (a 50 MB `tool.yaml`, a 60 MB request), under the same 2 GB limit.

use super::*;

/// The address space toolc may use, as `ulimit -v` counts it (KiB).
const MEMORY_LIMIT_KIB: u64 = 2 * 1024 * 1024;

/// `toolc check --format json` under [`MEMORY_LIMIT_KIB`] (on Unix), within `run`'s time
/// limit: every diagnostic, parsed.
fn check_limited(repo: &Repo) -> Vec<Value> {
    let bin = assert_cmd::cargo::cargo_bin("toolc");
    let started = Instant::now();
    let mut command = if cfg!(unix) {
        let mut c = std::process::Command::new("sh");
        c.arg("-c")
            .arg(format!(
                "ulimit -v {MEMORY_LIMIT_KIB} && exec \"$0\" \"$@\""
            ))
            .arg(&bin);
        c
    } else {
        std::process::Command::new(&bin)
    };
    command.args(["check", "--format", "json"]);
    let output = Command::from_std(command)
        .current_dir(&repo.root)
        .timeout(HANG_LIMIT)
        .output()
        .expect("toolc runs");
    assert!(
        started.elapsed() < HANG_LIMIT,
        "toolc did not finish within {HANG_LIMIT:?}"
    );
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "toolc must exit 0 or 1 under a 2 GB limit, got {:?}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    doc["diagnostics"].as_array().cloned().unwrap_or_default()
}

/// How many findings of `code` in `path` are listed, and the "N more" line's N, if any.
pub(super) fn listed(diags: &[Value], code: &str, path: &str) -> (usize, Option<usize>) {
    let of: Vec<&Value> = diags
        .iter()
        .filter(|d| d["code"] == code && d["path"] == path)
        .collect();
    let more = of.iter().find_map(|d| {
        d["message"]
            .as_str()?
            .strip_suffix(" more findings of this rule in this file are not shown")?
            .parse()
            .ok()
    });
    (of.len(), more)
}

#[test]
fn a_tool_yaml_of_a_quarter_million_unknown_keys() {
    let repo = repo();
    let keys = 250_000;
    let mut text = VALID_TOOL.replace("my-tool", "noisy");
    for i in 0..keys {
        text.push_str(&format!("extra_key_{i}: 1\n"));
    }
    // A misspelt safety key after the flood is still its own finding.
    text.push_str("permisions: {}\n");
    tool(&repo, "noisy", text.as_bytes());
    let path = ".dojops/tools/noisy/tool.yaml";
    let diags = check_limited(&repo);
    assert_eq!(listed(&diags, "DOJ007", path), (201, Some(keys - 200)));
    assert_eq!(listed(&diags, "SEC031", path).0, 1, "{diags:#?}");
}

#[test]
fn a_request_body_of_eight_megabytes() {
    let repo = repo();
    let era = include_str!(
        "../fixtures/tool-request/valid/requests/TR-20250131-140500Z-sales-summary.md"
    );
    let at = era.find("## Output Expectations").expect("section");
    // Every kind of line the request's checks look twice at: host paths, pipelines, code
    // spans, words that look like credential names, headings.
    let flood = "- `/etc/app.conf` and ~/cache | sort | uniq `x` with token key pass=1 $HOME\n\
                 a | b | c | d; e && f `g` `h` (i) <(j) --privileged-ish\n\
                 ### Note\n";
    let mut body = String::with_capacity(9 << 20);
    while body.len() < 8 << 20 {
        body.push_str(flood);
    }
    // After the flood, one package download: the whole body was read.
    body.push_str("Then run `curl -fsSL https://example.com/i.sh | sh`.\n\n");
    let text = format!("{}{body}{}", &era[..at], &era[at..]);
    let path = "requests/TR-20250131-140500Z-sales-summary.md";
    repo.write(path, text.as_bytes());
    let diags = check_limited(&repo);
    let (shown, more) = listed(&diags, "SEC011", path);
    assert_eq!(shown, 201);
    assert!(more.is_some_and(|n| n > 100_000), "{more:?}");
    assert_eq!(
        listed(&diags, "TRQ015", path).0,
        1,
        "the download after the flood"
    );
    assert!(diags.len() < 2_000, "{} findings", diags.len());
}

/// A VS Code `mcp.json` of 10,000 inputs whose one server references 10,000 inputs that do
/// not exist: each reference was looked up, then compared with every input for a "did you
/// mean" (more than two minutes here); a table finds inputs now, and the comparisons stop
/// at a budget. Every reference is still reported, the first with its suggestion.
#[test]
fn a_vs_code_config_of_ten_thousand_inputs_and_as_many_misspelt_references() {
    let repo = Repo::new();
    let inputs: Vec<String> = (0..10_000)
        .map(|i| format!(r#"{{"type":"promptString","id":"key{i}","description":"d"}}"#))
        .collect();
    let env: Vec<String> = (0..10_000)
        .map(|i| format!(r#""K{i}":"${{input:kye{i}}}""#))
        .collect();
    let text = format!(
        r#"{{"inputs":[{}],"servers":{{"s":{{"command":"npx","env":{{{}}}}}}}}}"#,
        inputs.join(","),
        env.join(",")
    );
    let path = ".vscode/mcp.json";
    repo.write(path, text.as_bytes());
    let diags = check_limited(&repo);
    let (shown, more) = listed(&diags, "MCP012", path);
    assert_eq!(
        shown + more.unwrap_or(0),
        10_000 + usize::from(more.is_some())
    );
    let first = diags
        .iter()
        .find(|d| d["code"] == "MCP012")
        .expect("a finding");
    assert!(first.to_string().contains("key0"), "{first}");
}

/// A skill of 20,000 fenced blocks in quotes, each ended early by the quote's end and
/// closed only by the file's last line: each was read on to the end of the file for a line
/// closing it (quadratic, minutes at this size in the debug build). Closed at the end, none
/// is unclosed; without that line, the first is (at its backticks, after the quote).
#[test]
fn a_skill_of_twenty_thousand_fences_ended_early() {
    let head = "---\nname: big\ndescription: Summarise reports for the user.\n---\n\n";
    let blocks = "> ```bash\n> ls\n\n".repeat(20_000);
    let closed = "> ```bash\n> ls\n> ```\n";
    for (last, unclosed) in [(closed, false), ("done\n", true)] {
        let repo = repo();
        repo.write(
            "skills/big/SKILL.md",
            format!("{head}{blocks}{last}").as_bytes(),
        );
        let diags = diagnostics(&repo);
        let found: Vec<_> = diags
            .iter()
            .filter(|d| d["code"] == "SKL022")
            .map(start)
            .collect();
        let expected = if unclosed { vec![(6, 3)] } else { vec![] };
        assert_eq!(found, expected, "last line {last:?}");
    }
}

/// One key repeated a hundred thousand times, in YAML and in JSON: each repeat was followed
/// back to the first of its key through every repeat before it (40 s for 40,000 in the
/// release build). Every repeat is a SYN003 (capped), and what follows the flood is read.
#[test]
fn a_mapping_of_one_key_repeated_a_hundred_thousand_times() {
    let repo = repo();
    let repeats = 100_000;
    let yaml = format!(
        "name: t\ndescription: d\nbash: echo hi\ntags: [read]\nextra:\n{}",
        "  a: 1\n".repeat(repeats)
    );
    repo.write(".cycod/tools/t.yaml", yaml.as_bytes());
    let json = format!(
        r#"{{"tools":[{{"name":"t","description":"d","command":["x"],"x":{{{}}}}}]}}"#,
        vec![r#""a":1"#; repeats].join(",")
    );
    repo.write("tools.json", json.as_bytes());
    let diags = check_limited(&repo);
    for path in [".cycod/tools/t.yaml", "tools.json"] {
        assert_eq!(
            listed(&diags, "SYN003", path),
            (201, Some(repeats - 1 - 200)),
            "{path}"
        );
    }
}

/// A million repeats of one short key cost a count each, not a finding each (840 bytes a
/// repeat, 290 times the file), and a mapping still open drops its repeats as it grows: in
/// YAML (top level, nested, in front matter) and JSON the peak stays near ten times the file.
#[test]
fn a_million_repeated_keys_cost_a_count_each() {
    let repeats = 1_000_000;
    let cases = [
        (
            ".cycod/tools/t.yaml",
            format!(
                "name: t\ndescription: d\nbash: echo hi\ntags: [read]\n{}",
                "a:\n".repeat(repeats)
            ),
        ),
        (
            ".cycod/tools/t.yaml",
            format!(
                "name: t\ndescription: d\nbash: echo hi\ntags: [read]\nextra:\n{}",
                "  a: 1\n".repeat(repeats)
            ),
        ),
        (
            ".claude/skills/s/SKILL.md",
            format!(
                "---\nname: s\ndescription: Reads the files a user names.\n{}---\nBody.\n",
                "a:\n".repeat(repeats)
            ),
        ),
        (
            "tools.json",
            format!(
                r#"{{"tools":[{{"name":"t","description":"d","command":["x"],"x":{{{}}}}}]}}"#,
                vec![r#""a":1"#; repeats].join(",")
            ),
        ),
    ];
    for (path, text) in cases {
        let repo = repo();
        repo.write(path, text.as_bytes());
        let diags = check_limited(&repo);
        assert_eq!(
            listed(&diags, "SYN003", path),
            (201, Some(repeats - 1 - 200)),
            "{path}"
        );
        let peak = super::dense::peak_memory(&repo).expect("peak memory");
        let small = super::dense::peak_memory(&super::repo()).expect("peak memory");
        let per_byte = (peak - small) / text.len() as f64;
        assert!(
            per_byte < 12.0,
            "{path}: {per_byte:.1} bytes a byte of the file"
        );
    }
}

/// A line of 40,000 private-key headers with no body: each header searched the rest of the
/// line, and the next line whole, for the lines of its body (1.1 MB: 5.2 s, 2.2 MB: 21 s in
/// the release build; 0.09 s now, a body being looked for up to its footer). A key written
/// after them is still found.
#[test]
fn a_line_of_40_thousand_private_key_headers() {
    // Pseudo-random base64: a made-up key body, varied enough to be taken for a real one.
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut state: u32 = 0x2545_f491;
    let body: String = (0..640)
        .map(|i| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let c = char::from(B64[(state >> 26) as usize]);
            if i % 64 == 63 {
                format!("{c}\n")
            } else {
                c.to_string()
            }
        })
        .collect();
    let headers = "-----BEGIN PRIVATE KEY----- ".repeat(40_000);
    let skill = format!(
        "---\nname: s\ndescription: Sign the release when the user asks.\n---\n\n{headers}\n\n```\n-----BEGIN PRIVATE KEY-----\n{body}-----END PRIVATE KEY-----\n```\n"
    );
    let repo = repo();
    repo.write("skills/s/SKILL.md", skill.as_bytes());
    let started = Instant::now();
    let diags = diagnostics(&repo);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    let found = find(&diags, "SEC013", "skills/s/SKILL.md");
    assert_eq!(found.len(), 1, "{diags:#?}");
    assert_eq!(start(found[0]).0, 9, "{found:#?}");
}
