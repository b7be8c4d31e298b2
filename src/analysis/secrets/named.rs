//! Credentials in a value that a name is given to: an environment variable (`GITHUB_TOKEN`),
//! an HTTP header (`Authorization: Bearer …`). The name says what the value is, so a literal
//! password or token is found even when it has no well-known format.

use super::{Secret, SecretKind, SecretName, is_placeholder, looks_random, scan_line, secret_name};

/// Headers whose value is a credential whatever it looks like.
const CREDENTIAL_HEADERS: &[&str] = &["authorization", "proxy-authorization"];

/// Authentication schemes a credential header's value starts with.
const AUTH_SCHEMES: &[&str] = &["bearer", "basic", "token", "digest", "apikey", "api-key"];

/// The credentials in `value`, given to `name` (an environment variable or header name),
/// as byte ranges into `value`. A value that refers to another (`${API_TOKEN}`,
/// `${input:token}`, `{token}`) or stands for one (`<your token>`) holds none.
/// A token of a known format whose checksum proves it made up holds none either.
pub(crate) fn named_value_secrets(name: &str, value: &str) -> Vec<Secret> {
    // Where a name says the value is a credential, a weak literal password is one too;
    // only a token proven made up is not.
    // Text left unread is masked in output, and says nothing of the value.
    let (fakes, found): (Vec<Secret>, Vec<Secret>) = scan_line(value)
        .into_iter()
        .filter(|s| s.kind != SecretKind::Unread)
        .partition(|s| !s.reported && matches!(s.kind, SecretKind::Token { .. }));
    if !found.is_empty() {
        return found
            .into_iter()
            .map(|mut s| {
                s.reported = true;
                s
            })
            .collect();
    }
    if !fakes.is_empty() {
        return Vec::new();
    }
    let header = CREDENTIAL_HEADERS.contains(&name.to_ascii_lowercase().as_str());
    let kind = secret_name(name);
    let literal = header || kind == Some(SecretName::Literal);
    // The name first: most values (a command's arguments) have none that says credential,
    // and the placeholder test was a tenth of the time of a file of many servers.
    if !literal && kind != Some(SecretName::Random) {
        return Vec::new();
    }
    let (offset, credential) = without_scheme(value);
    let credential = credential.trim_end();
    if credential.is_empty() || is_templated(credential) || is_placeholder(credential) {
        return Vec::new();
    }
    let secret = if literal {
        !credential.bytes().all(|b| b.is_ascii_digit())
    } else {
        looks_random(credential)
    };
    if !secret {
        return Vec::new();
    }
    vec![Secret::new(
        offset,
        offset + credential.len(),
        SecretKind::Assigned {
            name: name.to_string(),
            literal,
        },
    )]
}

/// `Bearer abc` → (7, `abc`): the credential after an authentication scheme, if any.
fn without_scheme(value: &str) -> (usize, &str) {
    let trimmed = value.trim_start();
    let lead = value.len() - trimmed.len();
    if let Some((scheme, rest)) = trimmed.split_once(' ')
        && AUTH_SCHEMES.contains(&scheme.to_ascii_lowercase().as_str())
    {
        let rest_trimmed = rest.trim_start();
        return (
            lead + scheme.len() + 1 + (rest.len() - rest_trimmed.len()),
            rest_trimmed,
        );
    }
    (lead, trimmed)
}

/// A value built from a reference the client or shell fills in.
fn is_templated(value: &str) -> bool {
    value.contains("${") || value.contains("{{") || value.contains("$(") || {
        // `{name}` as the registry's server.json writes variables.
        value.starts_with('{') && value.ends_with('}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str, value: &str) -> Vec<String> {
        named_value_secrets(name, value)
            .into_iter()
            .map(|s| value[s.start..s.end].to_string())
            .collect()
    }

    #[test]
    fn literal_values_of_secret_names() {
        assert_eq!(found("GITHUB_TOKEN", "hunter2hunter2"), ["hunter2hunter2"]);
        assert_eq!(found("Authorization", "Bearer q7Rx2mVp9L"), ["q7Rx2mVp9L"]);
        assert_eq!(
            found("OPENAI_API_KEY", "Zq8x3Lw9Pk2Rv7Tn4Ys1"),
            ["Zq8x3Lw9Pk2Rv7Tn4Ys1"]
        );
        // A well-known format is found whatever the name.
        let body = "R8c2ZkQ1yX4mP7tW9vB3nL6sD0fH5j";
        let token = format!("ghp_{body}{}", super::super::formats::base62_checksum(body));
        assert_eq!(found("X", &token), [token.as_str()]);
    }

    #[test]
    fn a_made_up_token_is_not_a_literal_credential() {
        // Shaped like a GitHub token, but its checksum fails: an example.
        assert!(found("GITHUB_TOKEN", "ghp_R8c2ZkQ1yX4mP7tW9vB3nL6sD0fH5jA2eG8u").is_empty());
    }

    #[test]
    fn references_and_placeholders_are_not_secrets() {
        assert!(found("GITHUB_TOKEN", "${GITHUB_TOKEN}").is_empty());
        assert!(found("GITHUB_TOKEN", "${input:github-token}").is_empty());
        assert!(found("Authorization", "Bearer ${env:API_TOKEN}").is_empty());
        assert!(found("Authorization", "Bearer {api_token}").is_empty());
        assert!(found("API_KEY", "<your key>").is_empty());
        assert!(found("API_KEY", "not-random").is_empty());
        assert!(found("LOG_LEVEL", "Zq8x3Lw9Pk2Rv7Tn4Ys1").is_empty());
        assert!(found("PIN_TOKEN", "1234").is_empty());
        assert!(found("DD_API_KEY", "ENC[datadog_api_key]").is_empty());
        assert!(found("GITHUB_TOKEN", "ghp_xxx").is_empty());
    }
}
