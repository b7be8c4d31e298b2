//! `LCK` rules: tools that no longer match `toolc.lock`. Emitted by `toolc check --locked` (or
//! with `[lock] required = true`) from `src/lock/`.

use super::declare_rules;

declare_rules! {
    LOCKED_TOOL_CHANGED = "LCK001" "locked-tool-changed" Error gate [] "a tool's definition no longer matches `toolc.lock`";
    TOOL_NOT_LOCKED = "LCK002" "tool-not-locked" Error gate [] "a tool that `toolc.lock` does not list";
    LOCKED_TOOL_MISSING = "LCK003" "locked-tool-missing" Error gate [] "a tool listed in `toolc.lock` is gone";
    INVALID_LOCK_FILE = "LCK004" "invalid-lock-file" Error gate [] "`toolc.lock` is missing, unreadable or not a lock file toolc wrote";
}
