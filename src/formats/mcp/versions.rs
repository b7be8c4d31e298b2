//! Versions in `server.json`: the server's and each package's (one specific version, never
//! `latest` or a range; semantic versioning advised for the server), and the `$schema` the
//! file declares.

use crate::diagnostics::{Applicability, Fix};
use crate::formats::fields::{Lowerer, replace_exact};
use crate::rules::mcp as rules;
use crate::syntax::Node;

/// Where published server.json schemas live; the date names the version.
const SCHEMA_PREFIX: &str = "https://static.modelcontextprotocol.io/schemas/";
const SCHEMA_SUFFIX: &str = "/server.schema.json";

pub(super) use crate::runtimes::mcp_registry::CURRENT_SCHEMA;
use crate::runtimes::mcp_registry::SCHEMAS;

/// The `$schema` URL of the current version.
pub(super) fn current_schema_url() -> String {
    format!("{SCHEMA_PREFIX}{CURRENT_SCHEMA}{SCHEMA_SUFFIX}")
}

/// What a `$schema` value is.
#[derive(Debug, PartialEq, Eq)]
enum SchemaRef<'s> {
    /// The current published version.
    Current,
    /// An older published version (its date).
    Older(&'s str),
    /// A dated URL of a version not published when toolc was built.
    UnknownVersion(&'s str),
    /// Some other URL (the repository's draft, a copy).
    Unpublished,
}

fn schema_ref(url: &str) -> SchemaRef<'_> {
    let Some(date) = url
        .strip_prefix(SCHEMA_PREFIX)
        .and_then(|rest| rest.strip_suffix(SCHEMA_SUFFIX))
    else {
        return SchemaRef::Unpublished;
    };
    if date == CURRENT_SCHEMA {
        SchemaRef::Current
    } else if SCHEMAS.iter().any(|s| s.when == date) {
        SchemaRef::Older(date)
    } else {
        SchemaRef::UnknownVersion(date)
    }
}

/// MCP009 on a `$schema` string value.
pub(super) fn check_schema(lw: &mut Lowerer<'_>, node: &Node, url: &str) {
    let current = current_schema_url();
    let (message, label, note) = match schema_ref(url) {
        SchemaRef::Current => return,
        SchemaRef::Older(date) => (
            format!("`$schema` names the {date} schema; the current one is {CURRENT_SCHEMA}"),
            "older schema version",
            "`mcp-publisher validate` warns about a schema that is not the current one, and fields added since are not checked against it; the registry's changelog lists what changed",
        ),
        SchemaRef::UnknownVersion(date) => (
            format!(
                "`$schema` names a schema version toolc does not know ({date}); the newest it knows is {CURRENT_SCHEMA}"
            ),
            "unknown schema version",
            "toolc checks the file against the rules of the schema versions it knows",
        ),
        SchemaRef::Unpublished => (
            "`$schema` is not a published server.json schema".to_string(),
            "not a published schema URL",
            "the registry accepts only the dated schemas published under static.modelcontextprotocol.io",
        ),
    };
    // Another version may need other changes than the URL: the fix is for review.
    let fix = replace_exact(lw.file, node.span(), url, &current, Applicability::Unsafe);
    let d = lw
        .diag(&rules::OUTDATED_SERVER_SCHEMA, node.span(), message)
        .label(label)
        .note(note)
        .help(format!("use `\"$schema\": \"{current}\"`"))
        .maybe_fix(fix);
    lw.push(d);
}

/// MCP001 on a file without `$schema`, which `mcp-publisher` requires (the schema does
/// not): the fix writes the current one before the first key.
pub(super) fn missing_schema(lw: &mut Lowerer<'_>, root: &Node) {
    let brace = crate::source::Span::new(root.span().start, root.span().start + 1);
    let fix = root
        .as_map()
        .and_then(|entries| entries.first())
        .map(|first| {
            let file = lw.file;
            let line_start = file.text[..first.key_span().start]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let indent = &file.text[line_start..first.key_span().start];
            let indent = if indent.trim().is_empty() {
                indent
            } else {
                " "
            };
            let sep = if line_start > root.span().start {
                format!("\n{indent}")
            } else {
                " ".to_string()
            };
            Fix::safe(
                crate::source::Span::point(first.key_span().start),
                format!("\"$schema\": \"{}\",{sep}", current_schema_url()),
            )
            .with_message("add the current `$schema`")
        });
    let d = lw
        .diag(
            &rules::MISSING_REQUIRED_FIELD,
            brace,
            "required field `$schema` is missing",
        )
        .label("no `$schema`")
        .note("`mcp-publisher` refuses a server.json without `$schema` (\"$schema field is required\"), although the schema itself lists it as optional; editors cannot check the file without it either")
        .help(format!("add `\"$schema\": \"{}\"`", current_schema_url()))
        .maybe_fix(fix);
    lw.push(d);
}

/// A placeholder a release pipeline fills in before publishing (`${VERSION}`,
/// `{{VERSION}}`, `<<Version>>`): checked once rendered, not in the source.
pub(super) fn is_release_placeholder(value: &str) -> bool {
    let inner = value
        .strip_prefix("${")
        .and_then(|v| v.strip_suffix('}'))
        .or_else(|| value.strip_prefix("{{").and_then(|v| v.strip_suffix("}}")))
        .or_else(|| value.strip_prefix("<<").and_then(|v| v.strip_suffix(">>")));
    inner.is_some_and(|i| {
        let i = i.trim();
        !i.is_empty()
            && i.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    })
}

/// Why a version is not one specific version: `latest`, or the kind of range it is.
pub(super) fn floating(version: &str) -> Option<&'static str> {
    let v = version.trim();
    if v == "latest" {
        return Some("`latest` is a tag that moves, not a version");
    }
    if v.is_empty() {
        return None;
    }
    if is_release_placeholder(v) {
        return None;
    }
    // NuGet intervals: `[1.0,2.0)`, `(,1.0]`.
    if v.starts_with(['[', '(']) && v.ends_with([']', ')']) && v.contains(',') {
        return Some("an interval (`[1.0,2.0)`) makes it a range");
    }
    // Requirement lists: `>=1.0,<2.0` (PyPI), `>=1.2, <2` (Cargo).
    if v.contains(',') && v.starts_with(['>', '<', '=', '~', '!', '^']) {
        return Some("a list of requirements makes it a range");
    }
    let comparator = ["^", "~=", "~", ">=", "<=", "!=", "==", ">", "<", "="]
        .iter()
        .find_map(|op| v.strip_prefix(op));
    if let Some(rest) = comparator
        && is_plain_version(rest.trim_start())
    {
        return Some("a comparator (`^`, `~`, `>=`, …) makes it a range");
    }
    if let Some((a, b)) = v.split_once(" - ")
        && is_plain_version(a.trim())
        && is_plain_version(b.trim())
    {
        return Some("`A - B` is a range");
    }
    if v.contains("||") && v.split("||").all(|p| is_plain_version(p.trim())) {
        return Some("`||` makes it a set of versions");
    }
    if is_wildcard_version(v) {
        return Some("a wildcard (`x`, `*`) makes it a range");
    }
    None
}

/// `1`, `v1.2`, `1.2.3`, `1.2.3.4`, each with an optional `-pre` suffix.
fn is_plain_version(s: &str) -> bool {
    let s = s.strip_prefix('v').unwrap_or(s);
    let core = s.split_once('-').map_or(s, |(c, _)| c);
    let parts: Vec<&str> = core.split('.').collect();
    (1..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// `1.x`, `1.2.*`, `X.1`: dotted parts of digits or wildcards, at least one wildcard.
fn is_wildcard_version(s: &str) -> bool {
    let s = s.strip_prefix('v').unwrap_or(s);
    let core = s.split_once('-').map_or(s, |(c, _)| c);
    let parts: Vec<&str> = core.split('.').collect();
    let wild = |p: &str| matches!(p, "x" | "X" | "*");
    (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| wild(p) || !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && parts.iter().any(|p| wild(p))
}

/// Semantic Versioning 2.0.0: `MAJOR.MINOR.PATCH`, numbers without leading zeros, optional
/// `-prerelease` and `+build`.
pub(super) fn is_semver(v: &str) -> bool {
    let (rest, build) = match v.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (v, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    let number = |p: &str| {
        !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && (p == "0" || !p.starts_with('0'))
    };
    let ident =
        |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| number(p))
        && pre.is_none_or(|p| {
            p.split('.')
                .all(|i| ident(i) && (!i.bytes().all(|b| b.is_ascii_digit()) || number(i)))
        })
        && build.is_none_or(|b| b.split('.').all(ident))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_urls() {
        assert_eq!(schema_ref(&current_schema_url()), SchemaRef::Current);
        assert_eq!(
            schema_ref(
                "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"
            ),
            SchemaRef::Older("2025-09-29")
        );
        assert_eq!(
            schema_ref(
                "https://static.modelcontextprotocol.io/schemas/2027-01-01/server.schema.json"
            ),
            SchemaRef::UnknownVersion("2027-01-01")
        );
        assert_eq!(
            schema_ref("https://example.com/x.json"),
            SchemaRef::Unpublished
        );
    }

    #[test]
    fn floating_versions() {
        for v in [
            ">=1.0,<2.0",
            "[1.0,2.0)",
            "~=1.4",
            "latest",
            "^1.2.3",
            "~1.2.3",
            ">=1.0.0",
            "< 2",
            "1.x",
            "1.2.*",
            "X.1",
            "1.2.3 - 2.0.0",
            "1.2 || 1.3",
        ] {
            assert!(floating(v).is_some(), "{v}");
        }
        for v in [
            "1.0.2",
            "2.1.0-alpha",
            "v1.2.3",
            "2025.4.7",
            "1.0",
            "20250101",
            "1.0.0-x.1",
        ] {
            assert!(floating(v).is_none(), "{v}");
        }
    }

    #[test]
    fn release_placeholders() {
        for v in ["${VERSION}", "{{VERSION}}", "{{ version }}", "<<Version>>"] {
            assert!(is_release_placeholder(v) && floating(v).is_none(), "{v}");
        }
        assert!(!is_release_placeholder("${}") && !is_release_placeholder("1.0.0"));
    }

    #[test]
    fn semantic_versions() {
        for v in ["1.0.2", "2.1.0-alpha", "1.0.0-rc.1+build.5", "0.0.0"] {
            assert!(is_semver(v), "{v}");
        }
        for v in [
            "v1.0.0",
            "1.0",
            "01.0.0",
            "1.0.0-01",
            "1.0.0-",
            "2025.04.07",
        ] {
            assert!(!is_semver(v), "{v}");
        }
    }
}
