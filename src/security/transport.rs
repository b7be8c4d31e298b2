//! SEC070: credentials sent over plain `http://`: an endpoint of a transport that declares
//! credentials, a URL that carries them itself (`http://user:pass@`, `?api_key=`), or a
//! command that sends an `Authorization` header or `-u user:pass` to an `http://` URL; or
//! a server handed a secret in its environment and pointed at a bare public address (or a
//! request catcher) over `http://`.
//! Loopback hosts are exempt: nothing crosses a network.

use crate::analysis::shell::suspicious_host;
use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Diagnostic, visible};
use crate::rules::security as sec;
use crate::security::texts::{Text, TextKind, ToolTexts};

/// Query parameters that carry a credential.
const CREDENTIAL_PARAMS: &[&str] = &[
    "token",
    "access_token",
    "api_key",
    "apikey",
    "key",
    "password",
    "secret",
    "auth",
];

/// Words of a command that send a credential with its request.
const AUTH_WORDS: &[&str] = &[
    "authorization",
    "bearer ",
    "x-api-key",
    "api-key:",
    "private-token",
    "x-auth-token",
    "--user",
    "-u ",
    "--oauth2-bearer",
    "--http-user",
    "--password",
];

/// Past this many URLs on one line, the line is read no further.
const MAX_PER_LINE: usize = 8;

/// A plain `http://` URL in a text.
struct HttpUrl {
    /// Byte range of the whole URL.
    start: usize,
    end: usize,
    /// What in the URL itself is a credential, if anything.
    carries: Option<&'static str>,
}

/// Every way `tool` sends credentials in clear text.
pub(super) fn check(tool: &ToolTexts, out: &mut Findings) {
    for text in &tool.texts {
        let in_command = matches!(text.kind, TextKind::Command(_));
        if !in_command && text.kind != TextKind::Endpoint {
            continue;
        }
        let plain = text
            .value
            .as_bytes()
            .windows(7)
            .any(|w| w.eq_ignore_ascii_case(b"http://"));
        if !plain {
            continue;
        }
        for (line_start, line) in lines(&text.value) {
            let lower = line.to_ascii_lowercase();
            for url in http_urls(line).into_iter().take(MAX_PER_LINE) {
                let why = if let Some(what) = url.carries {
                    Some(what.to_string())
                } else if in_command && AUTH_WORDS.iter().any(|w| lower.contains(w)) {
                    Some("the command sends credentials with the request".to_string())
                } else if text.kind == TextKind::Endpoint && tool.credentials.is_some() {
                    Some("the transport sends its credentials to this endpoint".to_string())
                } else if tool.handed.is_some()
                    && suspicious_host(&host_of(&line[url.start..url.end]))
                {
                    Some(
                        "the server is handed a secret and pointed at a bare public address"
                            .to_string(),
                    )
                } else {
                    None
                };
                let Some(why) = why else {
                    continue;
                };
                out.push(diagnostic(tool, text, line_start, &url, line, &why));
            }
        }
    }
}

fn diagnostic(
    tool: &ToolTexts,
    text: &Text,
    base: usize,
    url: &HttpUrl,
    line: &str,
    why: &str,
) -> Diagnostic {
    let span = text.span_of(base + url.start..base + url.start + "http://".len());
    let shown: String = line[url.start..url.end].chars().take(60).collect();
    let host = shown
        .trim_start_matches("http://")
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .rsplit('@')
        .next()
        .unwrap_or("")
        .to_string();
    let mut d = Diagnostic::new(
        &sec::PLAINTEXT_CREDENTIALS,
        &text.file,
        span,
        format!(
            "credentials go to `{}` over plain http: {why}",
            visible(&host)
        ),
    )
    .label("not encrypted")
    .note("anyone on the network path can read and reuse the credential")
    .help("use `https://`");
    if let (Some(c), TextKind::Endpoint) = (tool.credentials, text.kind) {
        d = d.related(&text.file, c, "the credentials sent there");
    } else if let Some(h) = tool.handed {
        d = d.related(&text.file, h, "the secret the server is handed");
    }
    d
}

/// The host of an `http://` URL, without user, port, path or case.
fn host_of(url: &str) -> String {
    let authority = url
        .get("http://".len()..)
        .unwrap_or("")
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    host.split(':').next().unwrap_or("").to_ascii_lowercase()
}

/// The lines of `text` with their offsets.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n').map(move |l| {
        let start = at;
        at += l.len();
        (start, l.trim_end_matches(['\n', '\r']))
    })
}

/// The `http://` URLs of `line` whose host is not loopback.
fn http_urls(line: &str) -> Vec<HttpUrl> {
    let lower = line.to_ascii_lowercase();
    let mut out = Vec::new();
    for (start, _) in lower.match_indices("http://") {
        if start > 0 && lower.as_bytes()[start - 1].is_ascii_alphanumeric() {
            continue;
        }
        let end = line[start..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>' | ')'))
            .map_or(line.len(), |e| start + e);
        let url = &lower[start + 7..end];
        let authority = url.split(['/', '?', '#']).next().unwrap_or("");
        let (userinfo, host) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, authority),
        };
        if is_loopback(host) {
            continue;
        }
        let query = url.split_once('?').map(|(_, q)| q).unwrap_or("");
        let carries = if userinfo.is_some_and(|u| u.contains(':')) {
            Some("the URL carries a user and password")
        } else if query.split('&').any(|kv| {
            let key = kv.split('=').next().unwrap_or("");
            CREDENTIAL_PARAMS.contains(&key) && kv.contains('=')
        }) {
            Some("the URL carries a credential in its query")
        } else {
            None
        };
        out.push(HttpUrl {
            start,
            end,
            carries,
        });
    }
    out
}

/// `localhost`, `*.localhost`, `127.…`, `[::1]`, `0.0.0.0`, with or without a port.
fn is_loopback(host_port: &str) -> bool {
    let host = if host_port.starts_with('[') {
        host_port.split(']').next().map_or("", |h| &h[1..])
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "::1"
        || host == "0.0.0.0"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_hosts_and_credentials() {
        let found =
            http_urls("curl http://api.example.com/x?api_key=abc and http://localhost:8080/");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].carries,
            Some("the URL carries a credential in its query")
        );
        assert!(
            http_urls("https://x.example and http://127.0.0.1:9/ and http://[::1]:80/").is_empty()
        );
        assert_eq!(
            http_urls("http://bob:pw@db.example/")[0].carries,
            Some("the URL carries a user and password")
        );
        assert!(http_urls("http://example.com/page")[0].carries.is_none());
    }
}
