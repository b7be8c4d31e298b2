//! `transport` and `transport.credentials` of a tool file: the protocol's required fields
//! and value sets, the credential scheme and its secret source, and the retry and timeout
//! lints.

use super::Spanned;
use super::tool::ToolType;
use crate::diagnostics::Fix;
use crate::formats::fields::{Lowerer, MapRef, Site, as_int, rename_key, span_in_value};
use crate::rules::tool_md as rules;
use crate::source::Span;
use crate::syntax::Node;

/// One transport protocol: its fields and the value sets of its enumerated fields.
struct Protocol {
    name: &'static str,
    required: &'static [&'static str],
    optional: &'static [&'static str],
    enums: &'static [(&'static str, &'static [&'static str])],
}

const CLOUD_PROVIDERS: &[&str] = &["aws", "gcp", "azure"];

const PROTOCOLS: &[Protocol] = &[
    Protocol {
        name: "rest-api",
        required: &["base_url", "endpoint"],
        optional: &["timeout_ms", "retry_policy"],
        enums: &[],
    },
    Protocol {
        name: "lambda",
        required: &["provider", "function_id", "invocation_type"],
        optional: &["payload_format"],
        enums: &[
            ("provider", CLOUD_PROVIDERS),
            ("invocation_type", &["RequestResponse", "Event"]),
            ("payload_format", &["json", "raw"]),
        ],
    },
    Protocol {
        name: "mcp",
        required: &["url", "tool_name"],
        optional: &["protocol_version"],
        enums: &[],
    },
    Protocol {
        name: "message-queue",
        required: &["provider", "queue_url"],
        optional: &["message_format", "response_queue_url"],
        enums: &[
            ("provider", &["aws", "gcp", "azure", "kafka"]),
            ("message_format", &["json", "avro"]),
        ],
    },
    Protocol {
        name: "database",
        required: &["engine", "query_method"],
        optional: &[],
        enums: &[
            (
                "engine",
                &[
                    "postgresql",
                    "mysql",
                    "mssql",
                    "bigquery",
                    "snowflake",
                    "rds-data-api",
                ],
            ),
            ("query_method", &["parameterised-sql", "orm"]),
        ],
    },
];

const TRANSPORT_TYPES: &[&str] = &["rest-api", "lambda", "mcp", "message-queue", "database"];
const RETRY_KEYS: &[&str] = &["max_attempts", "on_status", "backoff_ms"];
const HTTP_METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
const SCHEMES: &[&str] = &[
    "none",
    "iam-role",
    "api-key",
    "bearer-token",
    "oauth2",
    "service-account",
];
/// Schemes that resolve a stored secret, and so need a `source`.
const SCHEMES_WITH_SOURCE: &[&str] = &["api-key", "bearer-token", "service-account"];
/// Secret sources and the fields each needs.
const SOURCES: &[(&str, &[&str])] = &[
    ("env", &["name"]),
    ("env_aws", &["access_key_id", "secret_access_key"]),
    ("aws_secrets_manager", &["secret_id"]),
    ("gcp_secret_manager", &["project", "secret"]),
    ("azure_key_vault", &["vault_url", "secret_name"]),
];

/// Credential fields the spec family names (connection parameters may come on top).
const KNOWN_CREDENTIAL_FIELDS: &[&str] = &[
    "scheme",
    "source",
    "name",
    "access_key_id",
    "secret_access_key",
    "secret_id",
    "region",
    "key",
    "project",
    "secret",
    "version",
    "vault_url",
    "secret_name",
    "header",
    "provider",
    "function_id",
    "scopes",
];

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

/// Check `transport` of the tool whose front matter is `root`.
pub fn check(lw: &mut Lowerer<'_>, root: MapRef<'_>, kind: Option<&Spanned<ToolType>>) {
    let Some(entry) = root.node.get("transport") else {
        if let Some(k) = kind.filter(|k| k.value != ToolType::Function) {
            let name = lw.file.slice(k.span).trim_matches(['"', '\'']).to_string();
            let d = lw
                .diag(
                    &rules::MISSING_TRANSPORT,
                    k.span,
                    format!("this `{name}` tool has no `transport`"),
                )
                .label("only `function` tools may omit `transport`")
                .note("the runtime has no way to call the tool, so the compiler rejects it")
                .help("add a `transport:` block with its `type` (rest-api, lambda, mcp, message-queue or database), the protocol's fields and `credentials`");
            lw.push(d);
        }
        return;
    };
    let Some(t) = lw.as_map(&entry.value, entry.key_span, "transport") else {
        return;
    };
    let protocol = match lw.required(t, "type") {
        Some(e) => {
            let value = lw.enum_value_at(
                &e.value,
                "transport.type",
                TRANSPORT_TYPES,
                Site::rule(&rules::UNKNOWN_TRANSPORT_TYPE)
                    .note("the invocation protocol must be one the runtime implements"),
            );
            value.and_then(|v| PROTOCOLS.iter().find(|p| p.name == v))
        }
        None => None,
    };
    if let Some(p) = protocol {
        fields(lw, t, p);
        if p.name == "rest-api" {
            let facts = rest_api(lw, t);
            retry_lint(lw, kind, &facts);
        }
    }
    credentials(lw, t);
}

/// Unknown keys, required fields and enumerated values of protocol `p`.
fn fields(lw: &mut Lowerer<'_>, t: MapRef<'_>, p: &Protocol) {
    let mut known: Vec<&str> = vec!["type", "credentials"];
    known.extend(p.required);
    known.extend(p.optional);
    let mark = lw.diags.len();
    let consequence = format!(
        "a `{}` transport does not read this key, so whatever it sets has no effect",
        p.name
    );
    lw.unknown_keys_at(
        t,
        &known,
        Site::rule(&rules::UNKNOWN_TRANSPORT_KEY).note(&consequence),
    );
    for e in t.node.as_map().unwrap_or_default() {
        if known.contains(&e.key.as_str()) {
            continue;
        }
        let owner = PROTOCOLS
            .iter()
            .find(|q| q.required.contains(&e.key.as_str()) || q.optional.contains(&e.key.as_str()));
        if let Some(q) = owner
            && let Some(d) = lw
                .diags
                .iter_mut()
                .skip(mark)
                .find(|d| d.span == e.key_span)
        {
            d.help = Some(format!(
                "`{}` is a field of a `{}` transport, not of `{}`: remove it, or fix `type`",
                e.key, q.name, p.name
            ));
        }
    }
    for key in p.required {
        let message = format!("a `{}` transport requires `{key}`", p.name);
        let help = format!("add `{key}: {}`", example(p.name, key));
        let entry = lw.required_at(
            t,
            key,
            Site::rule(&rules::MISSING_TRANSPORT_FIELD)
                .message(&message)
                .help(&help),
        );
        if let Some(e) = entry
            && !p.enums.iter().any(|(k, _)| k == key)
        {
            lw.str_value(&e.value, &format!("transport.{key}"), 1, usize::MAX);
        }
    }
    for (key, allowed) in p.enums {
        if let Some(e) = t.node.get(key) {
            lw.enum_value(&e.value, &format!("transport.{key}"), allowed);
        }
    }
    for key in p.optional {
        if p.enums.iter().any(|(k, _)| k == key) || matches!(*key, "timeout_ms" | "retry_policy") {
            continue;
        }
        if let Some(e) = t.node.get(key) {
            lw.str_value(&e.value, &format!("transport.{key}"), 1, usize::MAX);
        }
    }
    if p.name == "mcp"
        && let Some(e) = t.node.get("url")
        && let Some(url) = e.value.as_str()
        && !url.is_empty()
        && !is_absolute_url(url)
    {
        let d = lw
            .diag(
                &rules::INVALID_FIELD_VALUE,
                e.value.span,
                format!("`transport.url` must be the full URL of the MCP server, found `{url}`"),
            )
            .label("not an absolute `https://` URL")
            .help(format!(
                "write `url: \"https://{}\"`",
                url.trim_start_matches('/')
            ));
        lw.push(d);
    }
}

/// An example value for a required field, for the help of a missing one.
fn example(protocol: &str, key: &str) -> &'static str {
    match (protocol, key) {
        (_, "base_url") => "\"https://api.example.com/v1\"",
        (_, "endpoint") => "\"POST /send\"",
        ("message-queue", "provider") => "\"aws\"",
        (_, "provider") => "\"aws\"",
        (_, "function_id") => "\"arn:aws:lambda:eu-west-1:123456789012:function:my-function\"",
        (_, "invocation_type") => "\"RequestResponse\"",
        (_, "url") => "\"https://mcp.example.com/tools\"",
        (_, "tool_name") => "\"search_documents\"",
        (_, "queue_url") => "\"https://sqs.eu-west-1.amazonaws.com/123456789012/my-queue\"",
        (_, "engine") => "\"postgresql\"",
        (_, "query_method") => "\"parameterised-sql\"",
        _ => "\"…\"",
    }
}

/// `http(s)://host…` with a host and no whitespace.
fn is_absolute_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    rest.is_some_and(|r| {
        let host = r.split(['/', '?', '#']).next().unwrap_or("");
        !host.is_empty() && !url.chars().any(char::is_whitespace)
    })
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
        facts.method = check_endpoint(lw, &e.value, endpoint).map(|m| (m, e.value.span));
    }
    if let Some(e) = t.node.get("timeout_ms") {
        timeout(lw, &e.value);
    }
    if let Some(e) = t.node.get("retry_policy")
        && let Some(r) = lw.as_map(&e.value, e.key_span, "transport.retry_policy")
    {
        facts.retry_key = Some(e.key_span);
        lw.unknown_keys_at(
            r,
            RETRY_KEYS,
            Site::rule(&rules::UNKNOWN_TRANSPORT_KEY)
                .note("the retry policy does not read this key, so whatever it sets has no effect"),
        );
        if let Some(a) = r.node.get("max_attempts") {
            facts.attempts = at_least(lw, &a.value, "transport.retry_policy.max_attempts", 1)
                .map(|n| (n, a.value.span));
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
                node.span,
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
                    item.span,
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
                d.help = Some(format!("write it without quotes: `{code}`"));
                d.fix = Some(Fix::safe(item.span, code));
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
                node.span,
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
        .map(|f| Fix::unsafe_(node.span, format!("\"{f}\"")));
    let help = match (&fix, endpoint.starts_with("http")) {
        (Some(f), _) => format!("write `endpoint: \"{f}\"`"),
        (None, true) => "put the scheme and host in `base_url` and write the method and path here, e.g. `POST /send`".to_string(),
        (None, false) => format!("write the HTTP method ({}) and the path, e.g. `POST /send`", HTTP_METHODS.join(", ")),
    };
    let d = lw
        .diag(
            &rules::INVALID_ENDPOINT,
            node.span,
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
                node.span,
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
        .diag(&rules::TIMEOUT_OUT_OF_RANGE, node.span, message)
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

fn credentials(lw: &mut Lowerer<'_>, t: MapRef<'_>) {
    let entry = lw.required_at(
        t,
        "credentials",
        Site::rule(&rules::MISSING_CREDENTIALS)
            .message("this transport has no `credentials` block")
            .note("every transport declares how it authenticates, even an open internal service (`scheme: none`)")
            .help("add `credentials:` with its `scheme`, e.g. `scheme: \"iam-role\"`, or `scheme: \"none\"` for a trusted internal service"),
    );
    let Some(entry) = entry else { return };
    let Some(c) = lw.as_map(&entry.value, entry.key_span, "transport.credentials") else {
        return;
    };
    let scheme = match lw.required(c, "scheme") {
        Some(e) => lw.enum_value_at(
            &e.value,
            "transport.credentials.scheme",
            SCHEMES,
            Site::rule(&rules::UNKNOWN_CREDENTIAL_SCHEME),
        ),
        None => None,
    };
    let source_entry = c.node.get("source");
    if source_entry.is_none()
        && let Some(s) = scheme.filter(|s| SCHEMES_WITH_SOURCE.contains(s))
    {
        let message = format!("a `{s}` credential needs a `source`");
        lw.required_at(
            c,
            "source",
            Site::rule(&rules::MISSING_CREDENTIAL_SOURCE)
                .message(&message)
                .note("the runtime resolves the secret from its source; without one it has nothing to authenticate with")
                .help("add `source:` (env, env_aws, aws_secrets_manager, gcp_secret_manager or azure_key_vault) and its fields, e.g. `source: \"env\"` with `name: \"API_TOKEN\"`"),
        );
    }
    if let Some(e) = source_entry {
        let names: Vec<&str> = SOURCES.iter().map(|(n, _)| *n).collect();
        let value = lw.enum_value_at(
            &e.value,
            "transport.credentials.source",
            &names,
            Site::rule(&rules::UNKNOWN_CREDENTIAL_SOURCE),
        );
        if let Some((source, needs)) = value.and_then(|v| SOURCES.iter().find(|(n, _)| *n == v)) {
            for key in *needs {
                secret_field(lw, c, source, key);
            }
        }
    }
    if scheme == Some("oauth2") {
        for key in ["provider", "function_id"] {
            let message = format!("an `oauth2` credential needs `{key}`");
            let help = format!("add `{key}: {}`", example("lambda", key));
            let found = lw.required_at(
                c,
                key,
                Site::rule(&rules::INCOMPLETE_OAUTH2)
                    .message(&message)
                    .note("the runtime gets each OAuth 2.0 token from a token-broker function named by `provider` and `function_id`")
                    .help(&help),
            );
            if let Some(f) = found {
                if key == "provider" {
                    lw.enum_value(&f.value, "transport.credentials.provider", CLOUD_PROVIDERS);
                } else {
                    lw.str_value(&f.value, "transport.credentials.function_id", 1, usize::MAX);
                }
            }
        }
    }
}

/// A field the secret `source` needs (TMD018).
fn secret_field(lw: &mut Lowerer<'_>, c: MapRef<'_>, source: &str, key: &str) {
    let example = match key {
        "name" => "\"SERVICE_TOKEN\"",
        "access_key_id" => "\"AWS_ACCESS_KEY_ID\"",
        "secret_access_key" => "\"AWS_SECRET_ACCESS_KEY\"",
        "secret_id" => "\"prod/service/token\"",
        "project" => "\"my-gcp-project\"",
        "secret" => "\"service-token\"",
        "vault_url" => "\"https://my-vault.vault.azure.net\"",
        _ => "\"service-token\"",
    };
    let message = format!("a credential from `{source}` needs `{key}`");
    let note = format!(
        "without `{key}` the runtime does not know which secret to read, so every call fails to authenticate"
    );
    let mut help = format!("add `{key}: {example}`");
    // Credentials are an open set (connection parameters live there too), so a misspelt
    // field is only found by its likeness to the one that is missing.
    let misspelt = c.node.as_map().unwrap_or_default().iter().find(|e| {
        !KNOWN_CREDENTIAL_FIELDS.contains(&e.key.as_str())
            && crate::analysis::names::did_you_mean(&e.key, [key]).is_some()
    });
    if let Some(e) = misspelt {
        help = format!("rename `{}` to `{key}`", e.key);
    }
    let mark = lw.diags.len();
    let found = lw.required_at(
        c,
        key,
        Site::rule(&rules::MISSING_SECRET_FIELD)
            .message(&message)
            .note(&note)
            .help(&help),
    );
    if let Some(e) = misspelt
        && let Some(d) = lw.diags.get_mut(mark)
    {
        let fix = rename_key(lw.file, e.key_span, key);
        *d = d
            .clone()
            .related(
                lw.file,
                e.key_span,
                format!("`{}` looks like a misspelling of `{key}`", e.key),
            )
            .fix(fix);
    }
    if let Some(f) = found {
        lw.str_value(
            &f.value,
            &format!("transport.credentials.{key}"),
            1,
            usize::MAX,
        );
    }
}
