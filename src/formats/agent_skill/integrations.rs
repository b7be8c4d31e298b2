//! Files of a skill that an agent reads by convention rather than through `SKILL.md`:
//! Codex's `agents/openai.yaml` (how the skill appears in Codex: name, icons, colour, default
//! prompt, tool dependencies) and the files it names (its icons).

use super::Cx;
use super::mentions::{might_be_path, words};
use super::paths::dir_of;

/// Codex's metadata file, under the folder of the skill it describes.
const CODEX_METADATA: &str = "agents/openai.yaml";

impl Cx<'_> {
    /// The files read by convention: every `agents/openai.yaml` and the files it names,
    /// relative to the folder above its `agents/`.
    pub(super) fn integrations(&mut self) -> Vec<String> {
        let nested = format!("/{CODEX_METADATA}");
        let metadata: Vec<String> = self
            .folder
            .files
            .keys()
            .filter(|f| *f == CODEX_METADATA || f.ends_with(&nested))
            .cloned()
            .collect();
        let mut out = Vec::new();
        for rel in metadata {
            let base = rel
                .strip_suffix(CODEX_METADATA)
                .unwrap_or("")
                .trim_end_matches('/')
                .to_string();
            if let Some(file) = self.peek(&rel) {
                for (_, word) in words(file.text.as_str()).filter(|(_, w)| might_be_path(w)) {
                    for dir in [base.as_str(), dir_of(&rel)] {
                        let path = crate::analysis::paths::clean(&if dir.is_empty() {
                            word.to_string()
                        } else {
                            format!("{dir}/{word}")
                        });
                        if self.folder.files.contains_key(&path) {
                            out.push(path);
                        }
                    }
                }
            }
            out.push(rel);
        }
        out
    }
}
