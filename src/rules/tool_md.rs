//! `TMD` rules: `*.tool.md` tool specs and `*.agent.md` agents.

use super::declare_rules;

declare_rules! {}
