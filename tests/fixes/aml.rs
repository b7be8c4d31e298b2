//! The fixable defects of AML `*.tool.md` tools and `*.agent.md` agents.

use super::*;

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

const TOOL_MD: &str = "tools/search-docs.tool.md";
const AGENT_MD: &str = "agents/support.agent.md";

pub(super) fn cases() -> Vec<Case> {
    let tool_md = |from: &str, to: &str| vec![(TOOL_MD, edit(BASE_TOOL, from, to))];
    let agent = |from: &str, to: &str| {
        vec![
            (AGENT_MD, edit(AGENT, from, to)),
            (TOOL_MD, BASE_TOOL.to_string()),
        ]
    };
    vec![
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
    ]
}
