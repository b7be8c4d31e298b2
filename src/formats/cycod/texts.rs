//! What the model reads of a cycod tool, and what it runs, for the security pass: the name,
//! description and parameters, and the command or script of the tool and of each step.

use std::sync::Arc;

use crate::analysis::shell::shell_name;
use crate::security::texts::{Collector, Shell, Text, TextKind, ToolTexts};
use crate::source::{SourceFile, Span};
use crate::syntax::{MapItem, Node};

/// Keys that hold what runs, and how each is run.
const RUN_KEYS: &[(&str, Shell)] = &[
    ("run", Shell::Process),
    ("bash", Shell::Posix),
    ("cmd", Shell::Cmd),
    ("pwsh", Shell::Pwsh),
    ("python", Shell::Python),
];

/// The texts of the tool file whose tree is `root`; `stem` names a tool without `name`.
pub(super) fn tool<'a>(
    file: &'a Arc<SourceFile>,
    root: &'a Node,
    stem: Option<&str>,
) -> Vec<ToolTexts<'a>> {
    let mut c = Collector::new(file);
    c.scalar(TextKind::Description, root.value("description"));
    c.strings(TextKind::Instructions, root.value("tags"));
    let parameters = root
        .value("parameters")
        .and_then(Node::as_map)
        .unwrap_or_default();
    let long = c.long_keys(TextKind::ParamName, parameters);
    if long {
        // A description a parameter, most often: grown by doubling, the texts of a tool of
        // hundreds of thousands of parameters took up to twice their room.
        c.reserve(parameters.len());
    }
    for p in parameters {
        if !long {
            c.key(TextKind::ParamName, p);
        }
        c.scalar(TextKind::ParamDescription, p.value.value("description"));
        if let Some(default) = p.value.value("default") {
            c.nested(TextKind::Default, default);
        }
    }
    runs(&mut c, &MapItem::of(root));
    if let Some(steps) = root.value("steps").and_then(Node::as_list) {
        // A text a step, most often: grown by doubling, a tool of millions of steps held up
        // to twice their room.
        c.reserve(steps.len());
        // Read where they are: a long list of steps is packed, its commands borrowed from
        // its bytes.
        for step in steps.maps_unbuilt() {
            runs(&mut c, &step);
        }
    }
    let name = match root.value("name") {
        Some(node) => {
            let mut n = Collector::new(file);
            n.scalar(TextKind::Name, Some(node));
            n.finish().pop()
        }
        // The file stem is the name: it is written nowhere in the file.
        None => stem.map(|s| Text {
            kind: TextKind::Name,
            value: s.to_string().into(),
            file: Arc::clone(file),
            span: Span::point(file.bom_len),
        }),
    };
    let (texts, values) = c.finish_with_values();
    vec![ToolTexts {
        fences: None,
        values,
        name,
        callable: true,
        texts,
        credentials: None,
        handed: None,
    }]
}

/// The command or script of a tool or step mapping.
fn runs<'a>(c: &mut Collector<'a>, node: &MapItem<'a>) {
    for (key, shell) in RUN_KEYS {
        if let Some((text, span)) = node.str(key) {
            c.text(TextKind::Command(*shell), text, span);
        }
    }
    let shell = match node.str("shell") {
        Some((s, _)) => match shell_name(s) {
            Some("cmd" | "bat" | "batch") => Shell::Cmd,
            Some("pwsh" | "powershell" | "ps1" | "posh") => Shell::Pwsh,
            _ if s.eq_ignore_ascii_case("python") => Shell::Python,
            _ => Shell::Posix,
        },
        _ => Shell::Posix,
    };
    if let Some((text, span)) = node.str("script") {
        c.text(TextKind::Command(shell), text, span);
    }
}
