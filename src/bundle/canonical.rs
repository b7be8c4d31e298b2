//! `toolc.bundle.json`: the canonical IR of every tool, with provenance, and an index of the
//! repository's Agent Skills.

use std::io::Write;

use serde::Serialize;

use super::{NoTools, write_json};
use crate::ir::{LeftOut, SkillEntry, Tool};

/// The bundle format's version; bumped on an incompatible change.
pub(crate) const BUNDLE_VERSION: u32 = 1;

#[derive(Serialize)]
struct Bundle<'a> {
    version: u32,
    tools: NoTools,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    left_out: Vec<Skipped<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    skills: &'a [SkillEntry],
}

#[derive(Serialize)]
struct Skipped<'a> {
    name: &'a str,
    path: &'a str,
    reason: &'a str,
}

/// The file with an empty list where its tools go.
pub(super) fn document(
    left_out: &[LeftOut],
    skills: &[SkillEntry],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    write_json(
        out,
        &Bundle {
            version: BUNDLE_VERSION,
            tools: NoTools,
            left_out: left_out
                .iter()
                .map(|l| Skipped {
                    name: &l.name,
                    path: &l.path,
                    reason: &l.reason,
                })
                .collect(),
            skills,
        },
    )
}

/// The entry of `t` in the list: the tool as the IR holds it.
pub(super) fn entry(t: &Tool) -> &Tool {
    t
}
