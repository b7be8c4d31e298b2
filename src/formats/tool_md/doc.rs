//! What the bundles need of a tool file's front matter beyond the checks, lowered once from
//! the tree so that the tree can be dropped and the IR reads typed fields.

use crate::formats::tree::{Strings, first_site, node_at, site_at, str_at};
use crate::ir::Sites;
use crate::source::Span;
use crate::syntax::{Node, Packed};
use serde::{Deserialize, Serialize};

/// A `*.tool.md` front matter's fields that the IR needs.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct ToolDoc {
    /// `meta.name`.
    pub title: Option<String>,
    /// `version`.
    pub version: Option<String>,
    /// `meta.description`, trimmed, when a string.
    pub description: Option<String>,
    /// Where `meta.description` is written, whatever its type.
    pub description_span: Option<Span>,
    /// `meta.tags` (strings only).
    pub tags: Strings,
    /// `transport`, as written (secrets included: the IR redacts them).
    pub transport: Option<Packed>,
    /// `interface.input`.
    pub input: Option<Packed>,
    /// `interface.output`.
    pub output: Option<Packed>,
    /// `use_guidance`.
    pub guidance: Option<UseGuidance>,
    /// Where its parts are written.
    pub sites: Sites,
}

/// `use_guidance`, each list in one buffer (a `String` an item took 28 times a list of
/// one-letter items).
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(crate) struct UseGuidance {
    /// `use_when` (strings only).
    pub use_when: Strings,
    /// `avoid_when` (strings only).
    pub avoid_when: Strings,
    /// `side_effects`: the spec's list, or a single string (trimmed).
    pub side_effects: Strings,
}

impl ToolDoc {
    /// Lower the front matter root.
    pub(crate) fn lower(root: &Node) -> ToolDoc {
        ToolDoc {
            title: str_at(root, &["meta", "name"]).map(str::to_string),
            version: str_at(root, &["version"]).map(str::to_string),
            description: str_at(root, &["meta", "description"]).map(|d| d.trim().to_string()),
            description_span: node_at(root, &["meta", "description"]).map(|n| n.span()),
            tags: Strings::of(node_at(root, &["meta", "tags"])),
            transport: root.value("transport").map(Packed::pack),
            input: node_at(root, &["interface", "input"]).map(Packed::pack),
            output: node_at(root, &["interface", "output"]).map(Packed::pack),
            guidance: root.value("use_guidance").map(|g| UseGuidance {
                use_when: Strings::of(g.value("use_when")),
                avoid_when: Strings::of(g.value("avoid_when")),
                side_effects: match g.value("side_effects") {
                    Some(n) if n.as_list().is_some() => Strings::of(Some(n)),
                    Some(n) => n.as_str().map(str::trim).into_iter().collect(),
                    None => Strings::default(),
                },
            }),
            sites: Sites {
                version: site_at(root, &["version"]),
                title: site_at(root, &["meta", "name"]),
                run: first_site(root, &[&["transport"], &["type"]]),
                risk: first_site(root, &[&["type"], &["meta", "tags"]]),
                guidance: site_at(root, &["use_guidance"]),
                tags: site_at(root, &["meta", "tags"]),
                settings: None,
            },
        }
    }
}
