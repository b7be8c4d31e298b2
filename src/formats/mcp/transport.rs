//! An MCP server's transports: the one a package serves over and the remotes it is reached at
//! (their types, URL templates, headers and the variables those name).

use super::inputs::{self, Declared, duplicates};
use super::keys::{REFUSED, UNREAD_BY_CLIENTS as UNREAD};
use super::{keys, templates};
use crate::analysis::names::{NameIndex, SUGGESTION_BUDGET, did_you_mean_within};
use crate::analysis::urls::Url;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::{ItemPaths, Lowerer, MapRef, replace_text};
use crate::formats::in_value::InValue;
use crate::rules::mcp as rules;
use crate::source::Span;

const TRANSPORT_KEYS: &[&str] = &["type", "url", "headers"];
const REMOTE_KEYS: &[&str] = &["type", "url", "headers", "variables"];

/// Check every remote.
pub(super) fn remotes(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(list) = inputs::seq(lw, map, "remotes") else {
        return;
    };
    let mut paths = ItemPaths::new("remotes");
    for (i, node) in list.scan().enumerate() {
        let path = paths.at(i);
        if let Some(remote) = inputs::item(lw, &node, path) {
            keys::unknown_keys(lw, remote, REMOTE_KEYS, UNREAD);
            let declared = inputs::remote_variables(lw, remote);
            transport(lw, remote, path, &declared, true);
        }
    }
}

/// A transport: a package's (`stdio`, `streamable-http`, `sse`; URL variables name the
/// package's arguments and environment variables) or a remote's (`streamable-http` or
/// `sse` over HTTPS to another machine; URL variables name its `variables`).
pub(super) fn transport(
    lw: &mut Lowerer<'_>,
    t: MapRef<'_>,
    path: &str,
    declared: &[Declared],
    remote: bool,
) {
    if !remote {
        keys::unknown_keys(lw, t, TRANSPORT_KEYS, UNREAD);
    }
    let allowed: &[&str] = if remote {
        &["streamable-http", "sse"]
    } else {
        &["stdio", "streamable-http", "sse"]
    };
    let Some(type_entry) = lw.required(t, "type") else {
        return;
    };
    let kind = if remote && type_entry.value.as_str() == Some("stdio") {
        let d = lw
            .diag(
                &rules::INVALID_VALUE,
                type_entry.value.span(),
                format!("`{path}.type` is `stdio`, but a remote is reached over the network"),
            )
            .label("not a remote transport")
            .note(REFUSED)
            .help("use `streamable-http` (or `sse`) for a remote; a server run locally over stdio is a `packages` entry");
        lw.push(d);
        return;
    } else {
        lw.enum_value(&type_entry.value, &format!("{path}.type"), allowed)
    };
    let Some(kind) = kind else { return };
    let headers = inputs::items(lw, t, "headers");
    if kind == "stdio" {
        if let Some(url) = t.node.get("url") {
            let d = lw
                .diag(
                    &rules::INVALID_VALUE,
                    url.key_span(),
                    format!("`{path}` is `stdio` but has a `url`"),
                )
                .label("not read for stdio")
                .note(REFUSED)
                .help("remove `url`, or use `streamable-http` if the package serves HTTP");
            lw.push(d);
        }
        return;
    }
    let mut names: Vec<Declared> = Vec::new();
    let owner = format!("`{path}`");
    let mut paths = ItemPaths::of(path, "headers");
    for (i, node) in headers.enumerate() {
        let node = &*node;
        if let Some(name) = inputs::key_value(lw, node, paths.at(i), "header", &owner) {
            names.push(name);
        }
    }
    duplicates(lw, &names, "header", true);
    let Some(entry) = lw.required(t, "url") else {
        return;
    };
    let Some((url, span)) = lw.str_value(&entry.value, &format!("{path}.url"), 0, usize::MAX)
    else {
        return;
    };
    let starts_with_variable = url.starts_with('{');
    let shape_ok = !url.contains(char::is_whitespace)
        && (url.starts_with("http://") || url.starts_with("https://") || starts_with_variable)
        && url.len() > "http://".len();
    if !shape_ok {
        let d = lw
            .diag(
                &rules::INVALID_VALUE,
                span,
                format!("`{path}.url` must start with `https://` (or `http://`, or a `{{variable}}`) and hold no spaces"),
            )
            .label("not a URL template")
            .note(REFUSED)
            .help("write the full URL, such as `https://api.example.com/mcp`");
        lw.push(d);
        return;
    }
    let mut undefined = false;
    // Looked up, placed and suggested without going over every declared name for each
    // variable of the URL.
    let names = NameIndex::new(declared.iter().map(|(n, _)| n.as_str()).collect());
    let mut spans = InValue::new(lw.file, &entry.value);
    let mut budget = SUGGESTION_BUDGET;
    for r in templates::brace_variables(url) {
        if names.first(r.body).is_some() {
            continue;
        }
        undefined = true;
        if lw.diags.counted(&rules::UNDEFINED_VARIABLE) {
            continue;
        }
        let at = spans.span(r.start, r.text(url));
        // A flag (`--port`) is a variable name too, but not one to suggest.
        let candidates = names
            .names()
            .iter()
            .copied()
            .filter(|n| !n.starts_with('-'));
        let hint = did_you_mean_within(&mut budget, r.body, declared.len(), candidates);
        let source = if remote {
            "this remote's `variables`"
        } else {
            "the package's arguments (`name`, `valueHint`) or environment variables"
        };
        let d = lw
            .diag(
                &rules::UNDEFINED_VARIABLE,
                at,
                format!("`{{{}}}` in `{path}.url` names nothing in {source}", r.body),
            )
            .label("undefined variable")
            .note(REFUSED)
            .did_you_mean_or(
                hint.and_then(|h| {
                    let fixed = format!("{{{h}}}");
                    let fix = replace_text(lw.file, at, r.text(url), &fixed, Applicability::Safe);
                    DidYouMean::fixed_by(fixed, fix)
                }),
                if remote {
                    format!(
                        "declare it: `\"variables\": {{\"{}\": {{\"description\": \"...\"}}}}`",
                        r.body
                    )
                } else {
                    "declare it as an argument's `valueHint` or an environment variable".into()
                },
            );
        lw.push(d);
    }
    if remote && !undefined && !starts_with_variable {
        remote_url(lw, span, url, path);
    }
}

/// MCP011: a remote must be HTTPS and not on this machine.
fn remote_url(lw: &mut Lowerer<'_>, span: Span, url: &str, path: &str) {
    let filled = url.replace(['{', '}'], "");
    let Some(u) = Url::parse(&filled) else {
        return;
    };
    let (message, label, help) = if !u.is_https() {
        (
            format!(
                "remote `{path}.url` uses `{}://`; remotes must use HTTPS",
                u.scheme
            ),
            "not HTTPS",
            "serve the remote over `https://`",
        )
    } else if u.is_loopback() {
        (
            format!("remote `{path}.url` points at this machine (`{}`)", u.host),
            "local address",
            "a remote is a hosted server: give its public address, or publish a local server as a package",
        )
    } else {
        return;
    };
    let d = lw
        .diag(&rules::INSECURE_SERVER_URL, span, message)
        .label(label)
        .note(REFUSED)
        .help(help);
    lw.push(d);
}
