//! Skills are not tools: none goes into the provider bundles, but `toolc.bundle.json` lists
//! every skill without errors, so a runtime can load one index of what a repository offers.

use super::Skill;
use crate::formats::format::FileResult;
use crate::ir::{Sink, SkillEntry};
use crate::text::hex;

/// The skills of the files `takes` accepts, each with a name and a description.
pub(super) fn lower<'a>(
    results: &'a [FileResult],
    takes: &dyn Fn(&FileResult) -> bool,
    out: &mut dyn Sink<'a>,
) {
    for r in results {
        let Some(skill) = r.item.get::<Skill>() else {
            continue;
        };
        if !takes(r) {
            continue;
        }
        let (Some(name), Some(description)) = (&skill.name, &skill.description) else {
            continue;
        };
        out.skill(SkillEntry {
            name: name.value.clone(),
            description: description.clone(),
            path: r.file.display().to_string(),
            // The digest of the bytes read: a file from the cache is not read for it.
            sha256: hex(&r.file.digest()),
        });
    }
}
