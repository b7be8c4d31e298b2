//! `transport` of a tool file: the protocol's required fields and value sets. A `rest-api`
//! transport's own fields and retry lint are in `transport/rest.rs`, `transport.credentials`
//! in `transport/credentials.rs`.

mod credentials;
mod rest;

use super::Spanned;
use super::tool::ToolType;
use crate::formats::fields::{Lowerer, MapRef, Site};
use crate::rules::tool_md as rules;

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

/// Check `transport` of the tool whose front matter is `root`.
pub(super) fn check(lw: &mut Lowerer<'_>, root: MapRef<'_>, kind: Option<&Spanned<ToolType>>) {
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
    let Some(t) = lw.as_map(&entry.value, entry.key_span(), "transport") else {
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
            rest::check(lw, t, kind);
        }
    }
    credentials::check(lw, t);
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
                .find(|d| d.span == e.key_span())
        {
            d.help = Some(
                format!(
                    "`{}` is a field of a `{}` transport, not of `{}`: remove it, or fix `type`",
                    e.key, q.name, p.name
                )
                .into(),
            );
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
                e.value.span(),
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
