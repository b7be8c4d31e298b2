//! `server.json`: the registry's server metadata, checked as `mcp-publisher validate` does
//! (the published schema, then the registry's own semantic checks) and as the official
//! registry does when publishing. The top-level fields are here; packages and remotes are in
//! `packages`, their arguments and inputs in `inputs`.

use std::sync::Arc;

use super::keys::REFUSED;
use super::{SHAPE, keys, packages, transport, versions};
use crate::analysis::urls::Url;
use crate::formats::fields::{ItemPaths, Lowerer, MapRef};
use crate::rules::mcp as rules;
use crate::source::{SourceFile, Span};
use crate::syntax::{Node, NodeKind};

/// Keys of the server object (the current schema, and the draft's).
const SERVER_KEYS: &[&str] = &[
    "$schema",
    "_meta",
    "name",
    "description",
    "title",
    "version",
    "websiteUrl",
    "repository",
    "icons",
    "packages",
    "remotes",
];

const REPOSITORY_KEYS: &[&str] = &["url", "source", "id", "subfolder"];
const ICON_KEYS: &[&str] = &["src", "mimeType", "sizes", "theme"];
const ICON_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/jpg",
    "image/svg+xml",
    "image/webp",
];

/// The only `_meta` key the official registry keeps, and its size limit in bytes.
const PUBLISHER_META: &str = "io.modelcontextprotocol.registry/publisher-provided";
const PUBLISHER_META_LIMIT: usize = 4096;

/// What happens to a key the schema does not define.
const UNREAD: &str = "the schema lets extra keys through, but neither the registry nor clients read them: whatever this sets has no effect";

/// What a lowered `server.json` says about itself.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(super) struct ServerJson {
    /// `name`, when it is a string.
    pub name: Option<String>,
    /// `version`, when it is a string.
    pub version: Option<String>,
    /// What the security pass reads (`texts.rs`).
    pub texts: crate::security::texts::FileTexts,
}

/// Check the root of a `server.json`.
pub(super) fn check(
    file: &Arc<SourceFile>,
    root: &Node,
) -> (ServerJson, Vec<crate::diagnostics::Diagnostic>) {
    let mut lw = Lowerer::new(file, &SHAPE).with_missing_help(missing_help);
    let mut out = ServerJson::default();
    let brace = Span::new(root.span().start, root.span().start + 1);
    if let Some(map) = lw.as_map(root, brace, "") {
        keys::unknown_keys(&mut lw, map, SERVER_KEYS, UNREAD);
        schema(&mut lw, map);
        out.name = name(&mut lw, map);
        let description = lw.required_str(map, "description", 1, 100);
        if description.is_some_and(|(d, _)| !d.is_empty() && d.trim().is_empty()) {
            blank(&mut lw, map, "description");
        }
        out.version = version(&mut lw, map);
        if lw
            .optional_str(map, "title", 1, 100)
            .is_some_and(|(t, _)| !t.is_empty() && t.trim().is_empty())
        {
            blank(&mut lw, map, "title");
        }
        if let Some(entry) = map.node.get("websiteUrl")
            && let Some((url, span)) = lw.str_value(&entry.value, "websiteUrl", 0, usize::MAX)
        {
            https_url(&mut lw, span, url, "websiteUrl");
        }
        repository(&mut lw, map);
        icons(&mut lw, map);
        meta(&mut lw, map);
        packages::packages(&mut lw, map);
        transport::remotes(&mut lw, map);
    }
    (out, lw.diags.into_vec())
}

/// What to write for a missing required field (a dotted path).
fn missing_help(path: &str, _file: &SourceFile) -> Option<String> {
    let key = path.rsplit('.').next().unwrap_or(path);
    let (example, more) = match (path, key) {
        ("name", _) => ("\"name\": \"io.github.<user>/<server>\"", ""),
        ("description", _) => (
            "\"description\": \"...\"",
            ": at most 100 characters saying what the server offers",
        ),
        ("version", _) => ("\"version\": \"1.0.0\"", ""),
        ("repository.url", _) => ("\"url\": \"https://github.com/<owner>/<repo>\"", ""),
        ("repository.source", _) => ("\"source\": \"github\"", ""),
        (_, "registryType") => (
            "\"registryType\": \"npm\"",
            " (or `pypi`, `nuget`, `oci`, `mcpb`)",
        ),
        (_, "identifier") => (
            "\"identifier\": \"...\"",
            ": the package name, image or download URL",
        ),
        (_, "transport") => ("\"transport\": {\"type\": \"stdio\"}", ""),
        (_, "type") if path.contains("Arguments") => ("\"type\": \"positional\"", " (or `named`)"),
        (_, "type") => (
            "\"type\": \"streamable-http\"",
            " (or `sse`; `stdio` for a package run locally)",
        ),
        (_, "url") => ("\"url\": \"https://...\"", ""),
        (_, "name") => ("\"name\": \"...\"", ""),
        (_, "src") => ("\"src\": \"https://.../icon.png\"", ""),
        _ => return None,
    };
    Some(format!("add `{example}`{more}"))
}

/// MCP009: `$schema`.
fn schema(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    match map.node.get("$schema") {
        None => versions::missing_schema(lw, map.node),
        Some(entry) => {
            if let Some((url, _)) = lw.str_value(&entry.value, "$schema", 0, usize::MAX) {
                versions::check_schema(lw, &entry.value, url);
            }
        }
    }
}

/// MCP001, MCP004, MCP006: `name`, reverse-DNS `namespace/name`.
fn name(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> Option<String> {
    let (name, span) = lw.required_str(map, "name", 3, 200)?;
    if let Some(problem) = name_problem(name) {
        let d = lw
            .diag(
                &rules::INVALID_SERVER_NAME,
                span,
                format!("server name `{name}` is not `namespace/name`: {problem}"),
            )
            .label("not a registry server name")
            .note(REFUSED)
            .help("write the reverse-DNS namespace you can prove you own, a `/`, then the server's name: `io.github.<user>/weather` for a GitHub login, `com.example/weather` for example.com");
        lw.push(d);
    }
    Some(name.to_string())
}

/// Why `name` breaks the registry's name rules, if it does.
fn name_problem(name: &str) -> Option<String> {
    let slashes = name.matches('/').count();
    if slashes == 0 {
        return Some("it has no `/` between the namespace and the name".into());
    }
    if slashes > 1 {
        return Some(format!(
            "it has {slashes} `/`; exactly one separates the namespace from the name"
        ));
    }
    let (namespace, server) = name.split_once('/')?;
    let part = |p: &str, what: &str, extra: &[char]| -> Option<String> {
        if p.is_empty() {
            return Some(format!("the {what} is empty"));
        }
        if let Some(c) = p
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '.' || *c == '-' || extra.contains(c)))
        {
            return Some(format!("the {what} contains `{c}`"));
        }
        let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        if !edge(p.chars().next()) || !edge(p.chars().last()) {
            return Some(format!(
                "the {what} must start and end with a letter or digit"
            ));
        }
        None
    };
    part(namespace, "namespace", &[])
        .or_else(|| {
            // Reverse DNS: every dot-separated label is a DNS label.
            namespace
                .split('.')
                .find(|l| l.is_empty() || l.starts_with('-') || l.ends_with('-'))
                .map(|l| {
                    if l.is_empty() {
                        "the namespace has an empty label (`..`)".to_string()
                    } else {
                        format!("the namespace label `{l}` starts or ends with `-`")
                    }
                })
        })
        .or_else(|| part(server, "name after `/`", &['_']))
}

/// MCP001, MCP004, MCP007, MCP008: the server's `version`.
fn version(lw: &mut Lowerer<'_>, map: MapRef<'_>) -> Option<String> {
    let (version, span) = lw.required_str(map, "version", 0, 255)?;
    if let Some(why) = versions::floating(version) {
        let d = lw
            .diag(
                &rules::FLOATING_VERSION,
                span,
                format!("server version `{version}` is not one specific version: {why}"),
            )
            .label("not a specific version")
            .note(REFUSED)
            .help("write the exact version this server.json describes, such as `1.0.2`");
        lw.push(d);
    } else if !version.is_empty()
        && !versions::is_semver(version)
        && !versions::is_release_placeholder(version)
    {
        let bare = version.strip_prefix('v').filter(|v| versions::is_semver(v));
        let d = lw
            .diag(
                &rules::NON_SEMVER_VERSION,
                span,
                format!("server version `{version}` does not follow semantic versioning"),
            )
            .label("not MAJOR.MINOR.PATCH")
            .note("the registry accepts it, but decides which version is the latest by semantic versioning and may order this one wrongly")
            .help(match bare {
                Some(v) => format!("write `{v}`, without the `v`"),
                None => "write MAJOR.MINOR.PATCH, such as `1.0.2` or `2.1.0-alpha`".into(),
            })
            .maybe_fix(bare.and_then(|v| {
                crate::formats::fields::replace_exact(
                    lw.file,
                    span,
                    version,
                    v,
                    crate::diagnostics::Applicability::Unsafe,
                )
            }));
        lw.push(d);
    }
    Some(version.to_string())
}

/// MCP003: a text field that holds only whitespace.
fn blank(lw: &mut Lowerer<'_>, map: MapRef<'_>, key: &str) {
    let Some(entry) = map.node.get(key) else {
        return;
    };
    let d = lw
        .diag(
            &rules::INVALID_VALUE,
            entry.value.span(),
            format!("`{key}` holds only whitespace"),
        )
        .label("blank")
        .note(REFUSED)
        .help(format!("write the {key}, or leave the key out"));
    lw.push(d);
}

/// MCP003, MCP011: a URL that must be absolute and HTTPS (`websiteUrl`, an icon's `src`).
pub(super) fn https_url(lw: &mut Lowerer<'_>, span: Span, url: &str, path: &str) {
    let (rule, message, label) = match Url::parse(url) {
        None => (
            &rules::INVALID_VALUE,
            format!("`{path}` must be an absolute URL, found `{url}`"),
            "not an absolute URL",
        ),
        Some(u) if !u.is_https() => (
            &rules::INSECURE_SERVER_URL,
            format!("`{path}` must use `https`, found `{}://`", u.scheme),
            "not HTTPS",
        ),
        Some(_) => return,
    };
    let fix = url
        .strip_prefix("http://")
        .filter(|_| std::ptr::eq(rule, &rules::INSECURE_SERVER_URL))
        .and_then(|rest| {
            crate::formats::fields::replace_exact(
                lw.file,
                span,
                url,
                &format!("https://{rest}"),
                crate::diagnostics::Applicability::Unsafe,
            )
        });
    let d = lw
        .diag(rule, span, message)
        .label(label)
        .note(REFUSED)
        .help("write the full `https://` URL")
        .maybe_fix(fix);
    lw.push(d);
}

/// `repository`: `url` and `source` required; the registry checks the URL against the
/// source (GitHub or GitLab) and that `subfolder` is a clean relative path.
fn repository(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(entry) = map.node.get("repository") else {
        return;
    };
    let Some(repo) = lw.as_map(&entry.value, entry.key_span(), "repository") else {
        return;
    };
    keys::unknown_keys(lw, repo, REPOSITORY_KEYS, UNREAD);
    let url = lw.required(repo, "url").map(|e| &e.value);
    let url = url.and_then(|n| lw.str_value(n, "repository.url", 0, usize::MAX));
    let source = lw
        .required(repo, "source")
        .and_then(|e| lw.str_value(&e.value, "repository.source", 0, usize::MAX));
    lw.optional_str(repo, "id", 0, usize::MAX);
    if let (Some((url, span)), Some((source, source_span))) = (url, source)
        && !(url.is_empty() && source.is_empty())
    {
        let problem = match source {
            "github" => (!repository_url(url, "github.com", false))
                .then_some("a GitHub repository URL is `https://github.com/<owner>/<repo>`"),
            "gitlab" => (!repository_url(url, "gitlab.com", true)).then_some(
                "a GitLab repository URL is `https://gitlab.com/<group>[/<subgroup>…]/<repo>`",
            ),
            _ => {
                let d = lw
                    .diag(
                        &rules::INVALID_VALUE,
                        source_span,
                        format!("`repository.source` `{source}` is not one the registry can check"),
                    )
                    .label("not `github` or `gitlab`")
                    .note(REFUSED)
                    .help("write `github` or `gitlab` (the registry checks the URL against it)");
                lw.push(d);
                None
            }
        };
        if let Some(problem) = problem {
            let d = lw
                .diag(
                    &rules::INVALID_VALUE,
                    span,
                    format!("`repository.url` `{url}` is not a {source} repository URL"),
                )
                .label("not a repository URL")
                .note(REFUSED)
                .help(problem);
            lw.push(d);
        }
    }
    if let Some((sub, span)) = lw.optional_str(repo, "subfolder", 0, usize::MAX)
        && let Some(problem) = subfolder_problem(sub)
    {
        let d = lw
            .diag(
                &rules::INVALID_VALUE,
                span,
                format!("`repository.subfolder` `{sub}` is not a clean relative path: {problem}"),
            )
            .label("not a clean relative path")
            .note(REFUSED)
            .help("write the path from the repository root, such as `src/weather`, without a leading or trailing `/`");
        lw.push(d);
    }
}

/// `https://[www.]<host>/<owner>/<repo>` (GitLab: any depth of groups), `/` optional at the end.
fn repository_url(url: &str, host: &str, nested: bool) -> bool {
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return false;
    };
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let Some(path) = rest.strip_prefix(host).and_then(|r| r.strip_prefix('/')) else {
        return false;
    };
    let path = path.strip_suffix('/').unwrap_or(path);
    let parts: Vec<&str> = path.split('/').collect();
    let segment_ok = |p: &&str| {
        !p.is_empty()
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    };
    (parts.len() == 2 || nested && parts.len() > 2) && parts.iter().all(segment_ok)
}

/// Why a subfolder is not a clean relative path, if it is not.
fn subfolder_problem(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return None;
    }
    if crate::analysis::paths::is_absolute_anywhere(path) {
        return Some("it is absolute");
    }
    if path.ends_with('/') {
        return Some("it ends with `/`");
    }
    if !path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
    {
        return Some("only letters, digits, `-`, `_`, `.` and `/` are allowed");
    }
    path.split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
        .then_some("it has an empty, `.` or `..` segment")
}

/// `icons`: each needs an HTTPS `src` (at most 255 characters), a known MIME type, sizes as
/// `WxH` or `any`, and a theme of `light` or `dark`.
fn icons(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(entry) = map.node.get("icons") else {
        return;
    };
    let Some(items) = entry.value.as_list() else {
        lw.wrong_type(&entry.value, "icons", "a list of icons");
        return;
    };
    // An item at a time: a long list of small icons is held packed.
    let mut paths = ItemPaths::new("icons");
    for (i, item) in items.scan().enumerate() {
        let item = &*item;
        let path = paths.at(i);
        let brace = Span::new(item.span().start, item.span().start + 1);
        let Some(icon) = lw.as_map(item, brace, path) else {
            continue;
        };
        keys::unknown_keys(lw, icon, ICON_KEYS, UNREAD);
        if let Some((src, span)) = lw
            .required(icon, "src")
            .and_then(|e| lw.str_value(&e.value, &format!("{path}.src"), 0, 255))
        {
            https_url(lw, span, src, &format!("{path}.src"));
        }
        lw.optional_enum(icon, "mimeType", ICON_TYPES);
        lw.optional_enum(icon, "theme", &["light", "dark"]);
        if let Some(sizes) = icon.node.get("sizes") {
            for (size, span) in lw.str_list(&sizes.value, &format!("{path}.sizes"), false) {
                if !is_icon_size(size) {
                    let d = lw
                        .diag(
                            &rules::INVALID_VALUE,
                            span,
                            format!("icon size `{size}` is not `WxH` or `any`"),
                        )
                        .label("not `WxH` or `any`")
                        .note(REFUSED)
                        .help("write sizes such as `48x48`, or `any` for a scalable icon");
                    lw.push(d);
                }
            }
        }
    }
}

/// `48x48` or `any`.
fn is_icon_size(size: &str) -> bool {
    size == "any"
        || size.split_once('x').is_some_and(|(w, h)| {
            [w, h]
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// `_meta`: the registry keeps only its publisher-provided key (at most 4 KB of JSON).
fn meta(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(entry) = map.node.get("_meta") else {
        return;
    };
    let Some(meta) = lw.as_map(&entry.value, entry.key_span(), "_meta") else {
        return;
    };
    // An entry at a time: a long mapping is held packed.
    let Some(entries) = meta.node.entries() else {
        return;
    };
    for e in entries.scan() {
        if e.key == PUBLISHER_META {
            if !matches!(e.value.kind, NodeKind::Map(_)) {
                lw.wrong_type(&e.value, &format!("_meta.{PUBLISHER_META}"), "an object");
                continue;
            }
            let size = e.value.to_json().to_string().len();
            if size > PUBLISHER_META_LIMIT {
                let d = lw
                    .diag(
                        &rules::FIELD_LENGTH,
                        e.key_span(),
                        format!("the publisher-provided `_meta` is {size} bytes of JSON; the registry allows {PUBLISHER_META_LIMIT}"),
                    )
                    .label("over 4 KB")
                    .note("publishing fails with an error giving the size")
                    .help("keep only what downstream registries need, or link to it");
                lw.push(d);
            }
            continue;
        }
        let d = lw
            .diag(
                &rules::DROPPED_META,
                e.key_span(),
                format!("`_meta` key `{}` is dropped when the server is published", e.key),
            )
            .label("dropped by the official registry")
            .note(format!("the official registry keeps only `{PUBLISHER_META}` and silently drops every other `_meta` key"))
            .help(format!("move the data under `\"{PUBLISHER_META}\"`"));
        lw.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_names() {
        assert!(name_problem("io.github.user/weather").is_none());
        assert!(name_problem("com.example/a_b.c-d").is_none());
        assert!(name_problem("no-namespace-separator").is_some());
        assert!(name_problem("a/b/c").is_some());
        assert!(name_problem("-io.x/w").is_some());
        assert!(name_problem("io.x/w_").is_some());
        assert!(name_problem("io_x/w").is_some());
        assert!(name_problem("io..github/w").is_some());
        assert!(name_problem("io.-x/w").is_some());
    }

    #[test]
    fn repository_urls_and_subfolders() {
        assert!(repository_url(
            "https://github.com/o/r",
            "github.com",
            false
        ));
        assert!(repository_url(
            "https://www.github.com/o/r/",
            "github.com",
            false
        ));
        assert!(!repository_url("https://github.com/o", "github.com", false));
        assert!(!repository_url(
            "https://github.com/o/r/tree/main",
            "github.com",
            false
        ));
        assert!(repository_url(
            "https://gitlab.com/g/s/r",
            "gitlab.com",
            true
        ));
        assert!(subfolder_problem("src/weather").is_none());
        for bad in ["/src", "src/", "a//b", "../x", "a b"] {
            assert!(subfolder_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn icon_sizes() {
        assert!(is_icon_size("48x48") && is_icon_size("any"));
        assert!(!is_icon_size("48") && !is_icon_size("x48") && !is_icon_size("48X48"));
    }
}
