//! Credentials of a known format, found by their prefix and then checked the way the issuer
//! builds them: exact lengths and alphabets, GitHub's CRC32 checksum, the OpenAI and
//! Anthropic markers, a JSON Web Token's decoded header, a private key block's body. A
//! prefix with the wrong body is an example or a placeholder (`ghp_xxx`, `AKIA…EXAMPLE`,
//! `eyJhbGciOiJSUzI1NiIs...`) and is not reported.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use base64::Engine as _;

use super::strength::{entropy, is_placeholder, looks_random};
use crate::text::floor_boundary;

/// A format's prefix and its check: from the prefix at byte `at` of `line` (and the text
/// after the line, for a key block's body), the token it starts, if it is one.
struct Format {
    prefix: &'static str,
    check: fn(&Cursor<'_>) -> Option<Token>,
}

/// Where a prefix was found.
pub(super) struct Cursor<'a> {
    /// The line.
    pub(super) line: &'a str,
    /// Byte offset of the prefix in it.
    pub(super) at: usize,
    /// The text after the line (a key block's body is on the lines that follow).
    pub(super) after: &'a str,
    /// Where `after` starts, in bytes from the line's start.
    pub(super) after_at: usize,
}

/// A token found.
pub(super) struct Token {
    /// Byte offset in the line after its last character.
    pub(super) end: usize,
    /// What it is, for a message.
    pub(super) what: &'static str,
    /// Characters that may be shown of it (its prefix and two more).
    pub(super) shown: usize,
    /// Masked in output and never reported: its checksum or structure proves it made up
    /// (shaped like the format but not one), or it is glued to the word before it.
    pub(super) fake: bool,
    /// A private key block: the byte offset (from the line's start, past its end when the
    /// block spans lines) where its body ends, masked along with it.
    pub(super) body_end: Option<usize>,
    /// Not a token but the rest of a word that was not read for one (below), masked.
    pub(super) unread: bool,
}

impl Token {
    fn new(end: usize, what: &'static str, shown: usize) -> Self {
        Token {
            end,
            what,
            shown,
            fake: false,
            body_end: None,
            unread: false,
        }
    }

    /// The rest of a word, up to `end`, not read for a token.
    fn unread(end: usize) -> Self {
        Token {
            fake: true,
            unread: true,
            ..Token::new(end, "text not read", 0)
        }
    }
}

impl Format {
    const fn new(prefix: &'static str, check: fn(&Cursor<'_>) -> Option<Token>) -> Self {
        Format { prefix, check }
    }
}

/// The formats, by prefix. A prefix must start a word (not `task-…` for `sk-`).
const FORMATS: &[Format] = &[
    Format::new("ghp_", github),
    Format::new("gho_", github),
    Format::new("ghu_", github),
    Format::new("ghs_", github),
    Format::new("ghr_", github),
    Format::new("npm_", github),
    Format::new("github_pat_", github_fine_grained),
    Format::new("glpat-", gitlab),
    Format::new("xox", slack),
    Format::new("xapp-", slack),
    Format::new("hooks.slack.com/", slack_webhook),
    Format::new("sk_live_", stripe),
    Format::new("rk_live_", stripe),
    Format::new("sk-", sk),
    Format::new("AKIA", aws),
    Format::new("ASIA", aws),
    Format::new("ABIA", aws),
    Format::new("ACCA", aws),
    Format::new("AIza", google),
    Format::new("hf_", hugging_face),
    Format::new("pypi-AgEIcHlwaS5vcmc", pypi),
    Format::new("eyJ", jwt),
    Format::new("-----BEGIN ", private_key),
];

/// Every format's prefix, in [`FORMATS`] order: the words without which a line holds no
/// token (the text scan's trigger words start with these).
pub(super) fn prefixes() -> impl Iterator<Item = &'static str> {
    FORMATS.iter().map(|f| f.prefix)
}

/// The prefixes as one automaton, so a line is searched once for all of them.
static PREFIXES: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostFirst)
        .build(prefixes())
        .ok()
});

/// The tokens of known formats in `line` (with `after`, the text that follows it from
/// byte `after_at` of the line on), each with its byte offset, in line order.
pub(super) fn tokens(line: &str, after: &str, after_at: usize) -> Vec<(usize, Token)> {
    let mut out = Vec::new();
    let Some(ac) = PREFIXES.as_ref() else {
        return out;
    };
    let b = line.as_bytes();
    let mut from = 0;
    // For each format, where the word of its last token looked for glued to a word ends:
    // one such look a word and format, or `sk-sk-sk-…` would read the rest of the line once
    // for each prefix (`task-ghp_…` is still looked at for both). A later prefix of the
    // format in that word is not looked at, so the rest of the word is masked from there
    // (`aghp_xghp_…` hides a token behind a failed one), once a word.
    let mut glued = [Glued::default(); FORMATS.len()];
    while let Some(m) = ac.find(&line[from..]) {
        let at = from + m.start();
        from = at + m.len();
        let format = &FORMATS[m.pattern().as_usize()];
        let starts_word = format.prefix.starts_with("hooks.")
            || format.prefix.starts_with('-')
            || at == 0
            || !(b[at - 1].is_ascii_alphanumeric() || matches!(b[at - 1], b'_' | b'-'));
        if !starts_word {
            let Some(word) = glued.get_mut(m.pattern().as_usize()) else {
                continue;
            };
            if at < word.until {
                if !word.masked {
                    word.masked = true;
                    out.push((at, Token::unread(word.until)));
                }
                continue;
            }
            *word = Glued {
                until: at + run(b, at, word_dash),
                masked: false,
            };
        }
        if let Some(mut token) = (format.check)(&Cursor {
            line,
            at,
            after,
            after_at,
        }) {
            // Glued to a word (`xghp_…`, a base64 blob): not reported, a word is seldom a
            // credential; but masked, since a message may quote it whole.
            token.fake |= !starts_word;
            // What the token holds is never scanned again.
            from = token.end.clamp(from, line.len());
            out.push((at, token));
        }
    }
    out
}

/// The word a format's last token glued to a word was looked for in.
#[derive(Clone, Copy, Default)]
struct Glued {
    /// Where the word ends.
    until: usize,
    /// Whether the rest of the word is masked already.
    masked: bool,
}

/// Bytes from `from` while `ok`: the greedy body of a token.
fn run(b: &[u8], from: usize, ok: fn(u8) -> bool) -> usize {
    b[from.min(b.len())..]
        .iter()
        .take_while(|c| ok(**c))
        .count()
}

fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}
fn word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}
fn word_dash(c: u8) -> bool {
    word(c) || c == b'-'
}

/// Not an example: no placeholder word or run, and some variety.
fn plausible(body: &str) -> bool {
    !is_placeholder(body) && entropy(body) >= 3.0
}

/// GitHub's classic tokens (and npm's, built the same way): 30 random base62 characters
/// and the CRC32 of them, base62, in 6 more.
fn github(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 4;
    let len = run(b, from, alnum);
    if len != 36 || b.get(from + len) == Some(&b'_') {
        return None;
    }
    let body = &c.line[from..from + len];
    let what = match &c.line[c.at..from] {
        "npm_" => "an npm access token",
        "ghp_" => "a GitHub personal access token",
        "gho_" => "a GitHub OAuth token",
        "ghu_" => "a GitHub user-to-server token",
        "ghs_" => "a GitHub server-to-server token",
        _ => "a GitHub refresh token",
    };
    let mut token = Token::new(from + len, what, 6);
    token.fake = body[30..] != base62_checksum(&body[..30]);
    Some(token)
}

/// The 6-character base62 (`0-9A-Za-z`) CRC32 of `text`, as GitHub's tokens end.
pub(super) fn base62_checksum(text: &str) -> String {
    const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut n = crc32fast::hash(text.as_bytes());
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 62) as usize];
        n /= 62;
    }
    out.iter().map(|d| char::from(*d)).collect()
}

/// GitHub's fine-grained tokens: `github_pat_`, 22 base62, `_`, 59 base62.
fn github_fine_grained(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 11;
    let len = run(b, from, word);
    let body = &c.line[from..from + len];
    let shaped = len == 82
        && body.as_bytes()[22] == b'_'
        && body[..22].bytes().chain(body[23..].bytes()).all(alnum);
    (shaped && plausible(body)).then(|| Token::new(from + len, "a GitHub fine-grained token", 13))
}

/// GitLab's personal access tokens: `glpat-` and 20 characters, or 27 and more (the
/// routable format, perhaps with its `.xx…` suffix).
fn gitlab(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 6;
    let len = run(b, from, word_dash);
    let mut end = from + len;
    if !(len == 20 || len >= 27) || !plausible(&c.line[from..end]) {
        return None;
    }
    if len >= 27 && b.get(end) == Some(&b'.') {
        end += 1 + run(b, end + 1, |c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'.'
        });
    }
    Some(Token::new(end, "a GitLab personal access token", 8))
}

/// Slack's tokens (`xoxb-`, `xoxp-`, `xoxe-`, `xapp-`…): dash-separated parts, numeric ids
/// and a long random last part.
fn slack(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = if c.line[c.at..].starts_with("xapp-") {
        c.at + 5
    } else {
        let kind = *b.get(c.at + 3)?;
        if !matches!(kind, b'a' | b'b' | b'e' | b'o' | b'p' | b'r' | b's')
            || b.get(c.at + 4) != Some(&b'-')
        {
            return None;
        }
        c.at + 5
    };
    let len = run(b, from, |c| c.is_ascii_alphanumeric() || c == b'-');
    let body = &c.line[from..from + len];
    let last = body.rsplit('-').next().unwrap_or("");
    let ids = body
        .split('-')
        .filter(|p| !p.is_empty() && p.bytes().all(|d| d.is_ascii_digit()))
        .count();
    (ids >= 1 && last.len() >= 16 && plausible(last))
        .then(|| Token::new(from + len, "a Slack token", 7))
}

/// Slack's incoming webhooks: `hooks.slack.com/services/T…/B…/…` (and the workflow and
/// trigger kinds), 40 and more random characters after the kind.
fn slack_webhook(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let rest = &c.line[c.at + 16..];
    let kind = ["services/", "workflows/", "triggers/"]
        .into_iter()
        .find(|k| rest.starts_with(k))?;
    let from = c.at + 16 + kind.len();
    let len = run(b, from, |c| {
        c.is_ascii_alphanumeric() || c == b'/' || c == b'+'
    });
    let body = &c.line[from..from + len];
    let last = body.rsplit('/').next().unwrap_or("");
    ((40..=64).contains(&len) && last.len() >= 20 && plausible(last))
        .then(|| Token::new(from + len, "a Slack webhook URL", 16 + kind.len()))
}

/// Stripe's live secret and restricted keys: `sk_live_` / `rk_live_` and 24 or more
/// base62 characters. (Test-mode keys reach no money and fill Stripe's own docs.)
fn stripe(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 8;
    let len = run(b, from, alnum);
    (len >= 24 && plausible(&c.line[from..from + len]))
        .then(|| Token::new(from + len, "a Stripe live secret key", 10))
}

/// `sk-`: Anthropic's keys (`sk-ant-api03-`, 93 characters, `AA`), OpenAI's project,
/// service-account and admin keys (`sk-proj-…`), OpenAI's older keys (20 characters, the
/// `T3BlbkFJ` marker, 20 more), and other `sk-` keys of 32 or more random characters.
fn sk(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let rest = &c.line[c.at + 3..];
    if let Some(kind) = rest.strip_prefix("ant-") {
        let name = run(kind.as_bytes(), 0, |c| {
            c.is_ascii_lowercase() || c.is_ascii_digit()
        });
        let version_ok = name >= 3
            && kind.as_bytes()[name - 2..name]
                .iter()
                .all(u8::is_ascii_digit)
            && kind.as_bytes().get(name) == Some(&b'-');
        if !version_ok {
            return None;
        }
        let from = c.at + 7 + name + 1;
        let len = run(b, from, word_dash);
        let body = &c.line[from..from + len];
        return (len == 95 && body.ends_with("AA") && plausible(body))
            .then(|| Token::new(from + len, "an Anthropic API key", 9));
    }
    for kind in ["proj-", "svcacct-", "admin-"] {
        if rest.starts_with(kind) {
            let from = c.at + 3 + kind.len();
            let len = run(b, from, word_dash);
            let body = &c.line[from..from + len];
            return (len >= 40
                && plausible(body)
                && (body.contains("T3BlbkFJ") || looks_random(body)))
            .then(|| Token::new(from + len, "an OpenAI API key", 3 + kind.len() + 2));
        }
    }
    let from = c.at + 3;
    let len = run(b, from, alnum);
    let body = &c.line[from..from + len];
    if len == 48 && &body[20..28] == "T3BlbkFJ" {
        return Some(Token::new(from + len, "an OpenAI API key", 5));
    }
    (len >= 32 && b.get(from + len) != Some(&b'-') && plausible(body) && looks_random(body))
        .then(|| Token::new(from + len, "an API secret key", 5))
}

/// AWS access key ids: `AKIA` (or `ASIA`, `ABIA`, `ACCA`) and 16 characters of base32
/// (`A-Z2-7`), a word of its own.
fn aws(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 4;
    let len = run(b, from, alnum);
    let body = &c.line[from..from + len];
    let base32 = body
        .bytes()
        .all(|c| c.is_ascii_uppercase() || (b'2'..=b'7').contains(&c));
    let what = if c.line[c.at..].starts_with("ASIA") {
        "an AWS temporary access key id"
    } else {
        "an AWS access key id"
    };
    (len == 16 && base32 && plausible(body)).then(|| Token::new(from + len, what, 6))
}

/// Google API keys: `AIza` and 35 characters.
fn google(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 4;
    let len = run(b, from, word_dash);
    (len == 35 && plausible(&c.line[from..from + len]))
        .then(|| Token::new(from + len, "a Google API key", 6))
}

/// Hugging Face access tokens: `hf_` and 34 letters.
fn hugging_face(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 3;
    let len = run(b, from, |c| c.is_ascii_alphabetic());
    let ends = !b.get(from + len).is_some_and(|c| word_dash(*c));
    (len == 34 && ends && plausible(&c.line[from..from + len]))
        .then(|| Token::new(from + len, "a Hugging Face access token", 5))
}

/// PyPI upload tokens: a macaroon, base64url, whose first bytes name pypi.org.
fn pypi(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    let from = c.at + 20;
    let len = run(b, from, word_dash);
    (len >= 50 && plausible(&c.line[from..from + len]))
        .then(|| Token::new(from + len, "a PyPI upload token", 7))
}

/// A JSON Web Token: three base64url parts, the first two JSON objects (the header with an
/// `alg`), and a signature. A token for anonymous access (`"role": "anon"`, as Supabase
/// hands to browsers) is public by design.
fn jwt(c: &Cursor<'_>) -> Option<Token> {
    let b = c.line.as_bytes();
    // Three parts at most: a line of `eyJ.eyJ.…` is looked at once, not once a prefix.
    let mut dots = 0;
    let len = b[c.at..]
        .iter()
        .take_while(|ch| {
            dots += usize::from(**ch == b'.');
            word_dash(**ch) || (**ch == b'.' && dots < 3)
        })
        .count();
    let token = &c.line[c.at..c.at + len];
    let mut parts = token.split('.');
    let (header, payload, signature) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || signature.len() < 16 {
        return None;
    }
    let header = json_object(header)?;
    let payload = json_object(payload)?;
    let claim = |name: &str| payload.get(name).and_then(|v| v.as_str());
    if !header.contains_key("alg") || claim("role") == Some("anon") || example_claims(&payload) {
        return None;
    }
    Some(Token::new(c.at + len, "a JSON Web Token", 5))
}

/// The claims RFC 7519 registers: a token that is used has some of them (who issued it,
/// for whom, until when).
const REGISTERED_CLAIMS: &[&str] = &["iss", "sub", "aud", "exp", "nbf", "iat", "jti"];

/// Claims only an example has: none of the registered ones (`{"some": "payload"}`), a
/// subject that is a placeholder (`1234567890`), or a placeholder person or address
/// (`John Doe`, `user@example.com`).
fn example_claims(payload: &serde_json::Map<String, serde_json::Value>) -> bool {
    if !REGISTERED_CLAIMS.iter().any(|c| payload.contains_key(*c)) {
        return true;
    }
    let placeholder_sub = payload
        .get("sub")
        .and_then(|v| v.as_str())
        .is_some_and(is_placeholder);
    placeholder_sub
        || payload.values().filter_map(|v| v.as_str()).any(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("john doe") || v.contains("jane doe") || v.contains("example")
        })
}

/// A base64url part decoded to a JSON object.
fn json_object(part: &str) -> Option<serde_json::Map<String, serde_json::Value>> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part.trim_end_matches('='))
        .ok()?;
    match serde_json::from_slice(&bytes).ok()? {
        serde_json::Value::Object(map) => Some(map),
        _ => None,
    }
}

/// Bytes of a key block's body looked at, at most: a real key is well within it.
const MAX_KEY_BODY: usize = 8 * 1024;

/// Bytes after a key's header in which its body's lines are looked for: far more than the
/// longest real key's (an RSA key of 16,384 bits has about 13 KB of base64).
const KEY_WINDOW: usize = 4 * MAX_KEY_BODY;

/// What of `text` (after a key's header) may hold its body: up to the footer or the next
/// header (`-----`), within [`KEY_WINDOW`]; and whether that ends it. Each header of a line
/// searched the rest of the line, and the next line whole, for its line breaks: a megabyte
/// of headers with no body took 5 s, two megabytes 21 s.
fn before_footer(text: &str) -> (&str, bool) {
    let window = &text[..floor_boundary(text, KEY_WINDOW)];
    match window.find("-----") {
        Some(i) => (&window[..i], true),
        // A body that runs on past the window is taken to its end, so that all of it is
        // masked in what toolc prints (linear: a run of base64 holds no other header).
        None => {
            let rest = text.get(window.len()..).unwrap_or("");
            let run = rest
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
                .count();
            (&text[..window.len() + run], false)
        }
    }
}

/// Base64 characters a private key's body has at least (the shortest real key, an
/// Ed25519 one, has a few hundred).
const MIN_KEY_BODY: usize = 64;

/// `-----BEGIN … PRIVATE KEY-----` with a body: 64 or more varied base64 characters on the
/// same line (a JSON string's `\n`-joined lines) or the lines after. A header with no body,
/// or with `...` or a placeholder for one, is an example.
fn private_key(c: &Cursor<'_>) -> Option<Token> {
    let rest = &c.line[c.at + 11..];
    let close = rest.find("-----")?;
    let label = &rest[..close];
    if !(label.ends_with("PRIVATE KEY") || label.ends_with("PRIVATE KEY BLOCK"))
        || !label.bytes().all(|b| b.is_ascii_uppercase() || b == b' ')
    {
        return None;
    }
    let header_end = c.at + 11 + close + 5;
    let on_line = &c.line[header_end..];
    let (body, body_len) = key_body(on_line, c.after, c.after_at.saturating_sub(header_end));
    let mut token = Token::new(header_end, "a private key block", 0);
    token.body_end = Some(header_end + body_len);
    (body.len() >= MIN_KEY_BODY && entropy(&body) >= 4.0).then_some(token)
}

/// The base64 characters of a key body that starts at `on_line` and goes on in `after`
/// (which starts `after_at` bytes after `on_line` does), and how many bytes from the
/// body's start they reach. Lines are the line's own (`\n` written out, as in a JSON
/// string) and then the text's; quotes, commas and `+` around them are joined strings'.
fn key_body(on_line: &str, after: &str, after_at: usize) -> (String, usize) {
    let (on_line, ends) = before_footer(on_line);
    // The next lines, when the body does not end on this one.
    let after = if ends || after_at > MAX_KEY_BODY {
        ""
    } else {
        before_footer(after).0
    };
    let written = on_line.split("\\n").scan(0, |next, s| {
        let at = *next;
        *next += s.len() + 2;
        Some((at, s))
    });
    let following = after.split('\n').scan(after_at, |next, s| {
        let at = *next;
        *next += s.len() + 1;
        Some((at, s))
    });
    let punctuation = |c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ',' | '+');
    let mut body = String::new();
    let mut reach = 0;
    for (at, line) in written.chain(following) {
        if at > MAX_KEY_BODY {
            break;
        }
        let start = line.trim_start_matches(punctuation);
        let at = at + (line.len() - start.len());
        let line = start.trim_end_matches("\\r").trim_end_matches(punctuation);
        if line.is_empty() {
            continue;
        }
        // An encrypted key's `Proc-Type:` and `DEK-Info:` lines come before its body.
        if body.is_empty() && line.contains(':') && !line.contains("-----") {
            continue;
        }
        if !line
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        {
            break;
        }
        body.push_str(line);
        reach = at + line.len();
    }
    (body, reach)
}

#[cfg(test)]
mod tests;
