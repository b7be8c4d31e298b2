//! Secrets through the variables of Python and JavaScript: a secret environment variable read
//! (`t = os.environ["GITHUB_TOKEN"]`, `const k = process.env.AWS_SECRET_ACCESS_KEY`), copied
//! through plain assignments, and found in what a call sends (its body, data or URL; never
//! its headers, where a token goes to the service it is for). Sent to a host its name says
//! it does not belong to, or where no service lives, it is an exfiltration with both places.

use std::cell::OnceCell;

use super::super::services::sent_elsewhere;
use super::super::vocab::{host_of, is_secret_name, suspicious_host, urls};
use super::super::{Danger, DangerKind, Related};
use super::literals::floor;
use super::{
    ASSIGNED, DATA_URL, ENV_VAR, JS_SEND, Language, MAX_CALL, OTHER_SEND, PY_SEND, env_name,
};

/// Variables followed in one script at most.
const MAX_TAINTED: usize = 64;

/// Sends judged in one script at most.
const MAX_SENDS: usize = 64;

/// A variable that holds a secret.
struct Tainted {
    /// The variable's name.
    name: String,
    /// The environment variable it comes from.
    secret: String,
    /// Where that variable is read.
    start: usize,
    end: usize,
}

/// Words in an assignment that make it a header or credential of a request, not data.
const HEADERS: &[&str] = &["header", "authorization", "bearer", "auth", "x-api-key"];

/// The exfiltrations of secret environment variables in `source`.
pub(super) fn secret_sends(source: &str, lang: Language, out: &mut Vec<Danger>) {
    let Some(env) = ENV_VAR.as_ref() else {
        return;
    };
    if !env.is_match(source) {
        return;
    }
    let tainted = tainted(source);
    let sends = match lang {
        Language::Python => PY_SEND.as_ref(),
        Language::JavaScript => JS_SEND.as_ref(),
        Language::Other => OTHER_SEND.as_ref(),
    };
    let calls = sends
        .into_iter()
        .chain(DATA_URL.as_ref())
        .flat_map(|re| re.find_iter(source))
        .map(|m| m.start())
        .chain(
            // `req.write(data)` after `https.request(…)`: the body of that request.
            (lang == Language::JavaScript && source.contains(".request("))
                .then(|| writes(source))
                .into_iter()
                .flatten(),
        )
        .take(MAX_SENDS);
    let url_lines = OnceCell::new();
    for start in calls {
        let Some((args_at, args)) = arguments(source, start) else {
            continue;
        };
        let data = without_headers(args);
        let found = env
            .captures_iter(&data)
            .find_map(|c| {
                let name = env_name(&c)?;
                let m = c.get(0)?;
                is_secret_name(name.as_str()).then(|| {
                    let closed = data[m.end()..].starts_with([']', ')']);
                    (
                        name.as_str().to_string(),
                        args_at + m.start(),
                        args_at + m.end() + usize::from(closed),
                    )
                })
            })
            .or_else(|| {
                tainted
                    .iter()
                    .find(|t| identifiers(&data).any(|w| w == t.name))
                    .map(|t| (t.secret.clone(), t.start, t.end))
            });
        let Some((secret, from, to)) = found else {
            continue;
        };
        let Some(host) = host(source, start, args, &url_lines) else {
            continue;
        };
        if !(suspicious_host(&host) || sent_elsewhere(&secret, &host)) {
            continue;
        }
        let call_end = source[start..]
            .find('(')
            .map_or(start + 1, |i| start + i + 1);
        if out.len() < super::super::MAX_DANGERS {
            out.push(Danger {
                start,
                end: call_end,
                kind: DangerKind::Exfiltration,
                what: format!("a send to {host}"),
                related: Some(Related {
                    start: from,
                    end: to.max(from),
                    what: format!("reads {secret}"),
                }),
            });
        }
    }
}

/// The variables filled from a secret environment variable, and their plain copies.
fn tainted(source: &str) -> Vec<Tainted> {
    let (Some(assigned), Some(env)) = (ASSIGNED.as_ref(), ENV_VAR.as_ref()) else {
        return Vec::new();
    };
    let mut lines: Vec<(usize, &str, &str)> = Vec::new();
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        if let Some(name) = assigned.captures(line).and_then(|c| c.get(1)) {
            let value_at = line[name.end()..]
                .find('=')
                .map_or(name.end(), |i| name.end() + i + 1);
            let value = &line[value_at..];
            let lower = value.to_ascii_lowercase();
            if !HEADERS.iter().any(|h| lower.contains(h)) {
                lines.push((at + value_at, name.as_str(), value));
            }
        }
        at += line.len();
    }
    let mut out: Vec<Tainted> = Vec::new();
    for (base, name, value) in &lines {
        let read = env.captures_iter(value).find_map(|c| {
            let n = env_name(&c)?;
            let m = c.get(0)?;
            is_secret_name(n.as_str()).then(|| (n.as_str().to_string(), m.start(), m.end()))
        });
        if let Some((secret, s, e)) = read
            && out.len() < MAX_TAINTED
        {
            out.push(Tainted {
                name: (*name).to_string(),
                secret,
                start: base + s,
                end: base + e + usize::from(value[e..].starts_with([']', ')'])),
            });
        }
    }
    // Copies: `payload = {"k": t}`, `body = t.encode()` (twice, for a copy of a copy).
    for _ in 0..2 {
        for (_, name, value) in &lines {
            if out.len() >= MAX_TAINTED || out.iter().any(|t| t.name == *name) {
                continue;
            }
            let from = out
                .iter()
                .find(|t| identifiers(value).any(|w| w == t.name))
                .map(|t| (t.secret.clone(), t.start, t.end));
            if let Some((secret, start, end)) = from {
                out.push(Tainted {
                    name: (*name).to_string(),
                    secret,
                    start,
                    end,
                });
            }
        }
    }
    out
}

/// The offsets of `.write(` and `.end(` calls with an argument.
fn writes(source: &str) -> Vec<usize> {
    [".write(", ".end("]
        .iter()
        .flat_map(|w| source.match_indices(w))
        .filter(|(i, w)| !source[i + w.len()..].starts_with(')'))
        .map(|(i, _)| i)
        .take(MAX_SENDS)
        .collect()
}

/// The text between the parentheses of the call starting at `start`, with its offset.
fn arguments(source: &str, start: usize) -> Option<(usize, &str)> {
    let rest = source.get(start..)?;
    let rest = &rest[..floor(rest, MAX_CALL)];
    let open = rest.find('(')?;
    let mut depth = 0usize;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some((start + open + 1, &rest[open + 1..open + i]));
                }
            }
            _ => {}
        }
    }
    Some((start + open + 1, &rest[open + 1..]))
}

/// `args` with the values of its headers and credentials blanked, byte for byte.
fn without_headers(args: &str) -> String {
    let lower = args.to_ascii_lowercase();
    let mut out = args.as_bytes().to_vec();
    for key in ["headers", "auth", "authorization", "x-api-key"] {
        // A few places per key: a hostile argument of a thousand `auth:` costs no more.
        for (i, _) in lower.match_indices(key).take(16) {
            let after = &args[i + key.len()..];
            let after = after.trim_start_matches(['"', '\'']).trim_start();
            let Some(value) = after.strip_prefix([':', '=']) else {
                continue;
            };
            let value_at = args.len() - value.len();
            let end = value_at + value_end(value);
            for b in out.iter_mut().take(end).skip(i) {
                *b = b' ';
            }
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Where a value starting `text` ends: its brackets closed, or the next separator.
fn value_end(text: &str) -> usize {
    let mut depth = 0usize;
    let mut started = false;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                started = true;
            }
            ')' | ']' | '}' if depth == 0 => return i,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 && started {
                    return i + 1;
                }
            }
            ',' | '\n' if depth == 0 => return i,
            _ => {}
        }
    }
    text.len()
}

/// The host a call sends to: a URL in its arguments, a `hostname:` it names, the URL a
/// variable it is given was set to, or (a `.write` of a request) the request's host.
fn host<'s>(
    source: &'s str,
    start: usize,
    args: &str,
    url_lines: &OnceCell<Vec<UrlLine<'s>>>,
) -> Option<String> {
    if let Some(h) = urls(args).find_map(|(_, u)| host_of(u)) {
        return Some(h);
    }
    if let Some(h) = hostname(args) {
        return Some(h);
    }
    let first = args.split(',').next().unwrap_or("").trim();
    if !first.is_empty() && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        let set = url_lines
            .get_or_init(|| url_assignments(source))
            .iter()
            .find(|(name, _)| *name == first);
        if let Some(h) = set.and_then(|(_, l)| urls(l).find_map(|(_, u)| host_of(u))) {
            return Some(h);
        }
    }
    // `req.write(data)`: the last request opened before it.
    let before = &source[..start];
    let request = before.rfind(".request(")?;
    let (_, opened) = arguments(source, request)?;
    urls(opened)
        .find_map(|(_, u)| host_of(u))
        .or_else(|| hostname(opened))
}

/// A variable and the line that sets it to a text holding a URL.
type UrlLine<'s> = (&'s str, &'s str);

/// The lines of `source` that set a variable to a text holding a URL, in order: read once
/// for all of a script's sends (for each of 64, a megabyte took 2.5 s).
fn url_assignments(source: &str) -> Vec<UrlLine<'_>> {
    let Some(assigned) = ASSIGNED.as_ref() else {
        return Vec::new();
    };
    source
        .lines()
        .filter(|l| l.contains("://"))
        .filter_map(|l| Some((assigned.captures(l)?.get(1)?.as_str(), l)))
        .collect()
}

/// `hostname: 'x.example'` (Node's request options).
fn hostname(args: &str) -> Option<String> {
    let at = args.find("hostname")?;
    let rest = args[at + "hostname".len()..]
        .trim_start_matches(['"', '\''])
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let quote = rest
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = &rest[1..];
    let end = inner.find(quote)?;
    let host = &inner[..end];
    (host.contains('.') && !host.contains(' ')).then(|| host.to_ascii_lowercase())
}

/// The identifiers of a piece of code, in order.
fn identifiers(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
}
