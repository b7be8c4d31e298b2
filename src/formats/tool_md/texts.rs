//! What the model reads of a tool or agent file, for the security pass: the id, `meta`,
//! the interface schemas, `use_guidance`, `error_codes` guidance, the transport's endpoints
//! (and whether it sends credentials to them), and the Markdown body.

use std::sync::Arc;

use crate::security::texts::{Collector, TextKind, ToolTexts};
use crate::source::{SourceFile, Span};
use crate::syntax::Node;

/// Transport keys that hold an endpoint's URL.
const URL_KEYS: &[&str] = &["base_url", "url", "queue_url", "response_queue_url"];

/// Credential schemes that send nothing.
const NO_CREDENTIALS: &[&str] = &["none", "iam-role"];

/// The texts of a `*.tool.md` (`agent` false) or `*.agent.md`: front matter `root` and the
/// body from `body_start`.
pub(super) fn file<'a>(
    file: &'a Arc<SourceFile>,
    root: Option<&'a Node>,
    body_start: usize,
    agent: bool,
) -> Vec<ToolTexts<'a>> {
    let mut c = Collector::new(file);
    let meta = root.and_then(|r| r.value("meta"));
    if let Some(meta) = meta {
        c.scalar(TextKind::Title, meta.value("name"));
        c.scalar(TextKind::Description, meta.value("description"));
        c.strings(TextKind::Instructions, meta.value("tags"));
    }
    if let Some(interface) = root.and_then(|r| r.value("interface")) {
        for key in ["input", "output"] {
            if let Some(schema) = interface.value(key) {
                c.schema(schema);
            }
        }
    }
    if let Some(guidance) = root.and_then(|r| r.value("use_guidance")) {
        for key in ["use_when", "avoid_when", "side_effects"] {
            c.strings(TextKind::Guidance, guidance.value(key));
        }
    }
    for code in root
        .and_then(|r| r.value("error_codes"))
        .and_then(Node::as_map)
        .unwrap_or_default()
    {
        c.scalar(TextKind::Guidance, code.value.value("meaning"));
        c.scalar(TextKind::Guidance, code.value.value("agent_action"));
    }
    let transport = root.and_then(|r| r.value("transport"));
    for key in URL_KEYS {
        c.scalar(TextKind::Endpoint, transport.and_then(|t| t.value(key)));
    }
    if body_start < file.text.len() {
        c.verbatim(
            TextKind::Instructions,
            Span::new(body_start, file.text.len()),
        );
    }
    let id_key = if agent { "agent_id" } else { "tool_id" };
    let mut name = Collector::new(file);
    name.scalar(TextKind::Name, root.and_then(|r| r.value(id_key)));
    let (texts, values) = c.finish_with_values();
    vec![ToolTexts {
        fences: None,
        values,
        name: name.finish().pop(),
        callable: !agent,
        texts,
        credentials: transport.and_then(credentials),
        handed: None,
    }]
}

/// Where a transport's credentials are declared, when its scheme sends some.
fn credentials(transport: &Node) -> Option<Span> {
    let entry = transport.get("credentials")?;
    let scheme = entry.value.value("scheme").and_then(Node::as_str);
    match scheme {
        Some(s) if NO_CREDENTIALS.contains(&s) => None,
        _ => Some(entry.key_span()),
    }
}
