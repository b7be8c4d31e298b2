//! Names that say they hold a secret (`DB_PASSWORD`, `apiKey`), and the values a line
//! assigns to them.

use super::MAX_SECRETS_PER_LINE;

/// Name parts that say the value is a password or token: where the name is all there is to
/// go by (a configuration's environment variable), any literal value is one.
const LITERAL_SECRET_NAMES: &[&str] = &["password", "passwd", "pwd", "passphrase", "token"];

/// Name parts that mean the value is a credential when it also looks random.
const RANDOM_SECRET_NAMES: &[&str] = &[
    "secret",
    "key",
    "apikey",
    "credential",
    "credentials",
    "auth",
];

/// Variables named like a password that hold something else: the shell's working folders.
const NOT_SECRET_NAMES: &[&str] = &["PWD", "OLDPWD"];

/// Name parts that say the value is public by design: a publishable or anonymous key,
/// a site key, a public key. (`NEXT_PUBLIC_…`, `publishableKey`, `SUPABASE_ANON_KEY`.)
const PUBLIC_NAME_PARTS: &[&str] = &["public", "publishable", "pubkey", "anon", "site"];

/// Whether a secret-like name says its value is public: a [`PUBLIC_NAME_PARTS`] part, or an
/// Algolia key that is not the admin one (Algolia's search-only keys are meant for
/// browsers and docs sites; the admin key is called so).
pub(super) fn is_public(name: &str) -> bool {
    let parts = name_parts(name);
    let has = |w: &str| parts.iter().any(|p| p == w);
    PUBLIC_NAME_PARTS.iter().any(|w| has(w)) || (has("algolia") && !has("admin") && !has("write"))
}

/// Lines before a value looked at for the block it is in.
const BLOCK_LINES: usize = 3;

/// Whether the lines just before (`before` ends where the value's line starts) open an
/// Algolia block (`algolia: { appId, apiKey, indexName }`, as docs sites configure their
/// search): its key is the search-only one.
pub(super) fn in_algolia_block(before: &str) -> bool {
    before
        .strip_suffix('\n')
        .unwrap_or(before)
        .rsplit('\n')
        .take(BLOCK_LINES)
        .any(|l| l.to_ascii_lowercase().contains("algolia"))
}

/// Name parts of a password, which people choose (rather than a generated token or key).
const PASSWORD_NAMES: &[&str] = &["password", "passwd", "pwd", "passphrase"];

/// Whether a secret-like name says its value is a password (`DB_PASSWORD`, `passphrase`).
pub(super) fn says_password(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name_parts(name)
        .last()
        .is_some_and(|last| PASSWORD_NAMES.contains(&last.as_str()))
        || lower.contains("password")
        || lower.contains("passwd")
}

/// How a name says it holds a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SecretName {
    /// A password or token: any literal value given to the name alone is a secret; in text,
    /// one strong enough (see [`crate::analysis::secrets::scan_line`]).
    Literal,
    /// A key, secret or credential: a random-looking value is a secret.
    Random,
}

/// Whether a variable, key or flag name says it holds a secret (`DB_PASSWORD`, `apiKey`,
/// `GITHUB_TOKEN`, `PASSWORD_FILE`), and how. Judged on the name's last part, except that a
/// password anywhere in it counts.
pub(crate) fn secret_name(name: &str) -> Option<SecretName> {
    if NOT_SECRET_NAMES.contains(&name) {
        return None;
    }
    let parts = name_parts(name);
    let last = parts.last()?;
    if LITERAL_SECRET_NAMES.contains(&last.as_str()) {
        return Some(SecretName::Literal);
    }
    let lower = name.to_ascii_lowercase();
    (RANDOM_SECRET_NAMES.contains(&last.as_str())
        || lower.contains("password")
        || lower.contains("passwd"))
    .then_some(SecretName::Random)
}

/// `name = value`, `name: value` (at the start of a line or quoted as in JSON), `--name value`.
pub(super) struct Assignment<'a> {
    /// The name, as written (a flag's without its dashes).
    pub(super) name: &'a str,
    /// The value's byte range in the line.
    pub(super) value: (usize, usize),
    /// Whether the value is quoted (a string literal, where unquoted code is an expression).
    pub(super) quoted: bool,
}

/// True when the value that starts at byte `i` (after spaces and a quote) ends within four
/// bytes: shorter than any credential.
fn short_value(b: &[u8], mut i: usize) -> bool {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    let quote = b.get(i).copied().filter(|q| *q == b'"' || *q == b'\'');
    if quote.is_some() {
        i += 1;
    }
    let end = (i + 4).min(b.len());
    end < i + 4
        || b[i..end].iter().any(|c| match quote {
            Some(q) => *c == q,
            None => c.is_ascii_whitespace() || matches!(c, b';' | b'&' | b',' | b'`' | b')' | b'}'),
        })
}

/// Assignments to secret-like names in a line.
pub(super) fn assignments(line: &str) -> Vec<Assignment<'_>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.';
    let value_at = |mut i: usize| -> Option<(usize, usize, bool)> {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        let quote = b.get(i).copied().filter(|q| *q == b'"' || *q == b'\'');
        if quote.is_some() {
            i += 1;
        }
        let start = i;
        while i < b.len() {
            let c = b[i];
            if Some(c) == quote
                || (quote.is_none()
                    && (c.is_ascii_whitespace()
                        || matches!(c, b';' | b'&' | b',' | b'`' | b')' | b'}' | b'"' | b'\'')))
            {
                break;
            }
            i += 1;
        }
        (i > start).then_some((start, i, quote.is_some()))
    };
    // Only the first colon can end a YAML or JSON key; a value is never rescanned for
    // separators, so a line of `a=a=a=…` stays linear.
    let first_colon = line.find(':');
    let mut resume = 0;
    for (i, c) in line.char_indices() {
        if i < resume {
            continue;
        }
        let sep = match c {
            '=' => true,
            ':' if Some(i) == first_colon => {
                // YAML or JSON keys only: `name:` first on the line (after `- ` or a quote).
                let head = line[..i]
                    .trim_start()
                    .trim_start_matches("- ")
                    .trim_matches(['"', '\'']);
                !head.is_empty()
                    && head.bytes().all(is_name)
                    && b.get(i + 1).is_some_and(|n| *n == b' ' || *n == b'"')
            }
            // A quoted JSON key further along the line (`{"A": "x", "DB_PASSWORD": "y"}`):
            // looked at back to its opening quote only, so the line stays linear.
            ':' => {
                let key = line[..i].trim_end_matches(' ');
                key.strip_suffix('"').is_some_and(|inner| {
                    let name = inner.bytes().rev().take_while(|c| is_name(*c)).count();
                    name > 0 && inner[..inner.len() - name].ends_with('"')
                })
            }
            _ => false,
        };
        if !sep {
            continue;
        }
        // A value too short to be anything but a placeholder is never a credential: the
        // name need not be looked at. (Only a few bytes are looked at, so a line of
        // `a=a=a=…` stays linear.)
        if short_value(b, i + 1) {
            continue;
        }
        let before = line[..i].trim_end_matches(['"', '\'', ' ']);
        let name_start = before.len() - before.bytes().rev().take_while(|c| is_name(*c)).count();
        let name = before[name_start..].trim_start_matches('-');
        if secret_name(name).is_none() {
            continue;
        }
        if let Some((start, end, quoted)) = value_at(i + 1) {
            resume = end;
            out.push(Assignment {
                name,
                value: (start, end),
                quoted,
            });
            if out.len() >= MAX_SECRETS_PER_LINE {
                return out;
            }
        }
    }
    // `--password hunter2`, `--api-key …`.
    let mut it = crate::analysis::shell::words(line).peekable();
    while let Some((_, w)) = it.next() {
        if out.len() >= MAX_SECRETS_PER_LINE {
            break;
        }
        if let Some(flag) = w.strip_prefix("--").filter(|f| !f.contains('='))
            && secret_name(flag).is_some()
            && let Some((at, v)) = it.peek().copied()
            && !v.starts_with('-')
        {
            let quoted = v.starts_with(['"', '\'']);
            let v = v.trim_matches(['"', '\'']);
            let start = at + line[at..].find(v).unwrap_or(0);
            out.push(Assignment {
                name: flag,
                value: (start, start + v.len()),
                quoted,
            });
        }
    }
    out
}

/// `DB_PASSWORD` → [db, password]; `apiKey` → [apikey].
fn name_parts(name: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.') {
            if !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    // `apikey` and `api_key` are the same name.
    if parts.len() >= 2 && parts[parts.len() - 2] == "api" && parts[parts.len() - 1] == "key" {
        parts.pop();
        if let Some(last) = parts.last_mut() {
            *last = "apikey".into();
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        assert_eq!(secret_name("DB_PASSWORD"), Some(SecretName::Literal));
        assert_eq!(secret_name("GITHUB_TOKEN"), Some(SecretName::Literal));
        assert_eq!(secret_name("OAI_API_KEY"), Some(SecretName::Random));
        assert_eq!(secret_name("apiKey"), Some(SecretName::Random));
        assert_eq!(secret_name("PASSWORD_FILE"), Some(SecretName::Random));
        assert_eq!(secret_name("KEYBOARD_LAYOUT"), None);
        assert_eq!(secret_name("PWD"), None);
        assert_eq!(secret_name("TOKENIZER"), None);
        assert_eq!(name_parts("apiKey"), ["apikey"]);
        assert_eq!(name_parts("DB_PASSWORD"), ["db", "password"]);
        assert!(says_password("DB_PASSWORD") && says_password("userPwd"));
        assert!(!says_password("GITHUB_TOKEN") && !says_password("api_key"));
    }

    #[test]
    fn public_names() {
        for name in [
            "NEXT_PUBLIC_SUPABASE_ANON_KEY",
            "publishableKey",
            "RECAPTCHA_SITE_KEY",
            "x-algolia-api-key",
            "ALGOLIA_SEARCH_KEY",
        ] {
            assert!(is_public(name), "{name}");
        }
        for name in ["ALGOLIA_ADMIN_KEY", "OPENAI_API_KEY", "DB_PASSWORD"] {
            assert!(!is_public(name), "{name}");
        }
        assert!(in_algolia_block("  algolia: {\n    appId: 'X',\n"));
        assert!(!in_algolia_block("algolia: {\n1\n2\n3\n"));
        assert!(!in_algolia_block(""));
    }
}
