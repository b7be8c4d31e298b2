//! Credentials written into text, found the way secret scanners find them: tokens of known
//! formats checked as their issuers build them (lengths, alphabets, checksums, decoded
//! structure), private key blocks with a body, passwords in URLs and given to HTTP
//! clients, literal credential headers, and values assigned to names that say they hold a
//! secret when the value is random enough to be one (and is no placeholder, reference or
//! code). One table of formats and one notion of a "secret-like name" serve every format.
//!
//! A finding carries its byte range and what it is, never the secret itself: callers show
//! it through [`mask`] so a report does not leak what it warns about. Some findings are
//! only masked, never reported ([`Secret::reported`]): a token whose checksum proves it
//! made up, a weak literal password.

mod decoded;
mod formats;
mod headers;
mod named;
mod names;
mod piped;
mod strength;
mod text;

pub(crate) use named::named_value_secrets;
use names::assignments;
pub(crate) use names::{SecretName, secret_name};
use strength::{Bar, is_expression, is_location, strong};
pub(crate) use strength::{is_placeholder, looks_random};
pub(crate) use text::{redact, scan_text};

/// Past this many credentials on one line, the line is scanned no further.
const MAX_SECRETS_PER_LINE: usize = 16;

/// What a found credential is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SecretKind {
    /// `-----BEGIN … PRIVATE KEY-----` with a body.
    PrivateKey,
    /// A token of a well-known format.
    Token {
        /// What it is (`a GitHub personal access token`).
        what: &'static str,
        /// How many of its characters [`mask`] may show (its prefix and two more).
        prefix_len: usize,
    },
    /// The password of a `scheme://user:password@host` URL.
    UrlPassword,
    /// The password of a `user:password` pair given to an HTTP client (`curl -u`).
    UserPassword,
    /// A password written into a command for a program that prompts for it
    /// (`echo 'pw' | sudo -S`, `sshpass -p pw`).
    GivenPassword {
        /// The program (`sudo`).
        program: &'static str,
    },
    /// The value of a credential header (`Authorization: Bearer …`, `X-API-Key: …`).
    AuthHeader {
        /// The header's name, as written.
        name: String,
    },
    /// A value assigned to a name that says it holds a secret (`DB_PASSWORD=…`).
    Assigned {
        /// The name, as written.
        name: String,
        /// Whether the name says password or token (rather than key or secret).
        literal: bool,
    },
    /// Text the scan did not read that may hold a credential: the rest of a word after a
    /// token glued to it, the rest of a line past its cap of credentials. Only masked.
    Unread,
}

/// A credential found in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Secret {
    /// Byte offset of its first character in the line.
    pub start: usize,
    /// Byte offset after its last character.
    pub end: usize,
    /// Byte offset where masking ends: past `end` for a key block, whose body follows its
    /// header (perhaps on later lines).
    pub masked_end: usize,
    /// What it is.
    pub kind: SecretKind,
    /// Whether it is reported as a credential; otherwise it is only masked in output (a
    /// token whose checksum proves it made up, a weak password that may still be real).
    pub reported: bool,
}

impl Secret {
    fn new(start: usize, end: usize, kind: SecretKind) -> Self {
        Secret {
            start,
            end,
            masked_end: end,
            kind,
            reported: true,
        }
    }

    fn masked_only(mut self) -> Self {
        self.reported = false;
        self
    }

    /// Whether byte `at` of the line is inside this credential.
    fn holds(&self, at: usize) -> bool {
        self.start <= at && at < self.masked_end.max(self.end)
    }
}

/// `keep` characters of `secret`, then `…`: enough to find it, not enough to use it.
pub(crate) fn mask(secret: &str, keep: usize) -> String {
    let shown: String = secret.chars().take(keep).collect();
    format!("{shown}…")
}

/// The text around a line, for the checks that read past it: a key block's body on the
/// lines after its header, the `curl` a continued command line belongs to.
#[derive(Default, Clone, Copy)]
pub(super) struct Around<'a> {
    /// The text before the line.
    before: &'a str,
    /// The text after it.
    after: &'a str,
    /// Where `after` starts, in bytes from the line's start.
    after_at: usize,
}

/// Every credential written into one line (reported or only masked), in the order the
/// checks find them: token formats and key blocks, URL passwords, headers and
/// `user:password` pairs, then assignments to secret-like names.
pub(crate) fn scan_line(line: &str) -> Vec<Secret> {
    let around = Around {
        after_at: line.len() + 1,
        ..Around::default()
    };
    scan(line, around, true)
}

/// [`scan_line`] with the text around the line; without `formats` (no format's prefix is
/// on the line), no token is looked for.
pub(super) fn scan(line: &str, around: Around<'_>, formats: bool) -> Vec<Secret> {
    let mut out = scan_capped(line, around, formats);
    if out.len() >= MAX_SECRETS_PER_LINE {
        // The line was read no further: what else it holds is not known, so all of it is
        // masked (a line of twenty tokens printed its seventeenth whole).
        out.push(Secret::new(0, line.len(), SecretKind::Unread).masked_only());
    }
    out
}

/// [`scan`] up to [`MAX_SECRETS_PER_LINE`] credentials.
fn scan_capped(line: &str, around: Around<'_>, formats: bool) -> Vec<Secret> {
    let mut out = Vec::new();
    if formats {
        for (at, t) in formats::tokens(line, around.after, around.after_at) {
            if out.len() >= MAX_SECRETS_PER_LINE {
                return out;
            }
            let kind = match t.body_end {
                Some(_) => SecretKind::PrivateKey,
                None if t.unread => SecretKind::Unread,
                None => SecretKind::Token {
                    what: t.what,
                    prefix_len: t.shown.saturating_sub(2),
                },
            };
            let mut secret = Secret::new(at, t.end, kind);
            secret.masked_end = t.body_end.unwrap_or(t.end).max(t.end);
            out.push(if t.fake { secret.masked_only() } else { secret });
        }
    }
    url_passwords(line, &mut out);
    headers::auth_headers(line, &mut out);
    headers::user_passwords(line, around.before, &mut out);
    piped::piped_passwords(line, &mut out);
    for a in assignments(line) {
        if out.len() >= MAX_SECRETS_PER_LINE {
            break;
        }
        if out.iter().any(|h| h.holds(a.value.0)) {
            continue;
        }
        let Some(name) = secret_name(a.name) else {
            continue;
        };
        if names::is_public(a.name) || names::in_algolia_block(around.before) {
            continue;
        }
        let value = &line[a.value.0..a.value.1];
        if is_expression(value, a.quoted) {
            continue;
        }
        let literal = name == SecretName::Literal;
        // People choose passwords; tokens and keys are generated.
        let bar = if names::says_password(a.name) {
            Bar::Password
        } else {
            Bar::Random
        };
        let secret = Secret::new(
            a.value.0,
            a.value.1,
            SecretKind::Assigned {
                name: a.name.to_string(),
                literal,
            },
        );
        if strong(value, bar) {
            out.push(secret);
        } else if literal && maybe_password(value) {
            out.push(secret.masked_only());
        }
    }
    out
}

/// `text` with its `%XX` escapes decoded, as a URL's user information is written
/// (`p%40ss` is `p@ss`); as it is when they do not decode to UTF-8.
fn percent_decoded(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('%') {
        return std::borrow::Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_or(std::borrow::Cow::Borrowed(text), std::borrow::Cow::Owned)
}

/// A literal that may be a weak password: not reported, but not shown either.
fn maybe_password(value: &str) -> bool {
    !is_placeholder(value)
        && !is_location(value)
        && !value.bytes().all(|b| b.is_ascii_digit())
        && !value.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
}

/// Passwords in `scheme://user:password@host`: reported when the password is random or a
/// strong mixed-class one, only masked when it is a weak literal (`user:pass`,
/// `postgres:postgres`), left alone when it is a placeholder or a reference.
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
        let Some((user, password)) = userinfo.split_once(':') else {
            continue;
        };
        let start = from + user.len() + 1;
        if password.is_empty() || out.iter().any(|h| h.holds(start)) {
            continue;
        }
        let secret = Secret::new(start, start + password.len(), SecretKind::UrlPassword);
        let decoded = percent_decoded(password);
        if password != user && strong(&decoded, Bar::Password) {
            out.push(secret);
        } else if maybe_password(password) {
            out.push(secret.masked_only());
        }
    }
}

#[cfg(test)]
mod tests;
