//! `packages`: how a client installs and runs the server locally (registry, identifier,
//! version, arguments, environment, post-install steps), as the schema, the registry's
//! semantic checks and the official registry's publishing rules require. Transports and
//! `remotes` are in `transport.rs`.

use super::inputs::{self, Declared, duplicates};
use super::keys::{REFUSED, UNREAD_BY_CLIENTS as UNREAD};
use super::{keys, transport, versions};
use crate::analysis::names::did_you_mean;
use crate::analysis::urls::Url;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::{ItemPaths, Lowerer, MapRef, replace_scalar};
use crate::rules::mcp as rules;
use crate::source::Span;
use crate::syntax::Seq;

const PACKAGE_KEYS: &[&str] = &[
    "registryType",
    "registryBaseUrl",
    "identifier",
    "version",
    "fileSha256",
    "runtimeHint",
    "transport",
    "runtimeArguments",
    "packageArguments",
    "environmentVariables",
    "postInstallInstructions",
];

const POST_INSTALL_KEYS: &[&str] = &["description", "command", "documentation", "optional"];

/// Registry types the official registry publishes (its publishing guide and schema examples).
const REGISTRY_TYPES: &[&str] = &["npm", "pypi", "nuget", "oci", "mcpb", "maven", "cargo"];

/// Registry types whose packages are fetched by name and version.
const VERSIONED_TYPES: &[&str] = &["npm", "pypi", "nuget", "maven", "cargo"];

/// The registry base URLs the official registry accepts, per registry type.
const BASE_URLS: &[(&str, &[&str])] = &[
    ("npm", &["https://registry.npmjs.org"]),
    ("pypi", &["https://pypi.org"]),
    (
        "nuget",
        &[
            "https://api.nuget.org/v3/index.json",
            "https://api.nuget.org",
        ],
    ),
];

/// Hosts of OCI images the official registry accepts (`*.` matches any subdomain).
const OCI_HOSTS: &[&str] = &[
    "docker.io",
    "ghcr.io",
    "*.pkg.dev",
    "*.azurecr.io",
    "mcr.microsoft.com",
];

/// Hosts of MCPB release downloads the official registry accepts.
const MCPB_HOSTS: &[&str] = &["github.com", "gitlab.com"];

/// What the official registry does when a publishing rule fails.
const NOT_PUBLISHED: &str =
    "the file is valid server.json, but the official registry refuses to publish it";

/// Check every package.
pub(super) fn packages(lw: &mut Lowerer<'_>, map: MapRef<'_>) {
    let Some(list) = inputs::seq(lw, map, "packages") else {
        return;
    };
    let mut paths = ItemPaths::new("packages");
    for (i, node) in list.scan().enumerate() {
        let path = paths.at(i);
        if let Some(pkg) = inputs::item(lw, &node, path) {
            package(lw, pkg, path);
        }
    }
}

fn package(lw: &mut Lowerer<'_>, pkg: MapRef<'_>, path: &str) {
    keys::unknown_keys(lw, pkg, PACKAGE_KEYS, UNREAD);
    let kind = lw
        .required(pkg, "registryType")
        .and_then(|e| lw.str_value(&e.value, &format!("{path}.registryType"), 0, usize::MAX));
    let identifier = lw
        .required(pkg, "identifier")
        .and_then(|e| lw.str_value(&e.value, &format!("{path}.identifier"), 0, usize::MAX));
    let version = lw.optional_str(pkg, "version", 1, 255);
    let base = lw.optional_str(pkg, "registryBaseUrl", 0, usize::MAX);
    let hash = lw.optional_str(pkg, "fileSha256", 0, usize::MAX);
    let hint = lw.optional_str(pkg, "runtimeHint", 0, usize::MAX);
    if let Some((id, span)) = identifier
        && id.contains(' ')
    {
        let d = lw
            .diag(
                &rules::INVALID_VALUE,
                span,
                format!("package identifier `{id}` contains a space"),
            )
            .label("space in the identifier")
            .note(REFUSED)
            .help("write the package name or download URL alone");
        lw.push(d);
    }
    if let Some((v, span)) = version
        && let Some(why) = versions::floating(v)
    {
        let d = lw
            .diag(
                &rules::FLOATING_VERSION,
                span,
                format!("package version `{v}` is not one specific version: {why}"),
            )
            .label("not a specific version")
            .note(REFUSED)
            .help(
                "write the exact version of the package this server release runs, such as `1.0.2`",
            );
        lw.push(d);
    }
    if let Some((h, span)) = hash
        && !(h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
    {
        let d = lw
            .diag(
                &rules::INVALID_VALUE,
                span,
                "`fileSha256` is not 64 lowercase hexadecimal digits",
            )
            .label("not a SHA-256 in lowercase hex")
            .note(REFUSED)
            .help("write the output of `sha256sum` (or `shasum -a 256`) on the package file");
        lw.push(d);
    }
    if let Some((kind, kind_span)) = kind {
        registry_rules(lw, pkg, path, (kind, kind_span), identifier, version, base);
        if kind == "mcpb" && hash.is_none() && pkg.node.get("fileSha256").is_none() {
            let d = lw
                .diag(
                    &rules::MISSING_FILE_HASH,
                    pkg.anchor,
                    format!("MCPB package `{path}` has no `fileSha256`"),
                )
                .label("no `fileSha256`")
                .note("the schema requires a hash for MCPB packages: clients verify the downloaded file against it before running it")
                .help("add `\"fileSha256\": \"<sha256 of the .mcpb file>\"`");
            lw.push(d);
        }
    }
    let runtime_args = inputs::seq(lw, pkg, "runtimeArguments");
    if runtime_args.is_some_and(|args| !args.is_empty())
        && hint.is_none()
        && pkg.node.get("runtimeHint").is_none()
    {
        let at = pkg
            .node
            .get("runtimeArguments")
            .map_or(pkg.anchor, |e| e.key_span());
        let d = lw
            .diag(
                &rules::MISSING_RUNTIME_HINT,
                at,
                format!("`{path}` gives `runtimeArguments` but no `runtimeHint`"),
            )
            .label("for which runtime?")
            .note("the arguments are for the runtime command (`npx`, `uvx`, `docker`), which clients learn from `runtimeHint`")
            .help("add `\"runtimeHint\": \"npx\"` (or the runtime these arguments are for)");
        lw.push(d);
    }
    let mut declared: Vec<Declared> = Vec::new();
    // Named in messages about its arguments and variables only: not formatted for the
    // millions of packages that have none.
    let has_inputs = [
        "runtimeArguments",
        "packageArguments",
        "environmentVariables",
    ]
    .iter()
    .any(|key| pkg.node.get(key).is_some());
    let owner = if has_inputs {
        format!("`{path}`")
    } else {
        String::new()
    };
    let package_args = inputs::seq(lw, pkg, "packageArguments");
    for (key, list) in [
        ("runtimeArguments", runtime_args),
        ("packageArguments", package_args),
    ] {
        let mut paths = ItemPaths::of(path, key);
        for (i, node) in list.into_iter().flat_map(Seq::scan).enumerate() {
            let node = &*node;
            declared.extend(inputs::argument(lw, node, paths.at(i), &owner));
        }
    }
    let mut env: Vec<Declared> = Vec::new();
    let mut paths = ItemPaths::of(path, "environmentVariables");
    for (i, node) in inputs::items(lw, pkg, "environmentVariables").enumerate() {
        let node = &*node;
        let item = paths.at(i);
        if let Some(name) = inputs::key_value(lw, node, item, "environment variable", &owner) {
            env.push(name);
        }
    }
    duplicates(lw, &env, "environment variable", false);
    declared.extend(env);
    post_install(lw, pkg, path);
    if let Some(entry) = pkg.node.get("transport") {
        let tpath = format!("{path}.transport");
        if let Some(t) = lw.as_map(&entry.value, entry.key_span(), &tpath) {
            transport::transport(lw, t, &tpath, &declared, false);
        }
    } else {
        lw.required(pkg, "transport");
    }
}

/// MCP014: what the official registry requires of each registry type.
fn registry_rules(
    lw: &mut Lowerer<'_>,
    pkg: MapRef<'_>,
    path: &str,
    (kind, kind_span): (&str, Span),
    identifier: Option<(&str, Span)>,
    version: Option<(&str, Span)>,
    base: Option<(&str, Span)>,
) {
    let report = |lw: &mut Lowerer<'_>, span: Span, message: String, help: String| {
        let d = lw
            .diag(&rules::REGISTRY_REQUIREMENT, span, message)
            .note(NOT_PUBLISHED)
            .help(help);
        lw.push(d);
    };
    if !REGISTRY_TYPES.contains(&kind) {
        let hint = did_you_mean(kind, REGISTRY_TYPES.iter().copied()).or(match kind {
            "docker" => Some("oci"),
            "pip" | "python" => Some("pypi"),
            "node" => Some("npm"),
            _ => None,
        });
        let d = lw
            .diag(
                &rules::REGISTRY_REQUIREMENT,
                kind_span,
                format!("registry type `{kind}` is not one the official registry publishes"),
            )
            .note(NOT_PUBLISHED)
            .did_you_mean_or(
                hint.map(|h| {
                    DidYouMean::new(
                        h,
                        replace_scalar(lw.file, kind_span, h, Applicability::Safe),
                    )
                }),
                format!("use one of {}", quoted(REGISTRY_TYPES)),
            );
        lw.push(d);
        return;
    }
    if VERSIONED_TYPES.contains(&kind) && pkg.node.get("version").is_none() {
        let d = lw
            .diag(
                &rules::MISSING_REQUIRED_FIELD,
                pkg.anchor,
                format!("{kind} package `{path}` has no `version`"),
            )
            .label("no `version`")
            .note(format!("registries look a {kind} package up by name and version: without one the registry cannot verify it and clients cannot install this release"))
            .help("add `\"version\": \"...\"`, the exact package version this server release runs");
        lw.push(d);
    }
    if kind == "npm"
        && let Some((v, span)) = version
        && !versions::is_semver(v)
        && !versions::is_release_placeholder(v)
        && versions::floating(v).is_none()
    {
        let d = lw
            .diag(
                &rules::INVALID_VALUE,
                span,
                format!("npm package version `{v}` is not a semantic version"),
            )
            .label("not MAJOR.MINOR.PATCH")
            .note("every npm version is a semantic version: no npm release is called this")
            .help("write the exact version from package.json, such as `1.0.2`");
        lw.push(d);
    }
    if matches!(kind, "oci" | "mcpb")
        && let Some((url, span)) = base
    {
        report(
            lw,
            span,
            format!("{kind} packages take no `registryBaseUrl` (found `{url}`)"),
            if kind == "oci" {
                "remove it: an OCI identifier names its registry itself (`ghcr.io/owner/image:tag`)"
                    .into()
            } else {
                "remove it: an MCPB identifier is the download URL itself".into()
            },
        );
    }
    if let Some((url, span)) = base
        && let Some((_, allowed)) = BASE_URLS.iter().find(|(k, _)| *k == kind)
        && !allowed.contains(&url.trim_end_matches('/'))
    {
        report(
            lw,
            span,
            format!("registry base URL `{url}` is not accepted for {kind} packages"),
            format!(
                "use {} or leave `registryBaseUrl` out (private registries and mirrors are not accepted)",
                quoted(allowed)
            ),
        );
    }
    let Some((id, id_span)) = identifier else {
        return;
    };
    match kind {
        "mcpb" => {
            let problem = match Url::parse(id) {
                None => Some("it is not a download URL".to_string()),
                Some(u) if !u.is_https() => Some("it is not HTTPS".to_string()),
                Some(u) if !MCPB_HOSTS.contains(&u.host.trim_start_matches("www.")) => {
                    Some(format!("`{}` is not GitHub or GitLab releases", u.host))
                }
                Some(_) if !id.to_ascii_lowercase().contains("mcp") => {
                    Some("the URL does not contain `mcp`".to_string())
                }
                Some(_) => None,
            };
            if let Some(problem) = problem {
                report(
                    lw,
                    id_span,
                    format!("MCPB package URL `{id}` is not accepted: {problem}"),
                    "publish the .mcpb file as a GitHub or GitLab release asset whose URL contains `mcp`, and give its `https://` URL".into(),
                );
            }
        }
        "oci" => {
            let first = id.split('/').next().unwrap_or("");
            let host = if id.contains('/') && (first.contains('.') || first.contains(':')) {
                first.split(':').next().unwrap_or(first)
            } else {
                "docker.io"
            };
            let accepted = OCI_HOSTS.iter().any(|h| match h.strip_prefix("*.") {
                Some(suffix) => host.ends_with(&format!(".{suffix}")),
                None => host == *h || host == "registry-1.docker.io" && *h == "docker.io",
            });
            if !accepted {
                report(
                    lw,
                    id_span,
                    format!(
                        "OCI image `{id}` is on `{host}`, a registry the official registry does not accept"
                    ),
                    format!("push the image to one of {}", quoted(OCI_HOSTS)),
                );
            }
        }
        _ => {}
    }
}

/// `postInstallInstructions` (schema draft): each needs a `description`.
fn post_install(lw: &mut Lowerer<'_>, pkg: MapRef<'_>, path: &str) {
    let mut paths = ItemPaths::of(path, "postInstallInstructions");
    for (i, node) in inputs::items(lw, pkg, "postInstallInstructions").enumerate() {
        let node = &*node;
        let item = paths.at(i);
        let Some(step) = inputs::item(lw, node, item) else {
            continue;
        };
        keys::unknown_keys(lw, step, POST_INSTALL_KEYS, UNREAD);
        lw.required_str(step, "description", 0, usize::MAX);
        lw.optional_str(step, "command", 0, usize::MAX);
        lw.optional_bool(step, "optional");
        if let Some((url, span)) = lw.optional_str(step, "documentation", 0, usize::MAX)
            && Url::parse(url).is_none()
        {
            let d = lw
                .diag(
                    &rules::INVALID_VALUE,
                    span,
                    format!("`{item}.documentation` must be an absolute URL, found `{url}`"),
                )
                .label("not an absolute URL")
                .note(REFUSED)
                .help("write the full `https://` URL of the instructions");
            lw.push(d);
        }
    }
}

fn quoted(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
