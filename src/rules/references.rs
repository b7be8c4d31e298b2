//! `REF` rules: references between files.

use super::declare_rules;

declare_rules! {
    UNKNOWN_DEPENDENCY = "REF001" "unknown-dependency" Error breaks ["dojops-dops"] "a skill depends on a skill the project does not define";
    DEPENDENCY_CYCLE = "REF002" "dependency-cycle" Error breaks ["dojops-dops"] "skills depend on each other in a cycle";
    UNKNOWN_TOOL_REFERENCE = "REF010" "unknown-tool-reference" Error breaks ["cycod-tool"] "a cycod `tool:` or `uses` names no tool of its scope folder or `with.tools`";
    TOOL_REFERENCE_CYCLE = "REF011" "tool-reference-cycle" Error breaks ["cycod-tool"] "cycod tools reference each other in a cycle";
    UNKNOWN_MCP_REFERENCE = "REF012" "unknown-mcp-reference" Error breaks ["cycod-tool"] "`uses.mcp`/`uses.mcps` names an MCP server the scope's `mcp.json` does not define";
    UNREGISTERED_TOOL_REF = "REF020" "unregistered-tool-ref" Error breaks ["agent-md"] "an agent references a tool id that no `*.tool.md` defines";
    DISABLED_TOOL_REF = "REF021" "disabled-tool-ref" Error breaks ["agent-md"] "an agent references a tool whose `status` is `disabled`";
    DEPRECATED_TOOL_REF = "REF022" "deprecated-tool-ref" Warning ["agent-md"] "an agent references a tool whose `status` is `deprecated`";
    DRAFT_TOOL_REF = "REF023" "draft-tool-ref" Warning ["agent-md"] "an agent references a tool whose `status` is `draft`";
    UNREGISTERED_DEFINITION_REF = "REF024" "unregistered-definition-ref" Error breaks ["agent-md"] "an agent names a knowledge base, model or guardrail that no definition file of the repository defines (checked when the repository has definitions of that kind)";
    DISABLED_DEFINITION_REF = "REF025" "disabled-definition-ref" Error breaks ["agent-md"] "an agent names a knowledge base, model or guardrail whose `status` is `disabled`";
    DEPRECATED_DEFINITION_REF = "REF026" "deprecated-definition-ref" Warning ["agent-md"] "an agent names a knowledge base, model or guardrail whose `status` is `deprecated`";
}
