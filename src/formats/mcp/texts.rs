//! What the security pass reads of an MCP file: in `server.json`, the server's name, title
//! and description, the descriptions, choices and defaults of its inputs (arguments,
//! environment variables, headers), the arguments that become part of the command that
//! starts it, its post-install steps and its URLs; in a client configuration, each server's
//! name, the command and arguments it runs (the script of `sh -c`) and the URLs it connects
//! to.
//!
//! Plain `http://` is MCP011 and MCP021, which know the server's transport and its headers:
//! no endpoint here is marked as sending credentials, so SEC070 speaks only of a URL that
//! carries them itself.

use std::borrow::Cow;
use std::sync::Arc;

use super::scripts::Started;
use crate::analysis::argv;
use crate::analysis::secrets::secret_name;
use crate::analysis::shell::{Dialect, Inline, inline_script, program_name};
use crate::security::texts::{Collector, Shell, TextKind, ToolTexts, language};
use crate::source::{SourceFile, Span};
use crate::syntax::seq::Item;
use crate::syntax::{Entry, MapItem, Node, Seq};

/// Keys of a client's server that hold the URL it connects to.
const URL_KEYS: &[&str] = &["url", "serverUrl", "httpUrl"];

/// The texts of a `server.json` whose root is `root`.
pub(super) fn server<'a>(file: &'a Arc<SourceFile>, root: &'a Node) -> Vec<ToolTexts<'a>> {
    let mut c = Collector::new(file);
    c.scalar(TextKind::Title, root.value("title"));
    c.scalar(TextKind::Description, root.value("description"));
    in_place(&mut c, root.value("packages"), package);
    in_place(&mut c, root.value("remotes"), remote);
    let mut name = Collector::new(file);
    name.scalar(TextKind::Name, root.value("name"));
    // A long list of `choices` is read a batch at a time.
    let (texts, values) = c.finish_with_values();
    vec![ToolTexts {
        fences: None,
        values,
        name: name.finish().pop(),
        callable: false,
        texts,
        credentials: None,
        handed: None,
    }]
}

/// Each entry of `list` read by `read` where it is: a long list is packed, and a packed
/// entry is built for itself alone, its texts copied out (the whole list built into nodes
/// for its readers, 500,000 `{}` took 32 bytes each, and small trees eight times their
/// text).
fn in_place<'a>(
    c: &mut Collector<'a>,
    list: Option<&'a Node>,
    read: impl for<'n> Fn(&mut Collector<'n>, &'n Node),
) {
    for entry in list.and_then(Node::as_list).into_iter().flat_map(Seq::scan) {
        c.read_item(entry, &read);
    }
}

/// The texts of a package held as a node.
fn package<'a>(c: &mut Collector<'a>, package: &'a Node) {
    c.scalar(TextKind::Endpoint, package.value("registryBaseUrl"));
    if package.value("registryType").and_then(Node::as_str) == Some("mcpb") {
        c.scalar(TextKind::Endpoint, package.value("identifier"));
    }
    let argument = TextKind::Command(Shell::Process);
    for key in ["runtimeArguments", "packageArguments"] {
        for item in items(package.value(key)) {
            named_input(c, &item, argument, argument);
        }
    }
    for item in items(package.value("environmentVariables")) {
        named_input(c, &item, TextKind::ParamName, TextKind::Default);
    }
    if let Some(transport) = package.value("transport") {
        remote(c, transport);
    }
    let step = [
        ("description", TextKind::Instructions),
        ("command", TextKind::Command(Shell::Posix)),
    ];
    for item in items(package.value("postInstallInstructions")) {
        match item.held() {
            Some(node) => {
                for (key, kind) in step {
                    c.scalar(kind, node.value(key));
                }
            }
            None => packed(c, &item, &step),
        }
    }
}

/// The items of a list, each read where it is ([`Seq::maps`]).
fn items(node: Option<&Node>) -> impl Iterator<Item = MapItem<'_>> {
    node.and_then(Node::as_list).into_iter().flat_map(Seq::maps)
}

/// A remote or a package transport: its URL, and its headers as inputs.
fn remote<'a>(c: &mut Collector<'a>, node: &'a Node) {
    c.scalar(TextKind::Endpoint, node.value("url"));
    for item in items(node.value("headers")) {
        named_input(c, &item, TextKind::ParamName, TextKind::Default);
    }
    if let Some(variables) = node.value("variables").and_then(Node::as_map) {
        for v in variables {
            c.key(TextKind::ParamName, v);
            input(c, &v.value, TextKind::Default);
        }
    }
}

/// An argument, environment variable or header: its `name` as `named`, and the rest as an
/// [`input`] whose value is `given`. A long list of them is packed, and a packed item holds
/// only strings and lists of strings (no `variables`, a mapping), read from its bytes: built
/// into nodes, 500,000 `{"name": "A"}` took 15 times their size.
fn named_input<'a>(c: &mut Collector<'a>, item: &MapItem<'a>, named: TextKind, given: TextKind) {
    if let Some(node) = item.held() {
        c.scalar(named, node.value("name"));
        input(c, node, given);
        return;
    }
    packed(
        c,
        item,
        &[("name", named), ("description", TextKind::ParamDescription)],
    );
    // `choices` as `strings` reads it: a list's strings, or one string.
    for (s, span) in item.list("choices").into_iter().flatten().flatten() {
        c.text(TextKind::EnumValue, s, span);
    }
    packed(c, item, &[("choices", TextKind::EnumValue)]);
    let rest = [
        ("value", given),
        ("default", given),
        ("placeholder", TextKind::Example),
    ];
    packed(c, item, &rest);
}

/// The strings of a packed item at `keys`, each as its kind.
fn packed<'a>(c: &mut Collector<'a>, item: &MapItem<'a>, keys: &[(&str, TextKind)]) {
    for &(key, kind) in keys {
        if let Some((s, span)) = item.str(key) {
            c.text(kind, s, span);
        }
    }
}

/// An input of `server.json`: its description and choices are read (by the client's user and
/// by the model that sees the server's configuration); `value` and `default`, as `given`
/// (part of a command, or a value).
fn input<'a>(c: &mut Collector<'a>, node: &'a Node, given: TextKind) {
    c.scalar(TextKind::ParamDescription, node.value("description"));
    c.strings(TextKind::EnumValue, node.value("choices"));
    c.scalar(given, node.value("value"));
    c.scalar(given, node.value("default"));
    c.scalar(TextKind::Example, node.value("placeholder"));
    if let Some(variables) = node.value("variables").and_then(Node::as_map) {
        for v in variables {
            c.key(TextKind::ParamName, v);
            input(c, &v.value, TextKind::Default);
        }
    }
}

/// The texts of a client configuration whose root is `root`: one per server, made as the
/// security pass reads them (a million servers' texts are never held at once). Only a
/// server's name reaches the model (clients prefix the server's tools with it); the rest
/// runs or connects. The scripts a server starts (`scripts.rs`) are read as it runs them,
/// in their language.
pub(super) fn config<'a>(
    file: &'a Arc<SourceFile>,
    root: &'a Node,
    started: &'a [Started],
) -> impl Iterator<Item = ToolTexts<'a>> + 'a {
    servers(root)
        .iter()
        .filter(|e| e.value.entries().is_some())
        .map(move |entry| {
            let server = &entry.value;
            let mut c = Collector::new(file);
            command(&mut c, server.value("command"), server.value("args"));
            for key in URL_KEYS {
                c.scalar(TextKind::Endpoint, server.value(key));
            }
            // The environment it starts with: a secret handed to it, and the addresses it
            // is told to reach (`UPSTREAM=http://…`).
            let env = server
                .value("env")
                .and_then(Node::as_map)
                .unwrap_or_default();
            let handed = env
                .iter()
                .find(|e| {
                    secret_name(&e.key).is_some() && e.value.as_str().is_some_and(|v| !v.is_empty())
                })
                .map(Entry::key_span);
            for e in env
                .iter()
                .filter(|e| e.value.as_str().is_some_and(|v| v.contains("://")))
            {
                c.scalar(TextKind::Endpoint, Some(&e.value));
            }
            let mut texts = c.finish();
            for script in started.iter().filter(|s| s.server == entry.key) {
                let f = &script.file;
                let mut c = Collector::new(f);
                c.verbatim(
                    TextKind::Command(language(f)),
                    Span::new(f.bom_len, f.text.len()),
                );
                texts.extend(c.finish());
            }
            let mut name = Collector::new(file);
            name.key(TextKind::Name, entry);
            ToolTexts {
                fences: None,
                values: Vec::new(),
                name: name.finish().pop(),
                callable: false,
                texts,
                credentials: None,
                handed,
            }
        })
}

/// `command` and `args` run as one process, without a shell; the code handed on inline
/// (`sh -c SCRIPT`, `bash -lc`, `python3 -c`, `node -e`, `pwsh -Command`, also after `env`)
/// is also read in its language.
fn command<'a>(c: &mut Collector<'a>, program: Option<&'a Node>, args: Option<&'a Node>) {
    // A program's name past what a command line holds is read only as far as it goes.
    if let Some(node) = program
        && let Some(text) = node.as_str()
    {
        c.text(
            TextKind::Command(Shell::Process),
            argv::within(text),
            node.span(),
        );
    }
    let name = program.and_then(Node::as_str).unwrap_or_default();
    let list = args.and_then(Node::as_list);
    let listed = list.map_or(0, Seq::len);
    // What the configuration's checks read too: the arguments that fit in a command line.
    let args = argv::read(program.and_then(Node::as_str), list).items;
    // `env [-i] [NAME=value] bash -c …`: the program is the first word after them.
    let (name, from) = if program_name(name) == "env" {
        args.iter()
            .position(|a| {
                a.as_str()
                    .is_some_and(|w| !w.starts_with('-') && !w.contains('='))
            })
            .map_or(("", 0), |i| (args[i].as_str().unwrap_or_default(), i + 1))
    } else {
        (name, 0)
    };
    // Looked for in the whole list, strings borrowed: padding before the flag does not push
    // the script out of what is read.
    let script = list.and_then(|list| {
        list.items()
            .enumerate()
            .skip(from)
            .find_map(|(i, item)| match item {
                Item::Str(flag, _) => inline_script(program_name(name), flag).map(|l| (i + 1, l)),
                Item::Other(_) => None,
            })
    });
    let shell_at = |i: usize| match script {
        Some((at, Inline::Shell(Dialect::Posix))) if at == i => Shell::Posix,
        Some((at, Inline::Shell(Dialect::Pwsh))) if at == i => Shell::Pwsh,
        // `cmd /c npx -y pkg`: `cmd` runs the rest of the line, read as the vector it is.
        Some((at, Inline::Shell(Dialect::Cmd))) if at == i && i + 1 == listed => Shell::Cmd,
        Some((at, Inline::Python)) if at == i => Shell::Python,
        Some((at, Inline::JavaScript)) if at == i => Shell::Node,
        _ => Shell::Process,
    };
    for (i, arg) in args.iter().enumerate() {
        match arg {
            Cow::Borrowed(node) => c.scalar(TextKind::Command(shell_at(i)), Some(node)),
            // An item of a packed list, built for this reading only.
            Cow::Owned(node) => {
                if let Some(s) = node.as_str() {
                    c.text(TextKind::Command(shell_at(i)), s.to_string(), node.span());
                }
            }
        }
    }
    // A script past the arguments read (MCP027 says the line is cut) is read all the same,
    // up to what some system starts.
    if let Some((at, _)) = script.filter(|(at, _)| *at >= args.len())
        && let Some(Item::Str(s, span)) = list.and_then(|l| l.items().nth(at))
        && s.len() <= argv::REACH
    {
        c.text(TextKind::Command(shell_at(at)), s, span);
    }
}

/// The servers of a client configuration: under `mcpServers`, `servers`, or `mcp`.
pub(super) fn servers(root: &Node) -> &[Entry] {
    ["mcpServers", "servers"]
        .iter()
        .find_map(|k| root.value(k).filter(|v| v.entries().is_some()))
        .or_else(|| {
            let mcp = root.value("mcp")?;
            mcp.value("servers").or_else(|| mcp.value("mcpServers"))
        })
        .and_then(Node::as_map)
        .unwrap_or_default()
}
