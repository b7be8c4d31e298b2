//! One server of a client configuration: a command to run (`command`, `args`, `env`) or a
//! URL to connect to (`type`, `url`, `headers`), its references, the credentials written
//! into it, the packages it runs unpinned and plaintext URLs.

use std::borrow::Cow;

use super::local;
use super::refs::{self, Inputs};
use super::secrets::{self, Place, Remedy};
use crate::analysis::argv;
use crate::analysis::shell::{Ecosystem, unpinned_runs};
use crate::analysis::urls::Url;
use crate::formats::fields::{Lowerer, MapRef, Site};
use crate::rules::mcp as rules;
use crate::runtimes::mcp_clients::Client;
use crate::source::Span;
use crate::syntax::{Entry, Node, NodeKind};

/// Transport types that connect to a URL.
const REMOTE_TYPES: &[&str] = &["http", "sse", "streamable-http", "streamableHttp", "ws"];

/// Transport types some client documents, for files whose client is not known.
const ANY_CLIENT_TYPES: &[&str] = &[
    "stdio",
    "local",
    "http",
    "sse",
    "streamable-http",
    "streamableHttp",
    "ws",
];

/// Keys some clients read as the URL of a remote server.
const URL_KEYS: &[&str] = &["url", "serverUrl", "httpUrl"];

/// Check the server `entry` of the servers object at `parent`.
pub(super) fn check(
    lw: &mut Lowerer<'_>,
    client: Client,
    parent: &str,
    entry: &Entry,
    inputs: &mut Inputs,
) {
    let path = format!("{parent}.{}", entry.key);
    let Some(map) = lw.as_map(&entry.value, entry.key_span(), &path) else {
        return;
    };
    let who = format!("server `{}`", entry.key);
    let misspelt = local::misspelt_run_keys(lw, client, map, &who);
    let mut known: Vec<&str> = client.server_keys().to_vec();
    known.extend(misspelt.iter().map(|(k, _)| *k));
    lw.unknown_keys_at(
        map,
        &known,
        Site::rule(&rules::UNKNOWN_KEY).note(&format!(
            "{} ignores keys it does not know: whatever this sets has no effect",
            client.name()
        )),
    );
    let kind = lw.optional_enum(
        map,
        "type",
        client.transport_types().unwrap_or(ANY_CLIENT_TYPES),
    );
    let command = lw.optional_str(map, "command", 0, usize::MAX);
    let url_entry = map.node.as_map().unwrap_or_default().iter().find(|e| {
        URL_KEYS.contains(&e.key.as_str()) && client.server_keys().contains(&e.key.as_str())
    });
    let url =
        url_entry.and_then(|e| lw.str_value(&e.value, &format!("{path}.{}", e.key), 0, usize::MAX));
    for (key, value) in [("command", command), ("url", url)] {
        if let Some((text, span)) = value
            && text.trim().is_empty()
        {
            let d = lw
                .diag(&rules::MISSING_REQUIRED_FIELD, span, format!("{who} has an empty `{key}`"))
                .label(format!("empty `{key}`"))
                .note("there is nothing to start or connect to: the client reports the server as failed")
                .help(format!("write the {}", if key == "url" { "server's URL" } else { "program that starts the server" }));
            lw.push(d);
        }
    }
    // A misspelt `command` or `url` is reported as that (MCP026), not as a missing one.
    if !misspelt
        .iter()
        .any(|(_, k)| matches!(*k, "command" | "url"))
    {
        transport(lw, map, &who, kind, command.is_some(), url_entry);
    }
    if client == Client::ClaudeDesktop
        && command.is_none()
        && let Some(e) = url_entry
    {
        local::desktop_remote(lw, e, &who);
    }
    let argv = args(lw, map, &path, &who, command);
    let args: Vec<(&Node, &str)> = argv
        .iter()
        .filter_map(|item| Some((&**item, item.as_str()?)))
        .collect();
    for key in ["cwd", "envFile"] {
        if let Some((text, _)) = lw.optional_str(map, key, 0, usize::MAX)
            && let Some(node) = map.node.value(key)
        {
            refs::check(lw, client, node, text, inputs);
        }
    }
    if let Some((cmd, _)) = command
        && let Some(node) = map.node.value("command")
    {
        refs::check(lw, client, node, cmd, inputs);
    }
    for (node, text) in &args {
        refs::check(lw, client, node, text, inputs);
    }
    let mut runs: Vec<(&Node, &str)> = Vec::new();
    if let (Some((cmd, _)), Some(node)) = (command, map.node.value("command")) {
        runs.push((node, cmd));
    }
    let runs_command = !runs.is_empty();
    runs.extend(args.iter().copied());
    for key in ["cwd", "envFile"] {
        if let Some(node) = map.node.value(key)
            && let Some(text) = node.as_str()
        {
            runs.push((node, text));
        }
    }
    local::user_paths(lw, client, &runs, runs_command, &who);
    if let (Some((url, _)), Some(e)) = (url, url_entry) {
        refs::check(lw, client, &e.value, url, inputs);
    }
    let env = string_map(lw, map, "env", &path, true);
    for (name, node, text) in strings(env) {
        refs::check(lw, client, node, text, inputs);
        let place = Place {
            what: "environment variable",
            name,
            owner: &who,
        };
        let help = remedy(client, name);
        secrets::literal_secret(lw, node, (text, 0), &place, false, &help.as_remedy());
    }
    let headers = string_map(lw, map, "headers", &path, false);
    for (name, node, text) in strings(headers) {
        refs::check(lw, client, node, text, inputs);
        let place = Place {
            what: "header",
            name,
            owner: &who,
        };
        let help = remedy(client, "API_TOKEN");
        secrets::literal_secret(lw, node, (text, 0), &place, false, &help.as_remedy());
    }
    arg_secrets(lw, &args, &who, &remedy(client, "API_TOKEN").as_remedy());
    if let Some((cmd, _)) = command {
        unpinned(lw, cmd, &args, &who);
    }
    if let (Some((url, span)), Some(e)) = (url, url_entry) {
        plaintext(
            lw,
            url,
            span,
            &e.value,
            &who,
            strings(headers).next().is_some(),
        );
        let place = Place {
            what: "key",
            name: &e.key,
            owner: &who,
        };
        let help = remedy(client, "API_TOKEN");
        secrets::literal_secret(lw, &e.value, (url, 0), &place, false, &help.as_remedy());
    }
}

/// MCP001, MCP018: a command or a URL, and a `type` that agrees.
fn transport(
    lw: &mut Lowerer<'_>,
    map: MapRef<'_>,
    who: &str,
    kind: Option<&str>,
    has_command: bool,
    url: Option<&Entry>,
) {
    let has_url = url.is_some();
    let remote_type = kind.is_some_and(|k| REMOTE_TYPES.contains(&k));
    let local_type = kind.is_some_and(|k| matches!(k, "stdio" | "local"));
    let (message, help) = match (has_command, has_url) {
        (false, false) => {
            let key = if remote_type { "url" } else { "command" };
            let d = lw
                .diag(
                    &rules::MISSING_REQUIRED_FIELD,
                    map.anchor,
                    format!("{who} has neither `command` nor `url`"),
                )
                .label(format!("needs `{key}`"))
                .note("the client cannot start or reach this server, and reports it as failed")
                .help("add `\"command\"` (with `args`) for a server run locally, or `\"url\"` for a remote one");
            lw.push(d);
            return;
        }
        (true, true) => (
            format!("{who} sets both `command` and `url`"),
            "keep `command` for a server run locally, or `url` for a remote one, not both",
        ),
        (false, true) if local_type => (
            format!("{who} has `type` `{}` but only a `url`", kind.unwrap_or("")),
            "use `\"type\": \"http\"` (or `sse`) for a remote server, or give the `command` that starts it",
        ),
        (true, false) if remote_type => (
            format!(
                "{who} has `type` `{}` but only a `command`",
                kind.unwrap_or("")
            ),
            "use `\"type\": \"stdio\"` for a server the client starts, or give the `url` to connect to",
        ),
        _ => return,
    };
    let at = map.node.get("type").map_or(map.anchor, |e| e.value.span());
    let d = lw
        .diag(&rules::CONFLICTING_TRANSPORT, at, message)
        .label("contradicts the server's other keys")
        .note("each client settles the conflict its own way (or refuses the server): the same file starts different servers in different clients")
        .help(help);
    lw.push(d);
}

/// `args`: a list of strings, as far as the command line fits in what an operating system
/// starts (`argv.rs`); MCP027 where it does not.
fn args<'n>(
    lw: &mut Lowerer<'_>,
    map: MapRef<'n>,
    path: &str,
    who: &str,
    command: Option<(&str, Span)>,
) -> Vec<Cow<'n, Node>> {
    let list = match map.node.get("args") {
        Some(entry) => match entry.value.as_list() {
            Some(list) => Some(list),
            None => {
                lw.wrong_type(&entry.value, &format!("{path}.args"), "a list of strings");
                None
            }
        },
        None => None,
    };
    let read = argv::read(command.map(|(c, _)| c), list);
    for (i, item) in read.items.iter().enumerate() {
        if item.as_str().is_none() {
            lw.wrong_type(item, &format!("{path}.args[{i}]"), "a string");
        }
    }
    if let Some(cut) = read.cut {
        let at = cut
            .at
            .or(command.map(|(_, span)| span))
            .unwrap_or(map.anchor);
        let d = lw
            .diag(
                &rules::COMMAND_LINE_TOO_LONG,
                at,
                format!(
                    "{who} has a command line of {} characters, longer than Windows starts ({})",
                    cut.length,
                    argv::LONGEST
                ),
            )
            .label(if cut.at.is_some() { "past the limit from here" } else { "too long by itself" })
            .note("Windows refuses a command line of 32,767 characters or more, macOS arguments and environment over 1 MiB, Linux an argument over 128 KiB (and all of them over 2 MiB by default): the client reports the server as failed; toolc checks only the arguments that fit")
            .help("pass long or many values in a file or the environment the server reads, not on its command line");
        lw.push(d);
    }
    read.items
}

/// `env` or `headers`: an object of strings (`env` also takes numbers and `null`, which
/// clients turn into text or an unset variable); its entries, once values of another type
/// are reported. Read again through [`strings`], not collected: an object may hold millions.
fn string_map<'n>(
    lw: &mut Lowerer<'_>,
    map: MapRef<'n>,
    key: &str,
    path: &str,
    loose: bool,
) -> &'n [Entry] {
    let Some(entry) = map.node.get(key) else {
        return &[];
    };
    let full = format!("{path}.{key}");
    let Some(object) = entry.value.as_map() else {
        lw.wrong_type(&entry.value, &full, "an object");
        return &[];
    };
    for e in object {
        match &e.value.kind {
            NodeKind::String(_) => {}
            NodeKind::Number(_) | NodeKind::Null if loose => {}
            _ => lw.wrong_type(&e.value, &format!("{full}.{}", e.key), "a string"),
        }
    }
    object
}

/// The entries of `object` whose values are strings: each name, node and text.
fn strings(object: &[Entry]) -> impl Iterator<Item = (&str, &Node, &str)> {
    object.iter().filter_map(|e| match &e.value.kind {
        NodeKind::String(s) => Some((e.key.as_str(), &e.value, &**s)),
        _ => None,
    })
}

/// How a client wants a credential written instead: a reference to `var`.
struct Help {
    help: String,
}

impl Help {
    fn as_remedy(&self) -> Remedy<'_> {
        Remedy {
            note: "the configuration is committed with the project: everyone who can read the repository has the credential",
            help: &self.help,
        }
    }
}

fn remedy(client: Client, var: &str) -> Help {
    let var = if var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !var.is_empty() {
        var
    } else {
        "API_TOKEN"
    };
    let help = match client {
        Client::VsCode => format!("reference an input instead (`\"${{input:{id}}}\"`, with `{{\"type\": \"promptString\", \"id\": \"{id}\", \"description\": \"...\", \"password\": true}}` in `inputs`), then revoke the leaked credential", id = var.to_ascii_lowercase().replace('_', "-")),
        Client::ClaudeCode => format!("reference an environment variable instead (`\"${{{var}}}\"`, set before Claude Code starts), then revoke the leaked credential"),
        Client::Cursor => format!("reference an environment variable instead (`\"${{env:{var}}}\"`), then revoke the leaked credential"),
        Client::ClaudeDesktop | Client::Unknown => "keep the credential out of the file (read it from the environment or a secret store), then revoke the leaked one".to_string(),
    };
    Help { help }
}

/// MCP019 in `args`: tokens anywhere, and values of secret-like flags (`--api-key VALUE`,
/// `--token=VALUE`).
fn arg_secrets(lw: &mut Lowerer<'_>, args: &[(&Node, &str)], who: &str, remedy: &Remedy<'_>) {
    let mut flag: Option<&str> = None;
    for (node, text) in args {
        let (name, value, offset) = match text.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f.trim_start_matches('-'), v, f.len() + 1),
            _ => (flag.unwrap_or(""), *text, 0),
        };
        flag = text
            .strip_prefix('-')
            .filter(|_| !text.contains('='))
            .map(|f| f.trim_start_matches('-'));
        if value.is_empty() {
            continue;
        }
        let place = Place {
            what: "argument",
            name: if name.is_empty() { "value" } else { name },
            owner: who,
        };
        secrets::literal_secret(lw, node, (value, offset), &place, false, remedy);
    }
}

/// MCP020: a package runner that fetches an unpinned package.
fn unpinned(lw: &mut Lowerer<'_>, command: &str, args: &[(&Node, &str)], who: &str) {
    let mut argv: Vec<&str> = vec![command];
    argv.extend(args.iter().map(|(_, t)| *t));
    for run in unpinned_runs(&argv) {
        let Some(index) = run.index.checked_sub(1) else {
            continue;
        };
        let Some((node, _)) = args.get(index) else {
            continue;
        };
        let (what, pin, note) = match run.ecosystem {
            Ecosystem::Git => (
                format!(
                    "`{}` through `{}` at {}",
                    run.package,
                    run.runner,
                    run.floating
                        .as_ref()
                        .map_or("no fixed commit".to_string(), |b| format!(
                            "the branch `{b}`"
                        ))
                ),
                "the commit you reviewed",
                format!(
                    "`{}` builds whatever the repository holds when the server starts: a new commit, or a force-pushed one, runs with this project's access without review",
                    run.runner
                ),
            ),
            Ecosystem::Oci => (
                format!(
                    "image `{}` through `{}` with {}",
                    run.package,
                    run.runner,
                    run.floating
                        .as_ref()
                        .map_or("no tag or digest".to_string(), |t| format!("the tag `{t}`"))
                ),
                "the image you reviewed by its digest (a version tag at least)",
                format!(
                    "`{}` starts whatever the registry serves as `latest` that day: a new image, or a hijacked one, runs with this project's access without review",
                    run.runner
                ),
            ),
            Ecosystem::Npm | Ecosystem::Python => (
                format!(
                    "`{}` through `{}` with {}",
                    run.package,
                    run.runner,
                    run.floating
                        .as_ref()
                        .map_or("no version".to_string(), |v| format!(
                            "`{v}`, which is not one version"
                        ))
                ),
                "the version you reviewed",
                format!(
                    "`{}` downloads whatever version the registry serves when the server starts: a new release, or a hijacked one, runs with this project's access without review",
                    run.runner
                ),
            ),
        };
        let d = lw
            .diag(
                &rules::UNPINNED_PACKAGE_RUNNER,
                node.span(),
                format!("{who} runs {what}"),
            )
            .label("unpinned package")
            .note(note)
            .help(format!(
                "pin {pin}: `{}`",
                run.ecosystem.pinned(&run.package)
            ));
        lw.push(d);
    }
}

/// MCP021: `http://` to another machine.
fn plaintext(lw: &mut Lowerer<'_>, url: &str, span: Span, node: &Node, who: &str, headers: bool) {
    if url.contains("${") {
        return;
    }
    let Some(u) = Url::parse(url) else {
        return;
    };
    // A name only a container or cluster network resolves (`http://jenkins:8080` beside
    // it in Compose) is how such services are reached; TLS there is the network's business.
    if !u.is_http() || u.is_loopback() || u.is_local_name() {
        return;
    }
    let host_span = crate::formats::in_value::span_in_value(
        lw.file,
        node,
        0,
        &url[..u.host_start + u.host.len()],
    );
    let note = if headers {
        "every request, with its headers (tokens included), crosses the network unencrypted: anyone on the path can read or change it"
    } else {
        "every request and tool result crosses the network unencrypted: anyone on the path can read or change it"
    };
    let fix = crate::formats::fields::replace_exact(
        lw.file,
        span,
        url,
        &format!("https://{}", &url["http://".len().min(url.len())..]),
        crate::diagnostics::Applicability::Unsafe,
    );
    let d = lw
        .diag(
            &rules::PLAINTEXT_URL,
            host_span,
            format!("{who} connects to `{}` over plain `http://`", u.host),
        )
        .label("not encrypted")
        .note(note)
        .help("use `https://`")
        .maybe_fix(fix);
    lw.push(d);
}
