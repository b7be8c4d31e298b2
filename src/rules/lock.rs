//! `LCK` rules: tools, Agent Skills and MCP servers that no longer match `toolc.lock`. Emitted by `toolc check --locked` (or
//! with `[lock] required = true`) from `src/lock/`.

use super::declare_rules;

declare_rules! {
    LOCKED_TOOL_CHANGED = "LCK001" "locked-tool-changed" Error gate [] "a tool's definition no longer matches `toolc.lock`";
    TOOL_NOT_LOCKED = "LCK002" "tool-not-locked" Error gate [] "a tool that `toolc.lock` does not list";
    LOCKED_TOOL_MISSING = "LCK003" "locked-tool-missing" Error gate [] "a tool listed in `toolc.lock` is gone";
    INVALID_LOCK_FILE = "LCK004" "invalid-lock-file" Error gate [] "`toolc.lock` is missing, unreadable or not a lock file toolc wrote";
    LOCKED_ENTRY_CHANGED = "LCK005" "locked-skill-or-server-changed" Error gate ["agent-skill", "mcp-config", "mcp-server"] "an Agent Skill or MCP server no longer matches `toolc.lock`";
    ENTRY_NOT_LOCKED = "LCK006" "skill-or-server-not-locked" Error gate ["agent-skill", "mcp-config", "mcp-server"] "an Agent Skill or MCP server that `toolc.lock` does not list";
    LOCKED_ENTRY_MISSING = "LCK007" "locked-skill-or-server-missing" Error gate ["agent-skill", "mcp-config", "mcp-server"] "an Agent Skill or MCP server listed in `toolc.lock` is gone";
}
