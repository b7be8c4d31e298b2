//! A tool file written in the earlier AML layout (`parameters`, `response_schema`,
//! `transport.auth`, still under `spec_version: "1.2"`): each key is reported on its own as
//! unknown, and this one finding says what the file is and how to move it to the current
//! layout, so the author migrates once instead of chasing key after key.

use crate::formats::fields::{Lowerer, MapRef};
use crate::rules::tool_md as rules;
use crate::source::Span;

/// A key of the earlier layout, where it is written, and where its content goes now.
struct Moved {
    span: Span,
    old: &'static str,
    new: &'static str,
}

/// TMD041: one finding for a tool file that uses keys of the earlier layout.
pub(super) fn old_layout(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let mut moved = Vec::new();
    for (old, new) in [
        ("parameters", "interface.input"),
        ("response_schema", "interface.output"),
    ] {
        if let Some(e) = map.node.get(old) {
            moved.push(Moved {
                span: e.key_span(),
                old,
                new,
            });
        }
    }
    if let Some(e) = map.node.value("transport").and_then(|t| t.get("auth")) {
        moved.push(Moved {
            span: e.key_span(),
            old: "transport.auth",
            new: "transport.credentials",
        });
    }
    let Some(first) = moved.first() else {
        return;
    };
    let renames: Vec<String> = moved
        .iter()
        .map(|m| format!("`{}` → `{}`", m.old, m.new))
        .collect();
    let mut d = lw
        .diag(
            &rules::OLD_TOOL_LAYOUT,
            first.span,
            format!(
                "this tool file follows an older layout of the spec: {}",
                renames.join(", ")
            ),
        )
        .label(format!("now `{}`", first.new))
        .note("the current Tool Definition Specification has none of these keys, whatever `spec_version` says: the compiler rejects the file, and each key is also reported on its own")
        .help(migration(&moved));
    for m in moved.iter().skip(1) {
        d = d.related(lw.file, m.span, format!("now `{}`", m.new));
    }
    lw.push(d);
}

/// How to move each key that is there.
fn migration(moved: &[Moved]) -> String {
    let has = |old: &str| moved.iter().any(|m| m.old == old);
    let mut steps = Vec::new();
    match (has("parameters"), has("response_schema")) {
        (true, true) => steps.push(
            "add `interface:` with `input:` holding what `parameters` held and `output:` holding what `response_schema` held",
        ),
        (true, false) => steps.push(
            "add `interface:` with `input:` holding what `parameters` held, and an `output:` schema",
        ),
        (false, true) => {
            steps.push("move what `response_schema` held to `interface.output`")
        }
        (false, false) => {}
    }
    if has("transport.auth") {
        steps.push(
            "rename `transport.auth` to `transport.credentials`, with a `scheme` and, for a secret, a `source` (`env`, `aws_secrets_manager`, …) and its fields instead of `token_source`",
        );
    }
    steps.join("; ")
}
