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

#[path = "fixes/agentcli.rs"]
mod agentcli;
#[path = "fixes/aml.rs"]
mod aml;
#[path = "fixes/apply.rs"]
mod apply;
#[path = "fixes/cycod.rs"]
mod cycod;
#[path = "fixes/dojops.rs"]
mod dojops;
#[path = "fixes/mcp.rs"]
mod mcp;
#[path = "fixes/requests.rs"]
mod requests;
#[path = "fixes/skills.rs"]
mod skills;

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

fn case(code: &'static str, path: &'static str, files: Vec<(&'static str, String)>) -> Case {
    Case { code, path, files }
}

/// Every case, one table of each format after another.
fn cases() -> Vec<Case> {
    [
        dojops::cases(),
        agentcli::cases(),
        aml::cases(),
        cycod::cases(),
        requests::cases(),
        mcp::cases(),
        skills::cases(),
    ]
    .into_iter()
    .flatten()
    .collect()
}
