//! Literal credentials in HTTP headers: `Authorization: Bearer …`, `X-API-Key: …`, as
//! written in a `curl -H`, a YAML or JSON header map, or prose; and `user:password` pairs
//! given to a command (`curl -u`, `wget --user=`).

use super::strength::{Bar, strong};
use super::{MAX_SECRETS_PER_LINE, Secret, SecretKind, maybe_password};

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
            let scheme = &lower[start..end];
            let basic = scheme == "basic";
            if SCHEMES.contains(&scheme) {
                start = end;
                skip(&mut start);
                end = word_end(start);
            }
            let value = &line[start..end];
            if value.is_empty() || out.iter().any(|h| h.holds(start)) {
                continue;
            }
            let secret = Secret::new(
                start,
                end,
                SecretKind::AuthHeader {
                    name: line[at..at + header.len()].to_string(),
                },
            );
            // A header carries a generated token; `Basic` a `user:password` pair, judged by
            // its password once decoded.
            let bar = if basic { Bar::Password } else { Bar::Random };
            if strong(value, bar) {
                out.push(secret);
            } else if maybe_password(value) {
                out.push(secret.masked_only());
            }
            from = end;
        }
    }
}

/// Options of HTTP clients that take a `user:password` pair (`curl -u`, `--user`).
const USER_OPTIONS: &[&str] = &["-u", "--user", "-U", "--proxy-user", "--http-user"];

/// HTTP clients whose options [`USER_OPTIONS`] are.
const HTTP_CLIENTS: &[&str] = &["curl", "curl.exe", "wget", "wget2"];

/// Lines of a backslash-continued command looked back over for its program.
const MAX_CONTINUED: usize = 32;

/// Whether `line` continues (`\\` at the end of the lines before, in `before`) a command
/// that an HTTP client began.
fn continues_client(before: &str) -> bool {
    let mut lines = before.strip_suffix('\n').unwrap_or(before).rsplit('\n');
    for _ in 0..MAX_CONTINUED {
        let Some(continued) = lines
            .next()
            .and_then(|l| l.trim_end_matches('\r').trim_end().strip_suffix('\\'))
        else {
            return false;
        };
        if crate::analysis::shell::words(continued).any(|(_, w)| is_client(w)) {
            return true;
        }
    }
    false
}

fn is_client(word: &str) -> bool {
    HTTP_CLIENTS.contains(&crate::analysis::shell::program_name(word))
}

/// Passwords given literally in a `user:password` option of an HTTP client (`curl -u`,
/// `wget --http-user`) in `line`, whose text before is `before`. Not a script's own `-u`
/// (`-u https://…`), not `docker run -u uid:gid`: the option must follow `curl` or `wget`
/// in the same command (perhaps on a line before, continued with `\\`), and its value be a
/// `user:password` pair whose password is random or a strong password.
pub(super) fn user_passwords(line: &str, before: &str, out: &mut Vec<Secret>) {
    if !line.contains("-u") && !line.contains("-U") && !line.contains("-user") {
        return;
    }
    let mut in_client: Option<bool> = None;
    let mut words = crate::analysis::shell::words(line);
    while let Some((at, word)) = words.next() {
        if out.len() >= MAX_SECRETS_PER_LINE {
            return;
        }
        if is_client(word) {
            in_client = Some(true);
            continue;
        }
        if matches!(word, "|" | "||" | "&&" | ";" | "&") || word.ends_with(';') {
            in_client = Some(false);
            continue;
        }
        let option = word.split_once('=').map_or(word, |(o, _)| o);
        if !USER_OPTIONS.contains(&option) {
            continue;
        }
        // Only an option's line looks back for the command it continues.
        if !*in_client.get_or_insert_with(|| continues_client(before)) {
            continue;
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
        let user_ok = !user.is_empty()
            && user.bytes().all(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'@' | b'+')
            });
        let start = value_at + quote + user.len() + 1;
        if !user_ok || password.contains('$') || out.iter().any(|h| h.holds(start)) {
            continue;
        }
        let secret = Secret::new(start, start + password.len(), SecretKind::UserPassword);
        if password != user && strong(password, Bar::Password) {
            out.push(secret);
        } else if maybe_password(password) {
            out.push(secret.masked_only());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::scan_line;
    use super::super::tests::reported as found;
    use super::*;

    #[test]
    fn literal_header_credentials() {
        assert_eq!(
            found("curl -H \"Authorization: Bearer q7Rx2mVp9Lk4Wz8N\" x"),
            ["q7Rx2mVp9Lk4Wz8N"]
        );
        assert_eq!(
            found("  X-API-Key: b71e0f9c4d2a86e35f1c07ab"),
            ["b71e0f9c4d2a86e35f1c07ab"]
        );
        // `Basic` is judged by the password it decodes to.
        use base64::Engine as _;
        let strong = base64::engine::general_purpose::STANDARD.encode("deploy:k9#mQ2!vL7pX");
        let line = format!(r#"{{"Authorization": "Basic {strong}"}}"#);
        assert_eq!(found(&line), [strong.as_str()]);
        let kinds: Vec<SecretKind> = scan_line("authorization: token 9f3Kq2LmX8vR4tZ7")
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
    fn references_placeholders_and_prose_are_not_credentials() {
        for line in [
            "Authorization: Bearer ${API_TOKEN}",
            "-H 'Authorization: Bearer $TOKEN'",
            "Authorization: Bearer <token>",
            "Authorization: Bearer {{token}}",
            "the Authorization header carries a bearer token",
            "Authorization: required",
            "   -H \"Authorization: Bearer token123\" \\",
            "-H \"Authorization: Bearer token\"",
            "Authorization: Bearer abc123def456ghi",
            // `user:password`, base64.
            r#"{"Authorization": "Basic dXNlcjpwYXNzd29yZA=="}"#,
        ] {
            assert!(found(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn user_passwords_given_to_http_clients() {
        let line =
            "curl -u admin:k9#mQ2!vL7pX https://x && wget --http-user=bob:Zq8x3Lw9Pk2Rv7Tn y";
        assert_eq!(found(line), ["k9#mQ2!vL7pX", "Zq8x3Lw9Pk2Rv7Tn"]);
        // A continued `curl` command: its options are on the lines after.
        let text = "curl -X POST \\\n  -u admin:k9#mQ2!vL7pX \\\n  https://x\n";
        let hits: Vec<&str> = crate::analysis::secrets::scan_text(text)
            .into_iter()
            .filter(|s| s.reported)
            .map(|s| &text[s.start..s.end])
            .collect();
        assert_eq!(hits, ["k9#mQ2!vL7pX"]);
        for line in [
            "curl -u \"$USER:$PASS\" https://x",
            "curl -u admin https://x; sort -u a:b",
            "python -u run.py --user alice",
            "docker run -u app:app img; curl -u 1000:1000 https://x",
            // A script's own `-u URL`, next to a header.
            "python evaluation.py -t sse -u https://example.com/mcp -H \"Authorization: Bearer token\" eval.xml",
            "   -u https://example.com/mcp \\",
            // A weak or placeholder password is not reported.
            "curl -u admin:Winter2025 https://x",
            "curl -u user:password https://x",
            // Not a command of an HTTP client.
            "ssh -u deploy:k9#mQ2!vL7pX host",
        ] {
            assert!(found(line).is_empty(), "{line}");
        }
        // A script's continued command line is not curl's.
        let text =
            "python evaluation.py \\\n   -u https://example.com/mcp \\\n   -u ops:k9#mQ2!vL7pX\n";
        assert!(
            crate::analysis::secrets::scan_text(text)
                .iter()
                .all(|s| !s.reported)
        );
    }
}
