//! What a committed configuration makes run on someone else's machine: keys misspelt so that
//! the server starts differently (MCP026), paths in one user's home folder (MCP025), and a
//! remote server in the one file Claude Desktop reads only for servers it starts (MCP024).

use crate::analysis::names::did_you_mean;
use crate::formats::fields::{Lowerer, MapRef, rename_key};
use crate::formats::in_value::span_in_value;
use crate::rules::mcp as rules;
use crate::runtimes::mcp_clients::Client;
use crate::source::Span;
use crate::syntax::{Entry, Node};

/// Keys whose loss changes what the client runs or sends.
const RUN_KEYS: &[&str] = &["command", "args", "env", "cwd", "envFile", "url", "headers"];

/// Other names people give these keys (from other tools' formats), with the key meant.
const ALIASES: &[(&str, &str)] = &[
    ("arg", "args"),
    ("argv", "args"),
    ("arguments", "args"),
    ("environment", "env"),
    ("enviroment", "env"),
    ("environ", "env"),
    ("envs", "env"),
    ("environmentVariables", "env"),
    ("cmd", "command"),
    ("workingDirectory", "cwd"),
    ("working_directory", "cwd"),
    ("header", "headers"),
];

/// The run key an unknown `key` of a server stands for, when the server lacks that key.
fn meant(key: &str, server: &Node, known: &[&str]) -> Option<&'static str> {
    if known.contains(&key) {
        return None;
    }
    let target = ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(key))
        .map(|(_, k)| *k)
        .or_else(|| did_you_mean(key, RUN_KEYS.iter().copied()))?;
    (known.contains(&target) && server.get(target).is_none()).then_some(target)
}

/// MCP026 on the keys of `server` that stand for a missing run key; returns them, so that the
/// unknown-key check and the command-or-URL check leave them to this finding.
pub(super) fn misspelt_run_keys<'n>(
    lw: &mut Lowerer<'_>,
    client: Client,
    server: MapRef<'n>,
    who: &str,
) -> Vec<(&'n str, &'static str)> {
    let known = client.server_keys();
    let mut out = Vec::new();
    for e in server.node.as_map().unwrap_or_default() {
        let Some(target) = meant(&e.key, server.node, known) else {
            continue;
        };
        let effect = match target {
            "command" | "url" => "the client has nothing to start or connect to and reports the server as failed".to_string(),
            "args" => "the server's program starts with no arguments at all".to_string(),
            "env" | "envFile" => "the server starts without these environment variables (its credentials and settings among them)".to_string(),
            "cwd" => "the server starts in the client's own working folder".to_string(),
            _ => "requests go out without these headers (credentials among them)".to_string(),
        };
        let d = lw
            .diag(
                &rules::MISSPELT_SERVER_KEY,
                e.key_span(),
                format!(
                    "{who} sets `{}`, which {} does not read: it means `{target}`",
                    e.key,
                    client.name()
                ),
            )
            .label(format!("not `{target}`"))
            .note(format!(
                "{} ignores keys it does not know: {effect}",
                client.name()
            ))
            .help(format!("rename it to `{target}`"))
            .fix(rename_key(lw.file, e.key_span(), target));
        lw.push(d);
        out.push((e.key.as_str(), target));
    }
    out
}

/// MCP024: a server with a `url` and no `command` in `claude_desktop_config.json`.
pub(super) fn desktop_remote(lw: &mut Lowerer<'_>, url: &Entry, who: &str) {
    let d = lw
        .diag(
            &rules::REMOTE_SERVER_IN_DESKTOP_CONFIG,
            url.key_span(),
            format!("{who} is a remote server, which Claude Desktop does not read from claude_desktop_config.json"),
        )
        .label("only servers Claude Desktop starts are read here")
        .note("Claude Desktop starts the servers of this file with their `command`; an entry with a `url` is skipped as not a valid server, so its tools never appear")
        .help("add the server in Claude Desktop under Settings → Connectors, or start a local bridge here: `\"command\": \"npx\", \"args\": [\"-y\", \"mcp-remote@VERSION\", \"URL\"]`");
    lw.push(d);
}

/// The user's home folder a path starts in, and where it starts, when the path is in one
/// (`/Users/NAME/`, `/home/NAME/`, `C:/Users/NAME/`, `C:\Users\NAME\`); a placeholder the
/// reader is meant to replace (`/Users/<you>/`, `/home/USERNAME/`) is not one.
fn home_path(text: &str) -> Option<(usize, &str)> {
    let lower = text.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for prefix in ["/users/", "/home/", ":/users/", ":\\users\\"] {
        let mut from = 0;
        while let Some(at) = lower.get(from..).and_then(|rest| rest.find(prefix)) {
            let at = from + at;
            from = at + prefix.len();
            // A drive letter before `:`, or the start of the path before `/`.
            let start = if prefix.starts_with(':') {
                match at.checked_sub(1) {
                    Some(d)
                        if lower.as_bytes()[d].is_ascii_alphabetic()
                            && (d == 0 || !lower.as_bytes()[d - 1].is_ascii_alphanumeric()) =>
                    {
                        d
                    }
                    _ => continue,
                }
            } else {
                if at > 0 && !matches!(lower.as_bytes()[at - 1], b'=' | b'"' | b'\'' | b' ' | b':')
                {
                    continue;
                }
                at
            };
            let name = text[from..].split(['/', '\\']).next().unwrap_or("");
            let after = &text[from + name.len()..];
            let ends = after.is_empty() || after.starts_with(['/', '\\', '"', '\'', ' ']);
            if name.is_empty() || !ends || is_placeholder(name) {
                continue;
            }
            if best.is_none_or(|(b, _)| start < b) {
                best = Some((start, &text[start..]));
            }
        }
    }
    best
}

/// A user name written for the reader to replace.
fn is_placeholder(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.contains(['<', '>', '{', '}', '$', '%', '[', ']', '*'])
        || ["your", "user", "name", "example", "xxx", "me", "you", "..."]
            .iter()
            .any(|w| lower == *w || (w.len() > 2 && lower.contains(w)))
}

/// MCP025: the first value of the server (`command`, `args`, `cwd`, `envFile`) in one
/// user's home folder, once per server; the others are shown beside it. `runs_command`:
/// the first of `values` is the command.
pub(super) fn user_paths(
    lw: &mut Lowerer<'_>,
    client: Client,
    values: &[(&Node, &str)],
    runs_command: bool,
    who: &str,
) {
    let found: Vec<(Span, &str, usize)> = values
        .iter()
        .enumerate()
        .filter_map(|(i, (node, text))| {
            let (at, path) = home_path(text)?;
            let shown = path.split(['"', '\'', ' ']).next().unwrap_or(path);
            Some((span_in_value(lw.file, node, at, shown), shown, i))
        })
        .collect();
    let Some(((span, path, index), rest)) = found.split_first() else {
        return;
    };
    // The command is what runs; an argument (a script, a log file) or a folder is what the
    // server uses.
    let (verb, fails) = match index {
        0 if runs_command => ("runs", "the server fails to start"),
        _ => (
            "uses",
            "the server fails to start or misses what it was pointed at",
        ),
    };
    let help = match client {
        Client::VsCode | Client::Cursor => {
            "write the path from the project (`${workspaceFolder}/…`), or run a program found on `PATH`"
        }
        Client::ClaudeCode => {
            "write the path relative to the project folder, where Claude Code starts the server, or run a program found on `PATH`"
        }
        Client::ClaudeDesktop | Client::Unknown => {
            "write the path each user must adapt as a placeholder (`/Users/<you>/…`) and say so, or run a program found on `PATH`"
        }
    };
    let mut d = lw
        .diag(
            &rules::USER_SPECIFIC_PATH,
            *span,
            format!("{who} {verb} `{path}`, a path in one user's home folder"),
        )
        .label("exists only on the author's machine")
        .note(format!("the configuration is shared with the project: on anyone else's machine the path does not exist and {fails}"))
        .help(help);
    for (span, path, _) in rest {
        d = d.related(lw.file, *span, format!("`{path}` too"));
    }
    lw.push(d);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_a_home_folder() {
        assert_eq!(home_path("/Users/ada/src/mcp.js").map(|p| p.0), Some(0));
        assert_eq!(home_path("--root=/home/ci/work/").map(|p| p.0), Some(7));
        assert_eq!(
            home_path("C:\\Users\\Ada\\mcp\\server.exe").map(|p| p.0),
            Some(0)
        );
        assert_eq!(home_path("c:/users/ada/mcp").map(|p| p.0), Some(0));
        assert_eq!(home_path("/home/ada").map(|p| p.0), Some(0));
        for not_one in [
            "/Users/<you>/mcp.js",
            "/home/USERNAME/x",
            "/home/your-name/x",
            "/opt/homebrew/bin/node",
            "/srv/home/x/y",
            "${HOME}/mcp.js",
            "é/home/ada/x",
        ] {
            assert_eq!(home_path(not_one), None, "{not_one}");
        }
    }
}
