//! DOJ019: which `.dops` version a file is. A v1 file gets one diagnostic with the migration
//! to v2; a v1 key in a v2 file gets a note saying what v2 does instead.

use super::Gate;
use super::access::{IGNORED_KEY, SkillLowerer};
use crate::diagnostics::Diagnostic;
use crate::formats::fields::MapRef;
use crate::rules::dojops as doj;
use crate::runtimes::Releases;
use crate::runtimes::dojops::TOOL_YAML_REMOVED;
use crate::source::Span;
use crate::syntax::Node;

/// Keys that only `.dops` v1 had, and what v2 does instead: worth saying when one of them
/// turns up as an unknown key in a v2 file.
const V1_KEYS: &[(&str, &str)] = &[
    (
        "input",
        "`input` is a `.dops` v1 key; v2 has no typed inputs: describe what the skill needs in `## Prompt`",
    ),
    (
        "output",
        "`output` is a `.dops` v1 key; v2 describes the output in `context.outputGuidance`",
    ),
    (
        "source",
        "`source` is a `.dops` v1 key; v2 always writes what the model generates",
    ),
    (
        "content",
        "`content` is a `.dops` v1 key for template files; v2 has no templates",
    ),
    (
        "options",
        "`options` is a `.dops` v1 serializer setting; v2 writes files as they are generated",
    ),
    (
        "multiDocument",
        "`multiDocument` is a `.dops` v1 serializer setting; v2 writes files as they are generated",
    ),
    (
        "dataPath",
        "`dataPath` is a `.dops` v1 serializer setting; v2 writes files as they are generated",
    ),
];

impl SkillLowerer<'_> {
    /// DOJ007 for keys outside `known`, noting what v2 does instead of a v1 key.
    pub(super) fn unknown_keys(&mut self, map: MapRef<'_>, known: &[&str]) {
        let mark = self.lw.diags.len();
        self.lw.unknown_keys(map, known, IGNORED_KEY);
        let Some(entries) = map.node.as_map() else {
            return;
        };
        let unknown = entries.iter().filter(|e| !known.contains(&e.key.as_str()));
        for (d, entry) in self.lw.diags.iter_mut().skip(mark).zip(unknown) {
            if let Some((_, note)) = V1_KEYS.iter().find(|(k, _)| *k == entry.key) {
                d.notes.push((*note).to_string().into());
                if d.help.is_none() {
                    d.help = Some(format!("remove `{}`", entry.key).into());
                }
            }
        }
    }

    /// DOJ019: `dops` must be exactly `v2`. A v1 file gets one error with the migration and
    /// nothing else: every other v2 rule would fire on it and bury the one fix that matters.
    pub(super) fn version(&mut self, root: MapRef<'_>) -> Gate {
        let entry = root.node.get("dops");
        let value = entry.map(|e| &e.value);
        if value.and_then(Node::as_str) == Some("v2") {
            return Gate::Continue;
        }
        let looks_v1 = (root.node.get("input").is_some() || root.node.get("output").is_some())
            && root.node.get("context").is_none();
        let rule = &doj::UNSUPPORTED_DOPS_VERSION;
        match value {
            Some(v) if v.as_str() == Some("v1") || looks_v1 => {
                let message = format!(
                    "`dops: {}` is no longer supported; current DojOps only accepts `dops: v2`",
                    self.lw.file.slice(v.span())
                );
                let d = self.v1_migration(root, v.span(), message);
                self.lw.push(d);
                Gate::Stop
            }
            None if looks_v1 => {
                let message = "this is a `.dops` v1 skill without a `dops` version; current DojOps only accepts `dops: v2`";
                let d = self.v1_migration(root, root.anchor, message.to_string());
                self.lw.push(d);
                Gate::Stop
            }
            Some(v) => {
                let d = self
                    .lw
                    .diag(
                        rule,
                        v.span(),
                        format!(
                            "`dops` must be `v2`, found `{}`",
                            self.lw.file.slice(v.span())
                        ),
                    )
                    .label("unsupported version")
                    .note("DojOps refuses to load a `.dops` file that is not `dops: v2`")
                    .help("write `dops: v2`");
                self.lw.push(d);
                Gate::Continue
            }
            None => {
                let d = self
                    .lw
                    .diag(rule, root.anchor, "the front matter has no `dops` version")
                    .label("`dops: v2` is missing")
                    .note("DojOps refuses to load a `.dops` file that is not `dops: v2`")
                    .help("add `dops: v2` as the first line of the front matter");
                self.lw.push(d);
                Gate::Continue
            }
        }
    }

    /// The one diagnostic of a v1 file: what changed, pointing at the v1 constructs it uses.
    fn v1_migration(&self, root: MapRef<'_>, span: Span, message: String) -> Diagnostic {
        let mut d = self
            .lw
            .diag(&doj::UNSUPPORTED_DOPS_VERSION, span, message)
            .label("`.dops` v1")
            .note("DojOps rejects the file, so the skill is never available")
            // DojOps 1.0 still loaded v1 files.
            .for_releases(Releases::since("dojops", TOOL_YAML_REMOVED));
        if let Some(e) = root.node.get("input") {
            d = d.related(
                self.lw.file,
                e.key_span(),
                "v1 typed inputs: v2 has none; describe what the skill needs in `## Prompt`",
            );
        }
        if let Some(e) = root.node.get("output") {
            d = d.related(
                self.lw.file,
                e.key_span(),
                "v1 output schema: v2 describes the output in `context.outputGuidance`",
            );
        }
        if let Some(e) = root
            .node
            .get("kind")
            .filter(|e| e.value.as_str() == Some("tool"))
        {
            d = d.related(self.lw.file, e.value.span(), "v2 calls this `kind: skill`");
        }
        let v1_files = root
            .node
            .value("files")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .flat_map(|f| f.as_map().unwrap_or_default())
            .find(|e| {
                ["source", "options", "content"].contains(&e.key.as_str())
                    || (e.key == "format" && e.value.as_str() != Some("raw"))
            });
        if let Some(e) = v1_files {
            d = d.related(
                self.lw.file,
                e.key_span(),
                "v1 file serializer: v2 writes every file as `format: raw`",
            );
        }
        d.related.sort_by_key(|r| r.span.start);
        d.help(
            "migrate to v2: (1) set `dops: v2` (and `kind: skill`); (2) replace `input.fields` and \
             `output` with a `context` block: `technology`, `fileFormat`, `outputGuidance`, \
             `bestPractices`; (3) give every `files` entry `format: raw` and drop `source`, \
             `options` and `content`; (4) keep the `## Prompt` and `## Keywords` sections",
        )
    }
}
