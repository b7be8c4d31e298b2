//! Skills are not tools: none goes into the provider bundles, but `toolc.bundle.json` lists
//! every skill without errors, so a runtime can load one index of what a repository offers.

use super::Skill;
use crate::formats::format::FileResult;
use crate::ir::{Lowering, SkillEntry};
use crate::text::hex;

/// The skills of the files `takes` accepts, each with a name and a description.
pub(super) fn lower<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
) -> Lowering<'a> {
    let skills = results
        .iter()
        .filter_map(|r| {
            let skill = r.item.get::<Skill>()?;
            if !takes(r) {
                return None;
            }
            Some(SkillEntry {
                name: skill.name.as_ref()?.value.clone(),
                description: skill.description.clone()?,
                path: r.file.display().to_string(),
                // The digest of the bytes read: a file from the cache is not read for it.
                sha256: hex(&r.file.digest()),
            })
        })
        .collect();
    Lowering {
        skills,
        ..Lowering::default()
    }
}
