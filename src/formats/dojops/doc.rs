//! What the bundles need of a DojOps manifest or skill beyond the checks, lowered once from
//! the tree so that the tree can be dropped and the IR reads typed fields.

use crate::formats::tree::{Strings, first_site, node_at, site_at, str_at};
use crate::ir::Sites;
use crate::source::Span;
use crate::syntax::{Node, NodeKind};
use serde::{Deserialize, Serialize};

/// A `tool.yaml`'s fields that the IR needs.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct ManifestDoc {
    /// `version`.
    pub version: Option<String>,
    /// `description`, when a string.
    pub description: Option<String>,
    /// Where `description` is written, whatever its type.
    pub description_span: Option<Span>,
    /// `tags` (strings only).
    pub tags: Strings,
    /// `files[].path`.
    pub files: Vec<String>,
    /// SHA-256 of `generator.systemPrompt` (the bundle's `systemPromptHash`: the prompt
    /// itself, often the longest text of a manifest, is not kept).
    pub system_prompt_sha256: Option<crate::source::Digest>,
    /// `verification.command`.
    pub verification: Option<String>,
    /// `permissions.child_process: required`.
    pub runs_programs: bool,
    /// `permissions.network: inherit`.
    pub network: bool,
    /// `permissions`, as written.
    pub settings: crate::ir::Settings,
    /// Where its parts are written.
    pub sites: Sites,
}

/// The permissions of a manifest or skill, the setting that decides what its run may do.
fn permissions(root: &Node) -> crate::ir::Settings {
    let mut out = crate::ir::Settings::new();
    crate::formats::tree::settings(
        &crate::syntax::MapItem::of(root),
        &["permissions"],
        &[],
        "",
        &mut out,
    );
    out
}

impl ManifestDoc {
    /// Lower the manifest's root mapping.
    pub(crate) fn lower(root: &Node) -> ManifestDoc {
        ManifestDoc {
            version: str_at(root, &["version"]).map(str::to_string),
            description: str_at(root, &["description"]).map(str::to_string),
            description_span: node_at(root, &["description"]).map(|n| n.span()),
            tags: Strings::of(root.value("tags")),
            files: file_paths(root),
            system_prompt_sha256: str_at(root, &["generator", "systemPrompt"])
                .map(|p| crate::source::sha256(p.as_bytes())),
            verification: str_at(root, &["verification", "command"]).map(str::to_string),
            runs_programs: str_at(root, &["permissions", "child_process"]) == Some("required"),
            network: str_at(root, &["permissions", "network"]) == Some("inherit"),
            settings: permissions(root),
            sites: Sites {
                version: site_at(root, &["version"]),
                run: first_site(root, &[&["files"], &["verification"], &["generator"]]),
                risk: site_at(root, &["permissions"]),
                tags: site_at(root, &["tags"]),
                settings: site_at(root, &["permissions"]),
                ..Sites::default()
            },
        }
    }
}

/// A `.dops` skill's front matter fields that the IR needs.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct SkillDoc {
    /// `meta.version`.
    pub version: Option<String>,
    /// `meta.description`, when a string.
    pub description: Option<String>,
    /// Where `meta.description` is written, whatever its type.
    pub description_span: Option<Span>,
    /// `meta.tags` (strings only).
    pub tags: Strings,
    /// `files[].path`.
    pub files: Vec<String>,
    /// `verification.binary.command`.
    pub verification: Option<String>,
    /// `risk.level`.
    pub risk_level: Option<String>,
    /// `permissions.child_process: required`.
    pub runs_programs: bool,
    /// `permissions.filesystem` is not `read` (the runtime's default is `write`).
    pub writes: bool,
    /// `permissions.network: required`.
    pub network: bool,
    /// `capabilities.sideEffects: none`.
    pub no_side_effects: bool,
    /// `execution.idempotent: true`.
    pub idempotent: bool,
    /// `permissions`, as written.
    pub settings: crate::ir::Settings,
    /// Where its parts are written.
    pub sites: Sites,
}

impl SkillDoc {
    /// Lower the skill's front matter root.
    pub(crate) fn lower(root: &Node) -> SkillDoc {
        let perm = |k: &str| str_at(root, &["permissions", k]);
        SkillDoc {
            version: str_at(root, &["meta", "version"]).map(str::to_string),
            description: str_at(root, &["meta", "description"]).map(str::to_string),
            description_span: node_at(root, &["meta", "description"]).map(|n| n.span()),
            tags: Strings::of(node_at(root, &["meta", "tags"])),
            files: file_paths(root),
            verification: str_at(root, &["verification", "binary", "command"]).map(str::to_string),
            risk_level: str_at(root, &["risk", "level"]).map(str::to_string),
            runs_programs: perm("child_process") == Some("required"),
            writes: perm("filesystem") != Some("read"),
            network: perm("network") == Some("required"),
            no_side_effects: str_at(root, &["capabilities", "sideEffects"]) == Some("none"),
            idempotent: matches!(
                node_at(root, &["execution", "idempotent"]).map(|n| &n.kind),
                Some(NodeKind::Bool(true))
            ),
            settings: permissions(root),
            sites: Sites {
                version: site_at(root, &["meta", "version"]),
                run: first_site(root, &[&["files"], &["verification"]]),
                risk: first_site(root, &[&["permissions"], &["risk"], &["capabilities"]]),
                tags: site_at(root, &["meta", "tags"]),
                settings: site_at(root, &["permissions"]),
                ..Sites::default()
            },
        }
    }
}

/// `files[].path`, strings only.
fn file_paths(root: &Node) -> Vec<String> {
    node_at(root, &["files"])
        .and_then(Node::as_seq)
        .map(|items| {
            items
                .iter()
                .filter_map(|f| str_at(f, &["path"]).map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
