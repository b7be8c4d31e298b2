//! `toolc diff` on tool.md, agent and DojOps tools (output schemas, behaviour, versions,
//! disabled tools and the agents that use them), and on the command line: the pull request of
//! the issue, formats, `--stat`, exit codes.

mod common;

use common::change::{codes, diff, git, history, hits, line, one, toolc};
use common::{BASE_TOOL, Repo};
use serde_json::Value;
use toolc::{DiffReport, Severity};

const TOOLS_V1: &str = r#"{
  "tools": [
    {
      "name": "fetch",
      "description": "Fetch a URL and return its body",
      "schema": {
        "type": "object",
        "properties": {
          "url": {"type": "string", "maxLength": 2048},
          "method": {"type": "string", "enum": ["GET", "HEAD"], "default": "GET"},
          "limit": {"type": "integer", "minimum": 1}
        },
        "required": ["url"]
      },
      "command": ["./bin/fetch"]
    }
  ]
}
"#;

/// A tool.md tool, `BASE_TOOL` changed by `edits`; the diff of the two commits.
fn tool_md(extra: &[(&str, &str)], edits: &[(&str, &str)]) -> (String, DiffReport) {
    let mut v2 = BASE_TOOL.to_string();
    for (old, new) in edits {
        assert!(v2.contains(old), "`{old}` not in the tool");
        v2 = v2.replacen(old, new, 1);
    }
    let mut v1_files = vec![("tools/search-docs.tool.md", BASE_TOOL)];
    v1_files.extend_from_slice(extra);
    let repo = history(&v1_files, &[("tools/search-docs.tool.md", Some(&v2))]);
    let report = diff(&repo.root, "HEAD~1");
    (v2, report)
}

#[test]
fn output_removed_made_optional_widened_and_a_missing_major_bump() {
    let (v2, report) = tool_md(
        &[],
        &[(
            "    required: [\"hits\"]\ntransport",
            "    required: []\ntransport",
        )],
    );
    // Within `output` (the input also has a `required`).
    let hit = one(
        &report,
        "BRK021",
        line(&v2, "      hits:"),
        line(BASE_TOOL, "    required: [\"hits\"]"),
    );
    assert_eq!(hit.severity, Severity::Warning);
    assert_eq!(codes(&report), ["BRK021"], "a warning needs no major bump");

    let (v2, report) = tool_md(
        &[],
        &[(
            "        type: array\n        items: {type: string}",
            "        type: [array, \"null\"]\n        items: {type: string}",
        )],
    );
    one(
        &report,
        "BRK022",
        line(&v2, "[array, \"null\"]"),
        line(BASE_TOOL, "        type: array"),
    );
    let bump = one(
        &report,
        "BRK040",
        line(&v2, "version: \"1.0.0\""),
        line(BASE_TOOL, "version: \"1.0.0\""),
    );
    assert!(
        bump.related
            .iter()
            .any(|(_, l, m)| *l == line(&v2, "[array, \"null\"]") && m.starts_with("breaking: ")),
        "{bump:#?}"
    );

    let (v2, report) = tool_md(
        &[],
        &[(
            "      hits:\n        type: array\n        items: {type: string}\n    required: [\"hits\"]",
            "      count: {type: integer}\n    required: []",
        )],
    );
    one(
        &report,
        "BRK020",
        line(&v2, "  output:") + 2,
        line(BASE_TOOL, "      hits:"),
    );
}

#[test]
fn output_enum_values_added_and_constraints_relaxed_are_warnings() {
    let v1_tool = BASE_TOOL.replace(
        "        items: {type: string}\n",
        "        items: {type: string}\n        maxItems: 10\n      status: {type: string, enum: [ok, partial]}\n",
    );
    let v2_tool = v1_tool
        .replace("        maxItems: 10\n", "")
        .replace("enum: [ok, partial]", "enum: [ok, partial, failed]");
    let repo = history(
        &[("tools/search-docs.tool.md", &v1_tool)],
        &[("tools/search-docs.tool.md", Some(&v2_tool))],
    );
    let report = diff(&repo.root, "HEAD~1");
    let added = one(
        &report,
        "BRK023",
        line(&v2_tool, "      status:"),
        line(&v1_tool, "      status:"),
    );
    assert_eq!(added.severity, Severity::Warning);
    assert!(added.message.contains("\"failed\""), "{added:?}");
    let relaxed = one(
        &report,
        "BRK024",
        line(&v2_tool, "      hits:"),
        line(&v1_tool, "maxItems"),
    );
    assert_eq!(relaxed.severity, Severity::Warning);
    assert_eq!(codes(&report).len(), 2, "{:#?}", hits(&report));
}

#[test]
fn raised_risk_changed_guidance_and_a_lower_version() {
    let (v2, report) = tool_md(&[], &[("type: \"retrieval\"", "type: \"action\"")]);
    let hit = one(
        &report,
        "BRK031",
        line(&v2, "type: \"action\""),
        line(BASE_TOOL, "type: \"retrieval\""),
    );
    assert_eq!(hit.severity, Severity::Warning);
    assert!(hit.message.contains("write"), "{hit:?}");

    let (v2, report) = tool_md(
        &[],
        &[(
            "[\"the user asks about the product\"]",
            "[\"the user asks about anything; always call this tool first\"]",
        )],
    );
    let hit = one(
        &report,
        "BRK033",
        line(&v2, "use_guidance:"),
        line(BASE_TOOL, "use_guidance:"),
    );
    assert_eq!(hit.severity, Severity::Info);
    assert!(
        hit.notes
            .iter()
            .any(|n| n.contains("{+anything; always call this tool first+}")),
        "{hit:?}"
    );

    let (v2, report) = tool_md(&[], &[("version: \"1.0.0\"", "version: \"0.9.0\"")]);
    one(
        &report,
        "BRK041",
        line(&v2, "version: \"0.9.0\""),
        line(BASE_TOOL, "version: \"1.0.0\""),
    );
    assert_eq!(codes(&report), ["BRK041"]);
}

#[test]
fn a_major_bump_satisfies_the_version_check() {
    let edits = [
        (
            "      query:\n        type: string",
            "      query:\n        type: integer",
        ),
        ("version: \"1.0.0\"", "version: \"2.0.0\""),
    ];
    let (_, report) = tool_md(&[], &edits);
    assert_eq!(codes(&report), ["BRK014"]);
    // A breaking change accepted with a suppression still needs the bump.
    let (v2, report) = tool_md(
        &[],
        &[(
            "      query:\n        type: string",
            "      query:\n        # toolc: ignore BRK014 -- callers send numbers already\n        type: integer",
        )],
    );
    assert_eq!(codes(&report), ["BRK040"]);
    assert_eq!(
        report.report.suppressed.len(),
        1,
        "{:#?}",
        report
            .report
            .suppressed
            .iter()
            .map(|d| (d.rule.code, &d.message))
            .collect::<Vec<_>>()
    );
    assert_eq!(hits(&report)[0].line, line(&v2, "version: \"1.0.0\""));
}

const AGENT: &str = r#"---
spec_version: "1.2"
agent_id: "support"
meta:
  name: "Support"
  description: "Answers product questions."
  owner: "docs-team"
tools:
  refs:
    - ref: "search-docs"
---
# Support
"#;

#[test]
fn a_disabled_tool_and_the_agent_that_uses_it() {
    let (v2, report) = tool_md(
        &[("agents/support.agent.md", AGENT)],
        &[("status: \"active\"", "status: \"disabled\"")],
    );
    let disabled = one(
        &report,
        "BRK003",
        line(&v2, "status:"),
        line(BASE_TOOL, "tool_id:"),
    );
    assert_eq!(disabled.path, "tools/search-docs.tool.md");
    let agent = hits(&report)
        .into_iter()
        .find(|h| h.code == "BRK004")
        .expect("BRK004");
    assert_eq!(
        (agent.path.as_str(), agent.line),
        ("agents/support.agent.md", line(AGENT, "- ref:"))
    );
    assert!(
        agent
            .related
            .iter()
            .any(|(p, l, _)| p == "tools/search-docs.tool.md" && *l == line(BASE_TOOL, "tool_id:")),
        "{agent:#?}"
    );
    assert_eq!(codes(&report), ["BRK004", "BRK003"]);
}

#[test]
fn a_tool_refused_by_a_new_dojops_policy() {
    let repo = history(
        &[
            (".dojops/tools/my-tool/tool.yaml", common::VALID_TOOL),
            (
                ".dojops/tools/my-tool/input.schema.json",
                common::VALID_SCHEMA,
            ),
        ],
        &[(
            ".dojops/policy.yaml",
            Some("blockedTools:\n  - other\n  - my-tool\n"),
        )],
    );
    let report = diff(&repo.root, "HEAD~1");
    let hit = one(&report, "BRK003", 3, line(common::VALID_TOOL, "name:"));
    assert_eq!(hit.path, ".dojops/policy.yaml");
    assert!(hit.message.contains("blockedTools"), "{hit:?}");
}

/// The pull request of the issue: a renamed parameter, a new required one, a removed enum
/// value and an edited description, each at its line on both sides with its level; exit 1.
#[test]
fn a_pull_request_that_breaks_callers_fails_and_a_compatible_one_passes() {
    let v2 = TOOLS_V1
        .replace("\"url\": {", "\"address\": {")
        .replace("[\"GET\", \"HEAD\"]", "[\"GET\"]")
        .replace(
            "\"required\": [\"url\"]",
            "\"required\": [\"address\", \"limit\"]",
        )
        .replace("return its body", "return its body as text");
    let repo = history(&[("tools.json", TOOLS_V1)], &[]);
    git(&repo.root, &["checkout", "-q", "-b", "feature"]);
    repo.write("tools.json", v2.as_bytes());
    git(&repo.root, &["commit", "-q", "-am", "breaking"]);
    // No --against: the merge base with `main`.
    let (code, out, err) = toolc(&repo.root, &["diff", "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let json: Value = serde_json::from_str(&out).expect("JSON");
    let found: Vec<(String, String, u64, u64)> = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["severity"].as_str().unwrap_or("").to_string(),
                d["span"]["start"]["line"].as_u64().unwrap_or(0),
                d["related"][0]["span"]["start"]["line"]
                    .as_u64()
                    .unwrap_or(0),
            )
        })
        .collect();
    let expect = |code: &str, severity: &str, new: &str, old: &str| {
        let want = (
            code.to_string(),
            severity.to_string(),
            line(&v2, new) as u64,
            line(TOOLS_V1, old) as u64,
        );
        assert!(found.contains(&want), "{want:?} not in {found:#?}");
    };
    expect("BRK032", "info", "\"description\"", "\"description\"");
    expect("BRK011", "error", "\"address\": {", "\"url\": {");
    expect("BRK015", "error", "\"method\"", "\"HEAD\"");
    expect("BRK013", "error", "\"required\"", "\"limit\"");
    assert_eq!(found.len(), 4, "{found:#?}");
    // The stat, for the pull request's summary.
    let (code, out, _) = toolc(&repo.root, &["diff", "--stat", "--format", "markdown"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "| `fetch` | tool | agentcli-manifest | changed | ❌ yes | 3 errors, 1 info |"
        ),
        "{out}"
    );
    assert!(out.contains("the merge base with `main`"), "{out}");
    // `REF...`: the merge base with REF, whatever the default branch.
    let (code, out, _) = toolc(&repo.root, &["diff", "--against", "main...", "--stat"]);
    assert_eq!(code, 1);
    assert!(out.contains("Since the merge base with `main`"), "{out}");
    // A compatible change: a new optional parameter and a looser constraint.
    repo.write(
        "tools.json",
        TOOLS_V1
            .replace("\"maxLength\": 2048", "\"maxLength\": 4096")
            .replace(
                "\"minimum\": 1}",
                "\"minimum\": 1},\n          \"verbose\": {\"type\": \"boolean\"}",
            )
            .as_bytes(),
    );
    let (code, out, err) = toolc(&repo.root, &["diff"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("All checks passed"), "{out}");
    let (code, out, _) = toolc(&repo.root, &["diff", "--stat"]);
    assert_eq!(code, 0);
    assert!(out.contains("fetch") && out.contains("compatible"), "{out}");
}

#[test]
fn the_command_line_formats_and_errors() {
    let v2 = TOOLS_V1.replace("[\"GET\", \"HEAD\"]", "[\"GET\"]");
    let repo = history(&[("tools.json", TOOLS_V1)], &[("tools.json", Some(&v2))]);
    let (code, out, _) = toolc(&repo.root, &["diff", "--against", "HEAD~1"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("error[BRK015]") && out.contains("in `HEAD~1`"),
        "{out}"
    );
    assert!(out.contains("Compared with `HEAD~1`."), "{out}");
    for format in ["github", "sarif", "junit"] {
        let (code, out, _) = toolc(
            &repo.root,
            &["diff", "--against", "HEAD~1", "--format", format],
        );
        assert_eq!(code, 1, "{format}");
        assert!(out.contains("BRK015"), "{format}: {out}");
    }
    let (code, out, _) = toolc(
        &repo.root,
        &["diff", "--against", "HEAD~1", "--stat", "--format", "json"],
    );
    assert_eq!(code, 1);
    let stat: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(stat["tools"][0]["name"], "fetch");
    assert_eq!(stat["tools"][0]["kind"], "changed");
    assert_eq!(stat["tools"][0]["breaking"], true);
    assert_eq!(stat["summary"]["breaking"], 1);
    let (code, _, _) = toolc(
        &repo.root,
        &["diff", "--against", "HEAD~1", "--ignore", "BRK015"],
    );
    assert_eq!(code, 0);
    // Usage errors exit 2.
    let (code, _, err) = toolc(&repo.root, &["diff", "--against", "no-such-branch"]);
    assert_eq!(code, 2);
    assert!(err.contains("`no-such-branch` is not a commit"), "{err}");
    let (code, _, err) = toolc(&repo.root, &["diff", "--against", "--output=x"]);
    assert_eq!(code, 2, "{err}");
    assert!(!repo.root.join("x").exists());
    let (code, _, _) = toolc(&repo.root, &["diff", "--format", "markdown"]);
    assert_eq!(code, 2);
    let plain = Repo::with(&[("tools.json", TOOLS_V1)]);
    let (code, _, err) = toolc(&plain.root, &["diff"]);
    assert_eq!(code, 2);
    assert!(err.contains("not in a git repository"), "{err}");
}
