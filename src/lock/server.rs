//! MCP servers as recorded. An entry of a client configuration: its transport, command,
//! arguments, URL, working folder, the package its launcher runs (`npx -y @acme/x@1.2.0`,
//! `uvx x==1.2`, `docker run … image:tag`), the names of its environment variables and
//! headers (never their values) and any other setting. A `server.json`: its version,
//! description, each package (registry, identifier, version, transport, arguments, the names
//! of its environment variables) and each remote.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Value, json};

use super::canonical;
use super::record::{Field, Fields, Kind, Record, field, recorded};
use crate::analysis::argv;
use crate::source::{SourceFile, Span};
use crate::syntax::{Entry, Map, Node, Seq, json as json_syntax};

/// Server keys recorded as written, under their own name.
const RUN_KEYS: &[&str] = &["type", "command", "args", "url", "cwd"];
/// Server keys whose names are recorded, never their values.
const NAMED_KEYS: &[&str] = &["env", "headers"];

/// The servers of a client configuration.
pub(crate) fn client_config<'a>(file: &'a Arc<SourceFile>, each: &mut dyn FnMut(Record<'a>)) {
    let Some(root) = json_syntax::parse_jsonc_scanned(file.body(), file.bom_len).root else {
        return;
    };
    let servers = ["mcpServers", "servers"]
        .iter()
        .find_map(|k| root.value(k).filter(|n| n.entries().is_some()))
        .or_else(|| {
            root.value("mcp")
                .and_then(|m| m.value("servers"))
                .filter(|n| n.entries().is_some())
        });
    // One server at a time: a long list of servers stays packed.
    let Some(entries) = servers.and_then(Node::entries) else {
        return;
    };
    for e in entries.scan() {
        each(Record {
            kind: Kind::Server,
            file,
            name: e.key.to_string(),
            name_span: e.key_span(),
            fields: entry_fields(&e.value).sorted(),
        });
    }
}

fn entry_fields(server: &Node) -> Fields {
    let mut fields = Fields::default();
    let map = server.entries();
    // Found without building a long server's entries (its parse packs them).
    let find = |key: &str| map.and_then(|m| m.find(key));
    let command_entry = find("command");
    let command = command_entry.as_ref().and_then(|e| e.value.as_str());
    // The arguments as far as an operating system starts a command line (as `check` reads
    // them, MCP027): a list of millions was read whole, as nodes and as JSON.
    let args_entry = find("args");
    let list = args_entry.as_ref().and_then(|e| e.value.as_list());
    let argv = argv::read(command, list);
    // Recorded as written while the arguments alone fit in a command line.
    let too_long = list.is_some() && argv::read(None, list).cut.is_some();
    let own_part =
        |key: &str| RUN_KEYS.contains(&key) || NAMED_KEYS.contains(&key) || key == "description";
    let mut settings = Settings::default();
    for e in map.into_iter().flat_map(Map::scan) {
        // The one test of what is a setting: the digest of them all below asks it too.
        if !own_part(&e.key) {
            settings.add(e);
            continue;
        }
        let key = e.key.as_str();
        if key == "args" && too_long {
            fields.insert(
                key.to_string(),
                field(canonical::node_digest(&e.value), e.value.span(), false),
            );
        } else if RUN_KEYS.contains(&key) {
            fields.insert(
                key.to_string(),
                field(recorded(&e.value), e.value.span(), false),
            );
        } else if NAMED_KEYS.contains(&key) {
            fields.insert(key.to_string(), names(&e.value, e.key_span()));
        } else {
            fields.insert(
                key.to_string(),
                field(recorded(&e.value), e.value.span(), true),
            );
        }
    }
    settings.record(&mut fields, "settings/", || {
        let all = map.into_iter().flat_map(Map::sorted);
        canonical::sorted_entries_digest(all.filter(|e| !own_part(&e.key)))
    });
    let args: Vec<&Node> = argv.items.iter().map(|n| &**n).collect();
    if let Some(command) = command
        && let Some(package) = package(command, &args)
    {
        let span = package.at.map_or_else(
            || command_entry.map_or(server.span(), |e| e.value.span()),
            |n| n.span(),
        );
        fields.insert(
            "package".into(),
            field(
                json!({"registry": package.registry, "name": package.name, "version": package.version}),
                span,
                false,
            ),
        );
    }
    fields
}

/// The sorted key names of a map (an environment, headers): what a server is given, not
/// the values, which may be secrets. Read in order of key, one at a time.
fn names(node: &Node, span: Span) -> Field {
    let map = node.entries();
    let keys = map.into_iter().flat_map(Map::sorted);
    let count = map.map_or(0, Map::len);
    field(sorted_names(keys.map(KeyOf), count), span, false)
}

/// An entry read for its key alone: past [`MAX_EACH`] only the keys' hash is recorded, and
/// copying each key into a string of its own to hash it was an allocation per key.
struct KeyOf<'a>(Cow<'a, Entry>);

impl AsRef<str> for KeyOf<'_> {
    fn as_ref(&self) -> &str {
        self.0.key.as_str()
    }
}

/// The `count` sorted `names` as recorded: the list, or past [`MAX_EACH`] the hash of its
/// canonical JSON, taken as they come (400,000 names were held as JSON strings beside the
/// tree).
fn sorted_names<S: AsRef<str>>(names: impl Iterator<Item = S>, count: usize) -> Value {
    if count <= MAX_EACH {
        return json!(names.map(|n| n.as_ref().to_string()).collect::<Vec<_>>());
    }
    canonical::strings_digest(names)
}

/// A package a launcher fetches and runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Package<'n> {
    /// `npm`, `pypi` or `oci`.
    pub registry: &'static str,
    /// Its name.
    pub name: String,
    /// Its version (or tag), when the spec pins one.
    pub version: Option<String>,
    /// The argument that names it (none when the command line itself does).
    pub at: Option<&'n Node>,
}

/// Flags of `docker run` that take a value (the image is the first argument after them).
const DOCKER_VALUE_FLAGS: &[&str] = &[
    "-e",
    "--env",
    "-v",
    "--volume",
    "-p",
    "--publish",
    "--name",
    "-w",
    "--workdir",
    "--network",
    "--mount",
    "-u",
    "--user",
    "--entrypoint",
    "--env-file",
    "-l",
    "--label",
    "--platform",
    "--pull",
    "-h",
    "--hostname",
    "--add-host",
    "--cpus",
    "-m",
    "--memory",
];

/// The package `command` with `args` runs, when its launcher is one that fetches packages.
pub(crate) fn package<'n>(command: &str, args: &[&'n Node]) -> Option<Package<'n>> {
    // A command line in `command` (`npx -y pkg`): its words, then the arguments.
    let mut words: Vec<(String, Option<&'n Node>)> = command
        .split_whitespace()
        .map(|w| (w.to_string(), None))
        .collect();
    words.extend(
        args.iter()
            .filter_map(|n| n.as_str().map(|s| (s.to_string(), Some(*n)))),
    );
    let (program, rest) = words.split_first()?;
    let program = program
        .0
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .trim_end_matches(".cmd")
        .trim_end_matches(".exe");
    let (registry, rest) = match program {
        "npx" | "bunx" => ("npm", rest),
        "pnpm" | "yarn" | "npm" => {
            let (sub, rest) = rest.split_first()?;
            if !matches!(sub.0.as_str(), "dlx" | "exec" | "x") {
                return None;
            }
            ("npm", rest)
        }
        "uvx" => ("pypi", rest),
        "pipx" | "uv" => {
            let (sub, rest) = rest.split_first()?;
            match (program, sub.0.as_str()) {
                ("pipx", "run") => ("pypi", rest),
                ("uv", "tool") => {
                    let (run, rest) = rest.split_first()?;
                    (run.0 == "run").then_some(("pypi", rest))?
                }
                _ => return None,
            }
        }
        "docker" | "podman" => {
            let (sub, rest) = rest.split_first()?;
            (sub.0 == "run").then_some(("oci", rest))?
        }
        _ => return None,
    };
    let mut it = rest.iter();
    while let Some((word, node)) = it.next() {
        if let Some(value) = word
            .strip_prefix("--package=")
            .or_else(|| word.strip_prefix("--from="))
        {
            return Some(spec(registry, value, *node));
        }
        if matches!(word.as_str(), "--package" | "-p" | "--from") && registry != "oci" {
            let (value, node) = it.next()?;
            return Some(spec(registry, value, *node));
        }
        if registry == "oci" && DOCKER_VALUE_FLAGS.contains(&word.as_str()) {
            it.next();
            continue;
        }
        if word.starts_with('-') {
            continue;
        }
        return Some(spec(registry, word, *node));
    }
    None
}

/// A package spec split into name and version, as its registry writes it.
fn spec<'n>(registry: &'static str, spec: &str, at: Option<&'n Node>) -> Package<'n> {
    let (name, version) = match registry {
        "pypi" => match spec.split_once("==").or_else(|| spec.split_once('@')) {
            Some((n, v)) => (n, Some(v)),
            None => (spec, None),
        },
        "oci" => match spec.split_once('@') {
            Some((n, digest)) => (n, Some(digest)),
            // A tag follows the last `:` after the last `/` (a registry may have a port).
            None => {
                let last = spec.rfind('/').map_or(0, |i| i + 1);
                match spec[last..].rfind(':') {
                    Some(i) => (&spec[..last + i], Some(&spec[last + i + 1..])),
                    None => (spec, None),
                }
            }
        },
        _ => {
            // `@scope/name@1.2.3`: the version follows the `@` after the first character.
            let at_version = spec
                .char_indices()
                .skip(1)
                .find(|(_, c)| *c == '@')
                .map(|(i, _)| i);
            match at_version {
                Some(i) => (&spec[..i], Some(&spec[i + 1..])),
                None => (spec, None),
            }
        }
    };
    Package {
        registry,
        name: name.to_string(),
        version: version.filter(|v| !v.is_empty()).map(str::to_string),
        at,
    }
}

/// The record of a `server.json`, when it can be read and names the server.
pub(crate) fn server_json(file: &Arc<SourceFile>) -> Option<Record<'_>> {
    let root = json_syntax::parse(file.body(), file.bom_len).root?;
    let name = root.get("name")?;
    let mut fields = Fields::default();
    let mut settings = Settings::default();
    let map = root.entries();
    for e in map.into_iter().flat_map(Map::scan) {
        // The one test of what is a setting: the digest of them all below asks it too.
        if !OWN_KEYS.contains(&e.key.as_str()) {
            settings.add(e);
            continue;
        }
        match e.key.as_str() {
            "name" | "$schema" | "_meta" => {}
            "description" | "title" => {
                fields.insert(
                    e.key.to_string(),
                    field(recorded(&e.value), e.value.span(), true),
                );
            }
            "packages" | "remotes" if listed(&e.value) > MAX_EACH => {
                fields.insert(
                    e.key.to_string(),
                    field(canonical::node_digest(&e.value), e.value.span(), false),
                );
            }
            "packages" => packages(&e.value, &mut fields),
            "remotes" => {
                for (i, remote) in e
                    .value
                    .as_list()
                    .into_iter()
                    .flat_map(Seq::scan)
                    .enumerate()
                {
                    let id = remote
                        .value("url")
                        .and_then(Node::as_str)
                        .map_or_else(|| i.to_string(), str::to_string);
                    fields.insert(
                        format!("remotes/{id}"),
                        field(recorded(&remote), remote.span(), false),
                    );
                }
            }
            // Every other key is a setting, added above.
            _ => {}
        }
    }
    settings.record(&mut fields, "", || {
        let all = map.into_iter().flat_map(Map::sorted);
        canonical::sorted_entries_digest(all.filter(|e| !OWN_KEYS.contains(&e.key.as_str())))
    });
    Some(Record {
        kind: Kind::Server,
        file,
        name: name.value.as_str()?.to_string(),
        name_span: name.value.span(),
        fields: fields.sorted(),
    })
}

/// Packages, remotes, settings or names of one server recorded each on its own, at most: past
/// this they are recorded together, as one hash (no published server has more than a few; a
/// million `{}` packages took 170 times their size as fields).
const MAX_EACH: usize = 256;

/// The keys of a `server.json` recorded on their own, or not at all (its name).
const OWN_KEYS: &[&str] = &[
    "name",
    "$schema",
    "_meta",
    "description",
    "title",
    "packages",
    "remotes",
];

/// The settings a record has no part of its own for, as a server's entries are read: the
/// first few kept, all of them counted.
#[derive(Default)]
struct Settings<'n> {
    few: Vec<Cow<'n, Entry>>,
    count: usize,
    span: Option<Span>,
}

impl<'n> Settings<'n> {
    fn add(&mut self, e: Cow<'n, Entry>) {
        let span = e.key_span().join(e.value.span());
        self.span = Some(self.span.map_or(span, |s| s.join(span)));
        self.count += 1;
        if self.count <= MAX_EACH {
            self.few.push(e);
        }
    }

    /// Each setting under `prefix` and its key; past [`MAX_EACH`], one part `settings`,
    /// `all` (the hash of them all as one mapping: 400,000 keys of one server took 34 times
    /// their size as parts).
    fn record(self, fields: &mut Fields, prefix: &str, all: impl FnOnce() -> Value) {
        match self.span {
            Some(span) if self.count > MAX_EACH => {
                fields.insert("settings".into(), field(all(), span, false));
            }
            _ => {
                for e in self.few {
                    fields.insert(
                        format!("{prefix}{}", e.key),
                        field(recorded(&e.value), e.value.span(), false),
                    );
                }
            }
        }
    }
}

/// How many items `node` lists, when it is a list.
fn listed(node: &Node) -> usize {
    node.as_list().map_or(0, Seq::len)
}

/// Each package of a `server.json`, keyed `packages/REGISTRY:IDENTIFIER`: what is fetched
/// (`registryType`, `identifier`, `version`, `registryBaseUrl`), how it is run (every other
/// field but its environment) and the names of its environment variables.
fn packages(node: &Node, fields: &mut Fields) {
    const WHAT: &[&str] = &["registryType", "identifier", "version", "registryBaseUrl"];
    for (i, p) in node.as_list().into_iter().flat_map(Seq::scan).enumerate() {
        let p = &*p;
        let get = |k: &str| p.value(k).and_then(Node::as_str);
        let id = match (get("registryType"), get("identifier")) {
            (Some(r), Some(n)) => format!("{r}:{n}"),
            (None, Some(n)) => n.to_string(),
            _ => i.to_string(),
        };
        let mut what = serde_json::Map::new();
        let mut how = serde_json::Map::new();
        let mut env = Vec::new();
        for e in p.as_map().unwrap_or_default() {
            if WHAT.contains(&e.key.as_str()) {
                what.insert(e.key.to_string(), recorded(&e.value));
            } else if e.key == "environmentVariables" {
                // Read where they are: a packed variable's name is borrowed from its bytes.
                env.extend(
                    e.value
                        .as_list()
                        .into_iter()
                        .flat_map(Seq::maps)
                        .filter_map(|v| Some(v.str("name")?.0)),
                );
            } else {
                how.insert(e.key.to_string(), recorded(&e.value));
            }
        }
        env.sort_unstable();
        let at = |k: &str| p.value(k).map_or(p.span(), |n| n.span());
        let version_at = p.value("version").map_or(p.span(), |n| n.span());
        fields.insert(
            format!("packages/{id}"),
            field(Value::Object(what), version_at, false),
        );
        if !how.is_empty() {
            fields.insert(
                format!("packages/{id}/run"),
                field(Value::Object(how), p.span(), false),
            );
        }
        if !env.is_empty() {
            fields.insert(
                format!("packages/{id}/env"),
                field(
                    sorted_names(env.iter(), env.len()),
                    at("environmentVariables"),
                    false,
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::NodeKind;

    fn run(command: &str, args: &[&str]) -> Option<(&'static str, String, Option<String>)> {
        let nodes: Vec<Node> = args
            .iter()
            .map(|a| Node::new(Span::point(0), NodeKind::String((*a).into())))
            .collect();
        let refs: Vec<&Node> = nodes.iter().collect();
        package(command, &refs).map(|p| (p.registry, p.name, p.version))
    }

    #[test]
    fn launchers_name_their_package() {
        let some = |r, n: &str, v: Option<&str>| Some((r, n.to_string(), v.map(str::to_string)));
        assert_eq!(
            run("npx", &["-y", "@acme/x@1.2.0", "--flag"]),
            some("npm", "@acme/x", Some("1.2.0"))
        );
        assert_eq!(run("npx", &["-y", "@acme/x"]), some("npm", "@acme/x", None));
        assert_eq!(
            run("/usr/local/bin/npx", &["pkg@latest"]),
            some("npm", "pkg", Some("latest"))
        );
        assert_eq!(run("npx -y pkg@2", &[]), some("npm", "pkg", Some("2")));
        assert_eq!(
            run("pnpm", &["dlx", "pkg@3"]),
            some("npm", "pkg", Some("3"))
        );
        assert_eq!(
            run("uvx", &["--from", "tool==1.0", "tool-cli"]),
            some("pypi", "tool", Some("1.0"))
        );
        assert_eq!(
            run("uvx", &["mcp-server-fetch"]),
            some("pypi", "mcp-server-fetch", None)
        );
        assert_eq!(run("pipx", &["run", "x==2"]), some("pypi", "x", Some("2")));
        assert_eq!(
            run(
                "docker",
                &[
                    "run",
                    "-i",
                    "--rm",
                    "-e",
                    "TOKEN",
                    "ghcr.io:443/acme/mcp:1.4"
                ]
            ),
            some("oci", "ghcr.io:443/acme/mcp", Some("1.4"))
        );
        assert_eq!(run("node", &["server.js"]), None);
        assert_eq!(run("npm", &["run", "serve"]), None);
        assert_eq!(run("npx", &["-y"]), None);
        assert_eq!(run("npx", &["@"]), some("npm", "@", None));
        assert_eq!(run("npx", &["é@1"]), some("npm", "é", Some("1")));
    }
}
