//! `BRK` rules: changes between two versions of a repository that break, or may break, the
//! agents, plans and programs that call its tools. Emitted by `toolc diff` only (`src/change/`).

use super::declare_rules;

declare_rules! {
    TOOL_REMOVED = "BRK001" "tool-removed" Error gate [] "a tool that existed in the old version is gone";
    TOOL_RENAMED = "BRK002" "tool-renamed" Error gate [] "a tool's name changed while its definition stayed the same";
    TOOL_DISABLED = "BRK003" "tool-disabled" Error gate [] "a tool is now disabled (`status: disabled`) or refused by the DojOps policy";
    AGENT_REFERENCE_BROKEN = "BRK004" "agent-reference-broken" Error gate ["agent-md"] "an agent references a tool that the change removed, renamed or disabled";
    PARAMETER_REMOVED = "BRK010" "parameter-removed" Error gate [] "an input parameter was removed";
    PARAMETER_RENAMED = "BRK011" "parameter-renamed" Error gate [] "an input parameter was renamed";
    REQUIRED_PARAMETER_ADDED = "BRK012" "required-parameter-added" Error gate [] "a new input parameter is required";
    PARAMETER_MADE_REQUIRED = "BRK013" "parameter-made-required" Error gate [] "an optional input parameter became required";
    PARAMETER_TYPE_CHANGED = "BRK014" "parameter-type-changed" Error gate [] "an input parameter's type changed or narrowed";
    ENUM_VALUE_REMOVED = "BRK015" "enum-value-removed" Error gate [] "a value was removed from an input parameter's `enum`";
    CONSTRAINT_TIGHTENED = "BRK016" "constraint-tightened" Error gate [] "an input constraint was added or tightened (length, range, pattern, format, items, `additionalProperties: false`)";
    DEFAULT_CHANGED = "BRK017" "default-changed" Warning [] "an input parameter's default value changed";
    OUTPUT_PROPERTY_REMOVED = "BRK020" "output-property-removed" Error gate ["dojops-tool", "tool-md"] "a property of the output was removed";
    OUTPUT_PROPERTY_MADE_OPTIONAL = "BRK021" "output-property-made-optional" Warning ["dojops-tool", "tool-md"] "a required output property became optional";
    OUTPUT_TYPE_WIDENED = "BRK022" "output-type-widened" Error gate ["dojops-tool", "tool-md"] "an output value may now have a type it could not have before";
    OUTPUT_ENUM_VALUE_ADDED = "BRK023" "output-enum-value-added" Warning ["dojops-tool", "tool-md"] "an output value may now be an `enum` value consumers have not seen";
    OUTPUT_CONSTRAINT_RELAXED = "BRK024" "output-constraint-relaxed" Warning ["dojops-tool", "tool-md"] "an output constraint was removed or loosened";
    RUN_CHANGED = "BRK030" "run-changed" Warning [] "how a tool or MCP server runs changed: command, program, arguments, script, endpoint, URL or transport";
    RISK_RAISED = "BRK031" "risk-raised" Warning [] "a tool may now do more: write or run, act, change data, reach the network";
    DESCRIPTION_CHANGED = "BRK032" "description-changed" Info [] "a description the model reads changed (tool, parameter, skill or MCP server)";
    GUIDANCE_CHANGED = "BRK033" "guidance-changed" Info ["tool-md"] "a tool's use guidance changed";
    RUN_SETTINGS_CHANGED = "BRK034" "run-settings-changed" Warning [] "a setting that changes how a tool or MCP server runs changed: timeout, working folder, environment, permissions";
    SKILL_REMOVED = "BRK050" "skill-removed" Error gate ["agent-skill"] "an Agent Skill that existed in the old version is gone";
    SKILL_RENAMED = "BRK051" "skill-renamed" Error gate ["agent-skill"] "an Agent Skill's name changed while the rest of it stayed the same";
    SKILL_CHANGED = "BRK052" "skill-changed" Warning ["agent-skill"] "an Agent Skill's instructions, files, allowed tools or other front matter changed";
    SERVER_REMOVED = "BRK060" "server-removed" Error gate ["mcp-config", "mcp-server"] "an MCP server that existed in the old version is gone";
    SERVER_RENAMED = "BRK061" "server-renamed" Error gate ["mcp-config", "mcp-server"] "an MCP server's name changed while the rest of it stayed the same";
    SERVER_PACKAGE_CHANGED = "BRK062" "server-package-changed" Error gate ["mcp-config", "mcp-server"] "the package an MCP server runs changed or is gone: registry, name or version";
    SERVER_ENV_CHANGED = "BRK063" "server-env-changed" Warning ["mcp-config", "mcp-server"] "the environment variables or headers an MCP server is given changed (names)";
    MAJOR_BUMP_MISSING = "BRK040" "major-bump-missing" Error gate ["tool-md", "dojops-tool", "dojops-dops"] "a breaking change without a major bump of the tool's version";
    VERSION_DECREASED = "BRK041" "version-decreased" Error gate ["tool-md", "dojops-tool", "dojops-dops"] "a tool's version went down";
}
