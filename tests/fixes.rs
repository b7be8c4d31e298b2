//! Structured fixes do what they say: for every rule that offers one, a small repository
//! with the defect is checked with `toolc check --format json`, the edits of that rule's fix
//! are applied to the file, and a second run no longer reports the rule there. A rule that
//! offers a fix in any of these runs (or in the demo and the real-world corpus) but has no
//! case of its own fails the table test.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;
use common::{
    BASE_TOOL, CYCOD_STEPS as STEPS, Repo, VALID_AGENTCLI as AGENTCLI, VALID_CYCOD as CYCOD,
    VALID_DOPS as DOPS, VALID_SCHEMA, VALID_TOOL,
};
use serde_json::Value;

const AGENT: &str = r#"---
spec_version: "1.2"
agent_id: "support"
version: "1.0.0"
status: "active"
meta:
  name: "Support Agent"
  owner: "cx-team"
runtime:
  model: "claude-4-sonnet"
tools:
  tool_choice: "auto"
  refs:
    - ref: "search-docs"
guardrails:
  tool_calls:
    require_user_confirmation_for: ["search-docs"]
---
# Purpose
Answers product questions.
"#;

/// A valid MCP Registry server.json (the current schema).
const SERVER_JSON: &str = r#"{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.example/weather",
  "description": "Weather forecasts and alerts for any city.",
  "version": "1.0.0",
  "websiteUrl": "https://example.com/weather",
  "remotes": [
    {"type": "streamable-http", "url": "https://{region}.example.com/mcp", "variables": {"region": {"default": "eu"}}}
  ]
}
"#;

/// A valid Claude Code `.mcp.json`.
const MCP_JSON: &str = r#"{
  "mcpServers": {
    "docs": {"type": "http", "url": "https://docs.example.com/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}}
  }
}
"#;

/// A valid tool request written for the tests (see tests/fixtures/tool-request/valid/).
const REQUEST: &str =
    include_str!("fixtures/tool-request/valid/requests/TR-20250131-140500Z-sales-summary.md");
const REQUEST_PATH: &str = "requests/TR-20250131-140500Z-sales-summary.md";

const TOOL_YAML: &str = ".dojops/tools/my-tool/tool.yaml";
const SKILL: &str = ".dojops/skills/nginx.dops";
const CYCOD_TOOL: &str = ".cycod/tools/search.yaml";
const TOOL_MD: &str = "tools/search-docs.tool.md";
const AGENT_MD: &str = "agents/support.agent.md";
const SKILL_MD: &str = ".claude/skills/pdf-tools/SKILL.md";

/// A valid Agent Skill in the folder `pdf-tools`.
const AGENT_SKILL: &str = "---
name: pdf-tools
description: Extracts text and tables from PDF files. Use when the user mentions PDFs.
allowed-tools: Read Grep
metadata:
  version: \"1.10\"
---
# PDF tools

The field types are in [the form reference](references/FORMS.md).
";

/// One fixable defect: the rule, the file it is in, and the repository around it.
struct Case {
    code: &'static str,
    path: &'static str,
    files: Vec<(&'static str, String)>,
}

/// `base` with `from` replaced by `to` (which must occur).
fn edit(base: &str, from: &str, to: &str) -> String {
    assert!(base.contains(from), "`{from}` is not in the base");
    base.replacen(from, to, 1)
}

fn dojops_tool(content: String) -> Vec<(&'static str, String)> {
    vec![
        (TOOL_YAML, content),
        (
            ".dojops/tools/my-tool/input.schema.json",
            VALID_SCHEMA.to_string(),
        ),
    ]
}

fn case(code: &'static str, path: &'static str, files: Vec<(&'static str, String)>) -> Case {
    Case { code, path, files }
}

fn cases() -> Vec<Case> {
    let tool_md = |from: &str, to: &str| vec![(TOOL_MD, edit(BASE_TOOL, from, to))];
    let agent = |from: &str, to: &str| {
        vec![
            (AGENT_MD, edit(AGENT, from, to)),
            (TOOL_MD, BASE_TOOL.to_string()),
        ]
    };
    let cycod = |content: String| vec![(CYCOD_TOOL, content)];
    vec![
        // DojOps tool.yaml
        case(
            "DOJ001",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "version:", "verison:")),
        ),
        case(
            "SEC031",
            TOOL_YAML,
            dojops_tool(edit(
                VALID_TOOL,
                "    serializer: yaml\n",
                "    serializer: yaml\npermisions:\n  network: none\n",
            )),
        ),
        case(
            "DOJ002",
            TOOL_YAML,
            dojops_tool(edit(
                VALID_TOOL,
                "  strategy: llm\n",
                "  strategy: llm\n  updateMode: yes\n",
            )),
        ),
        case(
            "DOJ003",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "name: my-tool", "name: My_Tool")),
        ),
        case(
            "DOJ005",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "serializer: yaml", "serializer: yml")),
        ),
        case(
            "DOJ007",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "version:", "verison:")),
        ),
        // DojOps .dops
        case(
            "DOJ003",
            SKILL,
            vec![(SKILL, edit(DOPS, "name: nginx", "name: Nginx_Proxy"))],
        ),
        case(
            "DOJ021",
            SKILL,
            vec![(
                SKILL,
                edit(
                    DOPS,
                    "files:",
                    "verification:\n  binary:\n    command: terraform validate -json\n    parser: terraform-jsn\nfiles:",
                ),
            )],
        ),
        case(
            "REF001",
            ".dojops/skills/proxy.dops",
            vec![
                (SKILL, DOPS.to_string()),
                (
                    ".dojops/skills/proxy.dops",
                    edit(
                        &edit(DOPS, "name: nginx", "name: proxy"),
                        "files:",
                        "dependencies:\n  - skill: ngnix\nfiles:",
                    ),
                ),
            ],
        ),
        // A placeholder the input schema does not define, one letter off.
        case(
            "DOJ012",
            TOOL_YAML,
            vec![
                (TOOL_YAML, edit(VALID_TOOL, "out/config.yaml", "out/{modul}/config.yaml")),
                (
                    ".dojops/tools/my-tool/input.schema.json",
                    r#"{"type": "object", "properties": {"module": {"type": "string"}}}"#
                        .to_string(),
                ),
            ],
        ),
        // A schema's `default` one letter off an `enum` value.
        case(
            "SCH003",
            ".dojops/tools/my-tool/input.schema.json",
            vec![
                (TOOL_YAML, VALID_TOOL.to_string()),
                (
                    ".dojops/tools/my-tool/input.schema.json",
                    r#"{"type": "object", "properties": {"region": {"type": "string", "enum": ["eu-west-1", "us-east-1"], "default": "eu-wset-1"}}}"#
                        .to_string(),
                ),
            ],
        ),
        // agentcli
        case(
            "ACL008",
            "tools.json",
            vec![
                (
                    "tools.json",
                    edit(
                        AGENTCLI,
                        "\"timeoutSec\": 5",
                        "\"timeoutSec\": 5,\n      \"envPassthrough\": [\"HTTP-TIMEOUT\"]",
                    ),
                ),
                ("tools/bin/get_time", "#!/bin/sh\n".to_string()),
            ],
        ),
        case(
            "ACL010",
            "tools.json",
            vec![
                (
                    "tools.json",
                    edit(AGENTCLI, "\"timeoutSec\"", "\"timeoutSecs\""),
                ),
                ("tools/bin/get_time", "#!/bin/sh\n".to_string()),
            ],
        ),
        // *.tool.md
        case("TMD001", TOOL_MD, tool_md("use_guidance:", "use_guidence:")),
        case(
            "TMD020",
            TOOL_MD,
            tool_md(
                "        description: \"What to look for.\"\n",
                "        description: \"What to look for.\"\n        minLenght: 1\n",
            ),
        ),
        case("TMD003", TOOL_MD, tool_md("use_guidance:", "use_guidence:")),
        case(
            "TMD004",
            TOOL_MD,
            tool_md("tool_id: \"search-docs\"", "tool_id: \"Search_Docs!\""),
        ),
        case(
            "TMD005",
            TOOL_MD,
            tool_md("version: \"1.0.0\"", "version: \"1.0\""),
        ),
        case(
            "TMD006",
            TOOL_MD,
            tool_md("type: \"retrieval\"", "type: \"retreival\""),
        ),
        case(
            "TMD007",
            TOOL_MD,
            tool_md("status: \"active\"", "status: \"actve\""),
        ),
        case(
            "TMD009",
            TOOL_MD,
            tool_md("type: \"rest-api\"", "type: \"rest_api\""),
        ),
        case("TMD010", TOOL_MD, tool_md("  endpoint:", "  endpont:")),
        case(
            "TMD011",
            TOOL_MD,
            tool_md("endpoint: \"GET /search\"", "endpoint: \"GET search\""),
        ),
        case(
            "TMD015",
            TOOL_MD,
            tool_md("scheme: \"bearer-token\"", "scheme: \"bearer_token\""),
        ),
        case(
            "TMD017",
            TOOL_MD,
            tool_md("source: \"env\"", "source: \"ENV\""),
        ),
        case(
            "TMD018",
            TOOL_MD,
            tool_md("    name: \"DOCS_TOKEN\"", "    nmae: \"DOCS_TOKEN\""),
        ),
        case("TMD034", TOOL_MD, tool_md("  endpoint:", "  endpont:")),
        // *.agent.md
        case(
            "TMD035",
            AGENT_MD,
            agent("agent_id: \"support\"", "agent_id: \"Support Bot\""),
        ),
        case(
            "TMD038",
            AGENT_MD,
            agent("for: [\"search-docs\"]", "for: [\"search-doc\"]"),
        ),
        case(
            "TMD039",
            AGENT_MD,
            agent(
                "    - ref: \"search-docs\"\n",
                "    - ref: \"search-docs\"\n      max_calls_per_run: \"2\"\n",
            ),
        ),
        case(
            "REF020",
            AGENT_MD,
            agent("ref: \"search-docs\"", "ref: \"search-doc\""),
        ),
        // cycod
        case(
            "CYC001",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "platforms:", "platfroms:")),
        ),
        case(
            "CYC003",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "name: search", "name: searcher")),
        ),
        case(
            "CYC022",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "name: search", "name: \"\"")),
        ),
        case(
            "CYC009",
            CYCOD_TOOL,
            cycod(edit(
                CYCOD,
                "type: string\n    description: Pattern",
                "type: str\n    description: Pattern",
            )),
        ),
        case(
            "CYC012",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "\"{PATTERN}\"", "\"{PATTRN}\"")),
        ),
        case(
            "CYC014",
            CYCOD_TOOL,
            cycod(edit(STEPS, "{fetch.output}", "{fetc.output}")),
        ),
        case(
            "CYC016",
            CYCOD_TOOL,
            cycod(edit(STEPS, "{fetch.output}", "{fetch.outptu}")),
        ),
        case(
            "CYC017",
            CYCOD_TOOL,
            cycod(edit(
                CYCOD,
                "[windows, linux, macos]",
                "[windows, linux, macox]",
            )),
        ),
        case(
            "SEC020",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "{DIRECTORY}", "{RAW:DIRECTORY}")),
        ),
        case(
            "REF010",
            ".cycod/tools/caller.yaml",
            vec![
                (CYCOD_TOOL, CYCOD.to_string()),
                (
                    ".cycod/tools/caller.yaml",
                    "steps:\n  - bash: ls\n  - tool: serch\ntags: [read]\n".to_string(),
                ),
            ],
        ),
        case(
            "REF012",
            CYCOD_TOOL,
            vec![
                (
                    CYCOD_TOOL,
                    format!("{CYCOD}uses:\n  mcps: [github, githbu]\n"),
                ),
                (
                    ".cycod/mcp/mcp.json",
                    r#"{"mcpServers": {"github": {"command": "npx"}}}"#.to_string(),
                ),
            ],
        ),
        case(
            "TRQ024",
            REQUEST_PATH,
            vec![(REQUEST_PATH, edit(REQUEST, "cpu_limit:", "cpu_limt:"))],
        ),
        case(
            "TRQ001",
            REQUEST_PATH,
            vec![(REQUEST_PATH, edit(REQUEST, "purpose:", "purpse:"))],
        ),
        // MCP server.json and client configurations
        case(
            "MCP001",
            "server.json",
            vec![(
                "server.json",
                edit(SERVER_JSON, "\"description\"", "\"descripton\""),
            )],
        ),
        case(
            "MCP005",
            "server.json",
            vec![(
                "server.json",
                edit(SERVER_JSON, "\"websiteUrl\"", "\"websiteURL\""),
            )],
        ),
        case(
            "MCP008",
            "server.json",
            vec![("server.json", edit(SERVER_JSON, "\"1.0.0\"", "\"v1.0.0\""))],
        ),
        case(
            "MCP009",
            "server.json",
            vec![("server.json", edit(SERVER_JSON, "2025-12-11", "2025-10-17"))],
        ),
        case(
            "MCP011",
            "server.json",
            vec![(
                "server.json",
                edit(
                    SERVER_JSON,
                    "https://example.com/weather",
                    "http://example.com/weather",
                ),
            )],
        ),
        case(
            "MCP012",
            "server.json",
            vec![(
                "server.json",
                edit(SERVER_JSON, "{region}.example", "{regoin}.example"),
            )],
        ),
        case(
            "MCP003",
            ".mcp.json",
            vec![(
                ".mcp.json",
                edit(MCP_JSON, "\"type\": \"http\"", "\"type\": \"htpp\""),
            )],
        ),
        case(
            "MCP017",
            ".vscode/mcp.json",
            vec![(
                ".vscode/mcp.json",
                edit(MCP_JSON, "Bearer ${DOCS_TOKEN}", "Bearer ${env:DOCS_TOKEN}"),
            )],
        ),
        case(
            "MCP021",
            ".mcp.json",
            vec![(".mcp.json", edit(MCP_JSON, "https://docs", "http://docs"))],
        ),
        // Agent Skills
        case(
            "SKL001",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "name:", "nmae:")),
        ),
        case(
            "SKL003",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "name: pdf-tools", "name: PDF_Tools")),
        ),
        case(
            "SKL004",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "name: pdf-tools", "name: pdf-kit")),
        ),
        case(
            "SKL006",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "allowed-tools:", "allowed-tool:")),
        ),
        case(
            "SKL008",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "Read Grep", "Read, Grep")),
        ),
        case(
            "SKL009",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "\"1.10\"", "1.10")),
        ),
        case("SKL010", SKILL_MD, skill(format!("\u{feff}{AGENT_SKILL}"))),
        case(
            "SKL020",
            SKILL_MD,
            skill(edit(
                AGENT_SKILL,
                "name: pdf-tools",
                "name: \" pdf-tools \"",
            )),
        ),
        case(
            "SKL011",
            SKILL_MD,
            skill(edit(
                AGENT_SKILL,
                "references/FORMS.md",
                "references/FORM.md",
            )),
        ),
        case(
            "SKL021",
            SKILL_MD,
            skill(edit(
                AGENT_SKILL,
                "references/FORMS.md",
                "references/forms.md",
            )),
        ),
    ]
}

/// A skill whose `SKILL.md` is `text`, with the reference file it links.
fn skill(text: String) -> Vec<(&'static str, String)> {
    vec![
        (SKILL_MD, text),
        (
            ".claude/skills/pdf-tools/references/FORMS.md",
            "# Form fields\n".to_string(),
        ),
    ]
}

/// `toolc check --format json` in `dir`, parsed.
fn check_json(dir: &Path) -> Value {
    let out = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("toolc runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn diagnostics(output: &Value) -> Vec<Value> {
    output["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// `text` with the edits of `fix` applied (from the last offset down).
fn apply(text: &str, fix: &Value) -> String {
    let mut edits: Vec<(usize, usize, String)> = fix["edits"]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| {
            let offset = |end: &str| e["span"][end]["offset"].as_u64().expect("offset") as usize;
            (
                offset("start"),
                offset("end"),
                e["replacement"].as_str().expect("replacement").to_string(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    let mut limit = out.len();
    for (start, end, replacement) in edits {
        assert!(
            start <= end && end <= limit,
            "edits overlap or leave the file: {fix}"
        );
        out.replace_range(start..end, &replacement);
        limit = start;
    }
    out
}

/// Codes of the diagnostics in `output` that carry a fix.
fn fixed_codes(output: &Value) -> BTreeSet<String> {
    diagnostics(output)
        .iter()
        .filter(|d| d.get("fix").is_some())
        .filter_map(|d| d["code"].as_str().map(str::to_string))
        .collect()
}

/// Run one case: returns the codes of every fix offered in its first run.
fn run(case: &Case) -> BTreeSet<String> {
    let repo = Repo::new();
    for (path, content) in &case.files {
        repo.write(path, content.as_bytes());
    }
    let before = check_json(&repo.root);
    let found: Vec<Value> = diagnostics(&before)
        .into_iter()
        .filter(|d| d["code"] == case.code && d["path"] == case.path)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{} in {}: expected one diagnostic, found {found:?}",
        case.code,
        case.path
    );
    let fix = found[0]
        .get("fix")
        .unwrap_or_else(|| panic!("{} offers no fix: {}", case.code, found[0]));
    assert!(
        matches!(fix["applicability"].as_str(), Some("safe" | "unsafe")),
        "{fix}"
    );
    let text = std::fs::read_to_string(repo.root.join(case.path)).expect("read");
    let fixed = apply(&text, fix);
    assert_ne!(fixed, text, "{}: the fix changes nothing", case.code);
    repo.write(case.path, fixed.as_bytes());
    let after = check_json(&repo.root);
    let left: Vec<Value> = diagnostics(&after)
        .into_iter()
        .filter(|d| d["code"] == case.code && d["path"] == case.path)
        .collect();
    assert!(
        left.is_empty(),
        "{}: applying the fix did not remove the diagnostic:\n{fixed}\n{left:?}",
        case.code
    );
    fixed_codes(&before)
}

#[test]
fn applying_each_fix_removes_its_diagnostic() {
    for case in cases() {
        run(&case);
    }
}

#[test]
fn every_rule_that_offers_a_fix_has_a_case() {
    let tested: BTreeSet<String> = cases().iter().map(|c| c.code.to_string()).collect();
    let mut offered = BTreeSet::new();
    for case in cases() {
        let repo = Repo::new();
        for (path, content) in &case.files {
            repo.write(path, content.as_bytes());
        }
        offered.extend(fixed_codes(&check_json(&repo.root)));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    offered.extend(fixed_codes(&check_json(&root.join("examples/demo"))));
    // The real-world corpus lives beside the checkout, when it is there.
    if let Some(corpus) = common::corpus("") {
        for entry in std::fs::read_dir(corpus).expect("corpus") {
            let dir = entry.expect("entry").path();
            if dir.is_dir() {
                offered.extend(fixed_codes(&check_json(&dir)));
            }
        }
    }
    let missing: Vec<&String> = offered.difference(&tested).collect();
    assert!(
        missing.is_empty(),
        "rules that offer a fix but have no case in tests/fixes.rs: {missing:?}"
    );
}

/// `toolc check --fix --format json` in `dir`: what remains, parsed.
fn fix_json(dir: &Path) -> Value {
    let out = Command::cargo_bin("toolc")
        .expect("the toolc binary is built")
        .current_dir(dir)
        .args(["check", "--fix", "--format", "json"])
        .output()
        .expect("toolc runs");
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn check_fix_applies_every_safe_fix_and_no_unsafe_one() {
    for case in cases() {
        let repo = Repo::new();
        for (path, content) in &case.files {
            repo.write(path, content.as_bytes());
        }
        let of_case = |output: &Value| -> Vec<Value> {
            diagnostics(output)
                .into_iter()
                .filter(|d| d["code"] == case.code && d["path"] == case.path)
                .collect()
        };
        let before = of_case(&check_json(&repo.root));
        let safe = before[0]["fix"]["applicability"] == "safe";
        let text = std::fs::read_to_string(repo.root.join(case.path)).expect("read");
        let remaining = fix_json(&repo.root);
        let after = std::fs::read_to_string(repo.root.join(case.path)).expect("read");
        if safe {
            assert_ne!(after, text, "{}: --fix changed nothing", case.code);
            assert!(of_case(&remaining).is_empty(), "{}: {remaining}", case.code);
        } else {
            assert_eq!(after, text, "{}: --fix applied an unsafe fix", case.code);
            assert_eq!(of_case(&remaining).len(), 1, "{}", case.code);
        }
        // What --fix reports as remaining is what a fresh check finds.
        assert_eq!(
            diagnostics(&remaining),
            diagnostics(&check_json(&repo.root)),
            "{}",
            case.code
        );
    }
}
