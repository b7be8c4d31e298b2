//! Literal credentials in HTTP headers: `Authorization: Bearer …`, `X-API-Key: …`, as
//! written in a `curl -H`, a YAML or JSON header map, or prose; and `user:password` pairs
//! given to a command (`curl -u`, `wget --user=`).

use super::{MAX_SECRETS_PER_LINE, Secret, SecretKind, is_placeholder, looks_random};

/// Headers whose value is a credential (lower case).
const HEADERS: &[&str] = &[
    "proxy-authorization",
    "authorization",
    "x-api-key",
    "api-key",
    "x-auth-token",
    "x-access-token",
    "private-token",
    "x-goog-api-key",
    "ocp-apim-subscription-key",
];

/// Authentication schemes that prefix a credential.
const SCHEMES: &[&str] = &["bearer", "basic", "token", "bot", "digest", "apikey"];

/// Shortest credential worth reporting.
const MIN_CREDENTIAL: usize = 8;

/// Credentials given literally as the value of a credential header in `line`.
pub(super) fn auth_headers(line: &str, out: &mut Vec<Secret>) {
    // Every header name ends in one of these: most lines are passed over without a copy.
    let has = |p: &[u8]| {
        line.as_bytes()
            .windows(p.len())
            .any(|w| w.eq_ignore_ascii_case(p))
    };
    if !(has(b"authorization") || has(b"-key") || has(b"-token")) {
        return;
    }
    let lower = line.to_ascii_lowercase();
    let b = line.as_bytes();
    for header in HEADERS {
        let mut from = 0;
        while let Some(at) = lower[from..].find(header).map(|p| from + p) {
            from = at + header.len();
            if out.len() >= MAX_SECRETS_PER_LINE {
                return;
            }
            // A header name is a word of its own: `x-api-key` is not `api-key` again.
            if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'-') {
                continue;
            }
            let mut i = from;
            while i < b.len() && matches!(b[i], b'"' | b'\'') {
                i += 1;
            }
            while i < b.len() && b[i] == b' ' {
                i += 1;
            }
            if b.get(i) != Some(&b':') {
                continue;
            }
            i += 1;
            let skip = |i: &mut usize| {
                while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'"' | b'\'') {
                    *i += 1;
                }
            };
            skip(&mut i);
            let word_end = |i: usize| {
                i + line[i..]
                    .find(|c: char| {
                        c.is_whitespace() || matches!(c, '"' | '\'' | ',' | '}' | ')' | ';')
                    })
                    .unwrap_or(line.len() - i)
            };
            let mut start = i;
            let mut end = word_end(start);
            if SCHEMES.contains(&lower[start..end].as_ref()) {
                start = end;
                skip(&mut start);
                end = word_end(start);
            }
            let value = &line[start..end];
            if value.len() < MIN_CREDENTIAL
                || is_placeholder(value)
                || !(value.chars().any(|c| c.is_ascii_digit()) || looks_random(value))
                || out.iter().any(|h| h.start <= start && start < h.end)
            {
                continue;
            }
            out.push(Secret {
                start,
                end,
                kind: SecretKind::AuthHeader {
                    name: line[at..at + header.len()].to_string(),
                },
            });
            from = end;
        }
    }
}

/// Options of HTTP clients that take a `user:password` pair (`curl -u`, `--user`).
const USER_OPTIONS: &[&str] = &["-u", "--user", "--proxy-user"];

/// Passwords given literally in a `user:password` option of an HTTP client in `line` (not
/// `docker run -u uid:gid`: the line must fetch something).
pub(super) fn user_passwords(line: &str, out: &mut Vec<Secret>) {
    if !(line.contains("://") || line.contains("curl") || line.contains("wget")) {
        return;
    }
    let mut words = line
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w));
    while let Some((at, word)) = words.next() {
        if out.len() >= MAX_SECRETS_PER_LINE {
            return;
        }
        let (value_at, value) = match word.split_once('=') {
            Some((option, value)) if USER_OPTIONS.contains(&option) => {
                (at + option.len() + 1, value)
            }
            None if USER_OPTIONS.contains(&word) => match words.next() {
                Some(next) => next,
                None => return,
            },
            _ => continue,
        };
        let quote = usize::from(value.starts_with(['"', '\'']));
        let value = value.trim_matches(['"', '\'']);
        let Some((user, password)) = value.split_once(':') else {
            continue;
        };
        if user.is_empty()
            || user.starts_with('$')
            || password.len() < 4
            || password.bytes().all(|b| b.is_ascii_digit())
            || is_placeholder(password)
            || password.contains('$')
        {
            continue;
        }
        let start = value_at + quote + user.len() + 1;
        if out.iter().any(|h| h.start <= start && start < h.end) {
            continue;
        }
        out.push(Secret {
            start,
            end: start + password.len(),
            kind: SecretKind::UserPassword,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::scan_line;
    use super::*;

    fn found(line: &str) -> Vec<&str> {
        scan_line(line)
            .into_iter()
            .map(|s| &line[s.start..s.end])
            .collect()
    }

    #[test]
    fn literal_header_credentials() {
        assert_eq!(
            found("curl -H \"Authorization: Bearer abc123def456ghi\" x"),
            ["abc123def456ghi"]
        );
        assert_eq!(found("  X-API-Key: 9f8e7d6c5b4a3210"), ["9f8e7d6c5b4a3210"]);
        assert_eq!(
            found(r#"{"Authorization": "Basic dXNlcjpwYXNzd29yZA=="}"#),
            ["dXNlcjpwYXNzd29yZA=="]
        );
        let kinds: Vec<SecretKind> = scan_line("authorization: token 12345678abcd")
            .into_iter()
            .map(|s| s.kind)
            .collect();
        assert_eq!(
            kinds,
            [SecretKind::AuthHeader {
                name: "authorization".into()
            }]
        );
    }

    #[test]
    fn references_and_prose_are_not_credentials() {
        for line in [
            "Authorization: Bearer ${API_TOKEN}",
            "-H 'Authorization: Bearer $TOKEN'",
            "Authorization: Bearer <token>",
            "Authorization: Bearer {{token}}",
            "the Authorization header carries a bearer token",
            "Authorization: required",
        ] {
            assert!(found(line).is_empty(), "{line}");
        }
    }
}
