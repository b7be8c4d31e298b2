//! `TRQ` rules: `TR-*.md` tool execution requests.

use super::declare_rules;

declare_rules! {}
