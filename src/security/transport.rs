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
use crate::text::WordEnds;

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
            let sends_auth = in_command && AUTH_WORDS.iter().any(|w| lower.contains(w));
            for url in http_urls(line, &lower) {
                if out.counted(&sec::PLAINTEXT_CREDENTIALS) {
                    continue;
                }
                let why = if let Some(what) = url.carries {
                    Some(what.to_string())
                } else if sends_auth {
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

/// The `http://` URLs of `line` whose host is not loopback. Linear in the line, however
/// many URLs it holds: one URL may run into the next (`http://http://…` has no blank between
/// them), so where each ends, where its query starts and which credentials its query names
/// are found from marks made in one pass, not by reading each URL to its end. `lower` is
/// `line` in ASCII lower case, which the caller has made already (a line of a megabyte is
/// lowered once).
fn http_urls(line: &str, lower: &str) -> Vec<HttpUrl> {
    let marks = QueryMarks::of(lower);
    let mut out = Vec::new();
    let mut ends = WordEnds::new(|c: char| {
        c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>' | ')')
    });
    for (start, _) in lower.match_indices("http://") {
        if start > 0 && lower.as_bytes()[start - 1].is_ascii_alphanumeric() {
            continue;
        }
        let end = ends.of(line, start);
        let after_scheme = start + "http://".len();
        // The authority ends at the first `/`: every later `http://` holds one, so no byte is
        // read for two authorities.
        let authority_len = lower[after_scheme..end]
            .find(['/', '?', '#'])
            .unwrap_or(end - after_scheme);
        let authority = &lower[after_scheme..after_scheme + authority_len];
        let (userinfo, host) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, authority),
        };
        if is_loopback(host) {
            continue;
        }
        let carries = if userinfo.is_some_and(|u| u.contains(':')) {
            Some("the URL carries a user and password")
        } else if marks.credential_in_query(after_scheme + authority_len, end) {
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

/// Where a line's `?`s stand, and where a parameter that names a credential
/// (`CREDENTIAL_PARAMS`, then `=`) starts right after an `&`: both in order.
struct QueryMarks<'a> {
    lower: &'a [u8],
    questions: Vec<usize>,
    credentials: Vec<usize>,
}

impl QueryMarks<'_> {
    fn of(lower: &str) -> QueryMarks<'_> {
        let bytes = lower.as_bytes();
        let mut marks = QueryMarks {
            lower: bytes,
            questions: Vec::new(),
            credentials: Vec::new(),
        };
        for (at, &b) in bytes.iter().enumerate() {
            if b == b'?' {
                marks.questions.push(at);
            } else if b == b'&' && marks.names_credential(at + 1) {
                marks.credentials.push(at + 1);
            }
        }
        marks
    }

    /// Whether a parameter that names a credential starts at `at`.
    fn names_credential(&self, at: usize) -> bool {
        let rest = self.lower.get(at..).unwrap_or_default();
        CREDENTIAL_PARAMS
            .iter()
            .any(|p| rest.starts_with(p.as_bytes()) && rest.get(p.len()) == Some(&b'='))
    }

    /// Whether the query of a URL whose path starts at `from` and which ends at `end` names a
    /// credential: its query starts at the first `?` from `from`, and its parameters start
    /// right after that `?` and after each `&` past it (a later `?` is part of a value).
    fn credential_in_query(&self, from: usize, end: usize) -> bool {
        let q = self.questions.partition_point(|&at| at < from);
        let Some(&question) = self.questions.get(q).filter(|&&at| at < end) else {
            return false;
        };
        if self.names_credential(question + 1) {
            return true;
        }
        let c = self.credentials.partition_point(|&at| at <= question);
        self.credentials.get(c).is_some_and(|&at| at < end)
    }
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

    fn http_urls(line: &str) -> Vec<HttpUrl> {
        super::http_urls(line, &line.to_ascii_lowercase())
    }

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
