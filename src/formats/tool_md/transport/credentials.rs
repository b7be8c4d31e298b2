//! `transport.credentials`: the scheme, its secret source and the fields each source needs,
//! and the token broker of an `oauth2` credential.

use super::{CLOUD_PROVIDERS, example};
use crate::formats::fields::{Lowerer, MapRef, Site, rename_key};
use crate::rules::tool_md as rules;

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

/// Check `credentials` of transport `t`.
pub(super) fn check(lw: &mut Lowerer<'_>, t: MapRef<'_>) {
    let entry = lw.required_at(
        t,
        "credentials",
        Site::rule(&rules::MISSING_CREDENTIALS)
            .message("this transport has no `credentials` block")
            .note("every transport declares how it authenticates, even an open internal service (`scheme: none`)")
            .help("add `credentials:` with its `scheme`, e.g. `scheme: \"iam-role\"`, or `scheme: \"none\"` for a trusted internal service"),
    );
    let Some(entry) = entry else { return };
    let Some(c) = lw.as_map(&entry.value, entry.key_span(), "transport.credentials") else {
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
        let fix = rename_key(lw.file, e.key_span(), key);
        *d = d
            .clone()
            .related(
                lw.file,
                e.key_span(),
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
