//! A `rest-api` transport: `base_url`, `endpoint`, `timeout_ms`, `retry_policy`, and the
//! retry of a non-idempotent call by an `action` tool (TMD031).

use super::super::Spanned;
use super::super::tool::ToolType;
use super::is_absolute_url;
use crate::diagnostics::Fix;
use crate::formats::fields::{Lowerer, MapRef, Site, as_int};
use crate::formats::in_value::span_in_value;
use crate::rules::tool_md as rules;
use crate::source::Span;
use crate::syntax::Node;

const RETRY_KEYS: &[&str] = &["max_attempts", "on_status", "backoff_ms"];
const HTTP_METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
/// The spec's default `retry_policy.max_attempts`.
const DEFAULT_ATTEMPTS: i64 = 3;
/// A timeout below this fails almost every call.
const MIN_TIMEOUT_MS: i64 = 100;
/// A timeout above this stalls an agent run on one call.
const MAX_TIMEOUT_MS: i64 = 300_000;

/// What the retry lint needs from a `rest-api` transport.
#[derive(Default)]
struct RestFacts {
    /// The endpoint's method and the endpoint's value span, when it is valid.
    method: Option<(String, Span)>,
    /// `retry_policy` key span, when present.
    retry_key: Option<Span>,
    /// `max_attempts`, when an integer.
    attempts: Option<(i64, Span)>,
    /// `on_status: []`: retries disabled.
    no_status: bool,
}

/// Check the `rest-api` fields of transport `t`, and the retries of an `action` tool.
pub(super) fn check(lw: &mut Lowerer<'_>, t: MapRef<'_>, kind: Option<&Spanned<ToolType>>) {
    let facts = rest_api(lw, t);
    retry_lint(lw, kind, &facts);
}

fn rest_api(lw: &mut Lowerer<'_>, t: MapRef<'_>) -> RestFacts {
    let mut facts = RestFacts::default();
    if let Some(e) = t.node.get("base_url")
        && let Some(url) = e.value.as_str()
        && !url.is_empty()
    {
        base_url(lw, &e.value, url);
    }
    if let Some(e) = t.node.get("endpoint")
        && let Some(endpoint) = e.value.as_str()
        && !endpoint.is_empty()
    {
        facts.method = check_endpoint(lw, &e.value, endpoint).map(|m| (m, e.value.span()));
    }
    if let Some(e) = t.node.get("timeout_ms") {
        timeout(lw, &e.value);
    }
    if let Some(e) = t.node.get("retry_policy")
        && let Some(r) = lw.as_map(&e.value, e.key_span(), "transport.retry_policy")
    {
        facts.retry_key = Some(e.key_span());
        lw.unknown_keys_at(
            r,
            RETRY_KEYS,
            Site::rule(&rules::UNKNOWN_TRANSPORT_KEY)
                .note("the retry policy does not read this key, so whatever it sets has no effect"),
        );
        if let Some(a) = r.node.get("max_attempts") {
            facts.attempts = at_least(lw, &a.value, "transport.retry_policy.max_attempts", 1)
                .map(|n| (n, a.value.span()));
        }
        if let Some(b) = r.node.get("backoff_ms") {
            at_least(lw, &b.value, "transport.retry_policy.backoff_ms", 0);
        }
        if let Some(s) = r.node.get("on_status") {
            match s.value.as_seq() {
                Some(items) => {
                    facts.no_status = items.is_empty();
                    for (i, item) in items.iter().enumerate() {
                        status_code(lw, item, i);
                    }
                }
                None => lw.wrong_type(
                    &s.value,
                    "transport.retry_policy.on_status",
                    "a list of HTTP status codes",
                ),
            }
        }
    }
    facts
}

/// An integer of at least `min`; `None` (after a diagnostic) otherwise.
fn at_least(lw: &mut Lowerer<'_>, node: &Node, path: &str, min: i64) -> Option<i64> {
    let Some(n) = as_int(node) else {
        lw.wrong_type(node, path, "a whole number");
        return None;
    };
    if n < min {
        let d = lw
            .diag(
                &rules::INVALID_FIELD_VALUE,
                node.span(),
                format!("`{path}` must be at least {min}, found {n}"),
            )
            .label(format!("below {min}"));
        lw.push(d);
        return None;
    }
    Some(n)
}

fn status_code(lw: &mut Lowerer<'_>, item: &Node, i: usize) {
    let path = format!("transport.retry_policy.on_status[{i}]");
    match as_int(item) {
        Some(code) if (100..=599).contains(&code) => {}
        Some(code) => {
            let d = lw
                .diag(
                    &rules::INVALID_FIELD_VALUE,
                    item.span(),
                    format!("`{path}` must be an HTTP status code (100–599), found {code}"),
                )
                .label("not an HTTP status code");
            lw.push(d);
        }
        None => {
            let code = item
                .as_str()
                .filter(|s| s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()));
            lw.wrong_type(item, &path, "an HTTP status code (a number)");
            if let (Some(code), Some(d)) = (code, lw.diags.last_mut()) {
                d.help = Some(format!("write it without quotes: `{code}`").into());
                d.fix = Some(Box::new(Fix::safe(item.span(), code)));
            }
        }
    }
}

fn base_url(lw: &mut Lowerer<'_>, node: &Node, url: &str) {
    if !is_absolute_url(url) {
        let fix = if url.contains("://") || url.chars().any(char::is_whitespace) {
            "write the service's absolute URL, e.g. `\"https://api.example.com/v1\"`".to_string()
        } else {
            format!(
                "write `base_url: \"https://{}\"`",
                url.trim_start_matches('/').trim_end_matches('/')
            )
        };
        let d = lw
            .diag(
                &rules::INVALID_BASE_URL,
                node.span(),
                format!("`transport.base_url` must be an absolute `https://` URL, found `{url}`"),
            )
            .label("not an absolute URL")
            .note("the runtime joins `base_url` and the endpoint path; without a scheme and host there is nothing to call")
            .help(fix);
        lw.push(d);
        return;
    }
    if url.ends_with('/') {
        let slash = span_in_value(lw.file, node, url.len() - 1, "/");
        let d = lw
            .diag(
                &rules::INVALID_BASE_URL,
                slash,
                "`transport.base_url` ends with a `/`",
            )
            .label("trailing slash")
            .note("the endpoint path starts with `/`, so the joined URL would have `//` in it")
            .help(format!(
                "write `base_url: \"{}\"`",
                url.trim_end_matches('/')
            ));
        lw.push(d);
    }
}

/// TMD011; the method when the endpoint is valid.
fn check_endpoint(lw: &mut Lowerer<'_>, node: &Node, endpoint: &str) -> Option<String> {
    let (problem, fix): (String, Option<String>) = match endpoint.split_once(' ') {
        _ if endpoint.starts_with("http://") || endpoint.starts_with("https://") => {
            ("it is a full URL".to_string(), None)
        }
        None if endpoint.starts_with('/') => ("it has no HTTP method".to_string(), None),
        None => ("it is not `METHOD /path`".to_string(), None),
        Some((method, path)) => {
            let path = path.trim();
            let upper = method.to_ascii_uppercase();
            let method_ok = HTTP_METHODS.contains(&method);
            let path_ok =
                path.starts_with('/') && path.len() > 1 && !path.contains(char::is_whitespace);
            if method_ok && path_ok && !endpoint[method.len() + 1..].starts_with(' ') {
                return Some(method.to_string());
            }
            let fixed_path = if path.starts_with('/') {
                path.to_string()
            } else {
                format!("/{path}")
            };
            if !method_ok && HTTP_METHODS.contains(&upper.as_str()) {
                (
                    format!("the method `{method}` must be uppercase"),
                    Some(format!("{upper} {fixed_path}")),
                )
            } else if !method_ok {
                (format!("`{method}` is not an HTTP method"), None)
            } else if path == "/" || path.is_empty() {
                ("the path names no resource after `/`".to_string(), None)
            } else if path.contains(char::is_whitespace) {
                ("the path contains a space".to_string(), None)
            } else {
                (
                    "the path must start with `/`".to_string(),
                    Some(format!("{method} {fixed_path}")),
                )
            }
        }
    };
    let edit = fix
        .as_ref()
        .map(|f| Fix::unsafe_(node.span(), format!("\"{f}\"")));
    let help = match (&fix, endpoint.starts_with("http")) {
        (Some(f), _) => format!("write `endpoint: \"{f}\"`"),
        (None, true) => "put the scheme and host in `base_url` and write the method and path here, e.g. `POST /send`".to_string(),
        (None, false) => format!("write the HTTP method ({}) and the path, e.g. `POST /send`", HTTP_METHODS.join(", ")),
    };
    let d = lw
        .diag(
            &rules::INVALID_ENDPOINT,
            node.span(),
            format!("`transport.endpoint` must be `METHOD /path`, but {problem}: `{endpoint}`"),
        )
        .label("must match ^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.+$")
        .note("the runtime reads the HTTP method and the path from this field")
        .help(help)
        .maybe_fix(edit);
    lw.push(d);
    None
}

fn timeout(lw: &mut Lowerer<'_>, node: &Node) {
    let Some(ms) = as_int(node) else {
        lw.wrong_type(
            node,
            "transport.timeout_ms",
            "a whole number of milliseconds",
        );
        return;
    };
    if ms <= 0 {
        let d = lw
            .diag(
                &rules::INVALID_FIELD_VALUE,
                node.span(),
                format!(
                    "`transport.timeout_ms` must be a positive number of milliseconds, found {ms}"
                ),
            )
            .label("not a positive timeout")
            .help("the default is 5000; remove the field or write a positive number");
        lw.push(d);
        return;
    }
    let (message, note) = if ms < MIN_TIMEOUT_MS {
        (
            format!("`transport.timeout_ms` is {ms} ms, below {MIN_TIMEOUT_MS} ms"),
            "a network call rarely completes this fast: most calls would time out",
        )
    } else if ms > MAX_TIMEOUT_MS {
        (
            format!(
                "`transport.timeout_ms` is {ms} ms ({} minutes), above 5 minutes",
                ms / 60_000
            ),
            "the agent run waits this long on one stuck call before it can react",
        )
    } else {
        return;
    };
    let d = lw
        .diag(&rules::TIMEOUT_OUT_OF_RANGE, node.span(), message)
        .label("outside 100–300000 ms")
        .note(note)
        .help("the spec's default is 5000 ms; pick a value the service really needs, or remove the field");
    lw.push(d);
}

/// TMD031: an `action` tool whose `POST`/`PATCH` call is retried.
fn retry_lint(lw: &mut Lowerer<'_>, kind: Option<&Spanned<ToolType>>, facts: &RestFacts) {
    let Some(kind) = kind.filter(|k| k.value == ToolType::Action) else {
        return;
    };
    let Some((method, endpoint_span)) = &facts.method else {
        return;
    };
    if !matches!(method.as_str(), "POST" | "PATCH") || facts.no_status {
        return;
    }
    let endpoint = lw
        .file
        .slice(*endpoint_span)
        .trim_matches(['"', '\''])
        .to_string();
    let (span, message, help) = match (facts.attempts, facts.retry_key) {
        (Some((n, _)), _) if n <= 1 => return,
        (Some((n, span)), _) => (
            span,
            format!("this `action` tool's `{endpoint}` is attempted up to {n} times"),
            "set `max_attempts: 1`, or make the endpoint idempotent (an idempotency key) and say so in `# Notes`",
        ),
        (None, Some(key)) => (
            key,
            format!(
                "this `action` tool's `{endpoint}` is retried by default (up to {DEFAULT_ATTEMPTS} attempts)"
            ),
            "add `max_attempts: 1` to `retry_policy`, or make the endpoint idempotent and say so in `# Notes`",
        ),
        (None, None) => (
            *endpoint_span,
            format!(
                "this `action` tool's `{endpoint}` is retried by default (up to {DEFAULT_ATTEMPTS} attempts)"
            ),
            "add `retry_policy: {max_attempts: 1}` to the transport, or make the endpoint idempotent and say so in `# Notes`",
        ),
    };
    let d = lw
        .diag(&rules::RETRIED_NON_IDEMPOTENT_CALL, span, message)
        .label(format!("retries a non-idempotent `{method}`"))
        .related(lw.file, kind.span, "the tool causes side effects")
        .note(format!("a `{method}` that failed or timed out may already have taken effect: a retry can repeat the action: a second email, a second ticket, a second payment"))
        .help(help);
    lw.push(d);
}
