//! `ACL` rules: agentcli `tools.json` manifests.

use super::declare_rules;

declare_rules! {}
