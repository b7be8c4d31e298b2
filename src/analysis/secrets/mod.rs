//! Credentials written into text: well-known token formats (by prefix), private key blocks,
//! JSON Web Tokens, passwords in URLs, literal credential headers (`Authorization: Bearer …`),
//! and values assigned to names that say they hold a secret. One table of formats and one
//! notion of a "secret-like name" serve every format.
//!
//! A finding carries its byte range and what it is, never the secret itself: callers show
//! it through [`mask`] so a report does not leak what it warns about.

mod headers;
mod named;
mod names;
mod text;

use std::collections::HashMap;

pub use named::named_value_secrets;
use names::assignments;
pub use names::{SecretName, secret_name};
pub use text::{redact, scan_text};

/// Past this many credentials on one line, the line is scanned no further.
const MAX_SECRETS_PER_LINE: usize = 16;

/// A well-known credential format: a fixed prefix, then a body of some length and alphabet.
struct TokenFormat {
    prefix: &'static str,
    /// Shortest body that counts.
    min: usize,
    /// Bytes the body is made of.
    body: fn(u8) -> bool,
    /// A check of the whole token beyond its alphabet (a JWT's three parts).
    shape: Option<fn(&str) -> bool>,
    /// What the credential is, for a message.
    what: &'static str,
}

impl TokenFormat {
    const fn new(
        prefix: &'static str,
        min: usize,
        body: fn(u8) -> bool,
        what: &'static str,
    ) -> Self {
        TokenFormat {
            prefix,
            min,
            body,
            shape: None,
            what,
        }
    }
}

/// Credential formats recognised by their prefix.
const TOKEN_FORMATS: &[TokenFormat] = &[
    TokenFormat::new("ghp_", 36, alnum, "a GitHub personal access token"),
    TokenFormat::new("gho_", 36, alnum, "a GitHub OAuth token"),
    TokenFormat::new("ghu_", 36, alnum, "a GitHub user-to-server token"),
    TokenFormat::new("ghs_", 36, alnum, "a GitHub server-to-server token"),
    TokenFormat::new("ghr_", 36, alnum, "a GitHub refresh token"),
    TokenFormat::new(
        "github_pat_",
        22,
        alnum_under,
        "a GitHub fine-grained token",
    ),
    TokenFormat::new("glpat-", 20, alnum_dash, "a GitLab personal access token"),
    TokenFormat::new("xoxb-", 10, alnum_dash, "a Slack bot token"),
    TokenFormat::new("xoxp-", 10, alnum_dash, "a Slack user token"),
    TokenFormat::new("xoxa-", 10, alnum_dash, "a Slack app token"),
    TokenFormat::new("xoxr-", 10, alnum_dash, "a Slack refresh token"),
    TokenFormat::new("xoxs-", 10, alnum_dash, "a Slack session token"),
    TokenFormat::new("xoxe-", 10, alnum_dash, "a Slack token"),
    TokenFormat::new(
        "hooks.slack.com/services/",
        20,
        slack_path,
        "a Slack webhook URL",
    ),
    TokenFormat::new("sk-", 32, alnum_dash, "an API secret key"),
    TokenFormat::new("AKIA", 16, upper_alnum, "an AWS access key id"),
    TokenFormat::new("ASIA", 16, upper_alnum, "an AWS temporary access key id"),
    TokenFormat {
        prefix: "eyJ",
        min: 24,
        body: jwt_char,
        shape: Some(is_jwt),
        what: "a JSON Web Token",
    },
];

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn alnum_under(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn alnum_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}
fn upper_alnum(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}
fn slack_path(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'/'
}
fn jwt_char(b: u8) -> bool {
    alnum_dash(b) || b == b'.'
}

/// `header.payload.signature`, each part non-empty base64url (the header already began
/// with `eyJ`, a JSON object's `{"`).
fn is_jwt(token: &str) -> bool {
    let parts: Vec<&str> = token.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| p.len() >= 4)
}

/// What a found credential is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretKind {
    /// `-----BEGIN … PRIVATE KEY-----`.
    PrivateKey,
    /// A token of a well-known format.
    Token {
        /// What it is (`a GitHub personal access token`).
        what: &'static str,
        /// Length of its fixed prefix (`ghp_`), shown with [`mask`].
        prefix_len: usize,
    },
    /// The password of a `scheme://user:password@host` URL.
    UrlPassword,
    /// The password of a `user:password` pair given to a command (`curl -u`, `--user`).
    UserPassword,
    /// The value of a credential header (`Authorization: Bearer …`, `X-API-Key: …`).
    AuthHeader {
        /// The header's name, as written.
        name: String,
    },
    /// A value assigned to a name that says it holds a secret (`DB_PASSWORD=…`).
    Assigned {
        /// The name, as written.
        name: String,
        /// Whether the name alone makes it a secret (a password or token), rather than its
        /// random-looking value (a key or secret).
        literal: bool,
    },
}

/// A credential found in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    /// Byte offset of its first character in the line.
    pub start: usize,
    /// Byte offset after its last character.
    pub end: usize,
    /// What it is.
    pub kind: SecretKind,
}

/// `keep` characters of `secret`, then `…`: enough to find it, not enough to use it.
pub fn mask(secret: &str, keep: usize) -> String {
    let shown: String = secret.chars().take(keep).collect();
    format!("{shown}…")
}

/// Every credential written into one line, in the order the checks find them: private keys,
/// token formats, URL passwords, then assignments to secret-like names.
pub fn scan_line(line: &str) -> Vec<Secret> {
    scan(line, true)
}

/// [`scan_line`]; without `formats`, only what a name says (headers and assignments).
pub(super) fn scan(line: &str, formats: bool) -> Vec<Secret> {
    let mut out = Vec::new();
    if formats {
        if let Some(at) = line.find("-----BEGIN ")
            && let Some(i) = line[at..].find("PRIVATE KEY-----")
        {
            out.push(Secret {
                start: at,
                end: at + i + 16,
                kind: SecretKind::PrivateKey,
            });
        }
        for format in TOKEN_FORMATS {
            if tokens(line, format, &mut out) {
                return out;
            }
        }
        url_passwords(line, &mut out);
    }
    headers::auth_headers(line, &mut out);
    headers::user_passwords(line, &mut out);
    for a in assignments(line) {
        if out.len() >= MAX_SECRETS_PER_LINE {
            break;
        }
        if out
            .iter()
            .any(|h| h.start <= a.value.0 && a.value.0 < h.end)
        {
            continue;
        }
        let value = &line[a.value.0..a.value.1];
        let Some(kind) = secret_name(a.name) else {
            continue;
        };
        if is_placeholder(value) {
            continue;
        }
        let literal = kind == SecretName::Literal;
        if literal && value.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if !literal && (!looks_random(value) || is_identifier_or_hash(value)) {
            continue;
        }
        out.push(Secret {
            start: a.value.0,
            end: a.value.1,
            kind: SecretKind::Assigned {
                name: a.name.to_string(),
                literal,
            },
        });
    }
    out
}

/// Tokens of one format; true when the line holds too many credentials to go on.
fn tokens(line: &str, format: &TokenFormat, out: &mut Vec<Secret>) -> bool {
    let b = line.as_bytes();
    let prefix = format.prefix;
    let mut from = 0;
    while let Some(pos) = line[from..].find(prefix).map(|p| from + p) {
        if out.len() >= MAX_SECRETS_PER_LINE {
            return true;
        }
        from = pos + prefix.len();
        // A token starts a word: `mask-` or `task-…` are not `sk-…`.
        if pos > 0
            && (b[pos - 1].is_ascii_alphanumeric() || b[pos - 1] == b'_')
            && !prefix.contains('.')
        {
            continue;
        }
        let body = b[from..].iter().take_while(|c| (format.body)(**c)).count();
        let end = from + body;
        // Whatever the body holds belongs to this token: never scan it again.
        from = end;
        if body < format.min
            || b.get(end).is_some_and(|c| c.is_ascii_alphanumeric()) && prefix == "AKIA"
            || format.shape.is_some_and(|ok| !ok(&line[pos..end]))
        {
            continue;
        }
        if out.iter().any(|h| h.start <= pos && pos < h.end) {
            continue;
        }
        out.push(Secret {
            start: pos,
            end,
            kind: SecretKind::Token {
                what: format.what,
                prefix_len: prefix.len(),
            },
        });
    }
    false
}

/// Passwords in `scheme://user:password@host`, unless a placeholder.
fn url_passwords(line: &str, out: &mut Vec<Secret>) {
    for (at, _) in line.match_indices("://") {
        if out.len() >= MAX_SECRETS_PER_LINE {
            return;
        }
        let from = at + 3;
        let rest = &line[from..];
        let authority = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '/' | '"' | '\'' | '`' | '?' | '#'))
            .map_or(rest, |end| &rest[..end]);
        let Some(userinfo) = authority.rfind('@').map(|i| &authority[..i]) else {
            continue;
        };
        let Some(colon) = userinfo.find(':') else {
            continue;
        };
        let password = &userinfo[colon + 1..];
        if password.is_empty() || is_placeholder(password) {
            continue;
        }
        let start = from + colon + 1;
        if out.iter().any(|h| h.start <= start && start < h.end) {
            continue;
        }
        out.push(Secret {
            start,
            end: start + password.len(),
            kind: SecretKind::UrlPassword,
        });
    }
}

/// A value that stands for a secret rather than being one: a variable reference, a template,
/// `<your token>`, `REDACTED`, `xxxx`.
pub fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    v.len() < 4
        || v.starts_with(['$', '<', '{', '%', '*', '['])
        || v.chars().all(|c| c == v.chars().next().unwrap_or('x'))
        || matches!(
            lower.as_str(),
            "none"
                | "null"
                | "nil"
                | "empty"
                | "redacted"
                | "required"
                | "optional"
                | "true"
                | "false"
                | "n/a"
        )
        || matches!(
            lower.as_str(),
            "changeme"
                | "change-me"
                | "change_me"
                | "example"
                | "dummy"
                | "secret"
                | "password"
                | "token"
                | "todo"
                | "tbd"
        )
        || lower.starts_with("your")
        || lower.starts_with("env:")
        || lower.contains("redacted")
        || lower.contains("placeholder")
}

/// A UUID, or a SHA-1 or SHA-256 hex digest: identifiers and checksums, not credentials.
pub fn is_identifier_or_hash(value: &str) -> bool {
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    let parts: Vec<&str> = value.split('-').collect();
    let uuid = parts.len() == 5
        && parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && parts.iter().all(|p| hex(p));
    uuid || (matches!(value.len(), 40 | 64) && hex(value))
}

/// Long enough and varied enough (Shannon entropy of at least 3.5 bits a character, with a
/// digit) to be a generated credential rather than a word.
pub fn looks_random(value: &str) -> bool {
    if value.len() < 16 || value.contains(char::is_whitespace) {
        return false;
    }
    let mut counts: HashMap<char, usize> = HashMap::new();
    for c in value.chars() {
        *counts.entry(c).or_default() += 1;
    }
    let n = value.chars().count() as f64;
    let entropy: f64 = counts
        .values()
        .map(|k| {
            let p = *k as f64 / n;
            -p * p.log2()
        })
        .sum();
    entropy >= 3.5 && value.chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<SecretKind> {
        scan_line(line).into_iter().map(|s| s.kind).collect()
    }

    #[test]
    fn hashes_are_not_secrets() {
        let hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        assert!(scan_line(&format!("- /in/input.csv sha256: {hash}")).is_empty());
        assert!(scan_line(&format!("    sha256: {hash}")).is_empty());
    }

    #[test]
    fn token_formats_by_prefix() {
        let line = "token: ghp_0123456789abcdefghijklmnopqrstuvwxyz";
        let found = scan_line(line);
        assert_eq!(found.len(), 1);
        assert_eq!(&line[found[0].start..found[0].end], &line[7..]);
        assert_eq!(
            found[0].kind,
            SecretKind::Token {
                what: "a GitHub personal access token",
                prefix_len: 4
            }
        );
        assert_eq!(kinds("key AKIAIOSFODNN7EXAMPLE here").len(), 1);
        // Inside a longer word, or too short, it is not the format.
        assert!(scan_line("task-0123456789abcdefghijklmnopqrstuvwxyz0123").is_empty());
        assert!(scan_line("ghp_short").is_empty());
    }

    #[test]
    fn private_keys_and_jwts() {
        assert_eq!(
            kinds("x -----BEGIN OPENSSH PRIVATE KEY----- y"),
            [SecretKind::PrivateKey]
        );
        assert!(scan_line("-----BEGIN PUBLIC KEY-----").is_empty());
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXNpZw";
        let found = scan_line(&format!("Authorization: Bearer {jwt}"));
        assert_eq!(found.len(), 1);
        assert!(matches!(
            found[0].kind,
            SecretKind::Token {
                what: "a JSON Web Token",
                ..
            }
        ));
        assert!(scan_line("eyJhbGciOiJIUzI1NiJ9eyJzdWIiOiIxMjM0In0").is_empty());
    }

    #[test]
    fn every_pair_of_a_one_line_json_object() {
        let line = r#"{"env": {"LOG": "debug", "DB_PASSWORD": "Winter2025!x", "A": "b"}}"#;
        let found: Vec<&str> = scan_line(line)
            .iter()
            .map(|s| &line[s.start..s.end])
            .collect();
        assert_eq!(found, ["Winter2025!x"]);
        assert!(scan_line(r#"{"a": "x:y", "note": "password: see the vault"}"#).is_empty());
    }

    #[test]
    fn user_passwords_given_to_commands() {
        let line = "curl -u admin:Winter2025 https://x and wget --user=bob:hunter2024 y";
        let found: Vec<&str> = scan_line(line)
            .iter()
            .map(|s| &line[s.start..s.end])
            .collect();
        assert_eq!(found, ["Winter2025", "hunter2024"]);
        assert!(scan_line("curl -u \"$USER:$PASS\" https://x").is_empty());
        assert!(scan_line("curl -u admin https://x; sort -u a:b").is_empty());
        assert!(scan_line("python -u run.py --user alice").is_empty());
        assert!(scan_line("docker run -u app:app img; curl -u 1000:1000 https://x").is_empty());
    }

    #[test]
    fn url_passwords() {
        let line = "clone https://bob:s3cretPass@example.com/repo.git";
        let found = scan_line(line);
        assert_eq!(found.len(), 1);
        assert_eq!(&line[found[0].start..found[0].end], "s3cretPass");
        assert_eq!(found[0].kind, SecretKind::UrlPassword);
        assert!(scan_line("https://bob@example.com/ and ssh://git@host:22/x").is_empty());
        assert!(scan_line("postgres://user:${DB_PASSWORD}@db/app").is_empty());
    }

    #[test]
    fn assignments_to_secret_names() {
        assert_eq!(
            kinds("password=hunter22"),
            [SecretKind::Assigned {
                name: "password".into(),
                literal: true
            }]
        );
        assert_eq!(
            kinds(&format!("api_key: \"{}\"", "A1b2C3d4E5f6G7h8J9k0")),
            [SecretKind::Assigned {
                name: "api_key".into(),
                literal: false
            }]
        );
        assert_eq!(kinds("run --password hunter2024").len(), 1);
        // A key that reads like a word, a reference, a placeholder, prose, a number.
        assert!(scan_line("api_key=mykeyname").is_empty());
        assert!(scan_line("password=$DB_PASSWORD token=${API_TOKEN}").is_empty());
        assert!(scan_line("password: <your password>").is_empty());
        assert!(scan_line("Justification: no token is needed for this").is_empty());
        assert!(scan_line("pin_token=1234").is_empty());
        assert!(scan_line("api_key: 123e4567-e89b-12d3-a456-426614174000").is_empty());
        assert!(scan_line("password: changeme").is_empty());
    }

    #[test]
    fn redaction_keeps_offsets() {
        let text = "a: 1\ntoken: ghp_0123456789abcdefghijklmnopqrstuvwxyz\npassword=hunter2024 x";
        let shown = redact(text);
        assert_eq!(shown.len(), text.len());
        assert!(shown.contains("ghp_01****"));
        assert!(shown.contains("password=hu******** x"));
        assert!(!shown.contains("hunter2024") && !shown.contains("abcdef"));
        assert!(matches!(
            redact("nothing here"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn helpers() {
        assert_eq!(mask("ghp_0123456789", 6), "ghp_01…");
        assert_eq!(mask("é", 6), "é…");
        assert!(is_placeholder("REDACTED") && is_placeholder("xxxxxxxx"));
        assert!(!is_placeholder("hunter2024"));
        assert!(looks_random("Zq8x3Lw9Pk2Rv7Tn4Ys1"));
        assert!(!looks_random("aaaaaaaaaaaaaaaaaaaa1") && !looks_random("short1"));
        assert!(is_identifier_or_hash(
            "123e4567-e89b-12d3-a456-426614174000"
        ));
        assert!(is_identifier_or_hash(&"ab12".repeat(16)));
        assert!(!is_identifier_or_hash("Zq8x3Lw9Pk2Rv7Tn4Ys1"));
        assert!(is_placeholder("changeme"));
    }

    #[test]
    fn a_line_of_tokens_is_capped() {
        let line = "AKIAIOSFODNN7EXAMPLE ".repeat(100);
        assert_eq!(scan_line(&line).len(), MAX_SECRETS_PER_LINE);
    }
}
